"""300 seeded bot games of `talisman` with both expansions in play (`dungeon=true, keep=true`, H5.20)
and the house round cap for bots, the expansions' own options mixed in: every game ends, by a win or at
the cap, and after every event of every game the state holds:

- every character stands on exactly one board, the main board's or an expansion's, on a space of it (the
  Keep's are numbered 1-21, house rule H3.1);
- lives are never negative;
- every card is in exactly one place (a pile, a space of any board, a sheet, the Keep's Vault): the ledger
  balances over every deck — Adventure (with the Doorways and the Keep's cards shuffled in), Purchase,
  Spells, Talismans, Dungeon, Keep, Vault, the Teleport counters, the characters — and their discards.

The games are played with the decider directly (`tests.playout_helpers`, shared with the main board's
`test_main_playout`); every 25th is rebuilt from its events and must show the same state and board.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from domain.errors import BadSetup
from domain.events import Event, GameEnded, GameWon
from domain.rulesets.talisman.main.ruleset import TalismanGame
from projections.views import render_board
from tests.playout_helpers import CheckedGame, card_count, created_for, play, rebuilt

pytestmark = pytest.mark.slow  # a playout: 300 seeded bot games with both expansions

GAMES = 300
CAP = "400"
REBUILT = range(0, GAMES, 25)
BOARDS = ("outer", "middle", "inner", "crown", "dungeon", "keep")
# The expansions' alternatives, one game in a few each (Dungeon 13.1/13.2 exclude each other).
MIXED = (
    ("dungeon.talisman_exit", 5, 1),
    ("dungeon.crown_exit", 5, 3),
    ("keep.talismans_in_deck", 4, 1),
    ("keep.hoard", 3, 2),
    ("keep.crown_exit", 7, 4),
)


def options_for(seed: int) -> dict[str, str]:
    """Returns the options of game `seed`: both expansions, the cap, and some of their alternatives."""
    options = {"bot_round_cap": CAP, "dungeon": "true", "keep": "true"}
    options["ending"] = "first" if seed % 4 == 3 else "crown"
    options["keep.wizard"] = "auto" if seed % 2 else "choose"  # Keep 8.4: the players aim, or the rules
    for key, every, at in MIXED:
        if seed % every == at:
            options[key] = "true"
    return options


class ExpansionGame(CheckedGame):
    """The checked ruleset with the expansions' boards: the Keep's Tome may lower Strength and Craft
    (house rule H3.1), and the Keep's space 0 is no space."""

    base_stats = False

    def check_sheet(self, state: dict[str, Any], sheet: dict[str, Any], where: tuple[Any, ...]) -> None:
        super().check_sheet(state, sheet, where)
        assert sheet["board"] in BOARDS and (sheet["space"] >= 1 or sheet["board"] != "keep"), (*where, sheet)


def test_the_options_are_all_accepted_and_mixed():
    """Dungeon 13: either alternative may replace the Treasure Chamber's table, never both at once."""
    every = [options_for(seed) for seed in range(GAMES)]
    for options in every:
        TalismanGame.check_options(options)
    mixed = Counter(key for options in every for key, value in options.items() if value == "true")
    assert all(mixed[key] >= GAMES // 8 for key, *_ in MIXED), mixed
    with pytest.raises(BadSetup, match="alternatives"):
        TalismanGame.check_options(
            options_for(0) | {"dungeon.talisman_exit": "true", "dungeon.crown_exit": "true"}
        )


def test_both_expansions_are_set_up_beside_the_main_board():
    """Keep 3.1: the main game and the other expansion are set up as normal; Keep 3.2 and Dungeon 3.2: each
    expansion's board lies beside the main board (the Dungeon's 25 spaces, the Keep's 1-21)."""
    players = [{"name": "Ann", "character": ""}, {"name": "Bo", "character": ""}]
    plain = TalismanGame({}).initial_state(created_for(players, {}))
    both = TalismanGame(options_for(0)).initial_state(created_for(players, options_for(0)))
    assert {board: len(spaces) for board, spaces in both["cards"].items()} == {
        **{board: len(spaces) for board, spaces in plain["cards"].items()},
        "dungeon": 25,
        "keep": 22,  # index 0 unused
    }
    assert all(both["piles"][name] == cards for name, cards in plain["piles"].items() if name != "adventure")
    # Dungeon 2, 3.1: the four Doorways; Keep 2, 3.3 (second): 24 new Adventure cards, 8 of them Portals.
    added = Counter(both["piles"]["adventure"]) - Counter(plain["piles"]["adventure"])
    doorways = [card for card in added if "doorway" in card]
    assert len(doorways) == 4 and added.total() == 4 + 24
    assert sum("ethereal-portal" in card for card in added) == 8


def test_the_expansions_decks_are_laid_out_whole():
    """Dungeon 2, 3.3: the 36 Dungeon cards; Keep 2: its decks and counters, the Keep deck of 48 cards as
    Keep 14.1 says (house: not the 60 its list of components names), Keep 14.2: the 12 Vault cards;
    Keep 3.4-3.6: each shuffled (a lazy shuffle: sorted, each draw a pick among what is left)."""
    players = [{"name": "Ann", "character": ""}, {"name": "Bo", "character": ""}]
    piles = TalismanGame(options_for(0)).initial_state(created_for(players, options_for(0)))["piles"]
    sizes = {name: len(piles[name]) for name in ("dungeon", "keep", "vault", "counters")}
    assert sizes == {"dungeon": 36, "keep": 48, "vault": 12, "counters": 40}
    assert all(piles[name] == sorted(piles[name]) for name in sizes)


# Rule bug these games found (seeds 6, 74 of this module's `play`: a character out once the Crown was
# reached went on losing lives in the Keep, to -1), held fixed by the lives invariant.


@pytest.fixture(scope="module")
def played() -> dict[int, tuple[int, str, int, bool, Counter[str]]]:
    """Plays every game once: its seed → (events, how it ended, events checked, whether its ending was
    the last event, the boards its characters stood on)."""
    results = {}
    for seed in range(GAMES):
        game, initial, state, log = play(seed, options_for(seed), ExpansionGame)
        (end,) = [e for e in log if isinstance(e, GameWon | GameEnded)]
        assert state["phase"] == "over", f"seed {seed}"
        assert state["round"] <= int(CAP) + 3, f"seed {seed}"
        if seed in REBUILT:
            again = rebuilt(game.options, initial, log)
            assert again == state and render_board("talisman", again) == render_board("talisman", state)
        results[seed] = (len(log), end.reason, game.checked, log.index(end) == len(log) - 1, boards(log))
    return results


def boards(log: list[Event]) -> Counter[str]:
    """Counts the moves of the log onto each board."""
    return Counter(getattr(e, "board", "") for e in log if type(e).__name__ in ("Moved", "Teleported"))


def test_every_bot_game_ends_by_a_win_or_at_the_house_round_cap(played):
    assert len(played) == GAMES
    for seed, (events, reason, checked, *_) in played.items():
        assert checked == events, f"seed {seed}: {checked} of {events} events checked"
        assert reason, f"seed {seed}"
    won = sum("round cap" not in reason for _, reason, *_ in played.values())
    assert won > 0  # some bot games end by the rules, not only at the cap


# Rule bugs these games found, held fixed: a Vault card that killed the last rival once the Crown was
# reached was met after the GameWon (seeds 20, 22, 72), and a Dungeon Event that did was discarded after
# it (the Cave-In, seed 214). No game may tell anything after its end.
ENDED_BEFORE_THE_LAST_EVENT: list[int] = []


def test_nothing_happens_after_the_game_ended(played):
    after = [seed for seed, (*_, ended_last, _) in played.items() if not ended_last]
    assert after == ENDED_BEFORE_THE_LAST_EVENT


def test_the_games_go_into_both_expansions(played):
    # house rules H2, H3: the bots go down into the Dungeon and into the Keep, so their rules are played.
    moves = sum((boards for *_, boards in played.values()), Counter())
    assert moves["dungeon"] > 0 and moves["keep"] > 0, moves


def test_the_ledger_holds_every_deck_of_both_expansions():
    game, initial, _, _ = play(0, options_for(0), ExpansionGame)
    assert {"adventure", "purchase", "spells", "talismans", "characters"} <= set(initial["piles"])
    assert {"dungeon", "keep", "vault", "counters", "discard:dungeon", "discard:keep"} <= set(
        initial["piles"]
    )
    decks = ("adventure", "purchase", "spells", "talismans", "characters", "dungeon", "keep", "vault")
    assert all(set(initial["piles"][deck]) <= set(game.universe) for deck in decks)
    assert game.universe.total() == card_count(initial)  # every counter too, by the space it names
