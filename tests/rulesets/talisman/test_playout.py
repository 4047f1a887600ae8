"""300 seeded bot games of the `talisman` main board (house rule H6.1) with the house round cap for bots:
every game ends, by a win or at the cap, and after every event of every game the state holds:

- every character stands on a space of its board (house rule H5.1: the regions are boards);
- lives are never negative;
- Strength and Craft never fall under the character's starting values (house rule H1.3: no main-board rule
  lowers them further; the Keep's Tome, which may, is not on this board);
- every card is in exactly one place (a pile, a space, a sheet): the pile ledger balances, for the
  Adventure, Purchase, Spell and Talisman decks and the characters alike.

The games are played with the decider directly (no store), each event checked on the working state as
the resolution applies it; a sample is rebuilt from its events and must show the same board, and one
game played through the store must show the board its log folds to at every stop.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from domain.events import Event, GameEnded, GameWon
from event_store.app.service import play_with_bots
from event_store.recorded import fold_recorded
from projections.views import render_board
from simulation.bot_games import bot_game_options
from tests import playout_helpers
from tests.main_helpers import ANN, BO, act, new_game, put
from tests.playout_helpers import CheckedGame, rebuilt

pytestmark = pytest.mark.slow  # a playout: 300 seeded bot games of the main board

GAMES = 300
CAP = "400"
REBUILT = range(0, GAMES, 25)  # these games are folded again from their events and must look the same


def play(seed: int) -> tuple[CheckedGame, dict[str, Any], dict[str, Any], list[Event]]:
    """Plays one seeded bot game; returns the ruleset, the state before the deal and after, and the log."""
    options = {"bot_round_cap": CAP, "ending": "first" if seed % 4 == 3 else "crown"}
    return playout_helpers.play(seed, options)


@pytest.fixture(scope="module")
def played() -> dict[int, tuple[int, str, int, bool, int]]:
    """Plays every game once: its seed → (events, how it ended, events checked, whether its ending was
    the last event, rounds begun)."""
    results = {}
    for seed in range(GAMES):
        game, initial, state, log = play(seed)
        (end,) = [e for e in log if isinstance(e, GameWon | GameEnded)]
        assert state["phase"] == "over", f"seed {seed}"
        # Missed turns can carry the count past a round more in one action (see the test below).
        assert state["round"] <= int(CAP) + 3, f"seed {seed}"
        if seed in REBUILT:
            again = rebuilt(game.options, initial, log)
            assert again == state and render_board("talisman", again) == render_board("talisman", state)
        ended_last = log.index(end) == len(log) - 1
        results[seed] = (len(log), end.reason, game.checked, ended_last, state["round"])
    return results


def test_every_bot_game_ends_by_a_win_or_at_the_house_round_cap(played):
    assert len(played) == GAMES
    for seed, (events, reason, checked, *_) in played.items():
        assert checked == events, f"seed {seed}: {checked} of {events} events checked"
        assert "house round cap for bot games" in reason or "house rule H5.19" in reason or "Crown" in reason
    won = sum("round cap" not in reason for _, reason, *_ in played.values())
    assert won > 0  # some bot games end by the rules, not only at the cap


# Rule bugs these games found (seeds 14, 22, 88 of this module's `play`: an Event card was discarded
# after the GameWon its encounter caused), held fixed:
def test_nothing_happens_after_the_game_ended(played):
    assert [seed for seed, (*_, ended_last, _) in played.items() if not ended_last] == []


def test_the_round_cap_ends_a_game_as_its_round_after_the_cap_begins():
    # house rule H6.1 (house): after 400 rounds a bot game ends drawn. Here the 400th round ends with both
    # characters to miss a turn: passing the turn skips them both, into round 402, before the cap is read.
    game, state = new_game({"bot_round_cap": CAP})
    put(state, BO, "crown", 0)
    put(state, ANN, "outer", 3, skips=1)
    state["players"][BO]["skips"] = 1
    state.update(round=int(CAP), turn=BO)
    events, after = act(game, state, "command", BO, values=[1])
    assert isinstance(events[-1], GameEnded) and after["round"] == int(CAP) + 1


def test_the_store_shows_the_board_its_log_folds_to(store_service, store_kind):
    service = store_service
    game_id = service.create_game(
        "talisman", [("Ann", None), ("Bo", None), ("Cy", None)], bot_game_options("talisman")
    )

    actions = itertools.count(1)

    def compare(game: Any, action: Any, recorded: list[Any]) -> None:
        if next(actions) % 100 == 0:  # a stop every 100 actions: the store's game and its log's fold
            rebuilt = fold_recorded(service.recorded_events(game_id)).state
            assert render_board("talisman", game.state) == render_board("talisman", rebuilt)

    # A shorter seeded game on PostgreSQL: every action is a save over the network (same code as SQLite's).
    play_with_bots(
        service, game_id, seed=11, max_actions=600 if store_kind == "sqlite" else 200, on_action=compare
    )
    live = service.get_game(game_id).state
    assert render_board("talisman", live) == render_board(
        "talisman", fold_recorded(service.recorded_events(game_id)).state
    )
