"""How many Objects a character carries (RULES.md §1: 4; house: a Mule or a Porter carries more, and
is not counted itself)."""

from __future__ import annotations

from domain.rulesets.talisman.character import CARRY_LIMIT
from domain.rulesets.talisman.main.context import MainContext
from domain.rulesets.talisman.main.state import MainSheet

CARRY = "carry"
_AMOUNTS: dict[int, tuple[object, dict[str, int]]] = {}


def carriers(ctx: MainContext) -> dict[str, int]:
    """Returns every card that carries Objects (a Mule, a Porter) with how many more it carries."""
    cached = _AMOUNTS.get(id(ctx))
    if cached is not None and cached[0] is ctx:
        return cached[1]
    found = {c.id: c.amount for c in ctx.adventure.cards if c.effect == CARRY}
    found.update({i.id: i.amount for i in ctx.purchase.items if i.effect == CARRY})
    _AMOUNTS[id(ctx)] = (ctx, found)
    return found


def carry_limit(ctx: MainContext, sheet: MainSheet) -> int:
    """Returns how many Objects the character may carry."""
    more = carriers(ctx)
    return CARRY_LIMIT + sum(more.get(card, 0) for card in [*sheet["objects"], *sheet["followers"]])


def carried(ctx: MainContext, sheet: MainSheet) -> int:
    """Returns how many Objects count against the limit (the carriers themselves do not)."""
    more = carriers(ctx)
    return sum(1 for card in sheet["objects"] if card not in more)


def room(ctx: MainContext, sheet: MainSheet, card: str = "") -> int:
    """Returns how many more Objects the character can take (a carrier always fits)."""
    if card and card in carriers(ctx):
        return 1
    return max(0, carry_limit(ctx, sheet) - carried(ctx, sheet))
