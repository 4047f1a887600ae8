"""The read side as a process: follows the store's notification log into the views of
`projections.read_views` (game list, boards, results, dice statistics), kept in tables of the store's
own database, SQLite or PostgreSQL.

Exactly once: each batch's view rows and the new tracking position are written in ONE transaction,
and the position moves only from the value the batch was read after (`UPDATE ... WHERE
notification_id = start`), so a batch is counted once even when two runners race or one is killed at
any moment: a killed batch's transaction never commits, and the next run starts from the position.

The position is the library's `Tracking` (application name, notification id). The library's tracking
recorders keep it in their own table through their own connection handling; ours shares the
transaction of the view rows through `event_store.sql`, so it is one row of our own table, written
portably. PostgreSQL wakes the runner with LISTEN on the channel the library NOTIFYs on each insert;
SQLite (no `subscribe()` in eventsourcing 9.5) is polled.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from eventsourcing.persistence import PersistenceError, Tracking

from domain.errors import UsageError
from domain.game import GameFold
from domain.hidden import PUBLIC
from event_store.lazy_log import get_logger
from event_store.recorded import GAME_TOPICS, fold_recorded, recorded_from_envelope, redacted
from event_store.sql import POSTGRESQL, Cursor, SqlStore, sql_store_of
from projections.read_views import GameViews, ViewsDict, differences, nested_dice, views_dict, views_of_log

__all__ = ["ReadSide", "differences", "fold_views"]

log = get_logger("nightkeep.read_side")

# The views are rebuilt from zero under a new name whenever what they hold changes.
READ_SIDE = "nightkeep-read-side-v1"
POSITION, GAMES, BOARDS = "nightkeep_read_position", "nightkeep_read_games", "nightkeep_read_boards"
RESULTS, DICE = "nightkeep_read_results", "nightkeep_read_dice"
DEFAULT_BATCH = 200
# Games whose fold is kept between batches; one not kept is folded again from the store when its next
# event comes (once per game per run at most, while it stays among the most recently played).
KEPT_GAMES = 256
# The longest a wait for new events sleeps before it looks at `should_stop` again.
WAIT_SLICE = 0.2


def _tables(store: SqlStore) -> list[str]:
    return [
        f"CREATE TABLE IF NOT EXISTS {POSITION} (name TEXT PRIMARY KEY, notification_id BIGINT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {GAMES} (game_id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, "
        "players TEXT NOT NULL, status TEXT NOT NULL, winner TEXT NOT NULL, events INTEGER NOT NULL, "
        "updated TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {BOARDS} (game_id TEXT PRIMARY KEY, version INTEGER NOT NULL, "
        "board TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {RESULTS} (game_id TEXT NOT NULL, player TEXT NOT NULL, "
        "outcome TEXT NOT NULL, PRIMARY KEY (game_id, player))",
        f"CREATE TABLE IF NOT EXISTS {DICE} (game_id TEXT NOT NULL, player TEXT NOT NULL, "
        "purpose TEXT NOT NULL, face INTEGER NOT NULL, rolls BIGINT NOT NULL, "
        "PRIMARY KEY (game_id, player, purpose, face))",
    ]


class PositionMoved(Exception):
    """Raised inside a batch's transaction (which is then rolled back) when another runner moved the
    tracking position since the batch was read."""


class ReadSide:
    """Keeps the read side's views of a GameService's store, batch by batch."""

    def __init__(self, service: Any, batch_size: int = DEFAULT_BATCH) -> None:
        store = sql_store_of(service.recorder)
        if store is None:
            raise UsageError("the read side is kept in a SQLite or PostgreSQL store, not in memory")
        self._service = service
        self._store = store
        self._batch_size = batch_size
        self._kept: OrderedDict[str, GameViews] = OrderedDict()
        self._written: int | None = None
        # A command that only reads (it may be on a hot standby) makes nothing: where the read side never
        # ran, it finds no views at position 0, as a runner would find them before its first batch.
        self._absent = False
        if getattr(service, "reads_only", False):
            self._absent = not _has_tables(store)
            return
        store.create(_tables(store))
        with store.transaction(commit=True) as c:
            c.execute(f"INSERT INTO {POSITION} VALUES (?, 0) ON CONFLICT (name) DO NOTHING", (READ_SIDE,))

    @property
    def dialect(self) -> str:
        """Names the database the views are kept in ("sqlite" or "postgresql")."""
        return self._store.dialect

    def position(self) -> int:
        """Returns the last notification id the views include (0 before any)."""
        if self._absent:
            return 0
        with self._store.transaction(commit=False) as c:
            return _position(c)

    def tracking(self) -> Tracking:
        """Returns the tracking record of the views: the library's (application name, notification id)."""
        return Tracking(READ_SIDE, self.position())

    def run_batch(self) -> int:
        """Folds the next batch of notifications into the views and writes them with the new position
        in one transaction; returns how many notifications it took (0: caught up)."""
        while True:
            # The position this runner last wrote is the one to go on from; the write checks it still is.
            start = self._written if self._written is not None else self.position()
            notes = self._service.recorder.select_notifications(
                start + 1, self._batch_size, topics=GAME_TOPICS
            )
            if not notes:
                return 0
            touched: dict[str, GameViews] = {}
            try:
                self._fold_batch(notes, touched)
                self._write_batch(start, notes[-1].id, list(touched.values()))
            except PositionMoved:
                log.info("read_side_position_moved", read_after=start)
                self._forget()  # another runner is ahead: the folds kept here may be behind it
                continue
            except BaseException:
                self._forget()  # the folds ran ahead of what was stored
                raise
            self._written = notes[-1].id
            self._keep(touched)
            log.info("read_side_batch", events=len(notes), games=len(touched), position=notes[-1].id)
            return len(notes)

    def catch_up(self, should_stop: Callable[[], bool] = lambda: False) -> int:
        """Runs batches until no notification is left (or `should_stop`); returns how many it took."""
        taken = 0
        while not should_stop():
            done = self.run_batch()
            if not done:
                break
            taken += done
        return taken

    def follow(self, poll: float, should_stop: Callable[[], bool]) -> int:
        """Catches up, then waits for new events and takes them, until `should_stop`; returns how many
        notifications it took."""
        taken = 0
        with self._waiter(poll) as wait:
            while not should_stop():
                taken += self.catch_up(should_stop)
                if not should_stop():
                    wait(should_stop)
        return taken

    def rebuild(self) -> None:
        """Forgets every view and the tracking position in one transaction (the next run starts from 0)."""
        with self._store.transaction(commit=True) as c:
            for table in (GAMES, BOARDS, RESULTS, DICE):
                c.execute(f"DELETE FROM {table}")
            c.execute(f"UPDATE {POSITION} SET notification_id = 0 WHERE name = ?", (READ_SIDE,))
        self._forget()
        log.info("read_side_cleared")

    def views_at(self, game_id: str | None = None) -> tuple[int, ViewsDict]:
        """Returns the position and the views as stored there (read again if a batch came between)."""
        while True:
            before = self.position()
            views = self.views(game_id)
            if self.position() == before:
                return before, views

    def views(self, game_id: str | None = None) -> ViewsDict:
        """Returns the views as stored (of every game, or of one), in `read_views.views_dict`'s shape."""
        where, params = ("WHERE game_id = ?", (game_id,)) if game_id else ("", ())
        out: ViewsDict = {"games": {}, "boards": {}, "results": {}, "dice": {}}
        if self._absent:
            return out
        with self._store.transaction(commit=False) as c:
            c.execute(
                f"SELECT game_id, ruleset, players, status, winner, events, updated FROM {GAMES} {where}",
                params,
            )
            for gid, ruleset, players, status, winner, events, updated in c.fetchall():
                out["games"][gid] = {
                    "ruleset": ruleset,
                    "players": json.loads(players),
                    "status": status,
                    "winner": winner,
                    "events": events,
                    "updated": updated,
                }
            c.execute(f"SELECT game_id, version, board FROM {BOARDS} {where}", params)
            out["boards"] = {
                gid: {"version": version, "board": board} for gid, version, board in c.fetchall()
            }
            c.execute(f"SELECT game_id, player, outcome FROM {RESULTS} {where}", params)
            for gid, player, outcome in c.fetchall():
                out["results"].setdefault(gid, {})[player] = outcome
            c.execute(f"SELECT game_id, player, purpose, face, rolls FROM {DICE} {where}", params)
            counts: dict[str, list[tuple[tuple[str, str, int], int]]] = {}
            for gid, player, purpose, face, rolls in c.fetchall():
                counts.setdefault(gid, []).append(((player, purpose, face), rolls))
            out["dice"] = {gid: nested_dice(rows) for gid, rows in counts.items()}
        return out

    # --- one batch -------------------------------------------------------------------------------------

    def _fold_batch(self, notes: Sequence[Any], touched: dict[str, GameViews]) -> None:
        decode = self._service.mapper.transcoder.decode
        for note in notes:
            game_id = str(note.originator_id)
            views = touched.get(game_id)
            if views is None:
                views = touched[game_id] = self._views_before(note.originator_id, note.originator_version)
            views.apply(recorded_from_envelope(note.originator_version, decode(note.state)))

    def _views_before(self, game_id: UUID, version: int) -> GameViews:
        """Returns a game's views folded up to just before `version`, with no dice left to count."""
        kept = self._kept.pop(str(game_id), None)
        if kept is not None and kept.fold.version == version - 1:
            return kept
        if version == 1:
            views = GameViews(str(game_id))
            views.fold.rewind_source = self._public_fold(game_id)
            return views
        # Not kept (a new run, or not played for a while): folded once from its stored events, whose
        # dice the views already count.
        views = views_of_log(str(game_id), self._service.recorded_events(game_id, lte=version - 1))
        views.new_dice.clear()
        views.fold.rewind_source = self._public_fold(game_id)
        return views

    def _public_fold(self, game_id: UUID) -> Callable[[int], GameFold]:
        """Returns how a game's public fold returns to an earlier event (a rollback): from the store."""
        service = self._service
        return lambda n: fold_recorded(redacted(service.recorded_events(game_id, lte=n), PUBLIC))

    def _write_batch(self, start: int, end: int, games: list[GameViews]) -> None:
        listed = [views for views in games if views.is_listed]
        with self._store.transaction(commit=True) as c:
            c.execute(
                f"UPDATE {POSITION} SET notification_id = ? WHERE name = ? AND notification_id = ?",
                (end, READ_SIDE, start),
            )
            # The row must have moved from `start` here: another runner that took the same batch has
            # left the position at `end` too, and its batch must not be counted twice.
            if c.rowcount != 1 or _position(c) != end:
                raise PositionMoved()
            c.executemany(
                f"INSERT INTO {GAMES} VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                "ruleset = excluded.ruleset, players = excluded.players, status = excluded.status, "
                "winner = excluded.winner, events = excluded.events, updated = excluded.updated",
                [_game_row(views) for views in listed],
            )
            c.executemany(
                f"INSERT INTO {BOARDS} VALUES (?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                "version = excluded.version, board = excluded.board",
                [(views.game_id, *views.board().values()) for views in listed],
            )
            results = [
                (v.game_id, player, outcome) for v in listed for player, outcome in v.results().items()
            ]
            if results:
                c.executemany(
                    f"INSERT INTO {RESULTS} VALUES (?, ?, ?) ON CONFLICT (game_id, player) DO UPDATE SET "
                    "outcome = excluded.outcome",
                    results,
                )
            dice = [(v.game_id, *key, count) for v in games for key, count in sorted(v.new_dice.items())]
            if dice:
                c.executemany(
                    f"INSERT INTO {DICE} VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, player, purpose, face) "
                    f"DO UPDATE SET rolls = {DICE}.rolls + excluded.rolls",
                    dice,
                )

    def _forget(self) -> None:
        self._kept.clear()
        self._written = None

    def _keep(self, touched: dict[str, GameViews]) -> None:
        for game_id, views in touched.items():
            views.new_dice.clear()  # written: counted in the store now
            self._kept[game_id] = views
            self._kept.move_to_end(game_id)
        while len(self._kept) > KEPT_GAMES:
            self._kept.popitem(last=False)

    # --- waiting for new events ------------------------------------------------------------------------

    @contextmanager
    def _waiter(self, poll: float) -> Iterator[Callable[[Callable[[], bool]], None]]:
        """Yields a function that waits up to `poll` seconds for new events (or until `should_stop`)."""
        if self._store.dialect != POSTGRESQL:

            def sleep(should_stop: Callable[[], bool]) -> None:
                deadline = time.monotonic() + poll
                while not should_stop() and (left := deadline - time.monotonic()) > 0:
                    time.sleep(min(left, WAIT_SLICE))

            yield sleep
            return
        recorder = self._service.recorder
        from psycopg import sql as pgsql

        with recorder.datastore.get_connection() as conn:
            # The library NOTIFYs this channel in every transaction that inserts events.
            conn.execute(pgsql.SQL("LISTEN {0}").format(pgsql.Identifier(recorder.channel_name)))

            def listen(should_stop: Callable[[], bool]) -> None:
                deadline = time.monotonic() + poll
                while not should_stop() and (left := deadline - time.monotonic()) > 0:
                    if any(True for _ in conn.notifies(timeout=min(left, WAIT_SLICE), stop_after=1)):
                        return

            try:
                yield listen
            finally:
                conn.execute("UNLISTEN *")


def _has_tables(store: SqlStore) -> bool:
    """Tells whether the read side's tables are in a store (a runner made them), without making them."""
    try:
        with store.transaction(commit=False) as c:
            c.execute(f"SELECT notification_id FROM {POSITION} WHERE name = ?", (READ_SIDE,))
            c.fetchall()
    except (PersistenceError, sqlite3.Error):
        return False
    return True


def _position(c: Cursor) -> int:
    c.execute(f"SELECT notification_id FROM {POSITION} WHERE name = ?", (READ_SIDE,))
    row = c.fetchone()
    return int(row[0]) if row else 0


def _game_row(views: GameViews) -> tuple[Any, ...]:
    entry = views.entry()
    return (
        views.game_id,
        entry["ruleset"],
        json.dumps(entry["players"]),
        entry["status"],
        entry["winner"],
        entry["events"],
        entry["updated"],
    )


def fold_views(service: Any, upto: int | None = None) -> ViewsDict:
    """Computes every view from zero, of the events up to notification `upto` (default: all): each
    game's log up to there, read from the store and folded at once (the reference the running views
    must equal at their position)."""
    last_version: dict[UUID, int] = {}
    start = 1
    while notes := service.recorder.select_notifications(start, 1000, stop=upto, topics=GAME_TOPICS):
        last_version.update((note.originator_id, note.originator_version) for note in notes)
        start = notes[-1].id + 1
    return views_dict(
        views_of_log(str(g), service.recorded_events(g, lte=version)) for g, version in last_version.items()
    )
