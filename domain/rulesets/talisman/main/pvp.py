"""Character against character (house rule H5.16): a character landing where others stand may attack one
in place of meeting the space (Combat, or Psychic Combat where an ability allows), steal Gold or
beguile a Follower where an ability allows. The winner of a fight takes a life, an Object or 1 Gold
from the loser: the winner's choice (`spoils:<loser>:<kind>`); then its abilities of beating a
character act (Imprison, Rout). House: a life taken so is lost with no save; the one attacked fights
with its abilities' bonuses and its number of dice (Weapon Master's two), not its Spells.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.talisman.combat import COMBAT, LOST, PSYCHIC, WON
from domain.rulesets.talisman.main.ability_encounters import BEAT, OPTIONS
from domain.rulesets.talisman.main.ability_hooks import DICE, CombatDice
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.duels import fight_dice
from domain.rulesets.talisman.main.ending import in_play, lose_lives
from domain.rulesets.talisman.main.events_abilities import (
    CharacterAttacked,
    FollowerTaken,
    GoldStolen,
    SpoilsTaken,
)
from domain.rulesets.talisman.main.hook_lookup import at
from domain.rulesets.talisman.main.items import effective, may_hold, room_to_carry
from domain.rulesets.talisman.main.positions import relocate

LIFE, GOLD = "life", "gold"
BEGUILE_FACES = (4, 5, 6)  # house rule H5.15: Beguile works on 4-6 (Sorceress; house).
Decision = Callable[[MainContext, Resolution, str, str, str], None]


def fight_value(ctx: MainContext, res: Resolution, player: str, kind: str, opponent: str) -> int:
    """Returns a character's Strength or Craft in a fight, with its items' and abilities' bonuses."""
    return effective(ctx, sheet_of(res, player), kind) + ctx.steps.combat_bonus(
        ctx, state_of(res), player, kind, opponent
    )


def attack_dice(ctx: MainContext, res: Resolution, player: str, victim: str, kind: str) -> CombatDice:
    """Returns how the fight's dice are rolled: the attacker's abilities, then the victim's own number
    of dice (Weapon Master defends too, unless Assassinate leaves it none)."""
    defending = CombatDice()
    for ability, hook in at(ctx, sheet_of(res, victim), DICE):
        defending = hook.run(ability, kind, defending)
    dice = CombatDice(theirs=defending.mine)
    for ability, hook in at(ctx, sheet_of(res, player), DICE):
        dice = hook.run(ability, kind, dice)
    return dice


def attack(ctx: MainContext, res: Resolution, player: str, victim: str, kind: str) -> str:
    """Fights another character; the winner is offered its spoils. Returns the attacker's outcome."""
    res.emit(CharacterAttacked(player=player, victim=victim, kind=kind))
    mine = fight_value(ctx, res, player, kind, victim)
    theirs = fight_value(ctx, res, victim, kind, player)
    outcome = fight_dice(
        ctx, res, player, mine, victim, theirs, kind, attack_dice(ctx, res, player, victim, kind)
    )
    if outcome == WON:
        offer_spoils(ctx, res, player, victim, kind)
    elif outcome == LOST:
        offer_spoils(ctx, res, victim, player, kind)
    return outcome


def spoils_options(ctx: MainContext, res: Resolution, winner: str, loser: str) -> list[str]:
    """Returns what the winner may take from the loser: a life, 1 Gold, an Object it has room for."""
    lost = sheet_of(res, loser)
    options = [LIFE] if lost["lives"] > 0 else []
    options += [GOLD] if lost["gold"] > 0 else []
    taker = sheet_of(res, winner)
    if not room_to_carry(ctx, taker):
        return options
    return options + sorted({card for card in lost["objects"] if may_hold(ctx, taker, card)})


def offer_spoils(ctx: MainContext, res: Resolution, winner: str, loser: str, kind: str) -> None:
    """Offers the winner its spoils (or goes straight on to its abilities of winning)."""
    options = spoils_options(ctx, res, winner, loser)
    if options:
        offer(res, winner, f"spoils:{loser}:{kind}", options)
    else:
        after_win(ctx, res, winner, loser, kind)


def after_win(ctx: MainContext, res: Resolution, winner: str, loser: str, kind: str) -> None:
    """Runs the winner's abilities of beating a character in Combat (Imprison, Rout)."""
    if kind != COMBAT or not in_play(res, loser):
        return
    for ability, hook in at(ctx, sheet_of(res, winner), BEAT):
        hook.run(ctx, res, winner, ability, loser)


def _spoils(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    loser, _, kind = arg.rpartition(":")
    character = sheet_of(res, loser)["character"]
    res.emit(SpoilsTaken(player=player, loser=loser, spoils=option))
    if option == LIFE and lose_lives(ctx, res, loser, 1, f"beaten by {player}"):
        return
    if sheet_of(res, loser)["character"] == character:
        after_win(ctx, res, player, loser, kind)


def _rout(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    board, space = ctx.position(option)
    relocate(res, arg, board, space, "rout")


def steal(ctx: MainContext, res: Resolution, player: str, victim: str) -> None:
    """Takes Gold from a character on the space (the Thief's Light Fingers)."""
    amount = max(
        (a.amount for a, h in at(ctx, sheet_of(res, player), OPTIONS) if a.hook == "steal-gold"), default=1
    )
    amount = min(amount, sheet_of(res, victim)["gold"])
    if amount:
        res.emit(GoldStolen(player=player, victim=victim, amount=amount, reason="Light Fingers"))


def beguile(ctx: MainContext, res: Resolution, player: str, victim: str) -> None:
    """Rolls to take a Follower from a character on the space (4-6); the Sorceress picks which."""
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="beguile", sides=6, values=[face], draws=draws))
    followers = sorted(set(sheet_of(res, victim)["followers"]))
    if face not in BEGUILE_FACES or not followers:
        return
    if len(followers) == 1:
        res.emit(FollowerTaken(player=player, victim=victim, card=followers[0]))
    else:
        offer(res, player, f"beguile:{victim}", followers)


def _beguiled(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    res.emit(FollowerTaken(player=player, victim=arg, card=option))


def encounter_character(ctx: MainContext, res: Resolution, player: str, option: str) -> None:
    """Resolves a character-against-character option: `attack:`, `psychic:`, `steal:` or `beguile:`."""
    how, _, victim = option.partition(":")
    if how == "steal":
        steal(ctx, res, player, victim)
    elif how == "beguile":
        beguile(ctx, res, player, victim)
    else:
        attack(ctx, res, player, victim, PSYCHIC if how == "psychic" else COMBAT)


PVP_DECISIONS: dict[str, Decision] = {"spoils": _spoils, "rout": _rout, "beguile": _beguiled}
