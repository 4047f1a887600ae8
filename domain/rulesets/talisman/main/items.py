"""What a character's Objects and Followers do (house rules H1, the Adventure and Purchase decks' effects):
bonuses in a fight, room to carry, more movement, healing or gold each turn, and alignment-bound
cards. House (house rule H5.8): on the Cursed Glade no Magic Object works. House rule H5.21, the Crown against
healing: while another character stands on the Crown of Command, no item heals the character."""

from __future__ import annotations

from collections.abc import Mapping

from domain.events import LifeGained
from domain.resolution import Resolution
from domain.rulesets.talisman.character import (
    CARRY_LIMIT,
    STARTING_LIVES,
    effective_craft,
    effective_strength,
)
from domain.rulesets.talisman.combat import COMBAT
from domain.rulesets.talisman.events import GoldChanged
from domain.rulesets.talisman.main.context import MainContext, sheet_of
from domain.rulesets.talisman.main.ending import another_on_the_crown
from domain.rulesets.talisman.main.events import AlignmentChanged, ItemDropped
from domain.rulesets.talisman.main.expansion import ItemStats
from domain.rulesets.talisman.main.state import MainSheet

CURSED_GLADE = "cursed-glade"


def working_items(ctx: MainContext, sheet: MainSheet) -> Mapping[str, ItemStats]:
    """Returns the items that work where the character stands (no Magic Object on the Cursed Glade)."""
    spaces = ctx.spaces.get(sheet["board"])  # an expansion's board has no Cursed Glade
    if spaces is None or spaces[sheet["space"]].kind != CURSED_GLADE:
        return ctx.items
    return {card: stats for card, stats in ctx.items.items() if not ctx.is_magic(card)}


def effective(ctx: MainContext, sheet: MainSheet, kind: str) -> int:
    """Returns the Strength (combat) or Craft (psychic combat) a character fights with."""
    items = working_items(ctx, sheet)
    return effective_strength(sheet, items) if kind == COMBAT else effective_craft(sheet, items)


def _held(ctx: MainContext, sheet: MainSheet, effect: str) -> list[int]:
    effects, amounts = ctx.effects, ctx.amounts
    return [
        amounts.get(c, 0)
        for held in (sheet["objects"], sheet["followers"])
        for c in held
        if effects.get(c) == effect
    ]


def room_to_carry(ctx: MainContext, sheet: MainSheet) -> int:
    """Returns how many more Objects the character can carry (4, more with a Mule or a Porter)."""
    return max(0, CARRY_LIMIT + sum(_held(ctx, sheet, "carry")) - len(sheet["objects"]))


def extra_steps(ctx: MainContext, sheet: MainSheet) -> int:
    """Returns what the character's best mount or boots add to a movement roll (house: the best one)."""
    return max(_held(ctx, sheet, "extra-movement"), default=0)


def may_hold(ctx: MainContext, sheet: MainSheet, card: str) -> bool:
    """Tells whether the character may take a card (an alignment-bound one only of its alignment)."""
    bound = ctx.alignments.get(card, "")
    return not bound or bound == sheet["alignment"]


def items_at_turn_start(ctx: MainContext, res: Resolution, player: str) -> None:
    """Heals and pays what the character's items give at the start of each of its turns."""
    sheet = sheet_of(res, player)
    if not sheet["objects"] and not sheet["followers"]:
        return  # nothing carried gives anything (every turn of every game asks)
    heal = min(sum(_held(ctx, sheet, "heal-each-turn")), STARTING_LIVES - sheet["lives"])
    if heal > 0 and another_on_the_crown(res, player):
        heal = 0  # house rule H5.21: the Crown against healing
    if heal > 0:
        res.emit(LifeGained(player=player, amount=heal, reason="an item's healing"))
    gold = sum(_held(ctx, sheet, "gold-each-turn"))
    if gold > 0:
        res.emit(GoldChanged(player=player, amount=gold, reason="an item's gold"))


def change_alignment(ctx: MainContext, res: Resolution, player: str, alignment: str, reason: str) -> None:
    """Changes a character's alignment; the cards bound to another alignment are dropped on its space."""
    sheet = sheet_of(res, player)
    if sheet["alignment"] == alignment:
        return
    res.emit(AlignmentChanged(player=player, alignment=alignment, reason=reason))
    for card in [*sheet["objects"], *sheet["followers"]]:
        if not may_hold(ctx, sheet_of(res, player), card):
            res.emit(ItemDropped(player=player, card=card, board=sheet["board"], space=sheet["space"]))
