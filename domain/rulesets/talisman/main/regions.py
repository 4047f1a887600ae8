"""The main board's regions as boards, each with its `BoardHooks` (house rule H5.1).

Entering a space of the Outer, Middle or Inner Region resolves it (`places.resolve_space`); reaching
the Crown of Command (the `crown` board's centre) runs the ending's hook. `go_to` moves through the
hooks; `positions.relocate` places a character without them.
"""

from __future__ import annotations

from typing import ClassVar

from domain.resolution import Resolution
from domain.rulesets.talisman.hooks import BoardHooks
from domain.rulesets.talisman.main.context import MainContext, is_over, sheet_of
from domain.rulesets.talisman.main.ending import reach_crown
from domain.rulesets.talisman.main.places import resolve_space
from domain.rulesets.talisman.main.positions import relocate
from domain.rulesets.talisman.main.state import CROWN, INNER, MIDDLE, OUTER

NO_CENTRE = -1


class Region(BoardHooks):
    """A region of the main board: entering one of its spaces resolves that space."""

    centre: ClassVar[int] = NO_CENTRE

    def __init__(self, ctx: MainContext) -> None:
        self.ctx = ctx

    def entered(self, res: Resolution, player: str, space: int, reason: str) -> None:
        """Meets the space the character moved onto."""
        if not is_over(res):
            self.encounter(res, player, space)

    def encounter(self, res: Resolution, player: str, space: int) -> None:
        """Resolves what the space does (`places`: its kind's handler)."""
        resolve_space(self.ctx, res, player)


class OuterRegion(Region):
    """The Outer Region: 24 spaces clockwise from the Village."""

    board = OUTER


class MiddleRegion(Region):
    """The Middle Region: 16 spaces from the Portal of Power (house order)."""

    board = MIDDLE


class InnerRegion(Region):
    """The Inner Region: 8 spaces from the Plain of Peril to the Crypt."""

    board = INNER


class CrownBoard(Region):
    """The Crown of Command: one space, the centre of the whole board."""

    board = CROWN
    centre = 0

    def entered(self, res: Resolution, player: str, space: int, reason: str) -> None:
        """Does nothing: the Crown's effect is its centre hook."""

    def reached_centre(self, res: Resolution, player: str) -> None:
        """Runs the ending's hook (ending=first: the character wins)."""
        reach_crown(self.ctx, res, player)


def build_regions(ctx: MainContext) -> dict[str, Region]:
    """Returns the hooks of every board of the main board, by board id."""
    return {cls.board: cls(ctx) for cls in (OuterRegion, MiddleRegion, InnerRegion, CrownBoard)}


def go_to(
    regions: dict[str, Region], res: Resolution, player: str, board: str, space: int, reason: str
) -> None:
    """Moves a character to (board, space) through the hooks: left, then entered (and reached_centre)."""
    sheet = sheet_of(res, player)
    if (sheet["board"], sheet["space"]) != (board, space):
        regions[sheet["board"]].left(res, player, sheet["space"], reason)
        relocate(res, player, board, space, reason)
    target = regions[board]
    target.entered(res, player, space, reason)
    if space == target.centre and not is_over(res):
        target.reached_centre(res, player)
