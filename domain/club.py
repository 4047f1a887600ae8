"""A club's game by e-mail, in the game's own log: deadlines, missed turns, absences, press, observers
and agreed rollbacks are events like any other, so every replica and every audit sees them.

They are recorded by the host (`is_host_event`): no rule decides them, but each is checked against the
game as it stands (`club_problem`) by the game before it is stored and by the audit after, so a host
cannot record one the rules of the club refuse. What a seat says (press, an absence, its answer to a
rollback) carries the seat's own signature when the seat plays with a key (`signed_bytes`), made at
the point of the log the player held (`signed_at`), so the host cannot put words in its mouth.

The fold keeps the club's bookkeeping in `meta["club"]`, which a rollback leaves as it is: a rollback
voids moves, not what was said or agreed about the game.
"""

from __future__ import annotations

from typing import Any

from domain.actions import HOST
from domain.errors import TamperedLog
from domain.events import ActionTaken, Event, canonical_bytes, event_type
from domain.game_meta import ClubHolder, ClubMeta, GameHolder
from domain.plain import copy_plain

# What a missed turn does (DeadlineSet.missed).
WAIT, DEFAULT, REPLACE = "wait", "default", "replace"
MISSED_RULES = (WAIT, DEFAULT, REPLACE)
# ActionTaken.auth of a move the host's bot made for a seat whose turn lapsed under the rule `default`.
AUTH_DEFAULT = "default"
MAX_PRESS = 4000  # characters of one press message
MAX_REASON = 400  # characters of a rollback's reason
MAX_LABEL = 64  # characters of an observer's or a replacement player's name
# Bytes of one text in UTF-8: the longest string any log holds (replay-format.md, Limits), so a press
# longer than that in bytes would make the game unreadable to every replica, export and import.
MAX_TEXT_BYTES = 4096
PUBLIC_TO = "all"


def _club(meta: ClubMeta) -> dict[str, Any]:
    club: dict[str, Any] = meta.setdefault("club", {})
    return club


# --- events --------------------------------------------------------------------------------------


@event_type
class DeadlineSet(Event):
    """The host set the game's turn deadline (0: none), when reminders go (seconds before the lapse),
    what a missed turn does (`wait`, `default` after `grace` seconds, or `replace`), and how long each
    seat may declare itself absent over the whole game."""

    is_host_event = True
    seconds: int
    reminders: list[int]
    missed: str
    grace: int
    vacation: int
    at: int


@event_type
class TurnLapsed(Event):
    """A seat's turn passed its deadline: who, the event it had waited on since, when, and the rule."""

    is_host_event = True
    player: str
    since: int
    at: int
    rule: str


@event_type
class SeatHandedOver(Event):
    """A seat whose turn lapsed under the rule `replace` went to a replacement player: their name and
    key (empty: they play by mail). The seat keeps its name in the game."""

    is_host_event = True
    player: str
    replacement: str
    key: bytes
    at: int


@event_type
class VacationDeclared(Event):
    """A seat declared itself absent for `seconds` from `at`: no deadline of its lapses meanwhile."""

    is_host_event = True
    player: str
    seconds: int
    at: int
    auth: str
    signed_at: int
    signature: bytes


@event_type
class PressSent(Event):
    """A message to everyone at the table (a seat's, or the host's), relayed and recorded by the host."""

    is_host_event = True
    sender: str
    text: str
    at: int
    auth: str
    signed_at: int
    signature: bytes


@event_type
class PrivatePressSent(Event):
    """A message to named seats: one copy for each reader (every addressee and the sender), each sealed
    for everyone else, so the chain proves what was said to whom and when and nobody else reads it."""

    is_host_event = True
    private = True
    owner: str
    sender: str
    to: list[str]
    text: str
    at: int
    auth: str
    signed_at: int
    signature: bytes
    salt: bytes


@event_type
class ObserverAdded(Event):
    """Someone watches the game: they get the public copy's mail and public press, and never act."""

    is_host_event = True
    name: str
    at: int


@event_type
class ObserverRemoved(Event):
    """An observer no longer gets the game's mail."""

    is_host_event = True
    name: str
    at: int


@event_type
class RollbackProposed(Event):
    """The host asked to take the game back to event `to`, for `reason`: it takes effect only when
    every seat whose moves it voids (`voids`) agrees; play waits meanwhile."""

    is_host_event = True
    to: int
    reason: str
    voids: list[str]
    at: int


@event_type
class RollbackAnswered(Event):
    """A seat agreed to the proposed rollback to event `to`, or refused it (which ends the proposal)."""

    is_host_event = True
    player: str
    to: int
    agreed: bool
    at: int
    auth: str
    signed_at: int
    signature: bytes


@event_type
class RolledBack(Event):
    """Every seat it voids agreed: the game is as it was at event `to`. The first move made after it
    draws with `nonce`, the voided first move's, so it draws exactly what that move drew."""

    is_host_event = True
    to: int
    reason: str
    nonce: bytes
    at: int


@event_type
class RollbackWithdrawn(Event):
    """The host withdrew the proposed rollback; play goes on."""

    is_host_event = True
    at: int


CLUB_EVENTS: tuple[type[Event], ...] = (
    DeadlineSet,
    TurnLapsed,
    SeatHandedOver,
    VacationDeclared,
    PressSent,
    PrivatePressSent,
    ObserverAdded,
    ObserverRemoved,
    RollbackProposed,
    RollbackAnswered,
    RolledBack,
    RollbackWithdrawn,
)
# The club events a seat signs, with the name its signature is made under and the seat's field.
SIGNED_KINDS: dict[type[Event], tuple[str, str]] = {
    VacationDeclared: ("vacation", "player"),
    PressSent: ("press", "sender"),
    PrivatePressSent: ("press", "sender"),
    RollbackAnswered: ("answer", "player"),
}


# --- what seats sign -----------------------------------------------------------------------------------


def signed_bytes(kind: str, version: int, chain: bytes, player: str, payload: Any) -> bytes:
    """Returns what a seat signs to say something (`kind`: press, vacation, answer) holding the log up
    to event `version`, whose chain value is `chain`."""
    return canonical_bytes([f"nightkeep-{kind}", version, chain, player, payload])


def signed_payload(event: Event) -> Any:
    """Returns the part of a club event its seat signed (what they said, not when the host got it)."""
    if isinstance(event, VacationDeclared):
        return event.seconds
    if isinstance(event, PressSent):
        return [[PUBLIC_TO], event.text]
    if isinstance(event, PrivatePressSent):
        return [sorted(event.to), event.text]
    if isinstance(event, RollbackAnswered):
        return [event.to, event.agreed]
    raise TypeError(f"{type(event).__name__} is not signed by a seat")


# --- the fold ------------------------------------------------------------------------------------------


def _on_deadline(holder: GameHolder, event: DeadlineSet) -> None:
    _club(holder.meta)["deadline"] = {
        "seconds": event.seconds,
        "reminders": list(event.reminders),
        "missed": event.missed,
        "grace": event.grace,
        "vacation": event.vacation,
    }


def _on_lapsed(holder: ClubHolder, event: TurnLapsed) -> None:
    _club(holder.meta).setdefault("lapsed", {})[event.player] = event.rule


def _on_handed_over(holder: ClubHolder, event: SeatHandedOver) -> None:
    keys = dict(holder.meta.get("keys", {}))
    if event.key:
        keys[event.player] = event.key
    else:
        keys.pop(event.player, None)
    holder.meta["keys"] = keys
    club = _club(holder.meta)
    club.setdefault("lapsed", {}).pop(event.player, None)
    club.setdefault("played_by", {})[event.player] = event.replacement


def _on_vacation(holder: GameHolder, event: VacationDeclared) -> None:
    club = _club(holder.meta)
    club.setdefault("away", {})[event.player] = event.at + event.seconds
    used = club.setdefault("away_used", {})
    used[event.player] = used.get(event.player, 0) + event.seconds


def _on_observer(holder: GameHolder, event: ObserverAdded | ObserverRemoved) -> None:
    watching = set(_club(holder.meta).get("observers", []))
    if isinstance(event, ObserverAdded):
        watching.add(event.name)
    else:
        watching.discard(event.name)
    _club(holder.meta)["observers"] = sorted(watching)


def _on_proposed(holder: GameHolder, event: RollbackProposed) -> None:
    _club(holder.meta)["pending"] = {"to": event.to, "waiting": list(event.voids), "agreed": []}


def _on_answered(holder: GameHolder, event: RollbackAnswered) -> None:
    club = _club(holder.meta)
    pending = club.get("pending")
    if pending is None:
        return  # (the audit names an answer to nothing; the fold takes the log as it is)
    if not event.agreed:
        club["pending"] = None
        return
    if event.player in pending["waiting"]:
        pending["waiting"].remove(event.player)
        pending["agreed"].append(event.player)


def _on_withdrawn(holder: GameHolder, event: RollbackWithdrawn) -> None:
    _club(holder.meta)["pending"] = None


def _on_rolled_back(holder: GameHolder, event: RolledBack) -> None:
    """Takes the holder back to its state at event `to`, keeping what the club agreed since."""
    before = getattr(holder, "version", None)  # the events folded before this one
    if before is not None and not 1 <= event.to < before:
        # (the audit names it: a rollback returns to an earlier event; a fold cannot go forward)
        raise TamperedLog(f"a rollback at event {before + 1} cannot return to event {event.to}")
    source = getattr(holder, "rewind_source", None)
    if source is None:
        raise RewindNeeded(event.to)
    restored = source(event.to)
    meta = holder.meta
    for name in ("actions", "next_draw", "script_pos", "pool"):
        meta[name] = copy_plain(restored.meta[name])
    holder.state = copy_plain(restored.state)
    club = _club(meta)
    club["pending"] = None
    club["lapsed"] = {}
    club["redo"] = event.nonce
    club["last_rollback"] = event.to


def _on_nothing(holder: GameHolder, event: Event) -> None:
    """Press changes nothing in the game."""


CLUB_HANDLERS: dict[type, Any] = {
    DeadlineSet: _on_deadline,
    TurnLapsed: _on_lapsed,
    SeatHandedOver: _on_handed_over,
    VacationDeclared: _on_vacation,
    PressSent: _on_nothing,
    PrivatePressSent: _on_nothing,
    ObserverAdded: _on_observer,
    ObserverRemoved: _on_observer,
    RollbackProposed: _on_proposed,
    RollbackAnswered: _on_answered,
    RolledBack: _on_rolled_back,
    RollbackWithdrawn: _on_withdrawn,
}


class RewindNeeded(Exception):
    """Raised by a fold that meets a rollback with no way to read the events before it: the caller
    folds again from the first event, with a rewind source."""

    def __init__(self, to: int) -> None:
        super().__init__(f"a rollback to event {to} needs the log before it")
        self.to = to


def on_action(meta: ClubMeta, event: ActionTaken) -> None:
    """Keeps the club's bookkeeping of a move: a lapse lasts until its seat moves itself or another
    seat moves, and a rollback's pinned nonce is used by the first move after it."""
    club = meta.get("club")
    if not club:
        return
    lapsed = club.get("lapsed")
    if lapsed:
        own = lapsed.get(event.player) if event.auth == AUTH_DEFAULT else None
        club["lapsed"] = {event.player: own} if own else {}
    if club.get("redo") is not None:
        club["redo"] = None


# --- questions the game and its readers ask ------------------------------------------------------------


def paused_by(meta: ClubMeta) -> str:
    """Says why nobody may move now ("" when play is open): a rollback waiting on answers."""
    pending = meta.get("club", {}).get("pending")
    if not pending:
        return ""
    waiting = ", ".join(pending["waiting"]) or "nobody"
    return f"a rollback to event {pending['to']} waits on the answer of {waiting}"


def pinned_nonce(meta: ClubMeta) -> bytes | None:
    """Returns the nonce the next move must draw with after a rollback (None: the mover's own)."""
    redo: bytes | None = meta.get("club", {}).get("redo")
    return redo


def deadline_of(meta: ClubMeta) -> dict[str, Any]:
    """Returns the game's deadline rules (seconds 0: no deadline)."""
    found: dict[str, Any] = meta.get("club", {}).get("deadline") or {
        "seconds": 0,
        "reminders": [],
        "missed": WAIT,
        "grace": 0,
        "vacation": 0,
    }
    return found


def lapsed_rule(meta: ClubMeta, player: str) -> str:
    """Returns the missed-turn rule a seat's lapsed turn is under ("" when it has not lapsed)."""
    rule: str = meta.get("club", {}).get("lapsed", {}).get(player, "")
    return rule


def away_until(meta: ClubMeta, player: str) -> int:
    """Returns when a seat's declared absence ends (0: none declared)."""
    until: int = meta.get("club", {}).get("away", {}).get(player, 0)
    return until


def default_move_problem(meta: ClubMeta, event: ActionTaken) -> str:
    """Says why a move marked as the host's default move for a seat is not allowed ("" when it is): the
    seat's turn lapsed under the rule `default`, and the move draws with no nonce of the host's choosing
    (none, or after a rollback the voided move's), so the host picks no roll for the seat."""
    if event.signature:
        return "a default move carries no signature"
    if lapsed_rule(meta, event.player) != DEFAULT:
        return (
            f"{event.player}'s turn has not lapsed under the rule `default`: the host may not move for them"
        )
    if event.nonce and event.nonce != pinned_nonce(meta):
        return "a default move draws with no nonce of the host's choosing (the host would pick its rolls)"
    return ""


def redo_problem(meta: ClubMeta, event: ActionTaken) -> str:
    """Says why the first move after a rollback does not draw as the voided one did ("" when it does)."""
    pinned = pinned_nonce(meta)
    if pinned is None or event.player == HOST or event.nonce == pinned:
        return ""
    return "the first move after a rollback must draw with the voided move's nonce (no die is rolled again)"
