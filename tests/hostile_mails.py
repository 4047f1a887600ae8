"""Hostile mail for a host's inbox: a seeded generator of messages made to trip whatever reads them.

`hostile_mail(rng, lures)` returns (kind, bytes) for one mail: MIME nested thousands deep or cut into
thousands of parts, huge and tiny sizes, missing, duplicated and garbage boundaries, odd and unknown
charsets and transfer encodings, broken, duplicated, over-long and folded headers, NULs and control
characters anywhere, odd attachments and names, bad base64 and quoted-printable, bytes that are not
UTF-8, fake packets and Game-Key lines, and copies of real mails of the game cut or damaged. `lures`
holds what a forger would have: the game's id, old packets and old Game-Key lines (all used before).
The same seed gives the same mails (tests/pbem/test_hostile_mail.py, benchmarks/fuzz_hostile_mail.py).
"""

from __future__ import annotations

import base64
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from event_store.log_reader import LIMITS
from event_store.pbem.packets import BEGIN, END

CRLF = b"\r\n"
CONTROLS = bytes([*range(0, 9), 11, 12, *range(14, 32), 127])


@dataclass
class Lures:
    """What a forger knows of the game: its id, packets and Game-Key lines already used, old mails
    (their bytes), the players' addresses; and how large a mail may be made (`max_size`)."""

    game: str = "00000000-0000-4000-8000-000000000000"
    packets: list[str] = field(default_factory=list)
    key_lines: list[str] = field(default_factory=list)
    old_mails: list[bytes] = field(default_factory=list)
    senders: list[str] = field(default_factory=lambda: ["mallory@example.org"])
    max_size: int = 16 * 1024 * 1024


def _pick(rng: random.Random, items: list[str], default: str) -> str:
    return rng.choice(items) if items else default


def headers(rng: random.Random, lures: Lures, sender: bytes | None = None) -> bytes:
    """Returns a plausible header block's first lines (no Content-Type, no blank line)."""
    sender = sender if sender is not None else _pick(rng, lures.senders, "m@example.org").encode()
    return (
        b"From: " + sender + CRLF + b"To: host@example.org\r\nSubject: Re: your turn\r\n"
        b"Date: Tue, 08 Dec 2026 20:00:00 +0000\r\nMessage-ID: <%d@example.org>\r\n"
        b"MIME-Version: 1.0\r\n" % rng.getrandbits(64)
    )


def reply_text(rng: random.Random, lures: Lures) -> bytes:
    """Returns what a reply might say: a first line, then a quoted (used) Game-Key line or a packet."""
    first = rng.choice([b"1", b"status", b"history 3", b"help", b"roll", b"99", b"\xff\xfe", b""])
    tail = rng.choice(
        [_pick(rng, lures.key_lines, "Game-Key: x 1 y"), _pick(rng, lures.packets, BEGIN), ""]
    ).encode()
    return first + b"\r\n\r\n> " + tail.replace(b"\n", b"\r\n> ") + CRLF


def plain(rng: random.Random, lures: Lures, body: bytes | None = None, extra: bytes = b"") -> bytes:
    """Returns a one-part text mail with `extra` header lines."""
    body = body if body is not None else reply_text(rng, lures)
    return headers(rng, lures) + b"Content-Type: text/plain; charset=utf-8\r\n" + extra + CRLF + body


def deep_nesting(rng: random.Random, lures: Lures) -> bytes:
    """MIME parts (multipart or message/rfc822) nested 41 to 5,000 deep, closed or not."""
    depth = rng.choice([41, 64, 300, 1000, 2000, 5000])
    style = rng.choice(["mixed", "rfc822", "both", "unclosed", "same"])
    inner = b"Content-Type: text/plain\r\n\r\n" + reply_text(rng, lures)
    for level in range(depth):
        if style == "rfc822" or (style == "both" and level % 2):
            inner = b"Content-Type: message/rfc822\r\n\r\nSubject: %d\r\n" % level + inner
            continue
        mark = b"same" if style == "same" else b"b%d" % level
        close = b"" if style == "unclosed" else CRLF + b"--" + mark + b"--" + CRLF
        inner = (
            b'Content-Type: multipart/mixed; boundary="' + mark + b'"\r\n\r\n--' + mark + CRLF + inner + close
        )
    return headers(rng, lures) + inner


def many_parts(rng: random.Random, lures: Lures) -> bytes:
    """One multipart of 501 to 20,000 small parts, or 30 by 30 nested."""
    count = rng.choice([501, 2000, 20000])
    part = b"--p\r\nContent-Type: text/plain\r\n\r\nx\r\n"
    if rng.random() < 0.3:
        row = b'--q\r\nContent-Type: multipart/mixed; boundary="p"\r\n\r\n' + part * 30 + b"--p--\r\n"
        body = row * 30 + b"--q--\r\n"
        return headers(rng, lures) + b'Content-Type: multipart/mixed; boundary="q"\r\n\r\n' + body
    return headers(rng, lures) + b'Content-Type: multipart/mixed; boundary="p"\r\n\r\n' + part * count


def huge(rng: random.Random, lures: Lures) -> bytes:
    """A body of 1 MB up to the largest size allowed: one endless line, many lines, or base64."""
    size = min(rng.choice([1 << 20, 4 << 20, 16 << 20]), lures.max_size)
    style = rng.choice(["line", "lines", "base64", "armour"])
    if style == "line":
        body = b"A" * size
    elif style == "lines":
        body = (b"x" * 76 + CRLF) * (size // 78)
    elif style == "base64":
        data = base64.encodebytes(rng.randbytes(size * 3 // 4))
        return plain(rng, lures, data, b"Content-Transfer-Encoding: base64\r\n")
    else:
        body = BEGIN.encode() + CRLF + (b"QUFB" * 16 + CRLF) * (size // 66) + END.encode() + CRLF
    return plain(rng, lures, body)


def giant(rng: random.Random, lures: Lures) -> bytes:
    """A mail one byte past the size limit of a mail (only when the lures allow that size)."""
    size = min(LIMITS.max_bytes + 1, lures.max_size)
    head = headers(rng, lures)
    return head + b"Content-Type: text/plain\r\n\r\n" + b"B" * max(0, size - len(head) - 28)


def tiny(rng: random.Random, lures: Lures) -> bytes:
    """Almost nothing: empty, a blank line, a lone header, a few random bytes."""
    return rng.choice(
        [
            b"",
            CRLF,
            b"From:",
            b"From: a@b",
            b":",
            b"\x00",
            b"\r",
            b"\n\n\n",
            b"From: \r\n\r\n",
            rng.randbytes(8),
        ]
    )


def boundaries(rng: random.Random, lures: Lures) -> bytes:
    """Multiparts with no boundary, an empty, huge or odd one, one never used, or parts never closed."""
    mark = rng.choice([b"", b"x" * 20000, b'"', b"a\x00b", b"\xff\xfe", b"-- --", b"b" * 71])
    body = b"--" + mark + b"\r\nContent-Type: text/plain\r\n\r\n" + reply_text(rng, lures)
    style = rng.choice(["none", "odd", "unused", "duplicate", "unclosed"])
    if style == "none":
        return headers(rng, lures) + b"Content-Type: multipart/mixed\r\n\r\n" + body
    if style == "unused":
        return headers(rng, lures) + b'Content-Type: multipart/mixed; boundary="zz"\r\n\r\n' + body
    if style == "duplicate":
        mark = b"d"
        body = b"--d\r\n" + b'Content-Type: multipart/mixed; boundary="d"\r\n\r\n--d\r\nx\r\n--d--\r\n' * 50
    close = b"" if style == "unclosed" else CRLF + b"--" + mark + b"--\r\n"
    return (
        headers(rng, lures)
        + b'Content-Type: multipart/mixed; boundary="'
        + mark
        + b'"\r\n\r\n'
        + body
        + close
    )


CHARSETS = [
    b"x-klingon",
    b"utf-7",
    b"idna",
    b"punycode",
    b"rot13",
    b"base64",
    b"zlib",
    b"utf-32",
    b"cp037",
    b"utf\x00-8",
    b"a" * 5000,
    b"",
    b'"',
    b"undefined",
    b"unicode_escape",
    b"utf-16",
    b"us-ascii",
]
ENCODINGS = [b"base64", b"quoted-printable", b"x-uuencode", b"x-foo", b"8bit", b"binary", b"7bit", b"\x00"]


def encodings(rng: random.Random, lures: Lures) -> bytes:
    """A text part with an odd or unknown charset and transfer encoding, and a body broken for it."""
    charset, encoding = rng.choice(CHARSETS), rng.choice(ENCODINGS)
    body = rng.choice(
        [
            b"====ZZ=\r\n=",
            b"!!!!not base64!!!!\r\nQUJD=\r\n=",
            b"begin 644 x\r\n" + rng.randbytes(300),
            rng.randbytes(2000),
            b"\xc3\x28\xa0\xa1" * 500,
            reply_text(rng, lures) * 3,
        ]
    )
    extra = b"Content-Transfer-Encoding: " + encoding + CRLF
    if rng.random() < 0.3:
        extra += b"Content-Transfer-Encoding: " + rng.choice(ENCODINGS) + CRLF
    head = headers(rng, lures) + b"Content-Type: text/plain; charset=" + charset + CRLF + extra
    return head + CRLF + body


def broken_headers(rng: random.Random, lures: Lures) -> bytes:
    """Header lines without colons, repeated, 100,000 long, folded 10,000 times, odd names, bad words."""
    style = rng.choice(["nocolon", "repeat", "long", "folded", "names", "words", "comments", "params"])
    depth = rng.choice([500, 1500, 3000])  # comments nested in comments: the header parser recurses
    lines = {
        "nocolon": b"this is no header\r\n" * 3,
        "repeat": b"Content-Type: text/plain\r\nContent-Type: multipart/mixed\r\n" * 500,
        "long": b"X-Long: " + b"y" * 100000 + CRLF,
        "folded": b"Subject: a" + b"\r\n b" * 10000 + CRLF,
        "names": b"X Bad Name: 1\r\n\xff\xfe: 2\r\n: empty\r\nX-\x00: 3\r\n",
        "words": b"Subject: " + b"=?utf-8?b?!!!?= =?x-unknown?q?=FF?= " * 3000 + CRLF,
        "comments": b"Content-Type: text/plain " + b"(" * depth + b")" * depth + CRLF,
        "params": b"Content-Type: text/plain" + b"; a*%d*=utf-8''%%FF" * 3000 % tuple(range(3000)) + CRLF,
    }[style]
    return headers(rng, lures) + lines + CRLF + reply_text(rng, lures)


def senders(rng: random.Random, lures: Lures) -> bytes:
    """From headers that name no one, several, a group, or carry NULs, controls or 100,000 characters."""
    sender = rng.choice(
        [
            b"x\x00y@example.org",
            b"a" * 100000 + b"@example.org",
            b"list: a@b.org, c@d.org;",
            b"a@b, c@d",
            b"",
            b"no-at-sign",
            b"<>",
            b"a@" + b"b" * 300,
            b'"\r\n"@x.org',
            b"(" * 5000 + b"a@b.org",
            b"=?utf-8?q?=00?= <a@b.org>",
            b"\xff@\xfe.org",
            b"a@b.org\x1b[2J",
            _pick(rng, lures.senders, "").encode() + b", mallory@example.org",
        ]
    )
    body = b"Content-Type: text/plain\r\n\r\n" + reply_text(rng, lures)
    if rng.random() < 0.2:
        return headers(rng, lures, sender) + b"From: second@example.org\r\n" + body
    return headers(rng, lures, sender) + body


def controls(rng: random.Random, lures: Lures) -> bytes:
    """A plausible reply with NULs and control characters strewn everywhere, headers too."""
    data = bytearray(plain(rng, lures))
    for _ in range(rng.randint(1, 40)):
        data.insert(rng.randrange(len(data) + 1), rng.choice(CONTROLS))
    return bytes(data)


def attachments(rng: random.Random, lures: Lures) -> bytes:
    """Attachments with odd names (paths, NULs, 10,000 characters, bad RFC 2231) and odd content."""
    name = rng.choice(
        [b"../../etc/passwd.nkp", b"a\x00b.nkp", b"x" * 10000 + b".nkp", b"=?utf-8?q?=00?=.nkp", b"", b".nkp"]
    )
    content = rng.choice([rng.randbytes(500), b"\x00" * 100, _pick(rng, lures.packets, BEGIN).encode()])
    media = rng.choice([b"application/x-nightkeep-packet", b"application/octet-stream", b"image/png", b"/"])
    disposition = rng.choice(
        [
            b'attachment; filename="' + name + b'"',
            b"attachment; filename*=x-bad''" + name,
            b"inline; filename*0*=" + name,
        ]
    )
    part = b"--a\r\nContent-Type: " + media + b"\r\nContent-Disposition: " + disposition + CRLF
    part += b"Content-Transfer-Encoding: base64\r\n\r\n" + base64.encodebytes(content).replace(b"\n", CRLF)
    text = b"--a\r\nContent-Type: text/plain\r\n\r\n" + reply_text(rng, lures)
    return (
        headers(rng, lures)
        + b'Content-Type: multipart/mixed; boundary="a"\r\n\r\n'
        + text
        + part
        + b"--a--\r\n"
    )


def fake_packets(rng: random.Random, lures: Lures) -> bytes:
    """Armour around garbage, a real (used) packet cut or with a byte changed, a thousand armours."""
    packet = _pick(rng, lures.packets, BEGIN + "\nQUJD\n" + END)
    style = rng.choice(["garbage", "cut", "flipped", "many", "nested", "no end"])
    if style == "garbage":
        text = f"{BEGIN}\n{base64.b64encode(rng.randbytes(300)).decode()}*AAAA\n{END}"
    elif style == "cut":
        text = packet[: rng.randrange(len(packet) + 1)]
    elif style == "flipped":
        at = rng.randrange(len(packet))
        text = packet[:at] + rng.choice("A/+=*\x00") + packet[at + 1 :]
    elif style == "many":
        text = packet * 1000
    elif style == "nested":
        text = BEGIN + "\n" + packet + "\n" + END
    else:
        text = BEGIN + "\n" + "QUJD\n" * 50000
    return plain(rng, lures, text.encode("utf-8", "surrogateescape").replace(b"\n", CRLF))


def fake_keys(rng: random.Random, lures: Lures) -> bytes:
    """Game-Key lines forged, for games that do not exist, with huge numbers, a thousand of them."""
    game, old = lures.game, _pick(rng, lures.key_lines, "Game-Key: x 1 y")
    line = rng.choice(
        [
            f"Game-Key: {game} 1 {'A' * 16}",
            f"Game-Key: 00000000-0000-0000-0000-000000000000 5 {'B' * 16}",
            f"Game-Key: {game} 9999999 {'C' * 16}",
            f"Game-Key: {game} 12345678901234567890 {'D' * 16}",
            f"Game-Key: {game} 1 " + "E" * 100000,
            old.replace("Game-Key", "GAME-KEY"),
            (old + "\n") * 1000,
        ]
    )
    return plain(
        rng, lures, rng.choice([b"1", b"status", b"history 99999999999"]) + b"\r\n> " + line.encode()
    )


def non_utf8(rng: random.Random, lures: Lures) -> bytes:
    """Bytes that are not UTF-8 in the body, in 8-bit headers, or a mail of random bytes."""
    style = rng.choice(["body", "headers", "random"])
    if style == "random":
        return rng.randbytes(rng.randint(10, 5000))
    if style == "headers":
        return b"From: \xe9\xe8 <\xff@example.org>\r\nSubject: \xc3\x28\r\n\r\n" + reply_text(rng, lures)
    return plain(rng, lures, bytes(rng.randrange(128, 256) for _ in range(500)))


def damaged_copy(rng: random.Random, lures: Lures) -> bytes:
    """A real mail of the game, already handled, cut short, with bytes changed, or a part repeated."""
    if not lures.old_mails:
        return plain(rng, lures)
    data = bytearray(rng.choice(lures.old_mails))
    style = rng.choice(["cut", "flip", "repeat"])
    if style == "cut":
        return bytes(data[: rng.randrange(len(data) + 1)])
    if style == "flip":
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    start = rng.randrange(len(data))
    return bytes(data[:start] + data[start:] * rng.randint(2, 50))


def odd_mime(rng: random.Random, lures: Lures) -> bytes:
    """multipart/digest, message/delivery-status with a thousand blocks, message/partial, garbage types."""
    style = rng.choice(["digest", "status", "partial", "external", "garbage"])
    if style == "digest":
        body = (
            b'Content-Type: multipart/digest; boundary="g"\r\n\r\n'
            + b"--g\r\n\r\nSubject: x\r\n\r\ny\r\n" * 300
        )
        return headers(rng, lures) + body + b"--g--\r\n"
    if style == "status":
        return (
            headers(rng, lures)
            + b"Content-Type: message/delivery-status\r\n\r\n"
            + b"Status: 5.0.0\r\n\r\n" * 1000
        )
    if style == "partial":
        return (
            headers(rng, lures)
            + b"Content-Type: message/partial; id=x; number=1; total=2\r\n\r\nSubject: a\r\n"
        )
    if style == "external":
        return headers(rng, lures) + b"Content-Type: message/external-body; access-type=x\r\n\r\n\r\n"
    kind = rng.choice([b"text/", b";;;;", b"/plain", b"multipart/", b"\x00/\x00", b"message/rfc822; x" * 500])
    return headers(rng, lures) + b"Content-Type: " + kind + CRLF + CRLF + reply_text(rng, lures)


def line_ends(rng: random.Random, lures: Lures) -> bytes:
    """A reply with CR only, LF only, or mixed line ends."""
    data = plain(rng, lures)
    return rng.choice([data.replace(CRLF, b"\r"), data.replace(CRLF, b"\n"), data.replace(CRLF, b"\n\r")])


def automatic(rng: random.Random, lures: Lures) -> bytes:
    """A bounce or an autoresponder's answer (Auto-Submitted), which nobody should answer."""
    extra = (
        b"Auto-Submitted: " + rng.choice([b"auto-replied", b"auto-generated", b"AUTO-REPLIED; x=y"]) + CRLF
    )
    return plain(rng, lures, b"I am on holiday.\r\n", extra)


Kind = Callable[[random.Random, Lures], bytes]
# Kinds by weight: each is drawn about weight / total of the time (`giant` only a few times in 10,000).
KINDS: dict[str, tuple[Kind, float]] = {
    "deep nesting": (deep_nesting, 8),
    "many parts": (many_parts, 4),
    "huge": (huge, 0.5),
    "giant": (giant, 0.02),
    "tiny": (tiny, 6),
    "boundaries": (boundaries, 8),
    "encodings": (encodings, 10),
    "broken headers": (broken_headers, 8),
    "senders": (senders, 10),
    "controls": (controls, 8),
    "attachments": (attachments, 8),
    "fake packets": (fake_packets, 6),
    "fake keys": (fake_keys, 6),
    "non-UTF-8": (non_utf8, 6),
    "damaged copies": (damaged_copy, 6),
    "odd MIME": (odd_mime, 6),
    "line ends": (line_ends, 4),
    "automatic": (automatic, 2),
}


def hostile_mail(rng: random.Random, lures: Lures) -> tuple[str, bytes]:
    """Returns one hostile mail drawn with the generator: its kind and its bytes."""
    names = list(KINDS)
    (name,) = rng.choices(names, weights=[KINDS[n][1] for n in names])
    return name, KINDS[name][0](rng, lures)
