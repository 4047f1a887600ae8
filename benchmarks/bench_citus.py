"""Citus benchmark (issue 29 item 5): the Citus store (a coordinator and two workers) against one plain
PostgreSQL server of the same settings, in the same run. Not a test: figures, and the ratios Citus / PG.

Run from anywhere (the project root is put on sys.path); PostgreSQL comes from the distribution's package,
Citus from `../shared/vendor/citus/build.sh`:

    python benchmarks/bench_citus.py                 # full run (~5 minutes on 2 cores)
    python benchmarks/bench_citus.py --quick         # smoke run (1 and 2 processes, about a minute)
    python benchmarks/bench_citus.py --pg-url postgresql://U@H/DB --citus-url citus://U@H:P/DB
    python benchmarks/bench_citus.py --markdown      # the tables for docs/scaling.md
    python benchmarks/bench_citus.py --json > run.json; python benchmarks/bench_citus.py --render run.json

Without --pg-url / --citus-url it starts its own servers on 127.0.0.1, each with the package's default
durability (fsync, synchronous_commit and full_page_writes on) and memory: one plain server, and a Citus
coordinator with two workers (`load_server.durable_cluster`). On one machine the cluster's three servers
share the cores the plain server has alone: this measures what Citus costs here, not what it buys on
several machines.

1. action load (bench_load's, load_play.py): K bot games across M = 1, 4, 8 spawned processes, each its
   own GameService, every `take_action` timed; actions/s, events/s, p50/p99 latency, the game processes'
   CPU and every server's (the plain server; the coordinator and the workers, apart). For each M the two
   stores run one after the other, their order swapped from one M to the next; the ratios are Citus / PG.
2. batched append (load_append.py's rows and interleaving): the same real stored events, many games per
   batch of 500, appended through the Citus recorder (`CitusStoreRecorder.insert_events`: one multi-row
   VALUES statement per batch, which for many games is a multi-shard insert, committed in two phases)
   and by a raw binary `COPY` of the same rows into the same distributed events table, once with
   Citus's defaults (a connection to a worker per shard written, ~30 new backends a batch) and once with
   one connection per worker (`SET citus.max_adaptive_executor_pool_size = 1`); beside them the recorder
   and COPY on the plain server. Reps interleaved, medians; CPU is this process's and all servers'.

Clocks (benchmarks/clocks.py): every row has CPU beside wall time; a server's CPU is read from /proc (the
postmaster's own and reaped time and its live children's), so it is there only for servers on this
machine. A ratio of throughput is wall time (what a writer waits for on durable servers); the CPU per
action beside it says what each store costs the machine, which holds better when the machine is busy.

Output: tables on stdout; --json one JSON object instead; --markdown Markdown tables. Progress on stderr.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import load_play  # noqa: E402, F401  (quiets structlog before the service is imported)
from bench_load import (  # noqa: E402
    fresh_schema,
    load_row,
    numbers,
    print_markdown_tables,
    print_tables,
    progress,
)
from load_append import batches, interleaved, real_events  # noqa: E402
from load_play import run_load  # noqa: E402
from load_server import Server, durable_cluster, durable_server, given_server  # noqa: E402

from benchmarks.clocks import postmaster_of, server_cpu  # noqa: E402
from tests.citus_cluster import CitusCluster, cluster_from_env  # noqa: E402

FULL = {"seconds": 8.0, "processes": "1,4,8", "games": 16, "append_events": 20_000, "reps": 5}
QUICK = {"seconds": 2.0, "processes": "1,2", "games": 4, "append_events": 1_000, "reps": 3}
COPY_COLUMNS = "(originator_id, originator_version, topic, state)"
POOL_ONE = 1
COPY_POOL_ONE = "citus COPY, 1 connection per worker"


@dataclass
class Node:
    """One server of this run: its role, a plain URL of it, and its postmaster when on this machine."""

    role: str  # "postgresql", "coordinator", "worker"
    url: str
    postmaster: int | None

    def cpu(self) -> float:
        return server_cpu(self.postmaster) if self.postmaster is not None else 0.0


def citus_nodes(cluster: CitusCluster) -> list[Node]:
    """Returns the coordinator and its workers (as the coordinator's pg_dist_node lists them)."""
    import psycopg

    with psycopg.connect(cluster.pg_url(), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT nodename, nodeport FROM pg_dist_node WHERE groupid <> 0 ORDER BY 2"
        ).fetchall()
    urls = [cluster.pg_url()] + [
        f"postgresql://{cluster.user}@{host}:{port}/{urlsplit(cluster.pg_url()).path.lstrip('/')}"
        for host, port in rows
    ]
    return [Node("coordinator" if i == 0 else "worker", u, postmaster_of(u)) for i, u in enumerate(urls)]


def on_this_machine(nodes: list[Node]) -> bool:
    return all(node.postmaster is not None for node in nodes)


def as_citus(url: str) -> str:
    """Returns a `postgresql://` URL of the coordinator as the Citus store's `citus://` URL."""
    return "citus" + url[url.index("://") :]


def schema_url(node_url: str, schema: str) -> str:
    """Drops a benchmark schema (`cb_*`) on a server (on a coordinator: on its workers too); returns the
    plain URL of that schema."""
    return fresh_schema(Server(node_url, ""), urlsplit(node_url).path.lstrip("/"), schema)


# --- 1. action load -------------------------------------------------------------------------------------


def bench_load(pg: Node, citus: list[Node], args: argparse.Namespace, out: dict[str, Any]) -> None:
    """K games across M processes on each store, the two stores one after the other for each M."""
    out["load"] = []
    for i, m in enumerate(args.processes):
        stores = ["postgresql", "citus"] if i % 2 == 0 else ["citus", "postgresql"]
        for store in stores:
            progress(f"action load on {store}: {args.games} games, {m} processes, {args.seconds:g} s")
            nodes = [pg] if store == "postgresql" else citus
            url = schema_url(nodes[0].url, f"cb_load_m{m}")
            db = url if store == "postgresql" else as_citus(url)
            readings: list[list[float]] = []

            def clock(nodes: list[Node] = nodes, readings: list[list[float]] = readings) -> float:
                readings.append([node.cpu() for node in nodes])
                return sum(readings[-1])

            local = on_this_machine(nodes)
            figures = run_load(
                store, db, m, args.games, args.seconds, args.ruleset, None, clock if local else None
            )
            row = load_row(figures)
            del row["server_waits"]
            if store == "citus" and local:
                spent = [after - before for before, after in zip(readings[0], readings[-1], strict=True)]
                per_action = 1000 / max(figures.actions, 1)
                row["coordinator_cpu_ms_per_action"] = round(spent[0] * per_action, 3)
                row["workers_cpu_ms_per_action"] = [round(s * per_action, 3) for s in spent[1:]]
            out["load"].append(row)
    out["ratios"] = ratios(out["load"])


def ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Returns Citus / PG for each M: throughput, p99, and CPU per action (clients, servers, both)."""
    made = []
    for m in sorted({r["processes"] for r in rows}):
        pg = next(r for r in rows if r["processes"] == m and r["store"] == "postgresql")
        ci = next(r for r in rows if r["processes"] == m and r["store"] == "citus")

        def over(key: str, ci: dict[str, Any] = ci, pg: dict[str, Any] = pg) -> float | None:
            if ci.get(key) is None or not pg.get(key):
                return None
            return round(ci[key] / pg[key], 3)

        both = [
            None
            if r["server_cpu_ms_per_action"] is None
            else r["client_cpu_ms_per_action"] + r["server_cpu_ms_per_action"]
            for r in (ci, pg)
        ]
        made.append(
            {
                "processes": m,
                "actions_s": over("actions_s"),
                "events_s": over("events_s"),
                "p99_ms": over("p99_ms"),
                "client_cpu_per_action": over("client_cpu_ms_per_action"),
                "server_cpu_per_action": over("server_cpu_ms_per_action"),
                "total_cpu_per_action": None if None in both or not both[1] else round(both[0] / both[1], 3),
            }
        )
    return made


# --- 2. batched append ----------------------------------------------------------------------------------


def bench_append(pg: Node, citus: list[Node], args: argparse.Namespace, out: dict[str, Any]) -> None:
    """The Citus recorder's batched append against a raw binary COPY into the same distributed table,
    and the same two on the plain server, reps interleaved."""
    import psycopg

    from event_store.app.service import GameService

    progress(f"playing bot games for {args.append_events:,} real stored events")
    rows = real_events(args.ruleset, args.append_events)
    raw_batches = batches(
        [(e.originator_id, e.originator_version, e.topic, e.state) for e in rows], args.batch
    )
    lib_batches = batches(rows, args.batch)
    passes: dict[str, tuple[Callable[[], None], Callable[[], None]]] = {}
    tables: dict[str, str] = {}
    with ExitStack() as stack:
        for store, node in (("citus", citus[0]), ("postgresql", pg)):
            url = schema_url(node.url, "cb_append")
            service = GameService(as_citus(url) if store == "citus" else url)
            stack.callback(service.close)
            recorder = service.recorder
            conn = stack.enter_context(psycopg.connect(node.url, autocommit=True))
            conn.execute('SET search_path TO "cb_append"')
            table = tables[store] = recorder.events_table_name  # type: ignore[attr-defined]
            copy = f"COPY {table} {COPY_COLUMNS} FROM STDIN (FORMAT BINARY)"

            def empty(conn: Any = conn, table: str = table) -> None:
                conn.execute(f"TRUNCATE {table}")

            def through_recorder(recorder: Any = recorder) -> None:
                for batch in lib_batches:
                    recorder.insert_events(batch)

            def raw_copy(conn: Any = conn, copy: str = copy) -> None:
                for batch in raw_batches:
                    with conn.transaction(), conn.cursor() as cursor, cursor.copy(copy) as rows_in:
                        rows_in.set_types(["uuid", "int8", "text", "bytea"])
                        for row in batch:
                            rows_in.write_row(row)

            passes[f"{store} recorder"] = (empty, through_recorder)
            passes[f"{store} COPY"] = (empty, raw_copy)
            if store == "citus":
                # Citus's COPY opens a connection to a worker for each shard it writes to (up to
                # citus.max_adaptive_executor_pool_size, 16) and closes all but one at the commit, so a
                # COPY of many games' rows starts ~30 backends a batch; with one connection per worker
                # it starts none. Both are measured: the default, and the setting a bulk loader would use.
                pooled = stack.enter_context(psycopg.connect(node.url, autocommit=True))
                pooled.execute('SET search_path TO "cb_append"')
                pooled.execute(f"SET citus.max_adaptive_executor_pool_size = {POOL_ONE}")
                passes[COPY_POOL_ONE] = (empty, lambda pooled=pooled, copy=copy: raw_copy(pooled, copy))
        progress(f"batched append, batches of {args.batch}, {args.reps} reps of {len(passes)} passes")
        nodes = [pg, *citus]
        medians = interleaved(args.reps, passes, lambda: sum(node.cpu() for node in nodes))
    # Each store's last pass left every row in its table: none was lost.
    for store, node in (("citus", citus[0]), ("postgresql", pg)):
        with psycopg.connect(node.url, autocommit=True) as conn:
            found = conn.execute(f"SELECT count(*) FROM cb_append.{tables[store]}").fetchone()
        assert found is not None and found[0] == len(rows), (store, found, len(rows))
    out["append"] = [
        {
            "pass": name,
            "events": len(rows),
            "batch": args.batch,
            "ev_s": round(len(rows) / wall),
            "client_cpu_ms": round(cpu * 1000, 1),
            "servers_cpu_ms": round(servers * 1000, 1),
        }
        for name, (wall, cpu, servers) in medians.items()
    ]
    out["append_ratios"] = [
        append_ratio(out["append"], f"{store} recorder", against)
        for store, against in (
            ("citus", "citus COPY"),
            ("citus", COPY_POOL_ONE),
            ("postgresql", "postgresql COPY"),
        )
    ]


def append_ratio(rows: list[dict[str, Any]], recorder_pass: str, copy_pass: str) -> dict[str, Any]:
    """Returns a recorder's figures over a raw COPY's: events/s (wall) and CPU (client + servers)."""
    recorder = next(r for r in rows if r["pass"] == recorder_pass)
    copy = next(r for r in rows if r["pass"] == copy_pass)
    spent = [r["client_cpu_ms"] + r["servers_cpu_ms"] for r in (recorder, copy)]
    return {
        "recorder": recorder_pass,
        "against": copy_pass,
        "recorder_over_copy_ev_s": round(recorder["ev_s"] / copy["ev_s"], 3),
        "copy_cpu_over_recorder_cpu": round(spent[1] / spent[0], 3) if spent[0] else None,
    }


# --- output ---------------------------------------------------------------------------------------------


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return " / ".join(_cell(v) for v in value)
    if isinstance(value, float):
        return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


LOAD = (
    ("store", "store"),
    ("M", "processes"),
    ("actions/s", "actions_s"),
    ("events/s", "events_s"),
    ("p50 ms", "p50_ms"),
    ("p99 ms", "p99_ms"),
    ("client cores", "client_cores"),
    ("machine busy", "machine_busy"),
    ("client CPU ms/action", "client_cpu_ms_per_action"),
    ("servers CPU ms/action", "server_cpu_ms_per_action"),
    ("coordinator", "coordinator_cpu_ms_per_action"),
    ("workers", "workers_cpu_ms_per_action"),
)
RATIOS = (
    ("M", "processes"),
    ("actions/s", "actions_s"),
    ("events/s", "events_s"),
    ("p99", "p99_ms"),
    ("client CPU/action", "client_cpu_per_action"),
    ("servers CPU/action", "server_cpu_per_action"),
    ("all CPU/action", "total_cpu_per_action"),
)
APPEND = (
    ("pass", "pass"),
    ("events", "events"),
    ("batch", "batch"),
    ("events/s", "ev_s"),
    ("client CPU ms", "client_cpu_ms"),
    ("servers CPU ms", "servers_cpu_ms"),
)
APPEND_RATIOS = (
    ("recorder", "recorder"),
    ("against", "against"),
    ("recorder / COPY events/s", "recorder_over_copy_ev_s"),
    ("COPY CPU / recorder CPU", "copy_cpu_over_recorder_cpu"),
)


def tables(out: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """Returns each section as (title, headers, rows of text)."""
    sections = (
        (
            "load",
            "action load: K bot games across M processes (CPU ms/action: coordinator, each worker)",
            LOAD,
        ),
        (
            "ratios",
            "action load, Citus / PostgreSQL (above 1: Citus more; for CPU, Citus costs more)",
            RATIOS,
        ),
        ("append", "batched append: recorder.insert_events vs raw binary COPY (median of reps)", APPEND),
        ("append_ratios", "batched append: recorder against raw COPY, per store", APPEND_RATIOS),
    )
    made = []
    for key, title, columns in sections:
        if out.get(key):
            rows = [[_cell(row.get(name)) for _, name in columns] for row in out[key]]
            made.append((title, [header for header, _ in columns], rows))
    return made


def show(out: dict[str, Any], markdown: bool) -> None:
    if markdown:
        print_markdown_tables(out["header"], tables(out))
    else:
        print_tables(out["header"], tables(out))


# --- main -----------------------------------------------------------------------------------------------


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: short, M = 1 and 2")
    parser.add_argument("--games", type=int, help="K: concurrent bot games in all (default 16)")
    parser.add_argument("--processes", help="M values, `1,4,8` or `1-4` (default 1,4,8)")
    parser.add_argument("--seconds", type=float, help="how long each load configuration plays (default 8)")
    parser.add_argument("--append-events", type=int, help="stored events appended per rep (default 20,000)")
    parser.add_argument("--batch", type=int, default=500, help="stored events per append batch (default 500)")
    parser.add_argument("--reps", type=int, help="append reps, interleaved (default 5)")
    parser.add_argument("--ruleset", default="keep-run", help="the bots' game (default keep-run)")
    parser.add_argument("--only", choices=("append", "load"), help="run one section")
    parser.add_argument("--pg-url", help="a plain PostgreSQL server to use (postgresql://USER@HOST/DB)")
    parser.add_argument("--citus-url", help="a Citus coordinator to use (citus://USER@HOST:PORT/DB)")
    parser.add_argument(
        "--render", metavar="FILE", help="print the tables of a saved --json run; run nothing"
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    output.add_argument("--markdown", action="store_true", help="print Markdown tables instead")
    args = parser.parse_args(argv)
    preset = QUICK if args.quick else FULL
    args.processes = numbers(args.processes or str(preset["processes"]))
    args.games = args.games or int(preset["games"])
    args.seconds = args.seconds or float(preset["seconds"])
    args.append_events = args.append_events or int(preset["append_events"])
    args.reps = args.reps or int(preset["reps"])
    if args.games < max(args.processes):
        parser.error("--games must be at least the largest M (each process plays one game or more)")
    if args.citus_url and not args.citus_url.startswith("citus://"):
        parser.error("--citus-url: a citus://USER@HOST:PORT/DB URL of the coordinator")
    return args


def settings_of(url: str) -> dict[str, str]:
    """Returns a server's durability settings and version, as it reports them."""
    return Server(url, "").settings()


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    # A terminated run still stops the servers it started and removes their files.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.render:
        show(json.loads(Path(args.render).read_text()), args.markdown)
        return 0
    cpu, started = time.process_time(), time.perf_counter()
    out: dict[str, Any] = {"mode": "quick" if args.quick else "full", "cpus": os.cpu_count()}
    out["when"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    out["load_average_start"] = [round(x, 2) for x in os.getloadavg()]
    with ExitStack() as stack:
        progress("starting PostgreSQL" if not args.pg_url else "using the given PostgreSQL server")
        server = stack.enter_context(given_server(args.pg_url) if args.pg_url else durable_server())
        progress(
            "starting a Citus coordinator and 2 workers" if not args.citus_url else "using the given cluster"
        )
        cluster = (
            cluster_from_env(args.citus_url) if args.citus_url else stack.enter_context(durable_cluster())
        )
        pg = Node("postgresql", server.url, postmaster_of(server.url))
        citus = citus_nodes(cluster)
        out["servers"] = {
            "postgresql": {"kind": server.kind, **settings_of(pg.url)},
            "citus": [
                {
                    "role": node.role,
                    "kind": "given" if args.citus_url else "started here",
                    **settings_of(node.url),
                }
                for node in citus
            ],
        }
        if args.only in (None, "load"):
            bench_load(pg, citus, args, out)
        if args.only in (None, "append"):
            bench_append(pg, citus, args, out)
    out["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    out["wall_s"] = round(time.perf_counter() - started, 1)
    out["cpu_s"] = round(time.process_time() - cpu, 1)  # this process's (the game processes are apart)
    durability = ", ".join(
        f"{k}={out['servers']['postgresql'][k]}" for k in ("fsync", "synchronous_commit", "full_page_writes")
    )
    out["header"] = (
        f"nightkeep Citus benchmark ({out['mode']}), {out['when']}, {out['cpus']} CPUs, python "
        f"{sys.version.split()[0]}, K={args.games} {args.ruleset} games, {args.seconds:g} s per load run; "
        f"PostgreSQL {out['servers']['postgresql']['server_version']} ({durability}) against Citus, "
        f"a coordinator and {len(citus) - 1} workers on the same machine; load average "
        f"{out['load_average_start'][0]:.1f} at the start, {out['load_average_end'][0]:.1f} at the end"
    )
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        show(out, args.markdown)
        if not args.markdown:
            print(f"\ntotal {out['wall_s']} s wall, {out['cpu_s']} s CPU in this process")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
