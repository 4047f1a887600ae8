"""Reading mail that anyone may send: the email package's parse, bounded in size, MIME nesting depth and
part count; the texts a host searches for packets and replies; and a sender's address, only when it is
exactly one usable address. Whatever a mail holds, reading it ends in its text or in `UnreadableMail`."""

from __future__ import annotations

import codecs
import unicodedata
from dataclasses import dataclass
from email import errors, policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from functools import partial
from typing import Any

from event_store.log_reader import LIMITS
from event_store.pbem.mail_errors import MailError

PACKET_MEDIA_TYPE = "application/x-nightkeep-packet"
PACKET_SUFFIX = ".nkp"

# Mail clients nest a few levels (mixed > related > alternative; a forwarded message adds as many again),
# so 40 is far past any of them. The email package recurses on each level when it parses, walks and
# finds the body (a few frames a level): at 40 it stays far below the interpreter's limit of 1,000.
MAX_DEPTH = 40
# A person's mail has a handful of parts (text, HTML, pictures, a packet). Each part costs the email
# package about half a millisecond (its headers parsed again at each look): 100 parts bound one mail to
# some 50 ms, where 20,000 tiny parts would take seconds.
MAX_PARTS = 100
# The MIME headers (Content-Type, -Disposition, -Transfer-Encoding) are parsed at each look, at a cost that
# grows faster than their length (3,000 RFC 2231 parameters take seconds). Four lines of RFC 5322's 998
# characters hold any real one: a long file name, a boundary, a charset.
MAX_MIME_HEADER = 4 * 998
# RFC 5321 §4.5.3.1: a local part of at most 64 octets, a path of 256 with its angle brackets.
MAX_LOCAL_PART = 64
MAX_ADDRESS = 254
# RFC 5322 §2.1.1 lets a line hold 998 characters; a From header longer than two of them names no one
# the host should answer, and is not handed to the header parser (whose cost grows faster than its size).
MAX_FROM = 2 * 998
# The header block read to find the sender of a mail whose body cannot be read.
MAX_HEADER_BYTES = 256 * 1024
# Well-formed enough: 8-bit bytes in a display name, or obsolete (folded, spaced) address syntax.
HARMLESS_DEFECTS = (errors.UndecodableBytesDefect, errors.ObsoleteHeaderDefect)
# Codecs for domain names, not text: pure Python, slow on a long body, and never a mail's charset.
NOT_CHARSETS = frozenset({"idna", "punycode"})


class UnreadableMail(MailError):
    """Raised when bytes are no e-mail message the host will read: no headers, too large, nested too
    deep, cut into too many parts, or a structure the email package cannot take."""


@dataclass(frozen=True)
class MailText:
    """What the host reads of one mail: the texts to search for packets and replies, its sender, and
    whether a program sent it (then nobody answers it)."""

    text: str
    sender: str
    automatic: bool = False
    message: EmailMessage | None = None  # the mail itself (a keyless reply's HTML part and In-Reply-To)


@dataclass
class _Budget:
    """How many parts of one mail the parser has made so far."""

    parts: int = 1


class _BoundedPart(EmailMessage):
    """A part of a mail being read: a subpart attached to it counts against the mail's bounds, before
    the parser goes down into it."""

    def __init__(self, policy: Any = None, budget: _Budget | None = None) -> None:
        super().__init__(policy)
        self._budget = budget or _Budget()
        self._depth = 0

    def set_raw(self, name: str, value: str) -> None:
        """Stores a header as read, refusing a MIME header too long to parse in good time."""
        if len(value) > MAX_MIME_HEADER and name.lower().startswith("content-"):
            raise UnreadableMail(f"one of its MIME headers is longer than {MAX_MIME_HEADER:,} characters")
        super().set_raw(name, value)

    def attach(self, payload: Any) -> None:
        """Attaches a subpart one level deeper, refusing the mail past MAX_DEPTH or MAX_PARTS."""
        if isinstance(payload, _BoundedPart):
            payload._depth = self._depth + 1
            self._budget.parts += 1
            if payload._depth > MAX_DEPTH:
                raise UnreadableMail(f"its MIME parts are nested more than {MAX_DEPTH} deep")
            if self._budget.parts > MAX_PARTS:
                raise UnreadableMail(f"it has more than {MAX_PARTS} MIME parts")
        super().attach(payload)


def read_eml(data: bytes) -> EmailMessage:
    """Parses the bytes of one e-mail message within the bounds on size, depth and parts; bytes that are
    no message, or past a bound, raise UnreadableMail with one line."""
    if len(data) > LIMITS.max_bytes:
        raise UnreadableMail(f"it is larger than a mail may be ({LIMITS.max_bytes:,} bytes)")
    parser = BytesParser(partial(_BoundedPart, budget=_Budget()), policy=policy.default)
    try:
        message = parser.parsebytes(data)
    except UnreadableMail:
        raise
    except Exception as exc:  # noqa: BLE001  (the email package raises many kinds on hostile input)
        raise UnreadableMail(f"the email package cannot parse it ({type(exc).__name__})") from None
    if not message.keys():
        raise UnreadableMail("not an e-mail message: it has no headers")
    return message


def read_mail_text(data: bytes) -> MailText:
    """Reads one mail's packet texts and its sender; anything the email package trips over in it
    raises UnreadableMail with one line."""
    message = read_eml(data)
    try:
        return MailText("\n".join(packet_texts(message)), sender_of(message), is_automatic(message), message)
    except Exception as exc:  # noqa: BLE001  (a header or part the email package cannot decode)
        raise UnreadableMail(f"the email package cannot read its parts ({type(exc).__name__})") from None


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


def sender_of(message: Message) -> str:
    """Returns the bare, lower-cased address of the message's one From header when it is exactly one
    usable address (see safe_address), else ""."""
    found = [value for name, value in message.raw_items() if name.lower() == "from"]
    if len(found) != 1 or len(found[0]) > MAX_FROM:
        return ""
    # Within a header as it was read, a line break is only ever a fold: unfolded as the package does.
    return safe_address(found[0].replace("\r", "").replace("\n", ""))


def headers_of(data: bytes) -> Message:
    """Returns a mail's headers alone, read from its start (for a mail whose body cannot be read); no
    headers at all when even they cannot be parsed."""
    try:
        return BytesParser(policy=policy.default).parsebytes(data[:MAX_HEADER_BYTES], headersonly=True)
    except Exception:  # noqa: BLE001  (nothing a stranger wrote may stop the host telling them)
        return EmailMessage()


def is_automatic(message: Message) -> bool:
    """Tells whether a program sent a mail, so that answering it could start two programs mailing each
    other for ever (RFC 3834 section 2's tests): an Auto-Submitted header other than "no", a Precedence of
    bulk, junk or list, a delivery report (multipart/report), or a bounce's empty Return-Path."""

    def values(name: str) -> list[str]:
        return [str(value) for key, value in message.raw_items() if key.lower() == name]

    if any(value.split(";")[0].strip().lower() != "no" for value in values("auto-submitted")):
        return True
    if any(value.strip().lower() in ("bulk", "junk", "list") for value in values("precedence")):
        return True
    if any(value.strip() in ("<>", "") for value in values("return-path")):
        return True
    return any(value.split(";")[0].strip().lower() == "multipart/report" for value in values("content-type"))


def safe_address(text: str) -> str:
    """Returns the one address a header value names, bare and lower-cased, or "" unless it is exactly
    one usable address: ASCII, within RFC 5321's lengths, no control character anywhere, no group."""
    if len(text) > MAX_FROM or any(_is_control(ch) for ch in text):
        return ""
    try:
        header = policy.default.header_factory("from", text)
    except Exception:  # noqa: BLE001  (the header parser raises IndexError and others on bad input)
        return ""
    if any(not isinstance(d, HARMLESS_DEFECTS) for d in header.defects) or len(header.groups) != 1:
        return ""
    group = header.groups[0]
    if group.display_name is not None or len(group.addresses) != 1:
        return ""
    address = group.addresses[0]
    spec: str = address.addr_spec
    local = spec.rpartition("@")[0]  # as sent, quotes included
    if not (address.username and address.domain and spec.isascii() and spec.isprintable()):
        return ""
    if len(local) > MAX_LOCAL_PART or len(spec) > MAX_ADDRESS:
        return ""
    return spec.lower()


def _is_control(ch: str) -> bool:
    """Tells whether a character is a control character other than the tab a fold leaves."""
    return ch != "\t" and unicodedata.category(ch) == "Cc"


def _text_of(part: Message) -> str:
    """Decodes a part's payload to text with LF line ends; a bad charset costs replacement characters."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    try:
        text = payload.decode(_charset_of(part), errors="replace")
    except (LookupError, UnicodeError):  # a codec that is no text encoding, or that ignores `errors`
        text = payload.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n")  # the same text whether the mail was stored with CRLF or LF


def _charset_of(part: Message) -> str:
    """Returns the codec to decode a part with: its charset when Python knows it as one, else UTF-8."""
    name = part.get_content_charset() or "utf-8"
    try:
        codec = codecs.lookup(name)
    except (LookupError, ValueError):  # unknown, or a name with a NUL in it
        return "utf-8"
    return "utf-8" if codec.name in NOT_CHARSETS else str(codec.name)
