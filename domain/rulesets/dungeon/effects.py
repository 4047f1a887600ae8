"""The Dungeon's own steps: moving pieces on its spiral (the win and the flight out) and card moves back.

Losing lives, die-table effects and the rest are shared Talisman mechanics (`talisman.effects`).
"""

from __future__ import annotations

from domain.events import GameWon, Moved, PlayerOut
from domain.resolution import Resolution
from domain.rulesets.talisman.effects import sheet_of

BOARD = "dungeon"
GUARD = "dungeon/guard"


def move_piece(res: Resolution, player: str, to_space: int, reason: str) -> None:
    """Moves a character; ends the game on the Treasure Chamber and ends a flight on the Entrance."""
    sheet = sheet_of(res, player)
    here = sheet["space"]
    if to_space != here:
        res.emit(Moved(piece=player, board=BOARD, from_space=here, to_space=to_space, reason=reason))
    if to_space == res.state["last"]:
        # Dungeon 14: reaching the Treasure Chamber first wins the short game.
        res.emit(GameWon(player=player, reason="reached the Treasure Chamber"))
    elif to_space == 0 and sheet["fleeing"]:
        # Dungeon 9.1 / RULES.md §2: fleeing out of the Dungeon leaves the short game's race.
        res.emit(PlayerOut(player=player, reason="fled the Dungeon"))


def move_back(res: Resolution, player: str, amount: int, card: str) -> None:
    """A card's move back: not a movement roll, so the space reached is not encountered (house)."""
    move_piece(res, player, max(0, sheet_of(res, player)["space"] - amount), "card")
