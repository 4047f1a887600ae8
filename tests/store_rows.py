"""Raw rows of a store's tables, on SQLite or PostgreSQL alike, for tests that read or damage what is
stored on purpose (through `event_store.sql`: `?` placeholders, tuple rows)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from event_store.app.service import GameService
from event_store.sql import SqlStore, sql_store_of


def store_of(service: GameService) -> SqlStore:
    """Returns the SQL store of a service (never the in-memory store)."""
    store = sql_store_of(service.recorder)
    assert store is not None, "a SQL store"
    return store


def events_table(service: GameService) -> str:
    """Names the library's events table (`stored_events` on SQLite, `nightkeep_events` on PostgreSQL)."""
    return str(service.recorder.events_table_name)  # type: ignore[attr-defined]


def snapshots_table(service: GameService) -> str:
    """Names the library's snapshots table."""
    assert service.snapshots is not None
    return str(service.snapshots.recorder.events_table_name)  # type: ignore[attr-defined]


def key(service: GameService, game_id: UUID) -> Any:
    """Returns a game id as the events table's originator_id holds it."""
    return store_of(service).key(game_id)


def execute(service: GameService, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Runs one statement in its own committed transaction; returns its rows (none for a write)."""
    with store_of(service).transaction(commit=True) as c:
        c.execute(sql, params)
        try:
            return list(c.fetchall())
        except Exception:  # noqa: BLE001  (a write has no rows: sqlite3 gives [], psycopg raises)
            return []


def event_state(service: GameService, game_id: UUID, version: int) -> bytes:
    """Returns the stored bytes of one event of a game."""
    rows = execute(
        service,
        f"SELECT state FROM {events_table(service)} WHERE originator_id=? AND originator_version=?",
        [key(service, game_id), version],
    )
    return bytes(rows[0][0])


def set_event_state(service: GameService, game_id: UUID, version: int, state: bytes) -> None:
    """Overwrites the stored bytes of one event of a game (damage done outside nightkeep)."""
    execute(
        service,
        f"UPDATE {events_table(service)} SET state=? WHERE originator_id=? AND originator_version=?",
        [state, key(service, game_id), version],
    )


def insert_event(service: GameService, game_id: UUID, version: int, topic: str, state: bytes) -> None:
    """Stores one raw event row under an id (what a prefix lookup or a forger's tool would write)."""
    execute(
        service,
        f"INSERT INTO {events_table(service)} (originator_id, originator_version, topic, state) "
        "VALUES (?, ?, ?, ?)",
        [key(service, game_id), version, topic, state],
    )


def update(service: GameService, sql: str, params: Sequence[Any] = ()) -> int:
    """Runs one write in its own committed transaction; returns how many rows it changed."""
    with store_of(service).transaction(commit=True) as c:
        c.execute(sql, params)
        return int(c.rowcount)


def copy_store(source: GameService, target: GameService) -> None:
    """Copies every event, snapshot and seed of one store into another, new one (a twin to compare)."""
    tables = [
        (events_table(source), events_table(target), "originator_id, originator_version, topic, state"),
        (snapshots_table(source), snapshots_table(target), "originator_id, originator_version, topic, state"),
        ("nightkeep_secrets", "nightkeep_secrets", "game_id, seed"),
    ]
    for source_table, target_table, columns in tables:
        order = " ORDER BY originator_id, originator_version" if "originator_id" in columns else ""
        rows = execute(source, f"SELECT {columns} FROM {source_table}{order}")
        marks = ", ".join("?" * len(columns.split(",")))
        with store_of(target).transaction(commit=True) as c:
            c.executemany(f"INSERT INTO {target_table} ({columns}) VALUES ({marks})", rows)
