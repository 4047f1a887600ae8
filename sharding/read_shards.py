"""The read side of a shard map: every shard keeps its own views and position in its own database (as one
store does), and what is read spans them all.

`nightkeep projections run` on a shard map follows every shard at once (a thread per shard, each its own
`ReadSide` on its own store); `show` and `check` merge the shards' views. A game's views live with its
events on its shard, so each batch stays one transaction of one database, exactly once as on one store.
Positions are per game, each kept on the game's shard; what a sharded read side reports sums the shards.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from event_store.follower_positions import Progress
from projections.read_side import DEFAULT_BATCH, ReadSide, fold_views
from projections.read_views import ViewsDict
from sharding.shards import ShardedService


class ShardedReadSide:
    """The read sides of every shard of a map, run and read as one."""

    def __init__(self, sharded: ShardedService, batch_size: int = DEFAULT_BATCH) -> None:
        self._sides = {shard.name: ReadSide(shard.service, batch_size) for shard in sharded.shards}

    def position(self) -> int:
        """Returns how many events the views include, over all shards."""
        return sum(side.position() for side in self._sides.values())

    def progress(self) -> Progress:
        """Returns how far the views have come, over all shards."""
        parts = [side.progress() for side in self._sides.values()]
        return Progress(*(sum(getattr(p, name) for p in parts) for name in ("games", "events", "behind")))

    def rebuild(self) -> None:
        """Clears every shard's views and position."""
        for side in self._sides.values():
            side.rebuild()

    def catch_up(self, should_stop: Callable[[], bool] = lambda: False) -> int:
        """Catches every shard's views up, one shard after another; returns how many it took."""
        return sum(side.catch_up(should_stop) for side in self._sides.values())

    def follow(self, poll: float, should_stop: Callable[[], bool]) -> int:
        """Follows every shard at once until `should_stop`; a shard that fails stops the others and its
        error is raised."""
        failed = threading.Event()

        def stop() -> bool:
            return failed.is_set() or should_stop()

        def follow_one(side: ReadSide) -> int:
            try:
                return side.follow(poll, stop)
            except BaseException:
                failed.set()
                raise

        with ThreadPoolExecutor(max_workers=len(self._sides), thread_name_prefix="read-shard") as pool:
            running = [pool.submit(follow_one, side) for side in self._sides.values()]
            return sum(future.result() for future in running)

    def views(self, game_id: str | None = None) -> ViewsDict:
        """Returns the views of every shard (or of one game) merged, in `ReadSide.views`' shape."""
        return _merged(side.views(game_id) for side in self._sides.values())

    def views_at(self, game_id: str | None = None) -> tuple[dict[str, int], ViewsDict]:
        """Returns every shard's views merged and the games' positions they were read at (each shard's
        views and positions are read together, as `ReadSide.views_at` does)."""
        parts = [side.views_at(game_id) for side in self._sides.values()]
        positions = {game: version for part, _ in parts for game, version in part.items()}
        return positions, _merged(views for _, views in parts)


def read_side_for(service: Any, batch_size: int = DEFAULT_BATCH) -> ReadSide | ShardedReadSide:
    """Returns the read side of a store: its own, or every shard's as one for a shard map."""
    if isinstance(service, ShardedService):
        return ShardedReadSide(service, batch_size)
    return ReadSide(service, batch_size)


def folded_views(service: Any, positions: Mapping[str, int]) -> ViewsDict:
    """Computes every view from zero (`read_side.fold_views`) up to the games' positions, on one store
    or on every shard of a map."""
    if isinstance(service, ShardedService):
        return _merged(fold_views(shard.service, upto=positions) for shard in service.shards)
    return fold_views(service, upto=positions)


def _merged(parts: Any) -> ViewsDict:
    out: ViewsDict = {"games": {}, "boards": {}, "results": {}, "dice": {}}
    for part in parts:
        for view, by_game in part.items():
            out[view].update(by_game)
    return out
