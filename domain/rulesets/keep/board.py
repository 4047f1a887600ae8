"""The Vampire's Keep as BoardHooks (Keep 5–9, house rules H3): moves along its spaces 1–21, what each
space does, and its centre, the Talisman Vault, where a survivor gets what the game installed there
(the Keep run installs its win, `KeepRun`)."""

from __future__ import annotations

from collections.abc import Callable

from domain.resolution import Resolution
from domain.rulesets.keep import spaces
from domain.rulesets.keep.state import BOARD, ENTRANCE, LAST
from domain.rulesets.keep.vault import VAULT, enter_vault
from domain.rulesets.talisman.effects import sheet_of
from domain.rulesets.talisman.hooks import BoardHooks, move_on_board

Arrival = Callable[[Resolution, str], None]


class KeepBoard(BoardHooks):
    """The Keep's hooks: its spaces' encounters, and the Vault at its centre."""

    board = BOARD
    centre = VAULT

    def __init__(self, arrival: Arrival, wizard_aimed: bool = False) -> None:
        self.arrival = arrival
        self.wizard_aimed = wizard_aimed  # Keep 8.4: a player aims the Vampire Wizard's spells (spaces)

    def reached_centre(self, res: Resolution, player: str) -> None:
        """Meets the Vault (Keep 9.1); a survivor gets what the game installed on it."""
        if enter_vault(res, player):
            self.arrival(res, player)

    def encounter(self, res: Resolution, player: str, space: int) -> None:
        """Encounters the space a movement roll landed on (the Vault is met on arrival)."""
        spaces.land(res, player, space, self)

    def move(self, res: Resolution, player: str, to_space: int, reason: str) -> None:
        """Moves a character along the Keep's spaces (1–21), running this board's hooks."""
        move_on_board(res, self, player, max(ENTRANCE, min(LAST, to_space)), reason)

    def move_back(self, res: Resolution, player: str, amount: int, card: str) -> None:
        """A card or spell moves the character back (Keep 5.3): not a movement roll, nothing is met."""
        self.move(res, player, sheet_of(res, player)["space"] - amount, "card")
