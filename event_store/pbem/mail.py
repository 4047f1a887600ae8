"""E-mail transport for play-by-mail: composing and reading messages and sending them by SMTP. The inboxes
(Maildir, mbox, IMAP) live in `event_store.pbem.inboxes`, the bounded reading of mail anyone may send in
`event_store.pbem.mail_reading`; both are re-exported here."""

from __future__ import annotations

import hashlib
import os
import smtplib
import tempfile
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from domain.errors import UsageError
from event_store import clock
from event_store.lazy_log import get_logger
from event_store.pbem.inboxes import (
    PASSWORD_ENV_VAR,
    ImapInbox,
    Inbox,
    MaildirInbox,
    MboxInbox,
    deliver_to_maildir,
    open_inbox,
)
from event_store.pbem.mail_errors import MailError, _reason, _tls_context
from event_store.pbem.mail_page import Link, Picture, html_page
from event_store.pbem.mail_reading import (
    PACKET_MEDIA_TYPE,
    PACKET_SUFFIX,
    MailText,
    UnreadableMail,
    body_text,
    headers_of,
    is_automatic,
    packet_texts,
    read_eml,
    read_mail_text,
    safe_address,
    sender_of,
)

__all__ = [
    "PACKET_MEDIA_TYPE",
    "PACKET_SUFFIX",
    "PASSWORD_ENV_VAR",
    "ImapInbox",
    "Inbox",
    "Link",
    "MailError",
    "MailText",
    "MaildirInbox",
    "MboxInbox",
    "Picture",
    "SmtpSettings",
    "UnreadableMail",
    "body_text",
    "compose",
    "deliver_to_maildir",
    "headers_of",
    "is_automatic",
    "open_inbox",
    "packet_texts",
    "read_eml",
    "read_mail_text",
    "safe_address",
    "send",
    "sender_of",
    "write_eml",
]

log = get_logger("nightkeep.mail")


def compose(
    sender: str,
    to: str,
    subject: str,
    body: str,
    packet: str | None = None,
    packet_name: str = "packet.nkp",
    message_id: str | None = None,
    in_reply_to: str | None = None,
    picture: Picture | None = None,
    link: Link | None = None,
    last_line: str = "",
) -> EmailMessage:
    """Builds a UTF-8 mail: the text, ending with `last_line` (the history's fingerprint), and the same
    text as HTML for phones with the picture inline (by its Content-ID) and the link; a packet travels
    once, as an attached file."""
    message = EmailMessage()
    message_id = message_id or make_msgid(domain="nightkeep")
    _set_headers(message, sender, to, subject, message_id, in_reply_to)
    body = f"{body.rstrip()}\n\n{last_line}\n" if last_line else body
    text = body if link is None else f"{body.rstrip()}\n\n{link.words}:\n{link.url}\n"
    # Left alone, policy.default would send non-ASCII text as raw 8bit, which not every relay carries.
    message.set_content(text, cte=None if text.isascii() else "quoted-printable")
    cid = f"board.{message_id.strip('<>')}"
    page = html_page(subject, body, link, (cid, picture.alt) if picture else None)
    message.add_alternative(page, subtype="html", cte="quoted-printable")
    if picture is not None:
        html_part = message.get_body(preferencelist=("html",))
        assert html_part is not None  # added just above
        html_part.add_related(
            picture.png, "image", "png", cid=f"<{cid}>", disposition="inline", filename="board.png"
        )
    if packet is not None:
        maintype, subtype = PACKET_MEDIA_TYPE.split("/")
        message.add_attachment(packet.encode(), maintype=maintype, subtype=subtype, filename=packet_name)
    _fix_boundaries(message, message_id)
    return message


def _set_headers(
    message: EmailMessage, sender: str, to: str, subject: str, message_id: str, in_reply_to: str | None
) -> None:
    headers = {"From": sender, "To": to, "Subject": subject, "Message-ID": message_id}
    if in_reply_to:
        headers |= {"In-Reply-To": in_reply_to, "References": in_reply_to}
    try:
        for name, value in headers.items():
            message[name] = value
    except ValueError as exc:  # policy.default refuses line breaks, which would let a value forge headers
        raise UsageError(f"cannot put {value!r} in the mail header {name}: {exc}") from None
    message["Date"] = clock.now()


def _fix_boundaries(message: EmailMessage, message_id: str) -> None:
    """Names each multipart's boundary after the Message-ID: a mail sent again is then the same bytes
    (the email package would draw them at random). `=_` never occurs in base64 or quoted-printable."""
    digest = hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()[:24]
    for depth, part in enumerate(p for p in message.walk() if p.is_multipart()):
        part.set_boundary(f"=_nightkeep_{depth}_{digest}")


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
