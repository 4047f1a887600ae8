"""Vampire Empire benchmarks: bot games/s, and what hidden information costs the audit and the views.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_castle.py            # 200 games (~20 s on 2 cores)
    python benchmarks/bench_castle.py --games 50

One run measures (best of 3, time.perf_counter):
1. bot games/s played with the decider alone (no store) and through GameService on SQLite;
2. audit events/s of the host's full log, and of the human player's and the public copy of the same
   finished games, which the audit re-decides from the revealed seed, checking every seal: the ratio
   to the full log is what sealing costs;
3. events/s folding a viewer's copy (redaction included) and boards/s rendering it.
Output: a small table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

from domain.actions import HOST, START  # noqa: E402
from domain.audit import audit_log  # noqa: E402
from domain.bots import Bot  # noqa: E402
from domain.dice import HmacDice  # noqa: E402
from domain.events import GameCreated  # noqa: E402
from domain.game import NIGHTKEEP_VERSION  # noqa: E402
from domain.hidden import PUBLIC  # noqa: E402
from domain.rulesets.castle.empire import VampireEmpire  # noqa: E402
from event_store.app.replay_file import encode_replay, parse_replay  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402
from event_store.recorded import fold_recorded, redacted  # noqa: E402
from projections.views import render_board  # noqa: E402

empire = VampireEmpire()
SEATS = [("Hana", "human"), ("Vlad", "vampire")]


def best(repeat: int, run: Callable[[], Any]) -> float:
    """Returns the best wall time of `repeat` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def decider_games(count: int) -> None:
    """Plays `count` bot games with the decider alone."""
    created = GameCreated(
        ruleset=empire.name,
        players=[{"name": n, "character": s} for n, s in SEATS],
        options={},
        content_hash=empire.content_hash(),
        scripted=False,
        dice_script=[],
        nightkeep_version=NIGHTKEEP_VERSION,
    )
    for index in range(count):
        state = empire.initial_state(created)
        dice, bot = HmacDice(hashlib.sha256(f"bench-{index}".encode()).digest()), Bot(index)
        player, action = HOST, START
        while True:
            empire.decide_in_place(state, action, player, dice)
            if empire.status(state)["status"] == "finished":
                break
            choice = bot.choose(empire, state, empire.legal_actions(state))
            player, action = choice.player, choice.id


def stored_games(count: int) -> tuple[GameService, list[Any]]:
    """Plays `count` bot games through the service on a fresh SQLite file."""
    folder = tempfile.mkdtemp(prefix="nightkeep-bench-")
    service = GameService.open(str(Path(folder) / "games.sqlite"))
    ids = []
    for index in range(count):
        game_id = service.create_game(empire.name, SEATS, {}, None, [], False)
        play_with_bots(service, game_id, seed=index)
        ids.append(game_id)
    return service, ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

    figures: dict[str, float] = {}
    figures["decider_games_per_s"] = args.games / best(3, lambda: decider_games(args.games))
    stored = max(10, args.games // 10)
    start = time.perf_counter()
    service, ids = stored_games(stored)
    figures["sqlite_games_per_s"] = stored / (time.perf_counter() - start)

    host_logs = [service.verified_events(game_id) for game_id in ids]
    for viewer in (HOST, "Hana", PUBLIC):
        entries = [
            parse_replay(encode_replay(str(g), redacted(log, viewer), viewer))[1]
            for g, log in zip(ids, host_logs, strict=True)
        ]
        events = sum(len(e) for e in entries)

        def audit_all(entries: list[Any] = entries, viewer: str = viewer) -> None:
            for game in entries:
                report = audit_log(game)
                assert report.ok and not report.partial, (viewer, report.findings)

        figures[f"audit_ev_per_s_{viewer or 'public'}"] = events / best(3, audit_all)
    figures["sealed_audit_ratio_public_to_host"] = (
        figures["audit_ev_per_s_public"] / figures["audit_ev_per_s_host"]
    )

    events = sum(len(log) for log in host_logs)
    figures["fold_ev_per_s_hana"] = events / best(
        3, lambda: [fold_recorded(redacted(log, "Hana")) for log in host_logs]
    )
    folds = [fold_recorded(redacted(log, "Hana")) for log in host_logs]
    figures["boards_per_s"] = (
        len(folds)
        * 20
        / best(3, lambda: [render_board(empire.name, f.state) for f in folds for _ in range(20)])
    )
    figures["mean_events_per_game"] = events / len(host_logs)

    for name, value in figures.items():
        print(f"{name:40} {value:12,.2f}")
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
