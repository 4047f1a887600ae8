"""The Dungeon board's hooks inside a main-board game (Dungeon 6-9): the short game's spiral
(`dungeon.effects.DungeonBoard`: its moves, its spaces, the Guard Room, the cards met by the shared rules)
with two changes: a fleeing character who reaches the Entrance stays there and leaves on its next turn
(Dungeon 9.1, 8.2; the short game puts it out of the race), and reaching the Treasure Chamber runs the
main game's arrival (Dungeon 13.1: a Talisman for one who holds none)."""

from __future__ import annotations

from collections.abc import Callable

from domain.resolution import Resolution
from domain.rulesets.dungeon.content import Board
from domain.rulesets.dungeon.effects import DungeonBoard

Arrival = Callable[[Resolution, str], None]


class MainDungeonBoard(DungeonBoard):
    """The Dungeon's spiral beside the main board."""

    def entered(self, res: Resolution, player: str, space: int, reason: str) -> None:
        """Does nothing: a fleeing character on the Entrance leaves on its next turn (Dungeon 9.1)."""


def dungeon_hooks(board: Board, arrival: Arrival) -> MainDungeonBoard:
    """Returns the hooks of a Dungeon board's content whose centre is its Treasure Chamber (a replaced
    board may be longer than the house one), with `arrival` on it."""

    class Spiral(MainDungeonBoard):
        centre = board.last

    return Spiral(arrival)
