"""Proof files: one self-contained file per lie a replica caught its host in, checkable by anyone who
knows the host key's fingerprint (docs/replay-format.md, Proofs).

A proof file is one canonical msgpack map: the host-signed packets the dispute needs, verbatim, the
host's public key, and the history back to the game's creation (events 1..N-1 as a copy of the log,
other seats' private events sealed) that a packet anchors with a chain value the host signed. The
verifier recomputes the history's chain, checks every packet's host signature, then looks for the lie
the file names:

- `two-histories`: the host signed two chain values for one event, or an event whose chain value does
  not follow the one it signed for the event before;
- `changed-fields`: the host signed one event (one chain value) twice with different fields;
- `unsealed-secret`: the host sent a seat a packet holding another seat's private event unsealed;
- `audit-refused`: the history and the packet's new events, audited as one copy, have a finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgpack

from domain.audit import RawEntry, audit_log
from domain.errors import NightkeepError, UnreadableLog, UsageError
from domain.events import (
    GENESIS_CHAIN,
    canonical_bytes,
    canonical_form,
    is_private,
    is_sealed,
    next_chain,
    seal,
)
from domain.game import decode_event
from domain.other_histories import other_history
from domain.signing import KEY_BYTES, fingerprint
from event_store.log_reader import LIMITS, FileEntry, Limits, file_entries, unpack_bounded
from event_store.pbem.packets import Packet, packets_in

FORMAT = "nightkeep-proof"
FORMAT_VERSION = 1
TWO_HISTORIES, CHANGED_FIELDS, UNSEALED_SECRET, AUDIT_REFUSED, ANOTHER_HISTORY = (
    "two-histories",
    "changed-fields",
    "unsealed-secret",
    "audit-refused",
    "another-history",
)
KINDS = (TWO_HISTORIES, CHANGED_FIELDS, UNSEALED_SECRET, AUDIT_REFUSED, ANOTHER_HISTORY)
DOCUMENT: dict[str, type] = {
    "format": str,
    "format_version": int,
    "kind": str,
    "game": str,
    "event": int,
    "host_key": bytes,
    "history": bytes,
    "packets": list,
    "detail": str,
}
MAX_PACKETS = 4
MAX_DETAIL = 400
# The document holds whole packets (each at most a game's log) as text and the history as bytes; what
# is inside them is read again with the packet's and the log's own limits.
PROOF_LIMITS = Limits(max_text=LIMITS.max_bytes, max_bin=LIMITS.max_bytes, max_map=16, max_events=8)


class UnreadableProof(UnreadableLog):
    """Raised when bytes offered as a proof file are not one: not msgpack, another format, a wrong shape."""


@dataclass(frozen=True)
class ProofFile:
    """A proof file read through its bounded reader: its claim and the material to check it."""

    kind: str
    game: UUID
    event: int
    host_key: bytes
    history: list[FileEntry]
    packets: list[Packet]
    detail: str


@dataclass(frozen=True)
class Verdict:
    """What checking a proof file established: whether it holds and, in one line, what it proves."""

    holds: bool
    kind: str
    event: int
    statement: str

    def to_json(self) -> dict[str, Any]:
        """Returns the `verify --json` shape of this verdict."""
        return {"holds": self.holds, "kind": self.kind, "event": self.event, "statement": self.statement}


def pack_canonical(value: Any) -> bytes:
    """Returns a value in the canonical msgpack of replay-format.md (timestamps as they are)."""
    packed: bytes = msgpack.packb(canonical_form(value), use_bin_type=True, datetime=True)
    return packed


# --- reading ---------------------------------------------------------------------------------------------


def is_proof_file(data: bytes) -> bool:
    """Tells whether bytes look like a proof file (its map names the proof format), without checking it."""
    try:
        document = unpack_bounded(data, "file", PROOF_LIMITS)
    except (UnreadableLog, ValueError):
        return False
    return type(document) is dict and document.get("format") == FORMAT


def read_proof(data: bytes, source: str = "proof file") -> ProofFile:
    """Reads a proof file through bounded decoding and checks its exact shape; UnreadableProof if not."""
    if len(data) > PROOF_LIMITS.max_bytes:
        raise UnreadableProof(
            f"{source} is larger than a proof file may be ({PROOF_LIMITS.max_bytes:,} bytes)"
        )
    try:
        document = unpack_bounded(data, source, PROOF_LIMITS)
    except UnreadableLog as exc:
        raise UnreadableProof(str(exc)) from None
    if type(document) is not dict or document.get("format") != FORMAT:
        raise UnreadableProof(f"{source} is not a nightkeep proof file")
    if document.get("format_version") != FORMAT_VERSION or type(document.get("format_version")) is not int:
        raise UnreadableProof(
            f"{source} is proof format {document.get('format_version')!r:.20}, this reads 1"
        )
    if document.keys() != DOCUMENT.keys() or any(type(document[k]) is not t for k, t in DOCUMENT.items()):
        raise UnreadableProof(f"{source} is not a whole proof file (a key is missing, unknown or mistyped)")
    if pack_canonical(document) != data:
        raise UnreadableProof(f"{source} is not in the canonical encoding")
    if document["kind"] not in KINDS or not 1 <= document["event"] <= LIMITS.max_events:
        raise UnreadableProof(f"{source} names no kind of proof or no event")
    if not 1 <= len(document["packets"]) <= MAX_PACKETS or any(
        type(t) is not str for t in document["packets"]
    ):
        raise UnreadableProof(
            f"{source} holds no packet, or more than {MAX_PACKETS}, or one that is not text"
        )
    try:
        game = UUID(document["game"])
        history = file_entries(
            unpack_bounded(document["history"], f"{source}'s history"), f"{source}'s history"
        )
        packets = [
            _one_packet(text, f"{source}'s packet {n}") for n, text in enumerate(document["packets"], 1)
        ]
    except (UnreadableLog, ValueError) as exc:
        raise UnreadableProof(str(exc) or f"{source} is malformed") from None
    return ProofFile(
        document["kind"], game, document["event"], document["host_key"], history, packets, document["detail"]
    )


def _one_packet(text: str, source: str) -> Packet:
    found = packets_in(text, source)
    if len(found) != 1:
        raise UnreadableProof(f"{source} holds {len(found)} packets, not one")
    return found[0]


# --- checking --------------------------------------------------------------------------------------------


def compact_fingerprint(text: str) -> str:
    """Returns a fingerprint as typed (spaces optional) in its compact form; UsageError if it is none."""
    compact = "".join(text.split()).lower()
    if len(compact) != 16 or any(c not in "0123456789abcdef" for c in compact):
        raise UsageError(
            f"{text!r:.40} is not a key fingerprint (16 hex digits, as nightkeep key list shows)"
        )
    return compact


def verify_proof(proof: ProofFile, host: bytes | str) -> Verdict:
    """Checks a proof against the host key (or its fingerprint): the key, every signature, the history's
    chain and its anchor in a signed packet, then the lie the file names."""
    try:
        problem = _integrity_problem(proof, host)
        if problem:
            return Verdict(False, proof.kind, proof.event, f"the proof does not hold: {problem}")
        return _CHECKS[proof.kind](proof)
    except NightkeepError as exc:  # fields no event could hold (a float, a key of another type)
        return Verdict(False, proof.kind, proof.event, f"the proof does not hold: {exc}")


def _integrity_problem(proof: ProofFile, host: bytes | str) -> str:
    expected = fingerprint(host).replace(" ", "") if isinstance(host, bytes) else compact_fingerprint(host)
    if len(proof.host_key) != KEY_BYTES or fingerprint(proof.host_key).replace(" ", "") != expected:
        return f"its host key is not the key with the fingerprint {expected}"
    for n, packet in enumerate(proof.packets, start=1):
        if packet.kind not in ("invite", "events") or packet.game != proof.game:
            return f"packet {n} is not a host's packet of game {proof.game}"
        if packet.kind == "invite" and packet.body["host_key"] != proof.host_key:
            return f"packet {n} is an invitation naming another host key"
        if not packet.is_signed_by(proof.host_key):
            return f"packet {n} is not signed by the host key"
        since = packet.body.get("since", 0)
        if [e.version for e in packet.entries] != list(range(since + 1, since + 1 + len(packet.entries))):
            return f"packet {n}'s events are not numbered on from event {since}"
    if [e.version for e in proof.history] != list(range(1, len(proof.history) + 1)):
        return "the history is not numbered 1, 2, 3, …"
    if len(proof.history) != proof.event - 1:
        return f"the history holds {len(proof.history)} events, not the events before event {proof.event}"
    chain = GENESIS_CHAIN
    for entry in proof.history:
        chain = next_chain(chain, entry.type_name, entry.class_version, entry.fields)
        if chain != entry.chain:
            return f"the history's chain breaks at event {entry.version}"
    if proof.history and proof.history[0].type_name not in ("GameCreated", "ForkedFrom"):
        return "the history does not start where the game was created"
    if proof.history and not _is_anchored(proof, chain):
        return f"no packet signs the history's chain value at event {len(proof.history)}"
    return ""


def _is_anchored(proof: ProofFile, head: bytes) -> bool:
    """Tells whether a signed packet commits to the history: its chain value at the history's last event,
    or a next event whose chain value follows from it."""
    last = len(proof.history)
    for packet in proof.packets:
        for entry in packet.entries:
            if entry.version == last and entry.chain == head:
                return True
            if entry.version == last + 1 and _follows(head, entry):
                return True
    return False


def _follows(previous: bytes, entry: FileEntry) -> bool:
    return next_chain(previous, entry.type_name, entry.class_version, entry.fields) == entry.chain


def _signed_chains(proof: ProofFile) -> dict[int, set[bytes]]:
    """Returns every chain value the file shows signed for each event (the history's through its anchor)."""
    chains: dict[int, set[bytes]] = {e.version: {e.chain} for e in proof.history}
    for packet in proof.packets:
        for entry in packet.entries:
            chains.setdefault(entry.version, set()).add(entry.chain)
    return chains


def _two_histories(proof: ProofFile) -> Verdict:
    chains = _signed_chains(proof)
    for version in sorted(chains):
        if len(chains[version]) > 1:
            return _holds(
                proof, version, f"the host signed two histories of game {proof.game} at event {version}"
            )
        before = chains.get(version - 1, {GENESIS_CHAIN} if version == 1 else set())
        entries = [e for p in proof.packets for e in p.entries if e.version == version]
        if len(before) == 1 and any(not _follows(next(iter(before)), e) for e in entries):
            return _holds(
                proof,
                version,
                f"the host signed two histories of game {proof.game} at event {version}: the event it "
                f"signed does not follow the event {version - 1} it signed",
            )
    return _fails(proof, "its packets and history tell one history")


def _changed_fields(proof: ProofFile) -> Verdict:
    seen: dict[tuple[int, bytes], bytes] = {}
    for entry in [*proof.history, *(e for p in proof.packets for e in p.entries)]:
        form = canonical_bytes(public_form_of(entry))
        held = seen.setdefault((entry.version, entry.chain), form)
        if held != form:
            return _holds(
                proof,
                entry.version,
                f"the host signed event {entry.version} of game {proof.game} twice with different fields",
            )
    return _fails(proof, "no event is signed twice with different fields")


def public_form_of(entry: FileEntry) -> list[Any]:
    """Returns what the chain covers of an entry: its type, version and fields (sealed when private)."""
    fields = (
        seal(entry.type_name, entry.class_version, entry.fields)
        if is_private(entry.type_name)
        else entry.fields
    )
    return [entry.type_name, entry.class_version, fields]


def _unsealed_secret(proof: ProofFile) -> Verdict:
    for packet in proof.packets:
        for entry in packet.entries:
            owner = entry.fields.get("owner")
            if is_private(entry.type_name) and not is_sealed(entry.fields) and owner != packet.player:
                return _holds(
                    proof,
                    entry.version,
                    f"the host sent {owner!s:.40}'s private event {entry.version} ({entry.type_name}) "
                    f"of game {proof.game} unsealed to {packet.player:.40}",
                )
    return _fails(proof, "no packet holds another seat's private event unsealed")


def _audit_refused(proof: ProofFile) -> Verdict:
    # The copy audited is one viewer's: the history's (the public copy, or the holder's when the finding
    # needs their secrets), so the packet's private events of anyone else are sealed as that copy has them.
    owners = {
        e.fields.get("owner") for e in proof.history if is_private(e.type_name) and not is_sealed(e.fields)
    }
    if len(owners) > 1:
        return _fails(proof, "its history unseals the private events of more than one seat")
    viewer = next(iter(owners), None)
    for packet in proof.packets:
        new = [e for e in packet.entries if e.version >= proof.event]
        if packet.body.get("since", 0) >= proof.event or not new or new[0].version != proof.event:
            continue
        new = [_sealed_unless(e, viewer) for e in new]
        entries = [RawEntry(*e[:5]) for e in [*proof.history, *new]]
        report = audit_log(entries)
        first = report.first_finding()
        if first is not None:
            detail = " ".join(first.detail.split())[:240]
            return _holds(
                proof,
                first.version,
                f"the host signed events of game {proof.game} the audit refuses, at event {first.version} "
                f"({first.kind}): {detail}",
            )
    return _fails(proof, f"the history and the packet's events from {proof.event} on pass their audit")


def _another_history(proof: ProofFile) -> Verdict:
    """The packets the host signed for one seat, on from the history, hold another seat's signed action
    or words whose signature does not hold on that history (domain.other_histories): the host showed the
    other seat another history, or forged its signature."""
    entries = list(proof.history)
    for packet in proof.packets:  # in the order they came: each takes the history on where it stood
        for entry in packet.entries:
            if entry.version == len(entries) + 1:
                previous = entries[-1].chain if entries else GENESIS_CHAIN
                if not _follows(previous, entry):
                    return _fails(
                        proof, f"event {entry.version} of the packets does not follow the one before"
                    )
                entries.append(entry)
    if len(entries) == len(proof.history) or not proof.packets:
        return _fails(proof, "the packets add nothing to the history")
    try:
        events = [decode_event(e.type_name, e.class_version, dict(e.fields)) for e in entries]
    except NightkeepError as exc:
        return _fails(proof, f"an event cannot be read: {exc}")
    player = proof.packets[-1].player
    found = other_history(player, events, [e.chain for e in entries], len(proof.history))
    if found is None:
        return _fails(proof, "every other seat's signature holds on the history the host signed")
    at, words = found
    return _holds(proof, at, f"{words} (in the packets the host signed for {player:.40})")


def _sealed_unless(entry: FileEntry, viewer: str | None) -> FileEntry:
    if not is_private(entry.type_name) or entry.fields.get("owner") == viewer:
        return entry
    return entry._replace(fields=seal(entry.type_name, entry.class_version, entry.fields))


def _holds(proof: ProofFile, version: int, statement: str) -> Verdict:
    return Verdict(True, proof.kind, version, statement)


def _fails(proof: ProofFile, why: str) -> Verdict:
    return Verdict(False, proof.kind, proof.event, f"the proof does not hold: {why}")


_CHECKS = {
    TWO_HISTORIES: _two_histories,
    CHANGED_FIELDS: _changed_fields,
    UNSEALED_SECRET: _unsealed_secret,
    AUDIT_REFUSED: _audit_refused,
    ANOTHER_HISTORY: _another_history,
}
