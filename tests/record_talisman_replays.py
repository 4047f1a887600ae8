"""Records the `talisman` games of `replays/` (run `python -m tests.record_talisman_replays [NAME…]`): seeded
bot games with the house round cap for bots (house rule H6.1), the first of a seeded search that a character
wins within a size a test can re-decide quickly, exported as the host's log with its final board.

The main board's games (GAMES) share one sequence of seeds, as when they were first recorded. Each game
with the expansions (EXPANSION_GAMES: the Dungeon, the Keep, both) searches its own sequence, named after
it, for a game in which characters go into each expansion in play and come out again alive (house rules H2,
H3: Dungeon 5 and 8, Keep 4 and 9-10); so each can be recorded again alone.

A rules change that alters these games fails `tests/replays/test_replays.py`; if the change is meant, record
them again with this script (same seeds, the same search) and say so in the commit.
"""

from __future__ import annotations

import hashlib
import itertools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch
from uuid import UUID

from domain.actions import HOST
from domain.events import GameWon
from domain.game import GameFold
from event_store.app.replay_file import export_game
from event_store.app.service import GameService, play_with_bots
from event_store.recorded import RecordedEvent
from projections.views import render_board
from simulation.bot_games import bot_game_options
from tests.fresh_games import seeded_seeds

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
MOST_EVENTS = 3_000  # the audit re-decides each one in every test run
MAIN = ("outer", "middle", "inner", "crown")
Seats = list[tuple[str, str | None]]
GAMES: dict[str, tuple[Seats, dict[str, str]]] = {
    "talisman-3p-001": ([("Ann", None), ("Bo", "talisman/character/warrior"), ("Cy", None)], {}),
    "talisman-first-3p-001": ([("Ann", None), ("Bo", None), ("Cy", None)], {"ending": "first"}),
}
THREE: Seats = [("Ann", None), ("Bo", None), ("Cy", None)]
EXPANSION_GAMES: dict[str, tuple[Seats, dict[str, str]]] = {
    "talisman-dungeon-3p-001": (THREE, {"dungeon": "true"}),
    "talisman-keep-3p-001": (THREE, {"keep": "true"}),
    "talisman-dungeon-keep-3p-001": (THREE, {"dungeon": "true", "keep": "true"}),
}
EXPANSION_EVENTS = 4_000  # a game that visits the expansions and comes out is longer
TRIPS = 2  # each expansion entered and left alive at least this often
# What a trip through each expansion must show: the Treasure Chamber's table read (Dungeon 8.1); the Vault
# met (Keep 9.1) and a Teleport counter drawn (Keep 6.1).
SHOWN = {"dungeon": ("TreasureChamberRolled",), "keep": ("VaultCardMet", "TeleportCounterDrawn")}
Wanted = Callable[[list[RecordedEvent]], bool]


def is_won(recorded: list[RecordedEvent]) -> bool:
    """Tells whether a character won the game."""
    return any(isinstance(r.event, GameWon) for r in recorded)


def visits(recorded: list[RecordedEvent]) -> dict[str, tuple[int, int]]:
    """Counts, for each expansion board, how often a character stepped onto it from another board and
    off it onto another board alive (a killed character's new one starts outside: that is no way out)."""
    fold, where = GameFold(), {}
    found: dict[str, list[int]] = {}
    for r in recorded:
        fold.apply(r.event, r.chain)
        for name, sheet in fold.state.get("players", {}).items():
            before, now = where.get(name), (sheet["board"], sheet["character"])
            where[name] = now
            if before is None or before[1] != now[1] or before[0] == now[0]:
                continue  # a new character, or the same board
            if now[0] not in MAIN:
                found.setdefault(now[0], [0, 0])[0] += 1
            if before[0] not in MAIN:
                found.setdefault(before[0], [0, 0])[1] += 1
    return {board: (inn, out) for board, (inn, out) in found.items()}


def in_and_out(boards: tuple[str, ...]) -> Wanted:
    """Wants a won game in which characters went into each of `boards` and came out again (TRIPS times),
    showing what SHOWN asks of each."""

    def wanted(recorded: list[RecordedEvent]) -> bool:
        if not is_won(recorded):
            return False
        seen, types = visits(recorded), {r.type_name for r in recorded}
        trips = all(min(seen.get(b, (0, 0))) >= TRIPS for b in boards)
        return trips and all(set(SHOWN[b]) <= types for b in boards)

    return wanted


def record(
    name: str, seats: Seats, options: dict[str, str], wanted: Wanted = is_won, most: int = MOST_EVENTS
) -> int:
    """Plays seeded games until one is wanted within `most` events; writes it; returns the attempt kept."""
    service = GameService.open(":memory:")
    for attempt in range(200):
        game_id = service.create_game("talisman", seats, bot_game_options("talisman", options))
        play_with_bots(service, game_id, seed=attempt)
        recorded = service.recorded_events(game_id)
        if len(recorded) <= most and wanted(recorded):
            write(service, game_id, name)
            return attempt
    raise SystemExit(f"{name}: no seeded game was wanted within {most} events")


def write(service: GameService, game_id: UUID, name: str) -> None:
    """Exports a game as the host's log, with its final board."""
    (REPLAYS / f"{name}.nkr").write_bytes(export_game(service, game_id, HOST))
    board = render_board("talisman", service.get_game(game_id).state)
    (REPLAYS / f"{name}.board.txt").write_text(board + "\n", encoding="utf-8")


@contextmanager
def named_seeds(name: str) -> Iterator[None]:
    """Makes every game's secret seed a fixed sequence of its own, named after the game recorded."""
    counter = itertools.count()
    fresh = lambda: hashlib.sha256(f"{name}-{next(counter)}".encode()).digest()  # noqa: E731
    with patch("event_store.app.service.new_seed", fresh):
        yield


def main(names: list[str]) -> None:
    """Records the games named (every game of GAMES and EXPANSION_GAMES when none is); the games of GAMES
    share their seeds, so naming one records them all again."""
    import logging

    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    unknown = set(names) - set(GAMES) - set(EXPANSION_GAMES)
    if unknown:
        raise SystemExit(f"no such game: {sorted(unknown)}")
    if not names or set(names) & set(GAMES):
        with seeded_seeds():  # one sequence for the main board's games, in order
            for name, (seats, options) in GAMES.items():
                print(name, "from attempt", record(name, seats, options))
    for name, (seats, options) in EXPANSION_GAMES.items():
        if names and name not in names:
            continue
        boards = tuple(b for b in ("dungeon", "keep") if options.get(b) == "true")
        with named_seeds(name):
            print(name, "from attempt", record(name, seats, options, in_and_out(boards), EXPANSION_EVENTS))


if __name__ == "__main__":
    main(sys.argv[1:])
