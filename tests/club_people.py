"""The people of the club guide's test: Ann, who plays with nightkeep at her own machine (a shell), the
mail-only players who answer by hitting reply, and what the host's store says (read, never written, while
the service runs)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any
from uuid import UUID

from domain.actions import HOST
from domain.events import ActionTaken, Event
from domain.game import game_status
from event_store.app.service import GameService
from event_store.pbem.mail import body_text
from tests.club_table import HOST_MAIL, ClubMail, Shell, wait_for
from tests.pbem_helpers import Mailbox, game_key, is_refusal, is_turn_mail, packet_of, reply_to

REPLICA = "replica.sqlite"  # what the host's mails call a player's replica, and the guide too


def host_events(db: str, game: str) -> list[Event]:
    """Returns the events of a game in the host's store (opened for a moment, read only)."""
    service = GameService(db)
    try:
        return [r.event for r in service.recorded_events(service.resolve_game_id(game))]
    finally:
        service.close()


def host_chain(db: str, game: str) -> list[bytes]:
    """Returns a game's chain values in the host's store."""
    service = GameService(db)
    try:
        return list(service.chain_values(service.resolve_game_id(game)))
    finally:
        service.close()


def moves(events: list[Event]) -> list[tuple[int, ActionTaken]]:
    """Returns the players' moves with their event numbers."""
    return [(n, e) for n, e in enumerate(events, 1) if isinstance(e, ActionTaken) and e.player != HOST]


def says(message: EmailMessage, words: str) -> bool:
    """Tells whether a mail's text says `words`, however its lines were wrapped."""
    return " ".join(words.split()) in " ".join(body_text(message).split())


def subject_of(message: EmailMessage) -> str:
    """Returns a mail's subject as its reader sees it."""
    return str(message["Subject"])


@dataclass
class MailOnly:
    """A player who installed nothing: reads their mail and answers a turn by its first move's number."""

    address: str
    mailbox: Mailbox
    mail: ClubMail
    answered: set[int] = field(default_factory=set)

    def new_mail(self) -> list[EmailMessage]:
        """Returns the mail that came since the last look (refusals fail the test: none is expected)."""
        fresh = self.mailbox.new_mail()
        refused = [body_text(m) for m in fresh if is_refusal(m)]
        assert not refused, f"{self.address} was refused: {refused}"
        return fresh

    def reply(self, first_line: str, message: EmailMessage) -> None:
        """Hits reply to a mail and writes a first line above the quoted text."""
        self.mail.post(reply_to(message, f"{first_line}\n", sender=self.address))

    def answer_turn(self, head: int) -> bool:
        """Answers the turn mail written at event `head` (the game as it stands) with its first move, once;
        returns whether it did."""
        self.new_mail()
        turns = [m for m in self.mailbox.received if is_turn_mail(body_text(m))]
        if not turns:
            return False
        key = game_key(body_text(turns[-1]))
        assert key is not None
        if key[1] != head or key[1] in self.answered:
            return False
        self.answered.add(key[1])
        self.reply("1", turns[-1])
        return True


@dataclass
class PlayerMachine:
    """Ann at her own machine: a shell, a replica, and the mails the host sent her."""

    name: str
    shell: Shell
    folder: Path
    mailbox: Mailbox
    mail: ClubMail
    game: str = ""
    saved: int = 0
    sent: int = 0

    @property
    def address(self) -> str:
        """Returns the player's address."""
        return str(self.mailbox.to)

    def run(self, command: str) -> str:
        """Runs one of the test's own commands at the player's machine; returns its output."""
        ran = self.shell.run(command)
        assert ran.code == 0, f"{self.name}: {command}: {ran.err or ran.out}"
        return ran.out

    def save(self, message: EmailMessage, name: str) -> Path:
        """Saves a mail as a file, as a mail program does."""
        path = self.folder / name
        path.write_bytes(message.as_bytes())
        return path

    def newest(self, what: str, wanted: str) -> EmailMessage:
        """Waits for a mail whose subject holds `wanted` and returns the newest such."""

        def found() -> EmailMessage | None:
            self.mailbox.new_mail()
            matching = [m for m in self.mailbox.received[self.saved :] if wanted in subject_of(m)]
            return matching[-1] if matching else None

        message = wait_for(what, found)
        assert isinstance(message, EmailMessage)
        return message

    def catch_up(self) -> None:
        """Receives into the replica every mail that came since the last look, in order."""
        self.mailbox.new_mail()
        for message in self.mailbox.received[self.saved :]:
            self.saved += 1
            assert not is_refusal(message), f"{self.name} was refused: {body_text(message)}"
            if packet_of(message) is None:  # as the guide says, only a reminder holds no packet
                assert "reminder: your turn" in subject_of(message), subject_of(message)
                continue
            self.run(f"nightkeep --db {REPLICA} receive {self.save(message, f'mail-{self.saved}.eml')}")

    def mark_read(self) -> None:
        """Counts every mail so far as looked at (the guide's own step saved and received it)."""
        self.mailbox.new_mail()
        self.saved = len(self.mailbox.received)

    def legal(self) -> list[dict[str, Any]]:
        """Returns the moves the replica lists now."""
        listed: list[dict[str, Any]] = json.loads(
            self.run(f"nightkeep --db {REPLICA} actions {self.game} --json")
        )
        return listed

    def play_first_move(self) -> str:
        """Makes the first listed move as a packet and mails it; returns the move's id."""
        (first, *_) = self.legal()
        self.sent += 1
        packet = f"move-{self.sent}.nkp"
        self.run(f"nightkeep --db {REPLICA} act {self.game} {first['id']} -o {packet}")
        self.send(packet)
        return str(first["id"])

    def send(self, *names: str) -> None:
        """Mails packet files to the host, attached, as a mail program does."""
        message = EmailMessage()
        message["From"], message["To"] = self.address, HOST_MAIL
        message["Subject"], message["Message-ID"] = f"from {self.name}", make_msgid(domain="example.org")
        message.set_content("Here they are.\n")
        for name in names:
            data = (self.folder / name).read_bytes()
            message.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
        self.mail.post(message)


def seat_to_move(db: str, game: str) -> list[str]:
    """Returns who is to move in the host's game (no one once it is over)."""
    service = GameService(db)
    try:
        fold = service.fold(service.resolve_game_id(game))
        status = game_status(fold)
        return [p for p in status["to_act"] if p != HOST] if status["status"] == "running" else []
    finally:
        service.close()


def is_turn_of(db: str, game: str, seat: str) -> bool:
    """Tells whether it is a seat's turn in the host's game."""
    return seat in seat_to_move(db, game)


def game_id(text: str) -> UUID:
    """Returns the game id `new` printed."""
    return UUID(text.strip())
