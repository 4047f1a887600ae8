"""Which mail each seat and observer of a hosted game is owed now, and what it says.

A seat gets at most one mail per turn of play: when it is to move (each decision it must make), when
the turn of play passes to someone else (a digest of everything since its last mail), when the game
ends, and when something is said or done to it (press it may read, a lapse, a rollback asked or
made, a new deadline, a hand-over). Anything else waits for its next mail, which covers it, and a
signing seat's packet carries every event since the last it acknowledged, so its replica misses
nothing. Every mail's subject names the game by its title and the reader's own situation; the
text, in lines of at most 60 columns, says what changed, the board, whose turn, the moves, and the
deadline as an absolute UTC time and as "in 2 days 3 hours".
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.club import (
    DeadlineSet,
    PressSent,
    PrivatePressSent,
    RollbackAnswered,
    RollbackProposed,
    RollbackWithdrawn,
    RolledBack,
    SeatHandedOver,
    TurnLapsed,
)
from domain.events import Sealed
from domain.game_meta import ClubMeta
from domain.hidden import PUBLIC
from domain.rulesets.base import GameStatus
from domain.signing import fingerprint
from event_store import clock
from event_store.app.game_ids import short_id
from event_store.recorded import RecordedEvent
from event_store.sql import Statement

if TYPE_CHECKING:
    from event_store.pbem.host_parts import HostLike, Seat

WIDTH = 60
# Events that are news for every reader (a private copy only for its owner).
_NEWS = (
    DeadlineSet,
    PressSent,
    TurnLapsed,
    SeatHandedOver,
    RollbackProposed,
    RollbackAnswered,
    RolledBack,
    RollbackWithdrawn,
)


@dataclass(frozen=True)
class Observer:
    """Someone who watches a game by mail, and the last event they were sent."""

    name: str
    mail: str
    sent: int


@dataclass(frozen=True)
class Situation:
    """A hosted game as the mail about it sees it: its title, status, who moves, its deadline rules,
    the rollback waiting on answers (if any), and when each seat's move is due."""

    game: UUID
    title: str
    head: int
    status: GameStatus
    to_act: list[str]
    meta: ClubMeta
    due: dict[str, int]  # seconds since the epoch, per seat to move (none without a deadline)

    @property
    def acting(self) -> str:
        """Says who is to move, as the digest rule compares it."""
        return ",".join(self.to_act) if self.status["status"] == "running" else self.status["status"]

    @property
    def waiting_on(self) -> list[str]:
        """Returns the seats a rollback waits on (none when no rollback is asked)."""
        pending = self.meta.get("club", {}).get("pending")
        return list(pending["waiting"]) if pending else []


def is_owed(seen: Sequence[RecordedEvent], viewer: str, situation: Situation, mailed: str | None) -> bool:
    """Tells whether a reader (a seat, or PUBLIC for an observer) who has not seen `seen` is owed mail."""
    if not seen:
        return False
    if mailed is None or situation.acting != mailed or viewer in situation.waiting_on:
        return True  # the first mail, a new turn of play or the game's end, an answer to give
    if viewer != PUBLIC and viewer in situation.to_act:
        return True
    return any(_is_news(r.event, viewer) for r in seen)


def _is_news(event: Any, viewer: str) -> bool:
    if isinstance(event, PrivatePressSent):
        return bool(viewer) and event.owner == viewer
    if isinstance(event, Sealed):
        return False
    return isinstance(event, _NEWS)


def wrap(text: str, width: int = WIDTH) -> str:
    """Wraps every line of a text to `width` columns, keeping indents and blank lines."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width or line.startswith("Game-Key:"):  # (the key line is read whole)
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out += textwrap.wrap(
            line.strip(),
            width,
            initial_indent=indent,
            subsequent_indent=indent + "  ",
            break_on_hyphens=False,
        ) or [""]
    return "\n".join(out)


def subject(situation: Situation, seat: str, invite: bool) -> str:
    """Returns a mail's subject: the game's title and the reader's own situation."""
    title = situation.title
    status = situation.status
    if invite and (not seat or seat not in situation.to_act):
        return f"{title} — you are invited to play {seat}" if seat else f"{title} — you watch the game"
    if status["status"] == "finished":
        winner = status.get("winner") or ""
        return f"{title} — game over" + (f": {winner} won" if winner else "")
    if status["status"] != "running":
        return f"{title} — the game was stopped"
    if seat and seat in situation.waiting_on:
        return f"{title} — a rollback waits on your answer, {seat}"
    if seat and seat in situation.to_act:
        due = situation.due.get(seat)
        by = f" — reply by {clock.short_when(due)}" if due else ""
        return f"{title} — your turn, {seat}{by}"
    waiting = ", ".join(situation.to_act) or "nobody"
    return f"{title} — {waiting} to move"


def deadline_line(situation: Situation, seat: str) -> str:
    """Says when a seat's move is due, absolutely and from now ("" without a deadline)."""
    due = situation.due.get(seat)
    if not due:
        return ""
    left = due - clock.epoch()
    if left <= 0:
        return f"Your move was due by\n{clock.when(due)} ({clock.span(-left)} ago)."
    return f"Your move is due by\n{clock.when(due)} (in {clock.span(left)})."


def command(*words: str) -> str:
    """Returns a shell command indented as an example, continued with a backslash where a line would
    pass 60 columns (so it can be copied from the mail as it is)."""
    lines, line = [], "  " + words[0]
    for word in words[1:]:
        if len(line) + 1 + len(word) > WIDTH - 2:
            lines.append(line + " \\")
            line = "    " + word
        else:
            line += " " + word
    return "\n".join([*lines, line])


def _nightkeep(*words: str) -> str:
    return command("nightkeep", "--db", REPLICA, *words)


REPLICA = "replica.sqlite"  # what the mails call a player's replica store


def keyed_moves(host: HostLike, situation: Situation, seat: Seat) -> str:
    """Returns the moves of a signing seat on its turn, and the exact commands that make them."""
    actions = host.service.legal_actions(situation.game, seat.player)
    if not actions:
        return ""
    first, game = actions[0].id, short_id(situation.game)
    return "\n".join(
        [
            "Your moves:",
            *(f"  {a.id} — {a.label}" for a in actions),
            "",
            "To move, save this mail as turn.eml, then run:",
            _nightkeep("receive", "turn.eml"),
            _nightkeep("act", game, first, "-o", "move.nkp"),
            f"(any move above in place of {first}), and mail move.nkp to {_host_address(host, situation)}.",
        ]
    )


def invitation_part(host: HostLike, situation: Situation, seat: Seat) -> str:
    """Returns what a signing seat's invitation tells it: the host key's fingerprint and the exact
    commands that join the game and give entropy."""
    printed = fingerprint(host.key_for(situation.game).public)
    return "\n".join(
        [
            f"You are invited to play {seat.player} in {situation.title}.",
            f"The host's key fingerprint is {printed}: check it with the host by phone or in person, "
            "not by this mail. Save this mail as invite.eml, then run:",
            _nightkeep("join", "invite.eml", "--host-key", f"'{printed}'", "-o", "join.nkp"),
            _nightkeep("entropy", short_id(situation.game), "-", "-o", "entropy.nkp"),
            f"and mail join.nkp and entropy.nkp to {_host_address(host, situation)}.",
        ]
    )


def welcome_part(situation: Situation, seat: str) -> str:
    """Returns what a mail-only seat's first mail (or an observer's) says it is and how to answer."""
    if not seat:
        return (
            f"You watch {situation.title}: you get the public news of the game and its public press. "
            "You need not answer."
        )
    return (
        f"Welcome to {situation.title}: you play {seat} by mail. On your turn, reply with the number of "
        "your move as the first line; reply `help` for all you can send (press to the others, an "
        "absence, the board)."
    )


def receive_hint() -> str:
    """Returns how a signing seat's replica takes a mail that is not its turn."""
    return "Your replica takes this mail:\n" + _nightkeep("receive", "mail.eml")


def rollback_part(host: HostLike, situation: Situation, seat: Seat) -> str:
    """Returns what a seat a rollback waits on is asked, and how to answer."""
    pending = situation.meta.get("club", {}).get("pending") or {}
    how = (
        "Save this mail as turn.eml, then run:\n"
        + _nightkeep("receive", "turn.eml")
        + "\n"
        + _nightkeep("rollback", "agree", short_id(situation.game), "-o", "answer.nkp")
        + f"\n(or rollback refuse) and mail answer.nkp to {_host_address(host, situation)}."
        if seat.pubkey
        else "Reply `agree` or `refuse` as the first line of your answer."
    )
    return (
        f"The host asks to take the game back to event {pending.get('to')}: it voids your moves after it, "
        f"and needs your agreement.\n{how}"
    )


def _host_address(host: HostLike, situation: Situation) -> str:
    return host.host_mail(situation.game) or "the host"


def title_of(host: HostLike, game_id: UUID) -> str:
    """Returns a game's title (the host's `--title`, else its ruleset and the first digits of its id)."""
    with host.db.transaction(commit=False) as c:
        c.execute("SELECT title FROM nightkeep_pbem_settings WHERE game_id=?", [str(game_id)])
        row = c.fetchone()
    if row is not None and row[0]:
        return str(row[0])
    return f"{host.service.get_game(game_id).ruleset_name} {str(game_id)[:8]}"


def title_row(game_id: UUID, title: str) -> Statement:
    """Returns the statement that sets a game's title."""
    return (
        "INSERT INTO nightkeep_pbem_settings (game_id, title) VALUES (?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET title = excluded.title",
        [str(game_id), title],
    )
