"""What a character's Objects, Followers and abilities add in a fight (RULES.md §1). House (RULES.md
§5): on the Cursed Glade no Magic Object works."""

from __future__ import annotations

from collections.abc import Mapping

from domain.rulesets.talisman.character import effective_craft, effective_strength
from domain.rulesets.talisman.combat import COMBAT
from domain.rulesets.talisman.main.context import ItemStats, MainContext
from domain.rulesets.talisman.main.state import MainSheet

CURSED_GLADE = "cursed-glade"


def working_items(ctx: MainContext, sheet: MainSheet) -> Mapping[str, ItemStats]:
    """Returns the items that work where the character stands (no Magic Object on the Cursed Glade)."""
    if ctx.space(sheet["board"], sheet["space"]).kind != CURSED_GLADE:
        return ctx.items
    return {card: stats for card, stats in ctx.items.items() if not ctx.is_magic(card)}


def effective(ctx: MainContext, sheet: MainSheet, kind: str) -> int:
    """Returns the Strength (combat) or Craft (psychic combat) a character fights with."""
    items = working_items(ctx, sheet)
    return effective_strength(sheet, items) if kind == COMBAT else effective_craft(sheet, items)
