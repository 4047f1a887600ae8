"""docs/replay-format.md is precise enough to verify a file without nightkeep's code.

This file re-implements what the document describes — the canonical encoding, the chain, the draws —
using only the standard library and a generic msgpack decoder, and checks every recorded file with
it. It also checks that docs/events.md is the catalogue the code generates.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from datetime import UTC, datetime
from pathlib import Path

import msgpack
import pytest

from projections.event_catalogue import DOC, catalogue_markdown

REPLAYS = sorted((Path(__file__).resolve().parent.parent / "replays").glob("*.nkr"))


def encode(value) -> bytes:
    """The canonical msgpack of docs/replay-format.md, written from the document."""
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, int):
        if 0 <= value < 0x80:
            return bytes([value])
        if -32 <= value < 0:
            return struct.pack(">b", value)
        if value >= 0:
            for marker, fmt, limit in ((0xCC, ">B", 1 << 8), (0xCD, ">H", 1 << 16), (0xCE, ">I", 1 << 32)):
                if value < limit:
                    return bytes([marker]) + struct.pack(fmt, value)
            return b"\xcf" + struct.pack(">Q", value)
        for marker, fmt, limit in ((0xD0, ">b", 1 << 7), (0xD1, ">h", 1 << 15), (0xD2, ">i", 1 << 31)):
            if value >= -limit:
                return bytes([marker]) + struct.pack(fmt, value)
        return b"\xd3" + struct.pack(">q", value)
    if isinstance(value, str):
        raw = value.encode()
        if len(raw) < 32:
            return bytes([0xA0 | len(raw)]) + raw
        return _sized(raw, (0xD9, 0xDA, 0xDB))
    if isinstance(value, bytes):
        return _sized(value, (0xC4, 0xC5, 0xC6))
    if isinstance(value, list):
        head = bytes([0x90 | len(value)]) if len(value) < 16 else _length(len(value), (None, 0xDC, 0xDD))
        return head + b"".join(encode(v) for v in value)
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (0, k) if isinstance(k, int) else (1, k.encode()))
        head = bytes([0x80 | len(value)]) if len(value) < 16 else _length(len(value), (None, 0xDE, 0xDF))
        return head + b"".join(encode(k) + encode(value[k]) for k in keys)
    if isinstance(value, datetime):
        return _timestamp(value)
    raise TypeError(f"not in the format: {value!r}")


def _length(n, markers):
    _, m16, m32 = markers
    return bytes([m16]) + struct.pack(">H", n) if n < 1 << 16 else bytes([m32]) + struct.pack(">I", n)


def _sized(raw, markers):
    m8, m16, m32 = markers
    n = len(raw)
    if n < 1 << 8:
        return bytes([m8, n]) + raw
    return (bytes([m16]) + struct.pack(">H", n) if n < 1 << 16 else bytes([m32]) + struct.pack(">I", n)) + raw


def _timestamp(moment: datetime) -> bytes:
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    seconds = delta.days * 86400 + delta.seconds
    nanos = delta.microseconds * 1000
    if seconds >> 34 == 0:
        if nanos == 0 and seconds < 1 << 32:
            return b"\xd6\xff" + struct.pack(">I", seconds)
        return b"\xd7\xff" + struct.pack(">Q", nanos << 34 | seconds)
    return b"\xc7\x0c\xff" + struct.pack(">Iq", nanos, seconds)


def draw(seed: bytes, pool: bytes, nonce: bytes, n: int, outcomes: int) -> int:
    """Draw n with `outcomes` results, as the document's Dice section describes it."""
    space = 1 << 256
    limit = space - space % outcomes
    k = 0
    while True:
        msg = pool + len(nonce).to_bytes(4, "big") + nonce + n.to_bytes(8, "big") + k.to_bytes(4, "big")
        x = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest(), "big")
        if x < limit:
            return x % outcomes
        k += 1


def private_types() -> set[str]:
    """The event types docs/events.md marks private."""
    found = set()
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 5 and cells[4].startswith("private"):
            found.add(cells[1].strip("`"))
    return found


PRIVATE = private_types()


def salt_of(seed: bytes, pool: bytes, nonce: bytes, n: int) -> bytes:
    """Draw n as a salt, as the document's Dice section describes it."""
    msg = pool + len(nonce).to_bytes(4, "big") + nonce + n.to_bytes(8, "big") + b"salt\x00"
    return hmac.new(seed, msg, hashlib.sha256).digest()


def commitment(value, salt: bytes) -> bytes:
    return hashlib.sha256(encode([value, salt])).digest()


def test_there_are_files_to_check():
    assert REPLAYS


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_the_file_is_canonical_and_chained_as_documented(path):
    data = path.read_bytes()
    document = msgpack.unpackb(data, raw=False, timestamp=3)
    assert encode(document) == data  # the whole file, timestamps included
    assert document["format"] == "nightkeep-replay" and document["format_version"] == 1
    chain = bytes(32)
    for number, event in enumerate(document["events"], start=1):
        assert event["version"] == number
        fields = event["fields"]
        if event["type"] in PRIVATE and set(fields) != {"owner", "sealed"}:
            # The chain covers a private event's sealed form: its owner and the sha256 of the event.
            digest = hashlib.sha256(encode([event["type"], event["v"], fields])).digest()
            fields = {"owner": fields["owner"], "sealed": digest}
        chain = hashlib.sha256(chain + encode([event["type"], event["v"], fields])).digest()
        assert chain == event["chain"], f"event {number}"
    assert document["header"]["events"] == len(document["events"])


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_every_die_face_follows_from_the_revealed_seed_as_documented(path):
    events = msgpack.unpackb(path.read_bytes(), raw=False, timestamp=3)["events"]
    created = next(e["fields"] for e in events if e["type"] == "GameCreated")
    # A seed is public once revealed, or named by a fork; each draw uses the commitment in force.
    public = [e["fields"]["seed"] for e in events if e["type"] in ("SeedRevealed", "ForkedFrom")]
    seeds = {hashlib.sha256(seed).digest(): seed for seed in public if seed}
    script, pool, nonce, commitment, checked = list(created["dice_script"]), bytes(32), b"", b"", 0
    for event in events:
        fields = event["fields"]
        if event["type"] == "SeedCommitted":
            commitment = fields["commitment"]
        elif event["type"] == "EntropyAdded":
            pool = hashlib.sha256(pool + fields["value"]).digest()
        elif event["type"] == "ActionTaken":
            nonce = fields["nonce"]
        elif event["type"] == "DieRolled":
            for n, face in zip(fields["draws"], fields["values"], strict=True):
                if script:
                    expected = script.pop(0)
                else:
                    expected = draw(seeds[commitment], pool, nonce, n, fields["sides"]) + 1
                assert face == expected, f"draw {n}"
                checked += 1
        elif isinstance(fields.get("salt_draw"), int) and fields["salt_draw"] >= 0:
            expected_salt = salt_of(seeds[commitment], pool, nonce, fields["salt_draw"])
            assert fields["salt"] == expected_salt, f"salt draw {fields['salt_draw']}"
            checked += 1
    assert checked > 0


def vampire_empire_files() -> list[Path]:
    return [p for p in REPLAYS if b"IdentitiesCommitted" in p.read_bytes()]


@pytest.mark.parametrize("path", vampire_empire_files(), ids=lambda p: p.name)
def test_every_vampire_empire_commitment_opens_as_documented(path):
    """Identity commitments from the vampire player's secret, hand commitments from each
    CardsReceived, and every reveal against what it claims to open."""
    events = msgpack.unpackb(path.read_bytes(), raw=False, timestamp=3)["events"]
    identities: dict[str, bytes] = {}
    hands: dict[str, list[bytes]] = {}
    received: dict[str, dict] = {}
    opened = 0
    for event in events:
        kind, fields = event["type"], event["fields"]
        if kind == "IdentityTokensDrawn" and fields["identity"] == "vampire":
            secret = fields["salt"]
            for character, salt in fields["salts"].items():
                assert salt == hashlib.sha256(secret + b"identity\x00" + character.encode()).digest()
        elif kind == "IdentitiesCommitted":
            identities = fields["commitments"]
        elif kind == "CardsReceived":
            received[fields["owner"]] = fields
        elif kind == "CardsDrawn" and fields["count"] == 0:
            assert fields["commitments"] == hands[fields["player"]]  # nothing came in: the hand as it was
        elif kind in ("CardsDrawn", "CardTaken"):
            mine = received[fields["player"]]
            salts = {
                c: hashlib.sha256(mine["salt"] + b"card\x00" + c.encode()).digest() for c in mine["hand"]
            }
            assert fields["commitments"] == sorted(commitment(c, s) for c, s in salts.items())
            hands[fields["player"]] = list(fields["commitments"])
        elif kind == "CardPlayed":
            hands[fields["player"]].remove(commitment(fields["card"], fields["salt"]))
            opened += 1
        elif kind == "IdentityRevealed":
            assert identities[fields["character"]] == commitment(fields["identity"], fields["salt"])
            opened += 1
    assert opened > 0


def test_the_event_catalogue_is_up_to_date():
    assert DOC.read_text(encoding="utf-8") == catalogue_markdown(), (
        "docs/events.md is out of date: run python -m projections.event_catalogue"
    )
