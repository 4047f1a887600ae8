"""Schemas of the main board's decks (house rule H5.13): Adventure, Purchase, Spell and Talisman cards."""

from __future__ import annotations

from typing import Literal, get_args

import msgspec

from domain.rulesets.talisman.cards import KIND_NUMBERS
from domain.rulesets.talisman.main.content_base import Effect, Source, check_ids, fail
from domain.rulesets.talisman.main.content_board import Alignment, Row, check_bands

ADVENTURE_FILE = "adventure.toml"
PURCHASE_FILE = "purchase.toml"
SPELLS_FILE = "spells.toml"
TALISMANS_FILE = "talismans.toml"

# house rule H1.8: encounter numbers 1 Event, 2 Enemy, 3 Stranger, 4 Object, 5 Follower, 6 Place.
CardType = Literal["event", "monster", "spirit", "stranger", "object", "magic-object", "follower", "place"]
NUMBERS: dict[str, int] = KIND_NUMBERS  # the same numbers as the short games' cards
# What an Object or a Follower does while it is held (`items`); its other effects apply once, when found.
HeldEffect = Literal[
    "strength-bonus",
    "craft-bonus",
    "armour",
    "carry",
    "water",
    "raft",
    "extra-movement",
    "heal-each-turn",
    "gold-each-turn",
    "spell-ward",
]
HELD_EFFECTS: frozenset[str] = frozenset({"nothing", *get_args(HeldEffect)})
# What a card does (adventure.toml's header says each in words).
CardEffect = Literal[
    Effect,
    "lose-follower",
    "change-alignment",
    "gain-talisman",
    "roll-table",
    HeldEffect,
    "spirits-stronger",
    "ethereal-portal",
    "destroy-cards",
    "doorway",
]
CARD_EFFECTS: tuple[str, ...] = get_args(CardEffect)
# Whom an Event strikes: `everyone` spares the Keep (Keep 12), `all-boards` does not (Divine Intervention).
Scope = Literal["you", "region", "everyone", "all-boards"]
# `horse`: a mount that may not go into the Dungeon or the Keep (Dungeon 5.3, Keep 5.5).
Family = Literal["", "animal", "dragon", "undead", "human", "beast", "horse"]
HORSE = "horse"
Option = Literal["", "keep", "dungeon"]
# When a spell may be cast, and what it does (spells.toml's header says each in words).
When = Literal["own-turn", "combat", "psychic-combat", "any-combat", "any-time"]
SpellEffect = Literal[
    "heal",
    "gain-gold",
    "teleport",
    "strength-bonus",
    "craft-bonus",
    "evade",
    "destroy-enemy",
    "lose-life",
    "lose-turn",
    "lose-gold",
    "reroll",
    "cancel-spell",
    "skip-encounter",
    "peek-cards",
    "take-spell",
    "move-other",
    "change-alignment",
    "gain-craft",
    "armour",
    "destroy-card",
    "move-card",
    "change-card",
    "hex-space",
    "barrier-space",
    "misdirect",
]
SPELL_EFFECTS: tuple[str, ...] = get_args(SpellEffect)
SpellTarget = Literal["self", "other", "enemy"]


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One Adventure card: its encounter number and type, stats for enemies, its effect."""

    id: str
    name: str
    number: int
    type: CardType
    text: str
    strength: int = 0
    craft: int = 0
    family: Family = ""
    effect: CardEffect = "nothing"
    amount: int = 0
    target: str = ""
    scope: Scope = "you"
    spares: tuple[Literal["dungeon", "keep"], ...] = ()
    save: int = 0
    alignment: Alignment | Literal[""] = ""
    stays: bool = False
    dice: int = 0
    rows: tuple[Row, ...] = ()
    option: Option = ""
    source: Source = "house"


class AdventureFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Adventure deck, one entry per card."""

    source: Source
    cards: tuple[Card, ...]

    def card(self, card_id: str) -> Card:
        """Returns the card with that id."""
        return next(c for c in self.cards if c.id == card_id)


class Item(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One Purchase item: its price in Gold, how many the deck holds, and its effect."""

    id: str
    name: str
    price: int
    copies: int
    effect: CardEffect
    text: str
    amount: int = 0
    save: int = 0
    source: Source = "house"


class PurchaseFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Purchase deck the Blacksmith sells from."""

    source: Source
    items: tuple[Item, ...]


class Spell(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One Spell: when it may be cast, at whom, and its effect."""

    id: str
    name: str
    when: When
    effect: SpellEffect
    text: str
    amount: int = 0
    target: SpellTarget = "self"
    source: Source = "house"


class SpellsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Spell deck."""

    source: Source
    spells: tuple[Spell, ...]


class Talisman(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One Talisman card (it lets its holder enter the Valley of Fire)."""

    id: str
    name: str
    text: str
    source: Source = "house"


class TalismansFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Talisman deck."""

    source: Source
    talismans: tuple[Talisman, ...]


def check_adventure(model: AdventureFile, filename: str) -> AdventureFile:
    """Checks what the schema cannot say: ids, numbers matching types, enemies' stats, tables."""
    check_ids(filename, [(f"cards[{i}]", c.id) for i, c in enumerate(model.cards)], "talisman/card/")
    for i, card in enumerate(model.cards):
        _check_card(card, filename, f"cards[{i}]")
    return model


def _check_card(card: Card, filename: str, key: str) -> None:
    if card.number != NUMBERS[card.type]:
        fail(
            filename,
            f"{key}.number",
            f"a {card.type} has encounter number {NUMBERS[card.type]}, got {card.number}",
        )
    if (card.type == "monster") != (card.strength > 0) or not 0 <= card.strength <= 12:
        fail(filename, f"{key}.strength", "expected 1-12 for a monster, 0 for anything else")
    if (card.type == "spirit") != (card.craft > 0) or not 0 <= card.craft <= 12:
        fail(filename, f"{key}.craft", "expected 1-12 for a spirit, 0 for anything else")
    _check_amounts(card.effect, card.amount, card.save, filename, key)
    if card.target and (card.effect != "change-alignment" or card.target not in ("good", "neutral", "evil")):
        fail(
            filename, f"{key}.target", f"expected an alignment for change-alignment only, got {card.target!r}"
        )
    if (card.effect == "roll-table") != bool(card.rows):
        fail(filename, f"{key}.rows", "expected rows exactly when the effect is roll-table")
    if card.rows:
        if card.dice not in (1, 2):
            fail(filename, f"{key}.dice", f"expected 1 or 2 dice for a table, got {card.dice}")
        check_bands(card.rows, card.dice, "", filename, key)


def _check_amounts(effect: str, amount: int, save: int, filename: str, key: str) -> None:
    # Armour saves on a face (1-6) and nothing else has a save; amounts are small counts.
    if (effect == "armour") != (save > 0) or not 0 <= save <= 6:
        fail(filename, f"{key}.save", "expected 1-6 for armour, 0 for anything else")
    if not 0 <= amount <= 12:
        fail(filename, f"{key}.amount", f"expected 0-12, got {amount}")


def check_purchase(model: PurchaseFile, filename: str) -> PurchaseFile:
    """Checks what the schema cannot say: ids, prices and copies in range, armour saves."""
    check_ids(filename, [(f"items[{i}]", t.id) for i, t in enumerate(model.items)], "talisman/purchase/")
    for i, item in enumerate(model.items):
        key = f"items[{i}]"
        if not 1 <= item.price <= 12:
            fail(filename, f"{key}.price", f"expected 1-12 Gold, got {item.price}")
        if not 1 <= item.copies <= 6:
            fail(filename, f"{key}.copies", f"expected 1-6, got {item.copies}")
        _check_amounts(item.effect, item.amount, item.save, filename, key)
    return model


def check_spells(model: SpellsFile, filename: str) -> SpellsFile:
    """Checks what the schema cannot say: ids and amounts."""
    check_ids(filename, [(f"spells[{i}]", s.id) for i, s in enumerate(model.spells)], "talisman/spell/")
    for i, spell in enumerate(model.spells):
        if not 0 <= spell.amount <= 12:
            fail(filename, f"spells[{i}].amount", f"expected 0-12, got {spell.amount}")
    return model


def check_talismans(model: TalismansFile, filename: str) -> TalismansFile:
    """Checks what the schema cannot say: ids, and that there is at least one Talisman."""
    if not model.talismans:
        fail(filename, "talismans", "expected at least one Talisman")
    check_ids(
        filename, [(f"talismans[{i}]", t.id) for i, t in enumerate(model.talismans)], "talisman/talisman/"
    )
    return model
