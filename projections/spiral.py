"""Text grids for spiral boards: where each space of an n×n spiral sits, and a boxed grid of cells."""

from __future__ import annotations

from collections.abc import Sequence


def spiral_positions(size: int) -> list[tuple[int, int]]:
    """Returns (row, column) for spaces 0…size²-1, clockwise from the top-left corner inward."""
    positions: list[tuple[int, int]] = []
    top, left, bottom, right = 0, 0, size - 1, size - 1
    while top <= bottom and left <= right:
        positions += [(top, c) for c in range(left, right + 1)]
        positions += [(r, right) for r in range(top + 1, bottom + 1)]
        if top < bottom:
            positions += [(bottom, c) for c in range(right - 1, left - 1, -1)]
        if left < right:
            positions += [(r, left) for r in range(bottom - 1, top, -1)]
        top, left, bottom, right = top + 1, left + 1, bottom - 1, right - 1
    return positions


def render_spiral(cells: Sequence[Sequence[str]], size: int, width: int, rules: bool = True) -> list[str]:
    """Lays out one cell (a few lines of text) per space on a boxed size×size spiral grid (without
    `rules`, only the grid's top and bottom are ruled, to save lines)."""
    height = max((len(cell) for cell in cells), default=1)
    grid = [[[""] * height for _ in range(size)] for _ in range(size)]
    for index, (r, c) in enumerate(spiral_positions(size)[: len(cells)]):
        lines = [line[:width] for line in cells[index]]
        grid[r][c] = lines + [""] * (height - len(lines))
    rule = "+" + "+".join("-" * (width + 2) for _ in range(size)) + "+"
    out = [rule]
    for grid_row in grid:
        for line in range(height):
            out.append("|" + "|".join(f" {cell[line]:<{width}} " for cell in grid_row) + "|")
        if rules:
            out.append(rule)
    return out if rules else [*out, rule]
