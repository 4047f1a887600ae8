"""The club's events told in plain words (domain.club): deadlines, lapses, hand-overs, absences, press,
observers and rollbacks, for the timeline, `log` and the mails."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.club import (
    DEFAULT,
    REPLACE,
    DeadlineSet,
    ObserverAdded,
    ObserverRemoved,
    PressSent,
    PrivatePressSent,
    RollbackAnswered,
    RollbackProposed,
    RollbackWithdrawn,
    RolledBack,
    SeatHandedOver,
    TurnLapsed,
    VacationDeclared,
)
from domain.events import Event
from event_store.clock import span, when

# What each missed-turn rule does, said after "a missed turn:".
MISSED_WORDS = {
    "wait": "the game waits for the player",
    DEFAULT: "the host's bot moves for them",
    REPLACE: "the seat goes to a replacement player",
}
SAID_WORDS = {"signed": "signed by their key", "mail": "by mail, on the host's word", "": "noted by the host"}


def _deadline(e: DeadlineSet) -> str:
    if not e.seconds:
        return "The host took the turn deadline away."
    parts = [f"The host set the turn deadline to {span(e.seconds)}"]
    if e.reminders:
        parts.append("reminders " + ", ".join(span(r) for r in sorted(e.reminders, reverse=True)) + " before")
    missed = MISSED_WORDS.get(e.missed, e.missed)
    if e.missed == DEFAULT and e.grace:
        missed += f" after {span(e.grace)} more"
    parts.append(f"a missed turn: {missed}")
    if e.vacation:
        parts.append(f"each seat may be away up to {span(e.vacation)} in all")
    return "; ".join(parts) + "."


def _lapsed(e: TurnLapsed) -> str:
    rule = MISSED_WORDS.get(e.rule, e.rule)
    return f"{e.player}'s turn lapsed on {when(e.at)} (waiting since event {e.since}): {rule}."


def _handed(e: SeatHandedOver) -> str:
    how = "with a key" if e.key else "by mail"
    return f"{e.player}'s seat went to {e.replacement}, who plays it {how}."


def _away(e: VacationDeclared) -> str:
    return f"{e.player} is away until {when(e.at + e.seconds)} ({SAID_WORDS.get(e.auth, e.auth)})."


def _private(e: PrivatePressSent) -> str:
    return f"{e.sender} to {', '.join(e.to)} (private, {SAID_WORDS.get(e.auth, e.auth)}): {e.text}"


def _proposed(e: RollbackProposed) -> str:
    return (
        f"The host asks to take the game back to event {e.to} ({e.reason}); it voids moves of "
        f"{', '.join(e.voids)} and waits on their agreement."
    )


def _answered(e: RollbackAnswered) -> str:
    if e.agreed:
        return f"{e.player} agreed to the rollback ({SAID_WORDS.get(e.auth, e.auth)})."
    return f"{e.player} refused the rollback ({SAID_WORDS.get(e.auth, e.auth)}): play goes on."


CLUB_WORDS: dict[type[Event], Callable[[Any], str]] = {
    DeadlineSet: _deadline,
    TurnLapsed: _lapsed,
    SeatHandedOver: _handed,
    VacationDeclared: _away,
    PressSent: lambda e: f"{e.sender} to everyone ({SAID_WORDS.get(e.auth, e.auth)}): {e.text}",
    PrivatePressSent: _private,
    ObserverAdded: lambda e: f"{e.name} now watches the game.",
    ObserverRemoved: lambda e: f"{e.name} no longer watches the game.",
    RollbackProposed: _proposed,
    RollbackAnswered: _answered,
    RolledBack: lambda e: (
        f"Every seat agreed: the game went back to event {e.to} ({e.reason}); the next move draws what "
        "the voided one drew."
    ),
    RollbackWithdrawn: lambda e: "The host withdrew the rollback; play goes on.",
}
