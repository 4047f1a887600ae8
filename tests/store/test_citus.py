"""What only a Citus store must show: games spread over both workers, every table co-located by game id,
an action committed on one worker alone, and a worker lost mid-run (one line naming the store, no partial
game, everything back when it returns). The storage tests of this folder run on Citus as well."""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from uuid import UUID

import psycopg
import pytest

from event_store.app.service import GameService, play_with_bots
from event_store.config import pg_settings
from tests.citus_cluster import CitusCluster

REPO = Path(__file__).resolve().parents[2]
PLAYERS = [("Ann", None), ("Bo", None)]
# The tables that hold no game id, so are copied whole to every worker (reference tables): the store's
# at-rest mark, the game index's format row, and what the host keeps of mails already seen.
REFERENCE_TABLES = {"nightkeep_meta", "nightkeep_pbem_seen", "nightkeep_games_format"}


@pytest.fixture
def store(citus_cluster: CitusCluster) -> tuple[CitusCluster, str]:
    return citus_cluster, citus_cluster.fresh_url("citus")


def coordinator(cluster: CitusCluster) -> psycopg.Connection:
    return psycopg.connect(cluster.pg_url(), autocommit=True)


def schema_of(db: str) -> str:
    return pg_settings(db)["POSTGRES_SCHEMA"]


def worker_of(conn: psycopg.Connection, schema: str, game_id: UUID) -> int:
    """Returns the port of the worker that holds a game's events."""
    row = conn.execute(
        "SELECT nodeport FROM citus_shards WHERE table_name = %s::regclass "
        "AND shardid = get_shard_id_for_distribution_column(%s::regclass, %s::uuid)",
        [f"{schema}.nightkeep_events", f"{schema}.nightkeep_events", str(game_id)],
    ).fetchone()
    assert row is not None
    return int(row[0])


def test_games_spread_over_both_workers_and_every_table_sits_with_the_events(store):
    cluster, db = store
    service = GameService.open(db)
    games = [service.create_game("dungeon-short", PLAYERS) for _ in range(16)]
    for game_id in games[:4]:
        play_with_bots(service, game_id, seed=str(game_id), max_actions=6)
    service.close()
    schema = schema_of(db)
    with coordinator(cluster) as conn:
        per_worker = Counter(worker_of(conn, schema, g) for g in games)
        tables = conn.execute(
            "SELECT logicalrelid::regclass::text, partmethod, colocationid, "
            "column_to_column_name(logicalrelid, partkey) FROM pg_dist_partition "
            "WHERE logicalrelid::regclass::text LIKE %s",
            [f"{schema}.%"],
        ).fetchall()
    assert set(per_worker) == {w.port for w in cluster.workers}, per_worker
    assert all(n >= 2 for n in per_worker.values()), per_worker
    named = {name.split(".", 1)[1]: (method, group, column) for name, method, group, column in tables}
    events_group = named["nightkeep_events"][1]
    distributed = {name for name, (method, _, _) in named.items() if method == "h"}
    assert {"nightkeep_events", "nightkeep_snapshots", "nightkeep_secrets"} <= distributed
    for name in distributed:
        method, group, column = named[name]
        assert group == events_group, f"{name} is not co-located with the events"
        assert column in ("originator_id", "game_id", "stored_id"), (name, column)
    assert {name for name, (method, _, _) in named.items() if method == "n"} <= REFERENCE_TABLES
    # Every table of the store is known to Citus: none stayed a plain table on the coordinator.
    with coordinator(cluster) as conn:
        all_tables = {
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", [schema]
            )
        }
    assert all_tables == set(named), all_tables ^ set(named)


def test_a_new_game_and_every_action_commit_on_one_worker_in_one_phase(store):
    cluster, db = store
    service = GameService.open(db)
    # The store's tables are made as it is first used, and Citus sends DDL to every worker in two
    # phases: a first game makes them all.
    play_with_bots(service, service.create_game("dungeon-short", PLAYERS), seed="tables", max_actions=2)
    with coordinator(cluster) as conn:
        before = conn.execute("SELECT count(*) FROM pg_dist_transaction").fetchone()
        game_id = service.create_game("dungeon-short", PLAYERS)
        play_with_bots(service, game_id, seed="one-worker", max_actions=40)
        after = conn.execute("SELECT count(*) FROM pg_dist_transaction").fetchone()
    assert service.get_game(game_id).version > 40
    # A transaction that wrote on more than one worker leaves a two-phase commit record; none did.
    assert after == before
    service.close()


def run_cli(db: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nightkeep", "--db", db, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "PYTHONPATH": str(REPO)},
    )


def test_a_worker_stopped_mid_run_is_one_line_naming_the_store_and_all_is_back_when_it_returns(store):
    cluster, db = store
    service = GameService.open(db)
    games = [service.create_game("dungeon-short", PLAYERS) for _ in range(8)]
    with coordinator(cluster) as conn:
        lost = cluster.workers[0].port
        on_lost = [g for g in games if worker_of(conn, schema_of(db), g) == lost]
    assert on_lost
    service.close()
    # A bot game is being played when the worker goes: the player's command stops with one line.
    playing = subprocess.Popen(
        [sys.executable, "-m", "nightkeep", "--db", db, "play", str(on_lost[0]), "--bots"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "PYTHONPATH": str(REPO)},
    )
    time.sleep(1.5)
    cluster.stop_worker(0)
    try:
        _, err = playing.communicate(timeout=120)
        acted = run_cli(db, "act", str(on_lost[1] if len(on_lost) > 1 else on_lost[0]), "roll", "--as", "Ann")
        made = run_cli(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo")
    finally:
        cluster.start_worker(0)
    for stderr, code in ((err, playing.returncode), (acted.stderr, acted.returncode)):
        if code == 0:
            continue  # the game ended before the worker went (a short game): nothing to tell
        assert code == 2, stderr
        assert stderr.count("\n") == 1 and stderr.startswith(f"Error: cannot use the store {db}: "), stderr
        assert f"{lost}" in stderr, "the line names the worker that cannot be reached"
    assert acted.returncode == 2, acted.stderr
    # A new game whose id falls on the worker still up is made whole; one that falls on the lost worker
    # is refused in the same one line.
    if made.returncode == 0:
        games.append(UUID(made.stdout.strip()))
    else:
        assert made.returncode == 2, made.stderr
        assert made.stderr.startswith(f"Error: cannot use the store {db}: "), made.stderr
    # Back: every game audits clean (no game was left half-saved), and play goes on to the end.
    again = GameService.open(db)
    for game_id in games:
        assert again.audit(game_id).ok, game_id
    again.close()
    finished = run_cli(db, "play", str(on_lost[0]), "--bots")
    assert finished.returncode == 0, finished.stderr
    shown = run_cli(db, "show", str(on_lost[0])).stdout
    # Bots may finish a Dungeon game with a winner or with every character out: either way, over.
    assert "— finished" in shown and "Game over:" in shown, shown
