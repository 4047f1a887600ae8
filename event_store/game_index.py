"""The game index: one row per game (ruleset, players, status, winner, who is to act, events, times),
written by the writer in the transaction of the events of every save that changes it, and only read by
listings (`nightkeep games`, `serve`, completion).

Nothing here follows a global order of all games' events (a Citus store has none) and no listing writes
(it may run on a read-only hot standby): `GameService` turns each save's events, with the game's state in
hand, into a `Change` and runs its statements with the events (`statements`). A game's first save inserts
its whole row; every later one updates only what its events change (version, time, who is to act, and the
status when the game ends or its seed is revealed), so an action costs no read.

A store made before this index (or with an older format of it) has none: the first save of a writer
builds it from the events once (`build_rows`, `write_built`), as `nightkeep games --rebuild` does. Until
then a listing computes the entries from the events without writing (`GameService.game_index_entries`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import msgpack

from domain.game import STOPPED, game_status
from domain.game_meta import GameHolder
from event_store.sql import POSTGRESQL, SQLITE, SqlStore, Statement

# The row of each game, and a one-row table naming the format the rows are in: a store whose index is
# missing or in an older format is built again from its events by its first writer.
TABLE = "nightkeep_games"
FORMAT_TABLE = "nightkeep_games_format"
FORMAT = 3
# The tables of the index before it was the writer's (a follower of the notification log), dropped
# when the new one is built.
OLD_TABLES = ("nightkeep_game_index", "nightkeep_game_to_act")
ENDINGS = {"GameWon": "player", "GameEnded": "winner"}
COLUMNS = (
    "game_id",
    "ruleset",
    "players",
    "scripted",
    "created",
    "status",
    "winner",
    "version",
    "updated",
    "forked_from",
    "to_act",
)

Entry = dict[str, Any]


@dataclass(slots=True)
class Change:
    """What one save changes in a game's index row. `status` is None when the save's events leave it as
    stored, except that `reveal` stops a game stored as running (a seed revealed before the end)."""

    game_id: UUID
    version: int = 0
    updated: str = ""
    to_act: list[str] = field(default_factory=list)
    created: Entry | None = None  # ruleset, players, scripted, created: the game's GameCreated
    forked_from: str | None = None
    status: str | None = None
    winner: str = ""
    reveal: bool = False

    def apply(self, entry: Entry | None) -> Entry | None:
        """Returns the entry after this change (None for a game not yet created), as the SQL does."""
        if self.created is not None:
            forked = (
                self.forked_from if self.forked_from is not None else (entry or {}).get("forked_from", "")
            )
            entry = {"forked_from": forked, "game": str(self.game_id), **self.created}
        elif self.forked_from is not None:
            entry = {**(entry or {}), "forked_from": self.forked_from}
        if entry is None or "ruleset" not in entry:
            return entry
        if self.status is not None:
            entry["status"], entry["winner"] = self.status, self.winner
        elif self.reveal and entry["status"] == "running":
            entry["status"] = STOPPED
        entry["version"], entry["updated"], entry["to_act"] = self.version, self.updated, self.to_act
        return entry


def change_of(
    game_id: UUID, envelopes: Iterable[Mapping[str, Any]], holder: Callable[[], GameHolder]
) -> Change | None:
    """Returns what a save of a game's envelopes (each with `type`, `fields`, `timestamp` and
    `originator_version`, in order) changes in its row; `holder` returns the game after them (a Game or
    a GameFold), which says who is to act: it is asked only when the game may still be running (a
    whole finished game, as a simulation or an import stores, needs no fold). None when the save holds
    no envelope."""
    change = Change(game_id)
    for envelope in envelopes:
        kind, fields = envelope["type"], envelope["fields"]
        change.version = envelope["originator_version"]
        change.updated = envelope["timestamp"].isoformat()
        if kind == "ForkedFrom" and change.version == 1:
            change.forked_from = f"{fields['game']}@{fields['version']}"
        elif kind == "GameCreated":
            change.created = {
                "ruleset": fields["ruleset"],
                "players": [seat["name"] for seat in fields["players"]],
                "scripted": fields["scripted"],
                "created": change.updated,
            }
            change.status, change.winner, change.reveal = "running", "", False
        elif kind in ENDINGS:
            change.status, change.winner, change.reveal = "finished", fields[ENDINGS[kind]], False
        elif kind == "SeedRevealed":
            if change.status is None:
                change.reveal = True  # stops the game if it is stored as running
            elif change.status == "running":
                change.status = STOPPED
    if not change.version:
        return None
    if change.status in (None, "running"):  # a listing shows who is to act in a running game only
        game = holder()
        change.to_act = list(game_status(game)["to_act"]) if game.ruleset_name else []
    return change


def create_statements(store: SqlStore) -> list[str]:
    """Returns the CREATE statements of the index's tables. The game id has the events table's type
    (PostgreSQL's uuid; SQLite's 32 hex digits), as every table of a store distributed by game id must."""
    key = "UUID" if store.dialect == POSTGRESQL else "TEXT"
    blob = store.blob
    return [
        f"CREATE TABLE IF NOT EXISTS {TABLE} (game_id {key} PRIMARY KEY, ruleset TEXT, players {blob}, "
        "scripted BOOLEAN, created TEXT, status TEXT, winner TEXT, version BIGINT, updated TEXT, "
        f"forked_from TEXT, to_act {blob})",
        f"CREATE TABLE IF NOT EXISTS {FORMAT_TABLE} (format INTEGER PRIMARY KEY)",
    ]


def statements(store: SqlStore, change: Change) -> list[Statement]:
    """Returns the statements that write a change, run in the transaction of the save's events."""
    key = store.key(change.game_id)
    to_act = msgpack.packb(change.to_act)
    if change.created is not None:
        created = change.created
        row = [
            key,
            created["ruleset"],
            msgpack.packb(created["players"]),
            created["scripted"],
            created["created"],
            change.status,
            change.winner,
            change.version,
            change.updated,
            change.forked_from or "",
            to_act,
        ]
        # A fork's ForkedFrom saved alone before (never by nightkeep itself) keeps its mark.
        kept = COLUMNS[1:] if change.forked_from is not None else COLUMNS[1:-2] + COLUMNS[-1:]
        updates = ", ".join(f"{c} = excluded.{c}" for c in kept)
        marks = ", ".join("?" * len(COLUMNS))
        return [(f"INSERT INTO {TABLE} VALUES ({marks}) ON CONFLICT (game_id) DO UPDATE SET {updates}", row)]
    found: list[Statement] = []
    if change.forked_from is not None:
        found.append(
            (
                f"INSERT INTO {TABLE} (game_id, forked_from) VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET forked_from = excluded.forked_from",
                [key, change.forked_from],
            )
        )
    sets = ["version = ?", "updated = ?", "to_act = ?"]
    params: list[Any] = [change.version, change.updated, to_act]
    if change.status is not None:
        sets += ["status = ?", "winner = ?"]
        params += [change.status, change.winner]
    elif change.reveal:
        sets.append(f"status = CASE WHEN status = 'running' THEN '{STOPPED}' ELSE status END")
    found.append((f"UPDATE {TABLE} SET {', '.join(sets)} WHERE game_id = ?", [*params, key]))
    return found


def is_built(store: SqlStore) -> bool:
    """Tells whether a store's index is built in the current format (only reads: a standby answers)."""
    with store.transaction(commit=False) as c:
        if store.dialect == SQLITE:
            c.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [FORMAT_TABLE])
        else:  # in the store's schema: the transaction's search path
            c.execute("SELECT to_regclass(?)", [FORMAT_TABLE])
        found = c.fetchone()
        if found is None or found[0] is None:
            return False
        c.execute(f"SELECT format FROM {FORMAT_TABLE}")
        return any(row[0] == FORMAT for row in c.fetchall())


def read_entries(store: SqlStore) -> list[Entry]:
    """Returns every game's entry, most recently played first (a listing's one query)."""
    with store.transaction(commit=False) as c:
        c.execute(f"SELECT {', '.join(COLUMNS)} FROM {TABLE} WHERE ruleset IS NOT NULL ORDER BY updated DESC")
        rows = c.fetchall()
    ids = store.ids(rows)  # uuids from PostgreSQL, hex digits from SQLite
    unpack = msgpack.unpackb
    return [
        {
            "forked_from": row[9],
            "game": str(game_id),
            "ruleset": row[1],
            "players": unpack(row[2]),
            "scripted": bool(row[3]),
            "created": row[4],
            "status": row[5],
            "winner": row[6],
            "version": row[7],
            "updated": row[8],
            "to_act": unpack(row[10]) if row[5] == "running" else [],
        }
        for game_id, row in zip(ids, rows, strict=True)
    ]


def listed(entries: Iterable[Entry]) -> list[Entry]:
    """Returns complete entries as a listing shows them: most recently played first, and nobody to act
    in a game that is over."""
    shown = [
        {**e, "to_act": e["to_act"] if e["status"] == "running" else []} for e in entries if "ruleset" in e
    ]
    return sorted(shown, key=lambda e: e["updated"], reverse=True)


def write_built(store: SqlStore, entries: Mapping[UUID, Entry], replace: bool) -> bool:
    """Writes an index built from the events and marks it built, in one transaction that holds the
    index's lock; returns False (writing nothing) when another writer built it meanwhile, unless
    `replace`. A row a save has written since the entries were read (a higher version, or a game
    created since) is kept: events are never deleted, so no stored row is of a game gone."""
    store.create(create_statements(store))  # apart: it copes with writers creating them at once
    with store.transaction(commit=True) as c:  # SQLite: BEGIN IMMEDIATE, the file's write lock
        if store.dialect == POSTGRESQL:
            c.execute(f"LOCK TABLE {FORMAT_TABLE} IN EXCLUSIVE MODE")
        c.execute(f"SELECT format FROM {FORMAT_TABLE}")
        if not replace and any(row[0] == FORMAT for row in c.fetchall()):
            return False
        sets = ", ".join(f"{column} = excluded.{column}" for column in COLUMNS[1:])
        marks = ", ".join("?" * len(COLUMNS))
        rows = [_row(store, game_id, entries[game_id]) for game_id in sorted(entries)]
        if rows:
            c.executemany(
                f"INSERT INTO {TABLE} VALUES ({marks}) ON CONFLICT (game_id) DO UPDATE SET {sets} "
                f"WHERE {TABLE}.version IS NULL OR {TABLE}.version <= excluded.version",
                rows,
            )
        c.execute(f"DELETE FROM {FORMAT_TABLE}")
        c.execute(f"INSERT INTO {FORMAT_TABLE} VALUES (?)", [FORMAT])
        for old in OLD_TABLES:
            c.execute(f"DROP TABLE IF EXISTS {old}")
    return True


def _row(store: SqlStore, game_id: UUID, entry: Entry) -> list[Any]:
    return [
        store.key(game_id),
        entry.get("ruleset"),
        msgpack.packb(entry.get("players", [])),
        entry.get("scripted", False),
        entry.get("created"),
        entry.get("status"),
        entry.get("winner", ""),
        entry.get("version"),
        entry.get("updated"),
        entry.get("forked_from", ""),
        msgpack.packb(entry.get("to_act", [])),
    ]


def entries_of(
    envelopes: Sequence[Mapping[str, Any]], game_id: UUID, holder: Callable[[], GameHolder]
) -> Entry | None:
    """Returns a game's entry built from all its envelopes (from the first, each with its
    `originator_version`) and its fold at the last; None for what is no game."""
    change = change_of(game_id, envelopes, holder)
    return change.apply(None) if change is not None else None
