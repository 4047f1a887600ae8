"""The club's rules: whether a club event (domain.club) may be recorded where it stands.

The game asks before it records one and the audit asks of every one it reads, with the same function,
so no door takes what the other refuses. Rollbacks are judged on the log itself: a rollback to event
N voids every move after it and returns the game to N, so it must land on a move's boundary, may not
cross the deal, a seed's commitment or reveal, entropy, another rollback or a seat's hand-over, and may
not let anyone roll again: only the first move it voids may have drawn (a die, a pick, a salt), and
that move's nonce is pinned for the move that replaces it, which therefore draws exactly the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.actions import HOST
from domain.club import (
    MAX_LABEL,
    MAX_PRESS,
    MAX_REASON,
    MAX_TEXT_BYTES,
    MISSED_RULES,
    PUBLIC_TO,
    REPLACE,
    SIGNED_KINDS,
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
    away_until,
    deadline_of,
    lapsed_rule,
    paused_by,
    signed_bytes,
    signed_payload,
)
from domain.events import (
    ActionTaken,
    DiceChainCommitted,
    EntropyAdded,
    Event,
    ForkedFrom,
    GameCreated,
    Sealed,
    SeedCommitted,
    SeedRevealed,
    is_private,
)
from domain.game_meta import GameHolder
from domain.rulesets.base import GameStatus
from domain.signing import AUTH_MAIL, AUTH_SIGNED, ENTROPY_POINT, is_valid_signature

YEAR = 366 * 86400
MAX_REMINDERS = 8
# Nothing a rollback may cross: the deal's randomness, the seed, and the seats' keys are not undone.
_UNCROSSABLE = (
    ForkedFrom,
    GameCreated,
    SeedCommitted,
    DiceChainCommitted,
    SeedRevealed,
    EntropyAdded,
    RolledBack,
    SeatHandedOver,
)

Check = Callable[[GameHolder, Any, Sequence[Event], int, GameStatus], str]


def club_problem(
    holder: GameHolder, event: Event, events: Sequence[Event], head: int, status: GameStatus
) -> str:
    """Says why a club event may not be recorded after the first `head` events of `events`, with the
    game folded to there in `holder` and its `status` (domain.game.game_status) ("" when it may)."""
    check = _CHECKS.get(type(event))
    if check is None:
        return ""
    if not holder.meta.get("hosted"):
        return f"{type(event).__name__} belongs to a game played by e-mail"
    problem: str = check(holder, event, events, head, status)
    return problem


def _seats(holder: GameHolder) -> list[str]:
    players: list[str] = holder.meta["players"]
    return players


def _label_problem(text: str, what: str) -> str:
    if not text or text != text.strip() or not text.isprintable() or len(text) > MAX_LABEL:
        return f"{what} must be 1-{MAX_LABEL} printable characters"
    return ""


def _deadline(
    holder: GameHolder, event: DeadlineSet, events: Sequence[Event], head: int, status: GameStatus
) -> str:
    if not 0 <= event.seconds <= YEAR or not 0 <= event.grace <= YEAR or not 0 <= event.vacation <= YEAR:
        return "a deadline, a grace and an absence are from 0 to a year"
    if event.missed not in MISSED_RULES:
        return f"a missed turn does one of {', '.join(MISSED_RULES)}, not {event.missed!r:.20}"
    if len(event.reminders) > MAX_REMINDERS or any(
        not 0 < r < max(event.seconds, 1) for r in event.reminders
    ):
        return (
            f"at most {MAX_REMINDERS} reminders, each a time before the deadline (and after the turn began)"
        )
    if len(set(event.reminders)) != len(event.reminders):
        return "each reminder is at a time of its own"
    return ""


def _lapsed(
    holder: GameHolder, event: TurnLapsed, events: Sequence[Event], head: int, status: GameStatus
) -> str:
    rules = deadline_of(holder.meta)
    if not rules["seconds"]:
        return "the game has no deadline, so no turn lapses"
    if status["status"] != "running" or paused_by(holder.meta):
        return "a turn lapses only while the game is being played"
    if event.player not in status.get("to_act", []) or event.player == HOST:
        return f"{event.player} is not to move, so their turn cannot lapse"
    if event.rule != rules["missed"]:
        return f"the game's rule for a missed turn is {rules['missed']!r}, not {event.rule!r:.20}"
    if lapsed_rule(holder.meta, event.player):
        return f"{event.player}'s turn has lapsed already"
    if event.at < (away := away_until(holder.meta, event.player)):
        return f"{event.player} declared themselves away until {away}: no turn of theirs lapses meanwhile"
    if not 1 <= event.since <= head:
        return "a lapse names the event its seat waited on since"
    return ""


def _handed_over(
    holder: GameHolder, event: SeatHandedOver, events: Sequence[Event], head: int, status: GameStatus
) -> str:
    if lapsed_rule(holder.meta, event.player) != REPLACE:
        return f"{event.player}'s turn has not lapsed under the rule `replace`: the seat is theirs"
    if len(event.key) not in (0, 32):
        return "a replacement's key is an Ed25519 public key (32 bytes) or none"
    if event.key:
        # The host's own key would let it sign for the seat; another seat's, let one player play two.
        created = next((e for e in events[:head] if isinstance(e, GameCreated)), None)
        if created is not None and event.key == created.host_key:
            return "a seat is never handed to the host's own key: the host would sign for it"
        keys: dict[str, bytes] = holder.meta.get("keys", {})
        other = next((seat for seat, key in keys.items() if key == event.key and seat != event.player), "")
        if other:
            return f"a seat is never handed to the key another seat signs with ({other}'s)"
    return _label_problem(event.replacement, "a replacement player's name")


def _vacation(
    holder: GameHolder, event: VacationDeclared, events: Sequence[Event], head: int, status: GameStatus
) -> str:
    if event.player not in _seats(holder):
        return f"{event.player!r:.40} has no seat in this game"
    limit = deadline_of(holder.meta)["vacation"]
    used = holder.meta.get("club", {}).get("away_used", {}).get(event.player, 0)
    if event.seconds <= 0 or used + event.seconds > limit:
        left = max(limit - used, 0)
        return (
            f"{event.player} may be away {_span(left)} more in this game, not {_span(max(event.seconds, 0))}"
        )
    return _said_at(event, head)


def _text_problem(text: str, most: int, what: str) -> str:
    """Says why words typed by a person cannot be recorded ("" when they can): 1 to `most` characters,
    not blank, and at most MAX_TEXT_BYTES in UTF-8 (the longest string a log holds)."""
    if not text.strip() or len(text) > most:
        return f"{what} is 1-{most} characters"
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return f"{what} holds a character that is no text (a lone surrogate)"
    if size > MAX_TEXT_BYTES:
        return f"{what} is at most {MAX_TEXT_BYTES} bytes in UTF-8, not {size}: no log holds a longer text"
    return ""


def _said_at(event: Any, head: int) -> str:
    """Checks where a seat's signed words say they were made, and the host's own words' marks. They are
    signed at the seed's commitment or later: the chain value of an event before it names no one game
    (two games of the same seats, keys and host begin alike), so words signed there could be replayed
    into another game."""
    if event.auth == "signed" and not ENTROPY_POINT <= event.signed_at <= head:
        return (
            f"signed words name an event the log held when they were signed, from the seed's commitment "
            f"(event {ENTROPY_POINT}) on"
        )
    if event.auth != "signed" and (event.signed_at or event.signature):
        return "only signed words carry a signature and the event they were signed at"
    return ""


def _press(
    holder: GameHolder,
    event: PressSent | PrivatePressSent,
    events: Sequence[Event],
    head: int,
    status: GameStatus,
) -> str:
    seats = _seats(holder)
    if event.sender not in (*seats, HOST):
        return f"press comes from a seat or the host, not {event.sender!r:.40}"
    if problem := _text_problem(event.text, MAX_PRESS, "press"):
        return problem
    if event.sender == HOST and event.auth:
        return "the host's own press is not marked as a seat's"
    if isinstance(event, PrivatePressSent):
        to = event.to
        if not to or len(set(to)) != len(to) or not set(to) <= set(seats) or PUBLIC_TO in to:
            return "private press goes to named seats, each once"
        if event.owner not in (*to, event.sender):
            return f"a copy of private press is for its sender or an addressee, not {event.owner!r:.40}"
    return _said_at(event, head)


def _observer(
    holder: GameHolder,
    event: ObserverAdded | ObserverRemoved,
    events: Sequence[Event],
    head: int,
    status: GameStatus,
) -> str:
    watching = holder.meta.get("club", {}).get("observers", [])
    if isinstance(event, ObserverAdded) and event.name in watching:
        return f"{event.name} already watches the game"
    if isinstance(event, ObserverRemoved) and event.name not in watching:
        return f"{event.name!r:.40} does not watch the game"
    return _label_problem(event.name, "an observer's name")


def _proposed(
    holder: GameHolder, event: RollbackProposed, events: Sequence[Event], head: int, status: GameStatus
) -> str:
    if paused_by(holder.meta):
        return "a rollback is already waiting on answers"
    if problem := _text_problem(event.reason, MAX_REASON, "a rollback's reason"):
        return problem
    problem = rollback_problem(events, head, event.to)
    if problem:
        return problem
    voids = voided_seats(events, head, event.to)
    if event.voids != voids:
        named = ", ".join(voids)
        return f"a rollback to event {event.to} voids the moves of {named}, not of {event.voids!r:.60}"
    return ""


def _answered(
    holder: GameHolder, event: RollbackAnswered, events: Sequence[Event], head: int, status: GameStatus
) -> str:
    pending = holder.meta.get("club", {}).get("pending")
    if not pending:
        return "no rollback waits on an answer"
    if event.player not in pending["waiting"]:
        return f"the rollback does not wait on {event.player!r:.40}"
    if event.to != pending["to"]:
        return f"the rollback asked goes back to event {pending['to']}, not {event.to}"
    asked = next((i + 1 for i in range(head - 1, -1, -1) if isinstance(events[i], RollbackProposed)), 0)
    if event.auth == "signed" and event.signed_at < asked:
        return "a signed answer is made holding the proposal it answers"
    return _said_at(event, head)


def _rolled_back(
    holder: GameHolder, event: RolledBack, events: Sequence[Event], head: int, status: GameStatus
) -> str:
    pending = holder.meta.get("club", {}).get("pending")
    if not pending or pending["waiting"] or pending["to"] != event.to:
        return f"no rollback to event {event.to} was agreed by every seat it voids"
    first = events[event.to] if event.to < head else None
    if not isinstance(first, ActionTaken) or event.nonce != first.nonce:
        return "a rollback pins the nonce of the first move it voids"
    return ""


def _withdrawn(
    holder: GameHolder, event: RollbackWithdrawn, events: Sequence[Event], head: int, status: GameStatus
) -> str:
    return "" if holder.meta.get("club", {}).get("pending") else "no rollback waits to be withdrawn"


_CHECKS: dict[type, Check] = {
    DeadlineSet: _deadline,
    TurnLapsed: _lapsed,
    SeatHandedOver: _handed_over,
    VacationDeclared: _vacation,
    PressSent: _press,
    PrivatePressSent: _press,
    ObserverAdded: _observer,
    ObserverRemoved: _observer,
    RollbackProposed: _proposed,
    RollbackAnswered: _answered,
    RolledBack: _rolled_back,
    RollbackWithdrawn: _withdrawn,
}


# --- rollbacks -----------------------------------------------------------------------------------------


def rollback_problem(events: Sequence[Event], head: int, to: int) -> str:
    """Says why the game of the first `head` events may not go back to event `to` ("" when it may)."""
    if not 1 <= to < head:
        return f"a rollback goes back to an event before the last one (1 to {head - 1}), not {to}"
    first = events[to]
    if not isinstance(first, ActionTaken) or first.player == HOST:
        return f"event {to} is not just before a player's move: roll back to the event before a move"
    drew = ""
    for index in range(to, head):
        event = events[index]
        if isinstance(event, _UNCROSSABLE) or (isinstance(event, ActionTaken) and event.player == HOST):
            return f"a rollback cannot go back past event {index + 1} ({event.type_name})"
        if isinstance(event, ActionTaken):
            drew = drew if index == to else event.player
            continue
        if drew and index > to and _may_have_drawn(event):
            return (
                f"going back to event {to} would let {drew} draw again at event {index + 1}: only the first "
                "move a rollback voids may have drawn (its draws are kept for the move that replaces it)"
            )
    return ""


def _may_have_drawn(event: Event) -> bool:
    """Tells whether an event may record a draw: it names one, or it is a private event, whose draws a
    sealed copy cannot see (so every copy judges a rollback alike)."""
    if event.type_name == PrivatePressSent.__name__:
        return False  # words, not chance: private press draws nothing
    if isinstance(event, Sealed) or is_private(event.type_name):
        return True
    for _, draw_field in event.drawn:
        draws = getattr(event, draw_field)
        if any(d >= 0 for d in (draws if isinstance(draws, list) else [draws]) if isinstance(d, int)):
            return True
    return False


def voided_seats(events: Sequence[Event], head: int, to: int) -> list[str]:
    """Returns the seats whose moves a rollback of the first `head` events to event `to` voids."""
    return sorted({e.player for e in events[to:head] if isinstance(e, ActionTaken) and e.player != HOST})


def _span(seconds: int) -> str:
    """Says a duration in days and hours."""
    days, rest = divmod(seconds, 86400)
    hours = rest // 3600
    parts = [f"{days} day{'s' * (days != 1)}"] if days else []
    if hours or not parts:
        parts.append(f"{hours} hour{'s' * (hours != 1)}")
    return " ".join(parts)


def said_problem(keys: dict[str, bytes], event: Event, chain_at: bytes) -> str:
    """Says why a seat's words (press, an absence, a rollback's answer) are not proven to be theirs ("" when
    they are): a seat with a key signs them (at the event `signed_at`, whose chain value is `chain_at`),
    a seat without one says them by mail or at the host's terminal, and the host speaks only for itself."""
    kind = SIGNED_KINDS.get(type(event))
    if kind is None:
        return ""
    said: Any = event  # every signed kind has `auth`, `signed_at` and `signature`
    name, seat_field = kind
    seat: str = getattr(said, seat_field)
    key = keys.get(seat, b"")
    if seat == HOST:
        return "" if not said.auth else "the host's own words are not marked as a seat's"
    if key and said.auth != AUTH_SIGNED:
        marked = said.auth or "typed at the host"
        return f"{seat} signs what they say (their replica writes the packets), not {marked!r}"
    if not key and said.auth not in ("", AUTH_MAIL):
        return f"{seat} has no key, yet their words claim to be {said.auth!r:.20}"
    if said.auth != AUTH_SIGNED:
        return ""
    message = signed_bytes(name, said.signed_at, chain_at, seat, signed_payload(event))
    if is_valid_signature(key, message, said.signature):
        return ""
    return f"{seat}'s {name} does not carry {seat}'s signature"


def said_again(event: Event, version: int, earlier: tuple[int, Event] | None) -> str:
    """Says why a seat's signed words at event `version` were recorded before ("" when they were not):
    `earlier` is the last event that carries the same signature, and its number. A seat's words are
    recorded once, where the host took them: the same signature again is the host repeating them (a
    press said twice, an absence taken twice), except for the copies of one private press, one for each
    reader, recorded one after the other."""
    if earlier is None or getattr(event, "auth", "") != AUTH_SIGNED:
        return ""
    at, before = earlier
    if at == version - 1 and _next_copy(before, event):
        return ""
    name, seat_field = SIGNED_KINDS[type(event)]
    seat = getattr(event, seat_field)
    signed_at = getattr(event, "signed_at", 0)
    return f"{seat}'s {name} signed at event {signed_at} is recorded at event {at} already: said twice"


def _next_copy(before: Event, event: Event) -> bool:
    """Tells whether `event` is the next reader's copy of the private press `before` is a copy of."""
    if not isinstance(before, PrivatePressSent) or not isinstance(event, PrivatePressSent):
        return False
    said = (before.sender, before.to, before.text, before.signed_at, before.at)
    again = (event.sender, event.to, event.text, event.signed_at, event.at)
    return said == again and before.owner < event.owner


def last_said(events: Sequence[Event], signature: bytes) -> tuple[int, Event] | None:
    """Returns the last of `events` that is a seat's signed words with this signature, and its number."""
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if type(event) in SIGNED_KINDS and getattr(event, "signature", b"") == signature:
            return index + 1, event
    return None
