"""A game's head published to a witness: after each pass that advanced a game, the host mails a line it
signs, naming the game, its last event and that event's chain value, to an address of the club's choosing
(`nightkeep host run --witness ADDR`). The witness keeps the mails; two lines of one game that name the same
event with two chain values, both signed by the host, show that it signed two histories, and anyone can
compare a player's own history (`nightkeep show`: its fingerprint) with what the host published.

The line (docs/play-by-email.md): `nightkeep-head GAME VERSION CHAIN SIGNATURE`, the chain value in hex and
the Ed25519 signature of `domain.signing.head_bytes(GAME, VERSION, CHAIN)` in base64.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from uuid import UUID

from domain.errors import BadPacket
from domain.signing import HEAD, head_bytes, history_fingerprint, is_valid_signature
from event_store.pbem.digest import title_of, wrap
from event_store.pbem.host_parts import HostLike, Outgoing
from event_store.pbem.keys import KeyPair
from event_store.sql import Statement


@dataclass(frozen=True)
class Head:
    """A game's head as a host signed it: the game, its last event's number and chain value."""

    game: UUID
    version: int
    chain: bytes

    @property
    def fingerprint(self) -> str:
        """Returns the head's short fingerprint, as every mail of that event ends with."""
        return history_fingerprint(self.version, self.chain)


def head_line(key: KeyPair, head: Head) -> str:
    """Returns the signed line that publishes a head."""
    signature = key.sign(head_bytes(str(head.game), head.version, head.chain))
    return f"{HEAD} {head.game} {head.version} {head.chain.hex()} {base64.b64encode(signature).decode()}"


def read_head_line(text: str, host_key: bytes) -> Head:
    """Returns the head a text's `nightkeep-head` line publishes, checked against the host key; BadPacket
    when there is none or its signature does not hold."""
    line = next((line.strip() for line in text.splitlines() if line.strip().startswith(HEAD + " ")), "")
    try:
        _, game, version, chain, signature = line.split(" ")
        head = Head(UUID(game), int(version), bytes.fromhex(chain))
        signed = base64.b64decode(signature, validate=True)
    except (ValueError, binascii.Error):
        raise BadPacket("the text holds no readable nightkeep-head line") from None
    if not is_valid_signature(host_key, head_bytes(str(head.game), head.version, head.chain), signed):
        raise BadPacket(f"the head of game {head.game} at event {head.version} is not signed by the host key")
    return head


def queue_heads(host: HostLike, witness: str) -> int:
    """Queues, for every hosted game whose head moved since the witness last heard, the mail of its signed
    head, with the witness's new mark in the same transaction; returns how many it queued."""
    with host.db.transaction(commit=False) as c:
        c.execute("SELECT game_id, version FROM nightkeep_pbem_witnessed WHERE witness=?", [witness])
        told = {row[0]: row[1] for row in c.fetchall()}
    mails: list[Outgoing] = []
    rows: list[Statement] = []
    for game in host.hosted_games():
        # Only the events since the witness last heard: a pass reads no game's whole log.
        newer = host.service.recorded_events(game, gt=told.get(str(game), 0))
        if not newer:
            continue
        head = Head(game, newer[-1].version, newer[-1].chain)
        mails.append(_head_mail(host, witness, head))
        rows.append(
            (
                "INSERT INTO nightkeep_pbem_witnessed VALUES (?, ?, ?) ON CONFLICT (game_id, witness) "
                "DO UPDATE SET version = excluded.version",
                [str(game), witness, head.version],
            )
        )
    if mails:
        host.queue_with(mails, rows)
    return len(mails)


def _head_mail(host: HostLike, witness: str, head: Head) -> Outgoing:
    title = title_of(host, head.game)
    words = wrap(
        f"The head of {title}, signed by its host on the line below (game, event, chain value, "
        "signature). Keep this mail: two heads of one event that differ prove that the host signed "
        "two histories."
    )
    body = f"{words}\n\n{head_line(host.key_for(head.game), head)}\n"
    subject = f"{title} — head at event {head.version}"
    return Outgoing(0, head.game, "", witness, subject, body, "", head.version)
