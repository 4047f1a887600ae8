"""Records the `talisman` games of `replays/` (run `python -m tests.record_talisman_replays`): seeded bot
games with the house round cap for bots (RULES.md §5), the first of a seeded search that a character
wins within a size a test can re-decide quickly, exported as the host's log with its final board.

A rules change that alters these games fails `tests/test_replays.py`; if the change is meant, record
them again with this script (same seeds, the same search) and say so in the commit.
"""

from __future__ import annotations

from pathlib import Path

from domain.actions import HOST
from domain.events import GameWon
from event_store.bot_games import bot_game_options
from event_store.replay_file import export_game
from event_store.service import GameService, play_with_bots
from projections.views import render_board
from tests.fresh_games import seeded_seeds

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
MOST_EVENTS = 3_000  # the audit re-decides each one in every test run
GAMES = {
    "talisman-3p-001": ([("Ann", None), ("Bo", "talisman/character/warrior"), ("Cy", None)], {}),
    "talisman-first-3p-001": ([("Ann", None), ("Bo", None), ("Cy", None)], {"ending": "first"}),
}


def record(name: str, seats: list[tuple[str, str | None]], options: dict[str, str]) -> int:
    """Plays seeded games until one is won within MOST_EVENTS; writes it; returns the attempt kept."""
    service = GameService.open(":memory:")
    for attempt in range(200):
        game_id = service.create_game("talisman", seats, bot_game_options("talisman", options))
        play_with_bots(service, game_id, seed=attempt)
        recorded = service.recorded_events(game_id)
        if len(recorded) <= MOST_EVENTS and any(isinstance(r.event, GameWon) for r in recorded):
            (REPLAYS / f"{name}.nkr").write_bytes(export_game(service, game_id, HOST))
            board = render_board("talisman", service.get_game(game_id).state)
            (REPLAYS / f"{name}.board.txt").write_text(board + "\n", encoding="utf-8")
            return attempt
    raise SystemExit(f"{name}: no seeded game was won within {MOST_EVENTS} events")


def main() -> None:
    """Records every game of GAMES."""
    import logging

    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    with seeded_seeds():
        for name, (seats, options) in GAMES.items():
            print(name, "from attempt", record(name, seats, options))


if __name__ == "__main__":
    main()
