"""How a fight's dice are rolled and read once the abilities and readied Spells have their say
(house rules H1, H5.15): Weapon Master's 2 dice, Assassinate's silent victim, Killer Blow's 6, and the
effects readied for the fight (a Spell cast ahead: more Strength or Craft, evading, destroying the
enemy, Iron Skin's save; Raise the Dead's servant)."""

from __future__ import annotations

from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.talisman.combat import COMBAT, PSYCHIC, STANDOFF, WON, compare_totals, fight_events
from domain.rulesets.talisman.events import LifeSaved
from domain.rulesets.talisman.main.ability_hooks import CombatDice
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.events_abilities import EffectSpent, EnemyDestroyed
from domain.rulesets.talisman.main.spells_cards import destroy
from domain.rulesets.talisman.main.state import Ready

BONUS_OF = {COMBAT: "strength-bonus", PSYCHIC: "craft-bonus"}
KILLER_FACE = 6
WHEN_FITS = {COMBAT: ("combat", "any-combat"), PSYCHIC: ("psychic-combat", "any-combat")}


def readied(res: Resolution, player: str, kind: str, effect: str) -> list[Ready]:
    """Returns the player's readied effects of that kind of fight and effect."""
    return [
        r for r in sheet_of(res, player)["ready"] if r["effect"] == effect and r["when"] in WHEN_FITS[kind]
    ]


def spend(res: Resolution, player: str, ready: Ready) -> None:
    """Uses up one readied effect."""
    res.emit(EffectSpent(player=player, name=ready["name"], effect=ready["effect"]))


def _ends_early(ctx: MainContext, res: Resolution, player: str, opponent: str, value: int, kind: str) -> str:
    for ready in readied(res, player, kind, "evade"):
        spend(res, player, ready)  # Invisibility, Mist: the fight ends, nobody loses
        return STANDOFF
    for ready in readied(res, player, kind, "destroy-enemy"):
        if value <= ready["amount"] and opponent not in state_of(res)["players"]:
            spend(res, player, ready)
            return _destroy(ctx, res, player, opponent)
    return ""


def _destroy(ctx: MainContext, res: Resolution, player: str, opponent: str) -> str:
    # Destroy Magic, Exorcism: an enemy card lying here is discarded with no trophy; any other foe is beaten.
    sheet = sheet_of(res, player)
    if opponent not in state_of(res)["cards"][sheet["board"]][sheet["space"]]:
        return WON
    if ctx.expansion_on(sheet["board"]) is not None:  # Dungeon 10.1: to the Dungeon deck's discards
        destroy(ctx, res, player, sheet["board"], sheet["space"], opponent)
    else:
        res.emit(EnemyDestroyed(player=player, card=opponent, space=sheet["space"]))
    return STANDOFF


def readied_bonus(res: Resolution, player: str, kind: str) -> int:
    """Spends the readied Strength (Combat) or Craft (Psychic Combat) bonuses; returns their sum."""
    total = 0
    for ready in readied(res, player, kind, BONUS_OF[kind]):
        spend(res, player, ready)
        total += ready["amount"]
    return total


def roll_fight(
    res: Resolution, player: str, mine: int, opponent: str, value: int, kind: str, dice: CombatDice
) -> str:
    """Rolls the fight's dice as `dice` says, records them and the totals, and returns the outcome."""
    values, draws = res.dice.roll(6, dice.mine + dice.theirs)
    kept = max(values[: dice.mine])
    theirs = max(values[dice.mine :], default=0)  # the other side's best die, if it rolls
    totals = (mine + kept, value + theirs)
    outcome = compare_totals(*totals)
    if dice.killer and kept == KILLER_FACE:
        outcome = WON  # Killer Blow
    res.emit(*fight_events(player, opponent, kind, totals, outcome, values, draws))
    return outcome


def fight_dice(
    ctx: MainContext,
    res: Resolution,
    player: str,
    mine: int,
    opponent: str,
    value: int,
    kind: str,
    dice: CombatDice,
) -> str:
    """Resolves a fight of the player: readied effects first (evading, destroying), then the dice."""
    early = _ends_early(ctx, res, player, opponent, value, kind)
    if early:
        return early
    return roll_fight(res, player, mine + readied_bonus(res, player, kind), opponent, value, kind, dice)


def iron_skin(res: Resolution, player: str, kind: str) -> bool:
    """Tells whether a readied Iron Skin saves the life just lost in Combat (1 die, its face or more)."""
    if kind != COMBAT:
        return False
    for ready in readied(res, player, kind, "armour"):
        spend(res, player, ready)
        (face,), draws = res.dice.roll(6)
        res.emit(DieRolled(player=player, purpose="armour", sides=6, values=[face], draws=draws))
        if face >= ready["amount"]:
            res.emit(LifeSaved(player=player, item=ready["name"]))
            return True
    return False
