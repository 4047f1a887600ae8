"""Placing a character on the main board: a move within a region is a `Moved`, a move between regions
a `RegionCrossed` (house rules H5). `relocate` runs no board hook, so the space is not met (a table that
sends the character away); `regions.go_to` is the move through the hooks."""

from __future__ import annotations

from domain.events import Moved
from domain.resolution import Resolution
from domain.rulesets.talisman.main.context import sheet_of
from domain.rulesets.talisman.main.events import RegionCrossed


def relocate(res: Resolution, player: str, board: str, space: int, reason: str) -> None:
    """Places a character on (board, space) without resolving the space: a Moved or a RegionCrossed."""
    sheet = sheet_of(res, player)
    here_board, here = sheet["board"], sheet["space"]
    if here_board == board:
        if here != space:
            res.emit(Moved(piece=player, board=board, from_space=here, to_space=space, reason=reason))
        return
    res.emit(
        RegionCrossed(
            player=player,
            from_board=here_board,
            from_space=here,
            to_board=board,
            to_space=space,
            reason=reason,
        )
    )
