"""The HTML part of a host's mail: the text part's words for a phone, the board picture and a plain link.

The text part is written to fit 60 columns, so a sentence that runs longer is wrapped onto indented lines.
A phone is often narrower than 60 columns of a readable font, and would break each of those lines once
more, so here such a sentence is joined back into one line that the phone wraps at its own width, under a
hanging indent. A line that is joined back carries on the sentence above it: it is indented, the line above
fits the text part's width, and it has no column gap and no list mark (`  1. roll`, `- Maid`). Every other
line stays a line. The page loads nothing from elsewhere: its styles are inline (many mail clients drop a
<style> element) and the picture comes by its Content-ID.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

TEXT_WIDTH = 60  # the text part's lines (projections.phone_lines.WIDTH)
# An indented line of words with single spaces between them, not a list item: the rest of a sentence.
CARRIES_ON = re.compile(r" +(?![-*] |\d+[.)] )\S+(?: \S+)*")
# What a line's wrapped part is indented past: its indent, and an event's number or a list mark.
MARK = re.compile(r" *(?:\d+ {2}|\d+[.)] |[-*] )?")
BODY_STYLE = "margin:0;padding:12px;background:#fbf8f1;color:#1b1b1b"
# A monospace font keeps the text's columns (the moves, the numbers of the events) lined up.
TEXT_STYLE = (
    "white-space:pre-wrap;overflow-wrap:break-word;margin:0 0 16px;"
    "font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:14px;line-height:1.45"
)
CHARACTER = 0.6  # the width of a monospace character, in em
LINK_STYLE = "margin:0 0 16px;font-family:Verdana,Arial,sans-serif;font-size:16px"
PICTURE_STYLE = "display:block;width:100%;max-width:720px;height:auto;border:0"


@dataclass(frozen=True)
class Picture:
    """A picture a mail shows inline in its HTML part: PNG bytes and the words that stand for it."""

    png: bytes
    alt: str


@dataclass(frozen=True)
class Link:
    """A plain link a mail ends with: the address and the words that say where it goes."""

    url: str
    words: str


def html_page(subject: str, text: str, link: Link | None, picture: tuple[str, str] | None) -> str:
    """Returns the HTML part: the text, its wrapped sentences joined back, then the link and the picture
    by its Content-ID (`picture`: cid and alt)."""
    # One block a line, with nothing between them: the text's white space is kept as it is written.
    lines = "".join(
        f'<div style="padding-left:{indent * CHARACTER:g}em;text-indent:-{indent * CHARACTER:g}em">'
        f"{escape(line) or '<br>'}</div>"
        for indent, line in sentences(text)
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(subject)}</title></head>",
        f'<body style="{BODY_STYLE}"><div style="max-width:640px;margin:0 auto">',
        f'<div style="{TEXT_STYLE}">{lines}</div>',
    ]
    if link is not None:
        parts.append(f'<p style="{LINK_STYLE}"><a href="{escape(link.url)}">{escape(link.words)}</a></p>')
    if picture is not None:
        cid, alt = picture
        parts.append(f'<img src="cid:{escape(cid)}" alt="{escape(alt)}" width="640" style="{PICTURE_STYLE}">')
    return "\n".join([*parts, "</div></body></html>"]) + "\n"


def sentences(text: str) -> list[tuple[int, str]]:
    """Returns the text's lines, each wrapped sentence joined back into one, with the hanging indent that
    lines its wrapped part up under its words (after an event's number or a list mark, or as the text part
    indents it)."""
    out: list[tuple[int, str]] = []
    above = ""  # the line above as the text part has it
    for line in text.rstrip().split("\n"):
        if out and above.strip() and len(above) <= TEXT_WIDTH and CARRIES_ON.fullmatch(line):
            indent, joined = out[-1]
            out[-1] = (max(indent, _indent(line)), f"{joined} {line.strip()}")
        else:
            marked = MARK.match(line)
            out.append((marked.end() if marked else 0, line))
        above = line
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
