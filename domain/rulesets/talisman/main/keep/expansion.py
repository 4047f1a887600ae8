"""The Vampire's Keep expansion (`--option keep=true`): its board beside the main board (Keep 3-15)."""

from __future__ import annotations

from typing import ClassVar

from domain.rulesets.keep.content import load_board, load_deck, load_vault
from domain.rulesets.keep.moves import counter_ids
from domain.rulesets.keep.state import BOARD, COUNTERS, KEEP_DECK, LAST, VAULT_DECK
from domain.rulesets.talisman.main.expansion import Expansion
from domain.rulesets.talisman.shapes import discard_pile


class KeepExpansion(Expansion):
    """The Vampire's Keep beside the main board."""

    name: ClassVar[str] = "keep"
    boards: ClassVar[tuple[str, ...]] = (BOARD,)

    def load_content(self) -> None:
        """Loads (and so checks) the Keep's board and decks."""
        load_board(), load_deck(), load_vault()

    def sizes(self) -> dict[str, int]:
        """Returns the Keep's spaces: 1-21, index 0 unused (RULES.md §3)."""
        return {BOARD: LAST + 1}

    def piles(self) -> dict[str, list[str]]:
        """Returns the Keep deck, the Vault deck and the Teleport counters, with their discard piles."""
        piles = {KEEP_DECK: list(load_deck().cards), VAULT_DECK: list(load_vault()), COUNTERS: counter_ids()}
        return piles | {discard_pile(KEEP_DECK): [], discard_pile(VAULT_DECK): []}
