"""The read side as a process: follows every game's stored events into the views of
`projections.read_views` (game list, boards, results, dice statistics), kept in tables of the store's
own database, SQLite or PostgreSQL.

Per game, exactly once: the read side keeps how far it has taken each game (`event_store.follower_positions`,
no global order of all games' events, which a store distributed by game id cannot keep). A catch-up finds
the games whose head is past its position in one query, then reads each such game's events after its
position, a batch at a time. A batch's view rows and the game's new position are written in ONE
transaction, and the position moves only from the version the batch was read after, so a batch is counted
once even when two runners race (the second skips the game) or one is killed at any moment: a killed
batch's transaction never commits, and the next run starts from the game's position.

PostgreSQL wakes the runner with LISTEN on the channel the library NOTIFYs on each insert; SQLite (no
`subscribe()` in eventsourcing 9.5) is polled.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from eventsourcing.persistence import PersistenceError

from domain.errors import UsageError
from domain.game import GameFold
from domain.hidden import PUBLIC
from event_store.follower_positions import POSITIONS, Behind, GamePositions, Progress, heads, positions_table
from event_store.lazy_log import get_logger
from event_store.recorded import fold_recorded, redacted
from event_store.sql import POSTGRESQL, SqlStore, sql_store_of
from projections.read_views import GameViews, ViewsDict, differences, nested_dice, views_dict, views_of_log

__all__ = ["ReadSide", "differences", "fold_views"]

log = get_logger("nightkeep.read_side")

# The follower's name among the positions; the views are rebuilt from zero under a new name whenever
# what they hold changes.
READ_SIDE = "read-side-v1"
GAMES, BOARDS = "nightkeep_read_games", "nightkeep_read_boards"
RESULTS, DICE = "nightkeep_read_results", "nightkeep_read_dice"
VIEWS = (GAMES, BOARDS, RESULTS, DICE)
# The global position of the read side before positions were per game (dropped with its views).
OLD_POSITION = "nightkeep_read_position"
DEFAULT_BATCH = 200
# Games whose fold is kept between batches; one not kept is folded again from the store when its next
# event comes (once per game per run at most, while it stays among the most recently played).
KEPT_GAMES = 256
# The longest a wait for new events sleeps before it looks at `should_stop` again.
WAIT_SLICE = 0.2


def _tables(store: SqlStore) -> list[str]:
    return [
        positions_table(store),
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
    game's position since the batch was read."""


class ReadSide:
    """Keeps the read side's views of a GameService's store, game by game, batch by batch."""

    def __init__(self, service: Any, batch_size: int = DEFAULT_BATCH) -> None:
        store = sql_store_of(service.recorder)
        if store is None:
            raise UsageError("the read side is kept in a SQLite or PostgreSQL store, not in memory")
        self._service = service
        self._store = store
        self._batch_size = batch_size
        self._positions = GamePositions(store, READ_SIDE)
        self._kept: OrderedDict[str, GameViews] = OrderedDict()
        # A command that only reads (it may be on a hot standby) makes nothing: where the read side never
        # ran, it finds no views and no positions, as a runner would find them before its first batch.
        self._absent = False
        if getattr(service, "reads_only", False):
            self._absent = not _has_tables(store)
            return
        store.create(_tables(store))
        with store.transaction(commit=True) as c:
            # Views without a position are those of a store made before positions were per game (or of
            # another name): they are counted from zero again, so they go first.
            if not self._positions.has_any(c):
                for table in VIEWS:
                    c.execute(f"DELETE FROM {table}")
                c.execute(f"DROP TABLE IF EXISTS {OLD_POSITION}")

    @property
    def dialect(self) -> str:
        """Names the database the views are kept in ("sqlite" or "postgresql")."""
        return self._store.dialect

    def position(self) -> int:
        """Returns how many events the views include, over every game (0 before any)."""
        return self.progress().events

    def progress(self) -> Progress:
        """Returns how many games and events the views include, and how many games they are behind on."""
        if self._absent:
            return Progress(0, 0, len(heads(self._store)))
        return self._positions.progress()

    def positions(self) -> dict[str, int]:
        """Returns each game's position: the version the views include it up to."""
        if self._absent:
            return {}
        return {str(game_id): version for game_id, version in self._positions.taken().items()}

    def run_batch(self) -> int:
        """Folds the next batch of one game the views are behind on into them and writes it with the
        game's new position in one transaction; returns how many events it took (0: caught up)."""
        for game in self._positions.behind():
            taken, _ = self._take_batch(game.game_id, game.position, game.head)
            if taken:
                return taken
        return 0

    def catch_up(self, should_stop: Callable[[], bool] = lambda: False) -> int:
        """Takes every game the views are behind on to its head, batch by batch (until `should_stop`);
        returns how many events it took."""
        taken = 0
        while not should_stop() and (behind := self._positions.behind()):
            for game in behind:
                if should_stop():
                    break
                taken += self._take_game(game, should_stop)
        return taken

    def follow(self, poll: float, should_stop: Callable[[], bool]) -> int:
        """Catches up, then waits for new events and takes them, until `should_stop`; returns how many
        events it took."""
        taken = 0
        with self._waiter(poll) as wait:
            while not should_stop():
                taken += self.catch_up(should_stop)
                if not should_stop():
                    wait(should_stop)
        return taken

    def rebuild(self) -> None:
        """Forgets every view and position in one transaction (the next run starts from zero)."""
        with self._store.transaction(commit=True) as c:
            for table in VIEWS:
                c.execute(f"DELETE FROM {table}")
            self._positions.forget_all(c)
        self._kept.clear()
        log.info("read_side_cleared")

    def views_at(self, game_id: str | None = None) -> tuple[dict[str, int], ViewsDict]:
        """Returns each game's position and the views as stored there (read again if a batch came
        between)."""
        while True:
            before = self.positions()
            views = self.views(game_id)
            if self.positions() == before:
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

    def _take_game(self, game: Behind, should_stop: Callable[[], bool]) -> int:
        """Takes one game from its position to its head, batch by batch; returns how many events it took
        (stopping early when another runner moved the game's position: it is taking the game)."""
        taken, position = 0, game.position
        while position < game.head and not should_stop():
            done, moved = self._take_batch(game.game_id, position, game.head)
            if moved:
                break
            taken, position = taken + done, min(game.head, position + self._batch_size)
        return taken

    def _take_batch(self, game_id: UUID, start: int, head: int) -> tuple[int, bool]:
        """Folds a game's events after `start` (a batch, up to `head`) and writes them with the new
        position; returns how many events it took, and whether another runner had moved the position."""
        end = min(head, start + self._batch_size)
        key = str(game_id)
        try:
            views = self._views_after(game_id, start)
            # Only the game's own topics are read: a head of anything else moves the position on alone.
            events = self._service.recorded_events(game_id, gt=start, lte=end)
            for recorded in events:
                views.apply(recorded)
            self._write_batch(game_id, start, end, views)
        except PositionMoved:
            log.info("read_side_position_moved", game=key, read_after=start)
            self._kept.pop(key, None)  # another runner is ahead: the fold kept here may be behind it
            return 0, True
        except BaseException:
            self._kept.pop(key, None)  # the fold ran ahead of what was stored
            raise
        self._keep(views)
        log.info("read_side_batch", game=key, events=len(events), version=end)
        return len(events), False

    def _views_after(self, game_id: UUID, version: int) -> GameViews:
        """Returns a game's views folded up to `version`, with no dice left to count."""
        kept = self._kept.pop(str(game_id), None)
        if kept is not None and kept.fold.version == version:
            return kept
        if version == 0:
            views = GameViews(str(game_id))
            views.fold.rewind_source = self._public_fold(game_id)
            return views
        # Not kept (a new run, or not played for a while): folded once from its stored events, whose
        # dice the views already count.
        views = views_of_log(str(game_id), self._service.recorded_events(game_id, gt=0, lte=version))
        views.new_dice.clear()
        views.fold.rewind_source = self._public_fold(game_id)
        return views

    def _public_fold(self, game_id: UUID) -> Callable[[int], GameFold]:
        """Returns how a game's public fold returns to an earlier event (a rollback): from the store."""
        service = self._service
        return lambda n: fold_recorded(redacted(service.recorded_events(game_id, lte=n), PUBLIC))

    def _write_batch(self, game_id: UUID, start: int, end: int, views: GameViews) -> None:
        listed = [views] if views.is_listed else []
        with self._store.transaction(commit=True) as c:
            # Moved from `start` or not at all: another runner that took the same batch has left the
            # position at `end` too, and its batch must not be counted twice.
            if not self._positions.move(c, game_id, start, end):
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
            dice = [(views.game_id, *key, count) for key, count in sorted(views.new_dice.items())]
            if dice:
                c.executemany(
                    f"INSERT INTO {DICE} VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, player, purpose, face) "
                    f"DO UPDATE SET rolls = {DICE}.rolls + excluded.rolls",
                    dice,
                )

    def _keep(self, views: GameViews) -> None:
        views.new_dice.clear()  # written: counted in the store now
        self._kept[views.game_id] = views
        self._kept.move_to_end(views.game_id)
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
            c.execute(f"SELECT count(*) FROM {GAMES}")
            c.fetchall()
            c.execute(f"SELECT count(*) FROM {POSITIONS} WHERE follower = ?", (READ_SIDE,))
            c.fetchall()
    except (PersistenceError, sqlite3.Error):
        return False
    return True


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


def fold_views(service: Any, upto: Mapping[str, int] | None = None) -> ViewsDict:
    """Computes every view from zero, of each game's events up to its position in `upto` (default:
    every event stored): each game's log read from the store and folded at once (the reference the
    running views must equal at their positions)."""
    store = sql_store_of(service.recorder)
    if store is None:
        raise UsageError("the read side is kept in a SQLite or PostgreSQL store, not in memory")
    ends = {
        game_id: head if upto is None else min(head, upto.get(str(game_id), 0))
        for game_id, head in heads(store).items()
    }
    logs = ((str(g), service.recorded_events(g, gt=0, lte=end)) for g, end in ends.items() if end > 0)
    return views_dict(views_of_log(game_id, log) for game_id, log in logs if log)
