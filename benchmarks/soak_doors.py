"""Soak test of the doors a log comes in by (import, replay FILE, audit): many seeded mutated files.

Not a test (it runs for minutes): the same mutations and properties as tests/replays/test_doors_fuzz.py, run
over N cases spread across worker processes, with figures at the end.

    python benchmarks/soak_doors.py                 # 100,000 cases, one worker per core
    python benchmarks/soak_doors.py --cases 2000    # a quick run
    python benchmarks/soak_doors.py --quick         # 30 cases, one worker: a smoke run

Each case takes a recorded game from replays/, one mutation (tests/log_mutations.py) and a seed, and
throws the result at audit, replay and import (into a fresh in-memory store). It counts, per mutation:
files each door refused or accepted, tracebacks (any exception but nightkeep's own errors), writes
left by a refused import, disagreements between replay and audit, and files import stored although
their history is not the genuine one, and the CPU time of the run (this process's and the workers')
beside its wall time. Output: a table, then one JSON line. Exit 1 if any of the last
four is not zero.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import resource
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

from tests.log_mutations import (  # noqa: E402
    MUTATIONS,
    CrashHidden,
    DoorBroken,
    DoorsDisagree,
    ForgeryStored,
    PartialWrite,
    check_doors,
    fresh_store,
)

REPLAYS = sorted((ROOT / "replays").glob("*.nkr"))
PROBLEMS = ("tracebacks", "partial writes", "replay/audit disagree", "forgeries stored")
PROBLEM_OF = {
    CrashHidden: PROBLEMS[0],  # a traceback the audit's catch-all turned into a finding
    PartialWrite: PROBLEMS[1],
    DoorsDisagree: PROBLEMS[2],
    ForgeryStored: PROBLEMS[3],
}


def run_chunk(args: tuple[int, int, int]) -> dict[str, Counter[str]]:
    """Runs cases [start, stop) of the seeded sequence; returns counters by mutation."""
    start, stop, seed = args
    originals = [path.read_bytes() for path in REPLAYS]
    names = sorted(MUTATIONS)
    counts: dict[str, Counter[str]] = {name: Counter() for name in names}
    for case in range(start, stop):
        rng = random.Random(f"{seed}:{case}")
        original = rng.choice(originals)
        mutation = rng.choice(names)
        tally = counts[mutation]
        tally["cases"] += 1
        try:
            data = MUTATIONS[mutation](original, rng)
        except Exception:  # the harness's own bug, not a door's: counted and kept apart
            tally["mutation errors"] += 1
            continue
        try:
            outcome = check_doors(original, data, fresh_store())
        except DoorBroken as exc:
            key = PROBLEM_OF[type(exc)]
            tally[key] += 1
            _keep(data, mutation, case, key, str(exc))
            continue
        except Exception:
            tally["tracebacks"] += 1
            _keep(data, mutation, case, "traceback", traceback.format_exc())
            continue
        tally["unreadable"] += not outcome.audited
        tally["findings"] += outcome.audited and not outcome.clean
        tally["imported"] += outcome.imported
    return counts


def _keep(data: bytes, mutation: str, case: int, kind: str, detail: str = "") -> None:
    """Keeps a failing case where a developer can replay it."""
    folder = Path(os.environ.get("SOAK_FAILURES", "soak-failures"))
    folder.mkdir(exist_ok=True)
    (folder / f"{kind.replace(' ', '-')}-{mutation}-{case}.nkr").write_bytes(data)
    if detail:
        (folder / f"{kind}-{mutation}-{case}.txt").write_text(detail)


def children_cpu() -> float:
    """Returns the user + sys time of this process's ended children (the pool's workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000, help="how many mutated files (default 100,000)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the sequence of cases (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--quick", action="store_true", help="30 cases, one worker: a smoke run")
    args = parser.parse_args()
    if args.quick:
        args.cases, args.jobs = 30, 1
    began, cpu = time.perf_counter(), time.process_time() + children_cpu()
    chunk = 500
    chunks = [(s, min(s + chunk, args.cases), args.seed) for s in range(0, args.cases, chunk)]
    totals: dict[str, Counter[str]] = {name: Counter() for name in sorted(MUTATIONS)}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for counts in pool.map(run_chunk, chunks):
            for name, tally in counts.items():
                totals[name].update(tally)
    wall = time.perf_counter() - began
    cpu = time.process_time() + children_cpu() - cpu  # the pool's workers have ended: their time counts
    columns = ("cases", "unreadable", "findings", "imported", *PROBLEMS, "mutation errors")
    games = len(REPLAYS)
    print(
        f"doors soak: {args.cases:,} cases over {games} recorded games, {args.jobs} workers, "
        f"{wall:.0f} s wall, {cpu:.0f} s CPU"
    )
    print(f"{'mutation':<16}" + "".join(f"{c:>{len(c) + 2}}" for c in columns))
    for name, tally in totals.items():
        print(f"{name:<16}" + "".join(f"{tally[c]:>{len(c) + 2},}" for c in columns))
    everything: Counter[str] = Counter()
    for tally in totals.values():
        everything.update(tally)
    print(f"{'all':<16}" + "".join(f"{everything[c]:>{len(c) + 2},}" for c in columns))
    figures = {c: everything[c] for c in columns}
    print(
        json.dumps(
            {
                "cases": args.cases,
                "seed": args.seed,
                "wall_s": round(wall, 1),
                "cpu_s": round(cpu, 1),
                **figures,
            }
        )
    )
    return 1 if any(everything[p] for p in (*PROBLEMS, "mutation errors")) else 0


if __name__ == "__main__":
    sys.exit(main())
