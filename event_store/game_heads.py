"""Every game's head (its last stored version), written with its events: how followers (the read side,
the host's outbox) find the games stored past their positions (`event_store.follower_positions`).

Why not the library's notification log: its global, gap-free `notification_id` needs a unique index and a
table lock on every insert, which a store distributed by game id (Citus) cannot have and which would
serialise every writer anyway. A game's own versions are gap-free and ordered already, so a follower
needs only, per game, the version it has taken, and a way to find the games past it:
`nightkeep_game_heads (game_id, version)`, upserted by the application recorders (`event_store.sql`,
`event_store.postgres_store`) in the very transaction that stores a save's events, for each game the
save touches. A store made before it gets it filled from its events when it is first opened.

Heads are kept for every originator the events table holds (today only games: snapshots, viewers' folds
and every other table of ours are written elsewhere); followers read the game topics only, so a head of
anything else would just move their position on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

HEADS = "nightkeep_game_heads"

# Moves a game's head on; never back (a save only adds versions after the head, but a head that is
# already further is left as it is rather than trusted to that).
UPSERT_HEAD = (
    f"INSERT INTO {HEADS} AS h (game_id, version) VALUES (?, ?) ON CONFLICT (game_id) "
    "DO UPDATE SET version = excluded.version WHERE h.version < excluded.version"
)


def heads_tables(id_type: str, events_table: str) -> list[str]:
    """Returns the statements that make the heads table and fill it from the events already stored
    (nothing to fill in a new store; the whole history once in a store made before the heads)."""
    return [
        f"CREATE TABLE IF NOT EXISTS {HEADS} (game_id {id_type} PRIMARY KEY, version INTEGER NOT NULL)",
        # WHERE true: SQLite's parser needs it before an upsert's ON CONFLICT after INSERT ... SELECT.
        f"INSERT INTO {HEADS} (game_id, version) SELECT originator_id, max(originator_version) "
        f"FROM {events_table} WHERE true GROUP BY originator_id ON CONFLICT (game_id) DO NOTHING",
    ]


def saved_heads(stored_events: Sequence[StoredEvent]) -> list[tuple[UUID, int]]:
    """Returns the highest version a save stores of each game it touches, in game id order (so saves
    touching several games take their head rows' locks in one order)."""
    heads: dict[UUID, int] = {}
    for stored in stored_events:
        game_id = UUID(str(stored.originator_id))
        heads[game_id] = max(heads.get(game_id, 0), stored.originator_version)
    return sorted(heads.items())


def head_rows(
    key: Callable[[UUID], Any], stored_events: Sequence[StoredEvent]
) -> list[tuple[str, list[Any]]]:
    """Returns the upserts of a save's heads, ids in the events table's form (`key`)."""
    return [(UPSERT_HEAD, [key(game_id), version]) for game_id, version in saved_heads(stored_events)]
