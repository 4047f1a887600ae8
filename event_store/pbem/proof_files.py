"""Writing proof files (event_store/pbem/proofs.py reads and checks them) from what a replica kept: the
packets of each proof, the replica's copy of the events before the one in dispute, and the host key.

The file holds as little of the holder's secrets as the dispute allows: the history is the public copy
(other seats' and the holder's own private events sealed) unless the audit's finding can be shown only
with the holder's copy, and a proof that one packet makes holds only that packet.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from domain.events import is_private, seal
from event_store.log_reader import FileEntry
from event_store.pbem.packets import entry_map, read_packets
from event_store.pbem.proofs import (
    ANOTHER_HISTORY,
    AUDIT_REFUSED,
    CHANGED_FIELDS,
    FORMAT,
    FORMAT_VERSION,
    MAX_DETAIL,
    TWO_HISTORIES,
    UNSEALED_SECRET,
    pack_canonical,
    read_proof,
    verify_proof,
)
from event_store.pbem.replica import Proof, Replica
from event_store.recorded import RecordedEvent


def encode_proof(
    kind: str,
    game: UUID,
    event: int,
    host_key: bytes,
    history: Sequence[FileEntry],
    packets: Sequence[str],
    detail: str = "",
) -> bytes:
    """Returns the canonical bytes of a proof file."""
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": kind,
        "game": str(game),
        "event": event,
        "host_key": host_key,
        "history": pack_canonical([entry_map(e) for e in history]),
        "packets": list(packets),
        "detail": detail[:MAX_DETAIL],
    }
    return pack_canonical(document)


def public_history(entries: Sequence[FileEntry]) -> list[FileEntry]:
    """Returns entries with every private event sealed: the history as the public copy holds it."""
    return [
        e._replace(fields=seal(e.type_name, e.class_version, e.fields)) if is_private(e.type_name) else e
        for e in entries
    ]


def best_proof(
    game: UUID, event: int, host_key: bytes, copy: Sequence[FileEntry], texts: Sequence[str], detail: str
) -> tuple[str, bytes]:
    """Returns the kind and bytes of the proof file that shows what a pair of kept packets proves: the
    first kind that holds, with the fewest packets and the public history where that is enough (the
    holder's own copy of events 1..event-1 only when the audit's finding needs its secrets)."""
    texts = [t for t in dict.fromkeys(texts) if t]
    history = list(copy[: max(event - 1, 0)])
    public = public_history(history)
    tries = [
        (UNSEALED_SECRET, public, texts[-1:]),
        (UNSEALED_SECRET, public, texts),
        (CHANGED_FIELDS, public, texts),
        (TWO_HISTORIES, public, texts),
        (ANOTHER_HISTORY, public, texts[-1:]),
        (ANOTHER_HISTORY, public, texts),
        (AUDIT_REFUSED, public, texts[-1:]),
        (AUDIT_REFUSED, public, texts),
        (AUDIT_REFUSED, history, texts),
    ]
    for kind, entries, chosen in tries:
        data = encode_proof(kind, game, event, host_key, entries, chosen, detail)
        if verify_proof(read_proof(data), host_key).holds:
            return kind, data
    return TWO_HISTORIES, encode_proof(TWO_HISTORIES, game, event, host_key, public, texts, detail)


def replica_proofs(replica: Replica, game_id: UUID) -> list[tuple[str, str, bytes]]:
    """Returns every proof a replica keeps against a game's host as (file name, kind, file bytes)."""
    member = replica.membership(game_id)
    found = []
    names: set[str] = set()
    for proof in replica.proofs(game_id):
        copy = file_entries_of(replica.service.recorded_events(member.stored)) if member else []
        host_key = member.host_key if member else _invited_key(proof)
        # Events the replica never stored (a refused invitation's, a refused packet's before the lie)
        # are taken from the packets themselves, which the file holds anyway.
        for text in (proof.held, proof.conflicting):
            for entry in read_packets(text)[0].entries if text else []:
                if entry.version == len(copy) + 1 and entry.version < proof.version:
                    copy.append(entry)
        kind, data = best_proof(
            proof.game, proof.version, host_key, copy, [proof.held, proof.conflicting], proof.detail
        )
        name = f"proof-{str(proof.game)[:8]}-{proof.version}-{kind}.nkp"
        n = 1
        while name in names:
            n += 1
            name = f"proof-{str(proof.game)[:8]}-{proof.version}-{kind}-{n}.nkp"
        names.add(name)
        found.append((name, kind, data))
    return found


def file_entries_of(recorded: Sequence[RecordedEvent]) -> list[FileEntry]:
    """Returns stored events as a replay file's entries."""
    return [
        FileEntry(r.version, r.type_name, r.class_version, r.fields, r.chain, r.timestamp) for r in recorded
    ]


def _invited_key(proof: Proof) -> bytes:
    key: bytes = read_packets(proof.conflicting)[0].body.get("host_key", b"")
    return key
