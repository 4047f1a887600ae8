"""Play-by-e-mail packets: what they hold, how they are signed, and their ASCII armour.

A packet is one msgpack map `{"format": "nightkeep-packet", "format_version": 1, "kind", "body",
"signature"}`; `body` is the canonical msgpack of the kind's map (as bytes, so the signature covers
exactly what was sent), `signature` the signer's Ed25519 signature: of `domain.signing.action_bytes` /
`entropy_bytes` for an action or entropy (so it can be recorded in the log), of `packet_bytes(kind,
body bytes)` for every other kind. Players sign `action`, `entropy` and `join`; the host signs
`invite` and `events`. docs/play-by-email.md has the layout of every body.

The armour survives mail: between its BEGIN and END lines only base64 characters count, so quoting
(`> `), re-wrapping, CRLF line ends and indentation change nothing; a checksum after `*` tells a
damaged packet from a forged one.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgpack

from domain.club import signed_bytes
from domain.errors import BadPacket, UnreadableLog
from domain.events import canonical_bytes, canonical_form
from domain.signing import (
    SIGNATURE_BYTES,
    action_bytes,
    entropy_bytes,
    is_valid_signature,
    packet_bytes,
)
from event_store.log_reader import LIMITS, FileEntry, Limits, file_entries, unpack_bounded

FORMAT = "nightkeep-packet"
FORMAT_VERSION = 1
BEGIN = "-----BEGIN NIGHTKEEP PACKET-----"
END = "-----END NIGHTKEEP PACKET-----"
WIDTH = 64
PLAYER_KINDS = ("action", "entropy", "join", "press", "vacation", "answer")
# A seat's signed words (domain.club): each is signed as its club event records it (`signed_bytes`).
WORD_KINDS = ("press", "vacation", "answer")
# The body's keys and their types, per kind ("entries": a list of log entries).
BODIES: dict[str, dict[str, type | str]] = {
    "action": {"game": str, "player": str, "version": int, "chain": bytes, "action": str, "nonce": bytes},
    "entropy": {"game": str, "player": str, "version": int, "chain": bytes, "value": bytes},
    "join": {"game": str, "player": str, "version": int, "chain": bytes},
    "invite": {"game": str, "player": str, "host_key": bytes, "host_mail": str, "events": "entries"},
    "events": {"game": str, "player": str, "since": int, "events": "entries", "to_act": "names"},
    "press": {"game": str, "player": str, "version": int, "chain": bytes, "to": "names", "text": str},
    "vacation": {"game": str, "player": str, "version": int, "chain": bytes, "seconds": int},
    "answer": {"game": str, "player": str, "version": int, "chain": bytes, "to": int, "agreed": bool},
}
PACKET_KEYS = frozenset({"format", "format_version", "kind", "body", "signature"})
# A packet holds at most a whole game's log; its body is read with the log reader's limits.
PACKET_LIMITS = Limits(max_bin=LIMITS.max_bytes, max_map=8, max_events=8)


@dataclass(frozen=True)
class Packet:
    """A packet read from its armour: its kind, body (checked shape), the exact body bytes, signature."""

    kind: str
    body: dict[str, Any]
    body_bytes: bytes
    signature: bytes

    @property
    def game(self) -> UUID:
        """Returns the game the packet is about."""
        return UUID(self.body["game"])

    @property
    def player(self) -> str:
        """Returns the seat the packet comes from (player kinds) or is addressed to (host kinds)."""
        player: str = self.body["player"]
        return player

    @property
    def entries(self) -> list[FileEntry]:
        """Returns the log entries an invite or event packet carries."""
        entries: list[FileEntry] = self.body["events"]
        return entries

    @property
    def digest(self) -> str:
        """Returns a short stable id of this packet (the sha256 of its body and signature)."""
        return hashlib.sha256(self.body_bytes + self.signature).hexdigest()[:32]

    def signed_message(self) -> bytes:
        """Returns the bytes the signer signed."""
        b = self.body
        if self.kind == "action":
            return action_bytes(b["version"], b["chain"], b["player"], b["action"], b["nonce"])
        if self.kind == "entropy":
            return entropy_bytes(b["version"], b["chain"], b["player"], b["value"])
        if self.kind in WORD_KINDS:
            return signed_bytes(self.kind, b["version"], b["chain"], b["player"], word_payload(self.kind, b))
        return packet_bytes(self.kind, {"body": self.body_bytes})

    def is_signed_by(self, key: bytes) -> bool:
        """Tells whether the packet carries a valid signature by the holder of `key`."""
        return is_valid_signature(key, self.signed_message(), self.signature)


def word_payload(kind: str, body: dict[str, Any]) -> Any:
    """Returns what a seat's words packet signs, as its club event will record it (domain.club)."""
    if kind == "press":
        return [sorted(body["to"]) or ["all"], body["text"]]
    if kind == "vacation":
        return body["seconds"]
    return [body["to"], body["agreed"]]


def make_packet(kind: str, body: dict[str, Any], sign: Any) -> str:
    """Returns the armoured text of a new packet; `sign(message) -> signature` is the signer's key."""
    if kind not in BODIES or set(body) != set(BODIES[kind]):
        raise ValueError(f"a {kind} packet's body has the keys {sorted(BODIES.get(kind, {}))}")
    body_bytes = _pack_body(body)
    draft = Packet(kind, body, body_bytes, b"")
    signature: bytes = sign(draft.signed_message())
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": kind,
        "body": body_bytes,
        "signature": signature,
    }
    return armour(canonical_bytes(document))


def _pack_body(body: dict[str, Any]) -> bytes:
    plain = dict(body)
    if "events" in plain:
        plain["events"] = [entry_map(e) for e in plain["events"]]
    # Canonical order as a replay file writes it (its entries' timestamps pass through as they are).
    packed: bytes = msgpack.packb(canonical_form(plain), use_bin_type=True, datetime=True)
    return packed


def entry_map(entry: FileEntry) -> dict[str, Any]:
    """Returns a log entry in the replay file's entry shape (docs/replay-format.md)."""
    return {
        "version": entry.version,
        "type": entry.type_name,
        "v": entry.class_version,
        "fields": entry.fields,
        "chain": entry.chain,
        "time": entry.time,
    }


# --- armour ------------------------------------------------------------------------------------------


def armour(data: bytes) -> str:
    """Returns packet bytes as ASCII armour: BEGIN line, base64 in lines of 64, `*` checksum, END line."""
    encoded = base64.b64encode(data).decode()
    lines = [encoded[i : i + WIDTH] for i in range(0, len(encoded), WIDTH)]
    return "\n".join([BEGIN, *lines, "*" + _checksum(data), END]) + "\n"


def _checksum(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:8]


_ARMOUR = re.compile(re.escape(BEGIN) + r"(.*?)" + re.escape(END), re.S)
_NOT_BASE64 = re.compile(r"[^A-Za-z0-9+/=*]")


def find_armoured(text: str) -> list[bytes]:
    """Returns the bytes of every armoured packet in a text (a mail body, quoted or re-wrapped, or a
    file), each checked against its checksum; BadPacket names a damaged one."""
    found = []
    for match in _ARMOUR.finditer(text.replace("\r", "")):
        # Quote marks, spaces and line ends are not base64: dropping every such character undoes what
        # mail clients do to a pasted packet.
        inner = _NOT_BASE64.sub("", match.group(1))
        encoded, star, checksum = inner.rpartition("*")
        if not star:
            raise BadPacket("a packet has lost its checksum line (damaged in transit): ask for it again")
        try:
            data = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise BadPacket("a packet's text is damaged beyond repair: ask for it again") from None
        if _checksum(data) != checksum:
            raise BadPacket(
                "a packet's text is damaged beyond repair (its checksum differs): ask for it again"
            )
        if data not in found:  # a mail carries its packet twice: attached and in the body
            found.append(data)
    if not found and BEGIN in text and END not in text:
        raise BadPacket("a packet is truncated (its END line is missing): ask for it again")
    return found


def packets_in(text: str, source: str = "packet") -> list[Packet]:
    """Reads every packet in a text (none, for a text without any) through the one reader's bounded
    decoding, and checks each shape; BadPacket names a damaged or malformed one."""
    return [decode_packet(data, source) for data in find_armoured(text)]


def read_packets(text: str, source: str = "packet") -> list[Packet]:
    """Reads the packets of a text that must hold at least one."""
    found = packets_in(text, source)
    if not found:
        raise BadPacket(f"{source} holds no nightkeep packet (no BEGIN NIGHTKEEP PACKET line)")
    return found


def decode_packet(data: bytes, source: str = "packet") -> Packet:
    """Decodes one packet's bytes and checks the exact keys and types of the packet and its body."""
    try:
        document = unpack_bounded(data, source, PACKET_LIMITS)
    except UnreadableLog as exc:
        raise BadPacket(str(exc)) from None
    if type(document) is not dict or document.keys() != PACKET_KEYS or document.get("format") != FORMAT:
        raise BadPacket(f"{source} is not a nightkeep packet")
    if document["format_version"] != FORMAT_VERSION or type(document["format_version"]) is not int:
        raise BadPacket(
            f"{source} is packet format {document['format_version']!r:.20}, this nightkeep reads 1"
        )
    kind, body_bytes, signature = document["kind"], document["body"], document["signature"]
    if type(kind) is not str or kind not in BODIES:
        raise BadPacket(f"{source} is a packet of an unknown kind {kind!r:.20}")
    if type(body_bytes) is not bytes or type(signature) is not bytes or len(signature) != SIGNATURE_BYTES:
        raise BadPacket(f"{source} is a malformed {kind} packet (body or signature)")
    try:
        body = unpack_bounded(body_bytes, f"{source}'s body")
    except UnreadableLog as exc:
        raise BadPacket(str(exc)) from None
    checked = _checked_body(kind, body, source)
    # An action or entropy signature covers the move, not the body's bytes: only the one canonical
    # encoding is accepted, so a re-encoded copy of a packet is the same packet (the same digest).
    if msgpack.packb(canonical_form(body), use_bin_type=True, datetime=True) != body_bytes:
        raise BadPacket(f"{source} is a {kind} packet whose body is not in canonical form")
    return Packet(kind, checked, body_bytes, signature)


def _checked_body(kind: str, body: Any, source: str) -> dict[str, Any]:
    shape = BODIES[kind]
    if type(body) is not dict or body.keys() != shape.keys():
        raise BadPacket(f"{source} is a malformed {kind} packet (its body has the wrong keys)")
    checked = dict(body)
    for key, kind_of in shape.items():
        value = body[key]
        if kind_of == "entries":
            try:
                checked[key] = file_entries(value, f"{source}'s events")
            except UnreadableLog as exc:
                raise BadPacket(str(exc)) from None
        elif kind_of == "names":
            if type(value) is not list or not all(type(v) is str for v in value):
                raise BadPacket(f"{source} is a malformed {kind} packet ({key!r})")
        elif type(value) is not kind_of:
            raise BadPacket(f"{source} is a malformed {kind} packet ({key!r} is not {kind_of!s:.30})")
    try:
        canonical = str(UUID(checked["game"]))
    except ValueError:
        raise BadPacket(f"{source} names no game id") from None
    if canonical != checked["game"]:  # one spelling per game, so one packet has one digest
        raise BadPacket(f"{source} spells its game id {checked['game']!r:.60}, not as {canonical}")
    if kind in PLAYER_KINDS and not 0 <= checked["version"] <= LIMITS.max_events:
        raise BadPacket(f"{source} names an event number no game has")
    return checked
