"""What every space of the main board does when a character lands on it: a dispatch table from the
space's `kind` (board.toml) to its handler (house rule H5.1).

Most places run their die table from `places.toml` (`run_table`): an outcome fixed for the
character's alignment (or for everyone) is taken without a roll; a place with services (the Village's
Healer, Blacksmith and Mystic…) offers them as a pending choice (with `roll` when it also has rows,
and `leave`); otherwise its dice are rolled (less the character's Strength or Craft for the Crypt and
the Mines) and the row of the total applies. Spaces that draw cards fill up from the Adventure deck
and meet their cards first. The Desert takes a life unless the character holds a Water Bottle; the
Black Knight asks for its toll or a fight; the Plain of Peril, the Valley of Fire and the Crown do
nothing on landing (the Crown's work is its centre hook and `command`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.talisman.character import STARTING_LIVES
from domain.rulesets.talisman.main.abilities import ABILITIES
from domain.rulesets.talisman.main.adventure import Here, draw_and_meet
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.content_board import KINDS
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.ending import lose_lives
from domain.rulesets.talisman.main.outcomes import apply_outcome
from domain.rulesets.talisman.main.quests import check_quest

if TYPE_CHECKING:
    from domain.rulesets.talisman.main.content_board import Service, Space, Table

SpaceRule = Callable[[MainContext, Resolution, str, "Space"], None]
WATER = "water"  # the effect of a Water Bottle
ROLL, LEAVE, PAY, FIGHT = "roll", "leave", "pay", "fight"


def resolve_space(ctx: MainContext, res: Resolution, player: str) -> None:
    """Resolves the space the player has just landed on (unless an ability keeps it from meeting it)."""
    here = Here(res, player)
    check_quest(ctx, res, player)  # its reward may send the character away (to the Keep, Keep 4.5)
    if here.still(res, player) and ABILITIES.meets_space(ctx, res, player):
        meet_space(ctx, res, player)


def meet_space(ctx: MainContext, res: Resolution, player: str) -> None:
    """Does what the player's space does: its kind's handler."""
    space = ctx.here(res, player)
    PLACES[space.kind](ctx, res, player, space)


def _draw_then_table(ctx: MainContext, res: Resolution, player: str, space: Space) -> None:
    here = Here(res, player)
    state = state_of(res)
    if space.draws:
        draw_and_meet(ctx, res, player, space.draws + ABILITIES.extra_draws(ctx, state, player))
    if space.table and here.still(res, player) and not ABILITIES.ignores_table(ctx, res, player):
        run_table(ctx, res, player, space.table)


def _nothing(ctx: MainContext, res: Resolution, player: str, space: Space) -> None:
    return None


def _desert(ctx: MainContext, res: Resolution, player: str, space: Space) -> None:
    # house rule H5.8: the Desert takes a life from a character without a Water Bottle.
    if not ctx.holds(sheet_of(res, player), WATER):
        lose_lives(ctx, res, player, 1, space.name)


def _black_knight(ctx: MainContext, res: Resolution, player: str, space: Space) -> None:
    # house rule H5.7: pay the Black Knight's toll or fight him (house).
    can_pay = sheet_of(res, player)["gold"] >= space.toll
    offer(res, player, "black-knight", [PAY, FIGHT] if can_pay else [FIGHT])


def available_services(ctx: MainContext, res: Resolution, player: str, table: Table) -> list[Service]:
    """Returns the services of a place the player may take now (affordable, useful, option on)."""
    sheet = sheet_of(res, player)
    found = []
    for service in table.services:
        if service.option and ctx.options.get(service.option) != "true":
            continue
        if service.pay == "gold" and sheet["gold"] < service.cost:
            continue
        if service.pay == "magic-object" and not any(ctx.is_magic(c) for c in sheet["objects"]):
            continue
        if service.outcome == "heal" and sheet["lives"] >= STARTING_LIVES:
            continue
        if not all(exp.offers(sheet, service.outcome) for exp in ctx.expansions):
            continue  # Keep 4.2-4.4: a way into the Keep the character could not take now
        found.append(service)
    return found


def offer_services(ctx: MainContext, res: Resolution, player: str, table: Table) -> bool:
    """Offers a place's services (and `roll` when it has rows) as a choice; False when none is open."""
    services = available_services(ctx, res, player, table)
    if not services:
        return False
    options = [s.id for s in services] + ([ROLL] if table.rows else []) + [LEAVE]
    offer(res, player, f"service:{table.id}", options)
    return True


def run_table(ctx: MainContext, res: Resolution, player: str, table_id: str) -> None:
    """Runs a place's table: a fixed outcome, its services as a choice, or a roll on its rows."""
    table = ctx.table(table_id)
    alignment = sheet_of(res, player)["alignment"]
    fixed = [f for f in table.fixed if f.alignment == alignment] or [
        f for f in table.fixed if not f.alignment
    ]
    if fixed:
        apply_outcome(ctx, res, player, fixed[0].outcome, fixed[0].amount, fixed[0].target, table.name)
        return
    if offer_services(ctx, res, player, table):
        return
    roll_rows(ctx, res, player, table)


def roll_rows(ctx: MainContext, res: Resolution, player: str, table: Table) -> None:
    """Rolls a table's dice (less an ability for the Crypt and the Mines) and applies the row."""
    if not table.rows:
        return
    values, draws = res.dice.roll(6, table.dice)
    res.emit(DieRolled(player=player, purpose=table.id, sides=6, values=values, draws=draws))
    total = sum(values) - (sheet_of(res, player)[table.minus] if table.minus else 0)
    # Rows cover every total; the first and last rows of a table less an ability are open-ended.
    total = max(table.rows[0].low, min(table.rows[-1].high, total))
    row = next(r for r in table.rows if r.low <= total <= r.high)
    apply_outcome(ctx, res, player, row.outcome, row.amount, row.target, table.name)


# Every other kind of space draws its Adventure cards (if any), then rolls on its table (if any).
_OWN_RULES: dict[str, SpaceRule] = {
    "desert": _desert,
    "black-knight": _black_knight,
    "valley-of-fire": _nothing,
    "crown": _nothing,
}
PLACES: dict[str, SpaceRule] = {kind: _OWN_RULES.get(kind, _draw_then_table) for kind in KINDS}
