"""How bots weigh the Dungeon's actions: they often go down a Doorway, seldom flee, and leave from the
Entrance now and then (so bot games go in and come out); the main board's weights do the rest. A bot that
holds a Talisman has what the Dungeon would give it: it seldom goes down and leaves when it can."""

from __future__ import annotations

from domain.actions import Action
from domain.rulesets.dungeon.main.entering import ENTER
from domain.rulesets.dungeon.main.exits import CHAMBER, DOOR
from domain.rulesets.dungeon.main.state import in_dungeon
from domain.rulesets.dungeon.main.turn import FLEE, ROLL, SPACE
from domain.rulesets.talisman.main.context import MainContext
from domain.rulesets.talisman.main.state import MainState

ENTER_WEIGHT = 3.0  # against the roll's 1: a Doorway is usually taken
FLEE_WEIGHT = 0.05
LEAVE_WEIGHT = 0.5  # from the Entrance or by the Tunnel, against rolling on in
DETOUR_WEIGHT, HOMEWARD_WEIGHT = 0.1, 3.0  # holding a Talisman: going down, leaving
WEIGHTS = {ENTER: ENTER_WEIGHT, FLEE: FLEE_WEIGHT, CHAMBER: 1.0, SPACE: 1.0}


def bot_weight(ctx: MainContext, state: MainState, action: Action) -> float | None:
    """Returns a bot's weight for a Dungeon action, or None for the main board's own."""
    sheet = state["players"].get(action.player)
    if sheet is not None and sheet["talismans"]:
        if action.id == ENTER:
            return DETOUR_WEIGHT
        if action.id.startswith(DOOR):
            return HOMEWARD_WEIGHT
    if action.id in WEIGHTS:
        return WEIGHTS[action.id]
    if action.id.startswith(DOOR):
        return LEAVE_WEIGHT
    if action.id == ROLL and in_dungeon(state, action.player):
        return 1.0
    return None
