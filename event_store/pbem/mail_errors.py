"""What goes wrong in the mail transport and its inboxes: `MailError`, the one-line reason a server or
file call failed, and the verified TLS context that SMTP and IMAP connections both use."""

from __future__ import annotations

import smtplib
from ssl import SSLCertVerificationError, SSLContext, create_default_context

from domain.errors import NightkeepError


class MailError(NightkeepError):
    """Raised when mail cannot be sent, fetched, filed or read: a server unreachable or refusing, not an
    e-mail message."""


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
