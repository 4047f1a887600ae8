"""What playing at one terminal costs: resolving a game id prefix, and telling a log with action labels.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_play.py                 # 10,000 stored ids, 3 games per ruleset
    python benchmarks/bench_play.py --ids 100000
    python benchmarks/bench_play.py --quick         # 1,000 ids, 1 game per ruleset: a smoke run

One run measures (median of repeated runs, in CPU time, time.process_time, which holds on a loaded
machine; the medians in wall time, time.perf_counter, are in the JSON line under `wall_`):
1. resolving a game by its first 8 hex digits and by its whole id, in a SQLite store holding `--ids`
   games (rows written straight into the events table: the lookup reads nothing else);
2. per ruleset, telling a whole bot game event by event without labels (`describe_event`) and with
   them (`describe_events`, which folds the log to find each action's label): the ratio is what the
   labels cost `nightkeep log`.
Output: a small table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import tempfile
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

from benchmarks.clocks import stopwatch  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402
from event_store.recorded import RecordedEvent  # noqa: E402
from projections.timeline import describe_event, describe_events  # noqa: E402

SEATS = {
    "dungeon-short": [("Ann", None), ("Bo", None), ("Cy", None)],
    "keep-run": [("Ann", None), ("Bo", None)],
    "vampire-empire": [("Hana", "human"), ("Vlad", "vampire")],
}


WALL: dict[str, float] = {}  # each measurement's median wall time, by name, for the JSON line


def median_seconds(work: Callable[[], object], repeat: int, name: str = "") -> float:
    """Returns the median CPU time of `repeat` runs of `work` (its median wall time goes to WALL[name])."""
    times = []
    for _ in range(repeat):
        with stopwatch() as spent:
            work()
        times.append(spent)
    if name:
        WALL[name] = round(statistics.median(t.wall for t in times), 6)
    return statistics.median(t.cpu for t in times)


def bench_prefix(ids: int, folder: Path) -> dict[str, float]:
    """Times resolving one game among `ids` stored ones by prefix and by whole id."""
    service = GameService.open(str(folder / "ids.sqlite"))
    stored = [uuid.uuid4() for _ in range(ids)]
    with service.recorder.datastore.transaction(commit=True) as c:
        c.executemany("INSERT INTO stored_events VALUES (?, 1, 'x', x'00')", [[g.hex] for g in stored])
    target = stored[ids // 2]
    prefix = median_seconds(lambda: service.resolve_game_id(target.hex[:8]), 200, "prefix")
    whole = median_seconds(lambda: service.resolve_game_id(str(target)), 200, "whole_id")
    return {"ids": ids, "prefix_ms": prefix * 1e3, "whole_ms": whole * 1e3}


def _tell_plain(ruleset: str, logs: list[list[RecordedEvent]]) -> None:
    for log in logs:
        for recorded in log:
            describe_event(ruleset, recorded.event)


def _tell_labelled(ruleset: str, logs: list[list[RecordedEvent]]) -> None:
    for log in logs:
        describe_events(ruleset, log)


def bench_timeline(games: int) -> dict[str, dict[str, float]]:
    """Times telling whole bot games with and without action labels, per ruleset."""
    service = GameService.open(":memory:")
    figures = {}
    for ruleset, seats in SEATS.items():
        logs = []
        for n in range(games):
            game_id = service.create_game(ruleset, seats)
            play_with_bots(service, game_id, f"bench-{n}")
            logs.append(service.recorded_events(game_id))
        _tell_labelled(ruleset, logs)  # warm up: content and describers load on first use
        events = sum(len(log) for log in logs)
        plain = median_seconds(partial(_tell_plain, ruleset, logs), 7, f"plain_{ruleset}")
        labelled = median_seconds(partial(_tell_labelled, ruleset, logs), 7, f"labelled_{ruleset}")
        figures[ruleset] = {
            "events": events,
            "plain_ms_per_game": plain * 1e3 / games,
            "labelled_ms_per_game": labelled * 1e3 / games,
            "ratio": labelled / plain,
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", type=int, default=0, help="game ids in the store for the prefix lookup")
    parser.add_argument("--games", type=int, default=0, help="bot games per ruleset for the timeline")
    parser.add_argument("--quick", action="store_true", help="1,000 ids and 1 game per ruleset")
    args = parser.parse_args()
    args.ids = args.ids or (1_000 if args.quick else 10_000)
    args.games = args.games or (1 if args.quick else 3)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    with tempfile.TemporaryDirectory() as folder:
        prefix = bench_prefix(args.ids, Path(folder))
    timeline = bench_timeline(args.games)
    print(
        f"resolve among {prefix['ids']:,} games: 8-digit prefix {prefix['prefix_ms']:.3f} ms, "
        f"whole id {prefix['whole_ms']:.3f} ms"
    )
    print(f"{'ruleset':<16}{'events/game':>12}{'plain ms':>10}{'labels ms':>11}{'ratio':>7}  (CPU time)")
    for ruleset, f in timeline.items():
        print(
            f"{ruleset:<16}{f['events'] / args.games:>12.0f}{f['plain_ms_per_game']:>10.2f}"
            f"{f['labelled_ms_per_game']:>11.2f}{f['ratio']:>7.2f}"
        )
    print(json.dumps({"prefix": prefix, "timeline": timeline, "clock": "cpu", "wall_s": WALL}))


if __name__ == "__main__":
    main()
