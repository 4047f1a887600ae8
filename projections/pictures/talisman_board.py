"""The talisman picture's main board: the regions as nested square rings around the Crown of Command.

The boards of the content (`board.toml`, read through the game's ruleset) are laid one after another
on a square spiral, clockwise from the top-left corner inward: the 24 Outer spaces make the rim of a
7×7 grid, the 16 Middle spaces the next ring, the 8 Inner spaces the ring round the Crown in the centre,
as on the printed board. The crossings the rules give a space's kind are tagged on their cells, and
drawn as arrows where the two cells touch (the Portal of Power to the Plain of Peril, the Valley of
Fire to the Crown); the ways into the expansions' boards (`talisman_ways`) are tagged alike.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from domain.rulesets.talisman.main.movement import (
    PLAIN_OF_PERIL,
    PORTAL_KIND,
    SENTINEL_KIND,
    SENTINEL_LEADS_TO,
)
from domain.rulesets.talisman.main.state import CROWN, INNER, MainState
from projections.pictures.kit import MAX_WIDTH
from projections.pictures.talisman_cells import (
    TINTS,
    Block,
    Cell,
    Token,
    arrow,
    cell_height,
    draw_cell,
)
from projections.spiral import spiral_positions

MARGIN = 8
VALLEY_KIND = "valley-of-fire"  # house rule H5.6: from the Valley of Fire a character advances to the Crown
Position = tuple[str, int]


def region_letter(board_id: str) -> str:
    """Returns the letter a board's spaces are numbered with (`O` for outer, `D` for the Dungeon)."""
    return board_id[:1].upper()


def number(board_id: str, index: int) -> str:
    """Returns a space's short number: `O4`, `M15`, `C` for a one-space board's only space."""
    return region_letter(board_id) + ("" if board_id == CROWN else str(index))


def pieces_at(state: MainState, tokens: Mapping[str, Token]) -> dict[Position, list[Token]]:
    """Returns the tokens of the characters in play on each (board, space), in seat order."""
    here: dict[Position, list[Token]] = {}
    for name in state["order"]:
        sheet = state["players"].get(name)
        if sheet is not None and sheet["status"] != "out":
            here.setdefault((sheet["board"], sheet["space"]), []).append(tokens[name])
    return here


def crossings(boards: Sequence[Any]) -> dict[Position, Position]:
    """Returns where each crossing space leads, by its kind: the Sentinel to the space the rules name,
    the Portal of Power to the Plain of Peril, the Valley of Fire to the Crown."""
    ids = {space.id: (board.id, i) for board in boards for i, space in enumerate(board.spaces)}
    sizes = {board.id: len(board.spaces) for board in boards}
    leads = {
        SENTINEL_KIND: ids.get(SENTINEL_LEADS_TO),
        PORTAL_KIND: (INNER, PLAIN_OF_PERIL) if sizes.get(INNER, 0) > PLAIN_OF_PERIL else None,
        VALLEY_KIND: (CROWN, 0) if sizes.get(CROWN) else None,
    }
    found: dict[Position, Position] = {}
    for board in boards:
        for i, space in enumerate(board.spaces):
            target = leads.get(space.kind)
            if target is not None:
                found[(board.id, i)] = target
    return found


def grid_of(boards: Sequence[Any]) -> tuple[int, dict[Position, tuple[int, int]]]:
    """Returns the side of the square grid and each space's (row, column) on the spiral."""
    order = [(board.id, i) for board in boards for i in range(len(board.spaces))]
    side = math.isqrt(max(len(order) - 1, 0)) + 1
    return side, dict(zip(order, spiral_positions(side), strict=False))


def main_board(
    state: MainState,
    boards: Sequence[Any],
    tokens: Mapping[str, Token],
    ways: Mapping[Position, list[Position]] | None = None,
) -> Block:
    """Returns the main board's block: every space's cell, who stands where, the crossings, and the
    `ways` into the expansions' boards as tags."""
    side, cells = grid_of(boards)
    here = pieces_at(state, tokens)
    width = (MAX_WIDTH - 2 * MARGIN) / side
    most = max((len(p) for (board, _), p in here.items() if (board, _) in cells), default=1)
    height = cell_height(width, max(most, 3))
    leads = crossings(boards)
    names = {(board.id, i): space.name for board in boards for i, space in enumerate(board.spaces)}
    block = Block(side * height + 2 * MARGIN)
    for (board, index), (row, col) in cells.items():
        target = leads.get((board, index))
        targets = ([target] if target else []) + list((ways or {}).get((board, index), []))
        cell = Cell(
            number=number(board, index),
            name=names[(board, index)],
            tint=TINTS.get(board, "#eeeeee"),
            tag=f"to {', '.join(number(*t) for t in targets)}" if targets else "",
            pieces=tuple(here.get((board, index), ())),
            cards=len(state["cards"][board][index]),
            gold=state["gold"][board][index],
        )
        block.add(draw_cell(cell, MARGIN + col * width, MARGIN + row * height, width - 4, height - 4))
    for source, target in sorted(leads.items()):
        if target in cells and _touch(cells[source], cells[target]):
            block.add(_crossing_arrow(cells[source], cells[target], width, height))
    return block


def _touch(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def _crossing_arrow(source: tuple[int, int], target: tuple[int, int], width: float, height: float) -> Any:
    # In the gap where the two cells meet, reaching into the upper cell's bottom corner, which holds no
    # name (a cell's number and name run along its top).
    (r1, c1), (r2, c2) = source, target
    dr, dc = (r2 > r1) - (r2 < r1), (c2 > c1) - (c2 < c1)
    px = MARGIN + (min(c1, c2) + 1) * width - 2 if dc else MARGIN + (c1 + 0.5) * width - 2
    py = MARGIN + (min(r1, r2) + 1) * height - 2 if dr else MARGIN + (r1 + 0.5) * height - 2
    norm = (dr * dr + dc * dc) ** 0.5
    ux, uy = dc / norm, dr / norm
    back, ahead = (30.0, 2.0) if dr > 0 else (2.0, 30.0) if dr < 0 else (18.0, 18.0)
    return arrow(px - ux * back, py - uy * back, px + ux * ahead, py + uy * ahead)
