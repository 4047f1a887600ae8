"""Leaving the Dungeon for the main board (Dungeon 8, 9.1, 13; house rule H2.14).

- From the Entrance, on a later turn than the one that brought the character down (Dungeon 8.2), and
  always once fleeing brought it there (9.1): to any Doorway on the main board (`dungeon:door:<board>:
  <space>`), the whole move; it must then move on the main board for at least one turn.
- From the Treasure Chamber, the turn after reaching it (Dungeon 8.1, `dungeon:chamber`): by the table
  (one die, +1 for each character on the Crown, over 6 counts as 6; `dungeon-exits.toml`), the whole
  move. With `dungeon.talisman_exit` (13.1) to the Portal of Power; with `dungeon.crown_exit` (13.2), once
  anyone has reached the Crown, to the Crown.
- By the Tunnel (Dungeon 8.3), the turn after landing where it lies: house, to any Doorway, as from the
  Entrance.
House: a character coming out does not meet the space it comes out on until a later turn (as a main-board
table that sends a character elsewhere); while no Doorway lies on the board a way to a Doorway comes out
on the file's `fallback` space (the Village).
"""

from __future__ import annotations

from domain.actions import Action
from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.dungeon.main.content import DOORWAY, is_doorway, load_exits
from domain.rulesets.dungeon.main.events import TreasureChamberRolled
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, state_of
from domain.rulesets.talisman.main.ending import in_play, reach_crown
from domain.rulesets.talisman.main.positions import relocate
from domain.rulesets.talisman.main.state import CROWN, MainState

DOOR = "dungeon:door:"
CHAMBER = "dungeon:chamber"
BY_DOOR = "left the Dungeon by a Doorway"  # the crossing's reason from the Entrance or by the Tunnel
DOOR_CHOICE = "dungeon-door"  # the Treasure Chamber's 1: a Doorway of the player's choice
PORTAL = "talisman/space/middle/portal-of-power"
MAIN_BOARDS = ("outer", "middle", "inner")


def doorways(ctx: MainContext, state: MainState) -> list[tuple[str, int]]:
    """Returns the main-board spaces a Doorway lies on, board by board."""
    return [
        (board, index)
        for board in MAIN_BOARDS
        for index, cards in enumerate(state["cards"][board])
        if any(is_doorway(ctx, card) for card in cards)
    ]


def door_actions(ctx: MainContext, state: MainState, player: str, how: str) -> list[Action]:
    """Returns the actions that leave the Dungeon to each Doorway (or to the fallback space)."""
    found = doorways(ctx, state)
    if not found:
        return [
            Action(f"{DOOR}{board}:{space}", player, f"{how}: come out on the {ctx.space(board, space).name}")
            for board, space in [ctx.position(load_exits().fallback)]
        ]
    return [
        Action(
            f"{DOOR}{board}:{space}",
            player,
            f"{how}: come out at the Doorway on {ctx.place_words(board, space)}",
        )
        for board, space in found
    ]


def leave_to(ctx: MainContext, res: Resolution, player: str, board: str, space: int, reason: str) -> None:
    """Brings a character out of the Dungeon onto a main-board space, not meeting it (house)."""
    relocate(res, player, board, space, reason)
    if board == CROWN:
        reach_crown(ctx, res, player)


def leave_by_door(ctx: MainContext, res: Resolution, player: str, action_id: str) -> None:
    """Leaves by the Entrance or the Tunnel to the Doorway an action names (Dungeon 8.2, 8.3)."""
    board, _, space = action_id.removeprefix(DOOR).partition(":")
    leave_to(ctx, res, player, board, int(space), BY_DOOR)


def chamber_label(ctx: MainContext, state: MainState) -> str:
    """Returns what leaving the Treasure Chamber does, in words."""
    if ctx.options.get("dungeon.talisman_exit") == "true":
        return "Leave the Treasure Chamber for the Portal of Power (Dungeon 13.1)"
    if ctx.options.get("dungeon.crown_exit") == "true" and state["crown_reached"]:
        return "Leave the Treasure Chamber for the Crown of Command (Dungeon 13.2)"
    return "Leave the Treasure Chamber by its table"


def leave_chamber(ctx: MainContext, res: Resolution, player: str) -> None:
    """Leaves the Treasure Chamber: by the table, or by an alternative rule in play (Dungeon 8.1, 13)."""
    if ctx.options.get("dungeon.talisman_exit") == "true":
        leave_to(ctx, res, player, *ctx.position(PORTAL), "the Treasure Chamber (Dungeon 13.1)")
    elif ctx.options.get("dungeon.crown_exit") == "true" and state_of(res)["crown_reached"]:
        leave_to(ctx, res, player, CROWN, 0, "the Treasure Chamber (Dungeon 13.2)")
    else:
        roll_chamber_table(ctx, res, player)


def crowned(res: Resolution) -> int:
    """Returns how many characters in play stand on the Crown of Command."""
    state = state_of(res)
    return sum(
        1 for name in state["order"] if in_play(res, name) and state["players"][name]["board"] == CROWN
    )


def roll_chamber_table(ctx: MainContext, res: Resolution, player: str) -> None:
    """Rolls on the Treasure Chamber table (+1 per character on the Crown, over 6 counts as 6)."""
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="treasure-chamber", sides=6, values=[face], draws=draws))
    bonus = crowned(res)
    total = min(6, face + bonus)
    row = load_exits().row(total)
    res.emit(TreasureChamberRolled(player=player, face=face, bonus=bonus, total=total, to_space=row.to))
    if row.to != DOORWAY:
        leave_to(ctx, res, player, *ctx.position(row.to), "the Treasure Chamber's table")
        return
    found = doorways(ctx, state_of(res))
    if len(found) == 1 or not found:
        board, space = found[0] if found else ctx.position(load_exits().fallback)
        leave_to(ctx, res, player, board, space, "the Treasure Chamber's table")
        return
    offer(res, player, DOOR_CHOICE, [ctx.space(board, space).id for board, space in found])


def door_chosen(ctx: MainContext, res: Resolution, player: str, option: str) -> None:
    """Comes out at the Doorway chosen after the Treasure Chamber's 1."""
    leave_to(ctx, res, player, *ctx.position(option), "the Treasure Chamber's table")


def door_label(ctx: MainContext, option: str) -> str:
    """Returns a Doorway to come out at, in words."""
    board, space = ctx.position(option)
    return f"Come out at the Doorway on {ctx.place_words(board, space)}"


def tunnel_actions(ctx: MainContext, state: MainState, player: str) -> list[Action]:
    """Returns the ways out by the Tunnel (Dungeon 8.3): where the exits file says it leads."""
    how = "Leave by the Tunnel"
    to = load_exits().tunnel
    if to == DOORWAY:
        return door_actions(ctx, state, player, how)
    board, space = ctx.position(to)
    return [
        Action(f"{DOOR}{board}:{space}", player, f"{how}: come out on the {ctx.space(board, space).name}")
    ]
