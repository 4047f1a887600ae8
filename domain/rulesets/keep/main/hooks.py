"""The Keep's board hooks in a main-board game: the Keep run's spaces (Keep 5-8), with the Sentry's toll,
the Vampire Wizard and the Talisman Vault played by the main board's rules (Keep 8.2, 8.4, 9.1).

A character killed on the Keep is dealt a new character on the main board at once (RULES.md §5), so every
step goes on only while the same character still stands on the Keep (`inside.Inside`).
"""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.keep import spaces
from domain.rulesets.keep.board import KeepBoard
from domain.rulesets.keep.main import sentry, vault, wizard
from domain.rulesets.keep.state import BOARD, LAST
from domain.rulesets.talisman.effects import sheet_of
from domain.rulesets.talisman.hooks import WinOnArrival
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, state_of
from domain.rulesets.talisman.main.landing import SPACE, encounter_options

SENTRY_SPACE = 4
MEET = "keep-meet"  # the choice of a character landing where others stand: the space, or one of them


class MainKeep(KeepBoard):
    """The Keep beside the main board: its spaces, and the main board's Sentry, Wizard and Vault."""

    def __init__(self, ctx: MainContext, wizard_aimed: bool) -> None:
        super().__init__(WinOnArrival("unused: the Vault is met by `vault.enter`"), wizard_aimed)
        self.ctx = ctx

    def reached_centre(self, res: Resolution, player: str) -> None:
        """Meets the Talisman Vault by the main board's rules (Keep 9.1)."""
        vault.enter(self.ctx, res, player)

    def encounter(self, res: Resolution, player: str, space: int) -> None:
        """Encounters the space a movement roll landed on; with other characters there the player may
        attack one instead (Keep 7.1: as on the main board, RULES.md §5). The Vault is met on arrival."""
        options = encounter_options(self.ctx, state_of(res), player) if space != LAST else []
        if options:
            offer(res, player, MEET, [SPACE, *options])
            return
        self.meet(res, player, space)

    def meet(self, res: Resolution, player: str, space: int) -> None:
        """Meets a Keep space (the Sentry and the Wizard by the main board's rules)."""
        if space == SENTRY_SPACE:
            sentry.land(self.ctx, res, player, self)
        elif space == wizard.WIZARD_SPACE:
            wizard.land(self.ctx, res, player, self)
        else:
            spaces.land(res, player, space, self)

    def move(self, res: Resolution, player: str, to_space: int, reason: str) -> None:
        """Moves a character along the Keep's spaces, if it is still on the Keep."""
        if sheet_of(res, player)["board"] == BOARD:
            super().move(res, player, to_space, reason)
