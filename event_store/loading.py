"""Loading a game to act on cheaply: its newest snapshot and the few envelopes after it, in one read.

A snapshot (state, chain, version of the fold at a point) is derived data the service writes while
saving (`GameService._take_snapshots`, through `take_snapshot`); the events stay the record. The audit
never reads snapshots, and a snapshot is only ever taken of a game as the fold of its own stored events
made it. Each snapshot is stamped with its ruleset's `state_version` (the shape of the state it holds):
a snapshot of another shape (one taken before the shape changed has no stamp: version 1) is passed over,
and the game is folded from its events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import EventStore, Mapper, StoredEvent

from domain.errors import CorruptStore
from domain.folding import fold_envelopes
from domain.game import MAX_EVENTS, Game, GameFold, holder_ruleset
from domain.game_meta import new_meta
from domain.rulesets import state_version
from event_store.recorded import GAME_TOPICS
from event_store.sql import SqlStore, Statement, sql_store_of, writes_rows


def load_latest(events: Any, snapshots: Any, mapper: Mapper[UUID], game_id: UUID) -> Game | None:
    """Returns a game rebuilt from its newest snapshot and the envelopes after it, or None when it has
    no snapshot (a short game: the repository's own path is as cheap) or the store is not a plain SQL
    store (SQLite or PostgreSQL). An unreadable snapshot is passed over for the game's first event: the
    events are the record."""
    store = _plain_store(events, snapshots, mapper)
    if store is None:
        return None
    key = store.key(game_id)
    with store.transaction(commit=False) as cursor:
        cursor.execute(
            f"SELECT originator_version, topic, state FROM {snapshots.events_table_name} "
            "WHERE originator_id=? ORDER BY originator_version DESC LIMIT 1",
            [key],
        )
        snapshot = cursor.fetchone()
        if snapshot is None:
            return None
        game = _game_from(mapper, StoredEvent(game_id, snapshot[0], snapshot[1], snapshot[2]), Game.Snapshot)
        if game is None:
            cursor.execute(
                f"SELECT originator_version, topic, state FROM {events.events_table_name} "
                "WHERE originator_id=? AND originator_version=1",
                [key],
            )
            first = cursor.fetchone()
            game = first and _game_from(
                mapper, StoredEvent(game_id, first[0], first[1], first[2]), Game.Created
            )
            if game is None:
                raise CorruptStore(f"game {game_id} has an unreadable first event")
        cursor.execute(
            f"SELECT originator_version, state FROM {events.events_table_name} "
            "WHERE originator_id=? AND topic IN (?, ?) AND originator_version>? ORDER BY originator_version",
            [key, *GAME_TOPICS, game.version],
        )
        rows = cursor.fetchall()
    try:
        decode = mapper.transcoder.decode
        tail = [(row[0], decode(row[1])) for row in rows]
    except Exception as exc:  # msgpack raises several unrelated types for damaged bytes
        raise CorruptStore(f"game {game_id} has an unreadable event ({type(exc).__name__})") from None
    return fold_tail(game, tail)


STAMP = "state_version"  # the key of a snapshot's state that holds the shape of its ruleset state


def take_snapshot(game: Game) -> Snapshot:
    """Returns a snapshot of the game, stamped with the shape of its ruleset's state."""
    snapshot: Snapshot = Game.Snapshot.take(game)
    snapshot.state[STAMP] = state_version(game.ruleset_name)
    return snapshot


@dataclass(frozen=True)
class SnapshotTable:
    """A SQL store's table of snapshots, which a save writes into with its events."""

    store: SqlStore
    name: str


def snapshot_table(events: Any, snapshots: Any) -> SnapshotTable | None:
    """Returns the snapshots' table when the events' recorder writes a save's rows in its transaction
    and the snapshots are in the same database (SQL stores), else None."""
    store = sql_store_of(events)
    if store is None or not writes_rows(events):
        return None
    if getattr(snapshots, "datastore", None) is not getattr(events, "datastore", None):
        return None
    return SnapshotTable(store, snapshots.events_table_name)


def snapshot_row(table: SnapshotTable, mapper: Mapper[UUID], snapshot: Snapshot) -> Statement:
    """Returns the statement that stores a snapshot as the library's recorder would (the mapper's topic
    and state: compressed and enciphered when the store's are)."""
    stored = mapper.to_stored_event(snapshot)
    return (
        f"INSERT INTO {table.name} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
        [
            table.store.key(cast(UUID, stored.originator_id)),
            stored.originator_version,
            stored.topic,
            stored.state,
        ],
    )


def is_current(snapshot_state: Mapping[str, Any]) -> bool:
    """Tells whether a snapshot holds the state in the shape its ruleset folds now, and the game's
    bookkeeping in the shape `domain.game.new_meta` keeps now (every key of it: a snapshot taken before
    per-turn dice keys has no `made_by`, so the game is folded from its events instead)."""
    meta = snapshot_state.get("meta")
    if isinstance(meta, Mapping) and not _META_KEYS <= meta.keys():
        return False
    return bool(snapshot_state.get(STAMP, 1) == state_version(str(snapshot_state.get("ruleset_name", ""))))


_META_KEYS = frozenset(new_meta())


def _game_from(
    mapper: Mapper[UUID], stored: StoredEvent, kind: type[Game.Snapshot] | type[Game.Created]
) -> Game | None:
    """Returns the game a stored snapshot or creation event makes, or None when it cannot be read (or
    is a snapshot of another state shape)."""
    try:
        taken = mapper.to_domain_event(stored)
        if isinstance(taken, Snapshot) and not is_current(taken.state):
            return None
        game = taken.mutate(None) if isinstance(taken, kind) else None
    except Exception:  # noqa: BLE001  (damaged bytes: msgpack and the library raise unrelated types)
        return None
    if not isinstance(game, Game):
        return None
    vars(game).pop(STAMP, None)  # the stamp belongs to the snapshot, not to the game
    return game


def _plain_store(events: Any, snapshots: Any, mapper: Mapper[UUID]) -> SqlStore | None:
    """Returns the SQL store when both recorders are plain tables of its one database (no cipher, no
    compressor), else None."""
    if mapper.cipher or mapper.compressor:
        return None
    store = sql_store_of(events)
    if store is None or getattr(snapshots, "datastore", None) is not getattr(events, "datastore", None):
        return None
    return store


def fold_tail(game: Game, tail: list[tuple[int, dict[str, Any]]]) -> Game:
    """Folds stored envelope states into a game, as the library's event objects would, without them."""
    for offset, (version, _) in enumerate(tail, start=game.version + 1):
        if version != offset:
            raise CorruptStore(f"game {game.id} skips from event {offset - 1} to {version}")
    if tail:
        fold_envelopes(game, [envelope for _, envelope in tail])
        game.modified_on = tail[-1][1]["timestamp"]
    return game


def fold_from_snapshot(snapshots: EventStore[UUID], game_id: UUID, version: int | None) -> GameFold:
    """Returns the fold a game's newest snapshot at or before `version` holds, or an empty fold."""
    lte = None if version is None else max(0, min(version, MAX_EVENTS))
    try:
        taken = next(iter(snapshots.get(game_id, desc=True, limit=1, lte=lte)), None)
    except Exception:  # noqa: BLE001  (an unreadable snapshot: fold the events, which are the record)
        return GameFold()
    if not isinstance(taken, Game.Snapshot) or not is_current(taken.state):
        return GameFold()
    state = taken.state
    return GameFold(
        ruleset_name=state["ruleset_name"],
        meta=state["meta"],
        state=state["state"],
        chain=state["chain"],
        version=taken.originator_version,
        ruleset=holder_ruleset(state["ruleset_name"], state["meta"]),
    )
