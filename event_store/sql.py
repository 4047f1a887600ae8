"""nightkeep's own tables beside the library's events, on SQLite or on PostgreSQL, written one way.

Every table of ours (seeds, viewers' copies, the game index, the host's outbox, the read side) lives in
the database that holds the events, so one backup holds a whole store and a row that belongs with some
events is written in the transaction that stores them. This module is the one place that knows the two
databases differ:

- `SqlStore.transaction` opens a transaction on the store's own connection and yields a `Cursor` whose
  rows are plain tuples and whose SQL uses `?` placeholders on both databases;
- `SqlStore.blob` and `SqlStore.serial` name the column types that are spelt differently;
- `StoreRecorders` (mixed into the library's application recorders, chosen by `APPLICATION_RECORDER_TOPIC`)
  runs the `rows=` statements a `save` carries in the very transaction that inserts its events.

SQL written for both databases keeps to what they share: `INSERT ... ON CONFLICT (...) DO NOTHING` or
`DO UPDATE SET c = excluded.c` (SQLite 3.24 and later), no `INSERT OR REPLACE`, no `AUTOINCREMENT`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, cast
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, OperationalError, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor, SQLiteDatastore, SQLiteTransaction

from domain.errors import UsageError
from event_store.game_heads import HEADS, head_rows, heads_tables

# One SQL statement and its parameters, with `?` placeholders.
Statement = tuple[str, Sequence[Any]]

SQLITE = "sqlite"
POSTGRESQL = "postgresql"


class Cursor(Protocol):
    """A cursor of a transaction: `?` placeholders, rows as tuples."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    @property
    def rowcount(self) -> int: ...


class SqlStore(Protocol):
    """The SQL database of a game store, as nightkeep's own tables use it."""

    dialect: str
    blob: str
    serial: str
    id_type: str  # the type of the events table's originator_id (game ids in our tables joined to it)

    def transaction(self, commit: bool) -> Any: ...  # a context manager yielding a Cursor

    def create(self, statements: Sequence[str]) -> None: ...

    def key(self, originator_id: UUID) -> Any: ...  # an id as the events table's originator_id holds it

    def ids(self, rows: Sequence[Sequence[Any]]) -> list[UUID]: ...  # originator_id columns as UUIDs


class SQLiteStore:
    """A SQLite game store's file."""

    dialect = SQLITE
    blob = "BLOB"
    serial = "INTEGER PRIMARY KEY"  # a rowid alias: SQLite numbers new rows itself
    id_type = "TEXT"  # 32 hex digits, as the library stores ids

    def __init__(self, datastore: SQLiteDatastore) -> None:
        self.datastore = datastore

    @contextmanager
    def transaction(self, commit: bool) -> Iterator[Cursor]:
        """Opens a transaction (committed at the end when `commit`, else rolled back); one that may
        write takes the file's write lock at once (see `_WritingTransaction`)."""
        if not commit:
            with self.datastore.transaction(commit=False) as c:
                yield _tuple_rows(c)
            return
        with (
            self.datastore.get_connection(commit=True) as conn,
            _WritingTransaction(conn, commit=True) as c,
            c,
        ):
            yield _tuple_rows(c)

    def create(self, statements: Sequence[str]) -> None:
        """Runs CREATE ... IF NOT EXISTS statements in one transaction. Tables that exist are only read
        of, so this does not wait for other processes' writes (every command opening the store makes
        them); only when another process creates some at the same moment does it wait for the lock."""
        try:
            with self.datastore.transaction(commit=True) as c:
                for statement in statements:
                    c.execute(statement)
        except OperationalError:
            with self.transaction(commit=True) as c:
                for statement in statements:
                    c.execute(statement)

    def key(self, originator_id: UUID) -> Any:
        """Returns an id as the library's SQLite events table holds it: 32 hex digits."""
        return originator_id.hex

    def ids(self, rows: Sequence[Sequence[Any]]) -> list[UUID]:
        """Returns the first column of rows of the events table as ids."""
        return [UUID(row[0]) for row in rows]


class UnsupportedStore(UsageError):
    """Raised when a recorder is neither SQLite's, PostgreSQL's nor the in-memory store's."""


class _WritingTransaction(SQLiteTransaction):
    """A transaction that takes the write lock as it begins (BEGIN IMMEDIATE), waiting for it as long as
    SQLITE_LOCK_TIMEOUT says. The library's plain BEGIN takes it at the first write instead, and a
    transaction that read before it wrote cannot wait then: if another process wrote meanwhile, SQLite
    refuses at once with "database is locked"."""

    def __enter__(self) -> SQLiteCursor:
        cursor = self.connection.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        return cursor


def _tuple_rows(c: SQLiteCursor) -> Cursor:
    raw = c.sqlite_cursor
    raw.row_factory = None  # plain tuples, as psycopg's tuple rows
    return cast(Cursor, raw)


def sql_store_of(recorder: Any) -> SqlStore | None:
    """Returns the SQL database behind a recorder, or None for the in-memory store; refuses any other
    store (nightkeep's tables would have nowhere to live, and an in-memory stand-in would lose them)."""
    datastore: Any = getattr(recorder, "datastore", None)
    if isinstance(datastore, SQLiteDatastore):
        return SQLiteStore(datastore)
    if type(datastore).__module__ == "eventsourcing.postgres":  # psycopg is imported only for PostgreSQL
        # A Citus coordinator's datastore says which class keeps nightkeep's tables on it (its factory
        # sets it: event_store.citus_store), so this module need not know that store.
        store_class = getattr(datastore, "nightkeep_sql_store", None)
        if store_class is not None:
            return cast(SqlStore, store_class(datastore))
        from event_store.postgres_store import PostgresStore

        return PostgresStore(datastore)
    if is_memory(recorder):
        return None
    raise UnsupportedStore(
        f"unsupported store ({type(recorder).__module__}): nightkeep keeps games in SQLite, "
        "PostgreSQL or memory"
    )


def is_memory(recorder: Any) -> bool:
    """Tells whether a recorder is one of the library's in-memory recorders."""
    return type(recorder).__module__ == "eventsourcing.popo" or any(
        cls.__module__ == "eventsourcing.popo" for cls in type(recorder).__mro__
    )


def _run_rows_sqlite(c: Any, rows: Sequence[Statement]) -> None:
    for sql, params in rows:
        c.execute(sql, params)


class SQLiteStoreRecorder(SQLiteApplicationRecorder):
    """The library's SQLite application recorder, also writing a save's `rows=` and the heads of the
    games it touches (`event_store.game_heads`) in its transaction."""

    writes_rows = True

    def create_table(self) -> None:
        super().create_table()
        # Looked for first without the write lock: every command opening the store comes here.
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", [HEADS])
            if c.fetchone() is not None:
                return
        with SQLiteStore(self.datastore).transaction(commit=True) as c:
            for statement in heads_tables(SQLiteStore.id_type, self.events_table_name):
                c.execute(statement)

    def _insert_events(
        self, c: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        returning = super()._insert_events(c, stored_events, **kwargs)
        _run_rows_sqlite(c, kwargs.get("rows", ()))
        _run_rows_sqlite(c, head_rows(lambda game_id: game_id.hex, stored_events))
        return returning


def recorder_topic(dialect: str) -> str:
    """Returns the APPLICATION_RECORDER_TOPIC for a database."""
    if dialect == SQLITE:
        return f"{__name__}:SQLiteStoreRecorder"
    return "event_store.postgres_store:PostgresStoreRecorder"


def writes_rows(recorder: ApplicationRecorder) -> bool:
    """Tells whether a recorder writes a save's `rows=` with its events (the SQL stores do)."""
    return bool(getattr(recorder, "writes_rows", False))
