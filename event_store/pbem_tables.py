"""The host's play-by-e-mail tables, in the game store's own SQLite file beside the events.

- `nightkeep_pbem_games`: each hosted game, the host key that signs for it, the host's address, the
  secret behind the one-time keys of mail-only players, and the turn deadline.
- `nightkeep_pbem_seats`: each seat's key or address, the last event it acknowledged (`acked`) and
  the last event it was sent (`sent`).
- `nightkeep_pbem_outbox`: every mail the host owes, written in the same transaction as the tracking
  position of the notifications it reports (so none is lost or written twice), marked sent afterwards.
- `nightkeep_pbem_tracking`: how far the outbox follower has read the notification log.
- `nightkeep_pbem_seen`: every incoming packet or mail already handled, with its outcome.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

from domain.errors import UsageError

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS nightkeep_pbem_games (game_id TEXT PRIMARY KEY, key_name TEXT NOT NULL, "
    "host_mail TEXT NOT NULL, mail_secret BLOB NOT NULL, deadline INTEGER NOT NULL DEFAULT 0, "
    "reminded INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS nightkeep_pbem_seats (game_id TEXT NOT NULL, player TEXT NOT NULL, "
    "pubkey BLOB NOT NULL, mail TEXT NOT NULL, acked INTEGER NOT NULL DEFAULT 0, "
    "sent INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game_id, player))",
    "CREATE TABLE IF NOT EXISTS nightkeep_pbem_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, "
    "game_id TEXT NOT NULL, player TEXT NOT NULL, to_addr TEXT NOT NULL, subject TEXT NOT NULL, "
    "body TEXT NOT NULL, packet TEXT NOT NULL, version INTEGER NOT NULL, sent INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS nightkeep_pbem_tracking (name TEXT PRIMARY KEY, position INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nightkeep_pbem_seen (digest TEXT PRIMARY KEY, outcome TEXT NOT NULL)",
)


def datastore_of(recorder: Any) -> SQLiteDatastore:
    """Returns the SQLite datastore of a game store, creating the tables; play by e-mail needs one."""
    if not isinstance(recorder, SQLiteApplicationRecorder):
        raise UsageError("play by e-mail keeps its outbox beside the events: use a SQLite store (--db FILE)")
    datastore = recorder.datastore
    with datastore.transaction(commit=True) as c:
        for statement in SCHEMA:
            c.execute(statement)
    return datastore
