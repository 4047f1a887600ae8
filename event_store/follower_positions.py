"""A follower's positions in the games of a store: per game, the version it has taken (see
`event_store.game_heads` for why per game and not the notification log).

`nightkeep_follower_positions (game_id, follower, version)` is written in the same transaction as what
the follower made of a game's events up to there, and moved only from the position those events were
read after (a compare-and-set), so two followers racing over a game cannot both take the same events,
and a follower killed at any moment leaves a game's rows and position both old or both new. A follower
finds the games it is behind on with one query joining the heads to its positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from event_store.game_heads import HEADS
from event_store.sql import Cursor, SqlStore

POSITIONS = "nightkeep_follower_positions"


def positions_table(store: SqlStore) -> str:
    """Returns the statement that makes the followers' positions table, keyed by game first (a table
    distributed by game id keeps its key's first column the game's)."""
    return (
        f"CREATE TABLE IF NOT EXISTS {POSITIONS} (game_id {store.id_type} NOT NULL, follower TEXT NOT NULL, "
        "version INTEGER NOT NULL, PRIMARY KEY (game_id, follower))"
    )


@dataclass(frozen=True)
class Behind:
    """A game a follower has not taken to its head: the version it has taken and the head."""

    game_id: UUID
    position: int
    head: int


@dataclass(frozen=True)
class Progress:
    """How far a follower has come: games it has taken, events it has taken, games it is behind on."""

    games: int
    events: int
    behind: int


class GamePositions:
    """One follower's positions in the games of a store (its tables made by whoever owns them)."""

    def __init__(self, store: SqlStore, follower: str) -> None:
        self.store = store
        self.follower = follower

    def behind(self) -> list[Behind]:
        """Returns every game whose head is past this follower's position in it (one query)."""
        with self.store.transaction(commit=False) as c:
            c.execute(
                f"SELECT h.game_id, COALESCE(t.version, 0), h.version FROM {HEADS} h "
                f"LEFT JOIN {POSITIONS} t ON t.game_id = h.game_id AND t.follower = ? "
                "WHERE h.version > COALESCE(t.version, 0) ORDER BY h.game_id",
                [self.follower],
            )
            rows = c.fetchall()
        ids = self.store.ids(rows)
        return [Behind(game_id, int(row[1]), int(row[2])) for game_id, row in zip(ids, rows, strict=True)]

    def of(self, game_id: UUID) -> int:
        """Returns the version this follower has taken a game to (0: none of it)."""
        with self.store.transaction(commit=False) as c:
            c.execute(
                f"SELECT version FROM {POSITIONS} WHERE game_id = ? AND follower = ?",
                [self.store.key(game_id), self.follower],
            )
            row = c.fetchone()
        return int(row[0]) if row else 0

    def taken(self) -> dict[UUID, int]:
        """Returns every game this follower has taken some of, with its position."""
        with self.store.transaction(commit=False) as c:
            c.execute(f"SELECT game_id, version FROM {POSITIONS} WHERE follower = ?", [self.follower])
            rows = c.fetchall()
        return {game_id: int(row[1]) for game_id, row in zip(self.store.ids(rows), rows, strict=True)}

    def progress(self) -> Progress:
        """Returns how far this follower has come, read in one statement."""
        with self.store.transaction(commit=False) as c:
            c.execute(
                f"SELECT (SELECT count(*) FROM {POSITIONS} WHERE follower = ? AND version > 0), "
                f"(SELECT COALESCE(sum(version), 0) FROM {POSITIONS} WHERE follower = ?), "
                f"(SELECT count(*) FROM {HEADS} h LEFT JOIN {POSITIONS} t "
                "ON t.game_id = h.game_id AND t.follower = ? WHERE h.version > COALESCE(t.version, 0))",
                [self.follower] * 3,
            )
            games, events, behind = c.fetchone()
        return Progress(int(games), int(events), int(behind))

    def move(self, c: Cursor, game_id: UUID, read_after: int, to: int) -> bool:
        """Moves this follower's position in a game from `read_after` to `to` inside a transaction,
        if it is still `read_after`; returns whether it was (if not, the caller rolls back what it
        made of the events: another follower has taken them). `to == read_after` only checks, holding
        the row until the transaction ends."""
        key = self.store.key(game_id)
        if read_after == 0:  # no row yet, or one a check wrote at 0
            c.execute(
                f"INSERT INTO {POSITIONS} AS t (game_id, follower, version) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id, follower) DO UPDATE SET version = excluded.version "
                "WHERE t.version = 0",
                [key, self.follower, to],
            )
        else:
            c.execute(
                f"UPDATE {POSITIONS} SET version = ? WHERE game_id = ? AND follower = ? AND version = ?",
                [to, key, self.follower, read_after],
            )
        return c.rowcount == 1

    def forget_all(self, c: Cursor) -> None:
        """Forgets every position of this follower inside a transaction (it starts again from zero)."""
        c.execute(f"DELETE FROM {POSITIONS} WHERE follower = ?", [self.follower])

    def has_any(self, c: Cursor) -> bool:
        """Tells, inside a transaction, whether this follower has taken anything yet."""
        c.execute(f"SELECT 1 FROM {POSITIONS} WHERE follower = ? LIMIT 1", [self.follower])
        return c.fetchone() is not None


def heads(store: SqlStore) -> dict[UUID, int]:
    """Returns every game's head: the last version stored of it."""
    with store.transaction(commit=False) as c:
        c.execute(f"SELECT game_id, version FROM {HEADS}")
        rows = c.fetchall()
    return {game_id: int(row[1]) for game_id, row in zip(store.ids(rows), rows, strict=True)}
