"""What every board picture shares: the page size, the seat marks, labelled pieces and PNG output.

A picture is an SVG drawn with drawsvg. It must stay readable on a phone and must not lean on colour
alone, so each seat has a colour, a letter and a pattern-free outline style, and every piece carries its
player's name (or initial) as text. `MAX_WIDTH` and `MIN_FONT` bound the page: shown 390 CSS pixels
wide, the smallest text is still `MIN_FONT * 390 / MAX_WIDTH` ≥ 8 px. `check_readable` holds a picture
to that, and the tests call it on every ruleset's pictures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import drawsvg as draw

from domain.errors import MissingLibrary

# The widest page (user units); pictures may be narrower. Taller pages scroll on a phone; wider ones shrink.
MAX_WIDTH = 960
# The smallest font size (user units) of any text in a picture.
MIN_FONT = 20
# Shown this many CSS pixels wide, a picture's smallest text must be at least MIN_PIXELS tall.
PHONE_WIDTH = 390
MIN_PIXELS = 8.0
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#1b1b1b"
PAPER = "#fbf8f1"


@dataclass(frozen=True, slots=True)
class SeatMark:
    """How a seat is drawn: a fill colour, an outline dash (so two seats differ without colour) and a
    letter; every piece also carries its player's name or initial as text."""

    fill: str
    dash: str  # an SVG stroke-dasharray ("" = solid)
    letter: str


# Colour-blind-safe fills (Okabe and Ito), each with its own outline dash.
SEAT_MARKS = (
    SeatMark("#E69F00", "", "A"),
    SeatMark("#56B4E9", "6,3", "B"),
    SeatMark("#009E73", "2,2", "C"),
    SeatMark("#F0E442", "8,2,2,2", "D"),
    SeatMark("#0072B2", "10,4", "E"),
    SeatMark("#D55E00", "4,4", "F"),
    SeatMark("#CC79A7", "1,3", "G"),
    SeatMark("#999999", "12,2,4,2", "H"),
)


def seat_mark(index: int) -> SeatMark:
    """Returns the mark of the seat at `index` (seat order), repeating past eight seats."""
    return SEAT_MARKS[index % len(SEAT_MARKS)]


def new_drawing(width: float, height: float, title: str, description: str = "") -> draw.Drawing:
    """Returns an empty page with a title and description for screen readers, on paper colour."""
    if width > MAX_WIDTH:
        raise ValueError(f"a picture is at most {MAX_WIDTH} units wide, not {width}")
    page = draw.Drawing(width, height, font_family=FONT, role="img", aria_label=title)
    page.append_title(title)
    if description:
        page.append(draw.Raw(f"<desc>{escape(description)}</desc>"))
    page.append(draw.Rectangle(0, 0, width, height, fill=PAPER))
    return page


def label(text: str, x: float, y: float, size: float = MIN_FONT, **kwargs: Any) -> draw.Text:
    """Returns a line of text (never smaller than MIN_FONT), centred on x by default."""
    kwargs.setdefault("text_anchor", "middle")
    kwargs.setdefault("fill", INK)
    return draw.Text(text, max(size, MIN_FONT), x, y, **kwargs)


def escape(text: str) -> str:
    """Escapes text for SVG markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


# What to install when a PNG cannot be drawn: the system library the Python package cairocffi loads.
CAIRO_MISSING = (
    "a PNG picture needs the system's cairo library, which Python's cairocffi (under cairosvg) could not "
    "load: install it (Debian and Ubuntu: apt install libcairo2; Fedora: dnf install cairo; macOS: "
    "brew install cairo), or draw an SVG instead (--svg)"
)


def to_png(svg: str, scale: float = 1.0) -> bytes:
    """Returns a PNG of an SVG picture, rendered by cairosvg (imported only when a PNG is asked for)."""
    try:
        import cairosvg
    except OSError:  # cairocffi found no system cairo: its loader says so in a line per file name tried
        raise MissingLibrary(CAIRO_MISSING) from None

    return bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale))


_WIDTH = re.compile(r'<svg[^>]*\bviewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+"')
_FONT_SIZE = re.compile(r'font-size="([\d.]+)"')


def check_readable(svg: str) -> list[str]:
    """Returns what keeps a picture from being readable at phone size (empty when it is): a page wider
    than MAX_WIDTH, or text that would be under MIN_PIXELS tall at PHONE_WIDTH CSS pixels wide."""
    found = _WIDTH.search(svg)
    if found is None:
        return ["the picture has no viewBox"]
    width = float(found.group(1))
    problems = [f"the page is {width:g} units wide (at most {MAX_WIDTH})"] if width > MAX_WIDTH else []
    for size in {float(s) for s in _FONT_SIZE.findall(svg)}:
        if size * PHONE_WIDTH / width < MIN_PIXELS:
            problems.append(f"text of size {size:g} is under {MIN_PIXELS:g} px at phone width")
    if "<title>" not in svg:
        problems.append("the picture has no title")
    return problems
