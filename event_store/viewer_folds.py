"""A game as one viewer may see it (the public, or one player), loaded cheaply: the newest snapshot of
that viewer's fold and the stored events after it, sealed for that viewer.

A viewer's board is the fold of the log with other seats' private events sealed (`recorded.redacted`),
so the game's own snapshots, which hold every secret, cannot start it. Each viewer's fold is snapshotted
beside the game's own (the same store and mapper, so encrypted at rest alike) under an id of its own
(`view_id`), whenever a save passes a multiple of the snapshot interval. A viewer's snapshot is used
only when it is that viewer's fold of the very log stored: stamped with the viewer and the shape of these
snapshots, current as `loading.is_current` says, holding no private dice key but the viewer's own, and
ending on the chain value of the stored event at its version (a snapshot of another log, or of events
since replaced, ends on another). Otherwise it is passed over and the events, which are the record, are
folded from the first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import EventStore
from eventsourcing.utils import get_topic

from domain.collector import paused_collector
from domain.errors import CorruptStore
from domain.folding import fold_envelopes
from domain.game import MAX_EVENTS, Game, GameFold, Rewinds, holder_ruleset
from domain.hidden import PUBLIC, fields_for
from event_store.loading import STAMP, is_current, state_version

# Reads a game's stored envelopes after version `gt` up to `lte` (None: from the first, to the last).
ReadEnvelopes = Callable[[int | None, int | None], list[tuple[int, dict[str, Any]]]]

# Viewers' snapshot ids are uuid5(VIEWS, "<game id>/<viewer>"), as copies' ids are (event_store.copies).
VIEWS = UUID("0b7e9f52-3c4d-4e8a-b1f6-5d2a7c9e8f31")
# The key of a viewer's snapshot state that holds [the shape of viewers' snapshots, the viewer]: a
# snapshot of the game's own fold has none, and one of another shape or viewer is passed over.
VIEW = "view"
VIEW_SHAPE = 1


def view_id(game_id: UUID, viewer: str) -> UUID:
    """Returns the id a viewer's snapshots of a game are stored under (`PUBLIC`: the public's)."""
    return uuid5(VIEWS, f"{game_id}/{viewer}")


def fold_as(
    snapshots: EventStore[UUID] | None, read: ReadEnvelopes, game_id: UUID, viewer: str, lte: int | None
) -> GameFold:
    """Returns the fold of a game's events up to `lte` (None: all) as `viewer` sees them, from the
    viewer's newest valid snapshot at or before `lte` and the events after it (an empty fold when the
    game has no events)."""
    fold = _snapshot_fold(snapshots, read, game_id, viewer, lte)
    fold.rewind_source = _rewinds(snapshots, read, game_id, viewer)  # a rollback returns through them
    return _fold_on(fold, read, viewer, lte)


def view_snapshots(
    snapshots: EventStore[UUID], read: ReadEnvelopes, game_id: UUID, version: int
) -> list[Snapshot]:
    """Returns snapshots of the public's and each seat's fold of a game at `version`, each made from
    that viewer's newest snapshot before it."""
    public = fold_as(snapshots, read, game_id, PUBLIC, version)
    if public.version != version:
        return []  # the store does not hold the events saved (another writer's rollback of them): none
    folds = {PUBLIC: public}
    for player in public.meta["players"]:
        folds[player] = fold_as(snapshots, read, game_id, player, version)
    return [_snapshot_of(game_id, viewer, fold) for viewer, fold in folds.items()]


def holds_view(state: Mapping[str, Any], viewer: str) -> bool:
    """Tells whether a snapshot's state is a current snapshot of `viewer`'s fold: stamped for that viewer
    and this shape, current, and holding no private dice key but the viewer's own."""
    if state.get(VIEW) != [VIEW_SHAPE, viewer] or not is_current(state):
        return False
    meta = state.get("meta")
    keys = meta.get("private_keys") if isinstance(meta, Mapping) else None
    return isinstance(keys, Mapping) and keys.keys() <= {viewer} - {PUBLIC}


def _snapshot_of(game_id: UUID, viewer: str, fold: GameFold) -> Snapshot:
    snapshot: Snapshot = Game.Snapshot(
        originator_id=view_id(game_id, viewer),
        originator_version=fold.version,
        timestamp=Game.Snapshot.create_timestamp(),
        topic=get_topic(Game),
        state={
            "ruleset_name": fold.ruleset_name,
            "meta": fold.meta,
            "state": fold.state,
            "chain": fold.chain,
            STAMP: state_version(fold.ruleset_name),
            VIEW: [VIEW_SHAPE, viewer],
        },
    )
    return snapshot


def _snapshot_fold(
    snapshots: EventStore[UUID] | None, read: ReadEnvelopes, game_id: UUID, viewer: str, lte: int | None
) -> GameFold:
    """Returns the fold the viewer's newest valid snapshot at or before `lte` holds, or an empty fold."""
    if snapshots is None:
        return GameFold()
    lte = None if lte is None else max(0, min(lte, MAX_EVENTS))
    try:
        taken = next(iter(snapshots.get(view_id(game_id, viewer), desc=True, limit=1, lte=lte)), None)
        if not isinstance(taken, Game.Snapshot) or not holds_view(taken.state, viewer):
            return GameFold()
        state, version = taken.state, taken.originator_version
        fold = GameFold(
            ruleset_name=state["ruleset_name"],
            meta=state["meta"],
            state=state["state"],
            chain=state["chain"],
            version=version,
            ruleset=holder_ruleset(state["ruleset_name"], state["meta"]),
        )
    except Exception:  # noqa: BLE001  (damaged bytes or a forged shape: fold the events, which are the record)
        return GameFold()
    # A snapshot of this very log ends on the chain value its last event has in the store.
    at = read(version - 1, version)
    if [(v, envelope.get("chain")) for v, envelope in at] != [(version, fold.chain)]:
        return GameFold()
    return fold


def _fold_on(fold: GameFold, read: ReadEnvelopes, viewer: str, lte: int | None) -> GameFold:
    """Folds the stored events after the fold's own up to `lte` into it, sealed for `viewer`."""
    envelopes = read(fold.version or None, lte)
    with paused_collector():  # ~10% of a long fold
        fold_envelopes(fold, _sealed_for(viewer, envelopes, fold.version))
    return fold


def _sealed_for(
    viewer: str, envelopes: list[tuple[int, dict[str, Any]]], after: int
) -> Iterator[dict[str, Any]]:
    """Yields the envelopes in order as `viewer` may see them, checking that no version is skipped."""
    for expected, (version, envelope) in enumerate(envelopes, start=after + 1):
        if version != expected:
            raise CorruptStore(f"the stored events skip from event {expected - 1} to {version}")
        fields = envelope["fields"]
        seen = fields_for(viewer, envelope["type"], envelope["v"], fields)
        yield envelope if seen is fields else {**envelope, "fields": seen}


def _rewinds(snapshots: EventStore[UUID] | None, read: ReadEnvelopes, game_id: UUID, viewer: str) -> Rewinds:
    """Returns what a viewer's fold calls to return to an earlier event (a rollback), from the viewer's
    snapshots and events."""

    def start(version: int) -> GameFold:
        return _snapshot_fold(snapshots, read, game_id, viewer, version)

    def fold_on(fold: GameFold, version: int) -> None:
        _fold_on(fold, read, viewer, version)

    return Rewinds(fold_on, start)
