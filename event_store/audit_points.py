"""Where a copy's audit ended (`domain.audit.resume.AuditPoint`), kept beside its events so that the
events that extend the copy are audited from there (a replica's packets), not with the whole copy again.

One row per stored copy: the version and chain value the point is at, and the point as msgpack. A point
is derived data, like a snapshot: it is used only while it is at the copy's head (same version, same
chain value) and reads as a point of this nightkeep; otherwise the whole copy is audited and a new point
written. It is trusted as the copy's events are: whoever can write this store can write both.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.audit import AuditPoint
from event_store.sql import SqlStore, Statement
from event_store.transcoder import MsgpackTranscoder

TABLE = "nightkeep_audit_points"
_TRANSCODER = MsgpackTranscoder()


def schema(store: SqlStore) -> list[str]:
    """Returns the CREATE statement of the points' table, in the store's column types."""
    return [
        f"CREATE TABLE IF NOT EXISTS {TABLE} (stored_id TEXT PRIMARY KEY, version INTEGER NOT NULL, "
        f"chain {store.blob} NOT NULL, point {store.blob} NOT NULL)"
    ]


def point_row(stored: UUID, point: AuditPoint | None) -> Statement:
    """Returns the statement that keeps a copy's point (or, for None, drops the one it had)."""
    if point is None:
        return f"DELETE FROM {TABLE} WHERE stored_id=?", [str(stored)]
    return (
        f"INSERT INTO {TABLE} VALUES (?, ?, ?, ?) ON CONFLICT (stored_id) DO UPDATE SET "
        "version = excluded.version, chain = excluded.chain, point = excluded.point",
        [str(stored), point.version, point.chain, _TRANSCODER.encode(point.to_plain())],
    )


def load_point(store: SqlStore, stored: UUID, version: int, chain: bytes) -> AuditPoint | None:
    """Returns a copy's point if it is at the given head (version and chain value) and reads as a point
    of this nightkeep, else None."""
    with store.transaction(commit=False) as cursor:
        cursor.execute(f"SELECT version, chain, point FROM {TABLE} WHERE stored_id=?", [str(stored)])
        row = cursor.fetchone()
    if row is None or row[0] != version or bytes(row[1]) != chain:
        return None
    try:
        plain: Any = _TRANSCODER.decode(bytes(row[2]))
    except Exception:  # noqa: BLE001  (damaged bytes: msgpack raises several unrelated types)
        return None
    point = AuditPoint.from_plain(plain)
    return point if point is not None and (point.version, point.chain) == (version, chain) else None
