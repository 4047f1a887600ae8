"""The talisman picture's words around the boards: the heading (whose turn, the winner, stopped), the
decks, the key to the numbers, what lies face up on each space, and each character's sheet as a table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import drawsvg as draw

from domain.rulesets.talisman.character import craft_bonus, strength_bonus
from domain.rulesets.talisman.main.state import ADVENTURE, PURCHASE, SPELLS, TALISMANS, MainSheet, MainState
from domain.rulesets.talisman.shapes import discard_pile
from projections.pictures.kit import INK, MAX_WIDTH, label
from projections.pictures.talisman_board import number, region_letter
from projections.pictures.talisman_cells import (
    CHAR,
    LINE,
    SIZE,
    Block,
    Token,
    text_block,
    text_lines,
    token,
    wrap,
)
from projections.talisman_expansion_view import boards_in_play, lying, title_words
from projections.talisman_names import items, name_of
from projections.talisman_view import TITLE, face_up, head_line, requested_name, status_words

TEXT_WIDTH = MAX_WIDTH - 32
TITLE_SIZE = 28
Named = Callable[[str, int], str]  # (board, space) → the space's name


def heading(state: MainState, stopped: bool) -> Block:
    """Returns the title and the game's standing: whose turn, the choice it waits on, the winner."""
    title = wrap(TITLE + title_words(state), TEXT_WIDTH, TITLE_SIZE, bold=True)
    status = wrap(head_line(state, stopped), TEXT_WIDTH)[:3]
    block = Block(len(title) * TITLE_SIZE * 1.25 + len(status) * LINE + 20)
    for n, line in enumerate(title):
        block.add(
            label(line, 16, 12 + TITLE_SIZE * (n + 1), TITLE_SIZE, text_anchor="start", font_weight="bold")
        )
    block.add(*text_lines(status, 16, 12 + TITLE_SIZE * 1.25 * len(title) + SIZE + 4))
    return block


def key_block(state: MainState, boards: Mapping[str, str]) -> Block:
    """Returns the key to the cells' numbers (`O` Outer Region…) and the decks' counts."""
    letters = ", ".join(f"{region_letter(board)} {name}" for board, name in boards.items())
    piles = state["piles"]

    def count(name: str) -> int:
        return len(piles.get(name, []))

    decks = (
        f"Decks: Adventure {count(ADVENTURE)} ({count(discard_pile(ADVENTURE))} discarded), Purchase "
        f"{count(PURCHASE)}, Spells {count(SPELLS)}, Talismans {count(TALISMANS)}."
    )
    words = (
        f"Spaces are numbered by board: {letters}. A tag 'to …' is a crossing or a way in; "
        "'2 cards' (or '2c') and '3g' count the cards and gold lying face up there, named under the boards."
    )
    return text_block([*wrap(words, TEXT_WIDTH), *wrap(decks, TEXT_WIDTH)])


def face_up_block(state: MainState, boards: Sequence[str], named: Named) -> Block:
    """Returns what lies face up on every space of `boards`, in their order, by its number (`O6 Chapel:
    Sword, 2 gold`)."""
    extra = set(boards_in_play(state))
    lines: list[str] = []
    for board in boards:
        for index in range(len(state["cards"].get(board, []))):
            things = lying(state, board, index) if board in extra else face_up(state, board, index)
            if things:
                text = f"{number(board, index)} {named(board, index)}: {', '.join(things)}."
                lines += wrap(text, TEXT_WIDTH)
    return text_block(["Face up:" if lines else "Nothing lies face up on the board.", *lines])


@dataclass(frozen=True, slots=True)
class Column:
    """A column of the sheets' table: its heading, width and how a sheet fills it."""

    head: str
    width: float
    value: Callable[[MainSheet], str]


def _columns(bonus: Callable[[MainSheet], tuple[int, int]]) -> list[Column]:
    def plus(base: int, extra: int) -> str:
        return f"{base}+{extra}" if extra else str(base)

    return [
        Column("Str", 66, lambda s: plus(s["strength"], bonus(s)[0])),
        Column("Craft", 66, lambda s: plus(s["craft"], bonus(s)[1])),
        Column("Lives", 66, lambda s: str(s["lives"])),
        Column("Gold", 58, lambda s: str(s["gold"])),
        Column("Align", 88, lambda s: s["alignment"]),
        Column("Obj", 48, lambda s: str(len(s["objects"]))),
        Column("Fol", 48, lambda s: str(len(s["followers"]))),
        Column("Spl", 48, lambda s: str(len(s["spells"]))),
        Column("Tal", 48, lambda s: str(len(s["talismans"]))),
        Column("Tro", 48, lambda s: str(len(s["trophies"]))),
    ]


_NAME_X, _CHAR_X, _STATS_X = 64.0, 160.0, 330.0


def sheets_block(state: MainState, tokens: Mapping[str, Token], named: Named) -> Block:
    """Returns each character's sheet as a table row (stats the state holds, counts of what it carries)
    and, under it, where it stands, its standing and its quest."""
    held = items(expansions=bool(boards_in_play(state)))
    columns = _columns(lambda s: (strength_bonus(s, held), craft_bonus(s, held)))
    row_height = LINE * 2 + 12
    block = Block(LINE + 12 + row_height * len(state["order"]) + LINE * 3)
    heads = [("Player", _NAME_X), ("Character", _CHAR_X)]
    x = _STATS_X
    for column in columns:
        heads.append((column.head, x))
        x += column.width
    for head, hx in heads:
        block.add(label(head, hx, LINE, text_anchor="start", font_weight="bold"))
    for n, name in enumerate(state["order"]):
        top = LINE + 12 + n * row_height
        if n % 2 == 0:
            block.add(_shade(top, row_height))
        row = draw.Group(aria_label=f"{name}'s sheet")
        for part in _sheet_row(state, name, tokens[name], columns, named, top):
            row.append(part)
        block.add(row)
    key = "Str and Craft: on the sheet + from what it carries. Obj objects, Fol followers, Spl spells, "
    key += "Tal Talismans, Tro trophies; a hollow token: out of the game."
    block.add(*text_lines(wrap(key, TEXT_WIDTH), 16, LINE + 12 + row_height * len(state["order"]) + SIZE + 4))
    return block


def _shade(top: float, height: float) -> draw.Rectangle:
    return draw.Rectangle(8, top, MAX_WIDTH - 16, height, fill="#efe9dc")


def _sheet_row(
    state: MainState, name: str, piece: Token, columns: Sequence[Column], named: Named, top: float
) -> list[draw.DrawingElement]:
    sheet = state["players"].get(name)
    base = top + SIZE + 4
    parts: list[draw.DrawingElement] = [
        token(piece, 16, top + 4),
        label(_cut(name, _room(_CHAR_X - _NAME_X)), _NAME_X, base, text_anchor="start"),
    ]
    if sheet is None:
        wanted = requested_name(state, name) or "to be dealt"
        parts += text_lines([f"waiting for the deal ({wanted})"], _CHAR_X, base)
        return parts
    parts.append(
        label(
            _cut(name_of(sheet["character"]), _room(_STATS_X - _CHAR_X)), _CHAR_X, base, text_anchor="start"
        )
    )
    x = _STATS_X
    for column in columns:
        parts.append(label(column.value(sheet), x, base, text_anchor="start"))
        x += column.width
    parts += text_lines(wrap(_standing(sheet, named), TEXT_WIDTH - 48)[:1], _NAME_X, base + LINE, fill=INK)
    return parts


def _standing(sheet: MainSheet, named: Named) -> str:
    board, space = sheet["board"], sheet["space"]
    words = [f"at {number(board, space)} {named(board, space)}"]
    if sheet["status"] != "playing":
        words.append(status_words(sheet))
    quest = sheet["quest"]
    if quest is not None:
        words.append(f"quest: {quest['goal'].replace('-', ' ')} {quest['progress']}/{quest['amount']}")
    if sheet["skips"]:
        words.append(f"misses {sheet['skips']} turn(s)")
    return "; ".join(words)


def _room(width: float) -> int:
    return int((width - 8) // CHAR)


def _cut(text: str, room: int) -> str:
    return text if len(text) <= room else text[: room - 1] + "…"
