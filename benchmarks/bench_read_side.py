"""What the read side costs: `nightkeep projections run --rebuild --once` over a store of bot games, at
several batch sizes, on SQLite or PostgreSQL.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_read_side.py                          # a SQLite store in a temp dir
    python benchmarks/bench_read_side.py --db postgresql://u@h/db?schema=bench   # a PostgreSQL one
    python benchmarks/bench_read_side.py --games 4 --batches 50   # smaller

Set-up, not timed: seeded bot games (dungeon-short and keep-run, in turn) stored in the given store.
Timed (time.perf_counter, once per batch size): the views cleared and rebuilt from zero in-process
(`ReadSide.rebuild` then `catch_up`), then a fold of every game from zero (`fold_views`) for comparison.
Output: one line per batch size, then one JSON line with every figure (events per second).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import structlog  # noqa: E402

from event_store.app.service import GameService, play_with_bots  # noqa: E402
from projections.read_side import ReadSide, fold_views  # noqa: E402

RULESETS = ("dungeon-short", "keep-run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="the store (default: a new SQLite file in a temp dir)")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--batches", default="20,200,2000", help="batch sizes, comma-separated")
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    db = args.db or str(Path(tempfile.mkdtemp()) / "bench.sqlite")
    service = GameService.open(db)
    for n in range(args.games):
        game = service.create_game(RULESETS[n % 2], [("Ann", None), ("Bo", None)])
        play_with_bots(service, game, seed=n, max_actions=300)
    events = service.recorder.max_notification_id() or 0
    figures: dict[str, float] = {}
    for size in [int(b) for b in args.batches.split(",")]:
        side = ReadSide(service, batch_size=size)
        side.rebuild()
        began = time.perf_counter()
        side.catch_up()
        took = time.perf_counter() - began
        figures[f"batch_{size}_events_per_s"] = round(events / took)
        print(f"batch {size:>5}: {events} events in {took:.2f} s, {events / took:.0f} events/s")
    began = time.perf_counter()
    fold_views(service)
    took = time.perf_counter() - began
    figures["fold_from_zero_events_per_s"] = round(events / took)
    print(f"fold from zero: {events} events in {took:.2f} s, {events / took:.0f} events/s")
    print(json.dumps({"store": side.dialect, "games": args.games, "events": events, **figures}))


if __name__ == "__main__":
    main()
