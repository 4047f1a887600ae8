"""The parts the Dungeon and Keep pictures share: wrapped text, labelled pieces, space cells on a grid,
arrows along the path and the players' table.

Every size is in page units and every text is at least MIN_FONT, so a page stays readable at phone width;
what does not fit a cell's width wraps onto more lines and the cell (and so the page) grows taller.
Text is measured with DejaVu Sans's own advance widths (`_expansion_text`), so nothing here reads a font.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import drawsvg as draw

from projections.pictures._expansion_text import text_width, wrap_to
from projections.pictures.kit import INK, MAX_WIDTH, MIN_FONT, PAPER, label, new_drawing, seat_mark

LINE = MIN_FONT * 1.3  # the height of one line of MIN_FONT text
MARGIN = 16
GAP = 18  # between two cells: room for the arrow along the path
PAD = 8  # inside a cell
TOKEN_H = 32
TOKEN_GAP = 6
HEAD_FONT = 28
MUTED = "#5a5a5a"


def width_of(text: str, bold: bool = False) -> float:
    """Returns the width of a line of MIN_FONT text."""
    return text_width(text, MIN_FONT, bold)


def wrapped(text: str, width: float, bold: bool = False) -> list[str]:
    """Returns MIN_FONT text wrapped to `width`."""
    return wrap_to(text, width, MIN_FONT, bold)


def short_names(names: Sequence[str]) -> dict[str, str]:
    """Returns each player's shortest unique beginning (one to three letters) to print on their piece."""
    short: dict[str, str] = {}
    for name in names:
        others = [other for other in names if other != name]
        size = next((n for n in range(1, 4) if not any(o.startswith(name[:n]) for o in others)), 3)
        short[name] = name[:size]
    return short


def _is_dark(fill: str) -> bool:
    red, green, blue = (int(fill[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue < 0.4


@dataclass(frozen=True)
class Piece:
    """A character's piece: the player's name, their seat (for the mark) and the text printed on it."""

    player: str
    seat: int
    text: str


def token_width(piece: Piece) -> float:
    """Returns how wide a piece is drawn."""
    return max(TOKEN_H, width_of(piece.text, bold=True) + 14)


def draw_token(page: draw.Group, piece: Piece, x: float, y: float) -> None:
    """Draws a piece with its top-left at (x, y): its seat's fill and dash, the player's initials in text
    and their full name as its tooltip (so colour is never the only cue)."""
    mark = seat_mark(piece.seat)
    group = draw.Group()
    group.append_title(piece.player)
    width = token_width(piece)
    group.append(
        draw.Rectangle(
            x,
            y,
            width,
            TOKEN_H,
            rx=TOKEN_H / 2,
            fill=mark.fill,
            stroke=INK,
            stroke_width=2.5,
            stroke_dasharray=mark.dash or "none",
        )
    )
    colour = PAPER if _is_dark(mark.fill) else INK
    group.append(label(piece.text, x + width / 2, y + TOKEN_H / 2 + 7, font_weight="bold", fill=colour))
    page.append(group)


@dataclass
class Cell:
    """One space as drawn: its title lines, notes (kind, tile…), the pieces on it and what lies there."""

    title: list[str]
    notes: list[str] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    lying: list[str] = field(default_factory=list)
    fill: str = "#ffffff"
    tooltip: str = ""


def _piece_rows(pieces: Sequence[Piece], width: float) -> list[list[Piece]]:
    rows: list[list[Piece]] = []
    used = width
    for piece in pieces:
        size = token_width(piece)
        if not rows or used + TOKEN_GAP + size > width:
            rows.append([])
            used = -TOKEN_GAP
        rows[-1].append(piece)
        used += TOKEN_GAP + size
    return rows


CARD_FILL = "#f1ead8"
CARD_PAD = 4  # inside a face-up card's box


def _cell_lines(cell: Cell, width: float) -> tuple[list[str], list[str], list[list[str]]]:
    inner = width - 2 * PAD
    title = [line for text in cell.title for line in wrapped(text, inner, bold=True)]
    notes = [line for text in cell.notes for line in wrapped(text, inner)]
    return title, notes, [wrapped(text, inner - 2 * CARD_PAD) for text in cell.lying]


def _card_height(lines: Sequence[str]) -> float:
    return LINE * len(lines) + CARD_PAD + 4


def cell_height(cell: Cell, width: float) -> float:
    """Returns the height a cell needs at this width."""
    title, notes, lying = _cell_lines(cell, width)
    rows = _piece_rows(cell.pieces, width - 2 * PAD)
    cards = sum(_card_height(lines) for lines in lying)
    return 2 * PAD + LINE * (len(title) + len(notes)) + (TOKEN_H + TOKEN_GAP) * len(rows) + cards + 4


def draw_cell(page: draw.Group, cell: Cell, x: float, y: float, width: float, height: float) -> None:
    """Draws a space: a box, its title in bold, notes, its pieces, then each thing lying face up on it in
    a card's box of its own (so a name wrapped onto two lines still reads as one card)."""
    title, notes, lying = _cell_lines(cell, width)
    group = draw.Group()
    if cell.tooltip:
        group.append_title(cell.tooltip)
    group.append(draw.Rectangle(x, y, width, height, rx=6, fill=cell.fill, stroke=INK, stroke_width=1.5))
    at = y + PAD
    for line in title:
        at += LINE
        group.append(label(line, x + PAD, at - 6, text_anchor="start", font_weight="bold"))
    for line in notes:
        at += LINE
        group.append(label(line, x + PAD, at - 6, text_anchor="start", fill=MUTED, font_style="italic"))
    for row in _piece_rows(cell.pieces, width - 2 * PAD):
        left = x + PAD
        for piece in row:
            draw_token(group, piece, left, at + TOKEN_GAP / 2)
            left += token_width(piece) + TOKEN_GAP
        at += TOKEN_H + TOKEN_GAP
    for lines in lying:
        box = _card_height(lines) - 4
        card = draw.Rectangle(
            x + PAD - 2, at + 2, width - 2 * PAD + 4, box, rx=3, fill=CARD_FILL, stroke=MUTED
        )
        group.append(card)
        for line in lines:
            at += LINE
            group.append(label(line, x + PAD + CARD_PAD - 2, at - 3, text_anchor="start"))
        at += CARD_PAD + 4
    page.append(group)


@dataclass(frozen=True)
class Box:
    """Where a cell was drawn."""

    x: float
    y: float
    width: float
    height: float


def draw_grid(
    page: draw.Group, cells: Sequence[Cell], places: Sequence[tuple[int, int]], columns: int, top: float
) -> tuple[list[Box], float]:
    """Draws cells at their (row, column) places, each row as tall as its fullest cell; returns each
    cell's box and the bottom of the grid."""
    width = (MAX_WIDTH - 2 * MARGIN - (columns - 1) * GAP) / columns
    rows = max((row for row, _ in places), default=0) + 1
    heights = [0.0] * rows
    for cell, (row, _) in zip(cells, places, strict=True):
        heights[row] = max(heights[row], cell_height(cell, width))
    tops = [top + sum(heights[:row]) + GAP * row for row in range(rows)]
    boxes = []
    for cell, (row, column) in zip(cells, places, strict=True):
        box = Box(MARGIN + column * (width + GAP), tops[row], width, heights[row])
        draw_cell(page, cell, box.x, box.y, box.width, box.height)
        boxes.append(box)
    return boxes, top + sum(heights) + GAP * (rows - 1)


def draw_step(page: draw.Group, start: Box, end: Box) -> None:
    """Draws an arrowhead in the gap between two neighbouring cells, pointing from `start` to `end`."""
    if abs(start.y - end.y) < 1:  # side by side
        sign = 1 if end.x > start.x else -1
        gap_x = (start.x + start.width if sign > 0 else start.x) + sign * GAP / 2
        mid_y = start.y + min(start.height, end.height) / 2
        points = [gap_x + sign * 7, mid_y, gap_x - sign * 6, mid_y - 9, gap_x - sign * 6, mid_y + 9]
    elif abs(start.x - end.x) < 1:  # one above the other
        sign = 1 if end.y > start.y else -1
        gap_y = (start.y + start.height if sign > 0 else start.y) + sign * GAP / 2
        mid_x = start.x + start.width / 2
        points = [mid_x, gap_y + sign * 7, mid_x - 9, gap_y - sign * 6, mid_x + 9, gap_y - sign * 6]
    else:
        return  # not neighbours: the numbers say the order
    page.append(draw.Lines(*points, close=True, fill=INK))


def draw_lines(page: draw.Group, lines: Sequence[str], top: float, size: float = MIN_FONT) -> float:
    """Draws lines of text from the left margin, wrapped to the page; returns the bottom."""
    at = top
    for text in lines:
        for line in wrap_to(text, MAX_WIDTH - 2 * MARGIN, size):
            at += size * 1.3
            page.append(label(line, MARGIN, at - 6, size, text_anchor="start"))
    return at


def draw_header(page: draw.Group, title: str, lines: Sequence[str]) -> float:
    """Draws the picture's heading (its title, whose turn, the winner or why it stopped); returns the
    bottom."""
    page.append(label(title, MARGIN, MARGIN + HEAD_FONT, HEAD_FONT, text_anchor="start", font_weight="bold"))
    return draw_lines(page, lines, MARGIN + HEAD_FONT + 4) + 10


def where_everyone_is(board: str, spaces: int, state: Any, space_name: Callable[[int], str]) -> str:
    """Returns a picture's description for screen readers: the board's size, then where each character
    still in play stands (`space_name` names a space by its number)."""
    where = [
        f"{name} on {sheet['space']} {space_name(sheet['space'])}"
        for name in state["order"]
        if (sheet := state["players"].get(name)) is not None and sheet["status"] != "out"
    ]
    return f"{board}'s {spaces} spaces" + (f"; {', '.join(where)}." if where else ".")


def finished_page(body: draw.Group, bottom: float, title: str, description: str) -> draw.Drawing:
    """Returns the page holding a picture's drawn body, as tall as the body is."""
    page = new_drawing(MAX_WIDTH, bottom + MARGIN, title, description)
    page.append(body)
    return page


@dataclass(frozen=True)
class Table:
    """A table of players: its headers and, per row, the player's piece and the cells' texts."""

    headers: list[str]
    rows: list[tuple[Piece | None, list[str]]]


def _column_widths(table: Table, room: float) -> list[float]:
    texts = [table.headers, *(cells for _, cells in table.rows)]
    natural = [
        max(width_of(table.headers[i], bold=True), *(width_of(row[i]) for row in texts)) + PAD * 2
        for i in range(len(table.headers))
    ]
    narrowest = [
        max(width_of(word) for row in texts for word in (row[i].split() or [""])) + PAD * 2
        for i in range(len(table.headers))
    ]
    widths = list(natural)
    while sum(widths) > room:
        # Narrow the widest column that may still wrap; if none may, squeeze them all (words break).
        wrappable = [i for i in range(len(widths)) if widths[i] - 10 >= narrowest[i]]
        pick = max(wrappable or range(len(widths)), key=lambda i: widths[i])
        widths[pick] -= 10
    return widths


def draw_table(page: draw.Group, table: Table, top: float) -> float:
    """Draws the table under `top` (a piece before each row), wrapping cells that do not fit; returns the
    bottom."""
    piece_column = max((token_width(p) for p, _ in table.rows if p), default=0) + 10
    widths = _column_widths(table, MAX_WIDTH - 2 * MARGIN - piece_column)
    lefts = [MARGIN + piece_column + sum(widths[:i]) for i in range(len(widths))]
    at = top
    for number, (piece, cells) in enumerate([(None, table.headers), *table.rows]):
        columns = [
            wrapped(text, width - PAD * 2, number == 0) for text, width in zip(cells, widths, strict=True)
        ]
        height = max(len(lines) for lines in columns) * LINE + 10
        if number % 2 == 0 and number:
            page.append(draw.Rectangle(MARGIN, at, MAX_WIDTH - 2 * MARGIN, height, fill="#efe9dc"))
        if piece is not None:
            draw_token(page, piece, MARGIN, at + (height - TOKEN_H) / 2)
        weight = "bold" if number == 0 else "normal"
        for left, lines in zip(lefts, columns, strict=True):
            for line_number, line in enumerate(lines):
                y = at + LINE * (line_number + 1)
                page.append(label(line, left + PAD, y, text_anchor="start", font_weight=weight))
        at += height
        if number == 0:
            page.append(draw.Line(MARGIN, at, MAX_WIDTH - MARGIN, at, stroke=INK, stroke_width=1.5))
    return at
