"""The host's secrets (each game's dice seed), kept apart from every event and notification log.

The seed must not reach anything that follows the store's notification log (projections today,
player replicas and packet feeds later), so it lives in a table of its own, never in an event. In a
store encrypted at rest (`event_store.at_rest`) the table holds each seed encrypted under the store's key.
"""

from __future__ import annotations

from typing import Protocol
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Cipher

from domain.errors import SeedNotHeld
from event_store.at_rest import seal, unseal
from event_store.sql import SqlStore, Statement, sql_store_of

TABLE = "nightkeep_secrets"


class SecretStore(Protocol):
    """Where the host keeps each game's seed."""

    def put(self, game_id: UUID, seed: bytes) -> list[Statement]: ...

    def get(self, game_id: UUID) -> bytes: ...

    def held(self) -> set[UUID]: ...


class SQLSecretStore:
    """Seeds in their own table of the game store's database (SQLite or PostgreSQL), encrypted when the
    store is (`cipher`)."""

    def __init__(self, store: SqlStore, cipher: Cipher | None = None) -> None:
        self._store = store
        self._cipher = cipher
        store.create(
            [f"CREATE TABLE IF NOT EXISTS {TABLE} (game_id TEXT PRIMARY KEY, seed {store.blob} NOT NULL)"]
        )

    def put(self, game_id: UUID, seed: bytes) -> list[Statement]:
        """Returns the statement that stores a new game's seed, for the save that stores its first
        events: a stored game always has its seed, and a seed never outlives a failed save."""
        return [(f"INSERT INTO {TABLE} VALUES (?, ?)", [game_id.hex, seal(self._cipher, seed)])]

    def get(self, game_id: UUID) -> bytes:
        """Returns a game's seed."""
        with self._store.transaction(commit=False) as c:
            c.execute(f"SELECT seed FROM {TABLE} WHERE game_id=?", [game_id.hex])
            row = c.fetchone()
        if row is None:
            raise SeedNotHeld(
                f"this store holds no dice seed for game {game_id}: only its host can continue it"
            )
        return unseal(self._cipher, bytes(row[0]), f"the dice seed of game {game_id}")

    def held(self) -> set[UUID]:
        """Returns the ids of every game whose seed is kept here (one query, for listings)."""
        with self._store.transaction(commit=False) as c:
            c.execute(f"SELECT game_id FROM {TABLE}")
            return {UUID(row[0]) for row in c.fetchall()}


class MemorySecretStore:
    """Seeds in a dict, for the in-memory store."""

    def __init__(self) -> None:
        self._seeds: dict[UUID, bytes] = {}

    def put(self, game_id: UUID, seed: bytes) -> list[Statement]:
        """Keeps a new game's seed (nothing to write with its events)."""
        self._seeds[game_id] = seed
        return []

    def get(self, game_id: UUID) -> bytes:
        """Returns a game's seed."""
        try:
            return self._seeds[game_id]
        except KeyError:
            raise SeedNotHeld(
                f"this store holds no dice seed for game {game_id}: only its host can continue it"
            ) from None

    def held(self) -> set[UUID]:
        """Returns the ids of every game whose seed is kept here."""
        return set(self._seeds)


def secret_store_for(recorder: ApplicationRecorder, cipher: Cipher | None = None) -> SecretStore:
    """Returns the secret store that lives beside a recorder (encrypting with the store's cipher)."""
    store = sql_store_of(recorder)
    return MemorySecretStore() if store is None else SQLSecretStore(store, cipher)
