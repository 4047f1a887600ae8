"""The Vampire's Keep expansion (`--option keep=true`): its board beside the main board (Keep 3-15)."""

from __future__ import annotations

from typing import ClassVar

from domain.rulesets.keep.state import BOARD
from domain.rulesets.talisman.main.expansion import Expansion


class KeepExpansion(Expansion):
    """The Vampire's Keep beside the main board."""

    name: ClassVar[str] = "keep"
    boards: ClassVar[tuple[str, ...]] = (BOARD,)
