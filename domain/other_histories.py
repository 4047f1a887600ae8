"""Another seat's signature checked against one's own history: how a replica catches a host that shows
two seats two histories (equivocation) within one turn of play.

Every signed action names the history its signer held (its signature covers the chain value of the event
before it, domain/signing.py `action_bytes`), and so do a seat's signed words (press, an absence, a
rollback's answer: `domain.club.signed_bytes` at `signed_at`). A host that shows Ann one history and Bo
another must still show Bo what Ann signed; on Bo's history that signature does not hold. An action that
records the chain value its signer held (`signed_chain`) and whose signature holds on it proves the host
showed Ann another history; without it the signature that fails is a forgery or another history, and
either is the host's lie.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.club import SIGNED_KINDS, SeatHandedOver, signed_bytes, signed_payload
from domain.events import ActionTaken, Event, GameCreated
from domain.signing import AUTH_SIGNED, action_bytes, is_valid_signature


def other_history(
    player: str,
    events: Sequence[Event],
    chains: Sequence[bytes],
    first_new: int,
    keys_then: dict[str, bytes] | None = None,
) -> tuple[int, str] | None:
    """Returns the event another seat signed at on a history these events are not, and the words that say
    so, for the first such signature among events `first_new`+1.. (None when every one holds); `player`
    is the holder's own seat, whose signatures the audit checks. Given the seats' keys after the first
    `first_new` events (`keys_then`), those events are not read."""
    keys: dict[str, bytes] = dict(keys_then) if keys_then is not None else {}
    for index in range(first_new if keys_then is not None else 0, len(events)):
        event = events[index]
        if isinstance(event, GameCreated):
            keys = dict(event.keys)
        elif isinstance(event, SeatHandedOver):  # the seat signs with the replacement's key from here on
            keys = {**keys, event.player: event.key} if event.key else _without(keys, event.player)
        if index < first_new:
            continue
        if isinstance(event, ActionTaken):
            found = _action_on_another(event, index + 1, keys, chains, player)
        else:
            found = _words_on_another(event, index + 1, keys, chains, player)
        if found is not None:
            return found
    return None


def _action_on_another(
    event: ActionTaken, version: int, keys: dict[str, bytes], chains: Sequence[bytes], player: str
) -> tuple[int, str] | None:
    key = keys.get(event.player, b"")
    if event.player == player or event.auth != AUTH_SIGNED or not key or version < 2:
        return None
    at, chain = version - 1, chains[version - 2]
    if is_valid_signature(
        key, action_bytes(at, chain, event.player, event.action, event.nonce), event.signature
    ):
        return None
    said = f"{event.player}'s action {event.action!r:.40} (event {version})"
    held: bytes = getattr(event, "signed_chain", b"")  # ActionTaken v3: the chain value its signer held
    message = action_bytes(at, held, event.player, event.action, event.nonce)
    if held and held != chain and is_valid_signature(key, message, event.signature):
        return at, (
            f"the host showed {event.player} another history at event {at}: {said} is signed on "
            f"chain value {held.hex()[:12]}…, where this replica holds {chain.hex()[:12]}…"
        )
    return at, (
        f"the host showed {event.player} another history at event {at}, or forged their move: {said} "
        "is not signed on the history this replica holds"
    )


def _words_on_another(
    event: Event, version: int, keys: dict[str, bytes], chains: Sequence[bytes], player: str
) -> tuple[int, str] | None:
    kind = SIGNED_KINDS.get(type(event))
    if kind is None:
        return None
    name, seat_field = kind
    seat: str = getattr(event, seat_field)
    at: int = getattr(event, "signed_at", 0)
    key = keys.get(seat, b"")
    if seat == player or getattr(event, "auth", "") != AUTH_SIGNED or not key or not 1 <= at < version:
        return None  # (a signature signed later than it is recorded: the audit refuses it)
    message = signed_bytes(name, at, chains[at - 1], seat, signed_payload(event))
    if is_valid_signature(key, message, getattr(event, "signature", b"")):
        return None
    return at, (
        f"the host showed {seat} another history at event {at}, or forged their words: {seat}'s {name} "
        f"(event {version}) is not signed on the history this replica holds"
    )


def _without(keys: dict[str, bytes], seat: str) -> dict[str, bytes]:
    return {name: key for name, key in keys.items() if name != seat}
