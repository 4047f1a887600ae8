"""The club of the guide's test, set up for real: shells for the host's user on the server and for a
player, the host service run from the unit file, and the mail between them.

Mail goes as it does for a club: the host's account is a Dovecot IMAP account, its mail leaves by an
SMTP server that wants STARTTLS and the same account's login, and what that server is given for the
host's own address is put into the account's INBOX (the lapse notices the host mails itself land
there, as they would); everybody else's mail lands in a Maildir that the players read.
"""

from __future__ import annotations

import ctypes
import os
import selectors
import shlex
import signal
import ssl
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from aiosmtpd.smtp import SMTP, Envelope, Session

from event_store.pbem.mail import read_eml
from tests.club_guide_text import Unit, environment_file
from tests.mail_servers import DovecotServer, MaildirDelivery, OneLogin, make_certificate, running_smtp

HOST_MAIL = "games@club.example.org"
SECONDS = 60.0  # the longest a step waits for the service to do something
# Linux prctl options: what NoNewPrivileges= and MemoryDenyWriteExecute= set for a service.
PR_SET_NO_NEW_PRIVS, PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 38, 65, 1


@dataclass(frozen=True)
class Ran:
    """What one command did: its exit code and output."""

    command: str
    code: int
    out: str
    err: str


class Shell:
    """A bash that takes one command at a time, as a person at a terminal does, keeping its directory and
    its environment from one command to the next."""

    def __init__(self, name: str, cwd: Path, env: dict[str, str], scratch: Path) -> None:
        self.name, self.scratch = name, scratch
        scratch.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            env=env,
            text=True,
        )
        self.count = 0

    def run(self, command: str, seconds: float = 120.0) -> Ran:
        """Runs a command in the shell and returns what it did (the shell stays where it went)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.count += 1
        out, err = self.scratch / f"{self.count}.out", self.scratch / f"{self.count}.err"
        marker = f"done-{self.count}"
        # On a line of its own, so that a comment ending the command stays a comment.
        self.process.stdin.write(f"{{ {command}\n}} >{out} 2>{err} </dev/null\necho {marker} $?\n")
        self.process.stdin.flush()
        line = self._line(seconds)
        assert line.startswith(marker), f"{self.name}'s shell said {line!r} running {command!r}"
        return Ran(command, int(line.split()[1]), out.read_text(), err.read_text())

    def _line(self, seconds: float) -> str:
        assert self.process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(timeout=seconds):
                self.process.kill()
                raise AssertionError(f"{self.name}'s command did not end within {seconds:.0f} s")
        return self.process.stdout.readline().strip()

    def close(self) -> None:
        """Ends the shell."""
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=10)


class ClubDelivery(MaildirDelivery):
    """Delivers what is sent to the host's address into its IMAP account, the rest into a Maildir."""

    def __init__(self, maildir: Path, dovecot: DovecotServer, account: str) -> None:
        super().__init__(maildir)
        self.dovecot, self.account = dovecot, account
        self.to_host: list[bytes] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if HOST_MAIL in [to.lower() for to in envelope.rcpt_tos]:
            self.to_host.append(raw)
            self.dovecot.append(raw, user=self.account)
            return "250 Message accepted for delivery"
        return await super().handle_DATA(server, session, envelope)


@dataclass
class ClubMail:
    """The club's mail: the host's IMAP account and the SMTP server, with the CA file that trusts both."""

    dovecot: DovecotServer
    account: str
    smtp_port: int
    delivery: ClubDelivery
    ca_bundle: Path

    def post(self, message: EmailMessage) -> None:
        """Puts a player's mail into the host's INBOX, as their mail server would."""
        self.dovecot.append(message.as_bytes(), user=self.account)

    def folder(self, name: str) -> list[bytes]:
        """Returns every message in a folder of the host's account."""
        return self.dovecot.messages(name, user=self.account)

    def move_back(self, source: str, target: str) -> int:
        """Moves every message of a folder into another, as a person does in a mail program; returns how
        many."""
        with self.dovecot.session(self.account) as imap:
            imap.select(f'"{source}"')
            _, found = imap.uid("SEARCH", "ALL")
            uids = found[0].split()
            for uid in uids:
                assert imap.uid("COPY", uid.decode(), f'"{target}"')[0] == "OK"
                imap.uid("STORE", uid.decode(), "+FLAGS", "(\\Deleted)")
            imap.expunge()
        return len(uids)


@contextmanager
def club_mail(dovecot: DovecotServer, folder: Path) -> Iterator[ClubMail]:
    """Runs the club's SMTP server (STARTTLS, the host account's login) until the block ends."""
    account = dovecot.new_user()
    cert, key = make_certificate(folder)
    bundle = folder / "ca-bundle.pem"
    bundle.write_bytes(Path(dovecot.ca_file).read_bytes() + cert.read_bytes())
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    delivery = ClubDelivery(folder / "delivered", dovecot, account)
    options = {
        "tls_context": context,
        "require_starttls": True,
        "authenticator": OneLogin(account, dovecot.password),
        "auth_required": True,
    }
    with running_smtp(delivery, **options) as controller:
        yield ClubMail(dovecot, account, controller.port, delivery, bundle)


def hardened() -> None:
    """Sets what the unit's UMask=, NoNewPrivileges= and MemoryDenyWriteExecute= set, in the child
    about to run the service (a kernel without them fails the test: the unit asks for them)."""
    os.umask(0o077)
    libc = ctypes.CDLL(None, use_errno=True)
    for option, value in ((PR_SET_NO_NEW_PRIVS, 1), (PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN)):
        if libc.prctl(option, value, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), f"prctl({option}) for the unit's hardening")


@dataclass
class Service:
    """The unit's ExecStart run as systemd would run it, with the test's paths and servers put in."""

    unit: Unit
    put_in: Callable[[str], str]  # the test's values for the guide's placeholders
    extra_env: dict[str, str]
    journal: Path
    process: subprocess.Popen[bytes] | None = None
    started: list[float] = field(default_factory=list)

    def argv(self) -> list[str]:
        """Returns ExecStart's words with the test's values (no specifier or variable is in it)."""
        line = self.unit.value("Service", "ExecStart")
        assert "%" not in line and "$" not in line, "ExecStart takes its values literally"
        return shlex.split(self.put_in(line))

    def environment(self) -> dict[str, str]:
        """Returns the environment systemd gives the service: its Environment= and EnvironmentFile=."""
        env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", **self.extra_env}
        for assignment in self.unit.values("Service", "Environment"):
            key, _, value = self.put_in(assignment).partition("=")
            env[key] = value
        for path in self.unit.values("Service", "EnvironmentFile"):
            env |= environment_file(Path(self.put_in(path)).read_text())
        return env

    def start(self, now: str) -> None:
        """Starts the service (systemctl start), its clock set to `now`."""
        assert not self.is_running(), "the service runs already"
        cwd = self.put_in(self.unit.value("Service", "WorkingDirectory"))
        env = self.environment() | {"NIGHTKEEP_NOW": now}
        with self.journal.open("ab") as journal:
            self.process = subprocess.Popen(
                self.argv(), cwd=cwd, env=env, stdout=journal, stderr=journal, preexec_fn=hardened
            )
        self.started.append(time.monotonic())

    def stop(self) -> None:
        """Stops the service as systemctl stop does (SIGTERM), which it takes at any moment."""
        assert self.process is not None and self.is_running(), f"the service stopped: {self.journal_text()}"
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=30)
        assert code == -signal.SIGTERM, f"the service ended with {code} on SIGTERM"
        self.process = None

    def is_running(self) -> bool:
        """Tells whether the service's process is alive."""
        return self.process is not None and self.process.poll() is None

    def journal_text(self) -> str:
        """Returns what the service logged (what journalctl would show)."""
        return self.journal.read_text() if self.journal.exists() else ""


def wait_for(what: str, found: Callable[[], object], seconds: float = SECONDS) -> object:
    """Waits until `found` returns something truthy (the service works in its own time); returns it."""
    deadline = time.monotonic() + seconds
    while True:
        result = found()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:.0f} s for {what}")
        time.sleep(0.2)


def message_of(raw: bytes) -> EmailMessage:
    """Parses a delivered mail."""
    return read_eml(raw)
