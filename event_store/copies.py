"""Viewers' copies held in a store: which stored game is whose copy of which game.

A copy made for a player (`export --as PLAYER`) or the public copy has other players' private events
sealed, so it is not the game itself: it is stored under an id of its own, derived from the game's id
and the viewer (`copy_id`), and this table says what it is, so it can be exported as the very file it
came from, listed for what it is, and never continued.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol
from uuid import UUID, uuid5

from eventsourcing.persistence import ApplicationRecorder

from event_store.sql import SqlStore, sql_store_of

TABLE = "nightkeep_copies"
# Copy ids are uuid5(COPIES, "<game id>/<viewer>"): importing the same copy twice finds the same game.
COPIES = UUID("6f1c3e0a-5b1d-4c59-9a0e-1f6c2b8d9e47")


def copy_id(game_id: UUID, viewer: str) -> UUID:
    """Returns the id a viewer's copy of a game is stored under."""
    return uuid5(COPIES, f"{game_id}/{viewer}")


class Copy(NamedTuple):
    """A stored copy: the game it is a copy of and whom it was made for (`""`: the public)."""

    game: UUID
    viewer: str

    @property
    def label(self) -> str:
        """Names the copy in messages: "Hana's copy of game G" or "the public copy of game G"."""
        whose = f"{self.viewer}'s copy" if self.viewer else "the public copy"
        return f"{whose} of game {self.game}"


class CopyStore(Protocol):
    """Where a store records the viewers' copies it holds."""

    def put(self, stored: UUID, copy: Copy) -> None: ...

    def get(self, stored: UUID) -> Copy | None: ...

    def of_game(self, game_id: UUID) -> list[UUID]: ...

    def all(self) -> dict[UUID, Copy]: ...


class SQLCopyStore:
    """Copies in their own table of the game store's database (SQLite or PostgreSQL)."""

    def __init__(self, store: SqlStore) -> None:
        self._datastore = store
        store.create(
            [
                f"CREATE TABLE IF NOT EXISTS {TABLE} "
                "(stored_id TEXT PRIMARY KEY, game_id TEXT NOT NULL, viewer TEXT NOT NULL)"
            ]
        )

    def put(self, stored: UUID, copy: Copy) -> None:
        """Records a copy (before its events: a row with no events is a copy not imported yet)."""
        with self._datastore.transaction(commit=True) as c:
            c.execute(
                f"INSERT INTO {TABLE} VALUES (?, ?, ?) ON CONFLICT (stored_id) DO NOTHING",
                [stored.hex, copy.game.hex, copy.viewer],
            )

    def get(self, stored: UUID) -> Copy | None:
        """Returns what a stored game is a copy of, or None for a game itself."""
        with self._datastore.transaction(commit=False) as c:
            c.execute(f"SELECT game_id, viewer FROM {TABLE} WHERE stored_id=?", [stored.hex])
            row = c.fetchone()
        return None if row is None else Copy(UUID(row[0]), row[1])

    def of_game(self, game_id: UUID) -> list[UUID]:
        """Returns the ids of the copies of a game this store holds."""
        with self._datastore.transaction(commit=False) as c:
            c.execute(f"SELECT stored_id FROM {TABLE} WHERE game_id=?", [game_id.hex])
            return [UUID(row[0]) for row in c.fetchall()]

    def all(self) -> dict[UUID, Copy]:
        """Returns every copy by stored id."""
        with self._datastore.transaction(commit=False) as c:
            c.execute(f"SELECT stored_id, game_id, viewer FROM {TABLE}")
            return {UUID(row[0]): Copy(UUID(row[1]), row[2]) for row in c.fetchall()}


class MemoryCopyStore:
    """Copies in a dict, for the in-memory store."""

    def __init__(self) -> None:
        self._copies: dict[UUID, Copy] = {}

    def put(self, stored: UUID, copy: Copy) -> None:
        """Records a copy."""
        self._copies.setdefault(stored, copy)

    def get(self, stored: UUID) -> Copy | None:
        """Returns what a stored game is a copy of, or None for a game itself."""
        return self._copies.get(stored)

    def of_game(self, game_id: UUID) -> list[UUID]:
        """Returns the ids of the copies of a game this store holds."""
        return [stored for stored, copy in self._copies.items() if copy.game == game_id]

    def all(self) -> dict[UUID, Copy]:
        """Returns every copy by stored id."""
        return dict(self._copies)


def copy_store_for(recorder: ApplicationRecorder) -> CopyStore:
    """Returns the copy table that lives beside a recorder."""
    store = sql_store_of(recorder)
    return MemoryCopyStore() if store is None else SQLCopyStore(store)
