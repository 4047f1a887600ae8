"""People at a play-by-e-mail table, for the mail tests: keys in one folder, replicas that read their
mail and answer with packets, and a mail-only player who answers by the number of an action.

Mail flows as in life: the host's mail arrives in a Maildir that every player reads (each takes the
messages addressed to them), and what the players send is a composed message handed to `post`
(an IMAP APPEND into the host's account, a Maildir delivery, ...).
"""

from __future__ import annotations

import mailbox
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from types import SimpleNamespace
from uuid import UUID

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.actions import Action
from domain.bots import Bot
from domain.events import EntropyAdded
from event_store.app.service import GameService
from event_store.pbem.mail import body_text, compose, packet_texts, read_eml, sender_of
from event_store.pbem.packets import BEGIN
from event_store.pbem.replica import Membership, Replica
from event_store.recorded import fold_recorded

HOST_MAIL = "host@example.org"
ACTION_LINE = re.compile(r"^\s+(\d+)\. (\S+) — ", re.M)
GAME_KEY = re.compile(r"^Game-Key: (\S+) (\d+) (\S+)$", re.M)
REFUSED_SUBJECT = "nightkeep: your message was refused"

Post = Callable[[EmailMessage], None]


def address(name: str) -> str:
    """Returns a player's e-mail address."""
    return f"{name.lower()}@example.org"


def seed_randomness(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Draws the keys, the host's mail secret and the game ids from a seeded generator, so a game
    played by mail repeats run after run: a replica's nonces are the hash of its (deterministic)
    Ed25519 signature, a mail-only action's the digest of a reply quoting the game id and one-time key."""
    rng = random.Random(seed)
    monkeypatch.setattr(
        Ed25519PrivateKey, "generate", lambda: Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))
    )
    monkeypatch.setattr("event_store.pbem.hosting.secrets", SimpleNamespace(token_bytes=rng.randbytes))
    monkeypatch.setattr("eventsourcing.domain.uuid4", lambda: UUID(int=rng.getrandbits(128), version=4))


class Mailbox:
    """One person's view of a shared mail drop (a Maildir or a folder of .eml files): the messages
    addressed to them (to everybody: `to=None`), each handed out once (a file written again under its
    name is the same mail)."""

    def __init__(self, where: Path, to: str | None) -> None:
        self.where, self.to = where, to
        self.seen: set[str] = set()
        self.received: list[EmailMessage] = []

    def new_mail(self) -> list[EmailMessage]:
        """Returns the messages to this person that arrived since the last call."""
        fresh = [read_eml(raw) for raw in self._unseen_to_me()]
        self.received += fresh
        return fresh

    def _unseen_to_me(self) -> list[bytes]:
        if (self.where / "new").is_dir():
            box = mailbox.Maildir(self.where, create=False)
            keys = sorted(set(box.keys()) - self.seen)
            self.seen.update(keys)
            # The To header alone, read the quick way: most of a shared Maildir is someone else's.
            return [box.get_bytes(k) for k in keys if self.to in (None, _bare(box[k]["To"]))]
        files = sorted(p for p in self.where.glob("*.eml") if p.name not in self.seen)
        self.seen.update(p.name for p in files)
        raws = [p.read_bytes() for p in files]
        return [raw for raw in raws if self.to in (None, _bare(read_eml(raw)["To"]))]


def _bare(to: object) -> str:
    return str(to).strip().lower()


def packet_of(message: EmailMessage) -> str | None:
    """Returns the packet a message carries (its attachment, else its body), or None."""
    texts = [t for t in packet_texts(message) if BEGIN in t]
    return texts[0] if texts else None


def is_refusal(message: EmailMessage) -> bool:
    """Tells whether a message is the host's refusal of something sent to it."""
    return str(message["Subject"]) == REFUSED_SUBJECT


@dataclass
class SigningPlayer:
    """A player with a key and a replica store who reads the host's mail and answers with packets."""

    name: str
    replica: Replica
    mailbox: Mailbox
    post: Post
    bot: Bot
    member: Membership | None = None
    entropy_at: int = -1
    acted_at: int = -1
    refusals: list[str] = field(default_factory=list)
    sent: list[EmailMessage] = field(default_factory=list)

    @property
    def head(self) -> int:
        """Returns how many events the replica holds."""
        if self.member is None:
            return 0
        return len(self.replica.service.recorded_events(self.member.stored))

    def read_mail(self) -> None:
        """Joins from the invitation, then receives every event packet that came."""
        for message in self.mailbox.new_mail():
            packet = packet_of(message)
            if is_refusal(message):
                self.refusals.append(body_text(message))
            elif packet is not None and self.member is None:
                self.member, join = self.replica.join(packet)
                self.send("joining", join)
            elif packet is not None:
                self.replica.receive(packet)

    def give_entropy_if_waited_on(self) -> bool:
        """Sends an entropy packet while the game waits for it (again at each new event, as one that
        crossed another player's is refused); returns whether it sent one."""
        if self.member is None or self.head <= self.entropy_at:
            return False
        held = self.replica.service.recorded_events(self.member.stored)
        given = any(isinstance(r.event, EntropyAdded) and r.event.player == self.name for r in held)
        if given or fold_recorded(held).meta["actions"]:
            return False
        self.entropy_at = self.head
        self.send("entropy", self.replica.entropy_packet(self.member))
        return True

    def act_if_my_turn(self) -> bool:
        """Sends an action packet when the replica shows a turn it has not acted on; returns whether."""
        if self.member is None or self.head <= self.acted_at:
            return False
        actions = self.replica.legal_actions(self.member)
        if not actions:
            return False
        held = self.replica.service.recorded_events(self.member.stored)
        fold = fold_recorded(held)
        choice = self.bot.choose(fold.ruleset, fold.state, actions)
        self.acted_at = self.head
        self.send(f"action {choice.id}", self.replica.action_packet(self.member, choice.id))
        return True

    def send(self, subject: str, packet: str) -> None:
        """Mails a packet to the host."""
        self.sent.append(
            compose(address(self.name), HOST_MAIL, f"nightkeep {subject}", "Here it is.", packet)
        )
        self.post(self.sent[-1])


@dataclass
class MailOnlyPlayer:
    """A player who installed nothing: reads the numbered actions in the host's mail on their turn and
    replies with the number of one, the host's mail quoted below."""

    name: str
    mailbox: Mailbox
    post: Post
    choose: Callable[[list[str]], int]
    replied_at: int = -1
    refusals: list[str] = field(default_factory=list)
    turns: list[EmailMessage] = field(default_factory=list)
    sent: list[EmailMessage] = field(default_factory=list)

    def read_and_reply(self) -> bool:
        """Replies to the newest turn mail not yet answered; returns whether it replied."""
        for message in self.mailbox.new_mail():
            if is_refusal(message):
                self.refusals.append(body_text(message))
            elif is_turn_mail(body_text(message)):
                self.turns.append(message)
        if not self.turns:
            return False
        newest = self.turns[-1]
        body = body_text(newest)
        key = game_key(body)
        assert key is not None
        if key[1] <= self.replied_at:
            return False
        self.replied_at = key[1]
        number = self.choose(numbered_action_ids(body))
        self.sent.append(reply_to(newest, f"{number}\n"))
        self.post(self.sent[-1])
        return True


def sent_again(message: EmailMessage) -> EmailMessage:
    """Returns a message as a mail client sends it a second time: the same text, a new Message-ID."""
    again = read_eml(message.as_bytes())
    del again["Message-ID"]
    again["Message-ID"] = make_msgid(domain="example.org")
    return again


def is_turn_mail(body: str) -> bool:
    """Tells whether a mail to a mail-only player asks them to act: numbered actions and a Game-Key."""
    return game_key(body) is not None and bool(ACTION_LINE.search(body))


def numbered_action_ids(body: str) -> list[str]:
    """Returns the action ids a mail lists, in the order of their numbers (checked to be 1, 2, ...)."""
    found = ACTION_LINE.findall(body)
    assert [int(n) for n, _ in found] == list(range(1, len(found) + 1)), body
    return [action for _, action in found]


def game_key(body: str) -> tuple[UUID, int, str] | None:
    """Returns the game, event number and one-time key of a mail's Game-Key line, if it has one."""
    match = GAME_KEY.search(body)
    return None if match is None else (UUID(match.group(1)), int(match.group(2)), match.group(3))


def reply_to(message: EmailMessage, first_lines: str, sender: str | None = None) -> EmailMessage:
    """Returns a reply as a mail client writes one: the new text, then the original quoted with `> `."""
    quoted = "\n".join(f"> {line}" if line else ">" for line in body_text(message).splitlines())
    return compose(
        sender or str(message["To"]),
        sender_of(message) or HOST_MAIL,
        f"Re: {message['Subject']}",
        f"{first_lines}\nThe host wrote:\n{quoted}\n",
        in_reply_to=str(message["Message-ID"]),
    )


def bot_chooser(service: GameService, game_id: UUID, player: str, bot: Bot) -> Callable[[list[str]], int]:
    """Returns how a mail-only player picks a number: a seeded bot's taste over the listed actions,
    which must be the host's legal actions for that player, in order."""

    def choose(listed: list[str]) -> int:
        legal: list[Action] = service.legal_actions(game_id, player)
        assert listed == [a.id for a in legal], "the mail lists the player's legal actions"
        game = service.get_game(game_id)
        return listed.index(bot.choose(game.ruleset, game.state, legal).id) + 1

    return choose
