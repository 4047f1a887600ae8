"""Bot games on PostgreSQL against the same games on SQLite: actions/s, in CPU time (client and server)
beside wall time.

Run from anywhere (the project root is put on sys.path), in the project's virtual environment:

    python benchmarks/bench_pg_play.py                 # 6 dungeon-short games on each store, best of 3
    python benchmarks/bench_pg_play.py --quick         # 1 game, once: a smoke run
    python benchmarks/bench_pg_play.py --pg-url postgresql://USER@127.0.0.1:PORT/DB

Issue 28's row "PostgreSQL bot game actions/s vs SQLite" (target >= 0.7x). Without --pg-url a server is
started as the tests start theirs (tests/pg_server.py: the distribution's package, 127.0.0.1, durability
off); with it, each run makes a schema of its own on that server.

The same seeded `dungeon-short` bot games (3 players, `play_with_bots`: every action decided, stored,
outbox and index rows written) are played on a SQLite file and on a PostgreSQL schema, the stores
interleaved rep by rep; the best rep of each counts. Three clocks:
- client CPU: this process's user + sys (time.process_time);
- server CPU: the PostgreSQL server's processes' user + sys, read from /proc (the postmaster's own and
  reaped children's time, and every live child's: backends, WAL writer, checkpointer...); available when
  the server runs on this machine and /proc shows it, else "n/a";
- wall time (time.perf_counter).
The verdict is on CPU time: SQLite's actions/s per CPU second of this process (its engine runs in it)
against PostgreSQL's actions/s per CPU second of client and server together, since on PostgreSQL the
engine's work is done in the server, and a client waiting on round trips spends little CPU of its own:
the client's CPU alone would flatter PostgreSQL. Round trips cost both sides CPU (a send, a wake-up, a
statement parsed) and wall time (the latency between them); wall time is printed beside, and it is what
a user waits, but it swings with the machine's load. Output: a table, then one JSON line.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from event_store import lazy_log  # noqa: E402

lazy_log.defer_configuration(lambda: None, 30)  # the games log nothing

import event_store.app.service  # noqa: E402
from benchmarks.clocks import Spent, postmaster_of, server_cpu, stopwatch  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402

RULESET = "dungeon-short"
PLAYERS = [("Ann", None), ("Bo", None), ("Cy", None)]
TARGET = 0.7  # PostgreSQL actions/s over SQLite's, CPU time
FULL = {"games": 6, "reps": 3}
QUICK = {"games": 1, "reps": 1}


# --- the games -------------------------------------------------------------------------------------------


def play_games(db: str, games: int) -> int:
    """Plays `games` seeded bot games in a store (the dice seeds repeat too: the service asks the OS for
    them, swapped here for a seeded generator); returns the actions taken."""
    rng = random.Random(1)
    service = GameService.open(db)
    actions = 0
    with patch.object(event_store.app.service, "new_seed", lambda: rng.randbytes(32)):
        for seed in range(1, games + 1):
            game = service.create_game(RULESET, PLAYERS)
            actions += play_with_bots(service, game, seed=seed)
    service.close()
    return actions


@contextmanager
def started_server(url: str) -> Iterator[tuple[str, str]]:
    """Yields the base URL of a server to play on and what it is: the one given, or one started here."""
    if url:
        yield url.split("?")[0], "given by --pg-url"
        return
    from tests.pg_server import start_server

    server, folder, stop = start_server()
    try:
        yield server.url(), "started here as the tests start theirs (durability off)"
    finally:
        subprocess.run(stop, capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)


def measure(base_url: str, folder: Path, cfg: dict[str, int]) -> dict[str, Any]:
    """Plays the games on each store, rep by rep; returns the actions and each store's best costs."""
    postmaster = postmaster_of(base_url)
    read_server: Callable[[], float] = (lambda: server_cpu(postmaster)) if postmaster else (lambda: 0.0)
    sqlite: list[Spent] = []
    postgres: list[tuple[Spent, float]] = []
    actions = 0
    play_games(str(folder / "warm-up.sqlite"), 1)  # imports and content caches
    for rep in range(cfg["reps"]):
        gc.collect()
        with stopwatch() as spent:
            actions = play_games(str(folder / f"rep{rep}.sqlite"), cfg["games"])
        sqlite.append(spent)
        gc.collect()
        server = read_server()
        with stopwatch() as spent:
            pg_actions = play_games(f"{base_url}?schema=bench_pg_play_{os.getpid()}_{rep}", cfg["games"])
        postgres.append((spent, read_server() - server))
        assert pg_actions == actions, "the same seeded games took other actions on PostgreSQL"
    return {
        "actions": actions,
        "server_seen": postmaster is not None,
        "sqlite": min(sqlite, key=lambda s: s.cpu),
        "sqlite_wall": min(s.wall for s in sqlite),
        "postgres": min(postgres, key=lambda p: p[0].cpu + p[1]),
        "postgres_wall": min(p[0].wall for p in postgres),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game, once: a smoke run")
    parser.add_argument("--pg-url", default="", help="a PostgreSQL server to play on (else one is started)")
    parser.add_argument("--games", type=int, help=f"games on each store (default {FULL['games']})")
    parser.add_argument("--reps", type=int, help=f"reps; the best counts (default {FULL['reps']})")
    args = parser.parse_args(argv)
    cfg = dict(QUICK if args.quick else FULL)
    cfg.update({k: v for k, v in (("games", args.games), ("reps", args.reps)) if v is not None})
    if cfg["games"] < 1 or cfg["reps"] < 1:
        parser.error("--games and --reps must be at least 1")
    cpu, started = time.process_time(), time.perf_counter()
    with started_server(args.pg_url) as (url, kind), tempfile.TemporaryDirectory() as folder:
        m = measure(url, Path(folder), cfg)
    actions = m["actions"]
    sqlite: Spent = m["sqlite"]
    client, server = m["postgres"]
    rates = {
        "sqlite_cpu": actions / sqlite.cpu,
        "sqlite_wall": actions / m["sqlite_wall"],
        "postgres_client_cpu": actions / client.cpu,
        "postgres_client_server_cpu": actions / (client.cpu + server) if m["server_seen"] else None,
        "postgres_wall": actions / m["postgres_wall"],
    }
    verdict_rate = rates["postgres_client_server_cpu"]
    ratio = verdict_rate / rates["sqlite_cpu"] if verdict_rate else None
    wall_ratio = rates["postgres_wall"] / rates["sqlite_wall"]
    print(f"PostgreSQL ({kind}) against SQLite: {cfg['games']} {RULESET} bot games, {actions} actions a rep")
    print(f"best of {cfg['reps']}; actions/s per second of each clock")
    print(f"{'store':<12} {'client CPU s':>12} {'server CPU s':>12} {'wall s':>8} {'actions/s CPU':>14} wall")
    print(
        f"{'SQLite':<12} {sqlite.cpu:12.3f} {'-':>12} {m['sqlite_wall']:8.3f} "
        f"{rates['sqlite_cpu']:14,.0f} {rates['sqlite_wall']:8,.0f}"
    )
    server_text = f"{server:12.3f}" if m["server_seen"] else f"{'n/a':>12}"
    shown = f"{verdict_rate:14,.0f}" if verdict_rate else f"{'n/a':>14}"
    print(
        f"{'PostgreSQL':<12} {client.cpu:12.3f} {server_text} {m['postgres_wall']:8.3f} "
        f"{shown} {rates['postgres_wall']:8,.0f}"
    )
    print(f"(PostgreSQL client CPU alone: {rates['postgres_client_cpu']:,.0f} actions/s, not the verdict)")
    if ratio is None:
        verdict = "n/a (the server's processes are not visible here: no CPU verdict)"
        print(f"PostgreSQL / SQLite actions/s: wall {wall_ratio:.2f}x; {verdict}")
    else:
        verdict = "PASS" if ratio >= TARGET else "FAIL"
        print(
            f"PostgreSQL / SQLite actions/s, CPU (client + server vs SQLite's process): {ratio:.2f}x "
            f"(wall {wall_ratio:.2f}x)  target >= {TARGET}x: {verdict}"
        )
    figures = {
        "games": cfg["games"],
        "reps": cfg["reps"],
        "actions": actions,
        "server": kind,
        "rates": {k: round(v, 1) if v else v for k, v in rates.items()},
        "ratio_cpu": round(ratio, 3) if ratio else None,
        "ratio_wall": round(wall_ratio, 3),
        "verdict": verdict,
        "clock": "cpu: client + server against SQLite's process",
        "cpu_s": round(time.process_time() - cpu, 1),
        "wall_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
