"""Reading a mail-only player's reply as people write them: the command above the quote, whatever their
mail program put around it, and the Game-Key line however the program re-wrapped it.

Pure parsing: text in, values out; nothing here reads the store or knows the host. The command is read
from the first line that is not blank, not quoted (`>`) and not the mail program's attribution of the
quote ("On … wrote:", "Le … a écrit :", "Am … schrieb …:"), and it ends where the player's own text
does: at a quote, an attribution, a signature (`-- `), a phone footer ("Sent from my iPhone") or a
forwarded original (Outlook's "-----Original Message-----" or its From:/Sent: block). A reply with no
text part is read from its HTML part's text, its block quotes quoted.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from email.message import Message
from html.parser import HTMLParser
from typing import ClassVar
from uuid import UUID

from domain.errors import BadPacket


class UnreadableReply(BadPacket):
    """Raised when a reply starts a command it does not complete (a press with no text, a vacation with
    no length)."""


@dataclass(frozen=True)
class GameKey:
    """The Game-Key line a reply quotes: the game, the event its mail was written at, the one-time key."""

    game: UUID
    version: int
    key: str


@dataclass(frozen=True)
class Move:
    """Plays one of the seat's moves: its number in the mail's list, its id, or the start of its id."""

    typed: str  # what is matched: "5" for `5.`, `5)` or `#5`; an id or a prefix as written
    written: str  # the line as the player wrote it, for a refusal to quote


@dataclass(frozen=True)
class Ask:
    """Asks for something and changes nothing: `status`, `history [N]` or `help`."""

    what: str
    since: int = 0


@dataclass(frozen=True)
class Press:
    """Sends a message through the host: to every seat (`to` empty) or to the seats named, as written."""

    word: ClassVar[str] = "press"
    to: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Vacation:
    """Declares the seat absent for a while (`vacation 3d`, `12h`, `90m`)."""

    word: ClassVar[str] = "vacation"
    seconds: int


@dataclass(frozen=True)
class RollbackAnswer:
    """Answers the host's proposed rollback: `agree` or `refuse`."""

    agree: bool

    @property
    def word(self) -> str:
        """Returns the command as the player writes it."""
        return "agree" if self.agree else "refuse"


@dataclass(frozen=True)
class NoCommand:
    """A reply with no text of the player's own above (or below) the quoted mail."""


ClubCommand = Press | Vacation | RollbackAnswer
Command = Move | Ask | ClubCommand | NoCommand

# --- the Game-Key line -------------------------------------------------------------------------------------

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
# Between the parts of the line: spaces, or a line break a mail client put there with the quote marks it
# added. Each part is spelled exactly as the host wrote it: a capitalised id or a longer number is no key.
_GAP = r"(?:[ \t]*\n[ \t>]*|[ \t]+)"
GAME_KEY = re.compile(rf"Game-Key:{_GAP}?({_UUID}){_GAP}([0-9]{{1,7}}){_GAP}([A-Z2-7]{{16}})(?![A-Za-z0-9])")


def find_game_key(text: str) -> GameKey | None:
    """Returns the first Game-Key line of a reply, however re-wrapped or quoted, or None."""
    match = GAME_KEY.search(text.replace("\r", ""))
    if match is None:
        return None
    return GameKey(UUID(match.group(1)), int(match.group(2)), match.group(3))


# --- where the player's own text is -------------------------------------------------------------------------

_OPENER = re.compile(r"(?:On|Le|Am|El|Il|Op|Den)\s", re.I)
_ATTRIBUTION = re.compile(
    r"(?:\bwrote|\ba\s+écrit|\bschrieb\b.*|\bescribió|\bha\s+scritto|\bschreef|\bskrev)\s*:$", re.I
)
_ORIGINAL = re.compile(
    r"-{2,}\s*(?:Original Message|Original message|Forwarded message|Ursprüngliche Nachricht|"
    r"Message d'origine|Mensaje original|Messaggio originale)\s*-{2,}",
    re.I,
)
_FROM = re.compile(r"(?:From|Von|De|Da)\s*:\s", re.I)
_SENT = re.compile(r"(?:Sent|Date|Gesendet|Datum|Envoyé|Inviato|Enviado)\s*:", re.I)
_FOOTER = re.compile(
    r"(?:Sent from \S.*|Sent via \S.*|Get Outlook for \S.*|Envoyé de mon \S.*|Von meinem \S.* gesendet|"
    r"Enviado desde mi \S.*|Inviato da \S.*)",
    re.I,
)
_LONGEST_ATTRIBUTION = 400  # characters over at most three lines; longer is the player's own text


def _attribution_lines(lines: list[str], i: int) -> int:
    """Returns how many lines from `i` are the mail program's attribution of a quote (0: none); Gmail
    wraps a long one over two or three lines, the first of which starts "On …"."""
    for count in (1, 2, 3):
        joined = " ".join(line.strip() for line in lines[i : i + count])
        if len(joined) > _LONGEST_ATTRIBUTION or i + count > len(lines):
            return 0
        if _ATTRIBUTION.search(joined) and (count == 1 or _OPENER.match(joined)):
            return count
    return 0


def _ends_reply(lines: list[str], i: int) -> bool:
    """Tells whether the player's own text ends before line `i`: a signature, a phone footer, or the
    original below it (Outlook's marker or its From:/Sent: block)."""
    line = lines[i].strip()
    if lines[i].rstrip() == "--" or _ORIGINAL.fullmatch(line):
        return True
    if len(line) <= 80 and _FOOTER.fullmatch(line):
        return True
    return bool(_FROM.match(line)) and any(_SENT.match(n.strip()) for n in lines[i + 1 : i + 4])


def command_lines(text: str) -> list[str]:
    """Returns a reply's command: its first line of the player's own text, and the lines after it up
    to the first quote, attribution, signature, footer or original."""
    lines = text.replace("\r", "").split("\n")
    command: list[str] = []
    i = 0
    while i < len(lines) and not _ends_reply(lines, i):
        skipped = 1 if lines[i].lstrip().startswith(">") else _attribution_lines(lines, i)
        if skipped and command:
            break
        if not skipped and (command or lines[i].strip()):
            command.append(lines[i].strip() if not command else lines[i].rstrip())
        i += skipped or 1
    while command and not command[-1]:
        command.pop()
    return command


# --- the command --------------------------------------------------------------------------------------------

_NUMBER = re.compile(r"#?\s*([0-9]{1,7})\s*[.)]?")
_SPAN = re.compile(r"([0-9]{1,4})\s*(d|days?|h|hours?|m|mins?|minutes?)\.?", re.I)
_SPAN_UNITS = {"d": 86400, "h": 3600, "m": 60}
_PRESS = re.compile(r"press\b[ \t]*([^:\n]*):(.*)\Z", re.I | re.S)
_EVERYONE = "all"


def parse_command(text: str) -> Command:
    """Returns the command of a reply: a move, a question, a club command, or none."""
    lines = command_lines(text)
    if not lines:
        return NoCommand()
    first = lines[0]
    word, *rest = first.split(None, 1)  # any white space: a phone may put a no-break space there
    parse = _COMMANDS.get(word.casefold().rstrip(".!?,;:"))
    if parse is None:
        return _move(first)
    return parse(rest[0].strip() if rest else "", "\n".join(lines))


def _move(line: str) -> Move:
    number = _NUMBER.fullmatch(line)
    if number is not None:
        return Move(number.group(1), line)
    return Move(line.rstrip(".!"), line)


def _history(rest: str, _: str) -> Ask:
    since = rest.split()[0] if rest.split() else ""
    return Ask("history", int(since) if since.isascii() and since.isdecimal() and len(since) <= 7 else 0)


def span_seconds(text: str) -> int | None:
    """Returns the seconds of a length such as 3d, 12h or 90m (also `3 days`), or None."""
    match = _SPAN.fullmatch(text.strip())
    if match is None or int(match.group(1)) == 0:
        return None
    return int(match.group(1)) * _SPAN_UNITS[match.group(2)[0].lower()]


def _vacation(rest: str, _: str) -> Vacation:
    seconds = span_seconds(rest)
    if seconds is None:
        raise UnreadableReply(
            "`vacation` takes how long you are away; write for example `vacation 3d`, `vacation 12h` or "
            "`vacation 90m`"
        )
    return Vacation(seconds)


def _press(_: str, command: str) -> Press:
    match = _PRESS.match(command)
    example = "write for example `press all: TEXT` or `press Bo, Cy: TEXT`"
    if match is None:
        raise UnreadableReply(f"`press` needs who it is for and a colon before the text; {example}")
    names = tuple(name.strip() for name in match.group(1).split(","))
    text = match.group(2).strip()
    if not text or "" in names or (len(names) > 1 and _EVERYONE in {n.casefold() for n in names}):
        raise UnreadableReply(f"`press` needs seats (or `all`), a colon and a text; {example}")
    return Press(() if names[0].casefold() == _EVERYONE else names, text)


_COMMANDS: dict[str, Callable[[str, str], Command]] = {
    "status": lambda rest, command: Ask("status"),
    "help": lambda rest, command: Ask("help"),
    "history": _history,
    "press": _press,
    "vacation": _vacation,
    "agree": lambda rest, command: RollbackAnswer(True),
    "refuse": lambda rest, command: RollbackAnswer(False),
}


def shown(text: str) -> str:
    """Returns a player's text as a refusal quotes it: one line of at most 40 printable characters."""
    cut = text.strip()[:40]
    return "".join(c if c.isprintable() else "?" for c in cut) + ("…" if len(text.strip()) > 40 else "")


# --- the mail around the text -------------------------------------------------------------------------------

_BLOCKS = {"p", "div", "li", "tr", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "pre"}
_HIDDEN = {"head", "style", "script", "title", "template"}


class _HtmlText(HTMLParser):
    """Collects an HTML part's text line by line, each line with the depth of block quotes around it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, str]] = [(0, "")]
        self.quotes = 0
        self.hidden = 0

    def _break(self) -> None:
        self.lines.append((self.quotes, ""))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Starts a line at a block or a line break, and counts block quotes and hidden parts."""
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag == "blockquote":
            self.quotes += 1
            self._break()
        elif tag in _BLOCKS or tag == "br":
            self._break()

    def handle_endtag(self, tag: str) -> None:
        """Ends a block's line, and the block quotes and hidden parts it closes."""
        if tag in _HIDDEN:
            self.hidden = max(self.hidden - 1, 0)
        elif tag == "blockquote":
            self.quotes = max(self.quotes - 1, 0)
            self._break()
        elif tag in _BLOCKS:
            self._break()

    def handle_data(self, data: str) -> None:
        """Adds text to the current line, its white space collapsed as a browser shows it."""
        if self.hidden:
            return
        depth, line = self.lines[-1]
        if not line.strip():
            depth = self.quotes  # a line belongs to the quote its first text is in
        self.lines[-1] = (depth, line + re.sub(r"\s+", " ", data))


def html_text(html: str) -> str:
    """Returns the text of an HTML part, a line per block or line break, block quotes quoted (`> `)."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    lines = [("> " * depth + text.strip()).rstrip() for depth, text in parser.lines]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n") + "\n"


_OUTBOX_ID = re.compile(r"<outbox-([0-9]{1,18})\.(" + _UUID + r")@nightkeep>")
_MOST_ANSWERED = 50  # a References header names each mail of a thread; the host's are among the last


def answered_mails(message: Message) -> list[tuple[int, UUID]]:
    """Returns the host's mails a reply names in its In-Reply-To and References: (outbox row, game)."""
    try:
        threads = " ".join(str(v) for h in ("In-Reply-To", "References") for v in message.get_all(h, []))
    except Exception:  # noqa: BLE001  (the email package raises several kinds on a stranger's broken header)
        return []
    found = _OUTBOX_ID.findall(threads)[-_MOST_ANSWERED:]
    return [(int(row), UUID(game)) for row, game in found]


def html_part(message: Message) -> str:
    """Returns the decoded text of a message's first HTML part ("" without one)."""
    part = next((p for p in message.walk() if p.get_content_type() == "text/html"), None)
    if part is None:
        return ""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    try:
        return payload.decode(part.get_content_charset() or "utf-8", errors="replace")
    except LookupError:  # a charset name Python does not know
        return payload.decode("utf-8", errors="replace")
