"""Audit, fold and single-action speed (issue 12's targets 3-5), each measured side by side in one run.

Run from anywhere (the project root is put on sys.path); python-chess comes from the `bench` extra:

    python benchmarks/bench_action.py            # full run (a few minutes on 2 cores)
    python benchmarks/bench_action.py --quick    # smoke run (well under a minute)

1. audit: `audit_replay` over seeded `dungeon-short` replay files against python-chess's `read_game` over a
   PGN of random games with at least as many plies (set-up and passes from bench_audit.py). Target:
   audit events/s >= 2x validated plies/s.
2. fold: `GameService.fold(use_snapshot=False)` of a long `bench-marathon` game on SQLite (the fold of
   every event) against reading the same rows with the standard library's sqlite3 and decoding each
   with `msgpack.unpackb`. Target: fold of every event >= 0.8x. The fold from the newest snapshot
   (`GameService.fold`, what commands use) is shown beside it for information: it reads a few rows.
3. one action: `GameService.take_action` on a stored game of 1,000 and of 100,000 events, with the
   aggregate cache off (every action loads the game from the store, as each CLI call does), and with it on.
   Each commit (SQLite `synchronous=FULL`) is timed on its own by wrapping the library's connection commit;
   the rest (load, decide, save) is reported apart. Target: the rest <= 1 ms at both lengths.

Each pair of passes is interleaved rep by rep (this VM is shared and noisy); the best (audit, fold) or the
median (action) counts. Every pass is timed in CPU time (time.process_time) and wall time; ratios and
verdicts are CPU time, which holds under other jobs' load where wall time does not (issue 28). A
commit's fsync is waiting, not CPU: it shows in the commit's wall time, printed beside.
Output: a table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import bench_audit  # noqa: E402  (also quiets structlog and checks that python-chess is installed)
import msgpack  # noqa: E402
from bench_store import build_batched, current_player, next_player_from  # noqa: E402
from eventsourcing.sqlite import SQLiteConnection  # noqa: E402

from benchmarks.clocks import Spent, best, stopwatch  # noqa: E402
from domain.collector import paused_collector  # noqa: E402
from event_store.app.service import GameService  # noqa: E402

FULL = {"games": 200, "reps": 5, "fold_events": 10_000, "lengths": (1_000, 100_000), "actions": 200}
QUICK = {"games": 8, "reps": 2, "fold_events": 1_500, "lengths": (500, 3_000), "actions": 16}
NO_CACHE = {"AGGREGATE_CACHE_MAXSIZE": ""}


def row(label: str, value: str, note: str = "") -> None:
    """Prints one line of the table."""
    print(f"{label:<50} {value:>16}  {note}", flush=True)


def verdict(ok: bool) -> str:
    """Names whether a target is met."""
    return "PASS" if ok else "FAIL"


def best_of(reps: int, passes: dict[str, Callable[[], Any]]) -> dict[str, Spent]:
    """Runs each pass `reps` times, interleaved, after a collection each; returns each best time (CPU
    and wall each their own best)."""
    times: dict[str, list[Spent]] = {name: [] for name in passes}
    for _ in range(reps):
        for name, run in passes.items():
            gc.collect()
            with stopwatch() as spent:
                run()
            times[name].append(spent)
    return {name: best(values) for name, values in times.items()}


# --- 1. audit -------------------------------------------------------------------------------------------


def bench_audit_ratio(cfg: dict[str, Any], figures: dict[str, Any]) -> None:
    """Audits replay files and reads a PGN of as many plies, interleaved."""
    replays = bench_audit.make_replays(cfg["games"], 1)
    events = sum(len(bench_audit.parse_replay(data)[1]) for data in replays)
    pgn, _, plies = bench_audit.make_pgn(events, 1)
    bench_audit.audit_all(replays[:1])
    # (No parsed files are kept alive between passes: a big live heap slows python-chess's collector.)
    times = best_of(
        cfg["reps"],
        {
            "audit": lambda: bench_audit.audit_all(replays),
            "chess": lambda: bench_audit.read_pgn(pgn),
            "parse": lambda: parse_paused(replays),
        },
    )

    audit_rate, chess_rate = events / times["audit"].cpu, plies / times["chess"].cpu
    ratio = audit_rate / chess_rate
    wall_ratio = (events / times["audit"].wall) / (plies / times["chess"].wall)
    print(f"\n== 1. audit: {cfg['games']} dungeon-short files vs python-chess (best of {cfg['reps']}; CPU)")
    row("audit_replay (parse, chain, rules, dice)", f"{audit_rate:,.0f} ev/s", f"{events:,} events")
    row(
        "  parse_replay alone",
        f"{times['parse'].cpu * 1000:.0f} ms",
        f"of {times['audit'].cpu * 1000:.0f} ms",
    )
    rest = (times["audit"].cpu - times["parse"].cpu) * 1000
    row("  the rest: chain, shape, rules, dice", f"{rest:.0f} ms", "(audit - parse, best of each)")
    row("python-chess read_game (parse + validate)", f"{chess_rate:,.0f} ply/s", f"{plies:,} plies")
    note = f"target >= 2.0x: {verdict(ratio >= 2.0)} (wall {wall_ratio:.2f}x)"
    row("ratio audit / python-chess, CPU", f"{ratio:.2f}x", note)
    figures.update(audit_ev_s=round(audit_rate), chess_ply_s=round(chess_rate), audit_ratio=round(ratio, 3))
    figures.update(
        audit_ms=round(times["audit"].cpu * 1000, 1), audit_parse_ms=round(times["parse"].cpu * 1000, 1)
    )
    figures.update(chess_ms=round(times["chess"].cpu * 1000, 1), audit_ratio_wall=round(wall_ratio, 3))


def parse_paused(replays: list[bytes]) -> None:
    """Parses every file with the cyclic collector paused, as `read_log` parses inside every audit."""
    with paused_collector():
        bench_audit.parse_all(replays)


# --- 2. fold --------------------------------------------------------------------------------------------


def read_and_decode(db: str, table: str, game_id: UUID) -> int:
    """The baseline: the game's rows read with sqlite3 and each decoded with msgpack."""
    connection = sqlite3.connect(db)
    try:
        rows = connection.execute(
            f"SELECT state FROM {table} WHERE originator_id=? ORDER BY originator_version", (game_id.hex,)
        ).fetchall()
    finally:
        connection.close()
    unpack = msgpack.unpackb
    return len([unpack(state, timestamp=3) for (state,) in rows])


def bench_fold_ratio(work: str, cfg: dict[str, Any], figures: dict[str, Any]) -> None:
    """Folds a long game through the service and reads its rows raw, interleaved."""
    db = str(Path(work) / "fold.sqlite")
    svc = GameService(db)
    game_id = build_batched(svc, cfg["fold_events"])
    table = svc.recorder.events_table_name
    events = svc.fold(game_id).version
    assert read_and_decode(db, table, game_id) >= events
    spent = best_of(
        cfg["reps"],
        {
            "fold": lambda: svc.fold(game_id),
            "zero": lambda: svc.fold(game_id, use_snapshot=False),
            "raw": lambda: read_and_decode(db, table, game_id),
        },
    )
    svc.close()
    best = {name: s.cpu for name, s in spent.items()}
    ratio, zero_ratio = best["raw"] / best["fold"], best["raw"] / best["zero"]
    zero_wall = spent["raw"].wall / spent["zero"].wall
    print(f"\n== 2. fold of a {events:,}-event game on SQLite (best of {cfg['reps']}; CPU)")
    row(
        "sqlite3 rows + msgpack.unpackb each: baseline",
        f"{best['raw'] * 1000:.2f} ms",
        rate(events, best["raw"]),
    )
    row(
        "fold of every event: fold(use_snapshot=False)",
        f"{best['zero'] * 1000:.2f} ms",
        rate(events, best["zero"]),
    )
    row(
        "fold from snapshot: fold() (snapshot + the rest)",
        f"{best['fold'] * 1000:.2f} ms",
        f"{events:,} events' state; reads the newest snapshot and the rows after it",
    )
    note = f"target >= 0.8x: {verdict(zero_ratio >= 0.8)} (wall {zero_wall:.2f}x)"
    row("ratio fold of every event / baseline", f"{zero_ratio:.2f}x", note)
    row("ratio fold from snapshot / baseline", f"{ratio:.2f}x", "(for information: not the same work)")
    figures.update(
        fold_events=events,
        fold_every_event_ratio=round(zero_ratio, 3),
        fold_every_event_ms=round(best["zero"] * 1000, 2),
        fold_baseline_ms=round(best["raw"] * 1000, 2),
    )
    figures.update(fold_from_snapshot_ratio=round(ratio, 3), fold_every_event_ratio_wall=round(zero_wall, 3))
    figures.update(fold_from_snapshot_ms=round(best["fold"] * 1000, 3))


def rate(events: int, seconds: float) -> str:
    """Writes a rate in events per second."""
    return f"{events / seconds:,.0f} ev/s"


# --- 3. one action --------------------------------------------------------------------------------------


@contextmanager
def commits_timed() -> Iterator[list[Spent]]:
    """Times every commit of the library's SQLite connections while inside; yields the times."""
    times: list[Spent] = []
    original = SQLiteConnection.commit

    def commit(self: SQLiteConnection) -> None:
        with stopwatch() as spent:
            original(self)
        times.append(spent)

    SQLiteConnection.commit = commit  # type: ignore[method-assign]
    try:
        yield times
    finally:
        SQLiteConnection.commit = original  # type: ignore[method-assign]


def action_times(
    db: str, game_id: UUID, actions: int, env: dict[str, str] | None
) -> list[tuple[Spent, Spent]]:
    """Takes `actions` actions on a stored game; returns (whole, commit) seconds of each."""
    svc = GameService(db, env=env)
    player = current_player(svc.fold(game_id))
    out: list[tuple[Spent, Spent]] = []
    with commits_timed() as commits:
        for _ in range(actions):
            before = len(commits)
            with stopwatch() as whole:
                _, recorded = svc.take_action(game_id, player, "roll")
            out.append((whole, sum(commits[before:], Spent())))
            player = next_player_from(recorded, player)
    svc.close()
    return out


def bench_one_action(work: str, cfg: dict[str, Any], figures: dict[str, Any]) -> None:
    """Times single actions on games of each length, the cache off and on, interleaved by chunks."""
    print(f"\n== 3. one action on a stored game (median of {cfg['actions']} per length and mode; CPU)")
    for length in cfg["lengths"]:
        db = str(Path(work) / f"action-{length}.sqlite")
        builder = GameService(db)
        game_id = build_batched(builder, length)
        builder.close()
        results: dict[str, list[tuple[Spent, Spent]]] = {"nocache": [], "cache": []}
        chunk = max(1, cfg["actions"] // 4)
        for _ in range(4):
            results["nocache"] += action_times(db, game_id, chunk, NO_CACHE)
            results["cache"] += action_times(db, game_id, chunk, None)[1:]  # the first call fills the cache
        for mode, label in (("nocache", "cache off (as a CLI call)"), ("cache", "cache on (a long process)")):
            whole = statistics.median(w.cpu for w, _ in results[mode]) * 1000
            wall = statistics.median(w.wall for w, _ in results[mode]) * 1000
            commit = statistics.median(c.wall for _, c in results[mode]) * 1000
            rest = statistics.median(w.cpu - c.cpu for w, c in results[mode]) * 1000
            note = (
                f"commit {commit:.2f} ms wall; rest {rest:.3f} ms CPU: target <= 1 ms: {verdict(rest <= 1.0)}"
            )
            row(f"{length:,} events, {label}", f"{whole:.3f} ms CPU", f"({wall:.3f} wall) {note}")
            key = f"action_{length}_{mode}"
            figures.update({f"{key}_ms": round(whole, 3), f"{key}_commit_ms": round(commit, 3)})
            figures.update({f"{key}_rest_ms": round(rest, 3), f"{key}_wall_ms": round(wall, 3)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer games, shorter histories")
    parser.add_argument("--only", choices=("audit", "fold", "action"), help="run one of the three")
    args = parser.parse_args(argv)
    cfg = dict(QUICK if args.quick else FULL)
    cpu, started = time.process_time(), time.perf_counter()
    figures: dict[str, Any] = {"mode": "quick" if args.quick else "full", "cpus": os.cpu_count()}
    figures["clock"] = "cpu"
    print(f"nightkeep audit, fold and action benchmark ({figures['mode']}); python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="nightkeep-bench-") as work:
        if args.only in (None, "audit"):
            bench_audit_ratio(cfg, figures)
        if args.only in (None, "fold"):
            bench_fold_ratio(work, cfg, figures)
        if args.only in (None, "action"):
            bench_one_action(work, cfg, figures)
    figures["cpu_s"] = round(time.process_time() - cpu, 1)
    figures["wall_s"] = round(time.perf_counter() - started, 1)
    print(f"\ntotal {figures['cpu_s']} s CPU, {figures['wall_s']} s wall")
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
