"""Mutations of replay files, as an attacker or a broken disk would make them, and the doors they are
thrown at: `import`, `replay FILE` and `audit`. Shared by the fuzz test (tests/replays/test_doors_fuzz.py,
driven by hypothesis) and the soak script (benchmarks/soak_doors.py, 100,000 seeded cases).

Every mutation takes a genuine file's bytes and a `random.Random` and returns new bytes. What the doors
must do with any of them: no exception but nightkeep's own one-line errors, nothing stored unless the
file is accepted, and nothing accepted but the genuine history or a prefix of it (the fields that no
rule reads — the version label, a fork's original id, which seated player gave entropy, the times,
and a nonce that gives the same outcomes — aside).
"""

from __future__ import annotations

import copy
import random
import struct
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import msgpack

from domain.errors import NightkeepError
from domain.events import GENESIS_CHAIN, next_chain
from domain.game import GameFold
from event_store.app.replay_file import audit_replay, import_game, read_replay
from event_store.app.service import GameService
from projections.timeline import describe_event
from projections.views import render_board

Document = dict[str, Any]
Mutation = Callable[[bytes, random.Random], bytes]


def unpack(data: bytes) -> Document:
    document: Document = msgpack.unpackb(data, raw=False, timestamp=3, strict_map_key=False)
    return document


def pack(value: Any) -> bytes:
    packed: bytes = msgpack.packb(value, use_bin_type=True, datetime=True)
    return packed


def rechain(document: Document) -> Document:
    """Renumbers the events, recomputes every chain value and the header's count: a careful forger."""
    chain = GENESIS_CHAIN
    for number, entry in enumerate(document["events"], start=1):
        entry["version"] = number
        chain = entry["chain"] = next_chain(chain, entry["type"], entry["v"], entry["fields"])
    document["header"]["events"] = len(document["events"])
    return document


def _maybe_rechain(document: Document, rng: random.Random) -> bytes:
    if rng.random() < 0.7:
        try:
            rechain(document)
        except Exception:  # a mangled document or a value the encoder refuses: the chain stays as it was
            pass
    return pack(document)


def _some_event(document: Document, rng: random.Random) -> dict[str, Any]:
    event: dict[str, Any] = rng.choice(document["events"])
    return event


def _some_field(document: Document, rng: random.Random) -> tuple[dict[str, Any], str]:
    while True:
        fields = _some_event(document, rng)["fields"]
        if fields:
            return fields, rng.choice(sorted(fields))


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.randrange(12)
    if roll == 0:
        return None
    if roll == 1:
        return rng.random() * 10
    if roll == 2:
        return rng.choice([True, False])
    if roll == 3:
        return rng.choice([0, -1, 1, 2**31, 2**63 - 1, 2**63, 2**64 - 1, -(2**63), rng.randrange(-99, 99)])
    if roll == 4:
        return "".join(rng.choice("abcé/:-\x00") for _ in range(rng.randrange(12)))
    if roll == 5:
        return rng.randbytes(rng.choice([0, 1, 31, 32, 33]))
    if roll == 6 and depth < 3:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if roll == 7 and depth < 3:
        return {f"k{i}": _random_value(rng, depth + 1) for i in range(rng.randrange(4))}
    if roll == 8:
        return {1: "int key", "s": 2}
    if roll == 9:
        return msgpack.ExtType(rng.randrange(0, 127), b"ext")
    if roll == 10:
        return datetime(1970, 1, 1, tzinfo=UTC)
    return rng.choice(["", "Ann", "dungeon/card/giant-rat", "host", "castle/character/lady"])


# --- the mutations ---------------------------------------------------------------------------------------


def flip_bits(data: bytes, rng: random.Random) -> bytes:
    mutable = bytearray(data)
    for _ in range(rng.randrange(1, 5)):
        mutable[rng.randrange(len(mutable))] ^= 1 << rng.randrange(8)
    return bytes(mutable)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data))]


def nest_deeply(data: bytes, rng: random.Random) -> bytes:
    document = unpack(data)
    fields, name = _some_field(document, rng)
    value: Any = fields[name]
    for _ in range(rng.choice([20, 100, 300, 500, 800])):
        value = [value] if rng.random() < 0.5 else {"x": value}
    fields[name] = value
    return pack(document)  # no forger can chain this: the canonical encoder is never asked to


def wrong_type(data: bytes, rng: random.Random) -> bytes:
    document = unpack(data)
    where = rng.randrange(4)
    if where == 0:
        fields, name = _some_field(document, rng)
        fields[name] = _random_value(rng)
    elif where == 1:
        entry = _some_event(document, rng)
        entry[rng.choice(sorted(entry))] = _random_value(rng)
    elif where == 2:
        header = document["header"]
        header[rng.choice(sorted(header))] = _random_value(rng)
    else:
        document[rng.choice(sorted(document))] = _random_value(rng)
    return _maybe_rechain(document, rng)


def huge_number(data: bytes, rng: random.Random) -> bytes:
    document = unpack(data)
    huge = rng.choice([2**64 - 1, 2**63, 2**63 - 1, -(2**63), 2**32, -1])
    numbers = [
        (f, k) for e in document["events"] for f in [e["fields"]] for k, v in f.items() if type(v) is int
    ]
    lists = [v for e in document["events"] for v in e["fields"].values() if type(v) is list and v]
    choice = rng.randrange(4)
    if choice == 0 and numbers:
        fields, name = rng.choice(numbers)
        fields[name] = huge
    elif choice == 1 and lists:
        target = rng.choice(lists)
        target[rng.randrange(len(target))] = huge
    elif choice == 2:
        _some_event(document, rng)["version"] = huge
    else:
        _some_event(document, rng)["v"] = huge
    return _maybe_rechain(document, rng) if choice < 2 else pack(document)


def huge_length(data: bytes, rng: random.Random) -> bytes:
    """Rewrites a container or string header to announce far more than follows (or than may be)."""
    kind = rng.randrange(4)
    start = rng.randrange(len(data))
    if kind == 0:
        head = b"\xdd" + struct.pack(">I", rng.choice([2**32 - 1, 2**20, 1_000_001]))  # array32
    elif kind == 1:
        head = b"\xdf" + struct.pack(">I", rng.choice([2**32 - 1, 300]))  # map32
    elif kind == 2:
        head = b"\xdb" + struct.pack(">I", rng.choice([2**32 - 1, 5000]))  # str32
    else:
        head = b"\xc6" + struct.pack(">I", rng.choice([2**32 - 1, 5000]))  # bin32
    if rng.random() < 0.5:
        return data[:start] + head + data[start + 1 :]
    return head + data  # and a file that is one huge value


def long_value(data: bytes, rng: random.Random) -> bytes:
    """A string, byte string, map or array longer than a replay file may hold, in a field."""
    document = unpack(data)
    fields, name = _some_field(document, rng)
    fields[name] = rng.choice(["x" * 5000, b"x" * 5000, {f"k{i}": 1 for i in range(300)}, list(range(5000))])
    return _maybe_rechain(document, rng)


def reorder_events(data: bytes, rng: random.Random) -> bytes:
    document = unpack(data)
    events = document["events"]
    kind = rng.randrange(4)
    i, j = rng.randrange(len(events)), rng.randrange(len(events))
    if kind == 0:
        events.insert(i, copy.deepcopy(events[j]))  # a duplicated event
    elif kind == 1:
        events[i], events[j] = events[j], events[i]  # two swapped events
    elif kind == 2:
        del events[i]  # a dropped event
    else:
        other = copy.deepcopy(events[j])
        other["fields"] = copy.deepcopy(_some_event(document, rng)["fields"])
        events.insert(i, other)  # an event made up of parts of others
    return _maybe_rechain(document, rng)


def _plausible(value: Any, values_seen: list[Any], rng: random.Random) -> Any:
    """Another value of the same type, as a forger who knows the format would pick."""
    same = [v for v in values_seen if type(v) is type(value) and v != value]
    if same and rng.random() < 0.6:
        return copy.deepcopy(rng.choice(same))
    if type(value) is bool:
        return not value
    if type(value) is int:
        return value + rng.choice([-2, -1, 1, 2])
    if type(value) is str:
        return value + "x" if value else "x"
    if type(value) is bytes:
        return (bytes([value[0] ^ 1]) + value[1:]) if value else b"\x00"
    if type(value) is list:
        return value[1:] if value and rng.random() < 0.5 else value + value[:1]
    if type(value) is dict and value:
        key = rng.choice(sorted(value))
        return {**value, key: _plausible(value[key], [], rng)}
    return value


def forge_field(data: bytes, rng: random.Random) -> bytes:
    """A re-chained forgery: one field given another value of its type."""
    document = unpack(data)
    fields, name = _some_field(document, rng)
    seen = [e["fields"][name] for e in document["events"] if name in e["fields"]]
    fields[name] = _plausible(fields[name], seen, rng)
    return pack(rechain(document))


def forge_header(data: bytes, rng: random.Random) -> bytes:
    document = unpack(data)
    header = document["header"]
    key = rng.choice(sorted(header))
    header[key] = _plausible(header[key], [], rng)
    return pack(document)


def repeat_key(data: bytes, rng: random.Random) -> bytes:
    """Writes one map of the file with a key named twice, the second time with another value."""
    document = unpack(data)
    fields, name = _some_field(document, rng)
    seen = [e["fields"][name] for e in document["events"] if name in e["fields"]]
    other = _plausible(fields[name], seen, rng)
    packer = msgpack.Packer(use_bin_type=True, datetime=True)

    def pack_value(value: Any) -> bytes:
        if value is fields:
            pairs = [*value.items(), (name, other)] if rng.random() < 0.5 else [(name, other), *value.items()]
            return packer.pack_map_header(len(pairs)) + b"".join(
                pack_value(k) + pack_value(v) for k, v in pairs
            )
        if isinstance(value, dict):
            items = value.items()
            return packer.pack_map_header(len(value)) + b"".join(
                pack_value(k) + pack_value(v) for k, v in items
            )
        if isinstance(value, list):
            return packer.pack_array_header(len(value)) + b"".join(pack_value(v) for v in value)
        return packer.pack(value)

    return pack_value(document)


MUTATIONS: dict[str, Mutation] = {
    "repeat_key": repeat_key,
    "flip_bits": flip_bits,
    "truncate": truncate,
    "nest_deeply": nest_deeply,
    "wrong_type": wrong_type,
    "huge_number": huge_number,
    "huge_length": huge_length,
    "long_value": long_value,
    "reorder_events": reorder_events,
    "forge_field": forge_field,
    "forge_header": forge_header,
}


# --- the doors -----------------------------------------------------------------------------------------


def chained_content(data: bytes) -> list[tuple[Any, ...]] | None:
    """Returns a file's chained history (type, v, fields of each event) with the fields no rule reads
    blanked, or None for bytes that are not a replay document at all."""
    try:
        document = unpack(data)
        events = document["events"]
        history = []
        for entry in events:
            fields = dict(entry["fields"])
            if entry["type"] == "GameCreated":
                fields["nightkeep_version"] = ""
            elif entry["type"] == "ForkedFrom":
                fields["game"] = ""
            elif entry["type"] == "EntropyAdded":
                fields["player"] = ""  # a label among the seats (the audit checks it is one)
            elif entry["type"] == "ActionTaken":
                fields["nonce"] = b""  # it counts through the outcomes it gives, which the audit checks
            history.append((entry["type"], entry["v"], fields))
        return history
    except Exception:
        return None


def accepted_history_is_genuine(original: bytes, accepted: bytes) -> bool:
    """Whether what a door accepted is the original history, or a prefix of it, aside from fields no
    rule reads and nonces: a nonce counts only through the outcomes it gives, which the audit has
    recomputed (another nonce that gives the same rolls, or an action that draws nothing, or a pick
    among one card, or scripted dice, is not a different game)."""
    mine, theirs = chained_content(original), chained_content(accepted)
    return mine is not None and theirs is not None and mine[: len(theirs)] == theirs


class DoorBroken(Exception):
    """A door broke one of the properties every door keeps (the soak counts each kind apart)."""


class PartialWrite(DoorBroken):
    """A refused import changed the store."""


class DoorsDisagree(DoorBroken):
    """Replay and audit disagreed about a file."""


class CrashHidden(DoorBroken):
    """A check tripped over the file and only the audit's catch-all kept it from a traceback."""


class ForgeryStored(DoorBroken):
    """Import stored a file the audit refuses, or a history that is not the genuine one."""


@dataclass
class Outcome:
    """What the three doors did with one file."""

    audited: bool  # readable (a report came back)
    clean: bool  # the audit found nothing
    replayed: bool
    imported: bool


def store_snapshot(service: GameService) -> tuple[Any, ...]:
    """What a refused import must leave as it was: every stored event and the copy table."""
    notifications = service.recorder.select_notifications(1, 1_000_000)
    return (
        tuple((n.id, n.originator_id, n.originator_version, n.state) for n in notifications),
        tuple(sorted(service.copies.all().items())),
    )


def through_the_doors(data: bytes, service: GameService) -> Outcome:
    """Throws one file at audit, replay (as `nightkeep replay FILE --no-interactive` reads and shows
    it) and import; any exception but nightkeep's own escapes to the caller."""
    try:
        report = audit_replay(data, "fuzz.nkr")
        audited, clean = True, report.ok
        if any("the audit could not go on" in f.detail for f in report.findings):
            raise CrashHidden("the audit's last-resort guard caught an exception no check named")
    except NightkeepError:
        audited, clean = False, False
    try:
        replay = read_replay(data, "fuzz.nkr")
        fold = GameFold()
        for recorded in replay.events:
            describe_event(replay.header["ruleset"], recorded.event)
            fold.apply(recorded.event, recorded.chain)
        render_board(replay.header["ruleset"], fold.state)
        replayed = True
    except NightkeepError:
        replayed = False
    before = store_snapshot(service)
    try:
        import_game(service, data, "fuzz.nkr")
        imported = True
    except NightkeepError:
        imported = False
        if store_snapshot(service) != before:
            raise PartialWrite("a refused import changed the store") from None
    return Outcome(audited, clean, replayed, imported)


def check_doors(original: bytes, data: bytes, service: GameService) -> Outcome:
    """Checks the properties every door keeps for one mutated file (DoorBroken if one is broken)."""
    outcome = through_the_doors(data, service)
    if outcome.replayed != outcome.clean:
        raise DoorsDisagree("replay and audit disagree about the file")
    if outcome.imported and not outcome.clean:
        raise ForgeryStored("import stored a file the audit refuses")
    if outcome.imported and not accepted_history_is_genuine(original, data):
        raise ForgeryStored("import stored a history that is not the genuine one")
    return outcome


def fresh_store() -> GameService:
    return GameService.open(":memory:")


def game_of(data: bytes) -> UUID:
    return UUID(unpack(data)["header"]["game"])
