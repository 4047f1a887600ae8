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
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple
from uuid import UUID

import msgpack

from domain.actions import HOST
from domain.audit import AuditReport, audit_log, header_problems, shape_problems
from domain.errors import ImportConflict, TamperedLog, UnknownGame, UsageError
from domain.events import (
    GENESIS_CHAIN,
    GameCreated,
    Sealed,
    SeedCommitted,
    canonical_form,
    is_private,
    is_sealed,
    next_chain,
)
from domain.game import GameFold, apply_event, decode_event, verify_event
from event_store.recorded import RecordedEvent, redacted
from event_store.service import GameService

FORMAT = "nightkeep-replay"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class ReplayFile:
    """A replay file read into memory: its header and its events in order."""

    header: dict[str, Any]
    events: list[RecordedEvent]

    def fold(self, version: int | None = None) -> GameFold:
        """Folds the events (up to `version`) into a game state."""
        fold = GameFold()
        for recorded in self.events:
            if version is not None and recorded.version > version:
                break
            fold.apply(recorded.event, recorded.chain)
        return fold


def export_game(service: GameService, game_id: UUID, viewer: str = HOST) -> bytes:
    """Encodes a stored game as replay-file bytes as `viewer` may see it (HOST: everything; a player:
    other players' private events sealed; PUBLIC: every private event sealed), refusing a log whose
    chain is broken."""
    recorded = service.verified_events(game_id)
    return encode_replay(str(game_id), redacted(recorded, viewer), viewer)


def encode_replay(game: str, recorded: Sequence[RecordedEvent], viewer: str = HOST) -> bytes:
    """Encodes a game's events (chain already checked) as replay-file bytes, header first derived.

    A copy with sealed events names its viewer in the header (`viewer`); a full log has no such key.
    """
    created = next(r.fields for r in recorded if isinstance(r.event, GameCreated))
    # A fork commits to its own seed after its copied history: the last commitment governs the dice.
    committed = [r.fields["commitment"] for r in recorded if isinstance(r.event, SeedCommitted)]
    header = {
        "game": game,
        "ruleset": created["ruleset"],
        "content_hash": created["content_hash"],
        "nightkeep_version": created["nightkeep_version"],
        "players": created["players"],
        "seed_commitment": committed[-1] if committed else b"",
        "scripted": created["scripted"],
        "events": len(recorded),
    }
    if any(isinstance(r.event, Sealed) for r in recorded):
        header["viewer"] = viewer
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
    document = {"format": FORMAT, "format_version": FORMAT_VERSION, "header": header, "events": events}
    return _pack_sorted(document)


def import_game(service: GameService, data: bytes, source: str = "replay file") -> tuple[UUID, bool]:
    """Stores the game a replay file holds, under its own id; returns (id, whether it was new).

    The file must pass the replay checks (chain, header, shape) and be in canonical encoding, so that
    exporting the imported game gives the same bytes back. A game the store already has is accepted
    only if its export is byte-for-byte the file. An imported game has no seed in this store: unless
    its seed was revealed it can be replayed, audited and forked, but only its host can continue it.
    """
    replay = read_replay(data, source)
    if any(is_sealed(e.fields) and is_private(e.type_name) for e in replay.events):
        raise UsageError(
            f"{source} is a copy with private events sealed (for {replay.header.get('viewer')!r}); "
            "only the host's full log (export --as host) can be imported"
        )
    try:
        game_id = UUID(str(replay.header.get("game")))
    except ValueError:
        raise UsageError(f"{source}: the header's game id is not a UUID") from None
    if encode_replay(str(game_id), replay.events, str(replay.header.get("viewer", HOST))) != data:
        raise UsageError(
            f"{source} is not in canonical encoding (docs/replay-format.md), so it is not imported"
        )
    try:
        existing = service.verified_events(game_id)
    except UnknownGame:
        existing = []
    if existing:
        if encode_replay(str(game_id), existing) == data:
            return game_id, False
        differs = next(
            (
                mine.version
                for mine, theirs in zip(existing, replay.events, strict=False)
                if mine.chain != theirs.chain
            ),
            min(len(existing), len(replay.events)) + 1,
        )
        raise ImportConflict(
            f"the store already has game {game_id} and it differs from {source} from event {differs} on"
        )
    _check_recorded(replay.events, source)
    service.store_recorded(game_id, replay.events)
    return game_id, True


def _check_recorded(events: Sequence[RecordedEvent], source: str) -> None:
    """Refuses a log whose events the ruleset's checks reject (a reveal that opens no commitment…):
    a game takes in no forged secret, even from a file whose chain was recomputed."""
    fold = GameFold()
    for recorded in events:
        problem = verify_event(fold, recorded.event)
        if problem:
            raise TamperedLog(f"{source}: event {recorded.version} ({recorded.type_name}): {problem}")
        apply_event(fold, recorded.event, recorded.chain)


def _pack_sorted(value: Any) -> bytes:
    packed: bytes = msgpack.packb(canonical_form(value), use_bin_type=True, datetime=True)
    return packed


class FileEntry(NamedTuple):
    """One event as a replay file holds it: a log entry (see domain.audit.LogEntry) and its time."""

    version: int
    type_name: str
    class_version: int
    fields: dict[str, Any]
    chain: bytes
    time: datetime


_ENTRY_TYPES = {"version": int, "type": str, "v": int, "fields": dict, "chain": bytes, "time": datetime}


def parse_replay(data: bytes, source: str = "replay file") -> tuple[dict[str, Any], list[FileEntry]]:
    """Reads the structure of a replay file without trusting its content (chain, header, rules).

    Raises UsageError, naming where it stopped, for bytes that are not a whole replay file: not
    msgpack, another format or version, a truncated file, trailing bytes or a malformed event.
    """
    try:
        # A whole file decodes in one C call; only a damaged one is read again item by item, so the
        # error can say where it stops.
        whole = msgpack.unpackb(data, raw=False, timestamp=3, strict_map_key=False)
    except Exception:  # msgpack raises several unrelated types for bad bytes
        whole = None
    if isinstance(whole, dict):
        return _checked_document(whole, source)
    document = _read_stepwise(data, source)
    if not isinstance(document, dict):
        raise UsageError(f"{source} is not a nightkeep replay file")
    return _checked_document(document, source)


def _read_stepwise(data: bytes, source: str) -> dict[str, Any]:
    unpacker = msgpack.Unpacker(raw=False, timestamp=3, strict_map_key=False, max_buffer_size=len(data) or 1)
    unpacker.feed(data)
    document: dict[str, Any] = {}
    raw_events: list[Any] = []
    announced = 0
    try:
        for _ in range(unpacker.read_map_header()):
            key = unpacker.unpack()
            if key == "events":
                announced = unpacker.read_array_header()
                for index in range(1, announced + 1):
                    try:
                        raw_events.append(unpacker.unpack())
                    except msgpack.OutOfData:
                        raise UsageError(
                            f"{source} is truncated: it ends inside event {index} of {announced}"
                        ) from None
                document["events"] = raw_events
            else:
                document[key] = unpacker.unpack()
    except msgpack.OutOfData:
        raise UsageError(f"{source} is truncated or not a nightkeep replay file") from None
    except UsageError:
        raise
    except Exception as exc:  # msgpack raises several unrelated types for bad bytes
        raise UsageError(f"{source} is not a nightkeep replay file ({type(exc).__name__})") from None
    rest = len(data) - unpacker.tell()
    if rest:
        raise UsageError(f"{source} has {rest} stray bytes after its last event")
    return document


def _checked_document(document: dict[str, Any], source: str) -> tuple[dict[str, Any], list[FileEntry]]:
    if document.get("format") != FORMAT:
        raise UsageError(f"{source} is not a nightkeep replay file")
    if document.get("format_version") != FORMAT_VERSION:
        raise UsageError(f"{source} has replay format version {document.get('format_version')!r}")
    header, raw_events = document.get("header"), document.get("events")
    if not isinstance(header, dict) or not isinstance(raw_events, list):
        raise UsageError(f"{source} has no header or no event list")
    return header, [_entry(raw, index, source) for index, raw in enumerate(raw_events, start=1)]


def _entry(raw: Any, index: int, source: str) -> FileEntry:
    # Exact types first (every event of every audit passes here); the checks below name the problem.
    try:
        entry = FileEntry(raw["version"], raw["type"], raw["v"], raw["fields"], raw["chain"], raw["time"])
    except (KeyError, TypeError, IndexError):
        entry = None
    if (
        entry is not None
        and type(entry.version) is int
        and type(entry.type_name) is str
        and type(entry.class_version) is int
        and type(entry.fields) is dict
        and type(entry.chain) is bytes
        and isinstance(entry.time, datetime)
    ):
        return entry
    if not isinstance(raw, dict):
        raise UsageError(f"{source}: event {index} is not a map")
    for key, kind in _ENTRY_TYPES.items():
        if not isinstance(raw.get(key), kind) or (kind is int and isinstance(raw.get(key), bool)):
            raise UsageError(f"{source}: event {index} has no valid {key!r}")
    return FileEntry(raw["version"], raw["type"], raw["v"], raw["fields"], raw["chain"], raw["time"])


def recorded_of(entries: Sequence[FileEntry]) -> list[RecordedEvent]:
    """Returns a file's entries as recorded events (decoded, not checked)."""
    return [
        RecordedEvent(
            e.version,
            decode_event(e.type_name, e.class_version, e.fields),
            e.type_name,
            e.class_version,
            e.fields,
            e.chain,
            e.time,
        )
        for e in entries
    ]


def read_replay(data: bytes, source: str = "replay file") -> ReplayFile:
    """Reads replay-file bytes for replaying: refuses a broken chain or a header that lies."""
    header, entries = parse_replay(data, source)
    previous = GENESIS_CHAIN
    for index, entry in enumerate(entries, start=1):
        if entry.version != index:
            raise TamperedLog(f"{source}: event {index} is numbered {entry.version}")
        try:
            linked = next_chain(previous, entry.type_name, entry.class_version, entry.fields) == entry.chain
        except (TypeError, ValueError):
            linked = False
        if not linked:
            raise TamperedLog(f"{source}: the chain breaks at event {entry.version} ({entry.type_name})")
        previous = entry.chain
    for _, detail in header_problems(header, entries):
        raise TamperedLog(f"{source}: {detail}")
    events = recorded_of(entries)
    for _, detail in shape_problems([e.event for e in events]):
        raise TamperedLog(f"{source}: {detail}")
    return ReplayFile(header=header, events=events)


def audit_replay(data: bytes, source: str = "replay file") -> AuditReport:
    """Audits replay-file bytes: chain, header, fork copies, content, rules and dice."""
    header, entries = parse_replay(data, source)
    report = audit_log(entries, header)
    report.game = str(header.get("game", ""))
    return report
