"""The Keep's board hooks in a main-board game: the Keep run's spaces (Keep 5-8), with the Sentry's toll,
the Vampire Wizard and the Talisman Vault played by the main board's rules (Keep 8.2, 8.4, 9.1).

A space a movement roll lands on is met after the main board's landing steps (`landing`, the Keep read
as a `LandingBoard`): abilities and Spells work in the Keep as on the main board but for movement (Keep
7.2, 11.1, 13), so a Ninja may pass the space or evade its enemies, and a Prophetess (Foresight), a
Philosopher (Contemplation) or a Divination draws the extra Keep cards and discards as many. Their choices
are `keep-meet` (the space, a character there, or passing it) and `keep-landing:<step>`.
House decisions, in nightkeep's words: a Teleport Tile drawn is laid with its counter at once (Keep 6.1),
so it is never a card sent back, and the cards kept, the tile among them, are as many as the hall draws;
the Keep's cards have no family, so Charm Animals finds none there; the Sacred Obelisk's test is the way
past its barrier (Keep 8.6, as the Sentinel's crossing on the main board), so no ability or Spell skips it.

A character killed on the Keep is dealt a new character on the main board at once (house rule H5.17), so every
step goes on only while the same character still stands on the Keep (`inside.Inside`).
"""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.keep import spaces
from domain.rulesets.keep.board import KeepBoard
from domain.rulesets.keep.content import TILE, load_deck
from domain.rulesets.keep.main import sentry, vault, wizard
from domain.rulesets.keep.moves import OBELISK
from domain.rulesets.keep.state import BOARD, LAST
from domain.rulesets.talisman.effects import cards_at, sheet_of
from domain.rulesets.talisman.hooks import WinOnArrival
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, state_of
from domain.rulesets.talisman.main.landing import (
    SPACE,
    Foe,
    LandingBoard,
    encounter_options,
    resume,
    run_steps,
)

SENTRY_SPACE = 4
MEET = "keep-meet"  # the encounter step's choice: the space, a character standing there, or passing it
LANDING = "keep-landing"  # the other landing steps' choices (`keep-landing:draw:<n>`, `keep-landing:evade`)


def keep_card(ctx: MainContext, card_id: str) -> Foe | None:
    """Returns a Keep card lying on a space as the landing steps read it (None: no Keep card, or a
    Teleport Tile, which is laid and never sent back, Keep 6.1)."""
    card = load_deck().cards.get(card_id)
    if card is None or card.kind == TILE:
        return None
    return Foe(card.kind, card.strength, card.craft)


def _draws(ctx: MainContext, res: Resolution, player: str) -> int:
    return spaces.hall_draws(res, player, sheet_of(res, player)["space"])


def _fill(ctx: MainContext, res: Resolution, player: str, draws: int, extra: int) -> int:
    # The hall's cards and the extra ones, tiles laid as they come (Keep 6.1, 6.2): the rest go back.
    space = sheet_of(res, player)["space"]
    before = len(cards_at(res, player, space))
    spaces.draw_onto(res, player, space, draws + extra)
    return len(cards_at(res, player, space)) - before - draws


class MainKeep(KeepBoard):
    """The Keep beside the main board: its spaces, and the main board's Sentry, Wizard and Vault."""

    def __init__(self, ctx: MainContext, wizard_aimed: bool) -> None:
        super().__init__(WinOnArrival("unused: the Vault is met by `vault.enter`"), wizard_aimed)
        self.ctx = ctx
        self.landing = LandingBoard(LANDING, keep_card, _draws, _fill, self._meet_here, encounter_kind=MEET)

    def reached_centre(self, res: Resolution, player: str) -> None:
        """Meets the Talisman Vault by the main board's rules (Keep 9.1)."""
        vault.enter(self.ctx, res, player)

    def encounter(self, res: Resolution, player: str, space: int) -> None:
        """Encounters the space a movement roll landed on after the main board's landing steps (Keep 7.1,
        7.2, 13: as on the main board, house rules H5). The Vault is met on arrival; on the Obelisk (Keep
        8.6) no ability or Spell skips the test (a character standing there may be attacked instead)."""
        if space not in (LAST, OBELISK):
            if run_steps(self.ctx, res, player, board=self.landing):
                self.meet(res, player, space)
            return
        options = encounter_options(self.ctx, state_of(res), player) if space != LAST else []
        if options:
            offer(res, player, MEET, [SPACE, *options])
            return
        self.meet(res, player, space)

    def landed(self, res: Resolution, player: str) -> None:
        """Goes on after the encounter step chose the space: the other landing steps, then the space."""
        space = sheet_of(res, player)["space"]
        if space == OBELISK:
            self.meet(res, player, space)
        else:
            resume(self.ctx, res, player, "encounter", self.landing)

    def _meet_here(self, ctx: MainContext, res: Resolution, player: str) -> None:
        self.meet(res, player, sheet_of(res, player)["space"])

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
