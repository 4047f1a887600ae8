"""The main board's quick legality check answers exactly what its legal actions list (the audit asks
`is_legal` once per action instead of labelling every action), in every state of seeded bot games."""

from __future__ import annotations

from typing import Any

import pytest

from domain.actions import HOST, START
from domain.rulesets.talisman.main.ruleset import TalismanGame
from event_store.app.service import GameService, play_with_bots
from simulation.bot_games import bot_game_options

# Ids of every kind the main board takes, and near misses: each is asked of every player in every state.
BOARDS = {"outer": 24, "middle": 16, "inner": 8, "crown": 1}
GO = [f"go:{board}:{space}" for board, size in BOARDS.items() for space in range(size)]
FIXED = ["roll", "advance", "advance:crypt", "retreat", "command", "cross:sentinel", "cross:back"]
FIXED += ["cross:raft", "portal:strength", "portal:craft", "choose:", "choose:nothing", "go:", START]


@pytest.mark.parametrize("seed", range(4))
def test_is_legal_says_what_legal_actions_list_in_every_state_of_a_bot_game(seed: int) -> None:
    service = GameService.open(":memory:")
    seats: list[tuple[str, str | None]] = [("Ann", None), ("Bo", None), ("Cy", None)]
    game_id = service.create_game("talisman", seats, bot_game_options("talisman"))
    checked = [0]

    def compare(game: Any, action: Any, recorded: Any) -> None:
        ruleset: TalismanGame = game.ruleset
        state = game.state
        listed = {name: {a.id for a in ruleset.legal_actions(state, name)} for name in [*seats_of(state)]}
        candidates = set(FIXED) | set(GO) | set().union(*listed.values())
        for name in [*seats_of(state), HOST, "nobody"]:
            legal = listed.get(name, set())
            for action_id in candidates:
                assert ruleset.is_legal(state, name, action_id) == (action_id in legal), (name, action_id)
        checked[0] += 1

    play_with_bots(service, game_id, seed=seed, max_actions=300, on_action=compare)
    assert checked[0] >= 100


def seats_of(state: dict[str, Any]) -> list[str]:
    return list(state["order"])
