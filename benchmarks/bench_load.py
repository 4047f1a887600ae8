"""Load benchmark (issue 15 item 7): concurrent bot games across processes, batched append against raw
psycopg, on PostgreSQL and on SQLite. Not a test: figures, with the issue's targets.

Run from anywhere (the project root is put on sys.path); PostgreSQL comes from the distribution's package:

    python benchmarks/bench_load.py                  # full run (~5 minutes on 2 cores)
    python benchmarks/bench_load.py --quick          # smoke run (~1 minute)
    python benchmarks/bench_load.py --pg-url postgresql://USER@HOST/DB   # on a server of your own
    python benchmarks/bench_load.py --markdown       # the tables for docs/scaling.md
    python benchmarks/bench_load.py --json > run.json; python benchmarks/bench_load.py --render run.json

Without --pg-url it starts its own server on 127.0.0.1 with the package's default durability (fsync,
synchronous_commit and full_page_writes on); SQLite files are made in a temporary directory.

1. batched append: the same real stored events (seeded bot games' msgpack states, many games per batch)
   appended through the library's recorder (`recorder.insert_events`, one transaction per batch) and by
   a raw `executemany` of the same rows into an equivalent table (psycopg; sqlite3 for SQLite), reps
   interleaved, medians. Targets (PostgreSQL): >= 30k events/s and >= 0.3x the raw executemany.
   Beside them, for PostgreSQL: the library's own statement with the batch in text form (what
   `postgres_store.binary_batch` replaces) and a raw binary COPY of the same rows (a higher limit).
2. action load: K bot games across M = 1..4 spawned processes, each process its own GameService, every
   `take_action` timed (see load_play.py); events/s and actions/s of all processes together, p50 and
   p99 latency, the game processes' CPU and the whole machine's (a busy machine shows here), and on
   PostgreSQL what the server's backends were doing (load_waits.py). Target: p99 <= 20 ms at 4 processes.

Clocks. Every row prints CPU time beside wall time: this process's (or the game processes') CPU, and on a
PostgreSQL server of this machine its processes' CPU read from /proc (the postmaster's own and reaped
time and its live children's: the backends the client waits on, the WAL writer, the checkpointer). The
targets of sections 1-2 that are throughput or latency (events/s appended, p99 latency) stay judged on
wall time: they are about what a writer waits for on a durable server under load,
and an fsync or a lock wait is not CPU on either side; the CPU columns beside them (and "machine busy")
tell a FAIL from a busy machine. The one ratio target, the recorder against raw executemany, is judged
on CPU time (client + server): both sides wait for the same commits, and CPU holds under other jobs' load.

Output: tables on stdout; --json one JSON object instead; --markdown Markdown tables instead. Progress
goes to stderr.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import load_play  # noqa: E402, F401  (quiets structlog before the service is imported)
from load_append import append_postgres, append_sqlite, real_events  # noqa: E402
from load_play import LoadFigures, run_load  # noqa: E402
from load_server import Server, durable_server, given_server  # noqa: E402
from load_waits import sample_waits, summary  # noqa: E402

from benchmarks.clocks import postmaster_of, server_cpu  # noqa: E402

FULL = {"seconds": 8.0, "processes": "1,2,3,4", "append_events": 20_000, "reps": 5}
QUICK = {"seconds": 3.0, "processes": "1,2", "append_events": 4_000, "reps": 3}
STORES = ("postgresql", "sqlite")
TARGET_APPEND = 30_000
TARGET_RAW_RATIO = 0.3
TARGET_P99_MS = 20.0


def progress(text: str) -> None:
    """Says what runs now, on stderr."""
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def fresh_schema(server: Server, database: str, schema: str) -> str:
    """Drops and recreates nothing but a benchmark schema (`load_*`) in a database; returns its URL."""
    import psycopg

    with psycopg.connect(server.database_url(database), autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    return server.database_url(database, schema)


def server_clock(server: Server | None) -> Callable[[], float] | None:
    """Returns what reads the server's processes' CPU seconds so far, when it runs on this machine."""
    postmaster = postmaster_of(server.url) if server is not None else None
    return None if postmaster is None else lambda: server_cpu(postmaster)


def bench_append(server: Server | None, work: str, args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Section 1: the recorder's batched append against raw executemany, on each store."""
    progress(f"playing bot games for {args.append_events:,} real stored events")
    rows = real_events(args.ruleset, args.append_events)
    figures = []
    if server is not None:
        progress(f"batched append on PostgreSQL, batches of {args.batch}, {args.reps} reps")
        url = fresh_schema(server, server.database(), "load_append")
        clock = server_clock(server) or (lambda: 0.0)
        figures.append(append_postgres(url, server.url, "load_append", rows, args.batch, args.reps, clock))
    if "sqlite" in args.stores:
        progress(f"batched append on SQLite, batches of {args.batch}, {args.reps} reps")
        figures.append(append_sqlite(str(Path(work) / "append.sqlite"), rows, args.batch, args.reps))
    out["append"] = [
        {
            "store": f.store,
            "events": f.events,
            "batch": f.batch,
            "library_ev_s": round(f.library_ev_s),
            "raw_executemany_ev_s": round(f.raw_ev_s),
            "ratio": round(f.ratio, 3),
            "library_text_form_ev_s": round(f.text_ev_s),
            "raw_copy_ev_s": round(f.copy_ev_s),
            "library_client_cpu_ms": round(f.library_cpu_s * 1000, 1),
            "library_server_cpu_ms": round(f.library_server_cpu_s * 1000, 1),
            "raw_client_cpu_ms": round(f.raw_cpu_s * 1000, 1),
            "raw_server_cpu_ms": round(f.raw_server_cpu_s * 1000, 1),
            "cpu_ratio": round(f.cpu_ratio, 3),
        }
        for f in figures
    ]


def load_row(figures: LoadFigures) -> dict[str, Any]:
    """Returns one configuration's figures as JSON-native values."""
    return {
        "store": figures.store,
        "processes": figures.processes,
        "games": figures.games,
        "actions": figures.actions,
        "events": figures.events,
        "seconds": round(figures.seconds, 2),
        "actions_s": round(figures.actions_s, 1),
        "events_s": round(figures.events_s),
        "p50_ms": round(figures.p50_ms, 2),
        "p99_ms": round(figures.p99_ms, 2),
        "max_ms": round(figures.max_ms, 1),
        "client_cores": round(figures.client_cores, 2),
        "machine_busy": round(figures.machine_busy, 2),
        "server_waits": figures.waits,
        "client_cpu_ms_per_action": round(figures.client_cpu_s * 1000 / max(figures.actions, 1), 3),
        "server_cpu_ms_per_action": (
            None
            if figures.server_cpu_s is None
            else round(figures.server_cpu_s * 1000 / max(figures.actions, 1), 3)
        ),
    }


def bench_load(server: Server | None, work: str, args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Section 2: K games across M processes, each store, each M."""
    out["load"] = []
    for store in args.stores:
        for m in args.processes:
            progress(f"action load on {store}: {args.games} games, {m} processes, {args.seconds:g} s")
            if store == "postgresql":
                assert server is not None
                db = fresh_schema(server, server.database(), f"load_m{m}")
            else:
                db = str(Path(work) / f"load-m{m}.sqlite")
            on_pg = server is not None and store == "postgresql"
            during = waits_of(server, [server.database()]) if server and on_pg else None
            clock = server_clock(server) if on_pg else None
            figures = run_load(store, db, m, args.games, args.seconds, args.ruleset, during, clock)
            out["load"].append(load_row(figures))


def waits_of(server: Server, databases: list[str]) -> Callable[[float], dict[str, float]]:
    """Returns what samples the server's backends of some databases while a load runs."""
    return lambda seconds: sample_waits(server.url, databases, seconds)


def verdicts(out: dict[str, Any]) -> list[dict[str, Any]]:
    """Returns each target with the figure it is judged on and whether it is met."""
    found: list[dict[str, Any]] = []
    for row in out.get("append", []):
        if row["store"] == "postgresql":
            found.append(
                _verdict(
                    "PostgreSQL batched append (wall)",
                    f"{row['library_ev_s']:,} ev/s",
                    ">= 30,000 ev/s",
                    row["library_ev_s"] >= TARGET_APPEND,
                )
            )
            found.append(
                _verdict(
                    "batched append / raw executemany (CPU, client + server)",
                    f"{row['cpu_ratio']:.2f}x (wall {row['ratio']:.2f}x)",
                    ">= 0.3x",
                    row["cpu_ratio"] >= TARGET_RAW_RATIO,
                )
            )
    for row in out.get("load", []):
        if row["processes"] == 4:
            ok = row["p99_ms"] <= TARGET_P99_MS
            found.append(
                _verdict(
                    f"p99 action latency, 4 processes, {row['store']} (wall)",
                    f"{row['p99_ms']:.1f} ms",
                    "<= 20 ms",
                    ok,
                )
            )
    return found


def _verdict(what: str, figure: str, target: str, ok: bool) -> dict[str, Any]:
    return {"what": what, "figure": figure, "target": target, "met": ok}


# --- output ---------------------------------------------------------------------------------------------

LOAD_COLUMNS = (
    "store",
    "processes",
    "games",
    "actions_s",
    "events_s",
    "p50_ms",
    "p99_ms",
    "max_ms",
    "client_cores",
    "machine_busy",
    "client_cpu_ms_per_action",
    "server_cpu_ms_per_action",
)

LOAD_HEADERS = ["store", "M", "K", "actions/s", "events/s", "p50 ms", "p99 ms", "max ms"]
LOAD_HEADERS += ["client cores", "machine busy", "client CPU ms/action", "server CPU ms/action"]


def tables(out: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """Returns each section as (title, headers, rows of text)."""
    made = []
    if out.get("append"):
        headers = [
            "store",
            "events",
            "batch",
            "recorder ev/s",
            "raw executemany ev/s",
            "ratio",
            "text form ev/s",
            "raw COPY ev/s",
            "recorder CPU ms client / server",
            "raw CPU ms client / server",
            "ratio CPU",
        ]
        rows = [
            [
                r["store"],
                f"{r['events']:,}",
                str(r["batch"]),
                f"{r['library_ev_s']:,}",
                f"{r['raw_executemany_ev_s']:,}",
                f"{r['ratio']:.2f}x",
                f"{r['library_text_form_ev_s']:,}" if r["library_text_form_ev_s"] else "-",
                f"{r['raw_copy_ev_s']:,}" if r.get("raw_copy_ev_s") else "-",
                f"{r.get('library_client_cpu_ms', 0):,.0f} / {r.get('library_server_cpu_ms', 0):,.0f}",
                f"{r.get('raw_client_cpu_ms', 0):,.0f} / {r.get('raw_server_cpu_ms', 0):,.0f}",
                f"{r['cpu_ratio']:.2f}x" if "cpu_ratio" in r else "-",
            ]
            for r in out["append"]
        ]
        made.append(
            ("batched append: recorder.insert_events vs raw executemany (median of reps)", headers, rows)
        )
    if out.get("load"):
        rows = [[_cell(r[c]) for c in LOAD_COLUMNS] for r in out["load"]]
        made.append(("action load: K bot games across M processes", LOAD_HEADERS, rows))
    sampled = [r for r in out.get("load", []) if r.get("server_waits")]
    if sampled:
        rows = [[str(r["processes"]), summary(r["server_waits"])] for r in sampled]
        title = "PostgreSQL: what the game processes' backends were doing (share of samples)"
        made.append((title, ["M", "largest shares"], rows))
    if out.get("targets"):
        rows = [[v["what"], v["figure"], v["target"], "PASS" if v["met"] else "FAIL"] for v in out["targets"]]
        made.append(("targets", ["target", "measured", "wanted", "verdict"], rows))
    return made


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _is_figure(cell: str) -> bool:
    return cell[:1].isdigit() or cell == "-"


def print_text(out: dict[str, Any]) -> None:
    """Prints the run's header and each table, aligned."""
    print_tables(out["header"], tables(out))


def print_markdown(out: dict[str, Any]) -> None:
    """Prints the run's header and each table as Markdown (for docs/scaling.md)."""
    print_markdown_tables(out["header"], tables(out))


def print_tables(header: str, made: list[tuple[str, list[str], list[list[str]]]]) -> None:
    """Prints a header and tables of (title, headers, rows of text), aligned (bench_citus.py's too)."""
    print(header)
    for title, headers, rows in made:
        widths = [max(len(x) for x in column) for column in zip(headers, *rows, strict=True)]
        print(f"\n== {title}")
        for line in (headers, *rows):
            print(
                "  ".join(
                    cell.rjust(w) if i and _is_figure(cell) else cell.ljust(w)
                    for i, (cell, w) in enumerate(zip(line, widths, strict=True))
                )
            )


def print_markdown_tables(header: str, made: list[tuple[str, list[str], list[list[str]]]]) -> None:
    """Prints a header and tables of (title, headers, rows of text) as Markdown."""
    print(f"_{header}_")
    for title, headers, rows in made:
        print(f"\n**{title}**\n")
        print("| " + " | ".join(headers) + " |")
        print("|" + "|".join(" --- " if i == 0 else " ---: " for i in range(len(headers))) + "|")
        for line in rows:
            print("| " + " | ".join(line) + " |")


# --- main -----------------------------------------------------------------------------------------------


def numbers(text: str) -> list[int]:
    """Parses `1,2,4` or `1-4`."""
    if "-" in text:
        low, high = text.split("-", 1)
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",") if part]


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: short, M = 1 and 2")
    parser.add_argument("--games", type=int, default=16, help="K: concurrent bot games in all (default 16)")
    parser.add_argument("--processes", help="M values, `1-4` or `1,2,4` (default 1-4)")
    parser.add_argument("--seconds", type=float, help="how long each load configuration plays (default 8)")
    parser.add_argument("--append-events", type=int, help="stored events appended per rep (default 20,000)")
    parser.add_argument("--batch", type=int, default=500, help="stored events per append batch (default 500)")
    parser.add_argument("--reps", type=int, help="append reps, interleaved (default 5)")
    parser.add_argument("--ruleset", default="keep-run", help="the bots' game (default keep-run)")
    parser.add_argument("--stores", default="postgresql,sqlite", help="postgresql,sqlite (default both)")
    parser.add_argument("--only", choices=("append", "load"), help="run one section")
    parser.add_argument("--pg-url", help="a PostgreSQL server to use")
    parser.add_argument(
        "--render", metavar="FILE", help="print the tables of a saved --json run; run nothing"
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    output.add_argument("--markdown", action="store_true", help="print Markdown tables instead")
    args = parser.parse_args(argv)
    preset = QUICK if args.quick else FULL
    args.processes = numbers(args.processes or str(preset["processes"]))
    args.seconds = args.seconds or preset["seconds"]
    args.append_events = args.append_events or preset["append_events"]
    args.reps = args.reps or preset["reps"]
    args.stores = [s for s in args.stores.split(",") if s]
    unknown = set(args.stores) - set(STORES)
    if unknown or not args.stores:
        parser.error(f"--stores: one or both of {', '.join(STORES)}")
    if args.games < max(args.processes):
        parser.error("--games must be at least the largest M (each process plays one game or more)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    # A terminated run still stops the server it started and removes its files.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.render:
        out = json.loads(Path(args.render).read_text())
        if args.markdown:
            print_markdown(out)
        else:
            print_text(out)
        return 0
    cpu, started = time.process_time(), time.perf_counter()
    out: dict[str, Any] = {
        "mode": "quick" if args.quick else "full",
        "cpus": os.cpu_count(),
        "ruleset": args.ruleset,
    }
    out["when"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    with ExitStack() as stack:
        work = stack.enter_context(tempfile.TemporaryDirectory(prefix="nightkeep-load-"))
        server = None
        if "postgresql" in args.stores:
            progress("starting PostgreSQL" if not args.pg_url else "using the given PostgreSQL server")
            server = stack.enter_context(given_server(args.pg_url) if args.pg_url else durable_server())
            out["postgresql"] = {"server": server.kind, **server.settings()}
        if args.only in (None, "append"):
            bench_append(server, work, args, out)
        if args.only in (None, "load"):
            bench_load(server, work, args, out)
    out["targets"] = verdicts(out)
    out["wall_s"] = round(time.perf_counter() - started, 1)
    out["cpu_s"] = round(time.process_time() - cpu, 1)  # this process's (the game processes are apart)
    pg = out.get("postgresql", {})
    durability = ", ".join(f"{k}={pg[k]}" for k in ("fsync", "synchronous_commit") if k in pg)
    out["header"] = (
        f"nightkeep load benchmark ({out['mode']}), {out['when']}, {out['cpus']} CPUs, python "
        f"{sys.version.split()[0]}, K={args.games} {args.ruleset} games, {args.seconds:g} s per load run"
        + (f"; PostgreSQL {pg.get('server_version', '')} {pg.get('server', '')}: {durability}" if pg else "")
    )
    if args.json:
        print(json.dumps(out, sort_keys=True))
    elif args.markdown:
        print_markdown(out)
    else:
        print_text(out)
        print(f"\ntotal {out['wall_s']} s wall, {out['cpu_s']} s CPU in this process")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
