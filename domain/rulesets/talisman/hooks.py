"""The small explicit hooks a board (or one of its regions) plugs into the Talisman rules with.

An expansion is a board plus its hooks: the rules call `entered`/`left` when a piece moves onto or off a
space of the board, `reached_centre` when it reaches the board's centre (the Treasure Chamber, the Talisman
Vault, the Crown of Command), and `encounter` for what a space does when a character meets it. The
defaults do nothing, so a board overrides only what it has. A short game installs `WinOnArrival`.
"""

from __future__ import annotations

from typing import ClassVar

from domain.events import GameWon, Moved
from domain.resolution import Resolution


class BoardHooks:
    """One board's hooks; each default does nothing."""

    board: ClassVar[str]
    centre: ClassVar[int]  # the index of the board's centre space

    def entered(self, res: Resolution, player: str, space: int, reason: str) -> None:
        """Runs after `player` moved onto `space` of this board."""

    def left(self, res: Resolution, player: str, space: int, reason: str) -> None:
        """Runs before `player` moves off `space` of this board."""

    def reached_centre(self, res: Resolution, player: str) -> None:
        """Runs when `player` reaches the board's centre."""

    def encounter(self, res: Resolution, player: str, space: int) -> None:
        """Resolves what `space` does to a character that meets it."""


class WinOnArrival:
    """The short games' ending, installed on a board's centre: the first character there wins."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __call__(self, res: Resolution, player: str) -> None:
        res.emit(GameWon(player=player, reason=self.reason))


def move_on_board(res: Resolution, hooks: BoardHooks, player: str, to_space: int, reason: str) -> None:
    """Moves a character on one board, running the board's `left`, `entered` and `reached_centre` hooks."""
    sheet = res.state["players"][player]
    here = sheet["space"]
    if to_space != here:
        hooks.left(res, player, here, reason)
        res.emit(Moved(piece=player, board=hooks.board, from_space=here, to_space=to_space, reason=reason))
    hooks.entered(res, player, to_space, reason)
    if to_space == hooks.centre:
        hooks.reached_centre(res, player)
