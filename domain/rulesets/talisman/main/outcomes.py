"""What each outcome of a place's table does (the closed list of `places.toml`, house rule H5.9).

Each outcome is a small function `(ctx, res, player, amount, target, reason)`; an outcome that leaves
the player a decision offers it as a pending choice (`choices.offer`). House: a character a table sends
elsewhere (`teleport`) does not meet its new space until a later turn.
"""

from __future__ import annotations

from domain.events import DieRolled, LifeGained
from domain.resolution import Resolution
from domain.rulesets.talisman.character import STARTING_LIVES, room_for_spells, stat_now_and_base
from domain.rulesets.talisman.combat import COMBAT, LOST, PSYCHIC
from domain.rulesets.talisman.events import GoldChanged, StatChanged, TurnLost
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, OutcomeRule, is_over, sheet_of, state_of
from domain.rulesets.talisman.main.ending import in_play, lose_lives
from domain.rulesets.talisman.main.events import QuestGiven, SpiritsEmpowered
from domain.rulesets.talisman.main.fights import fight
from domain.rulesets.talisman.main.items import change_alignment, room_to_carry
from domain.rulesets.talisman.main.piles import draw_from
from domain.rulesets.talisman.main.positions import relocate
from domain.rulesets.talisman.main.state import PURCHASE, SPELLS, TALISMANS

ALIGNMENTS = ("good", "neutral", "evil")
DUEL_ROUNDS = 10  # house: ten tied rounds with Death end the duel as a stand-off


def _nothing(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    return None


def _lose_life(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    lose_lives(ctx, res, player, amount, reason)


def _gain_life(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    if amount > 0:
        res.emit(LifeGained(player=player, amount=amount, reason=reason))


def _heal(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    amount = min(amount, STARTING_LIVES - sheet_of(res, player)["lives"])
    _gain_life(ctx, res, player, amount, target, reason)


def _gold(sign: int) -> OutcomeRule:
    def apply(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
        if sign < 0:
            amount = min(amount, sheet_of(res, player)["gold"])  # gold never goes below 0
        if amount > 0:
            res.emit(GoldChanged(player=player, amount=sign * amount, reason=reason))

    return apply


def _stat(stat: str, sign: int) -> OutcomeRule:
    def apply(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
        sheet = sheet_of(res, player)
        if sign < 0:
            # house rule H1.3: Strength and Craft never fall below their starting values.
            now, base = stat_now_and_base(sheet, stat)
            amount = min(amount, now - base)
        if amount > 0:
            res.emit(StatChanged(player=player, stat=stat, amount=sign * amount, reason=reason))

    return apply


def _lose_turn(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    for _ in range(max(1, amount)):
        res.emit(TurnLost(player=player, reason=reason))


def _gain_spell(
    ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str
) -> None:
    # house rule H1.2: a character holds at most as many spells as its Craft allows.
    for _ in range(min(amount, room_for_spells(sheet_of(res, player)))):
        if not draw_from(res, SPELLS, player):
            return


def _gain_talisman(
    ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str
) -> None:
    # Keep 4.5: with the Keep in play a Talisman's gain may send the character to the Keep instead.
    if not any(exp.gains_talisman(res, player) for exp in ctx.expansions):
        draw_from(res, TALISMANS, player)  # none left: nothing


def _teleport(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    if target:
        board, space = ctx.position(target)
        relocate(res, player, board, space, reason)
        return
    board = sheet_of(res, player)["board"]
    spaces = [space.id for space in ctx.board.board(board).spaces]
    offer(res, player, "teleport", spaces)


def _quest(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    quest = next(q for q in ctx.places.quests if q.id == target)
    res.emit(
        QuestGiven(player=player, quest=quest.id, goal=quest.goal, amount=quest.amount, target=quest.target)
    )


def _fight(kind: str) -> OutcomeRule:
    def apply(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
        fight(ctx, res, player, reason, amount, kind)

    return apply


def _fight_rolled(
    ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str
) -> None:
    values, draws = res.dice.roll(6, amount)
    res.emit(DieRolled(player=player, purpose="enemy-strength", sides=6, values=values, draws=draws))
    fight(ctx, res, player, reason, sum(values), COMBAT)


def _fight_many(
    ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str
) -> None:
    (count,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="enemies", sides=6, values=[count], draws=draws))
    for _ in range(count):
        if (
            fight(ctx, res, player, reason, amount, COMBAT) == LOST
            or not in_play(res, player)
            or is_over(res)
        ):
            return


def _duel(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    for _ in range(DUEL_ROUNDS):
        values, draws = res.dice.roll(6, 2 * amount)
        res.emit(DieRolled(player=player, purpose="duel", sides=6, values=values, draws=draws))
        mine, death = sum(values[:amount]), sum(values[amount:])
        if mine != death:  # house rule H5.12: the lower total loses a life, ties roll again
            if mine < death:
                lose_lives(ctx, res, player, 1, reason)
            return


def _spirits(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    res.emit(SpiritsEmpowered(player=player, card=reason, amount=amount))


def _lose_follower(
    ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str
) -> None:
    followers = sheet_of(res, player)["followers"]
    if followers:
        offer(res, player, f"lose-follower:{max(1, amount)}", sorted(set(followers)))


def _life_or_follower(
    ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str
) -> None:
    followers = sheet_of(res, player)["followers"]
    if not followers:
        lose_lives(ctx, res, player, amount, reason)
        return
    offer(res, player, f"life-or-follower:{amount}", ["life", *sorted(set(followers))])


def _alignment(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    if not target:
        offer(res, player, "alignment", list(ALIGNMENTS))
    else:
        change_alignment(ctx, res, player, target, reason)


def _buy(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    options = affordable(ctx, res, player)
    if options:
        offer(res, player, "buy", [*options, "leave"])


def affordable(ctx: MainContext, res: Resolution, player: str) -> list[str]:
    """Returns the Purchase items left that the player can pay for (one of each)."""
    sheet = sheet_of(res, player)
    if not room_to_carry(ctx, sheet):
        return []
    gold = sheet["gold"]
    left = set(state_of(res)["piles"][PURCHASE])
    return sorted(card for card in left if ctx.price(card) <= gold)


def _sell(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    objects = sheet_of(res, player)["objects"]
    if objects:
        offer(res, player, f"sell:{max(1, amount)}", [*sorted(set(objects)), "leave"])


OUTCOMES: dict[str, OutcomeRule] = {
    "nothing": _nothing,
    "lose-life": _lose_life,
    "gain-life": _gain_life,
    "heal": _heal,
    "gain-gold": _gold(1),
    "lose-gold": _gold(-1),
    "gain-strength": _stat("strength", 1),
    "lose-strength": _stat("strength", -1),
    "gain-craft": _stat("craft", 1),
    "lose-craft": _stat("craft", -1),
    "lose-turn": _lose_turn,
    "gain-spell": _gain_spell,
    "teleport": _teleport,
    "quest": _quest,
    "fight": _fight(COMBAT),
    "fight-psychic": _fight(PSYCHIC),
    "fight-rolled": _fight_rolled,
    "fight-many": _fight_many,
    "duel": _duel,
    "lose-follower": _lose_follower,
    "lose-life-or-follower": _life_or_follower,
    "gain-talisman": _gain_talisman,
    "change-alignment": _alignment,
    "buy": _buy,
    "sell-object": _sell,
    "spirits-stronger": _spirits,
    # The Keep's ways in (Keep 4): nothing without the Keep; its expansion owns them (`ctx.outcome_rules`).
    "enter-keep": _nothing,
    "enter-keep-test": _nothing,
}


def apply_outcome(
    ctx: MainContext, res: Resolution, player: str, outcome: str, amount: int, target: str, reason: str
) -> None:
    """Applies one outcome of a place's table to the player (outcome ids are checked at load)."""
    ctx.outcome_rules.get(outcome, _nothing)(ctx, res, player, amount, target, reason)
