"""20 seeded bot games of `talisman` with the Vampire's Keep (`keep=true`, house rules H3, H5.20), checked
every event by the shared playout checks (`tests/playout_helpers`: every character on exactly one board and
a space of it, every card in exactly one place, the Teleport counters on the Keep's tiles counted there),
and before every pick: the fast legality check agrees with the actions offered, on the Keep too. The bots
go into the Keep, meet the Vault and come out again."""

from __future__ import annotations

from typing import Any

import pytest

from domain.actions import Action
from domain.events import Event
from domain.rulesets.keep.events import EntryTested, VaultCardMet
from domain.rulesets.talisman.main.events import RegionCrossed
from tests.playout_helpers import CheckedGame, play
from tests.rulesets.talisman.test_playout_with_expansions import ExpansionGame

pytestmark = pytest.mark.slow  # a playout: seeded bot games of the main board with the Keep

GAMES = 20
OPTIONS = {"keep": "true", "bot_round_cap": "400"}
KEEP_IDS = frozenset({"enter", "roll", "flee", "leave", "exit", "choose:go", "choose:stay"})


def legal_exactly_when_offered(game: CheckedGame, state: dict[str, Any], actions: list[Action]) -> None:
    """Asserts the fast legality check says yes to every action offered and no to the Keep's others."""
    offered = {a.id for a in actions}
    assert all(game.is_legal(state, a.player, a.id) for a in actions), offered
    player = actions[0].player
    assert not any(game.is_legal(state, player, i) for i in KEEP_IDS - offered), offered


@pytest.fixture(scope="module")
def played() -> dict[int, tuple[dict[str, Any], list[Event]]]:
    games = {seed: play(seed, OPTIONS, ExpansionGame, legal_exactly_when_offered) for seed in range(GAMES)}
    return {seed: (state, log) for seed, (_, _, state, log) in games.items()}


def test_rules_5_every_bot_game_with_the_keep_ends_and_keeps_its_invariants(played):
    """house rules H6.1, H3: every game ends (by the rules or at the bot round cap), every event checked."""
    for seed, (state, _) in played.items():
        assert state["phase"] == "over", seed


def test_keep_4_bots_go_into_the_keep_reach_the_vault_and_come_out(played):
    """Keep 4, 9.1: over the games, characters pass the entry test, meet the Vault and leave the Keep."""
    logs = [log for _, log in played.values()]
    entered = sum(isinstance(e, EntryTested) and e.passed for log in logs for e in log)
    vault = sum(isinstance(e, VaultCardMet) for log in logs for e in log)
    out = sum(isinstance(e, RegionCrossed) and e.from_board == "keep" for log in logs for e in log)
    assert entered > 0 and vault > 0 and out > 0
