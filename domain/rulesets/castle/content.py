"""Vampire Empire's content (RULES.md §4): the 9 characters and the human and vampire 40-card decks.

Each file (`characters.toml`, `human_deck.toml`, `vampire_deck.toml`) is validated at load into frozen
dataclasses; every error is one line naming the file and the key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.content import ENV_VAR, Section, content_path, load_model, unique_ids

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

PROFESSIONS = ("noble", "clergy", "servant")
CHARACTER_COUNT = 9  # RULES.md §4: 9 characters, 3 of each profession
PER_PROFESSION = 3
CHARACTER_PREFIX = "castle/character/"
DEFENCE_RANGE = (1, 3)  # house: a character's starting defence

DECK_SIZE = 40  # RULES.md §4: each player has a 40-card deck
COMBAT = "combat"
HOLY_WATER = "holy-water"
VAMPIRE = "vampire"
RED = VAMPIRE  # a red vampire combat card: the kind the vampire deck has of its own
SUPPORT = "support"
KINDS = (COMBAT, HOLY_WATER, VAMPIRE, SUPPORT)
VALUE_RANGE = (1, 3)
# How many professions a card of each kind may name: a second colour on a combat card, or a first one on
# holy water or a red vampire card, lets it also support characters of that profession.
PROFESSION_COUNTS: dict[str, tuple[int, int]] = {
    COMBAT: (1, 2),
    HOLY_WATER: (0, 1),
    VAMPIRE: (0, 1),
    SUPPORT: (0, 0),
}
EFFECTS = (
    "draw-2",
    "take-from-deck",
    "take-from-cellar",
    "take-from-moat",
    "attack-marker",
    "defence-marker",
)


@dataclass(frozen=True, slots=True)
class Character:
    """One character card of the city: id, name, profession and starting defence."""

    id: str
    name: str
    profession: str
    defence: int


@dataclass(frozen=True, slots=True)
class CastleCard:
    """One deck card: a combat, holy-water, vampire (red) or support card (value 0, with an effect)."""

    id: str
    name: str
    kind: str
    professions: tuple[str, ...]
    value: int
    effect: str
    text: str

    def supports(self, profession: str) -> bool:
        """Tells whether the card may be played for a character of `profession` (its colour or colours)."""
        return self.kind != SUPPORT and profession in self.professions


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


HUMAN_SPEC = DeckSpec("human", HOLY_WATER, 8)  # RULES.md §4: exactly 8 holy water cards
VAMPIRE_SPEC = DeckSpec("vampire", VAMPIRE, 12)  # RULES.md §4: exactly 12 red vampire combat cards


# --- characters ---------------------------------------------------------------------------------------------


def _character(entry: Section) -> Character:
    entry.check_keys(["id", "name", "profession", "defence"])
    low, high = DEFENCE_RANGE
    return Character(
        id=entry.text("id"),
        name=entry.text("name"),
        profession=entry.text("profession", choices=PROFESSIONS),
        defence=entry.integer("defence", low=low, high=high),
    )


def build_characters(data: dict[str, Any], filename: str) -> dict[str, Character]:
    """Validates a parsed characters file: 9 characters, 3 of each profession."""
    top = Section(data, filename)
    top.check_keys(["source", "characters"])
    top.text("source")
    entries = top.tables("characters")
    if len(entries) != CHARACTER_COUNT:
        top.fail("characters", f"expected {CHARACTER_COUNT} characters, got {len(entries)}")
    unique_ids(entries, prefix=CHARACTER_PREFIX)
    characters = {c.id: c for c in map(_character, entries)}
    for profession in PROFESSIONS:
        count = sum(c.profession == profession for c in characters.values())
        if count != PER_PROFESSION:
            top.fail("characters", f"expected {PER_PROFESSION} {profession} characters, got {count}")
    return characters


# --- decks --------------------------------------------------------------------------------------------------


def _professions(entry: Section, kind: str) -> tuple[str, ...]:
    value = entry.data.get("professions", [])
    if not isinstance(value, list):
        entry.fail("professions", f"expected a list of professions, got {type(value).__name__}")
    for i, item in enumerate(value):
        if item not in PROFESSIONS:
            entry.fail(f"professions[{i}]", f"expected one of {', '.join(PROFESSIONS)}, got {item!r}")
        if item in value[:i]:
            entry.fail(f"professions[{i}]", f"{item!r} is listed twice")
    low, high = PROFESSION_COUNTS[kind]
    if not low <= len(value) <= high:
        wanted = str(low) if low == high else f"{low}-{high}"
        entry.fail("professions", f"expected {wanted} professions for a {kind} card, got {len(value)}")
    return tuple(value)


def _card(entry: Section, spec: DeckSpec) -> CastleCard:
    entry.check_keys(["id", "name", "kind", "professions", "value", "effect", "text"])
    kind = entry.text("kind", choices=KINDS)
    if kind not in spec.kinds:
        entry.fail("kind", f"a {spec.side} deck holds no {kind} cards (allowed: {', '.join(spec.kinds)})")
    professions = _professions(entry, kind)
    if kind == SUPPORT:
        if "value" in entry.data:
            entry.fail("value", "a support card has no value")
        value, effect = 0, entry.text("effect", choices=EFFECTS)
    else:
        if entry.data.get("effect", ""):
            entry.fail("effect", f"only a support card has an effect, not a {kind} card")
        low, high = VALUE_RANGE
        value, effect = entry.integer("value", low=low, high=high), ""
    return CastleCard(
        entry.text("id"), entry.text("name"), kind, professions, value, effect, entry.text("text")
    )


def _build_deck(data: dict[str, Any], filename: str, spec: DeckSpec) -> CastleDeck:
    top = Section(data, filename)
    top.check_keys(["source", "cards"])
    source = top.text("source")
    entries = top.tables("cards")
    if len(entries) != DECK_SIZE:
        top.fail("cards", f"expected {DECK_SIZE} cards, got {len(entries)}")
    unique_ids(entries, prefix=spec.prefix)
    cards = {card.id: card for card in (_card(entry, spec) for entry in entries)}
    own = sum(card.kind == spec.own_kind for card in cards.values())
    if own != spec.own_count:
        top.fail("cards", f"expected {spec.own_count} {spec.own_kind} cards, got {own}")
    return CastleDeck(side=spec.side, cards=cards, source=source)


def build_human_deck(data: dict[str, Any], filename: str) -> CastleDeck:
    """Validates a parsed human deck file: 40 cards, exactly 8 of them holy water, no vampire cards."""
    return _build_deck(data, filename, HUMAN_SPEC)


def build_vampire_deck(data: dict[str, Any], filename: str) -> CastleDeck:
    """Validates a parsed vampire deck file: 40 cards, exactly 12 of them red vampire cards, no holy water."""
    return _build_deck(data, filename, VAMPIRE_SPEC)


# --- loading ------------------------------------------------------------------------------------------------


def load_characters() -> dict[str, Character]:
    """Returns the 9 characters in use by id, in file order, validated."""
    return load_model(DIR, CHARACTERS_FILE, build_characters)


def load_human_deck() -> CastleDeck:
    """Returns the human player's 40-card deck in use, validated."""
    return load_model(DIR, HUMAN_FILE, build_human_deck)


def load_vampire_deck() -> CastleDeck:
    """Returns the vampire player's 40-card deck in use, validated."""
    return load_model(DIR, VAMPIRE_FILE, build_vampire_deck)


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
