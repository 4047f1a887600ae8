"""Seeded bot games of the `talisman` main board with the Dungeon (`dungeon=true`, house rules H2, H5.20),
capped for bots: after every event the shared playout checks (`tests/playout_helpers`) hold, every
character on exactly one board's space and every card in exactly one pile, space or sheet; across the
games characters go down into the Dungeon and come out of it again (Dungeon 5, 8)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.events import Event
from domain.rulesets.talisman.main.events import RegionCrossed
from event_store.app.service import play_with_bots
from simulation.bot_games import bot_game_options
from tests.playout_helpers import play
from tests.rulesets.talisman.test_playout_with_expansions import ExpansionGame

pytestmark = pytest.mark.slow  # a playout: seeded bot games of the main board with the Dungeon

GAMES = 20
CAP = "400"


def options_for(seed: int) -> dict[str, str]:
    """Returns game `seed`'s options: the Dungeon, the cap, and in some games an alternative (Dungeon 13)."""
    options = {"bot_round_cap": CAP, "dungeon": "true"}
    if seed % 5 == 1:
        options["dungeon.talisman_exit"] = "true"
    elif seed % 5 == 2:
        options["dungeon.crown_exit"] = "true"
    return options


@pytest.fixture(scope="module")
def played() -> list[tuple[dict[str, Any], list[Event]]]:
    games = [play(seed, options_for(seed), ExpansionGame) for seed in range(GAMES)]
    return [(state, log) for _, _, state, log in games]


def test_every_bot_game_with_the_dungeon_ends_and_keeps_its_invariants(played):
    """house rules H2: every game ends (a win or the cap); the checks ran on every event of every game."""
    for state, _ in played:
        assert state["phase"] == "over"


def test_bot_characters_go_down_into_the_dungeon_and_come_out_again(played):
    """Dungeon 5.2, 8.1-8.3: across the games characters enter the Dungeon and leave it for the main board."""
    crossings = [e for _, log in played for e in log if isinstance(e, RegionCrossed)]
    assert any(e.to_board == "dungeon" for e in crossings)
    assert any(e.from_board == "dungeon" for e in crossings)


def test_a_bot_game_with_the_dungeon_played_through_the_store_audits_clean(store_service, store_kind):
    """house rules H2: a stored game with the Dungeon re-folds and re-decides to the very events recorded."""
    service = store_service
    options = bot_game_options("talisman", {"dungeon": "true"})
    game_id = service.create_game("talisman", [("Ann", None), ("Bo", None)], options)
    # Fewer actions on PostgreSQL (each a save over the network); it still reaches the Dungeon.
    play_with_bots(service, game_id, seed=5, max_actions=1500 if store_kind == "sqlite" else 700)
    report = service.audit(game_id)
    assert report.ok, report.findings[:3]
    assert any(isinstance(e, RegionCrossed) and e.to_board == "dungeon" for e in report.decoded)
