"""The steps of a turn on the Keep that the Keep run and the main board's Keep share (Keep 5, 6.3, 10,
house rule H3.11): the roll's label, the entry test, breaking free of a teleport loop and moving by the
chart. Each caller ends the turn its own way (the Keep run's `end_turn`, the main board's
`finish_action`)."""

from __future__ import annotations

from collections.abc import Mapping

from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.keep.board import KeepBoard
from domain.rulesets.keep.events import EntryTested, FlightEnded, LoopEscaped, LoopFailed
from domain.rulesets.keep.moves import OBELISK, spaces_for
from domain.rulesets.keep.spaces import teleport_from
from domain.rulesets.keep.state import BOARD, ENTRANCE, keep_sheet

LOOP_TURNS = 3  # Keep 6.3: freed automatically after 3 failed turns


def roll_label(me: Mapping[str, object], entrance: str) -> str:
    """Returns the label of the `roll` action: breaking free of a loop, facing the Obelisk again, fleeing
    toward `entrance` (as the game names it) or moving deeper."""
    if me["looping"]:
        return "Roll to break free of the teleport loop (1 die, at most Craft)"
    if me["obelisk"]:
        return "Face the Sacred Obelisk again (2 dice, at most Strength + Craft)"
    if me["fleeing"]:
        return f"Roll and flee toward {entrance}"
    return "Roll and move deeper into the Keep"


def entry_test(res: Resolution, player: str) -> bool:
    """Rolls the entry test at the Keep's door (house rule H3.3): True when 3 dice fall under Strength +
    Craft + Lives."""
    me = keep_sheet(res, player)
    faces, draws = res.dice.roll(6, 3)
    res.emit(DieRolled(player=player, purpose="entry", sides=6, values=faces, draws=draws))
    target = me["strength"] + me["craft"] + me["lives"]
    passed = sum(faces) < target
    res.emit(EntryTested(player=player, total=sum(faces), target=target, passed=passed))
    return passed


def break_free(res: Resolution, player: str) -> bool:
    """Rolls to break free of a teleport loop (Keep 6.3): True once free (by the die, or at once after
    LOOP_TURNS failed turns); False when the die fails and the tile sends the character on again."""
    me = keep_sheet(res, player)
    if me["loop_fails"] >= LOOP_TURNS:
        res.emit(LoopEscaped(player=player, automatic=True))
        return True
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="loop-escape", sides=6, values=[face], draws=draws))
    if face > me["craft"]:
        res.emit(LoopFailed(player=player))
        teleport_from(res, player, me["space"])
        return False
    res.emit(LoopEscaped(player=player, automatic=False))
    return True


def move_by_chart(res: Resolution, player: str, board: KeepBoard, purpose: str) -> bool:
    """Rolls and moves by the Keep's chart (Keep 5.2), deeper or, fleeing, back toward the Entrance;
    True when the roll ended a flight on the Entrance (Keep 10)."""
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose=purpose, sides=6, values=[face], draws=draws))
    me = keep_sheet(res, player)
    steps = spaces_for(face)
    if me["fleeing"]:
        # Keep 10: back toward the Entrance by the chart; the spaces on the way are not met (house).
        board.move(res, player, me["space"] - steps, "flight")
        if keep_sheet(res, player)["space"] == ENTRANCE:
            res.emit(FlightEnded(player=player))
            return True
        return False
    target = me["space"] + steps
    if me["space"] < OBELISK < target:
        # Keep 8.6: the Obelisk is a barrier only the strong of will pass, so a roll stops on it (house).
        target = OBELISK
    board.move(res, player, target, "roll")
    if keep_sheet(res, player)["board"] == BOARD:  # (beside the main board, a move may have left it)
        board.encounter(res, player, keep_sheet(res, player)["space"])
    return False
