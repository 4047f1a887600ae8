"""Inboxes for play-by-mail: places where received mail waits (a Maildir, an mbox file or an IMAP folder),
each handing over its messages by a stable key until they are marked done and moved aside; `open_inbox`
picks one from a spec such as "maildir:PATH" or "imaps://USER@HOST:PORT/FOLDER", and `deliver_to_maildir`
drops a message into a Maildir."""

from __future__ import annotations

import hashlib
import imaplib
import mailbox
import os
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from domain.errors import UsageError
from event_store.lazy_log import get_logger
from event_store.log_reader import LIMITS
from event_store.pbem.mail_errors import MailError, _decoded, _reason, _tls_context

PASSWORD_ENV_VAR = "NIGHTKEEP_IMAP_PASSWORD"

log = get_logger("nightkeep.mail")  # the transport's logger, as before the inboxes moved here

# What one pass reads from a Maildir at most (besides its first message): a folder of huge mails is
# taken a few at a time rather than held in memory at once.
PASS_BYTES = 4 * LIMITS.max_bytes


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
        self._paths: dict[str, Path] = {}  # where `pending` last found each message

    def pending(self) -> list[tuple[str, bytes]]:
        """Returns (key, raw bytes) of the messages in new/ and cur/, oldest delivery first, up to
        PASS_BYTES (at least one message): the others wait for the next pass."""
        found = self._listing()
        self._paths = {key: path for _, key, path in found}
        out: list[tuple[str, bytes]] = []
        taken = 0
        for _, key, path in sorted(found):
            if out and taken >= PASS_BYTES:
                break
            # Read as bytes, never parsed here: what a message holds is read inside the host's guard.
            raw = _head_of(path)
            if raw is not None:
                out.append((key, raw))
                taken += len(raw)
        return out

    def _listing(self) -> list[tuple[float, str, Path]]:
        """Returns (delivery time, key, file) of every message file in new/ and cur/."""
        found: list[tuple[float, str, Path]] = []
        try:
            for subdir in ("new", "cur"):
                for entry in os.scandir(self.path / subdir):
                    if entry.name.startswith(".") or not entry.is_file():  # a client's temporary file
                        continue
                    try:
                        found.append(
                            (entry.stat().st_mtime, entry.name.split(self._box.colon)[0], Path(entry.path))
                        )
                    except FileNotFoundError:  # taken away by someone else since the listing
                        continue
        except OSError as exc:
            raise MailError(f"cannot read the Maildir {self.path}: {_reason(exc)}") from None
        return found

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
        known = self._paths.get(key)
        if known is not None and known.exists():
            return known
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
                # The bytes with their "From " line, not a parsed message: a mail the email package
                # cannot parse is filed all the same.
                done.add(box.get_bytes(found, from_=True))
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


def _head_of(path: Path) -> bytes | None:
    """Returns a message file's bytes, at most one more than a mail may hold (the reader refuses it
    then), or None when it has gone meanwhile or cannot be read (it waits, and is logged)."""
    try:
        with open(path, "rb") as stream:
            return stream.read(LIMITS.max_bytes + 1)
    except FileNotFoundError:  # taken away by someone else since the listing
        return None
    except OSError as exc:  # a file dropped unreadable (its mode, a device) stops nothing
        log.warning("mail_unreadable_file", path=str(path), error=_reason(exc))
        return None


def deliver_to_maildir(path: Path, raw: bytes) -> None:
    """Adds one message's bytes to the Maildir at `path`, creating the Maildir if needed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mailbox.Maildir(path, create=True).add(raw)
    except (OSError, mailbox.Error) as exc:
        raise MailError(f"cannot deliver to the Maildir {path}: {_reason(exc)}") from None
