"""The Dungeon's own steps: its board's hooks (the flight out on the Entrance, the short game's win on the
Treasure Chamber) and card moves back.

Losing lives, die-table effects and the rest are shared Talisman mechanics (`talisman.effects`).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.events import PlayerOut
from domain.resolution import Resolution
from domain.rulesets.dungeon.content import load_board
from domain.rulesets.dungeon.state import BOARD, dungeon_sheet
from domain.rulesets.talisman.effects import sheet_of
from domain.rulesets.talisman.hooks import BoardHooks, WinOnArrival, move_on_board

GUARD = "dungeon/guard"
ENTRANCE = 0
HOUSE_CENTRE = 24  # the Treasure Chamber of the house board (a 5×5 spiral, Dungeon 6.1)
# Dungeon 14: reaching the Treasure Chamber first wins the short game.
SHORT_GAME_WIN = WinOnArrival("reached the Treasure Chamber")


class DungeonBoard(BoardHooks):
    """The Dungeon's spiral: fleeing out through the Entrance, and what reaching its centre (the house
    board's Treasure Chamber; `board_hooks` makes the class of a board of another length) does."""

    board = BOARD
    centre = HOUSE_CENTRE

    def __init__(self, arrival: Callable[[Resolution, str], None]) -> None:
        self.arrival = arrival

    def entered(self, res: Resolution, player: str, space: int, reason: str) -> None:
        """Takes a fleeing character who reaches the Entrance out of the Dungeon."""
        if space == ENTRANCE and dungeon_sheet(res, player)["fleeing"]:
            # Dungeon 9.1 / RULES.md §2: fleeing out of the Dungeon leaves the short game's race.
            res.emit(PlayerOut(player=player, reason="fled the Dungeon"))

    def reached_centre(self, res: Resolution, player: str) -> None:
        """Runs what the game installed on the Treasure Chamber."""
        self.arrival(res, player)


def board_hooks(last: int, arrival: Callable[[Resolution, str], None]) -> DungeonBoard:
    """Returns the hooks of a Dungeon board whose Treasure Chamber is space `last` (a replaced board may
    be longer than the house one), with `arrival` installed on it."""
    if last == HOUSE_CENTRE:
        return DungeonBoard(arrival)

    class Spiral(DungeonBoard):
        centre = last

    return Spiral(arrival)


_HOOKS: dict[int, tuple[object, DungeonBoard]] = {}


def short_game_board() -> DungeonBoard:
    """Returns the board hooks of the short game (Dungeon 14), made once per board content in use."""
    board = load_board()
    made = _HOOKS.get(id(board))
    if made is None or made[0] is not board:
        made = _HOOKS[id(board)] = (board, board_hooks(len(board.spaces) - 1, SHORT_GAME_WIN))
    return made[1]


def move_piece(res: Resolution, player: str, to_space: int, reason: str) -> None:
    """Moves a character on the Dungeon, running its board's hooks."""
    move_on_board(res, short_game_board(), player, to_space, reason)


def move_back(res: Resolution, player: str, amount: int, card: str) -> None:
    """A card's move back: not a movement roll, so the space reached is not encountered (house)."""
    move_piece(res, player, max(0, sheet_of(res, player)["space"] - amount), "card")
