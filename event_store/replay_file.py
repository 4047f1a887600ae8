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

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import msgpack

from domain.dice import commit_to_seed
from domain.errors import TamperedLog, UsageError
from domain.events import GENESIS_CHAIN, Event, GameCreated, SeedCommitted, SeedRevealed, next_chain
from domain.game import GameFold, decode_event
from event_store.recorded import RecordedEvent
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


def export_game(service: GameService, game_id: UUID) -> bytes:
    """Encodes a stored game as replay-file bytes, refusing a log whose chain is broken."""
    recorded = service.verified_events(game_id)
    created = recorded[0].fields
    header = {
        "game": str(game_id),
        "ruleset": created["ruleset"],
        "content_hash": created["content_hash"],
        "nightkeep_version": created["nightkeep_version"],
        "players": created["players"],
        "seed_commitment": recorded[1].fields["commitment"] if len(recorded) > 1 else b"",
        "scripted": created["scripted"],
        "events": len(recorded),
    }
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


def _pack_sorted(value: Any) -> bytes:
    packed: bytes = msgpack.packb(_sorted(value), use_bin_type=True, datetime=True)
    return packed


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


HEADER_FROM_CREATED = ("ruleset", "content_hash", "nightkeep_version", "players", "scripted")


def read_replay(data: bytes, source: str = "replay file") -> ReplayFile:
    """Reads replay-file bytes, checking the format, every event's chain and the header."""
    try:
        document = msgpack.unpackb(data, raw=False, timestamp=3, strict_map_key=False)
    except Exception as exc:  # msgpack raises several unrelated types for bad bytes
        raise UsageError(f"{source} is not a nightkeep replay file ({type(exc).__name__})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise UsageError(f"{source} is not a nightkeep replay file")
    if document.get("format_version") != FORMAT_VERSION:
        raise UsageError(f"{source} has replay format version {document.get('format_version')!r}")
    header, raw_events = document.get("header"), document.get("events")
    if not isinstance(header, dict) or not isinstance(raw_events, list):
        raise UsageError(f"{source} has no header or no event list")
    events = _read_events(raw_events, source)
    _check_header(header, events, source)
    return ReplayFile(header=header, events=events)


def _read_events(raw_events: list[Any], source: str) -> list[RecordedEvent]:
    previous = GENESIS_CHAIN
    events: list[RecordedEvent] = []
    for index, raw in enumerate(raw_events, start=1):
        try:
            type_name, v, fields, chain = raw["type"], raw["v"], raw["fields"], raw["chain"]
            time: datetime = raw["time"]
        except (KeyError, TypeError):
            raise TamperedLog(f"{source}: event {index} is malformed") from None
        if raw.get("version") != index:
            raise TamperedLog(f"{source}: event {index} is numbered {raw.get('version')!r}")
        try:
            linked = next_chain(previous, type_name, v, fields) == chain
        except (TypeError, ValueError):
            linked = False
        if not linked:
            raise TamperedLog(f"{source}: the chain breaks at event {index} ({type_name})")
        event: Event = decode_event(type_name, v, fields)
        events.append(RecordedEvent(index, event, type_name, v, fields, chain, time))
        previous = chain
    return events


def _check_header(header: dict[str, Any], events: list[RecordedEvent], source: str) -> None:
    # The header is not chained, so every claim in it is checked against the chained events.
    if header.get("events") != len(events):
        raise TamperedLog(
            f"{source}: the header counts {header.get('events')!r} events, the file holds {len(events)}"
        )
    if (
        len(events) < 2
        or not isinstance(events[0].event, GameCreated)
        or not isinstance(events[1].event, SeedCommitted)
    ):
        raise TamperedLog(f"{source}: a game starts with GameCreated and SeedCommitted")
    created = events[0].fields
    for key in HEADER_FROM_CREATED:
        if header.get(key) != created.get(key):
            raise TamperedLog(f"{source}: the header's {key} does not match the recorded GameCreated")
    commitment = events[1].fields["commitment"]
    if header.get("seed_commitment") != commitment:
        raise TamperedLog(f"{source}: the header's seed commitment does not match the recorded one")
    for recorded in events:
        if isinstance(recorded.event, SeedRevealed) and commit_to_seed(recorded.event.seed) != commitment:
            raise TamperedLog(
                f"{source}: the seed revealed at event {recorded.version} does not match the commitment"
            )
