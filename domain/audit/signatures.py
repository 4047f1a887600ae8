"""The audit's check of who authorised each action of a game played by e-mail.

A game whose GameCreated binds seats to keys (v3) must show, for every action and every entropy of a
keyed seat, that seat's Ed25519 signature of the history it followed (domain/signing.py): the host
cannot act for a signing player. An action of a seat without a key is marked as typed at the host's
terminal or as a reply to the host's mail (`auth`), which the host vouches for. A fork's copied history
was signed against its original game's chain, so only a log without forks is checked here.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.audit.report import AuditReport, LogEntry
from domain.events import ActionTaken, EntropyAdded, Event, ForkedFrom, GameCreated
from domain.signing import ENTROPY_POINT, authorisation_problem, keys_problem


def check_signatures(entries: Sequence[LogEntry], events: Sequence[Event], report: AuditReport) -> None:
    """Reports every action or entropy whose authorisation the log does not prove."""
    if ForkedFrom in map(type, events):  # (no event type subclasses another: one C scan of the log)
        return
    created = next((e for e in events if isinstance(e, GameCreated)), None)
    if created is None:
        return
    seats = {seat["name"] for seat in created.players}
    if problem := keys_problem(seats, created.keys, created.host_key):
        report.add(1, "signature", problem)
        return
    point = entries[ENTROPY_POINT - 1].chain if len(entries) >= ENTROPY_POINT else b""
    signed = _SIGNED_TYPES
    keyless = not created.keys and not created.host_key
    for index, event in enumerate(events):
        if index == 0 or type(event) not in signed:
            continue
        assert isinstance(event, ActionTaken | EntropyAdded)
        if keyless and not event.signature and not getattr(event, "auth", ""):
            continue  # no key anywhere, no signature or mark claimed: authorisation_problem says "" to it
        detail = authorisation_problem(
            created.keys, bool(created.host_key), event, index, entries[index - 1].chain, point
        )
        if detail:
            report.add(index + 1, "signature", f"event {index + 1}: {detail}")


# What a seat authorises (no event type subclasses another: the exact type says what isinstance would).
_SIGNED_TYPES = frozenset({ActionTaken, EntropyAdded})
