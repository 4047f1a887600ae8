"""Moving on the main board (house rules H5): the die and the direction, the Inner Region, the crossings.

- Outer and Middle Regions: `roll` (one die), then `go:<board>:<space>` for each space exactly that
  many spaces clockwise or anticlockwise (one action when both land on the same space).
- Inner Region (house: no roll): `advance` one space toward the Crown. House: the Inner Region is a
  ring whose far side is the Valley of Fire (4): from the Plain of Peril (0) to the Pits (3) `advance`
  goes up the indices, from the Crypt (7) to the Werewolf Den (5) down them; on the Plain of Peril
  `advance:crypt` takes the other way round. The Valley of Fire is entered only holding a Talisman;
  from it `advance` reaches the Crown. `retreat` goes one space back toward the Plain of Peril, and
  from it back to the Portal of Power (house: a character without a Talisman is never stuck).
- Crossings: `cross:sentinel` (on the Sentinel: Combat with the Sentinel, its guard Strength; a win
  crosses to the Middle Region's Hills; from those Hills `cross:back` returns to the Sentinel without
  a fight, house: the Sentinel bars only the way in), `cross:raft` (holding a Raft on an Outer space:
  to the Middle space at the same angle, index * 16 // 24, house), `portal:strength` /
  `portal:craft` (on the Portal of Power: 2 dice ≤ the ability → the Plain of Peril, else stay and
  lose 1 of it, never under its starting value, house rule H1.3).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.actions import Action
from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.talisman.character import stat_now_and_base
from domain.rulesets.talisman.combat import COMBAT, WON
from domain.rulesets.talisman.events import StatChanged
from domain.rulesets.talisman.main.abilities import ABILITIES
from domain.rulesets.talisman.main.context import MainContext, sheet_of
from domain.rulesets.talisman.main.ending import cast_command_spell
from domain.rulesets.talisman.main.fights import fight
from domain.rulesets.talisman.main.items import extra_steps
from domain.rulesets.talisman.main.regions import Region, go_to
from domain.rulesets.talisman.main.state import INNER, MIDDLE, MOVEMENT, OUTER, MainSheet, MainState

RING_BOARDS = (OUTER, MIDDLE)
PLAIN_OF_PERIL, VALLEY_OF_FIRE, CRYPT = 0, 4, 7
PORTAL_OF_POWER = 0  # index on the Middle Region
RAFT = "raft"  # the effect of a Raft (Purchase deck or Adventure deck)
SENTINEL_KIND, PORTAL_KIND = "sentinel", "portal-of-power"
Regions = dict[str, Region]
Step = Callable[[MainContext, Regions, Resolution, str, str], None]
# house rule H5.4: the Sentinel guards the crossing to the Hills (house)
SENTINEL_LEADS_TO = "talisman/space/middle/hills"
SENTINEL = "talisman/space/outer/sentinel"


def destinations(ctx: MainContext, board: str, space: int, steps: int) -> list[tuple[str, int]]:
    """Returns the spaces exactly `steps` away clockwise and anticlockwise (one when they coincide)."""
    size = ctx.sizes[board]
    ahead, back = (space + steps) % size, (space - steps) % size
    return [(board, ahead)] if ahead == back else [(board, ahead), (board, back)]


def holds_talisman(sheet: MainSheet) -> bool:
    """Tells whether a character holds a Talisman."""
    return bool(sheet["talismans"])


def inner_step(sheet: MainSheet, the_long_way: bool = False) -> tuple[str, int] | None:
    """Returns where `advance` leads from an Inner space, or None when the Valley of Fire is barred."""
    space = sheet["space"]
    if space == VALLEY_OF_FIRE:
        return ("crown", 0)
    if space == PLAIN_OF_PERIL:
        target = CRYPT if the_long_way else 1
    else:
        target = space + 1 if space < VALLEY_OF_FIRE else space - 1
    if target == VALLEY_OF_FIRE and not holds_talisman(sheet):
        return None  # house rule H5.6: only a character holding a Talisman enters the Valley of Fire
    return (INNER, target)


def retreat_step(sheet: MainSheet) -> tuple[str, int]:
    """Returns where `retreat` leads from an Inner space (toward the Plain of Peril, then the Portal)."""
    space = sheet["space"]
    if space == PLAIN_OF_PERIL:
        return (MIDDLE, PORTAL_OF_POWER)
    if space == VALLEY_OF_FIRE:
        return (INNER, space - 1)
    return (INNER, space - 1 if space < VALLEY_OF_FIRE else (space + 1) % 8)


def move_actions(ctx: MainContext, state: MainState, player: str) -> list[Action]:
    """Returns the movement actions open at the start of a turn (before any roll)."""
    sheet = state["players"][player]
    if sheet["board"] == INNER:
        actions = []
        step = inner_step(sheet)
        if step is not None:
            actions.append(Action("advance", player, f"Advance to the {ctx.space(*step).name}"))
        if sheet["space"] == PLAIN_OF_PERIL:
            actions.append(Action("advance:crypt", player, "Advance the other way round, to the Crypt"))
        board, space = retreat_step(sheet)
        back = f"Go back to the {ctx.space(board, space).name}"
        return [*actions, Action("retreat", player, back)]
    actions = [Action("roll", player, "Roll the die to move")]
    kind = ctx.space(sheet["board"], sheet["space"]).kind
    if kind == SENTINEL_KIND:
        actions.append(Action("cross:sentinel", player, "Fight the Sentinel to cross to the Middle Region"))
    if (sheet["board"], sheet["space"]) == ctx.position(SENTINEL_LEADS_TO):
        actions.append(Action("cross:back", player, "Cross back past the Sentinel to the Outer Region"))
    if sheet["board"] == OUTER and ctx.holds(sheet, RAFT):
        actions.append(Action("cross:raft", player, "Cross the river on the Raft to the Middle Region"))
    if kind == PORTAL_KIND:
        actions.append(Action("portal:strength", player, "Try to open the Portal of Power by Strength"))
        actions.append(Action("portal:craft", player, "Try to open the Portal of Power by Craft"))
    return actions


def _spots(ctx: MainContext, state: MainState, player: str) -> list[tuple[str, int]]:
    sheet = state["players"][player]
    steps = state["rolled"] + extra_steps(ctx, sheet)
    reached = destinations(ctx, sheet["board"], sheet["space"], steps)
    return ABILITIES.destinations(ctx, state, player, reached)


def go_actions(ctx: MainContext, state: MainState, player: str) -> list[Action]:
    """Returns the `go:` actions after the movement roll."""
    return [
        Action(f"go:{board}:{space}", player, f"Move to {ctx.place_words(board, space)}")
        for board, space in _spots(ctx, state, player)
    ]


def go_ids(ctx: MainContext, state: MainState, player: str) -> set[str]:
    """Returns the ids of the `go:` actions after the movement roll (no labels: a legality check)."""
    return {f"go:{board}:{space}" for board, space in _spots(ctx, state, player)}


def roll(ctx: MainContext, regions: Regions, res: Resolution, player: str, action_id: str) -> None:
    """Rolls the movement die (the destinations are the `go:` actions that follow)."""
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose=MOVEMENT, sides=6, values=[face], draws=draws))


def go(ctx: MainContext, regions: Regions, res: Resolution, player: str, action_id: str) -> None:
    """Moves to the chosen destination of the roll (`go:<board>:<space>`) and resolves that space."""
    _, board, space = action_id.split(":")
    go_to(regions, res, player, board, int(space), "movement")


def advance(ctx: MainContext, regions: Regions, res: Resolution, player: str, action_id: str) -> None:
    """Moves one space toward the Crown in the Inner Region (house: no roll; `advance:crypt` the
    other way round from the Plain of Peril)."""
    step = inner_step(sheet_of(res, player), the_long_way=action_id == "advance:crypt")
    if step is not None:
        go_to(regions, res, player, step[0], step[1], "advance")


def retreat(ctx: MainContext, regions: Regions, res: Resolution, player: str, action_id: str) -> None:
    """Moves one space back toward the Plain of Peril, or from it to the Portal of Power."""
    board, space = retreat_step(sheet_of(res, player))
    go_to(regions, res, player, board, space, "retreat")


def cross_sentinel(ctx: MainContext, regions: Regions, res: Resolution, player: str, action_id: str) -> None:
    """Fights the Sentinel in Combat; a win crosses to the Middle Region's Hills (house rule H5.4)."""
    sheet = sheet_of(res, player)
    guard = ctx.space(sheet["board"], sheet["space"]).guard
    if fight(ctx, res, player, "the Sentinel", guard, COMBAT) == WON:
        board, space = ctx.position(SENTINEL_LEADS_TO)
        go_to(regions, res, player, board, space, "sentinel")


def cross_back(ctx: MainContext, regions: Regions, res: Resolution, player: str, action_id: str) -> None:
    """Crosses from the Middle Region's Hills back to the Sentinel (house: no fight on the way out)."""
    board, space = ctx.position(SENTINEL)
    go_to(regions, res, player, board, space, "sentinel")


def cross_raft(ctx: MainContext, regions: Regions, res: Resolution, player: str, action_id: str) -> None:
    """Crosses on a Raft to the Middle space at the same angle (house: index * 16 // 24)."""
    space = sheet_of(res, player)["space"] * ctx.sizes[MIDDLE] // ctx.sizes[OUTER]
    go_to(regions, res, player, MIDDLE, space, "raft")


def portal(ctx: MainContext, regions: Regions, res: Resolution, player: str, action_id: str) -> None:
    """Tries the Portal of Power (`portal:strength` / `portal:craft`): 2 dice ≤ the ability → the
    Plain of Peril, else lose 1 of it."""
    stat = action_id.removeprefix("portal:")
    sheet = sheet_of(res, player)
    values, draws = res.dice.roll(6, 2)
    res.emit(DieRolled(player=player, purpose=f"portal-{stat}", sides=6, values=values, draws=draws))
    now, base = stat_now_and_base(sheet, stat)
    if sum(values) <= now:
        go_to(regions, res, player, INNER, PLAIN_OF_PERIL, "portal of power")
    elif now > base:
        res.emit(StatChanged(player=player, stat=stat, amount=-1, reason="the Portal of Power"))


def command(ctx: MainContext, regions: Regions, res: Resolution, player: str, action_id: str) -> None:
    """Casts the Command Spell from the Crown of Command (house rule H5.19)."""
    cast_command_spell(ctx, res, player)


# Each movement action by its id, or by the part of its id before the first colon.
STEPS: dict[str, Step] = {
    "roll": roll,
    "go": go,
    "advance": advance,
    "retreat": retreat,
    "cross:sentinel": cross_sentinel,
    "cross:back": cross_back,
    "cross:raft": cross_raft,
    "portal": portal,
    "command": command,
}
