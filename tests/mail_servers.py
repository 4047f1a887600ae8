"""Real mail servers for the mail tests, on 127.0.0.1 only: aiosmtpd delivering into a Maildir (plain, or
with STARTTLS and a login), and a Dovecot IMAP server run from its Debian package in a temp directory."""

from __future__ import annotations

import imaplib
import ipaddress
import mailbox
import os
import pwd
import secrets
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HOST = "127.0.0.1"
DOVECOT_PACKAGE = "dovecot-imapd"
# Dovecot drops root for these users, which its Debian package creates.
DOVECOT_MAIL_USER, DOVECOT_LOGIN_USER = "dovecot", "dovenull"
STARTUP_SECONDS = 10.0
# An account whose password is not ASCII, as a player's may be (names are ASCII: Dovecot's default
# auth_username_chars allows nothing else).
UTF8_USER, UTF8_PASSWORD = "zoe", "pässwörd-ü"


def free_port() -> int:
    """Returns a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def unused_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on: connecting to it is refused."""
    return free_port()


def wait_for_port(port: int, seconds: float = STARTUP_SECONDS) -> bool:
    """Waits until something accepts connections on the port; returns whether it did in time."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection((HOST, port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.02)
    return False


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """Writes a self-signed certificate for 127.0.0.1 and localhost, and its key; returns both paths."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    usage = x509.KeyUsage(True, False, True, False, False, False, False, False, False)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address(HOST))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(usage, critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    key_path.chmod(0o600)
    return cert_path, key_path


class MaildirDelivery:
    """An aiosmtpd handler that delivers every accepted message, as received, into a Maildir."""

    def __init__(self, maildir: Path) -> None:
        self.maildir = maildir
        self.envelopes: list[tuple[str | None, list[str]]] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        # Stored with mailbox itself, not nightkeep's helper: the server must not rest on the code under test.
        mailbox.Maildir(self.maildir, create=True).add(envelope.original_content or b"")
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 Message accepted for delivery"


class OneLogin:
    """An aiosmtpd authenticator that accepts one user name and password."""

    def __init__(self, user: str, password: str) -> None:
        self.user, self.password = user.encode(), password.encode()

    def __call__(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
    ) -> AuthResult:
        accepted = (
            isinstance(auth_data, LoginPassword)
            and secrets.compare_digest(auth_data.login, self.user)
            and secrets.compare_digest(auth_data.password, self.password)
        )
        return AuthResult(success=accepted, handled=False)  # unhandled: aiosmtpd answers 535 itself


@dataclass
class SmtpServer:
    """A running aiosmtpd server and the Maildir it delivers into."""

    host: str
    port: int
    maildir: Path
    handler: MaildirDelivery
    user: str | None = None
    password: str | None = None
    ca_file: str | None = None

    def delivered(self) -> list[bytes]:
        """Returns the bytes of every message delivered so far."""
        if not self.maildir.exists():
            return []
        box = mailbox.Maildir(self.maildir, create=False)
        return [box.get_bytes(key) for key in box.keys()]


@contextmanager
def running_smtp(handler: MaildirDelivery, **smtp_options: Any) -> Iterator[Controller]:
    """Runs an aiosmtpd Controller on 127.0.0.1 and a free port until the block ends."""
    # A fixed server name: the default asks the resolver for this machine's full name.
    controller = Controller(
        handler, hostname=HOST, port=free_port(), server_hostname="nightkeep-test", **smtp_options
    )
    controller.start()
    try:
        yield controller
    finally:
        controller.stop()


@pytest.fixture
def smtp_to_maildir(tmp_path: Path) -> Iterator[SmtpServer]:
    """An SMTP server without TLS or login that delivers every message into a Maildir under tmp_path."""
    handler = MaildirDelivery(tmp_path / "delivered")
    with running_smtp(handler) as controller:
        yield SmtpServer(HOST, controller.port, handler.maildir, handler)


@pytest.fixture
def smtp_with_login(tmp_path: Path) -> Iterator[SmtpServer]:
    """An SMTP server that requires STARTTLS (a self-signed certificate) and AUTH with one throwaway user."""
    cert, key = make_certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    user, password = "gamemaster", secrets.token_urlsafe(12)
    handler = MaildirDelivery(tmp_path / "delivered")
    login = OneLogin(user, password)
    options = {
        "tls_context": context,
        "require_starttls": True,
        "authenticator": login,
        "auth_required": True,
    }
    with running_smtp(handler, **options) as controller:
        yield SmtpServer(HOST, controller.port, handler.maildir, handler, user, password, str(cert))


@dataclass
class DovecotServer:
    """A running Dovecot: its ports, CA file and main account, and more fresh accounts to hand out."""

    host: str
    port: int
    imaps_port: int
    user: str
    password: str
    ca_file: str
    directory: Path
    spare_users: list[str] = field(default_factory=list)

    def new_user(self) -> str:
        """Returns an account no test has used yet (all share the password), so each test starts empty."""
        return self.spare_users.pop(0)

    @contextmanager
    def session(self, user: str | None = None) -> Iterator[imaplib.IMAP4]:
        """Logs in over plain IMAP (127.0.0.1 only) as `user` or the main account."""
        imap = imaplib.IMAP4(self.host, self.port, timeout=10)
        try:
            imap.login(user or self.user, self.password)
            yield imap
        finally:
            imap.logout()

    def append(self, raw: bytes, user: str | None = None, folder: str = "INBOX") -> None:
        """Puts a message into a folder of the account by IMAP APPEND, as a mail client would."""
        with self.session(user) as imap:
            status, data = imap.append(folder, None, None, raw)
            assert status == "OK", data

    def messages(self, folder: str, user: str | None = None) -> list[bytes]:
        """Returns the bytes of every message in a folder, read without changing it ([] for no folder)."""
        with self.session(user) as imap:
            status, _ = imap.select(f'"{folder}"', readonly=True)
            if status != "OK":
                return []
            _, found = imap.uid("SEARCH", "ALL")
            fetched = [imap.uid("FETCH", uid.decode(), "(BODY.PEEK[])")[1] for uid in found[0].split()]
            return [part[1] for data in fetched for part in data if isinstance(part, tuple)]


def dovecot_config(directory: Path, server: DovecotServer, cert: Path, key: Path) -> str:
    """Returns a Dovecot config that keeps everything (sockets, state, logs, mail) in `directory`."""
    return f"""
protocols = imap
listen = {HOST}
base_dir = {directory}/run
state_dir = {directory}/state
log_path = {directory}/dovecot.log
default_internal_user = {DOVECOT_MAIL_USER}
default_internal_group = {DOVECOT_MAIL_USER}
default_login_user = {DOVECOT_LOGIN_USER}
# The mail user is a system account (uid < 500), which Dovecot refuses for mail by default.
first_valid_uid = 1
mail_uid = {DOVECOT_MAIL_USER}
mail_gid = {DOVECOT_MAIL_USER}
mail_location = maildir:~/Maildir
auth_mechanisms = plain login
# A wrong password is answered at once, not after the usual two seconds.
auth_failure_delay = 0
disable_plaintext_auth = no
# No statistics: a process that is still greeting the stats service when the server stops would hold the
# shutdown up for seconds.
stats_writer_socket_path =
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {directory}/users
}}
userdb {{
  driver = static
  args = uid={DOVECOT_MAIL_USER} gid={DOVECOT_MAIL_USER} home={directory}/home/%u
}}
# Without this socket the auth process keeps no per-IP penalty, which would slow every login from
# 127.0.0.1 by seconds after a test's wrong password.
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service imap-login {{
  inet_listener imap {{
    address = {HOST}
    port = {server.port}
  }}
  inet_listener imaps {{
    address = {HOST}
    port = {server.imaps_port}
    ssl = yes
  }}
}}
"""


def dovecot_binary() -> str:
    """Returns the path of the dovecot binary, failing the test run when the package is not installed."""
    binary = shutil.which("dovecot") or shutil.which("dovecot", path="/usr/sbin:/usr/local/sbin")
    if binary is None:
        pytest.fail(f"dovecot is not installed: apt-get install {DOVECOT_PACKAGE}", pytrace=False)
    if os.geteuid() != 0:
        pytest.fail("the Dovecot fixture runs dovecot as root (it drops to the dovecot user)", pytrace=False)
    return binary


def prepare_dovecot(directory: Path) -> tuple[DovecotServer, Path]:
    """Writes the certificate, accounts, home directory and config; returns the server and config path."""
    cert, key = make_certificate(directory)
    password = secrets.token_urlsafe(12)
    users = ["keeper", *(f"player{n:02}" for n in range(1, 41))]
    accounts = [(user, password) for user in users] + [(UTF8_USER, UTF8_PASSWORD)]
    lines = "".join(f"{user}:{{PLAIN}}{secret}::::::\n" for user, secret in accounts)
    (directory / "users").write_text(lines, encoding="utf-8")
    mail_user = pwd.getpwnam(DOVECOT_MAIL_USER)
    (directory / "home").mkdir()
    os.chown(directory / "home", mail_user.pw_uid, mail_user.pw_gid)
    ports = free_port(), free_port()
    server = DovecotServer(HOST, *ports, users[0], password, str(cert), directory, spare_users=users[1:])
    config = directory / "dovecot.conf"
    config.write_text(dovecot_config(directory, server, cert, key))
    return server, config


def start_dovecot(binary: str, server: DovecotServer, config: Path) -> subprocess.Popen[bytes]:
    """Starts dovecot in the foreground on its own config; fails with its log when it does not come up."""
    with (server.directory / "stderr.log").open("wb") as stderr:
        process = subprocess.Popen([binary, "-F", "-c", str(config)], stdout=stderr, stderr=stderr)
    if wait_for_port(server.port) and wait_for_port(server.imaps_port) and process.poll() is None:
        return process
    stop_dovecot(process)
    logs = [server.directory / "stderr.log", server.directory / "dovecot.log"]
    text = " | ".join(line for path in logs if path.exists() for line in path.read_text().splitlines()[-5:])
    pytest.fail(f"dovecot did not start: {text}", pytrace=False)


def stop_dovecot(process: subprocess.Popen[bytes]) -> None:
    """Stops the dovecot master (it stops its own children on SIGTERM)."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def dovecot() -> Iterator[DovecotServer]:
    """A real Dovecot IMAP/IMAPS server on 127.0.0.1, run for the test session from a temp directory."""
    binary = dovecot_binary()
    # Not tmp_path_factory: pytest's base temp directory is 0700 root, where the dovecot user cannot go.
    directory = Path(tempfile.mkdtemp(prefix="nk-dovecot-"))
    directory.chmod(0o755)
    try:
        server, config = prepare_dovecot(directory)
        process = start_dovecot(binary, server, config)
        try:
            yield server
        finally:
            stop_dovecot(process)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
