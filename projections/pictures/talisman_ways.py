"""The ways from the talisman main board into the expansions' boards, read from the content and the
state: a Doorway lying face up leads down to the Dungeon's Entrance (Dungeon 5), a place whose table
offers a way to the Keep leads to the Keep's Entrance (Keep 4). The picture tags those spaces' cells.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from domain.rulesets.dungeon.state import BOARD as DUNGEON
from domain.rulesets.keep.state import BOARD as KEEP
from domain.rulesets.keep.state import ENTRANCE as KEEP_ENTRANCE
from domain.rulesets.talisman.main.state import MainState
from projections.talisman_expansion_view import boards_in_play

DOORWAY = "doorway"  # the effect of the Dungeon's Doorway cards (adventure-dungeon.toml)
DUNGEON_ENTRANCE = 0
TO_KEEP = frozenset({"enter-keep", "enter-keep-test"})
Position = tuple[str, int]


def ways_in(state: MainState, ctx: Any, boards: Sequence[Any]) -> dict[Position, list[Position]]:
    """Returns the expansion spaces each main-board space leads to (none for an expansion not in
    play)."""
    playing = set(boards_in_play(state))
    found: dict[Position, list[Position]] = {}
    if DUNGEON in playing:
        effects = ctx.effects
        for board in boards:
            for index, cards in enumerate(state["cards"].get(board.id, [])):
                if any(effects.get(card) == DOORWAY for card in cards):
                    found.setdefault((board.id, index), []).append((DUNGEON, DUNGEON_ENTRANCE))
    if KEEP in playing:
        tables = {table.id: table for table in ctx.places.tables}
        for board in boards:
            for index, space in enumerate(board.spaces):
                if space.table and TO_KEEP & set(_outcomes(tables, space.table)):
                    found.setdefault((board.id, index), []).append((KEEP, KEEP_ENTRANCE))
    return found


def _outcomes(tables: dict[str, Any], table_id: str, depth: int = 2) -> Iterator[str]:
    # A place's outcomes: its table's fixed outcomes, services and rows, and those of the tables its
    # services roll on (the Mystic's at the Village), a level or two down.
    table = tables.get(table_id)
    if table is None:
        return
    yield from (fixed.outcome for fixed in table.fixed)
    yield from (row.outcome for row in table.rows)
    for service in table.services:
        yield service.outcome
        if service.table and depth:
            yield from _outcomes(tables, service.table, depth - 1)
