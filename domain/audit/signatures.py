"""The audit's check of who authorised each action of a game played by e-mail.

A game whose GameCreated binds seats to keys (v3) must show, for every action and every entropy of a
keyed seat, that seat's Ed25519 signature of the history it followed (domain/signing.py): the host
cannot act for a signing player, nor say anything in its name (press, an absence, a rollback's answer);
it moves for a seat only by the rule `default` once that seat's turn has lapsed. An action of a seat
without a key is marked as typed at the host's
terminal or as a reply to the host's mail (`auth`), which the host vouches for. A fork's copied history
was signed against its original game's chain, so only a log without forks is checked here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from domain.audit.report import AuditReport, LogEntry
from domain.club import (
    AUTH_DEFAULT,
    CLUB_HANDLERS,
    SIGNED_KINDS,
    RolledBack,
    SeatHandedOver,
    TurnLapsed,
    default_move_problem,
    on_action,
)
from domain.club_rules import said_again, said_problem
from domain.events import ActionTaken, EntropyAdded, Event, ForkedFrom, GameCreated
from domain.game_meta import ClubMeta
from domain.signing import AUTH_SIGNED, ENTROPY_POINT, authorisation_problem, keys_problem


def check_signatures(
    entries: Sequence[LogEntry],
    events: Sequence[Event],
    report: AuditReport,
    resume: SignatureState | None = None,
) -> SignatureState | None:
    """Reports every action, entropy or seat's words whose authorisation the log does not prove. From the
    first event, or on from `resume` (where it ended after a trusted prefix, whose events are not read
    again); returns where it ended (None for a log it does not check: a fork's, or one with no game)."""
    if resume is None:
        if ForkedFrom in map(type, events):  # (no event type subclasses another: one C scan of the log)
            return None
        created = next((e for e in events if isinstance(e, GameCreated)), None)
        if created is None:
            return None
        seats = {seat["name"] for seat in created.players}
        if problem := keys_problem(seats, created.keys, created.host_key):
            report.add(1, "signature", problem)
            return None
        point = entries[ENTROPY_POINT - 1].chain if len(entries) >= ENTROPY_POINT else b""
        # Keys change at a hand-over; lapses allow the host's default moves.
        resume = SignatureState(created, point, {"keys": dict(created.keys), "club": {}}, 0)
    created, point = resume.created, resume.point
    signed = _SIGNED_TYPES
    keyless = not created.keys and not created.host_key
    club = _ClubKeys(resume.meta["keys"])
    club.meta = resume.meta
    for index in range(resume.version, len(events)):
        event = events[index]
        kind = type(event)
        if index == 0 or (kind not in signed and kind not in _TRACKED):
            continue
        if kind in _TRACKED:
            detail = club.check(event, entries, index)
        else:
            assert isinstance(event, ActionTaken | EntropyAdded)
            if keyless and not event.signature and not getattr(event, "auth", ""):
                continue  # no key anywhere, no signature or mark claimed: authorisation_problem says "" to it
            detail = club.authorised(event, bool(created.host_key), index, entries[index - 1].chain, point)
        if detail:
            report.add(index + 1, "signature", f"event {index + 1}: {detail}")
    return SignatureState(created, point, club.meta, len(events))


class SignatureState(NamedTuple):
    """Where `check_signatures` is: the game's seats and keys, the chain value entropy is signed on,
    the seats' keys and lapses as they stand (a seat's signed words, which need the history, are not
    carried: an audit from a trusted prefix re-reads the log for them), after how many events."""

    created: GameCreated
    point: bytes
    meta: ClubMeta
    version: int


class _ClubKeys:
    """The seats' keys and lapsed turns as the log goes, for the checks that depend on them."""

    def __init__(self, keys: dict[str, bytes]) -> None:
        self.meta: ClubMeta = {"keys": keys, "club": {}}
        self.said: dict[bytes, tuple[int, Event]] = {}  # each signature of a seat's words: where it was last

    def authorised(
        self, event: ActionTaken | EntropyAdded, hosted: bool, index: int, chain: bytes, point: bytes
    ) -> str:
        """Checks an action or entropy against the keys as they stand, and keeps the lapses' bookkeeping."""
        meta = self.meta
        if isinstance(event, ActionTaken) and event.auth == AUTH_DEFAULT:
            detail = default_move_problem(meta, event)
        else:
            detail = authorisation_problem(meta["keys"], hosted, event, index, chain, point)
        if isinstance(event, ActionTaken):
            on_action(meta, event)
        return detail

    def check(self, event: Event, entries: Sequence[LogEntry], index: int) -> str:
        """Checks a seat's signed words, and follows the hand-overs and lapses."""
        handler = CLUB_HANDLERS.get(type(event))
        if type(event) in (TurnLapsed, SeatHandedOver) and handler is not None:
            handler(self, event)
            return ""
        if isinstance(event, RolledBack):  # as the fold: lapses end, and the next move's nonce is pinned
            club = self.meta["club"]
            club["lapsed"], club["redo"] = {}, event.nonce
            return ""
        signed_at = getattr(event, "signed_at", 0)
        chain_at = entries[signed_at - 1].chain if 1 <= signed_at <= index else b""
        problem = said_problem(self.meta["keys"], event, chain_at)
        if getattr(event, "auth", "") == AUTH_SIGNED:
            signature: bytes = getattr(event, "signature", b"")
            problem = problem or said_again(event, index + 1, self.said.get(signature))
            self.said[signature] = (index + 1, event)
        return problem


# What a seat authorises (no event type subclasses another: the exact type says what isinstance would).
_SIGNED_TYPES = frozenset({ActionTaken, EntropyAdded})
# The club's events that change who signs or whom the host may move for, or are a seat's signed words (a
# sealed copy's are Sealed).
_TRACKED = frozenset({TurnLapsed, SeatHandedOver, RolledBack, *SIGNED_KINDS})
