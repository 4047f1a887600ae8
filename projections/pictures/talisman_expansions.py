"""The talisman picture's expansion panels, drawn under the main board when the game plays with them:
the Dungeon's spiral (Dungeon 6.1: the Entrance in the top-left corner, the Treasure Chamber in the
centre) and the Vampire's Keep's three levels (Keep 5.1: the Entrance at the bottom, the Talisman Vault
at the top), their spaces read from the game's content, with who stands there, what lies face up and
where each Teleport Tile sends.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

from domain.rulesets.dungeon.state import BOARD as DUNGEON
from domain.rulesets.keep.content import LEVEL_SIZE, TILE, load_deck
from domain.rulesets.keep.state import BOARD as KEEP
from domain.rulesets.keep.state import COUNTERS, VAULT_DECK
from domain.rulesets.talisman.main.state import MainState
from domain.rulesets.talisman.shapes import discard_pile
from projections.pictures.kit import MAX_WIDTH
from projections.pictures.talisman_board import MARGIN, number, pieces_at
from projections.pictures.talisman_cells import (
    LINE,
    NAME_LINES,
    TINTS,
    Block,
    Cell,
    Token,
    cell_height,
    draw_cell,
    text_lines,
    wrap,
)
from projections.spiral import spiral_positions
from projections.talisman_expansion_view import boards_in_play, standing, tile_mark
from projections.talisman_names import board_name

SPIRAL_SIZE = 5  # the house Dungeon is a 5×5 spiral; a longer one grows to the smallest square holding it
_TITLES = {
    DUNGEON: "The Dungeon: a spiral from the Entrance (top left) to the Treasure Chamber (centre)",
    KEEP: "The Vampire's Keep: three levels, from the Entrance (bottom) up to the Talisman Vault",
}


def expansion_blocks(state: MainState, spaces: Mapping[str, Any], tokens: Mapping[str, Token]) -> list[Block]:
    """Returns a panel for each expansion board in play (none in a game of the main board alone)."""
    draws = {DUNGEON: _dungeon, KEEP: _keep}
    return [draws[board](state, spaces[board], tokens) for board in boards_in_play(state) if board in spaces]


def _heading(board: str, state: MainState, notes: list[str]) -> list[str]:
    width = MAX_WIDTH - 2 * MARGIN - 16
    piles = state["piles"]
    left, gone = len(piles.get(board, [])), len(piles.get(discard_pile(board), []))
    deck = f"{board_name(board)} deck {left} ({gone} discarded)"
    return [*wrap(_TITLES[board], width, bold=True), *wrap("; ".join([deck, *notes]) + ".", width, bold=True)]


def _marks(state: MainState, board: str) -> list[str]:
    # Who stands there marked (fleeing, beaten, outside the door…): the tokens have room for tags only.
    marked = [who for people in standing(state, board).values() for who in people if "(" in who]
    return [f"marked: {', '.join(marked)}"] if marked else []


def _panel(
    head: list[str], cells: list[tuple[Cell, int, int]], columns: int, rows: int, name_lines: int = NAME_LINES
) -> Block:
    width = (MAX_WIDTH - 2 * MARGIN) / columns
    most = max((len(cell.pieces) for cell, _, _ in cells), default=0)
    height = cell_height(width, max(most, 3), name_lines)
    top = LINE * len(head) + 16
    block = Block(top + rows * height + MARGIN)
    block.add(*text_lines(head, MARGIN + 8, 4 + LINE, font_weight="bold"))
    for cell, row, col in cells:
        block.add(
            draw_cell(cell, MARGIN + col * width, top + row * height, width - 4, height - 4, name_lines)
        )
    return block


def _cell(
    state: MainState,
    board: str,
    index: int,
    name: str,
    here: Mapping[Any, list[Token]],
    tiles: frozenset[str] = frozenset(),
) -> Cell:
    # A Keep tile is its cell's tag, not one of the cards counted as lying there.
    return Cell(
        number=number(board, index),
        name=name,
        tint=TINTS[board],
        tag=tile_mark(state, index) if board == KEEP else "",
        pieces=tuple(here.get((board, index), ())),
        cards=sum(card not in tiles for card in state["cards"][board][index]),
        gold=state["gold"][board][index],
    )


def _dungeon(state: MainState, spaces: Any, tokens: Mapping[str, Token]) -> Block:
    size = max(SPIRAL_SIZE, math.isqrt(max(len(spaces) - 1, 0)) + 1)
    here = pieces_at(state, tokens)
    cells = [
        (_cell(state, DUNGEON, i, space.name, here), row, col)
        for i, (space, (row, col)) in enumerate(zip(spaces, spiral_positions(size), strict=False))
    ]
    return _panel(_heading(DUNGEON, state, _marks(state, DUNGEON)), cells, size, size)


def _keep(state: MainState, spaces: Any, tokens: Mapping[str, Token]) -> Block:
    # Space 0 is the board's own before-the-door slot; the levels are spaces 1…, LEVEL_SIZE each.
    levels = max((len(spaces) - 1) // LEVEL_SIZE, 1)
    here = pieces_at(state, tokens)
    tiles = frozenset(card.id for card in load_deck().cards.values() if card.kind == TILE)
    cells = []
    for i in range(1, min(len(spaces), levels * LEVEL_SIZE + 1)):
        level, col = divmod(i - 1, LEVEL_SIZE)
        cells.append((_cell(state, KEEP, i, spaces[i].name, here, tiles), levels - 1 - level, col))
    piles = state["piles"]
    notes = [
        f"Vault deck {len(piles.get(VAULT_DECK, []))}",
        f"Teleport counters {len(piles.get(COUNTERS, []))}",
    ]
    flags = cast(dict[str, Any], state)
    if flags.get("vault_talismans"):
        notes.append(f"{flags['vault_talismans']} Talisman(s) left in the Vault")
    if flags.get("hoard"):
        notes.append("the Treasure Hoard is played")
    # Seven to a row leave the Keep's long names a line more than the Dungeon's five.
    head = _heading(KEEP, state, notes + _marks(state, KEEP))
    return _panel(head, cells, LEVEL_SIZE, levels, NAME_LINES + 1)
