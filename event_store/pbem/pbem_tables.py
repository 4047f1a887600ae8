"""The host's play-by-e-mail tables, in the game store's own database (SQLite or PostgreSQL) beside the
events.

- `nightkeep_pbem_games`: each hosted game, the host key that signs for it, the host's address, the
  secret behind the one-time keys of mail-only players, and the turn deadline.
- `nightkeep_pbem_seats`: each seat's key or address, the last event it acknowledged (`acked`) and
  the last event it was sent (`sent`).
- `nightkeep_pbem_outbox`: every mail the host owes, written in the same transaction as the outbox
  follower's position in the game it reports (`nightkeep_follower_positions`, see
  `event_store.follower_positions`), so none is lost or written twice; marked sent afterwards.
- `nightkeep_pbem_seen`: every incoming packet or mail already handled, with its outcome.
- `nightkeep_pbem_settings`: each game's title, which every subject carries.
- `nightkeep_pbem_waits`: since when (event and time) each seat to move has been waited on, which
  reminders it was sent and when its turn lapsed (the deadline's clock: the log records the lapse).
- `nightkeep_pbem_observers`: who watches a game by mail, and the last event each was sent.
- `nightkeep_pbem_mailed`: who was to move when each seat last got mail, so a seat gets one mail per
  turn of play (a digest) rather than one per move.
- `nightkeep_pbem_witnessed`: the last head of each game mailed to each witness address (`--witness`).
- `nightkeep_pbem_verified`: the event up to which the host has checked each game's hash chain, and the
  chain value there, so each packet checks only the events after it (trusted_log.py says what it trusts).
"""

from __future__ import annotations

from typing import Any

from domain.errors import UsageError
from event_store.follower_positions import positions_table
from event_store.sql import SQLITE, SqlStore, sql_store_of

# The replica's proofs table (event_store.pbem.replica): a store that has it has joined a game as a player.
PROOFS = "nightkeep_replica_proofs"


def schema(store: SqlStore) -> list[str]:
    """Returns the CREATE statements of the host's tables, in the store's column types."""
    return [
        "CREATE TABLE IF NOT EXISTS nightkeep_pbem_games (game_id TEXT PRIMARY KEY, key_name TEXT NOT NULL, "
        f"host_mail TEXT NOT NULL, mail_secret {store.blob} NOT NULL, deadline INTEGER NOT NULL DEFAULT 0, "
        "reminded INTEGER NOT NULL DEFAULT 0)",
        "CREATE TABLE IF NOT EXISTS nightkeep_pbem_seats (game_id TEXT NOT NULL, player TEXT NOT NULL, "
        f"pubkey {store.blob} NOT NULL, mail TEXT NOT NULL, acked INTEGER NOT NULL DEFAULT 0, "
        "sent INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game_id, player))",
        # Outbox ids are never reused (no row is ever deleted): a resent mail keeps its Message-ID.
        f"CREATE TABLE IF NOT EXISTS nightkeep_pbem_outbox (id {store.serial}, "
        "game_id TEXT NOT NULL, player TEXT NOT NULL, to_addr TEXT NOT NULL, subject TEXT NOT NULL, "
        "body TEXT NOT NULL, packet TEXT NOT NULL, version INTEGER NOT NULL, "
        "sent INTEGER NOT NULL DEFAULT 0)",
        positions_table(store),
        "CREATE TABLE IF NOT EXISTS nightkeep_pbem_seen (digest TEXT PRIMARY KEY, outcome TEXT NOT NULL)",
        # A club's service (event_store/pbem/club_host.py, deadlines.py): tables of their own, so a store
        # made before them gains them as it is opened.
        "CREATE TABLE IF NOT EXISTS nightkeep_pbem_settings (game_id TEXT PRIMARY KEY, title TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS nightkeep_pbem_waits (game_id TEXT NOT NULL, player TEXT NOT NULL, "
        "since INTEGER NOT NULL, since_time BIGINT NOT NULL, reminded TEXT NOT NULL DEFAULT '', "
        "lapsed BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (game_id, player))",
        "CREATE TABLE IF NOT EXISTS nightkeep_pbem_observers (game_id TEXT NOT NULL, name TEXT NOT NULL, "
        "mail TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game_id, name))",
        "CREATE TABLE IF NOT EXISTS nightkeep_pbem_mailed (game_id TEXT NOT NULL, player TEXT NOT NULL, "
        "to_act TEXT NOT NULL, PRIMARY KEY (game_id, player))",
        "CREATE TABLE IF NOT EXISTS nightkeep_pbem_witnessed (game_id TEXT NOT NULL, witness TEXT NOT NULL, "
        "version INTEGER NOT NULL, PRIMARY KEY (game_id, witness))",
        "CREATE TABLE IF NOT EXISTS nightkeep_pbem_verified (game_id TEXT PRIMARY KEY, "
        f"version INTEGER NOT NULL, chain {store.blob} NOT NULL)",
    ]


def store_of(recorder: Any) -> SqlStore:
    """Returns the SQL database of a game store with the host's tables created; play by e-mail keeps
    its tables beside the events, so the in-memory store will not do."""
    store = sql_store_of(recorder)
    if store is None:
        raise UsageError(
            "play by e-mail keeps its outbox beside the events: use a SQLite or PostgreSQL store (--db)"
        )
    store.create(schema(store))
    return store


def has_table(store: SqlStore, name: str) -> bool:
    """Tells whether the store's database holds a table (without creating anything)."""
    with store.transaction(commit=False) as c:
        if store.dialect == SQLITE:
            c.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", [name])
            return c.fetchone() is not None
        # Unqualified, the name is looked up on the transaction's search_path: the store's schema.
        c.execute("SELECT to_regclass(?)", [name])
        row = c.fetchone()
        return row is not None and row[0] is not None


def is_replica_store(recorder: Any) -> bool:
    """Tells whether a store has ever joined a game as a player's replica (without creating its tables);
    the in-memory store never has."""
    store = sql_store_of(recorder)
    return store is not None and has_table(store, PROOFS)
