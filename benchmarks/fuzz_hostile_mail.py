"""Fuzz run of hostile mail through the host: can any mail stop `host run`, print a traceback, or keep a
good mail behind it from being handled?

    python benchmarks/fuzz_hostile_mail.py            # 10,000 hostile mails, 200 more through the CLI
    python benchmarks/fuzz_hostile_mail.py --quick    # smoke: 60 mails of <= 256 KiB, 3 via the CLI

Games of dungeon-short are hosted over a Maildir (tests/hostile_run.py): Ann signs packets, Bo replies by
mail and now and then asks for status, history or help. Each round the players answer the host's mail,
0 to 40 hostile mails (tests/hostile_mails.py: MIME nested thousands deep, huge and tiny sizes, broken
boundaries, charsets, encodings and headers, NULs, odd attachments, fake packets and Game-Key lines,
damaged copies of real mails…) are dropped before and after their good ones, and `run_once` passes run
in this process until the inbox is empty; a finished game makes way for a new one. Then a sample goes
through the real CLI, `nightkeep host run --once --inbox maildir:… --out DIR`, as a process.

Counted: host stops (a pass that raised, or a CLI run that exited non-zero), tracebacks on stderr, good
mails the host remembers as handled of those sent, mails set aside, To headers that are not one usable
address, failures past the reader (the host's own code tripping over a mail it could read), games that
stopped moving, and per mail the CPU time (time.process_time) and wall time of the passes. Keys, the
host's mail secret, the games' dice and their ids are seeded, so a seed repeats its mails and games
(the Maildir may order mails delivered within one clock tick otherwise). Output: a table, then one JSON
line. Exit 1 if a target is missed: 0 stops, 0 tracebacks, every good mail handled, 0 unsafe To, 0
failures past the reader, 0 stalled games.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402
import structlog  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

from tests.hostile_run import CliCounts, Counts, run_hostile  # noqa: E402
from tests.pbem_helpers import seed_randomness  # noqa: E402


def main() -> int:
    """Runs the fuzz, prints the table and the JSON line; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 60 mails of at most 256 KiB, 3 through the CLI"
    )
    parser.add_argument("--mails", type=int, default=10_000, help="hostile mails run in process")
    parser.add_argument("--cli", type=int, default=200, help="hostile mails run through the CLI")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--max-size", type=int, default=64 << 20 | 1, help="largest mail made, in bytes")
    args = parser.parse_args()
    mails, cli_mails = (60, 3) if args.quick else (args.mails, args.cli)
    if args.quick:  # (64 MiB mails took minutes of CPU: the quick run is a smoke run, not the soak)
        args.max_size = 256 * 1024
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setenv("NIGHTKEEP_KEYS", os.path.join(folder, "keys"))
        seed_randomness(patch, args.seed)
        seeds = (hashlib.sha256(b"fuzz-%d-%d" % (args.seed, n)).digest() for n in itertools.count())
        patch.setattr("event_store.app.service.new_seed", lambda: next(seeds))  # the games' dice
        counts, cli = run_hostile(Path(folder), mails, args.seed, args.max_size, cli_mails)
    report(counts, cli, time.perf_counter() - started)
    return 0 if missed(counts, cli) == [] else 1


def missed(counts: Counts, cli: CliCounts) -> list[str]:
    """Returns the targets the run missed."""
    checks = {
        "host stops": counts.stops + cli.failed_runs,
        "tracebacks": counts.tracebacks + cli.tracebacks + cli.internal_errors,
        "good mails not handled": counts.good_sent - counts.good_handled + cli.good_sent - cli.good_handled,
        "good moves lost": counts.moves_lost,
        "unsafe To headers": counts.unsafe_to,
        "failures past the reader": sum(counts.failures_past_reader.values()),
        "stalled games": counts.stalls,
    }
    return [name for name, value in checks.items() if value]


def report(counts: Counts, cli: CliCounts, seconds: float) -> None:
    """Prints what the run did: the figures, then what became of each kind of hostile mail."""
    read = counts.mails + counts.good_sent
    rows = [
        ("hostile mails (in process)", f"{counts.mails:,} in {counts.games} games, {counts.passes} passes"),
        ("host stops", f"{counts.stops} {counts.stop_errors[:3] or ''}".strip()),
        ("tracebacks on stderr", str(counts.tracebacks)),
        ("good mails handled", f"{counts.good_handled:,} of {counts.good_sent:,}"),
        ("good moves not in the log", str(counts.moves_lost)),
        ("mails set aside", f"{counts.set_aside:,}"),
        ("unsafe To headers", str(counts.unsafe_to)),
        ("failures past the reader", str(sum(counts.failures_past_reader.values())) + _listed(counts)),
        ("stalled games", str(counts.stalls)),
        (
            "CPU per mail",
            f"{1000 * counts.cpu / max(read, 1):.1f} ms (wall {1000 * counts.wall / max(read, 1):.1f} ms)",
        ),
        (
            "CLI sample (host run --once)",
            f"{cli.mails} hostile + {cli.good_sent} good mails, {cli.runs} runs",
        ),
        ("  runs not exiting 0", str(cli.failed_runs)),
        ("  tracebacks, internal errors", f"{cli.tracebacks}, {cli.internal_errors}"),
        ("  good mails handled", f"{cli.good_handled} of {cli.good_sent}"),
        ("whole run", f"{seconds:.0f} s"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    print(f"\n{'kind':<16} {'mails':>6}  what the host did")
    for kind, total in sorted(counts.kinds.items(), key=lambda item: -item[1]):
        done = sorted(((n, o) for (k, o), n in counts.outcomes.items() if k == kind), reverse=True)
        print(f"{kind:<16} {total:>6}  " + ", ".join(f"{o} {n}" for n, o in done))
    figures = {
        "mails": counts.mails,
        "stops": counts.stops,
        "tracebacks": counts.tracebacks,
        "good_sent": counts.good_sent,
        "good_handled": counts.good_handled,
        "moves_lost": counts.moves_lost,
        "set_aside": counts.set_aside,
        "unsafe_to": counts.unsafe_to,
        "failures_past_reader": dict(counts.failures_past_reader),
        "stalls": counts.stalls,
        "cpu_ms_per_mail": round(1000 * counts.cpu / max(read, 1), 2),
        "wall_ms_per_mail": round(1000 * counts.wall / max(read, 1), 2),
        "cli": vars(cli),
        "missed": missed(counts, cli),
    }
    print(json.dumps(figures))


def _listed(counts: Counts) -> str:
    return f" {dict(counts.failures_past_reader)}" if counts.failures_past_reader else ""


if __name__ == "__main__":
    sys.exit(main())
