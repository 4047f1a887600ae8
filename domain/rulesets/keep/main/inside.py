"""Whether the character a Keep step began with still stands on the Keep: one killed there is dealt a new
character on the main board at once (house rules H5), and the step must not go on with that one."""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.keep.state import BOARD
from domain.rulesets.talisman.character import PLAYING
from domain.rulesets.talisman.effects import sheet_of


class Inside:
    """Which character stood on the Keep when a step began, to tell whether it is still there."""

    def __init__(self, res: Resolution, player: str) -> None:
        self.character = sheet_of(res, player)["character"]

    def still(self, res: Resolution, player: str) -> bool:
        """Tells whether the same character is still on the Keep (not killed, not sent out)."""
        return still_inside(res, player, self.character)


def still_inside(res: Resolution, player: str, character: str) -> bool:
    """Tells whether `character` still stands on the Keep for `player` and the game goes on."""
    sheet = sheet_of(res, player)
    alive = sheet["status"] == PLAYING  # a character killed once the Crown is reached leaves the game
    return (
        alive and sheet["character"] == character and sheet["board"] == BOARD and res.state["phase"] != "over"
    )
