"""A game as one viewer may see it (the public, or one player), loaded cheaply: the newest snapshot of
that viewer's fold and the stored events after it, sealed for that viewer.

A viewer's board is the fold of the log with other seats' private events sealed (`recorded.redacted`),
so the game's own snapshots, which hold every secret, cannot start it. The public's fold is snapshotted
beside the game's own (the same store and mapper, so encrypted at rest alike) under an id of its own
(`view_id`) whenever a save passes a multiple of `service.VIEW_SNAPSHOTS_EVERY` snapshot intervals, and
so is each seat's once the log holds a private event: until then every seat's board is the public's,
which a seat's fold starts from.

A viewer's snapshot is used only when it is that viewer's fold of the very log stored: stamped with the
viewer, the shape of these snapshots and whether the log held a private event, current as
`loading.is_current` says, holding no private dice key but the viewer's own, and ending on the chain
value of the stored event at its version (a snapshot of another log, or of events since replaced, ends
on another). Otherwise it is passed over and the events, which are the record, are folded from the
first. Like the game's own snapshots, one that passes is trusted: it is derived data that only whoever
can write the store could forge, as they could the snapshots `act` starts from; the audit reads neither.
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
from domain.events import is_private
from domain.folding import fold_envelopes
from domain.game import MAX_EVENTS, Game, GameFold, Rewinds, holder_ruleset
from domain.hidden import PUBLIC, fields_for
from domain.rulesets import state_version
from event_store.loading import STAMP, is_current

# Reads a game's stored envelopes after version `gt` up to `lte` (None: from the first, to the last).
ReadEnvelopes = Callable[[int | None, int | None], list[tuple[int, dict[str, Any]]]]

# Viewers' snapshot ids are uuid5(VIEWS, "<game id>/<viewer>"), as copies' ids are (event_store.copies).
VIEWS = UUID("0b7e9f52-3c4d-4e8a-b1f6-5d2a7c9e8f31")
# The key of a viewer's snapshot state that holds [the shape of viewers' snapshots, the viewer, whether
# the log up to it holds a private event]: a snapshot of the game's own fold has none, and one of another
# shape or viewer is passed over.
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
    return _fold_as(snapshots, read, game_id, viewer, lte)[0]


def view_snapshots(
    snapshots: EventStore[UUID], read: ReadEnvelopes, game_id: UUID, version: int
) -> list[Snapshot]:
    """Returns snapshots of the public's fold of a game at `version` and, once the log holds a private
    event, of each seat's (until then every seat's board is the public's), each made from that viewer's
    newest snapshot before it."""
    public, private = _fold_as(snapshots, read, game_id, PUBLIC, version)
    if public.version != version:
        return []  # the store does not hold the events saved (another writer's rollback of them): none
    taken = [_snapshot_of(game_id, PUBLIC, public, private)]
    if private:
        for player in public.meta["players"]:
            fold, _ = _fold_as(snapshots, read, game_id, player, version)
            taken.append(_snapshot_of(game_id, player, fold, True))
    return taken


def holds_view(state: Mapping[str, Any], viewer: str) -> bool:
    """Tells whether a snapshot's state is a current snapshot of `viewer`'s fold: stamped for that viewer
    and this shape, current, and holding no private dice key but the viewer's own."""
    stamp = state.get(VIEW)
    if not isinstance(stamp, list) or stamp[:2] != [VIEW_SHAPE, viewer] or not is_current(state):
        return False
    meta = state.get("meta")
    keys = meta.get("private_keys") if isinstance(meta, Mapping) else None
    return isinstance(keys, Mapping) and keys.keys() <= {viewer} - {PUBLIC}


def _fold_as(
    snapshots: EventStore[UUID] | None, read: ReadEnvelopes, game_id: UUID, viewer: str, lte: int | None
) -> tuple[GameFold, bool]:
    """Returns `fold_as`'s fold, and whether the log up to it holds a private event."""
    fold, private = _start(snapshots, read, game_id, viewer, lte)
    fold.rewind_source = _rewinds(snapshots, read, game_id, viewer)  # a rollback returns through them
    return fold, _fold_on(fold, read, viewer, lte) or private


def _snapshot_of(game_id: UUID, viewer: str, fold: GameFold, private: bool) -> Snapshot:
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
            VIEW: [VIEW_SHAPE, viewer, private],
        },
    )
    return snapshot


def _start(
    snapshots: EventStore[UUID] | None, read: ReadEnvelopes, game_id: UUID, viewer: str, lte: int | None
) -> tuple[GameFold, bool]:
    """Returns the fold to start a viewer's from, and whether the log up to it holds a private event:
    the viewer's newest valid snapshot at or before `lte`, or a newer one of the public's taken before
    the log held any private event (every seat's board then), or an empty fold."""
    own, private = _snapshot_fold(snapshots, read, game_id, viewer, lte)
    if viewer == PUBLIC:
        return own, private
    public, public_private = _snapshot_fold(snapshots, read, game_id, PUBLIC, lte)
    if public.version > own.version and not public_private:
        return public, False
    return own, private


def _snapshot_fold(
    snapshots: EventStore[UUID] | None, read: ReadEnvelopes, game_id: UUID, viewer: str, lte: int | None
) -> tuple[GameFold, bool]:
    """Returns the fold the viewer's newest valid snapshot at or before `lte` holds and whether the log
    up to it holds a private event, or an empty fold."""
    if snapshots is None:
        return GameFold(), False
    lte = None if lte is None else max(0, min(lte, MAX_EVENTS))
    try:
        taken = next(iter(snapshots.get(view_id(game_id, viewer), desc=True, limit=1, lte=lte)), None)
        if not isinstance(taken, Game.Snapshot) or not holds_view(taken.state, viewer):
            return GameFold(), False
        state, version = taken.state, taken.originator_version
        private = state[VIEW][2]
        fold = GameFold(
            ruleset_name=state["ruleset_name"],
            meta=state["meta"],
            state=state["state"],
            chain=state["chain"],
            version=version,
            ruleset=holder_ruleset(state["ruleset_name"], state["meta"]),
        )
    except Exception:  # noqa: BLE001  (damaged bytes or a forged shape: fold the events, which are the record)
        return GameFold(), False
    # A snapshot of this very log ends on the chain value its last event has in the store.
    at = read(version - 1, version)
    if type(private) is not bool or [(v, e.get("chain")) for v, e in at] != [(version, fold.chain)]:
        return GameFold(), False
    return fold, private


def _fold_on(fold: GameFold, read: ReadEnvelopes, viewer: str, lte: int | None) -> bool:
    """Folds the stored events after the fold's own up to `lte` into it, sealed for `viewer`; tells
    whether any of them is private."""
    envelopes = read(fold.version or None, lte)
    with paused_collector():  # ~10% of a long fold
        fold_envelopes(fold, _sealed_for(viewer, envelopes, fold.version))
    return any(is_private(envelope["type"]) for _, envelope in envelopes)


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
        return _start(snapshots, read, game_id, viewer, version)[0]

    def fold_on(fold: GameFold, version: int) -> None:
        _fold_on(fold, read, viewer, version)

    return Rewinds(fold_on, start)
