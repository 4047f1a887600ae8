"""Game ids as people type them: a whole UUID, or (git-style) any unique prefix of at least 4 hex digits.

Every door that takes a GAME argument (the CLI, the e-mail host, a viewer) resolves it here, so a prefix
means the same game everywhere. Dashes are ignored, so `760b6a61-2fa1` and `760b6a612fa1` are one prefix.
"""

from __future__ import annotations

import string
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder
from eventsourcing.popo import POPOAggregateRecorder
from eventsourcing.sqlite import SQLiteAggregateRecorder

from domain.errors import UnknownGame, UsageError
from event_store.copies import CopyStore
from event_store.sql import SQLITE, sql_store_of

MIN_PREFIX = 4
# An ambiguous prefix lists at most this many candidates, so its error stays one readable line.
MAX_LISTED = 5
HEX = frozenset(string.hexdigits.lower())


class AmbiguousGameId(UsageError):
    """Raised when a game id prefix matches more than one stored game."""


def short_id(game_id: UUID) -> str:
    """Returns the 8 hex digits a game is usually named by in messages."""
    return game_id.hex[:8]


def normalised_prefix(text: str) -> str:
    """Returns a typed game id as lower-case hex without dashes, or refuses what cannot be one."""
    prefix = text.strip().lower().replace("-", "")
    if len(prefix) < MIN_PREFIX or len(prefix) > 32 or not set(prefix) <= HEX:
        raise UnknownGame(f"{text[:40]!r} is not a game id (give at least {MIN_PREFIX} hex digits of one)")
    return prefix


def stored_ids_with_prefix(recorder: ApplicationRecorder, prefix: str) -> list[UUID]:
    """Returns the ids of the stored aggregates whose hex id starts with `prefix` (one seek each)."""
    store = sql_store_of(recorder)
    if store is None:
        # The in-memory store offers no query for ids: its index of stored events is read instead.
        ids = recorder._stored_events_index if isinstance(recorder, POPOAggregateRecorder) else {}
        return [UUID(i) for i in ids if UUID(i).hex.startswith(prefix)]
    if store.dialect == SQLITE:
        # Stored ids are 32 hex digits; the primary key (originator_id, version) serves this range.
        low: object = prefix
        high: object = prefix + "g"  # 'g' sorts after every hex digit
        below = "originator_id < ?"
    else:
        # A uuid column: every id with the prefix lies between it padded with 0s and with fs.
        low, high = UUID(prefix.ljust(32, "0")), UUID(prefix.ljust(32, "f"))
        below = "originator_id <= ?"
    table = _events_table(recorder)
    if getattr(store, "distributed", False):
        # A Citus store's events are spread by a hash of the id, so no seek walks them in id order: each
        # worker scans the range of its shards' primary keys instead (a prefix matches few games).
        sql = (
            f"SELECT originator_id FROM {table} "
            f"WHERE originator_id >= ? AND {below} AND originator_version = 1"
        )
        with store.transaction(commit=False) as c:
            c.execute(sql, [low, high])
            return store.ids(c.fetchall())
    # Each stored id in turn, each found by one seek of the primary key (originator_id, version): the
    # range scanned for its rows at version 1 would read every row of the games it holds instead (a
    # long game's, on every command that names its game by a prefix).
    first = f"SELECT originator_id FROM {table} WHERE originator_id >= ? AND {below}"
    after = f"SELECT originator_id FROM {table} WHERE originator_id > ids.id AND {below}"
    sql = (
        f"WITH RECURSIVE ids(id) AS (SELECT ({first} ORDER BY originator_id LIMIT 1) "
        f"UNION ALL SELECT ({after} ORDER BY originator_id LIMIT 1) FROM ids WHERE ids.id IS NOT NULL) "
        f"SELECT id FROM ids WHERE id IS NOT NULL AND EXISTS "
        f"(SELECT 1 FROM {table} WHERE originator_id = ids.id AND originator_version = 1)"
    )
    with store.transaction(commit=False) as c:
        c.execute(sql, [low, high, high])
        return store.ids(c.fetchall())


def _events_table(recorder: ApplicationRecorder) -> str:
    """Returns the events table of a SQL recorder (sql_store_of refuses all but SQLite and PostgreSQL)."""
    if isinstance(recorder, SQLiteAggregateRecorder):
        return recorder.events_table_name
    from eventsourcing.postgres import PostgresAggregateRecorder  # psycopg: only for a PostgreSQL store

    if not isinstance(recorder, PostgresAggregateRecorder):
        raise TypeError(f"{type(recorder).__name__} is no SQL recorder")
    return recorder.events_table_name


def resolve_game_id(recorder: ApplicationRecorder, copies: CopyStore, text: str) -> UUID:
    """Returns the stored game a typed id names: a whole id, or a unique prefix of a stored game's id.

    A store that holds one viewer's copy of a game and not the game itself (a player's replica) takes
    the game's id, or a prefix of it, for that copy.
    """
    try:
        whole: UUID | None = UUID(text.strip())
    except ValueError:
        whole = None
    if whole is not None:
        return _copy_or_itself(recorder, copies, whole)
    prefix = normalised_prefix(text)
    found = set(stored_ids_with_prefix(recorder, prefix))
    for stored, copy in copies.all().items():
        if copy.game.hex.startswith(prefix) and copy.game not in found:
            found.add(stored)  # a replica names its copy by the game's id
    if not found:
        raise UnknownGame(f"no game in this store has an id starting {text.strip()!r}")
    if len(found) > 1:
        raise _ambiguous(copies, text, found)
    return found.pop()


def _ambiguous(copies: CopyStore, text: str, found: set[UUID]) -> AmbiguousGameId:
    """Lists the stored games a typed id could mean on one line, saying which are viewers' copies (their
    own ids tell them apart: typing more of the game's id would not)."""
    held = copies.all()
    listed = [
        f"{g} ({held[g].label.replace(' of game ', ' of ')})" if g in held else str(g)
        for g in sorted(found, key=str)
    ]
    more = f" and {len(listed) - MAX_LISTED} more" if len(listed) > MAX_LISTED else ""
    return AmbiguousGameId(
        f"{text.strip()!r} names {len(listed)} games: {', '.join(listed[:MAX_LISTED])}{more}"
        " (give one of these ids, or a longer prefix of one)"
    )


def _copy_or_itself(recorder: ApplicationRecorder, copies: CopyStore, game_id: UUID) -> UUID:
    """Returns the game itself if stored, else its one stored viewer's copy, else the id unchanged;
    refuses to guess between several stored copies of the game."""
    if recorder.select_events(game_id, limit=1):  # a whole id needs no prefix scan, on any store
        return game_id
    held = copies.of_game(game_id)
    if len(held) > 1:
        raise _ambiguous(copies, str(game_id), set(held))
    return held[0] if held else game_id
