"""What the talisman picture's boards share: a space drawn as a labelled cell, a character as a labelled
token in its seat mark, text wrapped to a width, and blocks stacked down the page.

A cell holds its short number (`O4`: the region's letter and the space's index) and name, a tag (where
a crossing leads, a Keep tile), the tokens of who stands there and how much lies face up; the full
list of what lies face up is printed under the board, so no cell has to hold card names.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

import drawsvg as draw

from projections.pictures.kit import INK, MIN_FONT, PAPER, SeatMark, label, seat_mark

SIZE = MIN_FONT  # every text is at the smallest readable size, except headings
LINE = SIZE * 1.25
CHAR_EM = 0.56  # a generous average width of a DejaVu Sans character, in ems
CHAR = SIZE * CHAR_EM
PAD = 6
TOKEN_H = 30
TOKEN_W = 38
NAME_LINES = 3  # the number and name, and the tag (a crossing, a tile) in the last line when given
# Each part of the board has its own light tint; the cell's letter and number say the same in text.
TINTS = {
    "outer": "#eef3e2",
    "middle": "#e3edf5",
    "inner": "#f6e6e0",
    "crown": "#f7edc2",
    "dungeon": "#e9e4ef",
    "keep": "#efe3e6",
}
_DARK_FILLS = {"#0072B2", "#D55E00", "#009E73", "#CC79A7"}


@dataclass(frozen=True, slots=True)
class Token:
    """A character's piece: its short tag (two letters of its player's name) and its seat's mark."""

    tag: str
    mark: SeatMark
    player: str = ""  # the player's whole name, for a screen reader
    out: bool = False  # drawn hollow: the character is out of the game


@dataclass(slots=True)
class Block:
    """A part of the page: its drawn elements (at y = 0) and its height."""

    height: float
    parts: list[draw.DrawingElement] = field(default_factory=list)

    def add(self, *elements: draw.DrawingElement) -> None:
        """Adds elements to the block."""
        self.parts.extend(elements)


def wrap(text: str, width: float, size: float = SIZE, bold: bool = False) -> list[str]:
    """Returns text broken into lines no wider than `width` units at font `size` (`bold` is wider)."""
    em = size * CHAR_EM * (1.2 if bold else 1.0)
    return textwrap.wrap(text, max(int(width // em), 4)) or [""]


def fit_lines(text: str, width: float, lines: int) -> list[str]:
    """Returns text in at most `lines` lines of `width`, the last one cut short with `…` if need be."""
    found = wrap(text, width)
    if len(found) <= lines:
        return found
    room = max(int(width // CHAR) - 1, 1)
    return [*found[: lines - 1], " ".join(found[lines - 1 :])[:room].rstrip() + "…"]


def text_lines(lines: Sequence[str], x: float, y: float, **kwargs: object) -> list[draw.DrawingElement]:
    """Returns left-aligned lines of text, the first baseline at y."""
    return [
        label(line, x, y + n * LINE, SIZE, text_anchor="start", **kwargs)
        for n, line in enumerate(lines)
        if line
    ]


def text_block(lines: Sequence[str], x: float = 16, gap: float = 4) -> Block:
    """Returns a block of left-aligned lines."""
    block = Block(LINE * len(lines) + gap * 2)
    block.add(*text_lines(lines, x, gap + SIZE))
    return block


def short_tags(order: Sequence[str]) -> dict[str, str]:
    """Returns each seat's token tag: the first two letters of its name, or its seat letter and number
    when two seats would share them."""
    first = [name[:2] for name in order]
    return {
        name: tag if first.count(tag) == 1 else f"{seat_mark(i).letter}{i + 1}"
        for i, (name, tag) in enumerate(zip(order, first, strict=True))
    }


def token(piece: Token, x: float, y: float) -> draw.Group:
    """Returns a token whose top-left corner is (x, y): its seat's fill and outline dash, and its tag."""
    mark = piece.mark
    fill = PAPER if piece.out else mark.fill
    ink = "#ffffff" if fill in _DARK_FILLS else INK
    group = draw.Group()
    outline = {"stroke_dasharray": mark.dash} if mark.dash else {}
    group.append(
        draw.Rectangle(x, y, TOKEN_W, TOKEN_H, rx=8, fill=fill, stroke=INK, stroke_width=2.5, **outline)
    )
    group.append(label(piece.tag, x + TOKEN_W / 2, y + TOKEN_H - 8, SIZE, fill=ink, font_weight="bold"))
    return group


def tokens_in(pieces: Sequence[Token], x: float, y: float, width: float) -> list[draw.DrawingElement]:
    """Returns tokens laid in rows from (x, y) across `width`."""
    per_row = max(int((width + 4) // (TOKEN_W + 4)), 1)
    return [
        token(piece, x + (n % per_row) * (TOKEN_W + 4), y + (n // per_row) * (TOKEN_H + 4))
        for n, piece in enumerate(pieces)
    ]


def token_rows(count: int, width: float) -> int:
    """Returns how many rows `count` tokens take across `width`."""
    per_row = max(int((width + 4) // (TOKEN_W + 4)), 1)
    return -(-count // per_row)


@dataclass(frozen=True, slots=True)
class Cell:
    """What a space's cell shows."""

    number: str  # `O4`
    name: str
    tint: str
    tag: str = ""  # a crossing, a Keep tile
    pieces: tuple[Token, ...] = ()
    cards: int = 0  # how many cards lie face up there
    gold: int = 0


def cell_height(width: float, most_pieces: int, name_lines: int = NAME_LINES) -> float:
    """Returns the height of cells `width` wide holding up to `most_pieces` tokens under `name_lines`
    lines of number, name and tag."""
    rows = max(token_rows(most_pieces, width - 2 * PAD), 1)
    return PAD + LINE * name_lines + 4 + rows * (TOKEN_H + 4) + LINE + PAD


def draw_cell(
    cell: Cell, x: float, y: float, width: float, height: float, name_lines: int = NAME_LINES
) -> draw.Raw:
    """Returns a space's cell: its box, number and name (in up to `name_lines` lines with its tag), tag,
    tokens and what lies there; the group's label says it all in words, for a screen reader.

    A cell is drawn once per look (what it shows and where) and kept as its SVG text: most cells look
    the same from one event to the next, and a web replay draws the board after every event."""
    return draw.Raw(_cell_svg(cell, x, y, width, height, name_lines))


@functools.lru_cache(maxsize=8192)
def _cell_svg(cell: Cell, x: float, y: float, width: float, height: float, name_lines: int) -> str:
    page = draw.Drawing(1, 1)
    page.append(_cell_group(cell, x, y, width, height, name_lines))
    text = str(page.as_svg(header=""))
    return text[text.index("</defs>\n") + len("</defs>\n") : text.rindex("\n</svg>")]


def _cell_group(cell: Cell, x: float, y: float, width: float, height: float, name_lines: int) -> draw.Group:
    inner = width - 2 * PAD
    parts: list[draw.DrawingElement] = [
        draw.Rectangle(x, y, width, height, fill=cell.tint, stroke=INK, stroke_width=1.5, rx=4)
    ]
    title = fit_lines(f"{cell.number} {cell.name}", inner, name_lines - bool(cell.tag))
    parts += text_lines(title, x + PAD, y + PAD + SIZE)
    if cell.tag:
        tag_y = y + PAD + SIZE + LINE * len(title)
        parts += text_lines(fit_lines(cell.tag, inner, 1), x + PAD, tag_y, font_style="italic")
    parts += tokens_in(cell.pieces, x + PAD, y + PAD + LINE * name_lines + 4, inner)
    parts += _lying(cell, x, y + height - PAD - 4, width)
    group = draw.Group(aria_label=cell_words(cell))
    for part in parts:
        group.append(part)
    return group


def _lying(cell: Cell, x: float, base: float, width: float) -> list[draw.DrawingElement]:
    # The card count at the bottom left, the gold at the bottom right; when both do not fit on the
    # line, the gold goes up a line, unless the tokens fill that corner: then the count is cut to `Nc`.
    cards = f"{cell.cards} card{'s' if cell.cards != 1 else ''}" if cell.cards else ""
    gold = f"{cell.gold}g" if cell.gold else ""
    gold_y = base
    if cards and gold and (len(cards) + len(gold) + 1) * CHAR > width - 2 * PAD:
        per_row = max(int((width - 2 * PAD + 4) // (TOKEN_W + 4)), 1)
        if len(cell.pieces) % per_row or not cell.pieces:
            gold_y = base - LINE
        else:
            cards = f"{cell.cards}c"
    parts = text_lines([cards], x + PAD, base) if cards else []
    if gold:
        parts.append(label(gold, x + width - PAD, gold_y, SIZE, text_anchor="end", font_weight="bold"))
    return parts


def cell_words(cell: Cell) -> str:
    """Returns what a cell shows in words: `O4 Sentinel (to M15): Ann, Bo; 2 cards, 3 gold`."""
    words = f"{cell.number} {cell.name}" + (f" ({cell.tag})" if cell.tag else "")
    who = ", ".join(piece.player or piece.tag for piece in cell.pieces)
    lying = [f"{cell.cards} card{'s' if cell.cards != 1 else ''}"] * bool(cell.cards)
    lying += [f"{cell.gold} gold"] * bool(cell.gold)
    return words + (f": {who}" if who else "") + (f"; {', '.join(lying)}" if lying else "")


def arrow(x1: float, y1: float, x2: float, y2: float) -> draw.Group:
    """Returns a thick arrow from (x1, y1) to (x2, y2), its head drawn as a triangle (no marker ids)."""
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - ux * 14, y2 - uy * 14
    group = draw.Group()
    group.append(draw.Line(x1, y1, bx, by, stroke=INK, stroke_width=4))
    group.append(draw.Lines(x2, y2, bx - uy * 8, by + ux * 8, bx + uy * 8, by - ux * 8, close=True, fill=INK))
    return group
