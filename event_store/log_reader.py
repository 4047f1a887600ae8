"""The one reader: every log that comes into nightkeep from outside passes here before anything else
touches it — an imported file, a replayed file, an audited file (and, next, the packets of e-mail play).

1. Sizes: the bytes, every string, byte string, array and map are bounded (`Limits`), before and while
   msgpack decodes them (msgpack itself refuses nesting past about a thousand levels).
2. Shape: the document, its header and every event entry have exactly their keys and types, written
   in the canonical encoding (so `audit` refuses what `import` would, and one game has one file).
3. Then the audit (`domain.audit.audit_log`), whose first stage checks every event's fields against the
   one type grammar before the chain, the header, the shape, the content, the rules and the dice.

Bytes that are not a whole replay file, or not its canonical encoding, are unreadable (`UnreadableLog`,
exit 2); a readable log the
audit finds fault with is refused by the doors that store or replay it (`TamperedLog`, exit 1, naming
the first finding). Nothing downstream trusts a log that did not come through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

import msgpack
import msgspec

from domain.audit import AuditPoint, AuditReport, audit_log, audit_with_point
from domain.audit.reading import header_type_problem
from domain.collector import paused_collector
from domain.errors import TamperedLog, UnreadableLog, UsageError
from domain.events import canonical_form
from domain.game import MAX_EVENTS, decode_event
from event_store.recorded import RecordedEvent

FORMAT = "nightkeep-replay"
FORMAT_VERSION = 2
# Version 2 added per-turn dice keys (DiceChainCommitted, ActionTaken v3): a file is written at version
# 2 exactly when its log holds a key chain, so a file of a game without one keeps its bytes.
FORMAT_VERSIONS = (1, 2)
TURN_KEYS_TYPE = "DiceChainCommitted"
DOCUMENT_KEYS = frozenset({"format", "format_version", "header", "events"})
ENTRY_KEYS = frozenset({"version", "type", "v", "fields", "chain", "time"})


@dataclass(frozen=True)
class Limits:
    """How large a log may be. The defaults hold any game nightkeep plays many times over (its longest
    games are a few thousand events of a few hundred bytes); past them a file is refused unread."""

    max_bytes: int = 64 * 1024 * 1024
    max_events: int = MAX_EVENTS  # also bounds every other array
    max_text: int = 4096  # bytes in one string
    max_bin: int = 4096  # bytes in one byte string (seeds, chains, entropy, nonces)
    max_map: int = 256  # entries in one map


LIMITS = Limits()


class FileEntry(NamedTuple):
    """One event as a replay file holds it: a log entry (see domain.audit.LogEntry) and its time."""

    version: int
    type_name: str
    class_version: int
    fields: dict[str, Any]
    chain: bytes
    time: datetime


@dataclass(frozen=True)
class CheckedLog:
    """A log read through the one reader: its header, its entries and what the audit found."""

    source: str
    header: dict[str, Any]
    entries: list[FileEntry]
    report: AuditReport
    point: AuditPoint | None = None  # where the audit ended, for a clean log it can go on from

    @property
    def viewer(self) -> str | None:
        """Returns whom this copy was made for (`""` the public), or None for a full log."""
        viewer = self.header.get("viewer")
        return viewer if isinstance(viewer, str) else None

    def require_clean(self) -> CheckedLog:
        """Returns this log if the audit found nothing, else raises TamperedLog naming the first finding."""
        if self.report.findings:
            raise TamperedLog(self.report.refusal(self.source))
        return self

    def recorded(self) -> list[RecordedEvent]:
        """Returns the events as recorded events, decoded once by the audit (a clean log)."""
        decoded = self.report.decoded
        if len(decoded) != len(self.entries):  # the audit could not read it all: require_clean says why
            self.require_clean()
            raise TamperedLog(f"{self.source} cannot be read whole")
        return [
            RecordedEvent(e.version, event, e.type_name, e.class_version, e.fields, e.chain, e.time)
            for e, event in zip(self.entries, decoded, strict=True)
        ]


def read_file(path: str | Path, limits: Limits = LIMITS) -> bytes:
    """Reads a replay file's bytes, at most one more than a replay file may hold (so /dev/zero or a
    huge file is refused without being read whole); OS errors become one-line usage errors."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(limits.max_bytes + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > limits.max_bytes:
        raise UnreadableLog(f"{path} is larger than a replay file may be ({limits.max_bytes:,} bytes)")
    return data


def read_log(
    data: bytes,
    source: str = "replay file",
    limits: Limits = LIMITS,
    check_encoding: bool = True,
    keep_point: bool = False,
) -> CheckedLog:
    """Reads replay-file bytes through every check: sizes, shape, then the whole audit. A caller that
    has just encoded the bytes itself (a replica's copy, `replay_file.check_import(encoded_here=True)`)
    passes `check_encoding=False`: they are canonical by construction. With `keep_point`, the log's
    `point` is where its audit ended (domain.audit.resume), for a caller that audits what extends it."""
    with paused_collector():  # a file decodes to many small objects and no cycles
        header, entries = parse_replay(data, source, limits, check_encoding)
    if keep_point:
        report, point = audit_with_point(entries, header)
    else:
        report, point = audit_log(entries, header), None
    report.game = str(header["game"])
    return CheckedLog(source, header, entries, report, point)


def parse_replay(
    data: bytes, source: str = "replay file", limits: Limits = LIMITS, check_encoding: bool = True
) -> tuple[dict[str, Any], list[FileEntry]]:
    """Reads the structure of a replay file without trusting its content (chain, header, rules).

    Raises UnreadableLog, naming where it stopped, for bytes that are not a whole replay file: too
    large, not msgpack, another format or version, a truncated file, trailing bytes, a malformed header
    or event entry.
    """
    if len(data) > limits.max_bytes:
        raise UnreadableLog(
            f"{source} is {len(data):,} bytes, more than a replay file may be ({limits.max_bytes:,})"
        )
    options = _unpack_options(limits)
    try:
        # A whole file decodes in one C call; only a damaged one is read again item by item, so the
        # error can say where it stops.
        whole = msgpack.unpackb(data, **options)
    except Exception:  # msgpack raises several unrelated types for bad bytes
        whole = None
    document = whole if isinstance(whole, dict) else _read_stepwise(data, source, options)
    canonical = _is_canonical(data, document) if check_encoding else None
    if not canonical:  # (canonical bytes name no key twice: they would hold fewer entries)
        _check_no_repeated_keys(data, document, source, options)
    checked = _checked_document(document, source, limits)
    if canonical is False:
        raise UnreadableLog(f"{source} is not in canonical encoding (docs/replay-format.md)")
    return checked


def unpack_bounded(data: bytes, source: str, limits: Limits = LIMITS) -> Any:
    """Decodes one msgpack value within `limits`, refusing a map that names a key twice (packets)."""
    options = _unpack_options(limits)
    try:
        value = msgpack.unpackb(data, **options)
    except Exception as exc:  # msgpack raises several unrelated types for bad bytes
        raise UnreadableLog(f"{source} is not readable ({_brief_error(exc)})") from None
    _check_no_repeated_keys(data, value, source, options)
    return value


def file_entries(raw_events: Any, source: str, limits: Limits = LIMITS) -> list[FileEntry]:
    """Reads a list of event entries in the replay file's entry shape (a packet's events)."""
    if type(raw_events) is not list:
        raise UnreadableLog(f"{source} has no event list")
    if len(raw_events) > limits.max_events:
        raise UnreadableLog(f"{source} holds more events than a log may ({limits.max_events:,})")
    return _entries(raw_events, source)


def _check_no_repeated_keys(data: bytes, document: Any, source: str, options: dict[str, Any]) -> None:
    """Refuses a map that names a key twice: msgpack keeps the last value, another reader the first, so
    the same bytes would tell two readers two games. A file nightkeep wrote packs back to its own bytes
    (one C call); only a file that does not is decoded again, map by map, to look."""
    try:
        if msgpack.packb(document, use_bin_type=True, datetime=True) == data:
            return
    except Exception:  # nested past what msgpack packs: look map by map
        pass

    def unique(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
        found = dict(pairs)
        if len(found) != len(pairs):
            repeated = next(key for index, (key, _) in enumerate(pairs) if key in dict(pairs[:index]))
            raise UnreadableLog(f"{source} is ambiguous: a map names the key {repeated!r:.40} twice")
        return found

    try:
        msgpack.unpackb(data, object_pairs_hook=unique, **options)
    except UnreadableLog:
        raise
    except Exception:  # damaged bytes: what the reader found already stands
        return


def _is_canonical(data: bytes, document: dict[str, Any]) -> bool | None:
    """Tells whether bytes are the canonical encoding of what they hold (docs/replay-format.md); None
    when it cannot be told (a value nested too deep to encode again: the audit's first stage names its
    event). The chain covers decoded values, so without this one game could be written in many ways,
    and importing a file then exporting it would not give its bytes back."""
    # msgspec's encoder with sorted keys writes what canonical_form then msgpack write, in one C call
    # (a sixth of the time: canonical_form rebuilds every map in Python). Bytes it gives back whole are
    # canonical; anything else (unsorted, non-shortest, a float, a key of mixed type) is judged below.
    try:
        if _SORTED_ENCODE(document) == data:
            return True
    except Exception:  # noqa: BLE001  (a value msgspec does not encode: judged below)
        pass
    try:
        return bool(msgpack.packb(canonical_form(document), use_bin_type=True, datetime=True) == data)
    except Exception:  # noqa: BLE001  (msgpack raises several unrelated types)
        return None


_SORTED_ENCODE = msgspec.msgpack.Encoder(order="sorted").encode


def _unpack_options(limits: Limits) -> dict[str, Any]:
    return {
        "raw": False,
        "timestamp": 3,
        "strict_map_key": False,
        "max_str_len": limits.max_text,
        "max_bin_len": limits.max_bin,
        "max_array_len": limits.max_events,
        "max_map_len": limits.max_map,
        "max_ext_len": 12,  # the largest msgpack timestamp
    }


def _read_stepwise(data: bytes, source: str, options: dict[str, Any]) -> dict[str, Any]:
    unpacker = msgpack.Unpacker(max_buffer_size=len(data) or 1, **options)
    unpacker.feed(data)
    document: dict[str, Any] = {}
    raw_events: list[Any] = []
    announced = 0
    try:
        for _ in range(unpacker.read_map_header()):
            key = unpacker.unpack()
            if key == "events" and "events" not in document:
                announced = unpacker.read_array_header()
                for index in range(1, announced + 1):
                    try:
                        raw_events.append(unpacker.unpack())
                    except msgpack.OutOfData:
                        raise UnreadableLog(
                            f"{source} is truncated: it ends inside event {index} of {announced}"
                        ) from None
                document["events"] = raw_events
            elif isinstance(key, str) and key not in document:
                document[key] = unpacker.unpack()
            else:
                raise UnreadableLog(f"{source} is not a nightkeep replay file (a key repeats or is not text)")
    except msgpack.OutOfData:
        raise UnreadableLog(f"{source} is truncated or not a nightkeep replay file") from None
    except UnreadableLog:
        raise
    except Exception as exc:  # msgpack raises several unrelated types for bad bytes
        raise UnreadableLog(f"{source} is not a nightkeep replay file ({_brief_error(exc)})") from None
    rest = len(data) - unpacker.tell()
    if rest:
        raise UnreadableLog(f"{source} has {rest} stray bytes after its last event")
    return document


def _brief_error(exc: Exception) -> str:
    text = " ".join(str(exc).split())[:80]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _checked_document(
    document: dict[str, Any], source: str, limits: Limits
) -> tuple[dict[str, Any], list[FileEntry]]:
    if document.get("format") != FORMAT or type(document.get("format")) is not str:
        raise UnreadableLog(f"{source} is not a nightkeep replay file")
    version = document.get("format_version")
    if type(version) is not int or version not in FORMAT_VERSIONS:
        raise UnreadableLog(
            f"{source} has replay format version {version!r:.20}, this nightkeep reads 1 and 2"
        )
    if document.keys() != DOCUMENT_KEYS:
        extra = ", ".join(sorted(map(str, document.keys() ^ DOCUMENT_KEYS)))
        raise UnreadableLog(f"{source} is not a whole replay file (keys missing or unknown: {extra:.80})")
    header, raw_events = document["header"], document["events"]
    problem = header_type_problem(header)
    if problem:
        raise UnreadableLog(f"{source}: {problem}")
    if type(raw_events) is not list:
        raise UnreadableLog(f"{source} has no event list")
    if len(raw_events) > limits.max_events:
        raise UnreadableLog(f"{source} holds more events than a replay file may ({limits.max_events:,})")
    entries = _entries(raw_events, source)
    if version != format_version_of(entry[1] for entry in entries):
        raise UnreadableLog(
            f"{source} says replay format version {version}, but "
            + (
                "its log holds per-turn dice keys (version 2)"
                if version == 1
                else "holds no per-turn dice keys"
            )
        )
    return header, entries


def format_version_of(type_names: Any) -> int:
    """Returns the replay format version a log is written at: 2 when it holds a key chain, else 1."""
    return 2 if TURN_KEYS_TYPE in type_names else 1


_new_tuple = tuple.__new__


def _entries(raw_events: list[Any], source: str) -> list[FileEntry]:
    """Reads every event entry: a map of exactly the six keys with exactly their types is taken in
    line (every event of every audit passes here); anything else goes to `_entry`, which names it."""
    entries: list[FileEntry] = []
    append = entries.append
    for raw in raw_events:
        if type(raw) is dict and len(raw) == len(ENTRY_KEYS):
            try:  # (a NamedTuple's own __new__ is a Python call; the tuple is the same)
                values = (raw["version"], raw["type"], raw["v"], raw["fields"], raw["chain"], raw["time"])
                entry = _new_tuple(FileEntry, values)
            except KeyError:
                entry = None
            if (
                entry is not None
                and type(entry[0]) is int
                and type(entry[1]) is str
                and type(entry[2]) is int
                and type(entry[3]) is dict
                and type(entry[4]) is bytes
                and type(entry[5]) is datetime
            ):
                append(entry)
                continue
        append(_entry(raw, len(entries) + 1, source))
    return entries


def _entry(raw: Any, index: int, source: str) -> FileEntry:
    # Exact types first (every event of every audit passes here); the checks below name the problem.
    # Six entries, all six keys found: exactly the entry's keys.
    try:
        entry = FileEntry(raw["version"], raw["type"], raw["v"], raw["fields"], raw["chain"], raw["time"])
    except (KeyError, TypeError, IndexError):
        entry = None
    if entry is not None and type(raw) is dict and len(raw) == len(ENTRY_KEYS):
        if (
            type(entry.version) is int
            and type(entry.type_name) is str
            and type(entry.class_version) is int
            and type(entry.fields) is dict
            and type(entry.chain) is bytes
            and type(entry.time) is datetime
        ):
            return entry
    if type(raw) is not dict:
        raise UnreadableLog(f"{source}: event {index} is not a map")
    if raw.keys() != ENTRY_KEYS:
        names = ", ".join(sorted(map(str, raw.keys() ^ ENTRY_KEYS)))
        raise UnreadableLog(f"{source}: event {index} has keys missing or unknown: {names:.80}")
    for key, kind in (("version", int), ("type", str), ("v", int), ("fields", dict), ("chain", bytes)):
        if type(raw[key]) is not kind:
            raise UnreadableLog(f"{source}: event {index} has no valid {key!r}")
    if type(raw["time"]) is not datetime:
        raise UnreadableLog(f"{source}: event {index} has no valid 'time'")
    # Not reached (the checks above name every way the fast path fails); a chain of the wrong length
    # is the chain stage's finding, not the reader's.
    raise UnreadableLog(f"{source}: event {index} is malformed")


def recorded_of(entries: Sequence[FileEntry]) -> list[RecordedEvent]:
    """Returns a file's entries as recorded events (decoded, not checked: tests build forgeries so)."""
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
