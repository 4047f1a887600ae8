"""The club guide of docs/play-by-email.md ("Running a club"), run as a club secretary and two players
would run it: every command of its `sh server` and `sh player` blocks, in the guide's order, against a
real Dovecot IMAP account and a real SMTP server on 127.0.0.1, with the host service started from
docs/nightkeep-host.service. Root's commands are checked (the unit's ExecStart is run, the folders are
made), and the crontab line's command is run as cron runs it. Between the guide's steps the players do
what the guide tells them (save a mail, mail a packet, reply to a mail), the host's clock is moved on
for the deadlines, and each step checks that the game moved on as the guide says.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import msgpack
import pytest

from domain.club import PrivatePressSent, RolledBack, SeatHandedOver, TurnLapsed, VacationDeclared
from domain.events import ActionTaken
from event_store.pbem.mail import body_text
from tests.club_guide_text import GUIDE, REPO, UNIT, Step, guide_steps, read_unit
from tests.club_people import (
    REPLICA,
    MailOnly,
    PlayerMachine,
    host_chain,
    host_events,
    moves,
    says,
    seat_to_move,
    subject_of,
)
from tests.club_table import HOST_MAIL, ClubMail, Ran, Service, Shell, club_mail, wait_for
from tests.pbem_helpers import Mailbox, game_key, is_turn_mail

# The most steps of the game (a seat's decisions) a wait for someone's turn lets pass.
MAX_DECISIONS = 40

if TYPE_CHECKING:
    from tests.mail_servers import DovecotServer
    from tests.pg_server import PostgresServer

pytest_plugins = ["tests.mail_servers"]

START = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)  # the host's clock when the club opens
FINGERPRINT = "'3954 4f2a eba5 7190'"  # the guide's example of the host key's fingerprint
ROLLBACK_TO = "--to 14"  # the guide's example of the event a rollback goes back to
# Root's commands that the test checks without running (they would change this machine).
CHECKED = ("apt-get", "python3", "/opt/nightkeep/bin/pip", "ln", "useradd", "sudo", "cp", "journalctl")


class GuideRun:
    """One run of the guide: the test's values for its placeholders, the people, and what each step
    needs before it and checks after it."""

    def __init__(self, tmp: Path, mail: ClubMail, postgres: PostgresServer) -> None:
        self.tmp, self.mail, self.postgres = tmp, mail, postgres
        self.home = tmp / "var-lib-nightkeep"
        self.now = START
        venv_bin = Path(sys.executable).parent
        assert (venv_bin / "nightkeep").exists(), f"nightkeep is not installed beside {sys.executable}"
        self.path = f"{venv_bin}:/usr/local/bin:/usr/bin:/bin"
        self.values: dict[str, str] = {
            "/opt/nightkeep/bin/nightkeep": str(venv_bin / "nightkeep"),
            "/var/lib/nightkeep": str(self.home),
            "/etc/nightkeep": str(tmp / "etc-nightkeep"),
            "imaps://games@mail.club.example.org/": f"imaps://{mail.account}@127.0.0.1:{mail.dovecot.imaps_port}/",
            "mail.club.example.org:587": f"127.0.0.1:{mail.smtp_port}",
            "--smtp-user games": f"--smtp-user {mail.account}",
            "'PASSWORD'": f"'{mail.dovecot.password}'",
            "--interval 60": "--interval 1",  # a pass a second, so the test need not wait a minute for each
        }
        self.used: set[str] = set()
        self.unit = read_unit(UNIT.read_text())
        self.service = Service(
            self.unit, self.put_in, {"SSL_CERT_FILE": str(mail.ca_bundle)}, tmp / "journal"
        )
        self.server: Shell | None = None
        folder = tmp / "ann"
        folder.mkdir()
        env = {"PATH": self.path, "HOME": str(folder)}  # her keys go to her own config folder
        delivered = mail.delivery.maildir
        self.ann = PlayerMachine("Ann", Shell("Ann", folder, env, tmp / "ann-shell"), folder,
                                 Mailbox(delivered, "ann@example.org"), mail)  # fmt: skip
        self.bo = MailOnly("bo@example.org", Mailbox(delivered, "bo@example.org"), mail)
        self.dee = MailOnly("dee@example.org", Mailbox(delivered, "dee@example.org"), mail)
        self.zoe = Mailbox(delivered, "zoe@example.org")
        self.plays_bo = self.bo  # who answers Bo's seat's mail: Bo, then Dee who takes the seat over
        self.hooks: dict[str, tuple[Callable[[], None] | None, Callable[[Ran], None] | None]] = {
            "key new host": (None, self.after_host_key),
            "host run --inbox": (None, self.after_first_pass),
            "key export ann": (None, self.after_key_export),
            "nightkeep new ": (None, self.after_new_game),
            "join invite.eml": (self.before_join, None),
            "entropy GAME": (None, self.after_entropy),
            "receive turn.eml": (self.before_turn, None),
            "act GAME roll": (None, self.after_move),
            "vacation GAME 3d -o": (None, self.after_vacation),
            "host deadline GAME": (None, self.after_new_deadline),
            "host replace GAME": (None, self.after_replace),
            'press GAME "': (None, self.after_host_press),
            "press GAME --to Bo": (self.ann.catch_up, self.after_private_press),
            "host rollback GAME": (self.before_rollback, self.after_rollback_proposed),
            "rollback agree GAME -o": (self.ann.catch_up, self.after_ann_agreed),
            "rollback agree GAME --as Bo": (self.before_bo_agrees, self.after_bo_agreed),
            ".backup /var/lib/nightkeep/backups/host.sqlite": (None, self.after_backup),
            "cp -p": (None, self.after_key_copy),
            ".restore": (None, self.after_restore),
            "pg_dump": (self.before_pg_dump, self.after_pg_dump),
            "pg_restore": (self.before_pg_restore, self.after_pg_restore),
            "projections run --rebuild": (None, self.after_rebuild),
        }
        self.hooked: list[str] = []
        self.game = ""
        self.db = str(self.home / "host.sqlite")
        self.backed_up: list[bytes] = []
        self.before_restore: list[bytes] = []
        self.pg_url = ""
        self.pg_games: list[str] = []

    # --- running the guide's steps ----------------------------------------------------------------------

    def put_in(self, text: str) -> str:
        """Puts the test's values in place of the guide's placeholders."""
        for placeholder, value in [*self.values.items(), ("GAME", self.game)]:
            pattern = r"\bGAME\b" if placeholder == "GAME" else re.escape(placeholder)
            if re.search(pattern, text):
                assert value, f"{placeholder} is used before the test knows its value: {text}"
                self.used.add(placeholder)
                text = re.sub(pattern, value.replace("\\", "\\\\"), text)  # (the value, as it is)
        return text

    def step(self, step: Step) -> None:
        """Does one step of the guide."""
        if step.who == "file":
            path = Path(self.put_in(step.path))
            assert path.exists(), f"guide line {step.line}: root's commands made no {step.path}"
            path.write_text(self.put_in(step.text))
        elif step.who == "root":
            self.as_root(step)
        elif step.who == "crontab":
            self.as_cron(step)
        else:
            self.in_shell(step)

    def in_shell(self, step: Step) -> None:
        hook = next((k for k in self.hooks if k in step.text), None)
        before, after = self.hooks[hook] if hook else (None, None)
        self.hooked += [hook] if hook else []
        if before:
            before()
        shell = self.ann.shell if step.who == "player" else self.server
        assert shell is not None, f"guide line {step.line}: a server command before `sudo -u nightkeep`"
        ran = shell.run(self.put_in(step.text))
        assert ran.code == 0, f"guide line {step.line}: {step.text}\nexit {ran.code}: {ran.err}{ran.out}"
        if after:
            after(ran)

    def as_root(self, step: Step) -> None:
        """Checks a root command against the unit and the guide (running only `install`), and plays the
        part of systemd for `systemctl`."""
        words = step.words
        program = words[0]
        if program == "install":  # run, but as the test's user: the owner named is checked
            owners = {words[i + 1] for i, w in enumerate(words) if w in ("-o", "-g")}
            assert owners <= {self.unit.value("Service", "User"), self.unit.value("Service", "Group")}
            mine = [
                w for i, w in enumerate(words) if w not in ("-o", "-g") and words[i - 1] not in ("-o", "-g")
            ]
            subprocess.run([self.put_in(w) for w in mine], check=True)
        elif program == "systemctl":
            self.systemctl(words[1:], step)
        elif program in CHECKED:
            self.check_root(words, step)
        else:
            pytest.fail(f"guide line {step.line}: root runs {program!r}, which the test does not check")

    def check_root(self, words: list[str], step: Step) -> None:
        unit = self.unit
        program = unit.value("Service", "ExecStart").split()[0]
        venv = str(Path(program).parents[1])
        checks = {
            "apt-get": lambda: all(shutil.which(w) for w in ("sqlite3",)) and "python3-venv" in words,
            "python3": lambda: words[1:] == ["-m", "venv", venv],
            "/opt/nightkeep/bin/pip": lambda: words[0] == f"{venv}/bin/pip" and words[1] == "install",
            "ln": lambda: words[2] == program and shutil.which("nightkeep", path=self.path) is not None,
            "useradd": lambda: (
                words[-1] == unit.value("Service", "User")
                and words[words.index("--home-dir") + 1] == unit.value("Service", "WorkingDirectory")
            ),
            "sudo": lambda: (
                words == ["sudo", "-u", unit.value("Service", "User"), "-H", "bash"]
                and self.start_server_shell()
            ),
            "cp": lambda: (
                Path(words[1]).name == UNIT.name
                and (REPO / Path(words[1]).relative_to("/usr/local/src/nightkeep")).exists()
                and words[2] == "/etc/systemd/system/"
            ),
            "journalctl": lambda: (
                words[1:3] == ["-u", UNIT.stem] and "host_pass" in self.service.journal_text()
            ),
        }
        assert checks[words[0]](), f"guide line {step.line}: {step.text}"

    def systemctl(self, args: list[str], step: Step) -> None:
        verb, *rest = args
        assert rest in ([], [UNIT.stem], ["--now", UNIT.stem]), f"guide line {step.line}: {step.text}"
        if verb == "enable" or verb == "start":
            if verb == "start":
                self.mail.move_back("processed", "INBOX")  # the restore's mails, moved back as the guide says
            self.service.start(self.clock())
            wait_for("the service's first pass", lambda: "host_pass" in self.service.journal_text())
            if verb == "start":
                self.after_restart()
        elif verb == "stop":
            self.service.stop()
        elif verb == "status":
            assert self.service.is_running(), self.service.journal_text()
        else:
            assert verb == "daemon-reload", f"guide line {step.line}: {step.text}"

    def as_cron(self, step: Step) -> None:
        """Checks a crontab line and runs its command as cron would: /bin/sh, cron's PATH, `\\%` for `%`."""
        minute, hour, day, month, weekday, command = step.text.split(maxsplit=5)
        assert minute.isdecimal() and int(minute) < 60 and (hour, day, month, weekday) == ("*",) * 4
        assert "%" not in command.replace("\\%", ""), "an unescaped % ends a crontab command"
        env = {"HOME": str(self.home), "LOGNAME": "nightkeep", "SHELL": "/bin/sh", "PATH": "/usr/bin:/bin"}
        command = self.put_in(command.replace("\\%", "%"))
        ran = subprocess.run(
            ["/bin/sh", "-c", command], cwd=self.home, env=env, capture_output=True, text=True
        )
        assert ran.returncode == 0, ran.stderr
        copies = sorted(self.home.glob("backups/host-[0-2][0-9].sqlite"))
        assert len(copies) == 1 and host_chain(str(copies[0]), self.game) == host_chain(self.db, self.game)

    def start_server_shell(self) -> bool:
        """Starts a shell as the service's user would get one: its .bashrc read."""
        env = {"PATH": self.path, "HOME": str(self.home), "SSL_CERT_FILE": str(self.mail.ca_bundle)}
        self.server = Shell("the host", self.tmp, env, self.tmp / "server-shell")
        sourced = self.server.run(". ~/.bashrc")
        assert sourced.code == 0, sourced.err
        self.set_clock(self.now)
        return self.server.run("pwd").out.strip() == str(self.home)

    def clock(self) -> str:
        return self.now.isoformat()

    def set_clock(self, moment: datetime) -> None:
        """Moves the host's clock on: the secretary's shell and the service (restarted to take it)."""
        self.now = moment
        assert self.server is not None
        assert self.server.run(f"export NIGHTKEEP_NOW={self.clock()}").code == 0
        if self.service.is_running():
            self.service.stop()
            self.service.start(self.clock())

    def finish(self) -> None:
        """Checks what the whole run leaves: every hook used once, every placeholder used, the logs
        audited."""
        assert sorted(self.hooked) == sorted(self.hooks), "each hook matched exactly one command of the guide"
        assert self.used == {*self.values, "GAME"}, "every placeholder the test fills is in the guide"
        assert self.server is not None
        audited = self.server.run(f"nightkeep audit {self.game}")
        assert audited.code == 0, audited.out + audited.err
        self.ann.catch_up()
        mine, theirs = self.tmp / "ann.nkr", self.tmp / "host-ann.nkr"
        self.ann.run(f"nightkeep --db {REPLICA} export {self.game} --as Ann -o {mine}")
        assert self.server.run(f"nightkeep export {self.game} --as Ann -o {theirs}").code == 0
        # The moves the restore lost were made again with the same chain, at a later time: Ann's replica
        # keeps the times it first got (the chain does not cover them), and is otherwise the host's copy.
        held, hosted = (msgpack.unpackb(f.read_bytes(), strict_map_key=False) for f in (mine, theirs))
        timed = [
            e.pop("time") != h.pop("time") for e, h in zip(held["events"], hosted["events"], strict=True)
        ]
        assert held == hosted, "Ann's replica holds what the host holds for her"
        remade = range(len(self.backed_up), len(self.before_restore))
        assert {i for i, moved in enumerate(timed) if moved} <= set(remade)

    # --- the hooks: what each step needs and checks --------------------------------------------------

    def after_host_key(self, ran: Ran) -> None:
        found = re.search(r"fingerprint: ([0-9a-f]{4}(?: [0-9a-f]{4}){3})", ran.err)
        assert found, ran.err
        self.values[FINGERPRINT] = f"'{found.group(1)}'"

    def after_first_pass(self, ran: Ran) -> None:
        assert "0 handled (0 refused, answered by mail), 3 mails sent" in ran.err, ran.err
        self.ann.newest("Ann's invitation", "you are invited to play Ann")
        assert any("invited to play Bo" in subject_of(m) for m in self.bo.new_mail())
        assert any("you watch" in subject_of(m) for m in self.zoe.new_mail())

    def after_key_export(self, ran: Ran) -> None:
        shutil.copy(self.ann.folder / "ann.pub", self.home / "ann.pub")  # mailed to the secretary

    def after_new_game(self, ran: Ran) -> None:
        self.game = self.ann.game = ran.out.strip()

    def before_join(self) -> None:
        self.ann.save(self.ann.newest("the invitation", "invited to play Ann"), "invite.eml")
        self.ann.mark_read()

    def after_entropy(self, ran: Ran) -> None:
        self.ann_sends("join.nkp", "entropy.nkp")
        wait_for("the deal", lambda: seat_to_move(self.db, self.game))
        self.pass_to("Ann")

    def before_turn(self) -> None:
        self.ann.save(self.ann.newest("Ann's turn", "your turn, Ann"), "turn.eml")
        self.ann.mark_read()

    def after_move(self, ran: Ran) -> None:
        self.ann_sends("move.nkp")
        self.pass_to("Ann")

    def ann_sends(self, *names: str) -> None:
        """Ann mails packet files to the host; waits until the service took them (the game moved on)."""
        head = len(host_chain(self.db, self.game))
        self.ann.send(*names)
        wait_for(f"the host to take {', '.join(names)}", lambda: len(host_chain(self.db, self.game)) > head)

    def ann_moves(self) -> None:
        """Ann receives her mail until her replica lists her moves, makes the first and mails it; waits
        until the host applied it."""

        def listed() -> list[dict[str, object]]:
            self.ann.catch_up()
            return self.ann.legal()

        wait_for("Ann's turn on her replica", listed)
        head = len(host_chain(self.db, self.game))
        self.ann.play_first_move()
        wait_for("Ann's move", lambda: len(host_chain(self.db, self.game)) > head)

    def pass_to(self, seat: str) -> None:
        """Lets the mail-only seats answer their turns until it is `seat`'s turn. A seat's turn may take
        several decisions, each a mail there and back: the wait is for the service's next step (SECONDS
        each, as every wait here), not for all of them at once, which a loaded machine may not make in
        SECONDS (CI's once did not)."""
        head = len(host_chain(self.db, self.game))

        def turned_or_moved() -> bool:
            to_move = seat_to_move(self.db, self.game)
            if seat in to_move:
                return True
            now = len(host_chain(self.db, self.game))
            if now != head:
                return True
            self.plays_bo.answer_turn(now)
            return False

        try:
            for _ in range(MAX_DECISIONS):
                wait_for(f"{seat}'s turn", turned_or_moved)
                if seat in seat_to_move(self.db, self.game):
                    return
                head = len(host_chain(self.db, self.game))
            raise AssertionError(f"{seat}'s turn did not come in {MAX_DECISIONS} steps of the game")
        except AssertionError as exc:  # say where the game and the mail stood, for whoever reads CI's log
            turns = [m for m in self.plays_bo.mailbox.received if is_turn_mail(body_text(m))]
            last = game_key(body_text(turns[-1])) if turns else None
            head = len(host_chain(self.db, self.game))
            raise AssertionError(
                f"{exc}: to move {seat_to_move(self.db, self.game)}, head {head}, the last turn mail to "
                f"{self.plays_bo.address} at {last}, answered {sorted(self.plays_bo.answered)}"
            ) from None

    def after_vacation(self, ran: Ran) -> None:
        self.ann_sends("away.nkp")
        wait_for("Ann's absence", lambda: self.last(VacationDeclared))
        # Ann is away 3 days, then has her 3 days: a reminder a day before, the lapse, the bot's move.
        began = self.now
        self.set_clock(began + timedelta(days=5, hours=1))
        self.ann.newest("Ann's reminder", "reminder: your turn, Ann")
        self.set_clock(began + timedelta(days=6, minutes=1))
        lapse = wait_for("Ann's lapse", lambda: self.last(TurnLapsed))
        assert isinstance(lapse, TurnLapsed) and (lapse.player, lapse.rule) == ("Ann", "default")
        wait_for(
            "the others told",
            lambda: any(says(m, "Ann's turn lapsed") for m in self.zoe.new_mail() + self.zoe.received),
        )
        self.set_clock(began + timedelta(days=6, hours=12, minutes=2))
        wait_for("the bot's move for Ann", lambda: any(e.auth == "default" for _, e in moves(self.events())))
        wait_for("Bo's turn", lambda: seat_to_move(self.db, self.game) == ["Bo"])

    def after_new_deadline(self, ran: Ran) -> None:
        self.set_clock(self.now + timedelta(days=2, minutes=1))
        lapse = wait_for("Bo's lapse", lambda: self.last(TurnLapsed, after=lambda e: e.player == "Bo"))
        assert isinstance(lapse, TurnLapsed) and lapse.rule == "replace"

    def after_replace(self, ran: Ran) -> None:
        assert self.last(SeatHandedOver)
        self.plays_bo = self.dee
        self.pass_to("Ann")

    def after_host_press(self, ran: Ran) -> None:
        told = wait_for(
            "Zoe's press",
            lambda: [
                m
                for m in self.zoe.new_mail() + self.zoe.received
                if says(m, "The deadline is 2 days from now on.")
            ],
        )
        assert all(subject_of(m).startswith("Crypt run, final") for m in told)

    def after_private_press(self, ran: Ran) -> None:
        self.ann_sends("press.nkp")
        wait_for(
            "Dee's press",
            lambda: any(
                says(m, "Shall we share the Vault?") for m in self.dee.new_mail() + self.dee.mailbox.received
            ),
        )
        copies = [e for e in self.events() if isinstance(e, PrivatePressSent)]
        assert sorted(e.owner for e in copies) == ["Ann", "Bo"]

    def before_rollback(self) -> None:
        self.ann_moves()
        (number, move), *_ = reversed(moves(self.events()))
        assert move.player == "Ann"
        self.values[ROLLBACK_TO] = f"--to {number - 1}"

    def pass_to_not(self, seat: str) -> None:
        wait_for(f"{seat}'s move applied", lambda: seat not in seat_to_move(self.db, self.game))

    def after_rollback_proposed(self, ran: Ran) -> None:
        self.ann.newest("Ann's question", "a rollback waits on your answer, Ann")

    def after_ann_agreed(self, ran: Ran) -> None:
        self.ann_sends("answer.nkp")
        wait_for("the rollback", lambda: self.last(RolledBack))
        self.ann_moves()  # drawing what the voided move drew

    def before_bo_agrees(self) -> None:
        self.pass_to("Ann")  # Dee moved for Bo: the host is told her reply meant another move
        (number, move), *_ = reversed(moves(self.events()))
        assert move.player == "Bo"
        assert self.server is not None
        asked = self.server.run(
            f'nightkeep host rollback {self.game} --to {number - 1} --reason "Dee misread"'
        )
        assert asked.code == 0, asked.err

    def after_bo_agreed(self, ran: Ran) -> None:
        assert "went back" in ran.out
        self.pass_to("Ann")

    def after_backup(self, ran: Ran) -> None:
        self.backed_up = host_chain(self.db, self.game)
        copy = self.home / "backups" / "host.sqlite"
        assert host_chain(str(copy), self.game) == self.backed_up, "the copy holds the game as it stood"

    def after_key_copy(self, ran: Ran) -> None:
        copy = self.home / "backups" / "host.key"
        assert copy.read_bytes() == (self.home / "keys" / "host.key").read_bytes()
        assert copy.stat().st_mode & 0o777 == 0o600
        # Moves after the backup, which the restore loses and the mails moved back make again.
        self.ann_moves()
        self.pass_to("Ann")
        self.before_restore = host_chain(self.db, self.game)
        assert len(self.before_restore) > len(self.backed_up)

    def after_restore(self, ran: Ran) -> None:
        assert host_chain(self.db, self.game) == self.backed_up

    def after_restart(self) -> None:
        """After the restore: the mails moved back are handled again, and the moves come out the same."""
        wait_for(
            "the lost moves made again",
            lambda: host_chain(self.db, self.game)[: len(self.before_restore)] == self.before_restore,
        )

    def before_pg_dump(self) -> None:
        self.pg_url = self.postgres.create_database("club_guide")
        self.values["postgresql://nightkeep@localhost/nightkeep"] = self.pg_url
        self.pg_games = [self.new_pg_game()]

    def pg_nightkeep(self, *args: str) -> str:
        """Runs nightkeep on the PostgreSQL store with the host's keys; returns what it printed."""
        env = {"PATH": self.path, "HOME": str(self.tmp), "NIGHTKEEP_KEYS": str(self.home / "keys")}
        ran = subprocess.run(
            ["nightkeep", "--db", self.pg_url, *args], capture_output=True, text=True, env=env
        )
        assert ran.returncode == 0, ran.stderr
        return ran.stdout

    def new_pg_game(self) -> str:
        """Starts a hosted game on the PostgreSQL store (Bo by mail), and lists the games once."""
        mail = ["--mail", "Ann=ann@example.org", "--mail", "Bo=bo@example.org", "--host-mail", HOST_MAIL]
        made = self.pg_nightkeep("new", "dungeon-short", "--player", "Ann", "--player", "Bo", *mail)
        self.pg_listed()  # the read side's tables exist from here on
        return made.strip()

    def pg_listed(self) -> list[str]:
        return sorted(g["game"] for g in json.loads(self.pg_nightkeep("games", "--json")))

    def after_pg_dump(self, ran: Ran) -> None:
        assert (self.home / "backups" / "host.dump").stat().st_size > 0

    def before_pg_restore(self) -> None:
        self.new_pg_game()  # made after the dump: the restore takes it away
        assert len(self.pg_listed()) == 2

    def after_pg_restore(self, ran: Ran) -> None:
        (game,) = self.pg_games
        assert self.pg_nightkeep("audit", game)

    def after_rebuild(self, ran: Ran) -> None:
        assert self.pg_listed() == self.pg_games, "the list of games is the restored store's"

    # --- what the host's store says ----------------------------------------------------------------------

    def events(self) -> list[object]:
        return list(host_events(self.db, self.game))

    def last(self, kind: type, after: Callable[[object], bool] = lambda e: True) -> object | None:
        found = [e for e in self.events() if isinstance(e, kind) and after(e)]
        return found[-1] if found else None


@pytest.fixture
def club(dovecot: DovecotServer, tmp_path: Path, postgres_server: PostgresServer) -> Iterator[GuideRun]:
    with club_mail(dovecot, tmp_path) as mail:
        run = GuideRun(tmp_path, mail, postgres_server)
        try:
            yield run
        finally:
            if run.service.is_running():
                run.service.stop()
            for shell in (run.server, run.ann.shell):
                if shell is not None:
                    shell.close()


def test_every_command_of_the_club_guide_runs_and_the_game_moves_on(club: GuideRun) -> None:
    for step in guide_steps():
        club.step(step)
    club.finish()
    assert not [
        e for e in club.events() if isinstance(e, ActionTaken) and e.auth == "" and e.player != "host"
    ]


def test_the_guide_refuses_a_block_it_cannot_place() -> None:
    text = GUIDE.read_text()
    unmarked = text.replace("```sh server\nnightkeep key new host", "```\nnightkeep key new host", 1)
    with pytest.raises(ValueError, match="mark it one of"):
        guide_steps(unmarked)
    hidden = text.replace(
        "```text /var/lib/nightkeep/.bashrc\n", "```text /var/lib/nightkeep/.bashrc\nnightkeep games\n", 1
    )
    with pytest.raises(ValueError, match="a named file's content"):
        guide_steps(hidden)
