"""The audit's first stage: the hash chain, link by link. Flat events in sorted key order are encoded
with one msgpack call; anything else goes through the canonical encoder.

Hashing a file's bytes as read instead was measured and is slower: an event's hashed bytes are not one
slice of the file (its entry's keys sit between type, v and fields), and finding them per event in
Python (Unpacker.tell() and offsets) costs more than the one C call that packs them again."""

from __future__ import annotations

from collections.abc import Sequence
from hashlib import sha256
from typing import Any

import msgpack

from domain.audit.report import AuditReport, LogEntry
from domain.events import GENESIS_CHAIN, Event, Sealed, field_types, next_chain


def check_links(
    entries: Sequence[LogEntry],
    report: AuditReport,
    readable: int | None = None,
    events: Sequence[Event] | None = None,
    start: int = 0,
) -> None:
    """Checks each entry's number and chain value against the one before it. The first `readable`
    entries hold their fields' types (see decode_all; `events` are what they decoded to); any after
    them are encoded only if they nest no deeper than a log ever does, so a forged value cannot make
    the encoder recurse without end. With `start`, the first `start` entries are a trusted prefix: only
    the last one's chain value is read (the link the next one must follow)."""
    previous = entries[start - 1].chain if start else GENESIS_CHAIN
    readable = len(entries) if readable is None else readable
    pack = msgpack.Packer(use_bin_type=True).pack  # one per call: a pack that raises leaves no state behind
    orders: list[tuple[int, tuple[str, ...]] | None] = []
    if events is not None:
        gap: list[tuple[int, tuple[str, ...]] | None] = [None] * start
        orders = gap + [_flat_order(type(e)) for e in events[start:readable]]
    for index in range(start + 1, len(entries) + 1):
        entry = entries[index - 1]
        if entry.version != index:
            report.add(index, "numbering", f"event {index} is numbered {entry.version!r:.20}")
        link = b""
        order = orders[index - 1] if index <= len(orders) else None
        if order is not None and entry.class_version == order[0] and tuple(entry.fields) == order[1]:
            # Flat fields of exact scalar types, already in sorted key order: msgpack's own encoding of
            # them is the canonical one, so one C call replaces the canonical re-encoding.
            link = sha256(previous + pack([entry.type_name, entry.class_version, entry.fields])).digest()
        elif index <= readable or nesting_within(entry.fields, MAX_FIELD_DEPTH):
            try:
                link = next_chain(previous, entry.type_name, entry.class_version, entry.fields)
            except (TypeError, ValueError) as exc:
                report.add(index, "format", f"event {index} cannot be encoded canonically: {exc}")
        if link and link != entry.chain:
            report.add(
                index,
                "chain",
                f"the chain breaks at event {index} ({entry.type_name}): it does not follow from event "
                f"{index - 1}, so the log was edited, cut, extended or reordered here",
            )
        previous = entry.chain if isinstance(entry.chain, bytes) else b""


_FLAT_ORDERS: dict[type, tuple[int, tuple[str, ...]] | None] = {}
_FLAT_GRAMMARS = frozenset({"str", "int", "bool", "bin"})


def _flat_order(cls: type) -> tuple[int, tuple[str, ...]] | None:
    """Returns (class version, sorted field names) of a public event type whose fields are all scalars
    or arrays of scalars, else None (a map's keys, a sealed form or an upcast need the canonical encoder)."""
    try:
        return _FLAT_ORDERS[cls]
    except KeyError:
        pass
    flat = None
    if issubclass(cls, Event) and cls is not Sealed and not cls.private and cls._field_names:
        grammars = [kind.grammar.removeprefix("array of ") for _, kind in field_types(cls)]
        if all(grammar in _FLAT_GRAMMARS for grammar in grammars):
            flat = (cls.class_version, tuple(sorted(cls._field_names)))
    _FLAT_ORDERS[cls] = flat
    return flat


# No field of any event nests deeper than this (a map of seats inside the fields map is 3).
MAX_FIELD_DEPTH = 8


def nesting_within(value: Any, limit: int) -> bool:
    """Tells whether a value's arrays and maps nest at most `limit` deep (walked without recursion)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            if depth >= limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return True


def chain_of(entries: Sequence[LogEntry]) -> bytes:
    """Recomputes the chain value at the end of a run of entries, from the genesis value."""
    chain = GENESIS_CHAIN
    for entry in entries:
        chain = next_chain(chain, entry.type_name, entry.class_version, entry.fields)
    return chain
