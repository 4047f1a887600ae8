"""The Dungeon expansion (`--option dungeon=true`): its board beside the main board (Dungeon 3-13)."""

from __future__ import annotations

from typing import ClassVar

from domain.rulesets.dungeon.content import load_board, load_deck
from domain.rulesets.dungeon.state import BOARD, DECK
from domain.rulesets.talisman.main.expansion import Expansion
from domain.rulesets.talisman.shapes import discard_pile


class DungeonExpansion(Expansion):
    """The Dungeon beside the main board."""

    name: ClassVar[str] = "dungeon"
    boards: ClassVar[tuple[str, ...]] = (BOARD,)

    def load_content(self) -> None:
        """Loads (and so checks) the Dungeon's board and deck."""
        load_board(), load_deck()

    def sizes(self) -> dict[str, int]:
        """Returns the Dungeon board's number of spaces."""
        return {BOARD: len(load_board().spaces)}

    def piles(self) -> dict[str, list[str]]:
        """Returns the Dungeon deck (the Tunnel in it: it leads to the main board, Dungeon 8.3)."""
        return {DECK: list(load_deck().cards), discard_pile(DECK): []}
