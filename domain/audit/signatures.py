"""The audit's check of who authorised each action of a game played by e-mail.

A game whose GameCreated binds seats to keys (v3) must show, for every action and every entropy of a
keyed seat, that seat's Ed25519 signature of the history it followed (domain/signing.py): the host
cannot act for a signing player. An action of a seat without a key is marked as typed at the host's
terminal or as a reply to the host's mail (`auth`), which the host vouches for. A fork's copied history
was signed against its original game's chain, so only a log without forks is checked here.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.actions import HOST
from domain.audit.report import AuditReport, LogEntry
from domain.events import ActionTaken, EntropyAdded, Event, ForkedFrom, GameCreated
from domain.signing import (
    AUTH_MAIL,
    AUTH_SIGNED,
    ENTROPY_POINT,
    action_bytes,
    entropy_bytes,
    is_valid_signature,
    keys_problem,
)


def check_signatures(entries: Sequence[LogEntry], events: Sequence[Event], report: AuditReport) -> None:
    """Reports every action or entropy whose authorisation the log does not prove."""
    if any(isinstance(e, ForkedFrom) for e in events):
        return
    created = next((e for e in events if isinstance(e, GameCreated)), None)
    if created is None:
        return
    seats = {seat["name"] for seat in created.players}
    if problem := keys_problem(seats, created.keys, created.host_key):
        report.add(1, "signature", problem)
        return
    point = entries[ENTROPY_POINT - 1].chain if len(entries) >= ENTROPY_POINT else b""
    for index, event in enumerate(events):
        if index == 0 or not isinstance(event, ActionTaken | EntropyAdded):
            continue
        detail = _problem(created, event, index, entries[index - 1].chain, point)
        if detail:
            report.add(index + 1, "signature", f"event {index + 1}: {detail}")


def _problem(
    created: GameCreated, event: ActionTaken | EntropyAdded, after: int, chain: bytes, point: bytes
) -> str:
    """Says why one action or entropy is not proven to come from its player ("" when it is)."""
    key = created.keys.get(event.player, b"")
    if isinstance(event, EntropyAdded):
        if not key and created.host_key:
            # A seat without a key plays by mail and has no way to send entropy: this is the host's own.
            return f"{event.player} has no key, so the entropy given in their name is the host's own"
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
            return f"{event.player} signs every action, but this one is marked {event.auth or 'typed'!r}"
        message = action_bytes(after, chain, event.player, event.action, event.nonce)
        if is_valid_signature(key, message, event.signature):
            return ""
        return f"the action {event.action!r:.60} does not carry {event.player}'s signature"
    if event.auth == AUTH_SIGNED or event.signature:
        return f"{event.player} has no key, yet the action claims a signature"
    if event.auth not in ("", AUTH_MAIL):
        return f"an action's authorisation is {event.auth!r:.20}, not one nightkeep records"
    return ""
