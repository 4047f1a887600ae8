"""E-mail transport for play-by-mail: composing and reading messages, sending them by SMTP, and inboxes
(Maildir, mbox, IMAP) that hand over each received message until it is marked done."""

from __future__ import annotations

import hashlib
import imaplib
import mailbox
import os
import smtplib
import tempfile
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import make_msgid, parseaddr
from pathlib import Path
from ssl import SSLCertVerificationError, SSLContext, create_default_context
from typing import Any, Protocol

import structlog

from domain.errors import NightkeepError, UsageError

PACKET_MEDIA_TYPE = "application/x-nightkeep-packet"
PACKET_SUFFIX = ".nkp"
PASSWORD_ENV_VAR = "NIGHTKEEP_IMAP_PASSWORD"

log = structlog.get_logger("nightkeep.mail")


class MailError(NightkeepError):
    """Raised when mail cannot be sent, fetched, filed or read: a server unreachable or refusing, not an
    e-mail message."""


def compose(
    sender: str,
    to: str,
    subject: str,
    body: str,
    packet: str | None = None,
    packet_name: str = "packet.nkp",
    message_id: str | None = None,
    in_reply_to: str | None = None,
) -> EmailMessage:
    """Builds a UTF-8 text message; a packet is appended to the body and also attached as a file."""
    message = EmailMessage()
    message_id = message_id or make_msgid(domain="nightkeep")
    headers = {"From": sender, "To": to, "Subject": subject, "Message-ID": message_id}
    if in_reply_to:
        headers |= {"In-Reply-To": in_reply_to, "References": in_reply_to}
    try:
        for name, value in headers.items():
            message[name] = value
    except ValueError as exc:  # policy.default refuses line breaks, which would let a value forge headers
        raise UsageError(f"cannot put {value!r} in the mail header {name}: {exc}") from None
    message["Date"] = datetime.now(UTC)
    text = body if packet is None else f"{body.rstrip()}\n\n{packet.strip()}\n"
    # Left alone, policy.default would send non-ASCII text as raw 8bit, which not every relay carries.
    message.set_content(text, cte=None if text.isascii() else "quoted-printable")
    if packet is not None:
        maintype, subtype = PACKET_MEDIA_TYPE.split("/")
        message.add_attachment(packet.encode(), maintype=maintype, subtype=subtype, filename=packet_name)
    return message


def write_eml(message: EmailMessage, path: Path) -> None:
    """Writes a message as the bytes SMTP would send (CRLF line ends), replacing `path` atomically."""
    data = message.as_bytes(policy=message.policy.clone(linesep="\r\n"))
    try:
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise MailError(f"cannot write {path}: {_reason(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise MailError(f"cannot write {path}: {_reason(exc)}") from None


def read_eml(data: bytes) -> EmailMessage:
    """Parses the bytes of one e-mail message; bytes without a single header raise MailError."""
    message = BytesParser(EmailMessage, policy=policy.default).parsebytes(data)
    if not message.keys():
        raise MailError("not an e-mail message: it has no headers")
    return message


def packet_texts(message: EmailMessage) -> list[str]:
    """Returns the text of every packet attachment, then of every text/plain part, to search for packets."""
    packets: list[str] = []
    plain: list[str] = []
    for part in message.walk():
        if part.is_multipart():
            continue
        media_type = part.get_content_type()
        if media_type == PACKET_MEDIA_TYPE or (part.get_filename() or "").endswith(PACKET_SUFFIX):
            packets.append(_text_of(part))
        elif media_type == "text/plain":
            plain.append(_text_of(part))
    return packets + plain


def body_text(message: EmailMessage) -> str:
    """Returns the text of the message's plain-text body, or "" when it has none."""
    part = message.get_body(preferencelist=("plain",))
    return "" if part is None else _text_of(part)


def sender_of(message: EmailMessage) -> str:
    """Returns the bare address of the message's From header, lowercased ("" without one)."""
    return parseaddr(str(message.get("From", "")))[1].lower()


def _text_of(part: Message) -> str:
    """Decodes a part's payload to text with LF line ends; a bad charset costs replacement characters."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    try:
        text = payload.decode(part.get_content_charset() or "utf-8", errors="replace")
    except LookupError:  # a charset name Python does not know
        text = payload.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n")  # the same text whether the mail was stored with CRLF or LF


@dataclass(frozen=True)
class SmtpSettings:
    """Where and how to submit mail: the server, its TLS and the login."""

    host: str
    port: int
    starttls: bool = False
    ssl: bool = False
    user: str | None = None
    password: str | None = field(default=None, repr=False)  # kept out of logs and tracebacks
    timeout: float = 30.0
    ca_file: str | None = None

    @classmethod
    def parse(cls, text: str, **kw: Any) -> SmtpSettings:
        """Reads "HOST:PORT" (an IPv6 host in brackets) into settings; the other fields come from `kw`."""
        return cls(*_host_port(text, "SMTP server"), **kw)


def _host_port(text: str, what: str) -> tuple[str, int]:
    """Splits "HOST:PORT", raising UsageError with one line when either part is missing or bad."""
    try:
        address = urllib.parse.urlsplit(f"//{text.strip()}")
        host, port = address.hostname, address.port
    except ValueError:
        host = port = None
    if not host or not port:
        raise UsageError(f"bad {what} {text!r}: expected HOST:PORT, e.g. 127.0.0.1:2525")
    return host, port


def send(settings: SmtpSettings, messages: Sequence[EmailMessage]) -> None:
    """Sends messages over one SMTP connection, with STARTTLS and a login when the settings ask."""
    where = f"{settings.host}:{settings.port}"
    if (
        not f"{settings.user or ''}{settings.password or ''}".isascii()
    ):  # smtplib's AUTH encodes them as ASCII
        raise MailError(f"cannot log in to the SMTP server {where}: the user name and password must be ASCII")
    context = _tls_context(settings.ca_file) if settings.ssl or settings.starttls else None
    doing = "cannot reach the SMTP server"
    try:
        if settings.ssl:
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(
                settings.host, settings.port, timeout=settings.timeout, context=context
            )
        else:
            smtp = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
        with smtp:
            if settings.starttls:
                doing = "cannot start TLS with the SMTP server"
                smtp.starttls(context=context)
            if settings.user is not None:
                doing = f"cannot log in as {settings.user} to the SMTP server"
                smtp.login(settings.user, settings.password or "")
            for message in messages:
                doing = f"cannot send {message['Message-ID']} to {message['To']} through the SMTP server"
                smtp.send_message(message)
    except (smtplib.SMTPException, OSError) as exc:
        raise MailError(f"{doing} {where}: {_reason(exc)}") from None
    log.info("mail_sent", server=where, messages=len(messages))


def _tls_context(ca_file: str | None) -> SSLContext:
    """Returns a context verifying servers against `ca_file`, or the system's store without one."""
    try:
        return create_default_context(cafile=ca_file)
    except OSError as exc:
        raise MailError(f"cannot read the CA file {ca_file}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    """Says in a few words, on one line, why an smtplib, imaplib, mailbox or OS call failed."""
    if isinstance(exc, SSLCertVerificationError):
        text = f"the server's certificate is not trusted ({exc.verify_message})"
    elif isinstance(exc, smtplib.SMTPResponseException):
        text = f"{exc.smtp_code} {_decoded(exc.smtp_error)}"
    elif isinstance(exc, smtplib.SMTPRecipientsRefused):
        refusals = exc.recipients.items()
        text = "; ".join(f"{to} refused: {code} {_decoded(why)}" for to, (code, why) in refusals)
    elif isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror[:1].lower() + exc.strerror[1:]
    elif exc.args and isinstance(exc.args[0], bytes):  # imaplib raises the server's own words, as bytes
        text = _decoded(exc.args[0])
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(text.split())


def _decoded(data: bytes | str) -> str:
    """Returns a server's reply as text."""
    return data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data


class Inbox(Protocol):
    """A place where received mail waits; each message is handed over until it is marked done."""

    def pending(self) -> list[tuple[str, bytes]]:
        """Returns (key, raw bytes) of every message not yet processed, oldest first."""
        ...

    def mark_done(self, key: str) -> None:
        """Moves a processed message out of the way; a key already moved is ignored."""
        ...

    def close(self) -> None:
        """Releases the connection or files the inbox holds."""
        ...


class MaildirInbox:
    """A Maildir whose messages in new/ and cur/ are pending; done ones move to a Maildir++ sub-folder."""

    def __init__(self, path: Path, done_folder: str = "processed") -> None:
        if not ((path / "new").is_dir() and (path / "cur").is_dir()):
            raise MailError(f"no Maildir at {path}")
        self.path = path
        self.done_folder = done_folder
        self._box = mailbox.Maildir(path, create=False)

    def pending(self) -> list[tuple[str, bytes]]:
        """Returns (key, raw bytes) of the messages in new/ and cur/, oldest delivery first."""
        found: list[tuple[float, str, bytes]] = []
        try:
            for key in self._box.keys():
                try:
                    found.append((self._box.get_message(key).get_date(), key, self._box.get_bytes(key)))
                except KeyError:  # taken away by someone else since the listing
                    continue
        except OSError as exc:
            raise MailError(f"cannot read the Maildir {self.path}: {_reason(exc)}") from None
        return [(key, raw) for _, key, raw in sorted(found)]

    def mark_done(self, key: str) -> None:
        """Renames the message into the done folder (new/ or cur/ as it was); a missing key is ignored."""
        try:
            source = self._file_of(key)
            if source is None:
                return
            if self.done_folder not in self._box.list_folders():
                self._box.add_folder(self.done_folder)
            # A rename leaves the message in exactly one place, whenever the process stops.
            os.replace(source, self.path / f".{self.done_folder}" / source.parent.name / source.name)
        except OSError as exc:
            raise MailError(f"cannot file {key} in {self.path}/.{self.done_folder}: {_reason(exc)}") from None
        log.info("mail_done", inbox=str(self.path), key=key)

    def _file_of(self, key: str) -> Path | None:
        """Returns the file holding `key`, named as mailbox.Maildir names them (KEY or KEY:INFO)."""
        for subdir in ("new", "cur"):
            for entry in os.scandir(self.path / subdir):
                if entry.name.split(self._box.colon)[0] == key:
                    return Path(entry.path)
        return None

    def close(self) -> None:
        """Releases the Maildir (nothing is held open between calls)."""
        self._box.close()


class MboxInbox:
    """An mbox file whose messages are all pending; done ones move to another mbox file."""

    def __init__(self, path: Path, done_path: Path | None = None) -> None:
        if not path.is_file():
            raise MailError(f"no mbox at {path}")
        self.path = path
        self.done_path = done_path or path.with_name(path.name + ".processed")

    def pending(self) -> list[tuple[str, bytes]]:
        """Returns (digest of the bytes, raw bytes) of every message, in the file's order."""
        with _locked_mbox(self.path) as box:
            raws = [box.get_bytes(key) for key in box.keys()]
        # mbox keys are positions, renumbered whenever the file is rewritten: the content names a message.
        return [(hashlib.sha256(raw).hexdigest(), raw) for raw in raws]

    def mark_done(self, key: str) -> None:
        """Appends one message with this digest to the done mbox, then removes it from this one."""
        with _locked_mbox(self.path) as box:
            found = next((k for k in box.keys() if hashlib.sha256(box.get_bytes(k)).hexdigest() == key), None)
            if found is None:
                return
            with _locked_mbox(self.done_path, create=True) as done:
                done.add(box.get_message(found))
            box.remove(found)
        log.info("mail_done", inbox=str(self.path), key=key)

    def close(self) -> None:
        """Releases the mbox (it is opened and locked only within each call)."""


@contextmanager
def _locked_mbox(path: Path, create: bool = False) -> Iterator[mailbox.mbox]:
    """Opens an mbox with its lock held; changes are written back, and the lock released, on leaving."""
    try:
        box = mailbox.mbox(path, create=create)
        try:
            box.lock()
            yield box
        finally:
            box.close()
    except (OSError, mailbox.Error) as exc:
        raise MailError(f"cannot use the mbox {path}: {_reason(exc)}") from None


class ImapInbox:
    """An IMAP folder whose undeleted messages are pending; done ones move to another folder."""

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str,
        folder: str = "INBOX",
        done_folder: str = "processed",
        ssl: bool = True,
        ca_file: str | None = None,
        timeout: float = 30.0,
    ) -> None:
        if not (folder.isascii() and done_folder.isascii()):  # imaplib sends names as ASCII, not UTF-7
            raise UsageError(f"IMAP folder names must be ASCII: {folder!r}, {done_folder!r}")
        self.host, self.port, self.user = host, port, user
        self.folder, self.done_folder = folder, done_folder
        self._password, self._ssl, self._ca_file, self._timeout = password, ssl, ca_file, timeout
        self._where = f"{host}:{port}"
        self._imap: imaplib.IMAP4 | None = None
        self._capabilities: frozenset[str] = frozenset()
        self._done_created = False

    def pending(self) -> list[tuple[str, bytes]]:
        """Returns ("UIDVALIDITY:UID", raw bytes) of every undeleted message in the folder, by UID."""
        with self._errors(f"cannot read {self.folder} from"):
            imap, validity = self._select()
            uids = sorted(int(uid) for uid in _ok(imap.uid("SEARCH", "UNDELETED"))[0].split())
            found = []
            for uid in uids:
                # BODY.PEEK leaves \Seen alone: a message that fails to process still looks unread.
                raw = _fetched(_ok(imap.uid("FETCH", str(uid), "(BODY.PEEK[])")))
                if raw is not None:
                    found.append((f"{validity}:{uid}", raw))
            return found

    def mark_done(self, key: str) -> None:
        """Moves the message to the done folder (creating it); a UID no longer there is ignored."""
        validity, _, uid = key.rpartition(":")
        if not uid.isdigit():
            raise UsageError(f"bad IMAP message key {key!r}: expected UIDVALIDITY:UID")
        with self._errors(f"cannot move message {uid} to {self.done_folder} on"):
            imap, current = self._select()
            if validity and validity != current:
                why = f"UIDVALIDITY {validity} is now {current}"
                raise MailError(f"the IMAP folder {self.folder} was renumbered ({why}): read it again")
            target = _quoted(self.done_folder)
            if not self._done_created:
                imap.create(target)  # refused with ALREADYEXISTS after the first run; others fail below
                self._done_created = True
            if "MOVE" in self._capabilities:
                _ok(imap.uid("MOVE", uid, target))
            else:
                _ok(imap.uid("COPY", uid, target))
                _ok(imap.uid("STORE", uid, "+FLAGS.SILENT", r"(\Deleted)"))
                # UID EXPUNGE touches only this message; a bare EXPUNGE also drops others marked \Deleted.
                _ok(imap.uid("EXPUNGE", uid) if "UIDPLUS" in self._capabilities else imap.expunge())
        log.info("mail_done", inbox=f"imap://{self.user}@{self._where}/{self.folder}", key=key)

    def close(self) -> None:
        """Logs out of the server, if connected."""
        if self._imap is not None:
            try:
                self._imap.logout()
            except (imaplib.IMAP4.error, OSError):
                pass  # the connection is being dropped either way
            self._imap = None

    def _select(self) -> tuple[imaplib.IMAP4, str]:
        """Selects the folder, connecting first if needed; returns the connection and the UIDVALIDITY."""
        imap = self._connection()
        _ok(imap.select(_quoted(self.folder)))
        _, data = imap.response("UIDVALIDITY")
        return imap, _decoded(data[0] or b"")

    def _connection(self) -> imaplib.IMAP4:
        """Returns the logged-in connection, opening it on first use."""
        if self._imap is not None:
            return self._imap
        with self._errors("cannot reach"):
            if self._ssl:
                context = _tls_context(self._ca_file)
                imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                    self.host, self.port, ssl_context=context, timeout=self._timeout
                )
            else:
                imap = imaplib.IMAP4(self.host, self.port, timeout=self._timeout)
        try:
            with self._errors(f"cannot log in as {self.user} to"):
                if f"{self.user}{self._password}".isascii():
                    imap.login(self.user, self._password)
                else:  # imaplib sends LOGIN in ASCII; SASL PLAIN carries UTF-8 (RFC 4616)
                    imap.authenticate("PLAIN", lambda _: f"\0{self.user}\0{self._password}".encode())
                # Servers announce extensions such as MOVE only after the login.
                self._capabilities = frozenset(_decoded(_ok(imap.capability())[0]).upper().split())
        except MailError:
            imap.shutdown()
            raise
        self._imap = imap
        return imap

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """Turns imaplib and socket errors into one-line MailErrors, dropping the connection."""
        try:
            yield
        except (imaplib.IMAP4.error, OSError) as exc:
            if self._imap is not None:
                self._imap.shutdown()
                self._imap = None
            raise MailError(f"{doing} the IMAP server {self._where}: {_reason(exc)}") from None


def _ok(response: tuple[str, list[Any]]) -> list[Any]:
    """Returns an IMAP command's data, raising the server's refusal as an imaplib error."""
    status, data = response
    if status != "OK":
        raise imaplib.IMAP4.error(data[-1] if data and data[-1] else status)
    return data


def _fetched(data: list[Any]) -> bytes | None:
    """Returns the message bytes of a UID FETCH answer, or None when the message has gone."""
    for item in data:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
            return item[1]
    return None


def _quoted(name: str) -> str:
    """Quotes a folder name for an IMAP command."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def open_inbox(spec: str, **kw: Any) -> Inbox:
    """Opens "maildir:PATH", "mbox:PATH", "imaps://USER@HOST:PORT/FOLDER", "imap://…" or a Maildir dir."""
    scheme, colon, rest = spec.partition(":")
    if scheme == "maildir" and colon:
        return MaildirInbox(Path(rest), **kw)
    if scheme == "mbox" and colon:
        return MboxInbox(Path(rest), **kw)
    if scheme in ("imap", "imaps") and rest.startswith("//"):
        return _imap_inbox(spec, **kw)
    if Path(spec).is_dir():
        return MaildirInbox(Path(spec), **kw)
    raise UsageError(
        f"unknown inbox {spec!r}: use maildir:PATH, mbox:PATH or imaps://USER@HOST:PORT/FOLDER (or imap://)"
    )


def _imap_inbox(spec: str, password: str | None = None, **kw: Any) -> ImapInbox:
    """Opens an IMAP URL; the password comes from `password` or the environment, never the URL."""
    url = urllib.parse.urlsplit(spec)
    if url.password is not None:  # a password in a URL ends up in shell history and process lists
        raise UsageError(f"the IMAP URL holds a password: remove it and set {PASSWORD_ENV_VAR} instead")
    try:
        port = url.port
    except ValueError:
        port = -1
    if not url.username or not url.hostname or port == -1:
        raise UsageError(f"bad IMAP URL {spec!r}: expected imaps://USER@HOST:PORT/FOLDER")
    password = password if password is not None else os.environ.get(PASSWORD_ENV_VAR)
    if not password:
        raise UsageError(f"no IMAP password: set {PASSWORD_ENV_VAR}")
    secure = url.scheme == "imaps"
    user = urllib.parse.unquote(url.username)
    folder = urllib.parse.unquote(url.path.lstrip("/")) or "INBOX"
    return ImapInbox(url.hostname, port or (993 if secure else 143), user, password, folder, ssl=secure, **kw)


def deliver_to_maildir(path: Path, raw: bytes) -> None:
    """Adds one message's bytes to the Maildir at `path`, creating the Maildir if needed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mailbox.Maildir(path, create=True).add(raw)
    except (OSError, mailbox.Error) as exc:
        raise MailError(f"cannot deliver to the Maildir {path}: {_reason(exc)}") from None
