"""The spiral grid behind the Dungeon board view (Dungeon 6.1: Entrance outside, Treasure Chamber inside)."""

from __future__ import annotations

import pytest

from projections.spiral import render_spiral, spiral_positions


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6])
def test_spiral_visits_every_cell_once_stepping_to_a_neighbour(size):
    positions = spiral_positions(size)
    assert sorted(positions) == [(r, c) for r in range(size) for c in range(size)]
    for (r1, c1), (r2, c2) in zip(positions, positions[1:], strict=False):
        assert abs(r1 - r2) + abs(c1 - c2) == 1


def test_five_by_five_spiral_starts_in_the_corner_and_ends_in_the_centre():
    positions = spiral_positions(5)
    assert positions[0] == (0, 0) and positions[24] == (2, 2)


def test_render_spiral_places_cells_and_truncates_to_width():
    lines = render_spiral([["a"], ["b"], ["c"], ["dddddd"]], 2, 3)
    assert lines[0] == "+-----+-----+"
    assert lines[1] == "| a   | b   |"
    assert lines[3] == "| ddd | c   |"
