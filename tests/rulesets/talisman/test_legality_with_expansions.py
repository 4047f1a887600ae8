"""With the expansions in play the quick legality check still answers exactly what the legal actions
list (Dungeon 10, Keep 11: only the casts these rules allow are offered), in every state of a seeded
bot game, for every Spell of the deck cast alone or at each other character."""

from __future__ import annotations

from typing import Any

import pytest

from domain.rulesets.talisman.main.ruleset import TalismanGame
from event_store.app.service import GameService, play_with_bots
from simulation.bot_games import bot_game_options

pytestmark = pytest.mark.slow  # whole bot games with both expansions, every position checked twice

BOTH = {"dungeon": "true", "keep": "true"}
# A game whose characters cast inside (seed 7's Ninja passes the Keep and wins by action 237; seed 1's
# game, since the house rule the Crown against healing, ends by action 820 with no cast inside).
SEED = 2


def test_is_legal_agrees_on_every_cast_and_choice_in_a_bot_game_with_both_expansions() -> None:
    # Dungeon 10, Keep 11: the casts offered are those the rules allow, and `is_legal` says the same.
    service = GameService.open(":memory:")
    seats: list[tuple[str, str | None]] = [("Ann", None), ("Bo", None), ("Cy", None)]
    game_id = service.create_game("talisman", seats, bot_game_options("talisman", BOTH))
    checked, elsewhere = [0], [0]

    def compare(game: Any, action: Any, recorded: Any) -> None:
        ruleset: TalismanGame = game.ruleset
        state = game.state
        casts = [f"cast:{s.id}" for s in ruleset.ctx.spells.spells]
        candidates = casts + [f"{c}:{name}" for c in casts for name in state["order"]]
        for name in state["order"]:
            listed = {a.id for a in ruleset.legal_actions(state, name)}
            for action_id in [*candidates, *listed]:
                assert ruleset.is_legal(state, name, action_id) == (action_id in listed), (name, action_id)
        checked[0] += 1
        turn = state["players"][state["turn"]]
        elsewhere[0] += turn["board"] in ("dungeon", "keep") and bool(turn["spells"])

    play_with_bots(service, game_id, seed=SEED, max_actions=1_500, on_action=compare)
    assert checked[0] >= 100 and elsewhere[0] >= 5  # casts were asked of characters in the Dungeon or Keep
