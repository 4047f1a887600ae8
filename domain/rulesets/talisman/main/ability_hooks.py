"""The characters' abilities of the turn and of fights (abilities.toml, house wording, house rule H5.15).

`TURN_HOOKS` maps a hook name to the point of the rules it acts at and its function:
- `bonus` `(ctx, state, player, ability, kind, opponent) → int`: added to Strength or Craft in a fight;
- `dice` `(ability, kind, dice) → CombatDice`: how the fight's dice are rolled and read;
- `start` `(ctx, res, player, ability)`: at the start of the player's turn;
- `steps` `(ability, rolled, sheet) → set[int]`: more step counts a movement roll may take;
- `actions` `(ctx, state, player, ability) → [Action]`: moves in place of rolling (`ability:<hook>:…`).
The abilities of landing and of meeting characters are in `ability_encounters`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from domain.actions import Action
from domain.events import DieRolled, LifeGained
from domain.resolution import Resolution
from domain.rulesets.talisman.character import STARTING_LIVES, room_for_spells
from domain.rulesets.talisman.combat import COMBAT, PSYCHIC
from domain.rulesets.talisman.events import GoldChanged
from domain.rulesets.talisman.main.context import MainContext, sheet_of
from domain.rulesets.talisman.main.piles import draw_from
from domain.rulesets.talisman.main.state import INNER, SPELLS, MainSheet, MainState

if TYPE_CHECKING:
    from domain.rulesets.talisman.main.content_abilities import Ability

ABILITY = "ability:"
WOLF = "talisman/card/wolf"  # the Wolf Follower (Wolf Rider)
LUCKY = 6  # the face Regenerate and Pot of Gold need


@dataclass(frozen=True, slots=True)
class CombatDice:
    """How a fight's dice are rolled: the character's dice and the other side's (each side's best
    kept), and whether a 6 on the character's die wins at once."""

    mine: int = 1
    theirs: int = 1
    killer: bool = False


@dataclass(frozen=True, slots=True)
class Hook:
    """Where an ability acts (its point) and what it does there."""

    point: str
    run: Callable[..., Any]


def here_name(ctx: MainContext, sheet: MainSheet) -> str:
    """Returns the name of the main-board space a character stands on ("" on an expansion's board: the
    abilities name main-board spaces, Dungeon 12, Keep 7.2)."""
    spaces = ctx.spaces.get(sheet["board"])
    return spaces[sheet["space"]].name if spaces is not None else ""


def heal(res: Resolution, player: str, amount: int, reason: str) -> None:
    """Heals up to the starting lives (house rule H1.1)."""
    amount = min(amount, STARTING_LIVES - sheet_of(res, player)["lives"])
    if amount > 0:
        res.emit(LifeGained(player=player, amount=amount, reason=reason))


def _on_space(ctx: MainContext, state: MainState, player: str, ability: Ability, kind: str, opp: str) -> int:
    # house rule H5.15: more Strength in Combat on the spaces the ability names (Dwarf, Centaur, Zulu; house).
    here = here_name(ctx, state["players"][player])
    return ability.amount if kind == COMBAT and here == ability.target else 0


def _craft_to_strength(
    ctx: MainContext, state: MainState, player: str, ability: Ability, kind: str, opp: str
) -> int:
    # house rule H5.15: Craft added to Strength in Combat (amount 0: all of it) (Monk; house).
    craft = state["players"][player]["craft"]
    return 0 if kind != COMBAT else craft if not ability.amount else min(craft, ability.amount)


def _vs_spirits(
    ctx: MainContext, state: MainState, player: str, ability: Ability, kind: str, opp: str
) -> int:
    # house rule H5.15: more Craft in Psychic Combat against Spirits (Monk, Priest, Inquisitor; house).
    trophy = ctx.trophies.get(opp)  # the expansions' Spirits too (Keep 7.2: abilities work in the Keep)
    return ability.amount if kind == PSYCHIC and trophy is not None and trophy.trophy_kind == "spirit" else 0


def _vs_characters(
    ctx: MainContext, state: MainState, player: str, ability: Ability, kind: str, opp: str
) -> int:
    # house rule H5.15: more Strength in Combat against another character (Warrior, Amazon, Orc; house).
    return ability.amount if kind == COMBAT and opp in state["players"] else 0


def _two_dice(ability: Ability, kind: str, dice: CombatDice) -> CombatDice:
    # house rule H5.15: 2 dice in Combat, the higher kept (Warrior; house).
    return replace(dice, mine=2) if kind == COMBAT else dice


def _assassinate(ability: Ability, kind: str, dice: CombatDice) -> CombatDice:
    # house rule H5.15: the one attacked rolls no die (Assassin; house).
    return replace(dice, theirs=0)


def _killer_blow(ability: Ability, kind: str, dice: CombatDice) -> CombatDice:
    # house rule H5.15: a 6 on the Combat die wins at once (Martial Artist; house).
    return replace(dice, killer=True) if kind == COMBAT else dice


def _heal_at_start(ctx: MainContext, res: Resolution, player: str, ability: Ability) -> None:
    # house rule H5.15: heal at the start of the turn (Druid in Woods, Priest on the Chapel; house).
    if here_name(ctx, sheet_of(res, player)) == ability.target:
        heal(res, player, ability.amount, ability.name)


def _spell_at_start(ctx: MainContext, res: Resolution, player: str, ability: Ability) -> None:
    # house rule H5.15: holding fewer Spells than the amount, (Minstrel, Prophetess, Wizard, Philosopher;
    # house).
    # take one, within the Craft limit (house rule H1.2).
    sheet = sheet_of(res, player)
    if len(sheet["spells"]) < ability.amount and room_for_spells(sheet):
        draw_from(res, SPELLS, player)


def _lucky_roll(ctx: MainContext, res: Resolution, player: str, ability: Ability) -> bool:
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose=ability.hook, sides=6, values=[face], draws=draws))
    return face == LUCKY


def _regenerate(ctx: MainContext, res: Resolution, player: str, ability: Ability) -> None:
    # house rule H5.15: a wounded Troll rolls at the start of its turn: on a 6 it heals (Troll; house).
    if sheet_of(res, player)["lives"] < STARTING_LIVES and _lucky_roll(ctx, res, player, ability):
        heal(res, player, ability.amount, ability.name)


def _find_gold(ctx: MainContext, res: Resolution, player: str, ability: Ability) -> None:
    # house rule H5.15: a 6 at the start of the turn finds Gold (Leprechaun; house).
    if _lucky_roll(ctx, res, player, ability):
        res.emit(GoldChanged(player=player, amount=ability.amount, reason=ability.name))


def _extra_movement(ability: Ability, rolled: int, sheet: MainSheet) -> set[int]:
    # house rule H5.15: move up to `amount` more or fewer spaces than rolled (Amazon, Centaur; house).
    more = {rolled + k for k in range(1, ability.amount + 1)}
    return more | {rolled - k for k in range(1, ability.amount + 1) if rolled - k >= 1}


def _wolf_ride(ability: Ability, rolled: int, sheet: MainSheet) -> set[int]:
    # house rule H5.15: with a Wolf Follower, `amount` more spaces (Orc; house).
    return {rolled + ability.amount} if WOLF in sheet["followers"] else set()


def _moves_to(
    ctx: MainContext, state: MainState, player: str, ability: Ability, allowed: Callable[[MainSheet], bool]
) -> list[Action]:
    sheet = state["players"][player]
    if sheet["board"] == INNER or not allowed(sheet):
        return []
    board = ctx.board.board(sheet["board"])
    return [
        Action(f"{ABILITY}{ability.hook}:{sheet['board']}:{i}", player, f"{ability.name}: to the {s.name}")
        for i, s in enumerate(board.spaces)
        if s.name == ability.target and i != sheet["space"]
    ]


def _woodland_move(ctx: MainContext, state: MainState, player: str, ability: Ability) -> list[Action]:
    # house rule H5.15: in place of rolling, from any Woods to the Forest of the region (Elf; house).
    return _moves_to(ctx, state, player, ability, lambda sheet: here_name(ctx, sheet) == "Woods")


def _teleport_self(ctx: MainContext, state: MainState, player: str, ability: Ability) -> list[Action]:
    # house rule H5.15 (Leprechaun, house: a Woods of the character's own region), once a turn in place of
    # moving.
    return _moves_to(ctx, state, player, ability, lambda sheet: True)


BONUS, DICE, START, STEPS, ACTIONS = "bonus", "dice", "start", "steps", "actions"
TURN_HOOKS: dict[str, Hook] = {
    "extra-strength-on-space": Hook(BONUS, _on_space),
    "add-craft-to-strength": Hook(BONUS, _craft_to_strength),
    "extra-strength-vs-spirits": Hook(BONUS, _vs_spirits),
    "extra-strength-vs-characters": Hook(BONUS, _vs_characters),
    "two-dice-combat": Hook(DICE, _two_dice),
    "assassinate": Hook(DICE, _assassinate),
    "killer-blow": Hook(DICE, _killer_blow),
    "heal-at-start": Hook(START, _heal_at_start),
    "spell-at-start": Hook(START, _spell_at_start),
    "regenerate": Hook(START, _regenerate),
    "find-gold": Hook(START, _find_gold),
    "extra-movement": Hook(STEPS, _extra_movement),
    "wolf-ride": Hook(STEPS, _wolf_ride),
    "woodland-move": Hook(ACTIONS, _woodland_move),
    "teleport-self": Hook(ACTIONS, _teleport_self),
}
