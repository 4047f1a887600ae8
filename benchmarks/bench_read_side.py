"""What the read side costs: `nightkeep projections run --rebuild --once` over a store of bot games, at
several batch sizes, on SQLite or PostgreSQL.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_read_side.py                          # a SQLite store in a temp dir
    python benchmarks/bench_read_side.py --db postgresql://u@h/db?schema=bench   # a PostgreSQL one
    python benchmarks/bench_read_side.py --games 4 --batches 50   # smaller
    python benchmarks/bench_read_side.py --quick                  # 2 games, batches of 20 and 2,000

Set-up, not timed: seeded bot games (dungeon-short and keep-run, in turn) stored in the given store.
Timed once per batch size: the views cleared and rebuilt from zero in-process (`ReadSide.rebuild` then
`catch_up`), then a fold of every game from zero (`fold_views`) for comparison. Rates are per second of
this process's CPU time (time.process_time: it holds on a loaded machine), with wall time beside; on a
PostgreSQL server of this machine the server's processes' CPU is printed too (the client waits on it),
and the rate per CPU second of client and server together. There is no target: figures only.
Output: one line per batch size, then one JSON line with every figure (events per second).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import structlog  # noqa: E402

from benchmarks.clocks import Spent, postmaster_of, server_cpu, stopwatch  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402
from projections.read_side import ReadSide, fold_views  # noqa: E402

RULESETS = ("dungeon-short", "keep-run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="the store (default: a new SQLite file in a temp dir)")
    parser.add_argument("--games", type=int, default=0, help="bot games (default 12; 2 with --quick)")
    parser.add_argument("--batches", default="", help="batch sizes, comma-separated (default 20,200,2000)")
    parser.add_argument("--quick", action="store_true", help="2 games, batches of 20 and 2,000")
    args = parser.parse_args()
    args.games = args.games or (2 if args.quick else 12)
    args.batches = args.batches or ("20,2000" if args.quick else "20,200,2000")
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    db = args.db or str(Path(tempfile.mkdtemp()) / "bench.sqlite")
    service = GameService.open(db)
    for n in range(args.games):
        game = service.create_game(RULESETS[n % 2], [("Ann", None), ("Bo", None)])
        play_with_bots(service, game, seed=n, max_actions=300)
    events = service.recorder.max_notification_id() or 0
    postmaster = postmaster_of(db) if db.startswith("postgresql") else None
    figures: dict[str, Any] = {}

    def report(name: str, label: str, spent: Spent, server: float) -> None:
        figures[f"{name}_events_per_s"] = round(events / spent.cpu)
        figures[f"{name}_events_per_wall_s"] = round(events / spent.wall)
        line = f"{label}: {events} events, {spent.cpu:.2f} s CPU ({spent.wall:.2f} s wall)"
        if postmaster:
            figures[f"{name}_server_cpu_s"] = round(server, 3)
            figures[f"{name}_events_per_client_server_cpu_s"] = round(events / (spent.cpu + server))
            line += (
                f" + server {server:.2f} s CPU, {events / (spent.cpu + server):.0f} events/s client+server"
            )
        print(f"{line}; {events / spent.cpu:.0f} events/s CPU")

    def server_now() -> float:
        return server_cpu(postmaster) if postmaster else 0.0

    for size in [int(b) for b in args.batches.split(",")]:
        side = ReadSide(service, batch_size=size)
        side.rebuild()
        server = server_now()
        with stopwatch() as spent:
            side.catch_up()
        report(f"batch_{size}", f"batch {size:>5}", spent, server_now() - server)
    server = server_now()
    with stopwatch() as spent:
        fold_views(service)
    report("fold_from_zero", "fold from zero", spent, server_now() - server)
    figures["clock"] = "cpu"
    print(json.dumps({"store": side.dialect, "games": args.games, "events": events, **figures}))


if __name__ == "__main__":
    main()
