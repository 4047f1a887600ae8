"""The Dungeon board picture: the spiral of spaces from the content in use, the pieces and face-up cards
on it, and each character's sheet in a table under it.

The spiral's geometry is `projections.spiral` (the Entrance in the top-left corner, the Treasure Chamber
in the centre), grown to the smallest square that holds the board, so a group's own board (more spaces,
other names) is drawn with no code change. `dungeon_panel` draws the spiral alone, for a picture that
shows the Dungeon beside another board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import drawsvg

from domain.rulesets.dungeon.content import Space, load_board, load_deck
from domain.rulesets.dungeon.state import BOARD, DungeonState, sheet_in
from domain.rulesets.talisman.shapes import TalismanState
from projections.dungeon_view import SPIRAL_SIZE, card_name, character_name, heading
from projections.pictures._expansion_parts import (
    Cell,
    Piece,
    Table,
    draw_grid,
    draw_header,
    draw_lines,
    draw_step,
    draw_table,
    finished_page,
    short_names,
    where_everyone_is,
)
from projections.pictures.short_sheets import carried_lines as short_carried_lines
from projections.pictures.short_sheets import sheet_table as seat_table
from projections.spiral import spiral_positions
from projections.talisman_sheet import sheet_cells

TITLE = "The Dungeon (short game)"
KIND_FILLS = {
    "entrance": "#e4efe4",
    "chamber": "#ffffff",
    "guard-room": "#f6e3d8",
    "treasure-chamber": "#f7efc4",
}
HEADERS = ["player", "character", "space", "strength", "craft", "lives", "gold", "status"]


def grid_size(spaces: int) -> int:
    """Returns the side of the square spiral that holds this many spaces (at least the house 5×5)."""
    side = SPIRAL_SIZE
    while side * side < spaces:
        side += 1
    return side


def pieces_by_space(state: TalismanState, board: str = BOARD) -> dict[int, list[Piece]]:
    """Returns the pieces of the characters still in play on a board, by space, in seat order."""
    short = short_names(state["order"])
    here: dict[int, list[Piece]] = {}
    for seat, name in enumerate(state["order"]):
        sheet = state["players"].get(name)
        if sheet is not None and sheet["board"] == board and sheet["status"] != "out":
            here.setdefault(sheet["space"], []).append(Piece(name, seat, short[name]))
    return here


def _notes(space: Space) -> list[str]:
    if space.guard_strength:
        return [f"Guard {space.guard_strength}"]
    return [f"draws {space.draws}"] if space.draws > 1 else []


def space_cell(state: TalismanState, space: Space, pieces: Sequence[Piece], board: str = BOARD) -> Cell:
    """Returns how a Dungeon space is drawn: number and name, guard or draws, pieces, cards and gold."""
    lying = [card_name(card) for card in state["cards"][board][space.index]]
    gold = state["gold"][board][space.index]
    lying += [f"{gold} gold"] if gold else []
    tooltip = f"{space.index} {space.name}" + (f": {', '.join(p.player for p in pieces)}" if pieces else "")
    fill = KIND_FILLS.get(space.kind, "#ffffff")
    return Cell([f"{space.index} {space.name}"], _notes(space), list(pieces), lying, fill, tooltip)


def dungeon_panel(page: drawsvg.Group, state: TalismanState, top: float, board: str = BOARD) -> float:
    """Draws the Dungeon spiral (its spaces, pieces, face-up cards and gold) from `top` across the page,
    with an arrow at each step from the Entrance in; returns the bottom."""
    spaces = load_board().spaces
    here = pieces_by_space(state, board)
    cells = [space_cell(state, space, here.get(space.index, []), board) for space in spaces]
    side = grid_size(len(spaces))
    boxes, bottom = draw_grid(page, cells, spiral_positions(side)[: len(spaces)], side, top)
    for start, end in zip(boxes, boxes[1:], strict=False):
        draw_step(page, start, end)
    return bottom


def _status(state: DungeonState, name: str) -> str:
    sheet = sheet_in(state, name)
    if sheet["status"] != "playing":
        return str(sheet["status"])
    words = ["fleeing" if sheet["fleeing"] else "in play"]
    words += ["defeated"] if sheet["defeated"] else []
    words += [f"misses {sheet['skips']}"] if sheet["skips"] else []
    return ", ".join(words)


def sheet_table(state: DungeonState) -> Table:
    """Returns each seat's sheet as a table row: stats as the state holds them (with bonuses), status."""
    cards = load_deck().cards

    def cells(name: str) -> list[str]:
        return [*sheet_cells(name, sheet_in(state, name), character_name, cards), _status(state, name)]

    return seat_table(state, HEADERS, cells)


def carried_lines(state: TalismanState) -> list[str]:
    """Returns a line for each character that carries anything: objects, followers, trophies."""

    def held_by(name: str) -> list[tuple[str, list[str]]]:
        sheet = sheet_in(state, name)
        return [
            ("objects", sheet["objects"]),
            ("followers", sheet["followers"]),
            ("trophies", sheet["trophies"]),
        ]

    return short_carried_lines(state, held_by, card_name)


def draw(fold: Any, stopped: bool = False) -> drawsvg.Drawing:
    """Returns the board picture of a fold: heading, spiral, then the players' table."""
    state = cast(DungeonState, fold.state)
    body = drawsvg.Group()
    at = draw_header(body, TITLE, heading(state, stopped))
    at = dungeon_panel(body, state, at)
    at = draw_table(body, sheet_table(state), at + 24)
    at = draw_lines(body, carried_lines(state), at + 8)
    spaces = load_board().spaces
    described = where_everyone_is("The Dungeon", len(spaces), state, lambda n: spaces[n].name)
    return finished_page(body, at, TITLE, described)
