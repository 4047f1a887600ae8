"""Hostile mail through a host's inbox: games of dungeon-short hosted over a Maildir, Ann signing packets
and Bo replying by mail, with hostile mails (tests/hostile_mails.py) dropped before and after theirs;
`run_once` passes until the inbox is empty, and counts of what happened.

A good mail is one of Ann's or Bo's (packets, numbered replies, `status`, `history`, `help`); it is
handled when the host remembers it as handled, not failed. A stop is a pass that raised. Every To the
host writes must be one usable address (`safe_address`), and no log event may be a failure past the
reader (`message_failed`: the host's own code tripped over a mail it could read).
"""

from __future__ import annotations

import hashlib
import io
import mailbox
import random
import subprocess
import sys
import time
from collections import Counter
from contextlib import redirect_stderr
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import structlog

from domain.bots import Bot
from domain.events import ActionTaken
from domain.signing import AUTH_MAIL, AUTH_SIGNED
from event_store.app.service import GameService
from event_store.pbem.host_runner import run_once
from event_store.pbem.hosting import Host
from event_store.pbem.keys import new_key
from event_store.pbem.mail import MaildirInbox, body_text, deliver_to_maildir, safe_address
from event_store.pbem.replica import Replica
from tests.hostile_mails import Lures, hostile_mail
from tests.pbem_helpers import (
    GAME_KEY,
    HOST_MAIL,
    Mailbox,
    MailOnlyPlayer,
    SigningPlayer,
    bot_chooser,
    packet_of,
    reply_to,
)

ROOT = Path(__file__).resolve().parents[1]
MAX_PASSES = 20  # passes to empty the inbox after one round (each takes what PASS_BYTES allows)
STALL_ROUNDS = 6  # rounds in a row without a good mail: the game has stopped moving


@dataclass
class Counts:
    """What a run of hostile mail did to the host."""

    mails: int = 0
    good_sent: int = 0
    good_handled: int = 0
    moves_lost: int = 0  # good moves (Ann's action packets, Bo's numbered replies) not in the log
    stops: int = 0
    tracebacks: int = 0
    set_aside: int = 0
    unsafe_to: int = 0
    failures_past_reader: Counter[str] = field(default_factory=Counter)
    stalls: int = 0
    games: int = 0
    passes: int = 0
    cpu: float = 0.0
    wall: float = 0.0
    kinds: Counter[str] = field(default_factory=Counter)  # of every hostile mail, the CLI's sample too
    outcomes: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, what the host did)
    stop_errors: list[str] = field(default_factory=list)


def digest_of(raw: bytes) -> str:
    """Returns the key under which the host remembers a mail."""
    return "mail:" + hashlib.sha256(raw).hexdigest()


class HostileTable:
    """A host, its Maildir inbox, the players' Maildirs and the game under way (NIGHTKEEP_KEYS set)."""

    def __init__(self, where: Path, rng: random.Random, max_size: int) -> None:
        self.where, self.rng = where, rng
        self.inbox = where / "inbox"
        mailbox.Maildir(self.inbox, create=True)
        self.host = Host(GameService(str(where / "host.sqlite")), new_key("host"))
        self.ann_key = new_key("ann")
        self.replica = Replica(GameService(str(where / "ann.sqlite")))
        self.lures = Lures(max_size=max_size)
        self.good: list[bytes] = []  # good mails written, not yet delivered
        self.good_digests: list[str] = []
        self.kind_of: dict[str, str] = {}  # a hostile mail's digest -> its kind
        self.routes: dict[str, Path] = {}
        self.counts = Counts()
        self.new_game()

    def post(self, message: EmailMessage) -> None:
        """Takes a good mail a player sends to the host (delivered at the round's end)."""
        self.good.append(message.as_bytes())

    def send(self, message: EmailMessage) -> None:
        """Delivers the host's mail to the player it is for; checks every To is one usable address."""
        to = str(message["To"])
        if safe_address(to) != to:
            self.counts.unsafe_to += 1
        if to in self.routes:
            deliver_to_maildir(self.routes[to], message.as_bytes())

    def new_game(self) -> None:
        """Hosts a new game with new addresses for Ann and Bo (old mail stays with the old game)."""
        n = self.counts.games = self.counts.games + 1
        ann, bo = f"ann{n}@example.org", f"bo{n}@example.org"
        self.routes = {ann: self.where / f"ann{n}", bo: self.where / f"bo{n}"}
        for path in self.routes.values():
            mailbox.Maildir(path, create=True)
        seats: list[tuple[str, str | None]] = [("Ann", None), ("Bo", None)]
        mail = {"Ann": ann, "Bo": bo}
        self.game = self.host.create(
            "dungeon-short", seats, {"Ann": self.ann_key.public}, mail, HOST_MAIL, wait_for_entropy=True
        )
        self.ann = SigningPlayer("Ann", self.replica, Mailbox(self.routes[ann], ann), self.post, Bot(n))
        choose = bot_chooser(self.host.service, self.game, "Bo", Bot(n + 1))
        self.bo = MailOnlyPlayer("Bo", Mailbox(self.routes[bo], bo), self.post, choose)
        self.lures.game, self.lures.senders = str(self.game), [ann, bo, "mallory@example.org"]
        self.lures.key_lines, self.lures.packets = [], []
        self.quiet = 0

    def play(self) -> None:
        """The players read their mail and answer it; now and then Bo asks for status, history or help."""
        self.ann.read_mail()
        self.ann.give_entropy_if_waited_on()
        self.ann.act_if_my_turn()
        self.bo.read_and_reply()
        if self.bo.turns and self.rng.random() < 0.1:
            asked = self.rng.choice(["status", "help", f"history {self.rng.randint(1, 9)}"])
            self.post(reply_to(self.bo.turns[-1], f"{asked}\n"))

    def round(self, hostile: int) -> None:
        """Plays one round: the players' good mails between hostile ones, then passes until the inbox
        is empty."""
        self.play()
        self.quiet = 0 if self.good else self.quiet + 1
        half = self.rng.randint(0, hostile)
        for raw in [*self.hostile(half), *self.good, *self.hostile(hostile - half)]:
            deliver_to_maildir(self.inbox, raw)
        self.counts.mails += hostile
        self.good_digests += [digest_of(raw) for raw in self.good]
        self.counts.good_sent += len(self.good)
        self.lures.old_mails = (self.lures.old_mails + self.good)[-40:]
        self.good = []
        self.empty_inbox()
        self.learn()
        if self.host.service.get_game(self.game).is_finished or self.quiet >= STALL_ROUNDS:
            self.counts.stalls += self.quiet >= STALL_ROUNDS
            self.tally_moves()
            self.new_game()

    def hostile(self, count: int) -> list[bytes]:
        """Draws `count` hostile mails, remembering the kind of each."""
        drawn = [hostile_mail(self.rng, self.lures) for _ in range(count)]
        self.counts.kinds.update(kind for kind, _ in drawn)
        self.kind_of |= {digest_of(raw): kind for kind, raw in drawn}
        return [raw for _, raw in drawn]

    def empty_inbox(self) -> None:
        """Runs passes of the host over the inbox until it is empty (or MAX_PASSES), counting stops."""
        for _ in range(MAX_PASSES):
            if not _waiting(self.inbox):
                return
            inbox = MaildirInbox(self.inbox)
            self.counts.passes += 1
            errors, cpu, wall = io.StringIO(), time.process_time(), time.perf_counter()
            try:
                with redirect_stderr(errors), structlog.testing.capture_logs() as logged:
                    done = run_once(self.host, inbox, self.send, HOST_MAIL)
                self.counts.set_aside += done.set_aside
            except Exception as exc:  # noqa: BLE001  (a stop is what this run counts)
                self.counts.stops += 1
                self.counts.stop_errors.append(repr(exc)[:200])
                logged = []
            self.counts.cpu += time.process_time() - cpu
            self.counts.wall += time.perf_counter() - wall
            self.counts.tracebacks += errors.getvalue().count("Traceback (most recent call last)")
            self.counts.failures_past_reader.update(
                str(e.get("error", "?")).split("(")[0] for e in logged if e["event"] == "message_failed"
            )

    def tally_moves(self) -> None:
        """Counts the good moves of the game under way that its log lacks (refused, or lost)."""
        taken = Counter(
            (r.event.player, r.event.auth)
            for r in self.host.service.recorded_events(self.game)
            if isinstance(r.event, ActionTaken)
        )
        sent = sum(str(m["Subject"]).startswith("nightkeep action") for m in self.ann.sent)
        self.counts.moves_lost += (
            sent - taken[("Ann", AUTH_SIGNED)] + len(self.bo.sent) - taken[("Bo", AUTH_MAIL)]
        )

    def learn(self) -> None:
        """Gives the forger what is used up by now: Ann's applied packets, Bo's answered Game-Keys."""
        head = len(self.host.service.chain_values(self.game))
        packets = [packet_of(m) for m in self.ann.sent]
        self.lures.packets = [p for p in packets if p][-20:]
        keys = [GAME_KEY.search(body_text(m)) for m in self.bo.mailbox.received]
        self.lures.key_lines = [k.group(0) for k in keys if k and int(k.group(2)) < head][-20:]

    def finish(self) -> Counts:
        """Counts the good mails the host remembers as handled and what it did with each kind of hostile
        mail (handled: read and answered or refused; set aside: unreadable, or failed); returns the
        counts."""
        self.counts.good_handled = sum(self.host.seen(d) == "handled" for d in self.good_digests)
        self.tally_moves()
        for digest, kind in self.kind_of.items():
            outcome = self.host.seen(digest) or "never read"
            self.counts.outcomes[(kind, outcome.split("(")[0].removeprefix("failed: "))] += 1
        return self.counts

    def close(self) -> None:
        """Closes the stores."""
        self.host.service.close()
        self.replica.service.close()


def _waiting(maildir: Path) -> bool:
    """Tells whether any message waits in a Maildir's new/ or cur/."""
    return any((maildir / "new").iterdir()) or any((maildir / "cur").iterdir())


@dataclass
class CliCounts:
    """What a sample of hostile mail did to `nightkeep host run --once` run as a process."""

    mails: int = 0
    good_sent: int = 0
    good_handled: int = 0
    runs: int = 0
    failed_runs: int = 0  # exit status not 0
    tracebacks: int = 0
    internal_errors: int = 0


def cli_sample(table: HostileTable, count: int) -> CliCounts:
    """Drops `count` hostile mails around a round's good ones, then runs `nightkeep host run --once` (a
    process of this checkout's code) until the inbox is empty; returns the counts."""
    counts = CliCounts(mails=count)
    while not table.good:  # a round in which somebody writes
        table.play()
        table.empty_inbox()
    good, table.good = table.good, []
    half = table.rng.randint(0, count)
    for raw in [*table.hostile(half), *good, *table.hostile(count - half)]:
        deliver_to_maildir(table.inbox, raw)
    counts.good_sent = len(good)
    command = [sys.executable, "-m", "cli.main", "--db", str(table.where / "host.sqlite"), "host", "run"]
    options = ["--inbox", f"maildir:{table.inbox}", "--out", str(table.where / "cli-out"), "--once"]
    while _waiting(table.inbox) and counts.runs < MAX_PASSES:
        run = subprocess.run([*command, *options], cwd=ROOT, capture_output=True, timeout=600)
        counts.runs += 1
        counts.failed_runs += run.returncode != 0
        counts.tracebacks += run.stderr.count(b"Traceback (most recent call last)")
        counts.internal_errors += run.stderr.count(b"internal error")
    counts.good_handled = sum(table.host.seen(digest_of(raw)) == "handled" for raw in good)
    return counts


MAX_ROUNDS = 400  # rounds of one sample: far more than a game of dungeon-short takes


def run_hostile(
    where: Path, mails: int, seed: int, max_size: int = 16 << 20, cli_mails: int = 0
) -> tuple[Counts, CliCounts]:
    """Drops `mails` hostile mails, 0 to 40 a round, between the good ones of games played to their end,
    then `cli_mails` more through the CLI (NIGHTKEEP_KEYS must name a key folder); returns the counts."""
    rng = random.Random(seed)
    table = HostileTable(where, rng, max_size)
    try:
        rounds = 0  # past the hostile mails, the game under way is played on to its end (a bounded time)
        while table.counts.mails < mails or (table.counts.games < 2 and rounds < MAX_ROUNDS):
            table.round(min(rng.randint(0, 40), mails - table.counts.mails))
            rounds += 1
        cli = cli_sample(table, cli_mails) if cli_mails else CliCounts()
        return table.finish(), cli
    finally:
        table.close()
