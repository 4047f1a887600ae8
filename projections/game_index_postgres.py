"""The game index's recorder on PostgreSQL, imported only for a PostgreSQL store (psycopg is slow)."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder

from event_store.postgres_store import PostgresStore
from projections.game_index import SqlIndexTables

# The library's tracking table in the store's schema (SQLite's is the library's `tracking`).
TRACKING_TABLE = "nightkeep_tracking"


class PostgresGameIndexRecorder(SqlIndexTables, PostgresTrackingRecorder):
    """Keeps index rows and the tracking position in the game store's own PostgreSQL schema."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore, tracking_table_name=TRACKING_TABLE)
        self.store = PostgresStore(datastore)

    def _track(self, cursor: Any, tracking: Tracking) -> None:
        # The library's statement is psycopg's own (named %(...)s parameters, prepared): the raw cursor.
        self._insert_tracking(cursor.raw, tracking)

    def tracking_table(self) -> str:
        return TRACKING_TABLE
