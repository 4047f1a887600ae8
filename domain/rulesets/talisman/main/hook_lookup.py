"""Finding a character's abilities and their hooks (`ABILITY_HOOKS`: every hook name of
abilities.toml → its point and function), with the expansions' limits (Dungeon 12, Keep 7.2, 13): `off`
(`works_on`, so `at` never finds it there), `not-against` (`works_against`, `at_against`), `amount`
(`amount_on`) and `either-direction` (`either_way`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.rulesets.talisman.main.ability_encounters import ENCOUNTER_HOOKS
from domain.rulesets.talisman.main.ability_hooks import TURN_HOOKS, Hook
from domain.rulesets.talisman.main.ability_limits import EXPANSION_OF, works_against
from domain.rulesets.talisman.main.context import MainContext
from domain.rulesets.talisman.main.state import MainSheet

if TYPE_CHECKING:
    from domain.rulesets.talisman.main.content_abilities import Ability

ABILITY_HOOKS: dict[str, Hook] = {**TURN_HOOKS, **ENCOUNTER_HOOKS}
__all__ = ["ABILITY_HOOKS", "EXPANSION_OF", "at", "at_against", "has", "works_on"]


def works_on(ability: Ability, board: str) -> bool:
    """Tells whether an ability works on a board (an expansion's `off` limit turns it off there)."""
    where = EXPANSION_OF.get(board, "")
    return not any(limit.where == where and limit.limit == "off" for limit in ability.limits)


def at_against(ctx: MainContext, sheet: MainSheet, point: str, opponent: str) -> list[tuple[Ability, Hook]]:
    """Returns the character's abilities acting at `point` that work against that foe where it stands."""
    found = at(ctx, sheet, point)
    if not found or sheet["board"] not in EXPANSION_OF:
        return found
    return [(a, hook) for a, hook in found if works_against(a, sheet["board"], opponent)]


# The rules ask on every fight and move: (content, character, point, board) → the abilities found.
_FOUND: dict[tuple[int, str, str, str], tuple[object, list[tuple[Ability, Hook]]]] = {}


def at(ctx: MainContext, sheet: MainSheet, point: str) -> list[tuple[Ability, Hook]]:
    """Returns the character's abilities acting at `point`, with their hooks, where it stands."""
    content = ctx.abilities
    key = (id(content), sheet["character"], point, EXPANSION_OF.get(sheet["board"], ""))
    cached = _FOUND.get(key)
    if cached is not None and cached[0] is content:
        return cached[1]
    found = []
    for ability in content.of(sheet["character"]):
        hook = ABILITY_HOOKS[ability.hook]
        if hook.point == point and works_on(ability, sheet["board"]):
            found.append((ability, hook))
    _FOUND[key] = (content, found)
    return found


def has(ctx: MainContext, sheet: MainSheet, hook_name: str) -> bool:
    """Tells whether the character has a working ability with that hook."""
    return any(
        a.hook == hook_name and works_on(a, sheet["board"]) for a in ctx.abilities.of(sheet["character"])
    )
