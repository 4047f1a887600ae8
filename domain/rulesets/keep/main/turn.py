"""A turn on the Keep in a main-board game (Keep 5-10, house rule H3.3): the entry test, moving by the chart,
breaking free of a loop, the Sacred Obelisk, fleeing, and the ways out.

Action ids: `enter` (the entry test at the Keep Entrance), `roll` (move; break free of a teleport
loop; face the Obelisk again), `flee`, `leave` (after a flight: step out onto the space of entry and
play the turn there, Keep 10) and `exit` (a survivor of the Vault rolls on the Exit Table, Keep 9.1).

House decisions, in nightkeep's words:
- The entry test (house rule H3.3): 3 dice under Strength + Craft + Lives lets the character in (it rolls
  to move on its next turn); otherwise it goes back at once to the space it came from, and must spend
  its next whole turn outside before it may go in again.
- Fleeing (Keep 10) runs as in the Keep run: back by the chart, the spaces on the way not met; the
  turn ends on the Entrance; on its next turn the character steps out onto the space it entered from
  (`leave`) and plays that turn on the main board (the turn outside it owes before going in again).
"""

from __future__ import annotations

from domain.actions import Action
from domain.resolution import Resolution
from domain.rulesets.keep.main.hooks import MainKeep
from domain.rulesets.keep.main.state import FLIGHT_RETURN, keep_sheet
from domain.rulesets.keep.main.vault import entered_from
from domain.rulesets.keep.main.vault import leave as exit_by_table
from domain.rulesets.keep.moves import OBELISK
from domain.rulesets.keep.spaces import obelisk_test
from domain.rulesets.keep.state import ENTRANCE, LAST
from domain.rulesets.keep.steps import break_free, entry_test, move_by_chart, roll_label
from domain.rulesets.talisman.events import FleeingDeclared
from domain.rulesets.talisman.main.context import MainContext, sheet_of
from domain.rulesets.talisman.main.positions import relocate
from domain.rulesets.talisman.main.state import MainState

ENTER, ROLL, FLEE, LEAVE, EXIT = "enter", "roll", "flee", "leave", "exit"


def action_ids(state: MainState, player: str) -> list[str]:
    """Returns the ids of the actions open to a character on the Keep whose turn it is."""
    sheet, keep = state["players"][player], keep_sheet(state["players"][player])
    if sheet["space"] == LAST:
        return [EXIT]
    if not keep["entered"]:
        return [LEAVE] if keep["keep_wait"] else [ENTER]
    if sheet["space"] != ENTRANCE and not keep["fleeing"]:
        return [ROLL, FLEE]
    return [ROLL]


def actions(state: MainState, player: str) -> list[Action]:
    """Returns the actions open to a character on the Keep, labelled."""
    sheet = state["players"][player]
    labels = {
        ENTER: "Try to open the Keep's door (3 dice under Strength + Craft + Lives)",
        FLEE: "Flee the Keep (irrevocable)",
        LEAVE: "Step out of the Keep onto the space you entered from",
        EXIT: "Roll on the Exit Table to leave the Keep",
    }
    return [
        Action(i, player, labels.get(i) or roll_label(sheet, "the Keep Entrance"))
        for i in action_ids(state, player)
    ]


def resolve(ctx: MainContext, res: Resolution, action_id: str, player: str, board: MainKeep) -> bool:
    """Resolves one action on the Keep; True when the same player acts again (after stepping out)."""
    if action_id == ENTER:
        _enter(res, player)
    elif action_id == FLEE:
        res.emit(FleeingDeclared(player=player))  # Keep 10: irrevocable; the roll follows, as in the Keep run
        return True
    elif action_id == LEAVE:
        relocate(res, player, *entered_from(res, player), FLIGHT_RETURN)
        return True
    elif action_id == EXIT:
        exit_by_table(ctx, res, player)
    else:
        _roll(res, player, board)
    return False


def _enter(res: Resolution, player: str) -> None:
    """The entry test (Keep 8.1, house rule H3.3): pass and go in next turn; fail and go back outside."""
    if not entry_test(res, player):
        relocate(res, player, *entered_from(res, player), "the Keep's door held (house rule H3.3)")


def _roll(res: Resolution, player: str, board: MainKeep) -> None:
    sheet = keep_sheet(sheet_of(res, player))
    if sheet["fleeing"]:
        _movement(res, player, board)
    elif sheet["looping"]:
        if break_free(res, player):  # as the Keep run (Keep 6.3)
            _movement(res, player, board)
    elif sheet["obelisk"]:
        obelisk_test(res, player, OBELISK)
    else:
        _movement(res, player, board)


def _movement(res: Resolution, player: str, board: MainKeep) -> None:
    """Moves by the Keep's chart (Keep 5.2): deeper, or back to the Entrance while fleeing (Keep 10)."""
    move_by_chart(res, player, board, "keep-movement")  # as the Keep run, without its lost turn
