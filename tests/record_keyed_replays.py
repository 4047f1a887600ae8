"""Records the games of `replays/` made with per-turn dice keys (replay format version 2; run
`python -m tests.record_keyed_replays`): a `dungeon-short` game (the host's log) and a `vampire-empire`
game (the host's log, each player's copy and the public copy), seeded bot games played to the end.
They show a stranger's verifier the key chain, each action's key, and the seats' private dice keys.

A rules or format change that alters these games fails `tests/replays/test_replays.py`; if the change is
meant,
record them again with this script (same seeds) and say so in the commit.
"""

from __future__ import annotations

import logging

import structlog

from domain.actions import HOST
from domain.hidden import PUBLIC
from event_store.app.replay_file import export_game, read_replay
from event_store.app.service import GameService, play_with_bots
from projections.views import render_board
from tests.record_talisman_replays import REPLAYS, named_seeds

GAMES = {
    "dungeon-short-3p-keys-001": ("dungeon-short", [("Ann", None), ("Bo", None), ("Cy", None)]),
    "vampire-empire-keys-001": ("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")]),
}


def record(name: str) -> None:
    """Plays the named game with its own seeded seeds and bot; writes every copy with its final board."""
    ruleset, seats = GAMES[name]
    service = GameService.open(":memory:")
    with named_seeds(name):
        game_id = service.create_game(ruleset, seats)
        play_with_bots(service, game_id, seed=name)
    viewers = [HOST, *(seat for seat, _ in seats), PUBLIC] if ruleset == "vampire-empire" else [HOST]
    for viewer in viewers:
        copy = name if viewer == HOST else f"{name}-{viewer or 'public'}"
        data = export_game(service, game_id, viewer)
        (REPLAYS / f"{copy}.nkr").write_bytes(data)
        # The final board as the copy folds it (a player's copy shows that player's hand as theirs).
        board = render_board(ruleset, read_replay(data, copy).fold().state)
        (REPLAYS / f"{copy}.board.txt").write_text(board + "\n", encoding="utf-8")


if __name__ == "__main__":
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    for game in GAMES:
        record(game)
        print("recorded", game)
