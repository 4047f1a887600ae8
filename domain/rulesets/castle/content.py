"""Vampire Empire's content (house rule H4.2): the 9 characters and the human and vampire 40-card decks.

Each file (`characters.toml`, `human_deck.toml`, `vampire_deck.toml`) is declared as a schema and checked at
load; every error is one line naming the file and the key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal, get_args

from msgspec import Meta, Struct

from domain.content import ENV_VAR, check_ids, content_path, fail, load_schema

__all__ = [
    "CastleCard",
    "CastleContent",
    "CastleDeck",
    "Character",
    "castle_content",
    "content_paths",
    "load_characters",
    "load_human_deck",
    "load_vampire_deck",
]

DIR = "castle"
CHARACTERS_FILE = "characters.toml"
HUMAN_FILE = "human_deck.toml"
VAMPIRE_FILE = "vampire_deck.toml"

Profession = Literal["noble", "clergy", "servant"]
PROFESSIONS: tuple[str, ...] = get_args(Profession)
CHARACTER_COUNT = 9  # house rule H4.1: 9 characters, 3 of each profession
PER_PROFESSION = 3
CHARACTER_PREFIX = "castle/character/"

DECK_SIZE = 40  # house rule H4.2: each player has a 40-card deck
COMBAT = "combat"
HOLY_WATER = "holy-water"
VAMPIRE = "vampire"
RED = VAMPIRE  # a red vampire combat card: the kind the vampire deck has of its own
SUPPORT = "support"
Kind = Literal["combat", "holy-water", "vampire", "support"]
KINDS: tuple[str, ...] = get_args(Kind)
# How many professions a card of each kind may name: a second colour on a combat card, or a first one on
# holy water or a red vampire card, lets it also support characters of that profession.
PROFESSION_COUNTS: dict[str, tuple[int, int]] = {
    COMBAT: (1, 2),
    HOLY_WATER: (0, 1),
    VAMPIRE: (0, 1),
    SUPPORT: (0, 0),
}
Effect = Literal[
    "draw-2",
    "take-from-deck",
    "take-from-cellar",
    "take-from-moat",
    "attack-marker",
    "defence-marker",
]
EFFECTS: tuple[str, ...] = get_args(Effect)
Text = Annotated[str, Meta(min_length=1)]
Value = Annotated[int, Meta(ge=1, le=3)]  # house: a character's starting defence, a card's value


class Character(Struct, frozen=True, forbid_unknown_fields=True):
    """One character card of the city: id, name, profession and starting defence."""

    id: Text
    name: Text
    profession: Profession
    defence: Value


class CharactersFile(Struct, frozen=True, forbid_unknown_fields=True):
    """The characters file."""

    source: Text
    characters: tuple[Character, ...]


# What a support card does, in words (its effect id is `draw-2`, `take-from-cellar`…).
EFFECT_WORDS = {
    "draw-2": "draw 2",
    "take-from-deck": "take from deck",
    "take-from-cellar": "take from cellar",
    "take-from-moat": "take from moat",
    "attack-marker": "+1 attack marker",
    "defence-marker": "+1 defence marker",
}
_KIND_WORDS = {HOLY_WATER: "holy water", RED: "red"}


class CastleCard(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One deck card: a combat, holy-water, vampire (red) or support card (value 0, with an effect)."""

    id: Text
    name: Text
    kind: Kind
    professions: tuple[Profession, ...] = ()
    value: Value = 0  # 0: not given (a support card)
    effect: Effect | Literal[""] = ""
    text: Text

    @property
    def label(self) -> str:
        """Returns its name with what it is and does, as players read it: `Rapier (noble 2)`, `Claws (red
        1)`, `Call for Help (support: draw 2)`, `Blessed Perfume (holy water, noble 1)`."""
        if self.kind == SUPPORT:
            return f"{self.name} (support: {EFFECT_WORDS.get(self.effect, self.effect)})"
        kind = _KIND_WORDS.get(self.kind, "")
        if kind == self.name.lower():
            kind = ""  # `Holy Water (2)`, not `Holy Water (holy water 2)`
        what = ", ".join(part for part in (kind, "/".join(self.professions)) if part)
        return f"{self.name} ({what} {self.value})" if what else f"{self.name} ({self.value})"

    def supports(self, profession: str) -> bool:
        """Tells whether the card may be played for a character of `profession` (its colour or colours)."""
        return self.kind != SUPPORT and profession in self.professions


class DeckFile(Struct, frozen=True, forbid_unknown_fields=True):
    """One side's deck file."""

    source: Text
    cards: tuple[CastleCard, ...]


@dataclass(frozen=True, slots=True)
class CastleDeck:
    """One side's 40-card deck ("human" or "vampire"), cards by id in file order."""

    side: str
    cards: dict[str, CastleCard]
    source: str


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """What one side's deck file must hold: its id prefix, its own card kind and how many of those."""

    side: str
    own_kind: str
    own_count: int

    @property
    def prefix(self) -> str:
        """Returns the id prefix of the side's cards, e.g. `castle/human/`."""
        return f"{DIR}/{self.side}/"

    @property
    def kinds(self) -> tuple[str, ...]:
        """Returns the card kinds this deck may hold."""
        return (COMBAT, self.own_kind, SUPPORT)


HUMAN_SPEC = DeckSpec("human", HOLY_WATER, 8)  # house rule H4.2: exactly 8 holy water cards
VAMPIRE_SPEC = DeckSpec("vampire", VAMPIRE, 12)  # house rule H4.2: exactly 12 red vampire combat cards


# --- characters ---------------------------------------------------------------------------------------------


def check_characters(content: CharactersFile, filename: str) -> dict[str, Character]:
    """Returns the characters by id, in file order, once there are 9 of them, 3 of each profession."""
    characters = content.characters
    if len(characters) != CHARACTER_COUNT:
        fail(filename, "characters", f"expected {CHARACTER_COUNT} characters, got {len(characters)}")
    check_ids((c.id for c in characters), filename, "characters", CHARACTER_PREFIX)
    for profession in PROFESSIONS:
        count = sum(c.profession == profession for c in characters)
        if count != PER_PROFESSION:
            fail(filename, "characters", f"expected {PER_PROFESSION} {profession} characters, got {count}")
    return {c.id: c for c in characters}


# --- decks --------------------------------------------------------------------------------------------------


def _check_professions(card: CastleCard, filename: str, where: str) -> None:
    for i, profession in enumerate(card.professions):
        if profession in card.professions[:i]:
            fail(filename, f"{where}.professions[{i}]", f"{profession!r} is listed twice")
    low, high = PROFESSION_COUNTS[card.kind]
    if not low <= len(card.professions) <= high:
        wanted = str(low) if low == high else f"{low}-{high}"
        message = f"expected {wanted} professions for a {card.kind} card, got {len(card.professions)}"
        fail(filename, f"{where}.professions", message)


def _check_card(card: CastleCard, filename: str, where: str, spec: DeckSpec) -> None:
    if card.kind not in spec.kinds:
        allowed = ", ".join(spec.kinds)
        fail(filename, f"{where}.kind", f"a {spec.side} deck holds no {card.kind} cards (allowed: {allowed})")
    _check_professions(card, filename, where)
    if card.kind == SUPPORT and card.value:
        fail(filename, f"{where}.value", "a support card has no value")
    if card.kind == SUPPORT and not card.effect:
        fail(filename, f"{where}.effect", "missing")
    if card.kind != SUPPORT and card.effect:
        fail(filename, f"{where}.effect", f"only a support card has an effect, not a {card.kind} card")
    if card.kind != SUPPORT and not card.value:
        fail(filename, f"{where}.value", "missing")


def _check_deck(content: DeckFile, filename: str, spec: DeckSpec) -> CastleDeck:
    cards = content.cards
    if len(cards) != DECK_SIZE:
        fail(filename, "cards", f"expected {DECK_SIZE} cards, got {len(cards)}")
    check_ids((card.id for card in cards), filename, "cards", spec.prefix)
    for i, card in enumerate(cards):
        _check_card(card, filename, f"cards[{i}]", spec)
    own = sum(card.kind == spec.own_kind for card in cards)
    if own != spec.own_count:
        fail(filename, "cards", f"expected {spec.own_count} {spec.own_kind} cards, got {own}")
    return CastleDeck(side=spec.side, cards={card.id: card for card in cards}, source=content.source)


def check_human_deck(content: DeckFile, filename: str) -> CastleDeck:
    """Returns the human deck once it holds 40 cards, exactly 8 of them holy water, no vampire cards."""
    return _check_deck(content, filename, HUMAN_SPEC)


def check_vampire_deck(content: DeckFile, filename: str) -> CastleDeck:
    """Returns the vampire deck once it holds 40 cards, exactly 12 of them red, no holy water."""
    return _check_deck(content, filename, VAMPIRE_SPEC)


# --- loading ------------------------------------------------------------------------------------------------


def load_characters() -> dict[str, Character]:
    """Returns the 9 characters in use by id, in file order, validated."""
    return load_schema(DIR, CHARACTERS_FILE, CharactersFile, check_characters)


def load_human_deck() -> CastleDeck:
    """Returns the human player's 40-card deck in use, validated."""
    return load_schema(DIR, HUMAN_FILE, DeckFile, check_human_deck)


def load_vampire_deck() -> CastleDeck:
    """Returns the vampire player's 40-card deck in use, validated."""
    return load_schema(DIR, VAMPIRE_FILE, DeckFile, check_vampire_deck)


FILES = (CHARACTERS_FILE, HUMAN_FILE, VAMPIRE_FILE)


def content_paths() -> list[Path]:
    """Returns Vampire Empire's content files in use (characters, human deck, vampire deck)."""
    return [content_path(DIR, name) for name in FILES]


@dataclass(frozen=True, slots=True)
class CastleContent:
    """Everything the game is played with: the characters and both decks' cards, by id."""

    characters: dict[str, Character]
    decks: dict[str, dict[str, CastleCard]]  # by side: "human", "vampire"


_CONTENT: dict[str | None, CastleContent] = {}


def castle_content() -> CastleContent:
    """Returns the content in use. The rules ask for a card or a character thousands of times per game,
    so the models are kept per content directory (one environment lookup per call, not a path build)."""
    key = os.environ.get(ENV_VAR)
    found = _CONTENT.get(key)
    if found is None:
        decks = {HUMAN_SPEC.side: load_human_deck().cards, VAMPIRE_SPEC.side: load_vampire_deck().cards}
        found = _CONTENT[key] = CastleContent(load_characters(), decks)
    return found
