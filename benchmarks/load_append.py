"""The batched append of bench_load.py: the same stored events appended through the library's recorder
and by a raw `executemany` into an equivalent table, batch by batch, interleaved rep by rep.

The rows are real: seeded bot games played on the in-memory store, whose recorder keeps each stored event
exactly as the service maps it (msgpack state, topic, id, version). They are interleaved across games
(each game's versions still in order), so a batch holds events of many games, as a host saving many
games' actions at once would write. Each batch is one transaction on both sides; both tables are emptied
before each rep, so every rep does the same work.
"""

from __future__ import annotations

import gc
import sqlite3
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

from eventsourcing.persistence import StoredEvent

from event_store.app.service import GameService, play_with_bots
from simulation.bot_games import bot_game_options, seats_for

RAW_TABLE = "raw_events"
# The library's PostgreSQL events table (eventsourcing.postgres.PostgresApplicationRecorder), as raw DDL.
PG_RAW_DDL = (
    f"CREATE TABLE IF NOT EXISTS {RAW_TABLE} (originator_id uuid NOT NULL, "
    "originator_version bigint NOT NULL, topic text, state bytea, notification_id bigserial, "
    "PRIMARY KEY (originator_id, originator_version))",
    f"CREATE UNIQUE INDEX IF NOT EXISTS {RAW_TABLE}_nid ON {RAW_TABLE} (notification_id)",
)
PG_RAW_INSERT = (
    f"INSERT INTO {RAW_TABLE} (originator_id, originator_version, topic, state) VALUES (%s, %s, %s, %s)"
)
PG_RAW_COPY = f"COPY {RAW_TABLE} (originator_id, originator_version, topic, state) FROM STDIN (FORMAT BINARY)"
# The library's SQLite events table (eventsourcing.sqlite.SQLiteApplicationRecorder), as raw DDL.
SQLITE_RAW_DDL = (
    f"CREATE TABLE IF NOT EXISTS {RAW_TABLE} (originator_id TEXT, originator_version INTEGER, "
    "topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))"
)
SQLITE_RAW_INSERT = f"INSERT INTO {RAW_TABLE} VALUES (?, ?, ?, ?)"


def real_events(ruleset: str, events: int) -> list[StoredEvent]:
    """Plays seeded bot games in memory until they stored `events` events; returns them interleaved."""
    service = GameService(":memory:")
    per_game: list[list[StoredEvent]] = []
    total = 0
    while total < events:
        game_id = service.create_game(ruleset, seats_for(ruleset), bot_game_options(ruleset))
        play_with_bots(service, game_id, seed=len(per_game))
        stored = list(service.recorder.select_events(game_id))
        per_game.append(stored)
        total += len(stored)
    mixed = [e for layer in zip_longest(*per_game) for e in layer if e is not None]
    return mixed[:events]


def batches(rows: Sequence[Any], size: int) -> list[Sequence[Any]]:
    """Cuts rows into batches of `size`."""
    return [rows[i : i + size] for i in range(0, len(rows), size)]


@dataclass
class AppendFigures:
    """One store's batched append: events/s of the recorder and of the raw executemany."""

    store: str
    events: int
    batch: int
    library_s: float  # median of the reps
    raw_s: float
    text_s: float = 0.0  # PostgreSQL: the library's own statement (batch in text form), for comparison
    copy_s: float = 0.0  # PostgreSQL: raw binary COPY of the same rows, a higher limit than executemany
    # CPU seconds (medians of the reps) of this process and of the server's processes (0 for SQLite, or
    # when the server is not on this machine), for the recorder and for the raw executemany.
    library_cpu_s: float = 0.0
    library_server_cpu_s: float = 0.0
    raw_cpu_s: float = 0.0
    raw_server_cpu_s: float = 0.0

    @property
    def cpu_ratio(self) -> float:
        """Raw executemany's CPU (client + server) over the recorder's: the ratio in CPU time."""
        return (self.raw_cpu_s + self.raw_server_cpu_s) / (self.library_cpu_s + self.library_server_cpu_s)

    @property
    def library_ev_s(self) -> float:
        return self.events / self.library_s

    @property
    def raw_ev_s(self) -> float:
        return self.events / self.raw_s

    @property
    def ratio(self) -> float:
        return self.raw_s / self.library_s

    @property
    def text_ev_s(self) -> float:
        return self.events / self.text_s if self.text_s else 0.0

    @property
    def copy_ev_s(self) -> float:
        return self.events / self.copy_s if self.copy_s else 0.0


def interleaved(
    reps: int,
    passes: dict[str, tuple[Callable[[], None], Callable[[], None]]],
    server_cpu: Callable[[], float] = lambda: 0.0,
) -> dict[str, tuple[float, float, float]]:
    """Runs each (reset, timed) pass `reps` times, A B A B...; returns the median wall time, this
    process's CPU time and the server's CPU time (`server_cpu()`, read before and after) of each."""
    times: dict[str, list[tuple[float, float, float]]] = {name: [] for name in passes}
    for _ in range(reps):
        for name, (reset, run) in passes.items():
            reset()
            gc.collect()
            server = server_cpu()
            cpu, t0 = time.process_time(), time.perf_counter()
            run()
            wall, cpu = time.perf_counter() - t0, time.process_time() - cpu
            times[name].append((wall, cpu, server_cpu() - server))
    return {
        name: (
            statistics.median(v[0] for v in values),
            statistics.median(v[1] for v in values),
            statistics.median(v[2] for v in values),
        )
        for name, values in times.items()
    }


def append_postgres(
    url: str,
    plain_url: str,
    schema: str,
    rows: list[StoredEvent],
    size: int,
    reps: int,
    server_cpu: Callable[[], float] = lambda: 0.0,
) -> AppendFigures:
    """Appends the rows on PostgreSQL through the recorder and by raw executemany, in one schema."""
    import psycopg

    service = GameService(url)
    recorder = service.recorder
    events_table = recorder.events_table_name  # type: ignore[attr-defined]
    lib_batches = batches(rows, size)
    raw_rows = [(e.originator_id, e.originator_version, e.topic, e.state) for e in rows]
    raw_batches = batches(raw_rows, size)
    with psycopg.connect(plain_url, autocommit=True) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        for statement in PG_RAW_DDL:
            conn.execute(statement)

        def truncate(table: str) -> Callable[[], None]:
            def run() -> None:
                conn.execute(f"TRUNCATE {table}")

            return run

        def library() -> None:
            for batch in lib_batches:
                recorder.insert_events(batch)

        def text_form() -> None:
            # The library's own statement, as it is without nightkeep's binary batch (postgres_store).
            statement = recorder.insert_events_statement  # type: ignore[attr-defined]
            recorder.insert_events_statement = text_batch(statement)  # type: ignore[attr-defined]
            try:
                library()
            finally:
                recorder.insert_events_statement = statement  # type: ignore[attr-defined]

        def raw() -> None:
            for batch in raw_batches:
                with conn.transaction(), conn.cursor() as cursor:
                    cursor.executemany(PG_RAW_INSERT, batch)

        def copy() -> None:
            for batch in raw_batches:
                with conn.transaction(), conn.cursor() as cursor, cursor.copy(PG_RAW_COPY) as rows_in:
                    rows_in.set_types(["uuid", "int8", "text", "bytea"])
                    for row in batch:
                        rows_in.write_row(row)

        passes = {
            "library": (truncate(events_table), library),
            "text": (truncate(events_table), text_form),
            "raw": (truncate(RAW_TABLE), raw),
            "copy": (truncate(RAW_TABLE), copy),
        }
        medians = interleaved(reps, passes, server_cpu)
        stored = conn.execute(f"SELECT count(*) FROM {events_table}").fetchone()
        raw_stored = conn.execute(f"SELECT count(*) FROM {RAW_TABLE}").fetchone()
    service.close()
    assert stored is not None and raw_stored is not None and stored[0] == raw_stored[0] == len(rows)
    return AppendFigures(
        "postgresql",
        len(rows),
        size,
        medians["library"][0],
        medians["raw"][0],
        medians["text"][0],
        medians["copy"][0],
        *medians["library"][1:],
        *medians["raw"][1:],
    )


def text_batch(statement: Any) -> Any:
    """Returns an insert statement with its batch parameter in text form (`%s`), as the library has it."""
    from psycopg import sql

    parts = [
        sql.SQL(part.as_string().replace("unnest(%b::", "unnest(%s::")) if isinstance(part, sql.SQL) else part
        for part in statement
    ]
    return sql.Composed(parts)


def append_sqlite(path: str, rows: list[StoredEvent], size: int, reps: int) -> AppendFigures:
    """Appends the rows on SQLite through the recorder and by raw executemany, in one file."""
    service = GameService(path)
    recorder = service.recorder
    events_table = recorder.events_table_name  # type: ignore[attr-defined]
    lib_batches = batches(rows, size)
    raw_rows = [(e.originator_id.hex, e.originator_version, e.topic, e.state) for e in rows]
    raw_batches = batches(raw_rows, size)
    # The library's connections use the file's defaults (WAL, synchronous FULL): so does this one.
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(SQLITE_RAW_DDL)

    def empty(table: str) -> Callable[[], None]:
        def run() -> None:
            conn.execute(f"DELETE FROM {table}")

        return run

    def library() -> None:
        for batch in lib_batches:
            recorder.insert_events(batch)

    def raw() -> None:
        for batch in raw_batches:
            conn.execute("BEGIN")
            conn.executemany(SQLITE_RAW_INSERT, batch)
            conn.execute("COMMIT")

    medians = interleaved(reps, {"library": (empty(events_table), library), "raw": (empty(RAW_TABLE), raw)})
    counts = [conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in (events_table, RAW_TABLE)]
    conn.close()
    service.close()
    assert counts == [len(rows), len(rows)], counts
    library, raw_ = medians["library"], medians["raw"]
    return AppendFigures(
        "sqlite", len(rows), size, library[0], raw_[0], library_cpu_s=library[1], raw_cpu_s=raw_[1]
    )
