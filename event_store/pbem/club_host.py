"""What the host of a club's games does besides applying moves: deadlines, press, absences, observers,
hand-overs and rollbacks, each recorded as a club event (domain.club) in the game's own log, with the
host's own rows (an observer's address, a seat's new address) in the same transaction.

Every function checks what the game checks (`GameService.record_club`), so nothing is recorded that
the audit of any copy would refuse, and raises a NightkeepError with one plain line otherwise.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from uuid import UUID

from domain.actions import HOST
from domain.club import (
    MISSED_RULES,
    PUBLIC_TO,
    WAIT,
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
    VacationDeclared,
)
from domain.club_rules import rollback_problem, voided_seats
from domain.errors import IllegalAction, UsageError
from domain.events import ActionTaken
from domain.signing import AUTH_SIGNED
from event_store import clock
from event_store.lazy_log import get_logger
from event_store.pbem.packets import Packet
from event_store.sql import Statement

if TYPE_CHECKING:
    from event_store.pbem.host_parts import HostLike

log = get_logger("nightkeep.host")

UNITS = {"d": 86400, "h": 3600, "m": 60}


@dataclass(frozen=True)
class DeadlineRules:
    """A game's turn deadline and what goes with it (DeadlineSet's fields, all in seconds)."""

    seconds: int
    reminders: tuple[int, ...] = ()
    missed: str = WAIT
    grace: int = 0
    vacation: int = 0


def parse_span(text: str, what: str) -> int:
    """Reads a duration such as 3d, 12h or 90m (or 0) into seconds."""
    text = text.strip().lower()
    if text == "0":
        return 0
    if text[-1:] not in UNITS or not text[:-1].isdecimal() or not 1 <= len(text) <= 8 or int(text[:-1]) < 1:
        raise UsageError(f"malformed {what} {text[:20]!r}: expected a number and d, h or m (3d, 12h, 90m)")
    return int(text[:-1]) * UNITS[text[-1]]


def parse_rules(
    deadline: str, reminders: str = "", missed: str = WAIT, grace: str = "0", vacation: str = "0"
) -> DeadlineRules:
    """Reads a deadline and its companions as the command line gives them (`--reminders 1d,2h`)."""
    if missed not in MISSED_RULES:
        raise UsageError(f"--missed is one of {', '.join(MISSED_RULES)}, not {missed[:20]!r}")
    before = tuple(
        parse_span(r, "--reminders time") for r in reminders.split(",") if r.strip() not in ("", "0")
    )
    return DeadlineRules(
        seconds=parse_span(deadline, "--deadline"),
        reminders=tuple(sorted(set(before), reverse=True)),
        missed=missed,
        grace=parse_span(grace, "--grace"),
        vacation=parse_span(vacation, "--vacation"),
    )


def deadline_event(rules: DeadlineRules) -> DeadlineSet:
    """Returns the event that records deadline rules now."""
    return DeadlineSet(
        seconds=rules.seconds,
        reminders=list(rules.reminders),
        missed=rules.missed,
        grace=rules.grace,
        vacation=rules.vacation,
        at=clock.epoch(),
    )


def set_deadline(host: HostLike, game_id: UUID, rules: DeadlineRules) -> int:
    """Records the game's deadline rules (new or changed); returns the new version."""
    host.seats(game_id)  # (a game this host runs)
    return host.service.record_club(game_id, deadline_event(rules))


def send_press(
    host: HostLike,
    game_id: UUID,
    sender: str,
    to: Sequence[str],
    text: str,
    auth: str = "",
    signed_at: int = 0,
    signature: bytes = b"",
    rows: Sequence[Statement] = (),
) -> int:
    """Records press from a seat (or the host): to everyone in the open, or to named seats privately,
    one sealed copy for each reader; returns the new version."""
    seats = list(host.seats(game_id))
    named = [_seat_named(name, seats) for name in to if name.casefold() != PUBLIC_TO]
    at = clock.epoch()
    if not named:
        public = PressSent(
            sender=sender, text=text, at=at, auth=auth, signed_at=signed_at, signature=signature
        )
        return host.service.record_club(game_id, public, rows=rows)
    to_seats = sorted(set(named))
    readers = sorted({*to_seats, *([sender] if sender != HOST else [])})
    copies = [
        PrivatePressSent(
            owner=reader,
            sender=sender,
            to=to_seats,
            text=text,
            at=at,
            auth=auth,
            signed_at=signed_at,
            signature=signature,
            salt=secrets.token_bytes(32),  # the host's own: private press stays private after the reveal
        )
        for reader in readers
    ]
    return host.service.record_club(game_id, *copies, rows=rows)


def _seat_named(name: str, seats: list[str]) -> str:
    """Returns the seat a name means (any case), or refuses naming the seats."""
    found = [seat for seat in seats if seat.casefold() == name.strip().casefold()]
    if not found:
        raise UsageError(f"no seat {name.strip()[:40]!r} in this game (seats: {', '.join(seats)}, or all)")
    return found[0]


def declare_vacation(
    host: HostLike,
    game_id: UUID,
    player: str,
    seconds: int,
    auth: str = "",
    signed_at: int = 0,
    signature: bytes = b"",
    rows: Sequence[Statement] = (),
) -> int:
    """Records a seat's declared absence (within the game's limit); returns the new version."""
    said = VacationDeclared(
        player=player, seconds=seconds, at=clock.epoch(), auth=auth, signed_at=signed_at, signature=signature
    )
    return host.service.record_club(game_id, said, rows=rows)


def add_observer(host: HostLike, game_id: UUID, mail: str, name: str = "") -> int:
    """Lets someone watch a game by mail: the public copy's mails and public press; returns the version."""
    host.seats(game_id)
    name = name or mail.split("@", 1)[0]
    row: Statement = (
        "INSERT INTO nightkeep_pbem_observers (game_id, name, mail, sent) VALUES (?, ?, ?, 0)",
        [str(game_id), name, mail],
    )
    return host.service.record_club(game_id, ObserverAdded(name=name, at=clock.epoch()), rows=[row])


def remove_observer(host: HostLike, game_id: UUID, name: str) -> int:
    """Stops an observer's mail; returns the new version."""
    row: Statement = ("DELETE FROM nightkeep_pbem_observers WHERE game_id=? AND name=?", [str(game_id), name])
    return host.service.record_club(game_id, ObserverRemoved(name=name, at=clock.epoch()), rows=[row])


def hand_over(host: HostLike, game_id: UUID, seat: str, mail: str, key: bytes = b"", name: str = "") -> int:
    """Gives a seat whose turn lapsed under the rule `replace` to a replacement player (their address,
    and key if they play with one); returns the new version."""
    seats = host.seats(game_id)
    if seat not in seats:
        raise UsageError(f"no seat {seat!r:.40} in this game (seats: {', '.join(seats)})")
    rows: list[Statement] = [
        (
            "UPDATE nightkeep_pbem_seats SET pubkey=?, mail=?, acked=0, sent=0 WHERE game_id=? AND player=?",
            [key, mail, str(game_id), seat],
        )
    ]
    event = SeatHandedOver(player=seat, replacement=name or mail.split("@", 1)[0], key=key, at=clock.epoch())
    return host.service.record_club(game_id, event, rows=rows)


def propose_rollback(host: HostLike, game_id: UUID, to: int, reason: str) -> int:
    """Asks every seat whose moves a rollback to event `to` voids to agree; returns the new version."""
    recorded = [r.event for r in host.service.recorded_events(game_id)]
    problem = rollback_problem(recorded, len(recorded), to)
    if problem:
        raise IllegalAction(problem)
    voids = voided_seats(recorded, len(recorded), to)
    event = RollbackProposed(to=to, reason=reason, voids=voids, at=clock.epoch())
    return host.service.record_club(game_id, event)


def answer_rollback(
    host: HostLike,
    game_id: UUID,
    player: str,
    agreed: bool,
    auth: str = "",
    signed_at: int = 0,
    signature: bytes = b"",
    rows: Sequence[Statement] = (),
) -> tuple[int, bool]:
    """Records a seat's answer; the last agreement takes the game back at once (one transaction).
    Returns the new version and whether the game went back."""
    fold = host.service.fold(game_id)
    pending = fold.meta.get("club", {}).get("pending")
    if not pending:
        raise IllegalAction("no rollback waits on an answer in this game")
    at = clock.epoch()
    answer = RollbackAnswered(
        player=player,
        to=pending["to"],
        agreed=agreed,
        at=at,
        auth=auth,
        signed_at=signed_at,
        signature=signature,
    )
    if not agreed or pending["waiting"] != [player]:
        return host.service.record_club(game_id, answer, rows=rows), False
    to = pending["to"]
    voided = host.service.recorded_events(game_id, gt=to, lte=to + 1)[0].event
    assert isinstance(voided, ActionTaken)  # (the proposal was checked to land before a move)
    proposed = _proposal_reason(host, game_id)
    back = RolledBack(to=to, reason=proposed, nonce=voided.nonce, at=at)
    version = host.service.record_club(game_id, answer, back, rows=rows)
    log.info("rolled_back", game=str(game_id), to=to)
    return version, True


def last_proposal(host: HostLike, game_id: UUID) -> tuple[int, RollbackProposed] | None:
    """Returns the newest rollback proposal of a game and the event it is (None if there was none)."""
    for recorded in reversed(host.service.recorded_events(game_id)):
        if isinstance(recorded.event, RollbackProposed):
            return recorded.version, recorded.event
    return None


def _proposal_reason(host: HostLike, game_id: UUID) -> str:
    found = last_proposal(host, game_id)
    return "" if found is None else found[1].reason


def withdraw_rollback(host: HostLike, game_id: UUID) -> int:
    """Withdraws the proposed rollback; returns the new version."""
    return host.service.record_club(game_id, RollbackWithdrawn(at=clock.epoch()))


def take_words(host: HostLike, packet: Packet, rows: Sequence[Statement]) -> str:
    """Records a signing seat's words from its packet (press, an absence, an answer), with `rows`
    (its acknowledgement, the packet's digest) in the same transaction; returns what happened."""
    body, game_id, player = packet.body, packet.game, packet.player
    signed = {"auth": AUTH_SIGNED, "signed_at": body["version"], "signature": packet.signature}
    if packet.kind == "press":
        send_press(host, game_id, player, body["to"] or [PUBLIC_TO], body["text"], rows=rows, **signed)
        return f"{player}'s press was relayed to {', '.join(body['to']) or 'everyone'}"
    if packet.kind == "vacation":
        declare_vacation(host, game_id, player, body["seconds"], rows=rows, **signed)
        return f"{player} is away for {clock.span(body['seconds'])}"
    fold = host.service.fold(game_id)
    pending = fold.meta.get("club", {}).get("pending")
    if not pending or pending["to"] != body["to"]:
        raise IllegalAction(f"no rollback to event {body['to']} waits on an answer in game {game_id}")
    _, back = answer_rollback(host, game_id, player, body["agreed"], rows=rows, **signed)
    said = "agreed to" if body["agreed"] else "refused"
    return f"{player} {said} the rollback" + ("; the game went back" if back else "")
