"""The game index: one row per game (ruleset, players, events, status, winner), kept up to date by
following the store's notification log with a tracking position, so it updates incrementally and can
be rebuilt from zero at any time.

The index catches up on demand (SQLite's recorder cannot push notifications: `subscribe()` is not
implemented in eventsourcing 9.5): it reads notifications after its tracking position in batches and
writes each batch's rows together with the new position in one transaction, in the store's own database
(SQLite or PostgreSQL; a dict only for the in-memory store). Two processes catching up at once write a
batch once: the library's tracking refuses a position already passed, and the loser reads on from there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

import msgpack
from eventsourcing.persistence import IntegrityError, ProgrammingError, Tracking
from eventsourcing.popo import POPOTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from eventsourcing.utils import get_topic

from domain.game import STOPPED, Game, game_status
from event_store.sql import SQLITE, SQLiteStore, SqlStore, sql_store_of

# The index is rebuilt from zero under a new name whenever what an entry holds changes (v2: stopped).
INDEX_NAME = "nightkeep-game-index-v2"
TABLE = "nightkeep_game_index"
# Who is to act in a running game at a version: only the ruleset can tell, from the state (a fold), so
# it is worked out for the games a listing shows and kept, keyed by version (a fact that never changes).
TO_ACT_TABLE = "nightkeep_game_to_act"
ENDINGS = {"GameWon": "player", "GameEnded": "winner"}
# A short id is at least this long (as git's are 7): long enough that few games of a store share it.
SHORT_ID = 8

Entry = dict[str, Any]


def index_step(entry: Entry | None, game_id: str, version: int, envelope: dict[str, Any]) -> Entry | None:
    """Folds one stored envelope of a game into its index entry (None until GameCreated is seen)."""
    kind = envelope["type"]
    time = envelope["timestamp"].isoformat()
    if kind == "ForkedFrom" and version == 1:
        # A fork's own GameCreated is a copy that follows; remember where the fork came from.
        fields = envelope["fields"]
        return {"forked_from": f"{fields['game']}@{fields['version']}"}
    if kind == "GameCreated":
        fields = envelope["fields"]
        forked_from = entry.get("forked_from", "") if entry else ""
        entry = {
            "forked_from": forked_from,
            "game": game_id,
            "ruleset": fields["ruleset"],
            "players": [seat["name"] for seat in fields["players"]],
            "scripted": fields["scripted"],
            "created": time,
            "status": "running",
            "winner": "",
        }
    if entry is None:
        return None
    if kind in ENDINGS:
        entry["status"] = "finished"
        entry["winner"] = envelope["fields"][ENDINGS[kind]]
    elif kind == "SeedRevealed" and entry["status"] == "running":
        entry["status"] = STOPPED  # revealed before the end: the game takes no more actions
    entry["version"] = version
    entry["updated"] = time
    return entry


class SqlIndexTables:
    """The index's rows and who is to act, in the game store's own database (SQLite or PostgreSQL); the
    tracking position is the library's, written in the transaction of each batch's rows."""

    store: SqlStore

    def _track(self, cursor: Any, tracking: Tracking) -> None:
        raise NotImplementedError  # the library's tracking recorders spell it for their database

    def create_index_tables(self) -> None:
        """Creates the index's own tables if they do not exist yet."""
        blob = self.store.blob
        self.store.create(
            [
                f"CREATE TABLE IF NOT EXISTS {TABLE} (game_id TEXT PRIMARY KEY, entry {blob})",
                f"CREATE TABLE IF NOT EXISTS {TO_ACT_TABLE} "
                f"(game_id TEXT PRIMARY KEY, version BIGINT, to_act {blob})",
            ]
        )

    def load(self, game_ids: Iterable[str]) -> dict[str, Entry]:
        """Returns the stored entries of the given games."""
        ids = list(game_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        with self.store.transaction(commit=False) as c:
            c.execute(f"SELECT game_id, entry FROM {TABLE} WHERE game_id IN ({marks})", ids)
            return {row[0]: msgpack.unpackb(row[1]) for row in c.fetchall()}

    def entries(self) -> list[Entry]:
        """Returns every entry."""
        with self.store.transaction(commit=False) as c:
            c.execute(f"SELECT entry FROM {TABLE}")
            return [msgpack.unpackb(row[0]) for row in c.fetchall()]

    def save_batch(self, entries: dict[str, Entry], tracking: Tracking) -> None:
        """Writes changed entries and the new tracking position in one transaction; raises IntegrityError
        (and writes nothing) when another process has tracked this position already."""
        # Rows in one order in every process: two processes writing one batch at once wait for each
        # other row by row instead of deadlocking.
        rows = [(game_id, msgpack.packb(entries[game_id])) for game_id in sorted(entries)]
        with self.store.transaction(commit=True) as c:
            c.executemany(
                f"INSERT INTO {TABLE} VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET entry = excluded.entry",
                rows,
            )
            self._track(c, tracking)

    def load_to_act(self, game_ids: list[str]) -> dict[str, tuple[int, list[str]]]:
        """Returns who was found to act in the given games, and at which version."""
        with self.store.transaction(commit=False) as c:
            c.execute(f"SELECT game_id, version, to_act FROM {TO_ACT_TABLE}")
            wanted = set(game_ids)
            return {row[0]: (row[1], msgpack.unpackb(row[2])) for row in c.fetchall() if row[0] in wanted}

    def save_to_act(self, found: dict[str, tuple[int, list[str]]]) -> None:
        """Keeps who is to act in games at versions."""
        rows = [(game, version, msgpack.packb(to_act)) for game, (version, to_act) in sorted(found.items())]
        with self.store.transaction(commit=True) as c:
            c.executemany(
                f"INSERT INTO {TO_ACT_TABLE} VALUES (?, ?, ?) ON CONFLICT (game_id) "
                "DO UPDATE SET version = excluded.version, to_act = excluded.to_act",
                rows,
            )

    def clear(self) -> None:
        """Forgets every entry and the tracking position."""
        with self.store.transaction(commit=True) as c:
            c.execute(f"DELETE FROM {TO_ACT_TABLE}")
            c.execute(f"DELETE FROM {TABLE}")
            c.execute(f"DELETE FROM {self.tracking_table()} WHERE application_name=?", [INDEX_NAME])

    def tracking_table(self) -> str:
        """Names the library's tracking table."""
        raise NotImplementedError


class SQLiteGameIndexRecorder(SqlIndexTables, SQLiteTrackingRecorder):
    """Keeps index rows and the tracking position in the game store's own SQLite file."""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        super().__init__(datastore)
        self.store = SQLiteStore(datastore)

    def _track(self, cursor: Any, tracking: Tracking) -> None:
        self._insert_tracking(cursor, tracking)

    def tracking_table(self) -> str:
        return "tracking"


class MemoryGameIndexRecorder(POPOTrackingRecorder):
    """The same index for the in-memory store."""

    def __init__(self) -> None:
        super().__init__()
        self._entries: dict[str, Entry] = {}
        self._to_act: dict[str, tuple[int, list[str]]] = {}

    def load(self, game_ids: Iterable[str]) -> dict[str, Entry]:
        return {g: dict(self._entries[g]) for g in game_ids if g in self._entries}

    def entries(self) -> list[Entry]:
        return [dict(e) for e in self._entries.values()]

    def save_batch(self, entries: dict[str, Entry], tracking: Tracking) -> None:
        with self._database_lock:
            self._assert_tracking_uniqueness(tracking)
            self._entries.update(entries)
            self._insert_tracking(tracking)

    def load_to_act(self, game_ids: list[str]) -> dict[str, tuple[int, list[str]]]:
        return {g: self._to_act[g] for g in game_ids if g in self._to_act}

    def save_to_act(self, found: dict[str, tuple[int, list[str]]]) -> None:
        self._to_act.update(found)

    def clear(self) -> None:
        self._to_act.clear()
        self._entries.clear()
        self._max_tracking_ids[INDEX_NAME] = None


class GameIndex:
    """Follows a GameService's notification log into one entry per game."""

    def __init__(self, service: Any, batch_size: int = 2000) -> None:
        self._service = service
        self._batch_size = batch_size
        store = sql_store_of(service.recorder)
        if store is None:
            self._view: Any = service.__dict__.setdefault("_memory_game_index", MemoryGameIndexRecorder())
        else:
            self._view = _sql_view(store)
        self._topics = [get_topic(Game.Created), get_topic(Game.Recorded)]

    @property
    def position(self) -> int:
        """Returns the last notification id the index has processed (0 before any)."""
        return self._view.max_tracking_id(INDEX_NAME) or 0

    def catch_up(self) -> int:
        """Processes every notification after the tracking position; returns how many it read."""
        decode = self._service.mapper.transcoder.decode
        processed = 0
        while True:
            batch = self._service.recorder.select_notifications(
                self.position + 1, self._batch_size, topics=self._topics
            )
            if not batch:
                return processed
            # A game's events come in runs: name each game once per batch, not once per event.
            names = {uuid: (str(uuid), uuid.hex) for uuid in {note.originator_id for note in batch}}
            known = self._view.load(key for _, key in names.values())
            changed: dict[str, Entry] = {}
            for note in batch:
                game_id, key = names[note.originator_id]
                entry = index_step(known.get(key), game_id, note.originator_version, decode(note.state))
                if entry is not None:
                    known[key] = changed[key] = entry
            try:
                self._view.save_batch(changed, Tracking(INDEX_NAME, batch[-1].id))
            except IntegrityError:
                # Another process caught the index up past this batch first; carry on from there.
                continue
            processed += len(batch)

    def find_who_acts(self, entries: Iterable[Entry]) -> None:
        """Sets `to_act` in each entry: nobody in a game that is over, else as kept for its version, else
        from a fold of the game at that version (then kept, so each version is folded once)."""
        entries = list(entries)
        running = [e for e in entries if e["status"] == "running"]
        kept = self._view.load_to_act([e["game"] for e in running])
        found: dict[str, tuple[int, list[str]]] = {}
        for entry in entries:
            version, to_act = kept.get(entry["game"], (0, []))
            if entry["status"] == "running" and version != entry["version"]:
                fold = self._service.fold(UUID(entry["game"]), entry["version"])
                to_act = list(game_status(fold)["to_act"])
                found[entry["game"]] = (entry["version"], to_act)
            entry["to_act"] = to_act if entry["status"] == "running" else []
        if found:
            self._view.save_to_act(found)

    def games(self) -> list[Entry]:
        """Catches up, then returns every game's entry, most recently updated first."""
        self.catch_up()
        # A fork's entry is complete once its copied GameCreated is seen (the same save, maybe a later batch).
        games = [e for e in self._view.entries() if "ruleset" in e]
        return sorted(games, key=lambda e: e["updated"], reverse=True)

    def rebuild(self) -> int:
        """Forgets everything and rebuilds the index from the first notification."""
        self._view.clear()
        return self.catch_up()


def _sql_view(store: SqlStore) -> SqlIndexTables:
    """Returns the index recorder in a SQL store, its tables created if they were not there."""
    datastore: Any = getattr(store, "datastore")  # noqa: B009  (both stores keep the library's datastore)
    view: SqlIndexTables
    if store.dialect == SQLITE:
        view = SQLiteGameIndexRecorder(datastore)
    else:
        from projections.game_index_postgres import PostgresGameIndexRecorder  # psycopg: only here

        view = PostgresGameIndexRecorder(datastore)
    for attempt in range(3):
        try:
            view.create_table()
            view.create_index_tables()
            break
        except (IntegrityError, ProgrammingError):
            if attempt == 2:  # another process created the tables at the same moment, twice over
                raise
    return view


def short_ids(game_ids: Sequence[str]) -> dict[str, str]:
    """Returns each id's shortest prefix of at least SHORT_ID characters that no other id shares."""
    ordered = sorted(game_ids)
    # How many leading characters each id shares with the next one in order (only its neighbours can
    # share more with it than any other id does).
    shared = [_common_prefix(a, b) for a, b in zip(ordered, ordered[1:], strict=False)]
    shortest = {}
    for i, game_id in enumerate(ordered):
        most = max(shared[i - 1] if i else 0, shared[i] if i < len(shared) else 0)
        shortest[game_id] = game_id[: max(SHORT_ID, most + 1)]
    return shortest


def _common_prefix(a: str, b: str) -> int:
    """Returns how many leading characters two ids share (any number below SHORT_ID counts as 0)."""
    if a[:SHORT_ID] != b[:SHORT_ID]:
        return 0  # the usual case, decided at once
    n = SHORT_ID
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def is_running(entry: Entry) -> bool:
    """Tells whether a game is still to be played on here: running, and not a copy that cannot go on."""
    return bool(entry["status"] == "running" and ("copy_of" not in entry or entry.get("replica")))


def select_games(entries: Iterable[Entry], running: bool = False, ruleset: str | None = None) -> list[Entry]:
    """Returns the entries that pass the filters, in their order."""
    return [
        e for e in entries if (not running or is_running(e)) and (ruleset is None or e["ruleset"] == ruleset)
    ]
