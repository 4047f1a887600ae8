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

from domain.errors import UnknownCharacter
from domain.rulesets.dungeon.content import Space, load_board, load_deck
from domain.rulesets.dungeon.state import BOARD, DungeonState, sheet_in
from domain.rulesets.talisman.character import craft_bonus, strength_bonus
from domain.rulesets.talisman.characters import resolve_character
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
from projections.spiral import spiral_positions
from projections.talisman_sheet import with_bonus

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


def asked_for(wanted: str) -> str:
    """Returns the name of the character a seat asked for (by id or short name), or `to be dealt`."""
    if not wanted:
        return "to be dealt"
    try:
        return character_name(resolve_character(wanted))
    except UnknownCharacter:  # content swapped since the game was set up: the name as recorded
        return wanted


def sheet_table(state: DungeonState) -> Table:
    """Returns each seat's sheet as a table row: stats as the state holds them (with bonuses), status."""
    cards = load_deck().cards
    short = short_names(state["order"])
    rows: list[tuple[Piece | None, list[str]]] = []
    for seat, name in enumerate(state["order"]):
        piece = Piece(name, seat, short[name])
        if name not in state["players"]:
            rows.append((piece, [name, asked_for(state["requested"].get(name, "")), *[""] * 5, "waiting"]))
            continue
        sheet = sheet_in(state, name)
        rows.append(
            (
                piece,
                [
                    name,
                    character_name(sheet["character"]),
                    str(sheet["space"]),
                    with_bonus(sheet["strength"], strength_bonus(sheet, cards)),
                    with_bonus(sheet["craft"], craft_bonus(sheet, cards)),
                    str(sheet["lives"]),
                    str(sheet["gold"]),
                    _status(state, name),
                ],
            )
        )
    return Table(HEADERS, rows)


def carried_lines(state: TalismanState) -> list[str]:
    """Returns a line for each character that carries anything: objects, followers, trophies."""
    lines = []
    for name in state["order"]:
        sheet = state["players"].get(name)
        if sheet is None:
            continue
        held = [
            f"{what}: {', '.join(card_name(c) for c in cards)}"
            for what, cards in (
                ("objects", sheet["objects"]),
                ("followers", sheet["followers"]),
                ("trophies", sheet["trophies"]),
            )
            if cards
        ]
        if held:
            lines.append(f"{name} carries {'; '.join(held)}.")
    return lines


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
