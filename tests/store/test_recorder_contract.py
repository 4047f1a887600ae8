"""nightkeep's own recorders pass the library's recorder test cases (`eventsourcing.tests.persistence`).

The recorders are the library's SQLite and PostgreSQL ones with nightkeep's additions (a save's `rows=` in
the events' transaction, creation safe from several processes, binary batches on PostgreSQL, the game
index's tables beside the tracking table), so every promise the library's own recorders keep must still
hold: the cases are run here unchanged against nightkeep's classes, on a SQLite file in the test's temp
dir and on a schema of its own on the test PostgreSQL server (tests/pg_server.py).

Every case of the library's application, aggregate and tracking recorder test cases runs, none is
skipped; the PostgreSQL ones are in the slow tier with every test of the PostgreSQL server. The
process-recorder cases do not apply: nightkeep has no process recorder (its read side tracks positions
through the game index's tracking recorder, tested here).
"""

from __future__ import annotations

from typing import Any

import pytest
from eventsourcing.postgres import PostgresDatastore
from eventsourcing.sqlite import SQLiteDatastore
from eventsourcing.tests.persistence import (
    AggregateRecorderTestCase,
    ApplicationRecorderTestCase,
    NonInterleavingNotificationIDsBaseCase,
)

from event_store.config import pg_settings
from event_store.postgres_store import PostgresSnapshotRecorder, PostgresStoreRecorder, check_reachable
from event_store.sql import SQLiteStoreRecorder


class OnSQLiteFile:
    """A new SQLite file per test, in the test's temp dir (threads share it, as processes would)."""

    @pytest.fixture(autouse=True)
    def _sqlite_file(self, tmp_path: Any) -> None:
        self.datastore = SQLiteDatastore(str(tmp_path / "store.sqlite"))

    def sqlite_datastore(self) -> SQLiteDatastore:
        return self.datastore


class OnPostgres:
    """A new schema per test on the test server; the recorders' pools are closed after it."""

    @pytest.fixture(autouse=True)
    def _pg_schema(self, postgres_server: Any) -> Any:
        settings = pg_settings(postgres_server.fresh_url("contract"))
        check_reachable(settings)  # makes the schema
        self.datastore = PostgresDatastore(
            dbname=settings["POSTGRES_DBNAME"],
            host=settings["POSTGRES_HOST"],
            port=settings["POSTGRES_PORT"],
            user=settings["POSTGRES_USER"],
            password=settings["POSTGRES_PASSWORD"],
            schema=settings["POSTGRES_SCHEMA"],
            pool_size=4,  # the concurrency cases write from several threads
            max_overflow=8,
        )
        yield
        self.datastore.close()

    def pg_datastore(self) -> PostgresDatastore:
        return self.datastore


# --- SQLite --------------------------------------------------------------------------------------------


class TestSQLiteStoreRecorder(OnSQLiteFile, ApplicationRecorderTestCase[SQLiteStoreRecorder]):
    def create_recorder(self) -> SQLiteStoreRecorder:
        recorder = SQLiteStoreRecorder(self.sqlite_datastore())
        recorder.create_table()
        return recorder


class TestSQLiteStoreRecorderNonInterleaving(OnSQLiteFile, NonInterleavingNotificationIDsBaseCase):
    def create_recorder(self) -> SQLiteStoreRecorder:
        recorder = SQLiteStoreRecorder(self.sqlite_datastore())
        recorder.create_table()
        return recorder


# --- PostgreSQL ----------------------------------------------------------------------------------------


class TestPostgresStoreRecorder(OnPostgres, ApplicationRecorderTestCase[PostgresStoreRecorder]):
    def create_recorder(self) -> PostgresStoreRecorder:
        recorder = PostgresStoreRecorder(self.pg_datastore())
        recorder.create_table()
        return recorder


class TestPostgresStoreRecorderNonInterleaving(OnPostgres, NonInterleavingNotificationIDsBaseCase):
    def create_recorder(self) -> PostgresStoreRecorder:
        recorder = PostgresStoreRecorder(self.pg_datastore())
        recorder.create_table()
        return recorder


class TestPostgresSnapshotRecorder(OnPostgres, AggregateRecorderTestCase):
    def create_recorder(self) -> PostgresSnapshotRecorder:
        recorder = PostgresSnapshotRecorder(self.pg_datastore(), events_table_name="snapshots")
        recorder.create_table()
        return recorder
