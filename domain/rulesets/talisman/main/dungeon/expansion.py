"""The Dungeon expansion (`--option dungeon=true`): its board beside the main board (Dungeon 3-13)."""

from __future__ import annotations

from typing import ClassVar

from domain.rulesets.dungeon.state import BOARD
from domain.rulesets.talisman.main.expansion import Expansion


class DungeonExpansion(Expansion):
    """The Dungeon beside the main board."""

    name: ClassVar[str] = "dungeon"
    boards: ClassVar[tuple[str, ...]] = (BOARD,)
