"""Replay files (`.nkr`): one self-describing msgpack map holding a header and every event of a game.

Layout (all strings UTF-8, maps written with sorted keys):
    {"format": "nightkeep-replay", "format_version": 1,
     "header": {"game", "ruleset", "content_hash", "nightkeep_version", "players", "seed_commitment",
                "scripted", "events"},
     "events": [{"version", "type", "v", "fields", "chain", "time"}…]}
`chain` is the event's hash chain (see domain/events.py); `time` is a msgpack timestamp and is not
covered by the chain. docs/replay-format.md describes the format for readers in other languages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

import msgpack

from domain.actions import HOST
from domain.audit import AuditPoint, AuditReport
from domain.errors import IllegalAction, ImportConflict, UnknownGame, UsageError
from domain.events import GameCreated, Sealed, SeedCommitted, canonical_form
from domain.game import GameFold
from domain.hidden import PUBLIC
from event_store.app.service import GameService
from event_store.copies import Copy, copy_id
from event_store.log_reader import FORMAT, FileEntry, format_version_of, parse_replay, read_log, recorded_of
from event_store.recorded import RecordedEvent, redacted
from event_store.sql import Statement

__all__ = [
    "FileEntry",
    "Imported",
    "ReplayFile",
    "audit_replay",
    "encode_replay",
    "export_game",
    "import_game",
    "parse_replay",
    "read_replay",
    "recorded_of",
]


@dataclass(frozen=True)
class ReplayFile:
    """A replay file read into memory: its header and its events in order."""

    header: dict[str, Any]
    events: list[RecordedEvent]

    def fold(self, version: int | None = None) -> GameFold:
        """Folds the events (up to `version`) into a game state."""
        upto = self.events if version is None else self.events[: max(version, 0)]
        return GameFold.of([(recorded.event, recorded.chain) for recorded in upto])


def export_game(service: GameService, game_id: UUID, viewer: str = HOST) -> bytes:
    """Encodes a stored game as replay-file bytes as `viewer` may see it (HOST: everything; a player:
    other players' private events sealed; PUBLIC: every private event sealed), refusing a log whose
    chain is broken. A stored viewer's copy is written as the copy of its game it is: for its viewer
    (HOST asks for all it holds) or the public."""
    recorded = service.verified_events(game_id)
    copy = service.copies.get(game_id)
    if copy is None:
        return encode_replay(str(game_id), redacted(recorded, viewer), viewer)
    seen_as = copy.viewer if viewer in (HOST, copy.viewer) else viewer
    if seen_as not in (copy.viewer, PUBLIC):
        raise UsageError(
            f"game {game_id} is {copy.label}: it can be exported only as that or as the public copy"
        )
    return encode_replay(str(copy.game), redacted(recorded, seen_as), seen_as)


def encode_replay(game: str, recorded: Sequence[RecordedEvent], viewer: str = HOST) -> bytes:
    """Encodes a game's events (chain already checked) as replay-file bytes, header first derived.

    A copy with sealed events names its viewer in the header (`viewer`); a full log has no such key.
    """
    created = next(r.fields for r in recorded if isinstance(r.event, GameCreated))
    # A fork commits to its own seed after its copied history: the last commitment governs the dice.
    committed = [r.fields["commitment"] for r in recorded if isinstance(r.event, SeedCommitted)]
    sealed = any(isinstance(r.event, Sealed) for r in recorded)
    header = header_of(game, created, committed[-1] if committed else b"", len(recorded), sealed, viewer)
    events = [
        {
            "version": r.version,
            "type": r.type_name,
            "v": r.class_version,
            "fields": r.fields,
            "chain": r.chain,
            "time": r.timestamp,
        }
        for r in recorded
    ]
    version = format_version_of(r.type_name for r in recorded)
    document = {"format": FORMAT, "format_version": version, "header": header, "events": events}
    return _pack_sorted(document)


def header_of(
    game: str, created: dict[str, Any], commitment: bytes, events: int, sealed: bool, viewer: str
) -> dict[str, Any]:
    """Returns a replay file's header: from its GameCreated's fields, its last seed commitment and how
    many events it holds; a copy with sealed events names its viewer."""
    header = {
        "game": game,
        "ruleset": created["ruleset"],
        "content_hash": created["content_hash"],
        "nightkeep_version": created["nightkeep_version"],
        "players": created["players"],
        "seed_commitment": commitment,
        "scripted": created["scripted"],
        "events": events,
    }
    if sealed:
        header["viewer"] = viewer
    return header


@dataclass(frozen=True)
class Importable:
    """A replay file that passed every check import makes before it looks at a store."""

    source: str
    game: UUID
    viewer: str | None  # None: the full log; "" the public copy; else the player it was made for
    recorded: list[RecordedEvent]
    dice_verified: bool  # every draw recomputed from a revealed seed (never so for a sealed copy yet)
    point: AuditPoint | None = (
        None  # where the file's audit ended (an audit of what extends it goes on from there)
    )

    @property
    def stored(self) -> UUID:
        """Returns the id it is stored under: the game's, or for a viewer's copy one of its own."""
        return self.game if self.viewer is None else copy_id(self.game, self.viewer)


@dataclass(frozen=True)
class Imported:
    """What `import` did: where the log is stored, what it is, and how many of its events were new."""

    stored: UUID  # the game's id, or for a viewer's copy the id of the copy
    game: UUID
    viewer: str | None  # None: the full log; "" the public copy; else the player it was made for
    added: int  # events stored now (0: the store already held them all)
    events: int  # events the file holds
    dice_verified: bool  # every draw was recomputed from a revealed seed

    @property
    def label(self) -> str:
        """Names what was imported: "game G", "Hana's copy of game G"…"""
        return f"game {self.game}" if self.viewer is None else Copy(self.game, self.viewer).label


def check_import(
    data: bytes, source: str = "replay file", encoded_here: bool = False, keep_point: bool = False
) -> Importable:
    """Makes every check of a file that needs no store: the one reader (sizes, shape, the whole audit,
    refused on any finding) with the canonical encoding, so that exporting what is imported gives the
    same bytes back. Bytes this process has just written with `encode_replay` (a replica's copy with a
    packet's events) are canonical by construction and are not encoded a second time."""
    checked = read_log(data, source, check_encoding=not encoded_here, keep_point=keep_point).require_clean()
    game_id = UUID(checked.header["game"])
    recorded = checked.recorded()
    viewer = checked.viewer
    report = checked.report
    verified = not report.partial and report.draws_verified == report.draws
    return Importable(source, game_id, viewer, recorded, verified, checked.point)


def import_game(service: GameService, data: bytes, source: str = "replay file") -> Imported:
    """Stores the game a replay file holds once the file passes the whole audit (see store_import)."""
    return store_import(service, check_import(data, source))


def store_import(service: GameService, file: Importable, rows: Sequence[Statement] = ()) -> Imported:
    """Stores a checked file. A full log is stored under its game's id; a viewer's copy (other players'
    private events sealed) under an id of its own (`copies.copy_id`), as what it is: it holds no seed
    and cannot be continued. Every copy of the game already in the store must agree with the file on
    their common history (same chain values), else ImportConflict names the first event where they
    part; a store that hosts the game takes no copy that runs ahead of it. A longer copy of one already
    stored is appended to it; a copy the store already holds in full changes nothing. The events go in
    one transaction, none unless all (a copy's row in the copy table is written just before them, and
    on its own only reserves that copy's id; `rows` are written with the events)."""
    game_id, viewer, recorded, source = file.game, file.viewer, file.recorded, file.source
    stored = file.stored
    _check_identity(service, file)
    held = _check_agreement(service, game_id, stored, recorded, source)
    already = held.get(stored, 0)
    result = Imported(stored, game_id, viewer, 0, len(recorded), file.dice_verified)
    if len(recorded) <= already:
        return result
    if service.holds_seed(game_id) and len(recorded) > held.get(game_id, 0):
        raise IllegalAction(
            f"game {game_id} is played in this store (it holds its seed): {source} runs ahead of it, but its "
            "events come from play here"
        )
    if viewer is not None and not already:
        service.copies.put(stored, Copy(game_id, viewer))
    service.store_recorded(stored, recorded[already:], rows=rows)
    return replace(result, added=len(recorded) - already)


def _check_identity(service: GameService, file: Importable) -> None:
    """Raises ImportConflict unless the id the file would be stored under holds nothing or the same
    kind of thing (a game, or one viewer's copy of one game): a file's game id is a label its maker
    chose, and a full log labelled with a copy's id, or the other way round, must not take its place."""
    registered = service.copies.get(file.stored)
    if file.viewer is None and registered is not None:
        raise ImportConflict(
            f"{file.source} is labelled game {file.game}, which this store holds as {registered.label}: "
            "a game cannot take a copy's place (nothing imported)"
        )
    expected = None if file.viewer is None else Copy(file.game, file.viewer)
    if expected is not None and registered not in (None, expected):
        raise ImportConflict(f"{file.stored} is {registered.label} in this store, not {expected.label}")
    if expected is not None and registered is None and service.has_game(file.stored):
        raise ImportConflict(
            f"this store holds game {file.stored} under the id {expected.label} would take: it is not "
            "that copy (nothing imported)"
        )


def _check_agreement(
    service: GameService, game_id: UUID, stored: UUID, recorded: Sequence[RecordedEvent], source: str
) -> dict[UUID, int]:
    """Checks the file against every copy of its game in the store (the game itself and viewers'
    copies): on the history they share, their chain values must be equal. Returns how many events
    each of them holds (by stored id; none for one the store does not hold)."""
    held: dict[UUID, int] = {}
    for other in dict.fromkeys([stored, game_id, *service.copies.of_game(game_id)]):
        try:
            chains = service.chain_values(other)
        except UnknownGame:
            continue
        pairs = enumerate(zip(chains, recorded, strict=False), start=1)
        differs = next((n for n, (mine, theirs) in pairs if mine != theirs.chain), None)
        if differs:
            copy = service.copies.get(other)
            label = copy.label if copy else f"game {game_id}"
            raise ImportConflict(
                f"{source} and the stored {label} part at event {differs}: they are not the same history "
                "(nothing imported)"
            )
        held[other] = len(chains)
    return held


def _pack_sorted(value: Any) -> bytes:
    packed: bytes = msgpack.packb(canonical_form(value), use_bin_type=True, datetime=True)
    return packed


def read_replay(data: bytes, source: str = "replay file") -> ReplayFile:
    """Reads replay-file bytes for replaying: through the one reader, refusing a log with any finding."""
    checked = read_log(data, source).require_clean()
    return ReplayFile(header=checked.header, events=checked.recorded())


def audit_replay(data: bytes, source: str = "replay file") -> AuditReport:
    """Audits replay-file bytes: chain, header, fork copies, content, rules and dice."""
    return read_log(data, source).report
