"""Encountering a Dungeon space (Dungeon 7.1, RULES.md §1–2): the Guard, then the cards on the space.

The cards are met by the shared Talisman encounter rules (`talisman.encounters`, whose docstring has
the house decisions). The Dungeon adds, in nightkeep's words:
- A space that already holds face-up cards is encountered again instead of drawing new ones; an empty
  space draws as many cards as the board says (the Guard Room, Entrance and Treasure Chamber draw none).
- The Guard is part of its space, not a card: every character who lands on the Guard Room fights it,
  beating it gives no trophy, and it is there for everyone.
"""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.dungeon.content import load_board, load_deck
from domain.rulesets.dungeon.effects import GUARD, move_back
from domain.rulesets.dungeon.state import DECK
from domain.rulesets.talisman.combat import COMBAT, WON
from domain.rulesets.talisman.effects import cards_at, sheet_of
from domain.rulesets.talisman.encounters import Encounter, draw_cards, encounter_cards, fight


def encounter_rules() -> Encounter:
    """Returns what the shared encounter rules need to know about the Dungeon."""
    # Made once per deck in use (a frozen dataclass costs microseconds, and nearly every roll asks):
    # the deck is the content model itself, so another content folder gives another one.
    deck = load_deck()
    rules = _RULES.get(id(deck))
    if rules is None or rules.deck is not deck:
        rules = _RULES[id(deck)] = Encounter(deck_name=DECK, deck=deck, move_back=move_back)
    return rules


_RULES: dict[int, Encounter] = {}


def encounter_space(res: Resolution, player: str) -> None:
    """Encounters the player's space: the Guard first on the Guard Room, then the cards in order."""
    index = sheet_of(res, player)["space"]
    space = load_board().spaces[index]
    enc = encounter_rules()
    if space.kind == "guard-room":
        # RULES.md §2: every character who lands on the Guard Room fights the Guard (a defeat counts, 7.3).
        if fight(res, player, GUARD, space.guard_strength, COMBAT, enc.deck) != WON:
            return
    elif not cards_at(res, player, index):
        draw_cards(res, DECK, player, space.draws)
    encounter_cards(enc, res, player, index)
