"""What players and the host sign in e-mail play, and the Ed25519 check (through `cryptography`).

A signed action or entropy names the history it follows (the chain value of the last event its
signer had seen, and that event's number), so the same signature can never be applied to another game
or at another point of this one, and the log itself carries the proof: an auditor rebuilds these bytes
from the recorded event and the chain value before it. docs/play-by-email.md gives the layout.
"""

from __future__ import annotations

import hashlib

from domain.actions import HOST
from domain.events import ActionTaken, EntropyAdded, canonical_bytes

KEY_BYTES = 32
SIGNATURE_BYTES = 64
ACTION = "nightkeep-action"
ENTROPY = "nightkeep-entropy"
PACKET = "nightkeep-packet"
AUTH_SIGNED = "signed"
AUTH_MAIL = "mail"


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
    # Imported here: only games played by e-mail carry signatures, and the library is slow to load.
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def fingerprint(key: bytes) -> str:
    """Returns a public key's short fingerprint, to read out over the phone: 4 groups of 4 hex digits."""
    digest = hashlib.sha256(key).hexdigest()[:16]
    return " ".join(digest[i : i + 4] for i in range(0, 16, 4))


# A history's fingerprint shows this many hex digits of the chain value: enough that a host cannot make
# two histories agree on them by trying (2^48 events), few enough to read out or compare in press.
HISTORY_DIGITS = 12


def history_fingerprint(version: int, chain: bytes) -> str:
    """Returns a history's short fingerprint, the same for every copy of a game at event `version` whose
    chain value is `chain`: "event 109 · 3f2a 91c0 7be4" (the first 12 hex digits, in groups of four)."""
    digits = chain.hex()[:HISTORY_DIGITS]
    return f"event {version} · " + " ".join(digits[i : i + 4] for i in range(0, len(digits), 4))


HEAD = "nightkeep-head"


def head_bytes(game: str, version: int, chain: bytes) -> bytes:
    """Returns what a host signs to publish a game's head: its id, its last event's number and chain value."""
    return canonical_bytes([HEAD, game, version, chain])


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


def authorisation_problem(
    keys: dict[str, bytes],
    hosted: bool,
    event: ActionTaken | EntropyAdded,
    after: int,
    chain: bytes,
    point: bytes,
) -> str:
    """Says why one action or entropy is not proven to come from its player ("" when it is): a seat
    bound to a key signs every action (of event `after` with chain value `chain`) and its entropy (of
    the seed's commitment, whose chain value is `point`); a seat without one never signs, and in a
    game played by e-mail (`hosted`) gives no entropy. The audit and the game itself both ask this."""
    key = keys.get(event.player, b"")
    if isinstance(event, EntropyAdded):
        if not key and hosted:
            # A seat without a key plays by mail and has no way to send entropy: this is the host's own.
            return f"{event.player} plays by mail and has no key: entropy in their name is the host's own"
        if not key:
            return f"{event.player}'s entropy is signed but the seat has no key" if event.signature else ""
        message = entropy_bytes(ENTROPY_POINT, point, event.player, event.value)
        if is_valid_signature(key, message, event.signature):
            return ""
        return f"{event.player}'s entropy does not carry {event.player}'s signature"
    if event.player == HOST:
        return "" if not event.auth and not event.signature else "the host's own action claims a signature"
    if key:
        if event.auth != AUTH_SIGNED:
            marked = event.auth or "typed at the host"
            return f"{event.player} signs every action (their replica writes the packets), not {marked!r}"
        signed_on = getattr(event, "signed_chain", b"")
        if signed_on and signed_on != chain:
            other = action_bytes(after, signed_on, event.player, event.action, event.nonce)
            if is_valid_signature(key, other, event.signature):
                return (
                    f"{event.player} signed the action {event.action!r:.60} on another history: chain "
                    f"{signed_on.hex()[:16]}… at event {after}, where this log has {chain.hex()[:16]}…"
                )
        message = action_bytes(after, chain, event.player, event.action, event.nonce)
        if is_valid_signature(key, message, event.signature):
            return ""
        return f"the action {event.action!r:.60} does not carry {event.player}'s signature"
    if event.auth == AUTH_SIGNED or event.signature:
        return f"{event.player} has no key, yet the action claims a signature"
    if event.auth not in ("", AUTH_MAIL):
        return f"an action's authorisation is {event.auth!r:.20}, not one nightkeep records"
    return ""
