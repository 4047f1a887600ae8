"""Fights on the main board: Combat or Psychic Combat with an enemy, through the shared combat rules
(house rules H1) plus what the character's items and abilities add."""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.talisman.combat import LOST, lose_combat_life
from domain.rulesets.talisman.main.abilities import ABILITIES
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.ending import check_killed
from domain.rulesets.talisman.main.items import effective, working_items


def fight(ctx: MainContext, res: Resolution, player: str, opponent: str, value: int, kind: str) -> str:
    """Fights one enemy of Strength or Craft `value`; a loss takes a life (armour may save it in Combat)."""
    sheet = sheet_of(res, player)
    mine = effective(ctx, sheet, kind) + ABILITIES.combat_bonus(ctx, state_of(res), player, kind, opponent)
    outcome = ABILITIES.resolve_combat(ctx, res, player, mine, opponent, value, kind)
    if outcome == LOST and not ABILITIES.life_saved(ctx, res, player, kind):
        items = working_items(ctx, sheet_of(res, player))
        res.emit(*lose_combat_life(player, sheet_of(res, player), kind, items, res.dice, opponent))
        check_killed(ctx, res, player)
    return outcome
