"""Play by e-mail over real mail: whole games through `host run` with a real SMTP server and a real
Dovecot IMAP server, or a Maildir and the CLI; a host run killed at random points; and the mails that
the host refuses, each answered with the reason."""

from __future__ import annotations

import functools
import json
import mailbox
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from uuid import UUID

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from cli.pbem_commands import mail_text
from domain.actions import HOST, Action
from domain.bots import Bot
from domain.events import ActionTaken
from domain.rulesets import get_ruleset
from event_store.app.replay_file import audit_replay, export_game
from event_store.app.service import GameService
from event_store.copies import copy_id
from event_store.pbem.host_runner import run_once
from event_store.pbem.hosting import Host
from event_store.pbem.keys import KeyPair, new_key
from event_store.pbem.mail import (
    ImapInbox,
    SmtpSettings,
    body_text,
    compose,
    deliver_to_maildir,
    read_eml,
    send,
)
from event_store.pbem.packets import make_packet
from event_store.pbem.replica import Replica
from tests.pbem_helpers import (
    HOST_MAIL,
    Mailbox,
    MailOnlyPlayer,
    SigningPlayer,
    address,
    bot_chooser,
    game_key,
    is_refusal,
    reply_to,
    seed_randomness,
    sent_again,
)
from tests.pbem_table import NewStore

pytestmark = pytest.mark.slow  # whole games over a real SMTP server and a real Dovecot

if TYPE_CHECKING:
    from email.message import EmailMessage

    from tests.mail_servers import DovecotServer, SmtpServer

# Loaded as a plugin, not imported, so that pytest rewrites its asserts and its fixtures need no import.
pytest_plugins = ["tests.mail_servers"]

MAX_PASSES = 400


def actions_by_auth(service: GameService, game_id: UUID) -> dict[str, set[str]]:
    """Returns how each player's actions were authenticated, as the host's log records it."""
    found: dict[str, set[str]] = {}
    for r in service.recorded_events(game_id):
        if isinstance(r.event, ActionTaken) and r.event.player != HOST:
            found.setdefault(r.event.player, set()).add(r.event.auth)
    return found


def head(service: GameService, game_id: UUID) -> int:
    """Returns how many events a store holds of a game."""
    return len(service.chain_values(game_id))


def is_started(service: GameService, game_id: UUID) -> bool:
    """Tells whether the host has dealt a game (it waits for the signing seats' entropy first)."""
    return bool(service.fold(game_id).meta["actions"])


def is_over(service: GameService, game_id: UUID) -> bool:
    """Tells whether the host's game has ended."""
    return service.get_game(game_id).is_finished


@pytest.mark.parametrize(
    ("ruleset", "seats", "mail_only", "seed"),
    [
        pytest.param(
            "vampire-empire", [("Ann", "human"), ("Vlad", "vampire")], ("Vlad",), 6, id="vampire-empire"
        ),
        pytest.param(
            "dungeon-short", [("Ann", None), ("Bo", None), ("Cy", None)], ("Cy",), 6, id="dungeon-short"
        ),
    ],
)
def test_a_whole_game_is_played_through_host_run_with_real_smtp_and_imap(
    new_store: NewStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    smtp_to_maildir: SmtpServer,
    dovecot: DovecotServer,
    ruleset: str,
    seats: list[tuple[str, str | None]],
    mail_only: tuple[str, ...],
    seed: int,
) -> None:
    seed_randomness(monkeypatch, seed)
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp_path / "keys"))  # one folder, a key per person
    host_key = new_key("host")
    signing = [name for name, _ in seats if name not in mail_only]
    keys = {name: new_key(name.lower()).public for name in signing}
    host_service = GameService(new_store("host"))
    host = Host(host_service, host_key, functools.partial(mail_text, host_service))
    game_id = host.create(
        ruleset,
        seats,
        keys=keys,
        mail={name: address(name) for name, _ in seats},
        host_mail=HOST_MAIL,
        wait_for_entropy=True,  # the deal waits for the signing seats' entropy, so the host cannot pick it
    )
    host_account = dovecot.new_user()
    posted: list[str] = []

    def post(message: EmailMessage) -> None:
        posted.append(str(message["Message-ID"]))
        dovecot.append(message.as_bytes(), user=host_account)

    smtp = SmtpSettings(smtp_to_maildir.host, smtp_to_maildir.port)
    signers = [
        SigningPlayer(
            name,
            Replica(GameService(new_store(name.lower()))),
            Mailbox(smtp_to_maildir.maildir, address(name)),
            post,
            Bot(n),
        )
        for n, name in enumerate(signing, start=1)
    ]
    by_mail = [
        MailOnlyPlayer(
            name,
            Mailbox(smtp_to_maildir.maildir, address(name)),
            post,
            bot_chooser(host_service, game_id, name, Bot(10 + n)),
        )
        for n, name in enumerate(mail_only)
    ]

    # Over IMAPS, the server's certificate checked against the test CA.
    inbox = ImapInbox(
        dovecot.host, dovecot.imaps_port, host_account, dovecot.password, ca_file=dovecot.ca_file
    )
    try:
        for _ in range(MAX_PASSES):
            run_once(host, inbox, lambda message: send(smtp, [message]), HOST_MAIL)
            for player in signers:
                player.read_mail()
                player.give_entropy_if_waited_on()
                player.act_if_my_turn()
            for mailer in by_mail:
                mailer.read_and_reply()
            heads = {player.head for player in signers}
            if is_over(host_service, game_id) and heads == {head(host_service, game_id)}:
                break
        else:
            pytest.fail(f"the game did not end within {MAX_PASSES} passes of host run")
    finally:
        inbox.close()

    assert host_service.audit(game_id).findings == []
    assert audit_replay(export_game(host_service, game_id)).findings == []
    for player in signers:
        assert player.member is not None
        copy = export_game(player.replica.service, player.member.stored)
        assert copy == export_game(host_service, game_id, player.name)
        assert player.replica.service.audit(player.member.stored).findings == []
        assert audit_replay(copy).findings == []
        assert player.refusals == []
    expected = {name: {"signed"} for name in signing} | {name: {"mail"} for name in mail_only}
    assert actions_by_auth(host_service, game_id) == expected
    assert all(mailer.refusals == [] for mailer in by_mail)
    assert dovecot.messages("INBOX", user=host_account) == []
    done = [str(read_eml(raw)["Message-ID"]) for raw in dovecot.messages("processed", user=host_account)]
    assert sorted(done) == sorted(posted), "every mail the players sent was handled and filed once"


# --- the same, at the command line -----------------------------------------------------------------------


def nightkeep(*args: str) -> Result:
    """Runs the nightkeep CLI in this process."""
    return CliRunner().invoke(cli, list(args))


def succeeds(*args: str) -> str:
    """Runs the nightkeep CLI and returns its stdout, failing the test on a non-zero exit."""
    result = nightkeep(*args)
    assert result.exit_code == 0, f"nightkeep {' '.join(args[:4])}: {result.output}"
    return result.stdout


@dataclass
class CliPlayer:
    """A signing player at the command line: a replica store, the host's .eml files, a mail client."""

    name: str
    db: str
    folder: Path
    bot: Bot
    read: set[str] = field(default_factory=set)
    has_news: bool = True
    held: int = 0
    owes_entropy: bool = True
    refusals: list[str] = field(default_factory=list)

    def mail_to_host(self, inbox: Path, packet: Path, subject: str) -> None:
        """Mails a packet file to the host's inbox (a Maildir)."""
        message = compose(address(self.name), HOST_MAIL, subject, "Here it is.", packet.read_text())
        deliver_to_maildir(inbox, message.as_bytes())

    def read_mail(self, out: Path) -> None:
        """Receives every .eml the host wrote to this player since the last call; notes refusals."""
        for path in sorted(out.glob("*.eml")):
            if path.name in self.read:
                continue
            message = read_eml(path.read_bytes())
            if str(message["To"]).lower() != address(self.name):
                continue
            self.read.add(path.name)
            if is_refusal(message):
                self.refusals.append(body_text(message).strip())
                self.owes_entropy = True  # only entropy crosses other players' packets here
                continue
            received = json.loads(succeeds("--db", self.db, "receive", str(path), "--json"))
            self.has_news |= any(r["after"] > r["before"] for r in received)
            self.held = max(self.held, *(r["after"] for r in received))

    def play(self, game: str, inbox: Path) -> None:
        """On news: sends entropy while the host waits to deal, else an action on this player's turn."""
        if not self.has_news:
            return
        shown = json.loads(succeeds("--db", self.db, "show", game, "--json"))
        if shown["to_act"] == [HOST]:
            if self.owes_entropy:
                self.has_news = self.owes_entropy = False
                packet = self.folder / f"{self.name}-entropy-{len(self.read)}.nkp"
                succeeds("--db", self.db, "entropy", game, "-", "-o", str(packet))
                self.mail_to_host(inbox, packet, "nightkeep entropy")
            return
        listed = json.loads(succeeds("--db", self.db, "actions", game, "--json"))
        if not listed:
            return
        self.has_news = False
        choice = self.bot.choose(get_ruleset("dungeon-short"), {}, [Action(**a) for a in listed])
        packet = self.folder / f"{self.name}-{len(self.read)}.nkp"
        succeeds("--db", self.db, "act", game, choice.id, "-o", str(packet))
        self.mail_to_host(inbox, packet, f"nightkeep action {choice.id}")


def test_a_three_player_dungeon_game_through_host_run_cli(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_randomness(monkeypatch, 2)
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp_path / "keys"))
    names = ["Ann", "Bo", "Cy"]
    public = {name: succeeds("key", "new", name.lower()).strip() for name in names}
    succeeds("key", "new", "host")
    host_db, inbox, out = new_store("host"), tmp_path / "inbox", tmp_path / "out"
    mailbox.Maildir(inbox, create=True)
    seats = [arg for name in names for arg in ("--player", name)]
    keys = [arg for name in names for arg in ("--key", f"{name}={public[name]}")]
    mails = [arg for name in names for arg in ("--mail", f"{name}={address(name)}")]
    invites = tmp_path / "invites"
    new = ["new", "dungeon-short", *seats, *keys, *mails, "--host-mail", HOST_MAIL, "--out", str(invites)]
    game = succeeds("--db", host_db, *new).strip()
    game_id = UUID(game)
    players = [CliPlayer(name, new_store(name.lower()), tmp_path, Bot(n)) for n, name in enumerate(names)]
    for player in players:
        (invitation,) = invites.glob(f"*-{player.name}.eml")  # the mail itself, as it came
        join = tmp_path / f"join-{player.name}.nkp"
        succeeds("--db", player.db, "join", str(invitation), "-o", str(join))
        player.mail_to_host(inbox, join, "nightkeep join")
    host_run = ["--db", host_db, "host", "run", "--inbox", f"maildir:{inbox}", "--out", str(out)]

    host_service = GameService(host_db)  # only read, between the CLI's runs
    for _ in range(MAX_PASSES):
        succeeds(*host_run, "--from", HOST_MAIL, "--once")
        for player in players:
            player.read_mail(out)
            player.play(game, inbox)
        if is_over(host_service, game_id) and all(p.held == head(host_service, game_id) for p in players):
            break
    else:
        pytest.fail(f"the game did not end within {MAX_PASSES} runs of host run")

    host_head = head(host_service, game_id)
    assert list(inbox.glob("new/*")) + list(inbox.glob("cur/*")) == [], "host run handled every mail"
    succeeds("--db", host_db, "audit", game)  # exit 0: no findings
    for player in players:
        copy, expected = tmp_path / f"{player.name}.nkr", tmp_path / f"host-{player.name}.nkr"
        succeeds("--db", player.db, "export", game, "-o", str(copy), "--as", player.name)
        succeeds("--db", host_db, "export", game, "-o", str(expected), "--as", player.name)
        assert copy.read_bytes() == expected.read_bytes()
        assert head(GameService(player.db), copy_id(game_id, player.name)) == host_head
        succeeds("--db", player.db, "audit", game)
        succeeds("audit", str(copy))
    succeeds("audit", str(export_file(tmp_path, host_db, game)))
    assert actions_by_auth(host_service, game_id) == {name: {"signed"} for name in names}
    # Entropy packets made at the same event cross: the host takes the first and refuses the others,
    # whose players send theirs again on the next event. Nothing else is refused.
    refusals = [line for p in players for line in p.refusals]
    assert all("since that packet was made" in line for line in refusals), refusals


def export_file(tmp_path: Path, db: str, game: str) -> Path:
    """Exports the host's full log with the CLI; returns the file."""
    path = tmp_path / "host.nkr"
    succeeds("--db", db, "export", game, "-o", str(path), "--as", "host")
    return path


# --- a host run killed at random points ------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]
KILLED_RUNS = 20
KILL_TABLES: list[tuple[str, list[tuple[str, str | None]], tuple[str, ...]]] = [
    ("dungeon-short", [("Ann", None), ("Bo", None), ("Cy", None)], ()),
    ("dungeon-short", [("Di", None), ("Ed", None)], ()),
    ("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")], ("Vlad",)),
]


def host_run_process(host_db: str, inbox: Path, out: Path, stdout: int) -> subprocess.Popen[bytes]:
    """Starts `nightkeep host run --once` over a Maildir inbox, writing the mail owed into `out`."""
    command = [sys.executable, "-m", "cli.main", "--db", host_db, "--log-format", "json", "host", "run"]
    options = ["--inbox", f"maildir:{inbox}", "--out", str(out), "--from", HOST_MAIL, "--once"]
    return subprocess.Popen([*command, *options], cwd=REPO, stdout=stdout, stderr=subprocess.DEVNULL)


def host_run_to_the_end(host_db: str, inbox: Path, out: Path) -> str:
    """Runs one pass of host run to its end; returns what it printed."""
    process = host_run_process(host_db, inbox, out, subprocess.PIPE)
    printed, _ = process.communicate(timeout=60)
    assert process.returncode == 0, printed
    return printed.decode()


def host_run_killed(host_db: str, inbox: Path, out: Path, after: float) -> bool:
    """Starts one pass of host run and kills it with SIGKILL after `after` seconds; returns whether it
    had already ended by itself."""
    process = host_run_process(host_db, inbox, out, subprocess.DEVNULL)
    time.sleep(after)
    process.send_signal(signal.SIGKILL)  # a no-op once the process has ended and been reaped
    return process.wait(timeout=60) == 0


def pending_in(maildir: Path) -> int:
    """Returns how many messages wait in a Maildir's new/ and cur/."""
    return len(list(maildir.glob("new/*")) + list(maildir.glob("cur/*")))


def actions_taken(service: GameService, game_id: UUID) -> int:
    """Returns how many players' actions a game's log holds."""
    return sum(
        isinstance(r.event, ActionTaken) and r.event.player != HOST for r in service.recorded_events(game_id)
    )


def test_host_run_killed_at_random_points_loses_and_duplicates_nothing(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_randomness(monkeypatch, 13)
    rng = random.Random(13)
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp_path / "keys"))
    host_db, inbox, out = new_store("host"), tmp_path / "inbox", tmp_path / "out"
    mailbox.Maildir(inbox, create=True)
    host_service = GameService(host_db)  # sets the games up, then only reads between the runs
    host = Host(host_service, new_key("host"))

    def post(message: EmailMessage) -> None:
        deliver_to_maildir(inbox, message.as_bytes())

    players: dict[UUID, list[SigningPlayer | MailOnlyPlayer]] = {}
    for ruleset, seats, mail_only in KILL_TABLES:
        keys = {name: new_key(name.lower()).public for name, _ in seats if name not in mail_only}
        mail = {name: address(name) for name, _ in seats}
        game_id = host.create(ruleset, seats, keys, mail, HOST_MAIL, wait_for_entropy=True)
        players[game_id] = [
            MailOnlyPlayer(
                name, Mailbox(out, address(name)), post, bot_chooser(host_service, game_id, name, Bot(n))
            )
            if name in mail_only
            else SigningPlayer(
                name,
                Replica(GameService(new_store(name))),
                Mailbox(out, address(name)),
                post,
                Bot(n),
            )
            for n, (name, _) in enumerate(seats)
        ]
    signing = [p for seated in players.values() for p in seated if isinstance(p, SigningPlayer)]

    started = time.monotonic()
    host_run_to_the_end(host_db, inbox, out)  # the invitations
    working = time.monotonic() - started
    for _ in range(len(signing) + 2):  # joins, then entropy (crossing packets are sent again)
        for signer in signing:
            signer.read_mail()
            signer.give_entropy_if_waited_on()
        host_run_to_the_end(host_db, inbox, out)
    assert all(is_started(host_service, game_id) for game_id in players), "every game was dealt"
    started = time.monotonic()
    host_run_to_the_end(host_db, inbox, out)  # nothing to do: how long starting takes
    starting = time.monotonic() - started

    auditor = Mailbox(out, None)  # reads every mail the host writes from here on
    auditor.new_mail()
    told: Counter[tuple[str, int]] = Counter()
    expected = dict.fromkeys(players, 0)
    kills: Counter[str] = Counter()
    for run in range(KILLED_RUNS):
        for game_id, seated in players.items():
            for player in seated:
                if isinstance(player, SigningPlayer):
                    player.read_mail()
                    expected[game_id] += player.act_if_my_turn()
                else:
                    expected[game_id] += player.read_and_reply()
        dropped, before = pending_in(inbox), len(list(out.glob("*.eml")))
        applied = sum(actions_taken(host_service, g) for g in players)

        if host_run_killed(host_db, inbox, out, rng.uniform(0.9 * starting, 1.1 * working)):
            kills["ended before the kill"] += 1
        elif (
            pending_in(inbox),
            len(list(out.glob("*.eml"))),
            sum(actions_taken(host_service, g) for g in players),
        ) == (dropped, before, applied):
            kills["killed before doing anything"] += 1
        else:
            kills["killed in the middle of its pass"] += 1
        printed = host_run_to_the_end(host_db, inbox, out)

        assert "refused" not in printed, f"run {run}: {printed}"
        assert pending_in(inbox) == 0, f"run {run}: every mail was handled and filed"
        for game_id in players:
            assert actions_taken(host_service, game_id) == expected[game_id], f"run {run}: once each"
            assert host_service.audit(game_id).findings == [], f"run {run}"
        for message in auditor.new_mail():
            assert not is_refusal(message), body_text(message)
            event = message["X-Nightkeep-Event"]
            assert event is not None, message["Subject"]
            told[(str(message["To"]), int(event))] += 1
        assert [seat for seat, mails in told.items() if mails > 1] == [], f"run {run}: one mail per event"
        for game_id, seated in players.items():
            # The digest rule owes a seat mail at each new turn of play and on news, and a seat to act
            # always the last event: each seat holds all the host marked as mailed to it, and no more.
            seats, to_act = host.seats(game_id), host_service.get_game(game_id).status.get("to_act", [])
            for player in seated:
                mailed = seats[player.name].sent
                if player.name in to_act:
                    assert mailed == head(host_service, game_id), f"run {run}: {player.name} not told"
                if isinstance(player, SigningPlayer):
                    player.read_mail()
                    assert player.head == mailed, f"run {run}: {player.name} lost mail"
                else:
                    newest = max(v for (to, v) in told if to == address(player.name))
                    assert newest == mailed, f"run {run}: {player.name} lost mail"

    for game_id, seated in players.items():
        for player in seated:
            if isinstance(player, SigningPlayer):
                assert player.member is not None
                held = player.replica.service.chain_values(player.member.stored)
                assert held == host_service.chain_values(game_id)[: len(held)], "the host's own events"
                if host_service.get_game(game_id).is_finished:  # all told: the very copy the host gives
                    copy = export_game(player.replica.service, player.member.stored)
                    assert copy == export_game(host_service, game_id, player.name)
    assert kills["killed in the middle of its pass"] >= 1, f"no kill hit a pass at work: {dict(kills)}"


# --- what host run refuses -------------------------------------------------------------------------------


@dataclass
class RefusalTable:
    """A vampire-empire game hosted by e-mail, a few turns in: Ann signs, Vlad plays by mail only."""

    host: Host
    game_id: UUID
    host_run: list[str]
    inbox: Path
    out: Path
    ann: SigningPlayer
    vlad: MailOnlyPlayer
    elsewhere: str  # Ann's join packet for a game another host runs
    mallory: KeyPair

    def post(self, message: EmailMessage) -> None:
        """Drops a mail into the host's inbox."""
        deliver_to_maildir(self.inbox, message.as_bytes())


def refusal_table(new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RefusalTable:
    """Plays a hosted game until Ann and Vlad have each had an action applied."""
    seed_randomness(monkeypatch, 17)
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp_path / "keys"))
    host_db, inbox, out = new_store("host"), tmp_path / "inbox", tmp_path / "out"
    mailbox.Maildir(inbox, create=True)
    host_service = GameService(host_db)
    ann_key = new_key("ann")
    seats: list[tuple[str, str | None]] = [("Ann", "human"), ("Vlad", "vampire")]
    mail = {"Ann": address("Ann"), "Vlad": address("Vlad")}
    host = Host(host_service, new_key("host"))
    game_id = host.create(
        "vampire-empire", seats, {"Ann": ann_key.public}, mail, HOST_MAIL, wait_for_entropy=True
    )

    def post(message: EmailMessage) -> None:
        deliver_to_maildir(inbox, message.as_bytes())

    replica = Replica(GameService(new_store("ann")))
    ann = SigningPlayer("Ann", replica, Mailbox(out, address("Ann")), post, Bot(1))
    choose = bot_chooser(host_service, game_id, "Vlad", Bot(2))
    vlad = MailOnlyPlayer("Vlad", Mailbox(out, address("Vlad")), post, choose)
    host_run = ["--db", host_db, "host", "run", "--inbox", f"maildir:{inbox}", "--out", str(out), "--once"]
    for _ in range(MAX_PASSES):
        succeeds(*host_run, "--from", HOST_MAIL)
        if {"Ann", "Vlad"} <= set(actions_by_auth(host_service, game_id)):
            break
        ann.read_mail()
        ann.give_entropy_if_waited_on()
        ann.act_if_my_turn()
        vlad.read_and_reply()
    else:
        pytest.fail(f"Ann and Vlad did not both act within {MAX_PASSES} passes")

    other = Host(GameService(new_store("other-host")), new_key("other-host"))
    other_game = other.create("dungeon-short", [("Ann", None), ("Bo", None)], {"Ann": ann_key.public}, {}, "")
    other.follow()
    (invitation,) = [m.packet for m in other.due() if m.player == "Ann"]
    _, elsewhere = replica.join(invitation)
    assert replica.membership(other_game) is not None
    return RefusalTable(host, game_id, host_run, inbox, out, ann, vlad, elsewhere, new_key("mallory"))


def forged_action(table: RefusalTable) -> EmailMessage:
    """An action packet for Ann's seat, chained onto the log as it stands, signed with Mallory's key."""
    chains = table.host.service.chain_values(table.game_id)
    actions = table.host.service.legal_actions(table.game_id)
    body = {
        "game": str(table.game_id),
        "player": "Ann",
        "version": len(chains),
        "chain": chains[-1],
        "action": actions[0].id,
        "nonce": bytes(32),
    }
    packet = make_packet("action", body, table.mallory.sign)
    return compose(address("Mallory"), HOST_MAIL, "nightkeep action", "Ann's move, honest.", packet)


def packet_for_another_game(table: RefusalTable) -> EmailMessage:
    """Ann's join packet for a game another host runs, sent to this host by mistake."""
    return compose(address("Ann"), HOST_MAIL, "nightkeep joining", "Here it is.", table.elsewhere)


def replayed_action(table: RefusalTable) -> EmailMessage:
    """Ann's first action mail, applied long ago, sent again."""
    (first, *_) = [m for m in table.ann.sent if str(m["Subject"]).startswith("nightkeep action")]
    return sent_again(first)


def wrong_game_key(table: RefusalTable) -> EmailMessage:
    """A reply to Vlad's newest mail whose one-time key has one letter changed."""
    newest = table.vlad.turns[-1]
    key = game_key(body_text(newest))
    assert key is not None
    forged_key = ("A" if key[2][0] != "A" else "B") + key[2][1:]
    reply = reply_to(newest, "1\n")
    text = body_text(reply).replace(key[2], forged_key)
    return compose(address("Vlad"), HOST_MAIL, str(reply["Subject"]), text)


def used_game_key(table: RefusalTable) -> EmailMessage:
    """A second, different reply to the first mail Vlad already answered."""
    return reply_to(table.vlad.turns[0], "1\nSorry, I meant the first one.\n")


@pytest.mark.parametrize(
    ("bad_mail", "sender", "reason"),
    [
        pytest.param(forged_action, "mallory", "not signed by Ann's key: refused as forged", id="forged"),
        pytest.param(packet_for_another_game, "ann", "this host runs no game", id="another game"),
        pytest.param(replayed_action, "ann", "not applied again: already", id="replayed action"),
        pytest.param(
            wrong_game_key, "vlad", "Game-Key of the mail is not one this host gave", id="wrong key"
        ),
        pytest.param(used_game_key, "vlad", "was for event", id="used key"),
    ],
)
def test_host_run_refuses_a_bad_mail_telling_its_sender_why_and_changing_nothing(
    new_store: NewStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    bad_mail: Callable[[RefusalTable], EmailMessage],
    sender: str,
    reason: str,
) -> None:
    table = refusal_table(new_store, tmp_path, monkeypatch)
    already = Mailbox(table.out, None)
    already.new_mail()
    chains, seats = table.host.service.chain_values(table.game_id), table.host.seats(table.game_id)

    table.post(bad_mail(table))
    printed = succeeds(*table.host_run, "--from", HOST_MAIL)

    assert table.host.service.chain_values(table.game_id) == chains
    assert table.host.seats(table.game_id) == seats, "nobody's acknowledged or sent events moved"
    answers = already.new_mail()
    assert len(answers) == 1, [body_text(m) for m in answers]
    (answer,) = answers
    assert is_refusal(answer) and str(answer["To"]) == address(sender)
    line, *rest = body_text(answer).splitlines()
    assert line.startswith("Refused: ") and reason in line
    # Every mail about a game of this host's ends with its history's fingerprint, after the words.
    rest = [r for r in rest if r and not r.startswith("History: event ")]
    # The refusal of a reply whose seat is known also carries a fresh Game-Key; the others are one line.
    assert (game_key(body_text(answer)) is not None) == bool(rest) == (bad_mail is used_game_key)
    assert f"refused: {line.removeprefix('Refused: ')}" in printed
    assert pending_in(table.inbox) == 0
