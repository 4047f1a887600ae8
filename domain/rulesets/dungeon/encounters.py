"""Encountering a Dungeon space (Dungeon 7.1, house rules H1, H2.3): the Guard, then the cards on the space.

The cards are met by the shared Talisman encounter rules (`talisman.encounters`, whose docstring has
the house decisions). The Dungeon adds, in nightkeep's words:
- A space that already holds face-up cards is encountered again instead of drawing new ones; an empty
  space draws as many cards as the board says (the Guard Room, Entrance and Treasure Chamber draw none).
- The Guard is part of its space, not a card: every character who lands on the Guard Room fights it,
  beating it gives no trophy, and it is there for everyone.
"""

from __future__ import annotations

from typing import Protocol

from domain.resolution import Resolution
from domain.rulesets.dungeon.content import load_board
from domain.rulesets.dungeon.state import DECK
from domain.rulesets.talisman.combat import COMBAT, WON
from domain.rulesets.talisman.effects import cards_at
from domain.rulesets.talisman.encounters import Encounter, draw_cards, encounter_cards, fight


class EncounterSource(Protocol):
    """What meeting a space asks of the board's hooks (`effects.DungeonBoard`, which call this module)."""

    def encounter_rules(self) -> Encounter:
        """Returns what the shared encounter rules need to know about the Dungeon and this board."""
        ...


GUARD = "dungeon/guard"


def encounter_space(res: Resolution, player: str, index: int, board: EncounterSource) -> None:
    """Encounters space `index`: the Guard first on the Guard Room, then the cards in order."""
    space = load_board().spaces[index]
    enc = board.encounter_rules()
    if space.kind == "guard-room":
        # house rule H2.3: every character who lands on the Guard Room fights the Guard (a defeat counts,
        # 7.3).
        if fight(res, player, GUARD, space.guard_strength, COMBAT, enc.deck) != WON:
            return
    elif not cards_at(res, player, index):
        draw_cards(res, DECK, player, space.draws)
    encounter_cards(enc, res, player, index)
