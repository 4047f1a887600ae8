"""What players and the host sign in e-mail play, and the Ed25519 check (through `cryptography`).

A signed action or entropy names the history it follows (the chain value of the last event its
signer had seen, and that event's number), so the same signature can never be applied to another game
or at another point of this one, and the log itself carries the proof: an auditor rebuilds these bytes
from the recorded event and the chain value before it. docs/play-by-email.md gives the layout.
"""

from __future__ import annotations

import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.events import canonical_bytes

KEY_BYTES = 32
SIGNATURE_BYTES = 64
ACTION = "nightkeep-action"
ENTROPY = "nightkeep-entropy"
PACKET = "nightkeep-packet"
AUTH_SIGNED = "signed"
AUTH_MAIL = "mail"
AUTHS = ("", AUTH_SIGNED, AUTH_MAIL)


def action_bytes(version: int, chain: bytes, player: str, action: str, nonce: bytes) -> bytes:
    """Returns what a player signs to take `action` after event `version` whose chain value is `chain`."""
    return canonical_bytes([ACTION, version, chain, player, action, nonce])


# Entropy is given before the deal, in any order: each player signs it against the seed's commitment
# (event 2 of a game played by e-mail), not against whatever entropy others sent first.
ENTROPY_POINT = 2


def entropy_bytes(version: int, chain: bytes, player: str, value: bytes) -> bytes:
    """Returns what a player signs to mix `value` into the dice of the game whose event `version` (the
    seed's commitment, ENTROPY_POINT) has the chain value `chain`."""
    return canonical_bytes([ENTROPY, version, chain, player, value])


def packet_bytes(kind: str, body: dict[str, object]) -> bytes:
    """Returns what is signed for any other packet: its kind and its body, in canonical msgpack."""
    return canonical_bytes([PACKET, kind, body])


def is_valid_signature(key: bytes, message: bytes, signature: bytes) -> bool:
    """Tells whether `signature` is the Ed25519 signature of `message` by the holder of `key`."""
    if len(key) != KEY_BYTES or len(signature) != SIGNATURE_BYTES:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def fingerprint(key: bytes) -> str:
    """Returns a public key's short fingerprint, to read out over the phone: 4 groups of 4 hex digits."""
    digest = hashlib.sha256(key).hexdigest()[:16]
    return " ".join(digest[i : i + 4] for i in range(0, 16, 4))


def keys_problem(seats: set[str], keys: dict[str, bytes], host_key: bytes) -> str:
    """Says what is wrong with a game's seat and host keys ("" when nothing is)."""
    stray = sorted(set(keys) - seats)
    if stray:
        return f"keys are bound to {', '.join(repr(s)[:40] for s in stray)}, who have no seat"
    if any(len(key) != KEY_BYTES for key in keys.values()):
        return f"a seat's key is not {KEY_BYTES} bytes (an Ed25519 public key)"
    if host_key and len(host_key) != KEY_BYTES:
        return f"the host key is not {KEY_BYTES} bytes (an Ed25519 public key)"
    if keys and not host_key:
        return "seats are bound to keys but the game names no host key"
    return ""
