"""Many writers at once, on SQLite and on PostgreSQL: real processes acting on one game and on many.

Issue 15, item 4: of several processes acting at the same version exactly one wins, the others are told
"game moved on" and can retry; no event is lost or duplicated, the chain holds, and no "database is
locked" or serialization error reaches anybody.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from uuid import UUID

import pytest

from domain.actions import HOST
from domain.errors import StaleVersion
from domain.events import ActionTaken
from event_store.app.service import GameService

pytestmark = pytest.mark.slow  # many real writer processes at once

REPO = Path(__file__).resolve().parents[2]
RACERS = 8
ROUNDS = 12
CLI_ROUNDS = 2
STALE_EXIT = StaleVersion.exit_code
TIMEOUT = 120


def driver(*args: str, stdin: int | None = None) -> subprocess.Popen[str]:
    """Starts tests/race_driver.py as a process of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.race_driver", *args],
        cwd=REPO,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NIGHTKEEP_TRACEBACK": "1"},
    )


def nightkeep(db: str, *args: str) -> subprocess.Popen[str]:
    """Starts the real CLI as a shell would."""
    return subprocess.Popen(
        [sys.executable, "-m", "nightkeep", "--db", db, *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )


def players_actions(service: GameService, game_id: UUID) -> list[tuple[int, str, str]]:
    """Returns (version, player, action) of every player's action the store holds, in order."""
    return [
        (r.version, r.event.player, r.event.action)
        for r in service.recorded_events(game_id)
        if isinstance(r.event, ActionTaken) and r.event.player != HOST
    ]


def check_log(service: GameService, game_id: UUID) -> None:
    """Asserts a game's log has every version once, in order, and audits clean."""
    versions = [r.version for r in service.recorded_events(game_id)]
    assert versions == list(range(1, len(versions) + 1))
    assert service.get_game(game_id).version == len(versions)
    report = service.audit(game_id)
    assert not report.findings, report.findings


def test_eight_processes_acting_at_one_version_one_wins_the_others_are_told_the_game_moved_on(db):
    service = GameService.open(db)
    game_id = service.create_game("dungeon-short", [("Ann", None), ("Bo", None), ("Cy", None)])
    racers = [driver("race", db, str(game_id), f"racer-{n}", stdin=subprocess.PIPE) for n in range(RACERS)]
    winners: list[tuple[int, str, str]] = []
    try:
        for _ in range(ROUNDS):
            readies = [r.stdout.readline().split() for r in racers]  # type: ignore[union-attr]
            assert all(line[:1] == ["ready"] for line in readies), readies
            assert len({line[1] for line in readies}) == 1, readies  # all read the same version
            for r in racers:
                r.stdin.write("go\n")  # type: ignore[union-attr]
                r.stdin.flush()  # type: ignore[union-attr]
            results = [r.stdout.readline().split(maxsplit=2) for r in racers]  # type: ignore[union-attr]
            kinds = Counter(line[0] for line in results)
            assert kinds == {"won": 1, "stale": RACERS - 1}, results
            for line in results:
                if line[0] == "won":
                    version, player, action = line[1], *line[2].split()[:2]
                    winners.append((int(version) + 1, player, action))
                else:
                    assert line[2].startswith("game moved on to version "), line
    finally:
        for r in racers:
            out, err = r.communicate("stop\n", timeout=TIMEOUT)
            assert "Traceback" not in err, err
    assert players_actions(service, game_id)[-ROUNDS:] == winners
    check_log(service, game_id)


def test_eight_act_commands_at_one_version_one_wins_and_the_others_exit_stale_in_one_line(db):
    service = GameService.open(db)
    game_id = service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    for _ in range(CLI_ROUNDS):
        game = service.get_game(game_id)
        action = game.ruleset.legal_actions(game.state, None)[0]
        commands = [
            nightkeep(
                db,
                "act",
                str(game_id),
                action.id,
                "--as",
                action.player,
                "--expect-version",
                str(game.version),
            )
            for _ in range(RACERS)
        ]
        done = [(c.wait(timeout=TIMEOUT), *c.communicate()) for c in commands]
        codes = Counter(code for code, _, _ in done)
        assert codes == {0: 1, STALE_EXIT: RACERS - 1}, done
        for code, _, err in done:
            if code == STALE_EXIT:
                assert err.startswith("Error: game moved on to version ") and err.count("\n") == 1, err
        assert players_actions(service, game_id)[-1] == (game.version + 1, action.player, action.id)
    check_log(service, game_id)


def test_four_processes_of_bots_sharing_many_games_lose_races_but_nothing_else(db):
    service = GameService.open(db)
    games = [service.create_game("dungeon-short", [("Ann", None), ("Bo", None)]) for _ in range(6)] + [
        service.create_game("keep-run", [("Ann", None), ("Bo", None)]) for _ in range(2)
    ]
    names = [str(g) for g in games]
    workers = [driver("bots", db, "--actions", "60", f"bots-{n}", *names) for n in range(4)]
    reports = []
    for w in workers:
        out, err = w.communicate(timeout=TIMEOUT)
        assert w.returncode == 0 and "Traceback" not in err, err
        reports.append(json.loads(out.splitlines()[-1]))
    assert [r["errors"] for r in reports] == [[]] * 4
    taken = sum(r["taken"] for r in reports)
    assert taken == sum(len(players_actions(service, g)) for g in games)
    for game_id in games:
        check_log(service, game_id)


def test_eight_processes_making_a_new_store_at_once_all_open_it(new_store):
    db = new_store("fresh")
    makers = [driver("new", db) for _ in range(RACERS)]
    made = []
    for m in makers:
        out, err = m.communicate(timeout=TIMEOUT)
        assert m.returncode == 0, err  # PostgreSQL: two CREATE TABLE IF NOT EXISTS at once collided
        made.append(UUID(out.strip()))
    service = GameService.open(db)
    for game_id in made:
        check_log(service, game_id)


def test_a_write_that_read_first_waits_for_another_process_instead_of_failing_locked(db):
    """SQLite: a transaction that reads, then writes, used to fail at once ("database is locked") when
    another process wrote in between; it takes the write lock as it begins now, so the other waits."""
    from event_store.sql import sql_store_of

    first, second = GameService.open(db), GameService.open(db)
    stores = [sql_store_of(s.recorder) for s in (first, second)]
    assert stores[0] is not None and stores[1] is not None
    stores[0].create(["CREATE TABLE IF NOT EXISTS race_notes (k TEXT PRIMARY KEY, n INTEGER)"])
    other = threading.Thread(target=note, args=(stores[1], "other"))
    with stores[0].transaction(commit=True) as c:
        c.execute("SELECT COUNT(*) FROM race_notes")
        other.start()
        other.join(0.5)  # the other writer's whole transaction, if nothing holds it back
        c.execute("INSERT INTO race_notes VALUES (?, ?)", ["first", c.fetchone()[0]])
    other.join(TIMEOUT)
    with stores[0].transaction(commit=False) as c:
        c.execute("SELECT k FROM race_notes ORDER BY k")
        assert c.fetchall() == [("first",), ("other",)]


def note(store, key: str) -> None:
    """Writes one row in a transaction of its own (a second process's write)."""
    with store.transaction(commit=True) as c:
        c.execute("INSERT INTO race_notes VALUES (?, 0)", [key])


@contextmanager
def events_locked(db: str, store_kind: str, game_id: UUID, version: int) -> Iterator[None]:
    """Holds the write lock of a store's events (another writer in a long transaction) meanwhile. A
    Citus store has no lock on all its events (writers of different games never wait for each other):
    there a writer of the same game holds the game's next event uncommitted."""
    if store_kind == "sqlite":
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            conn.rollback()
            conn.close()
        return
    import psycopg

    url, _, query = db.partition("?schema=")
    with (
        psycopg.connect(url.replace("citus://", "postgresql://", 1)) as conn,
        conn.transaction(force_rollback=True),
    ):
        if store_kind == "citus":
            conn.execute(
                f'INSERT INTO "{query}".nightkeep_events (originator_id, originator_version) VALUES (%s, %s)',
                [game_id, version + 1],
            )
        else:
            conn.execute(f'LOCK TABLE "{query}".nightkeep_events IN EXCLUSIVE MODE')
        yield


def test_a_writer_held_off_too_long_is_told_the_store_is_busy_in_one_line_and_stores_nothing(db, store_kind):
    service = GameService.open(db)
    game_id = service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    version = service.get_game(game_id).version
    impatient = {**os.environ, "NO_COLOR": "1", "SQLITE_LOCK_TIMEOUT": "1", "POSTGRES_LOCK_TIMEOUT": "1"}
    command = [sys.executable, "-m", "nightkeep", "--db", db, "act", str(game_id), "roll", "--as", "Ann"]
    with events_locked(db, store_kind, game_id, version):
        done = subprocess.run(
            command, cwd=REPO, capture_output=True, text=True, env=impatient, timeout=TIMEOUT
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("Error: the store is busy (") and done.stderr.count("\n") == 1, done.stderr
    assert "run the command again" in done.stderr
    assert service.get_game(game_id).version == version
    again = subprocess.run(command, cwd=REPO, capture_output=True, text=True, env=impatient, timeout=TIMEOUT)
    assert again.returncode == 0, again.stderr
    check_log(service, game_id)
