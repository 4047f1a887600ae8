"""What a character's Objects, Followers and abilities add in a fight (RULES.md §1)."""

from __future__ import annotations

from domain.rulesets.talisman.character import effective_craft, effective_strength
from domain.rulesets.talisman.combat import COMBAT
from domain.rulesets.talisman.main.context import MainContext
from domain.rulesets.talisman.main.state import MainSheet


def effective(ctx: MainContext, sheet: MainSheet, kind: str) -> int:
    """Returns the Strength (combat) or Craft (psychic combat) a character fights with."""
    if kind == COMBAT:
        return effective_strength(sheet, ctx.items)
    return effective_craft(sheet, ctx.items)
