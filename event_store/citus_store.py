"""A Citus store: nightkeep's PostgreSQL store on a Citus coordinator, every table distributed by game id.

Citus (distributed PostgreSQL) splits a distributed table into shards by a column's hash and puts the
shards on its workers; tables distributed by columns of the same type are co-located, so the rows of one
game in every table sit on one worker and a transaction that touches one game runs there alone. On this
store:

- the events and the snapshots are distributed by `originator_id` (a game's id, `uuid`);
- each of nightkeep's own tables is made distributable as it is created (`CitusStore.create`): its game-id
  column becomes `uuid` (the events' type; a TEXT id could not be co-located with them), its primary key
  and unique constraints get the game id first, then it is distributed in the events' co-location group.
  A table without a game id (a few small global ones) becomes a reference table, copied to every worker;
- there is no global order of events. The library's `notification_id` is kept as a plain column (so its
  insert statement works unchanged) but it has no unique index and no `LOCK TABLE` serialises writers:
  those would make every save on the cluster wait for every other. Whatever followed that order (the read
  side, the PBEM outbox) follows each game's versions instead (`event_store.game_heads`), so
  `select_notifications` is refused here.

The URL is `citus://USER@HOST[:PORT]/DBNAME[?schema=NAME]`, the coordinator; the rest is as for PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Notification, StoredEvent
from psycopg import Cursor as PgCursor
from psycopg import sql as pgsql
from psycopg.adapt import Loader
from psycopg.rows import DictRow

from domain.errors import UsageError
from event_store.postgres_store import (
    CREATED_MEANWHILE,
    PostgresSnapshotRecorder,
    PostgresStore,
    PostgresStoreFactory,
    PostgresStoreRecorder,
    rendered,
)

# Every process creating or checking the store's tables at once takes this lock first, for the length
# of its transaction: Citus's DDL (distributing a table, sending a type or function to every worker)
# fails with "tuple concurrently updated" when two sessions do it at the same moment.
CREATE_LOCK = "SELECT pg_advisory_xact_lock(7305291977514532911)"
CREATE_ATTEMPTS = 30


class CitusStoreFactory(PostgresStoreFactory):
    """The library's PostgreSQL persistence on a Citus coordinator, with nightkeep's Citus recorders."""

    aggregate_recorder_class = PostgresSnapshotRecorder  # replaced below (defined after this class)
    application_recorder_class = PostgresStoreRecorder

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        # Marked for sql_store_of, which hands nightkeep's own tables a CitusStore for this datastore.
        setattr(self.datastore, "nightkeep_sql_store", CitusStore)  # noqa: B010  (not a field of the library's)


def _distribute(curs: PgCursor[DictRow], schema: str, table: str, column: str) -> None:
    """Distributes a table by a column in the default co-location group, unless it is already."""
    qualified = f'"{schema}"."{table}"'
    curs.execute(
        "SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass(%s)", [qualified], prepare=False
    )
    if curs.fetchone() is None:
        curs.execute("SELECT create_distributed_table(%s, %s)", [qualified, column], prepare=False)


def _insert_rows(recorder: Any, curs: Any, stored_events: Sequence[StoredEvent], returning: str) -> None:
    """Inserts stored events as one multi-row VALUES statement.

    The library inserts a save's events with INSERT ... SELECT FROM unnest(an array parameter). Citus
    cannot route that to a shard: it computes the rows on the coordinator and sends them on as a
    multi-shard write, committed in two phases even when every row is one game's. A VALUES list whose
    rows share one game id is routed to that game's shard and commits there in one phase.
    """
    values = ", ".join(["(%s, %s, %s, %b)"] * len(stored_events))
    statement = pgsql.SQL(
        "INSERT INTO {}.{} (originator_id, originator_version, topic, state) VALUES " + values + returning
    ).format(pgsql.Identifier(recorder.datastore.schema), pgsql.Identifier(recorder.events_table_name))
    params: list[Any] = []
    for e in stored_events:
        params += [e.originator_id, e.originator_version, e.topic, e.state]
    curs.execute(statement, params)


class CitusSnapshotRecorder(PostgresSnapshotRecorder):
    """The snapshots table, distributed by game id beside the events."""

    def _insert_stored_events(self, curs: Any, stored_events: Sequence[StoredEvent], **_: Any) -> None:
        _insert_rows(self, curs, stored_events, "")

    def create_table(self) -> None:
        _create_serialised(self, super().create_table)

    def _create_table(self, curs: PgCursor[DictRow]) -> None:
        curs.execute(CREATE_LOCK, prepare=False)
        super()._create_table(curs)
        _distribute(curs, self.datastore.schema, self.events_table_name, "originator_id")


def _create_serialised(recorder: Any, create: Any) -> None:
    """Creates a recorder's table, trying again (with a growing pause) while other processes' DDL on the
    cluster gets in the way: the types the library makes first are outside the creation lock."""
    if recorder._table_exists():
        return
    for attempt in range(CREATE_ATTEMPTS):
        try:
            create()
            return
        except CREATED_MEANWHILE:
            if attempt == CREATE_ATTEMPTS - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


class CitusStoreRecorder(PostgresStoreRecorder):
    """The events table distributed by game id, with no global order (see the module's docstring)."""

    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        # No unique index on notification_id: Citus refuses a unique index without the distribution
        # column, and nothing on this store reads the notification order.
        self.sql_create_statements = [
            s for s in self.sql_create_statements if "CREATE UNIQUE INDEX" not in s.as_string()
        ]
        # No LOCK TABLE (writers of different games never wait for each other on a cluster); the lock
        # timeout stays, sent on to the workers, where a writer waits for another of the same game.
        self.lock_table_statements = [
            rendered(pgsql.SQL("SET LOCAL citus.propagate_set_commands = 'local'")),
            self.lock_table_statements[0],
        ]

    def create_table(self) -> None:
        _create_serialised(self, super().create_table)
        self._create_heads()  # also in a store whose events table was made before the heads table

    def _create_table(self, curs: PgCursor[DictRow]) -> None:
        curs.execute(CREATE_LOCK, prepare=False)
        super()._create_table(curs)
        _distribute(curs, self.datastore.schema, self.events_table_name, "originator_id")

    def sql_store(self, datastore: Any) -> PostgresStore:
        return CitusStore(datastore)

    def _notify_channel(self, curs: Any) -> None:
        """No NOTIFY: nothing listens for a global order on this store."""

    def _insert_stored_events(self, curs: Any, stored_events: Sequence[StoredEvent], **_: Any) -> None:
        self._lock_table(curs)  # the lock timeout, as set above
        _insert_rows(self, curs, stored_events, " RETURNING notification_id")

    def select_notifications(self, *args: Any, **kwargs: Any) -> list[Notification]:
        raise UsageError("a Citus store keeps no global order of events (followers read per game)")

    def max_notification_id(self) -> int | None:
        raise UsageError("a Citus store keeps no global order of events (followers read per game)")


CitusStoreFactory.aggregate_recorder_class = CitusSnapshotRecorder
CitusStoreFactory.application_recorder_class = CitusStoreRecorder


class _UuidAsText(Loader):
    """Reads a uuid column as the text PostgreSQL prints (nightkeep's own tables hold game ids as text on
    every other store, and their readers take text)."""

    def load(self, data: Any) -> str:
        return bytes(data).decode()


class CitusStore(PostgresStore):
    """nightkeep's own tables on a Citus coordinator: each distributed by game id as it is created."""

    distributed = True  # no query may walk all games' rows in id order (they are spread by a hash)

    def _adapt(self, raw_cursor: Any) -> None:
        raw_cursor.adapters.register_loader("uuid", _UuidAsText)

    def create(self, statements: Sequence[str]) -> None:
        """Creates tables as on PostgreSQL, then makes each new one distributable and distributes it, in
        the same transaction (no other process sees a table that is not yet distributed). Tables that
        exist were distributed when they were made: then nothing is run (no lock, no DDL)."""
        if self._all_exist(statements):
            return
        for attempt in range(CREATE_ATTEMPTS):
            try:
                super().create([CREATE_LOCK, ENSURE_FUNCTION, *statements, _DISTRIBUTE_NEW])
                return
            except CREATED_MEANWHILE:
                if attempt == CREATE_ATTEMPTS - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))

    def ids(self, rows: Sequence[Sequence[Any]]) -> list[UUID]:
        return [row[0] if isinstance(row[0], UUID) else UUID(str(row[0])) for row in rows]


# One statement that finds the tables of this schema that are neither distributed nor reference tables
# yet, and prepares and distributes each (ENSURE_FUNCTION).
_DISTRIBUTE_NEW = "SELECT nightkeep_citus_distribute_new(current_schema())"


# Made once per schema, its % signs doubled for psycopg. The DO block asks the catalog first: replacing
# the function on every command would send the change to every worker each time.
ENSURE_FUNCTION = """
DO $do$ BEGIN IF to_regprocedure('nightkeep_citus_distribute_new(text)') IS NULL THEN
CREATE FUNCTION nightkeep_citus_distribute_new(target text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  t record;
  col text;
  con record;
  cols text;
BEGIN
  FOR t IN
    SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = target AND c.relkind = 'r'
      AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = c.oid)
  LOOP
    SELECT a.attname INTO col FROM pg_attribute a
      WHERE a.attrelid = t.oid AND NOT a.attisdropped
        AND a.attname IN ('stored_id', 'game_id', 'originator_id')
      ORDER BY array_position(ARRAY['stored_id', 'game_id', 'originator_id'], a.attname::text) LIMIT 1;
    IF col IS NULL THEN
      PERFORM create_reference_table(t.oid::regclass);
      CONTINUE;
    END IF;
    IF (SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
        WHERE a.attrelid = t.oid AND a.attname = col) <> 'uuid' THEN
      EXECUTE format('ALTER TABLE %%I.%%I ALTER COLUMN %%I TYPE uuid USING %%I::uuid',
                     target, t.relname, col, col);
    END IF;
    FOR con IN
      SELECT x.conname, x.contype, x.conkey FROM pg_constraint x
      WHERE x.conrelid = t.oid AND x.contype IN ('p', 'u')
        AND NOT (SELECT a.attnum FROM pg_attribute a
                 WHERE a.attrelid = t.oid AND a.attname = col) = ANY (x.conkey)
    LOOP
      SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY array_position(con.conkey, a.attnum)) INTO cols
        FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attnum = ANY (con.conkey);
      EXECUTE format('ALTER TABLE %%I.%%I DROP CONSTRAINT %%I', target, t.relname, con.conname);
      EXECUTE format('ALTER TABLE %%I.%%I ADD %%s (%%I, %%s)', target, t.relname,
                     CASE con.contype WHEN 'p' THEN 'PRIMARY KEY' ELSE 'UNIQUE' END, col, cols);
    END LOOP;
    PERFORM create_distributed_table(format('%%I.%%I', target, t.relname), col);
  END LOOP;
END
$$;
END IF; END $do$
"""
