"""Making the pending choices the main board's rules offer (`choose:<option>`), by the choice's kind.

Kinds: `service:<table>` (a place's services, `roll`, `leave`), `buy` (the Purchase deck), `sell:<gold>`,
`teleport` (a space of the character's region), `lose-follower:<n>`, `life-or-follower:<n>`,
`alignment`, `black-knight` (`pay` the toll or `fight`). A choice that leaves more to decide (a
service that may be bought again, a second Follower to lose) is offered afresh.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.resolution import Resolution
from domain.rulesets.talisman.combat import COMBAT, WON
from domain.rulesets.talisman.events import ChoiceMade, FollowerLeft, GoldChanged, ItemGivenUp
from domain.rulesets.talisman.main.abilities import ABILITIES
from domain.rulesets.talisman.main.adventure import draw_and_meet
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.ending import lose_lives
from domain.rulesets.talisman.main.events import ItemBought, ItemSold
from domain.rulesets.talisman.main.fights import fight
from domain.rulesets.talisman.main.items import change_alignment
from domain.rulesets.talisman.main.outcomes import affordable, apply_outcome
from domain.rulesets.talisman.main.places import FIGHT, LEAVE, PAY, ROLL, offer_services, roll_rows, run_table
from domain.rulesets.talisman.main.positions import relocate
from domain.rulesets.talisman.main.state import PURCHASE, deck_of

Decision = Callable[[MainContext, Resolution, str, str, str], None]


def _service(ctx: MainContext, res: Resolution, player: str, option: str, table_id: str) -> None:
    table = ctx.table(table_id)
    if option == ROLL:
        roll_rows(ctx, res, player, table)
        return
    service = next(s for s in table.services if s.id == option)
    if service.cost and service.pay == "gold":
        res.emit(GoldChanged(player=player, amount=-service.cost, reason=service.name))
    elif service.cost:
        # Keep 4.3: the Magic Object brought to the Enchantress leaves the board (the one carried longest).
        card = next(c for c in sheet_of(res, player)["objects"] if ctx.is_magic(c))
        res.emit(ItemGivenUp(player=player, card=card))
    if service.table:
        run_table(ctx, res, player, service.table)
    else:
        apply_outcome(ctx, res, player, service.outcome, service.amount, "", service.name)
    if service.repeat and state_of(res)["choice"] is None:
        offer_services(ctx, res, player, table)


def _buy(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    res.emit(ItemBought(player=player, card=option, price=ctx.price(option)))
    options = affordable(ctx, res, player)
    if options:
        offer(res, player, "buy", [*options, LEAVE])


def _sell(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    # The ledger follows a Purchase item back into its pile; an Adventure Object goes to the discards.
    pile = PURCHASE if deck_of(option) == PURCHASE else ""
    res.emit(ItemSold(player=player, card=option, gold=int(arg), pile=pile))
    objects = sheet_of(res, player)["objects"]
    if objects:
        offer(res, player, f"sell:{arg}", [*sorted(set(objects)), LEAVE])


def _teleport(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    board, space = ctx.position(option)
    relocate(res, player, board, space, "teleport")


def _lose_follower(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    res.emit(FollowerLeft(player=player, card=option))
    left = int(arg) - 1
    followers = sheet_of(res, player)["followers"]
    if left > 0 and followers:
        offer(res, player, f"lose-follower:{left}", sorted(set(followers)))


def _life_or_follower(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    if option == "life":
        if lose_lives(ctx, res, player, 1, "the Vampire's Tower"):
            return
    else:
        res.emit(FollowerLeft(player=player, card=option))
    left = int(arg) - 1
    if left <= 0:
        return
    followers = sheet_of(res, player)["followers"]
    if followers:
        offer(res, player, f"life-or-follower:{left}", ["life", *sorted(set(followers))])
    else:
        lose_lives(ctx, res, player, left, "the Vampire's Tower")


def _alignment(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    change_alignment(ctx, res, player, option, "a chosen alignment")


def _black_knight(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    space = ctx.here(res, player)
    if option == PAY:
        res.emit(GoldChanged(player=player, amount=-space.toll, reason=space.name))
    elif option == FIGHT and fight(ctx, res, player, space.name, space.guard, COMBAT) != WON:
        return
    draw_and_meet(ctx, res, player, space.draws)


DECISIONS: dict[str, Decision] = {
    "service": _service,
    "buy": _buy,
    "sell": _sell,
    "teleport": _teleport,
    "lose-follower": _lose_follower,
    "life-or-follower": _life_or_follower,
    "alignment": _alignment,
    "black-knight": _black_knight,
}


def make_choice(ctx: MainContext, res: Resolution, player: str, option: str) -> None:
    """Records the choice made and resolves it by its kind (`leave` ends it)."""
    choice = state_of(res)["choice"]
    assert choice is not None  # legality: `choose:` is open only while a choice waits
    kind, _, arg = choice["kind"].partition(":")
    res.emit(ChoiceMade(player=player, kind=choice["kind"], option=option))
    if kind not in DECISIONS:
        ABILITIES.choose(
            ctx, res, player, kind, option, arg
        )  # the abilities', Spells' and characters' choices
    elif option != LEAVE:
        DECISIONS[kind](ctx, res, player, option, arg)
