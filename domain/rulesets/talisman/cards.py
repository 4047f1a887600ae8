"""Talisman cards shared by every board's deck (house rules H1): the card schema, die tables, deck checks.

A board's deck file lists cards with an id, name, kind, encounter number and text; enemies carry
Strength (monsters) or Craft (spirits); items carry bonuses and armour saves; Events, Strangers and
Places carry a die table whose lines name an effect from `EFFECTS`. A board may add its own kinds
(the Keep's Teleport Tiles) and a flag for cards that lead off its board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Literal, get_args

from msgspec import Meta, Struct
from msgspec import field as renamed
from msgspec.structs import force_setattr

from domain.content import check_ids, fail

# house rule H1.8: encounter numbers by card kind (1 Event, 2 Enemy, 3 Stranger, 4 Object, 5 Follower, 6
# Place).
KIND_NUMBERS = {
    "event": 1,
    "monster": 2,
    "spirit": 2,
    "stranger": 3,
    "object": 4,
    "magic-object": 4,
    "follower": 5,
    "place": 6,
}
TABLE_KINDS = ("event", "stranger", "place")
Effect = Literal[
    "lose_life",
    "gain_life",
    "gain_gold",
    "lose_gold",
    "gain_strength",
    "gain_craft",
    "lose_turn",
    "move_back",
    "nothing",
]
EFFECTS: tuple[str, ...] = get_args(Effect)
NO_AMOUNT = ("nothing", "lose_turn")  # the effects whose amount is 0 unless the line says otherwise

Text = Annotated[str, Meta(min_length=1)]
Face = Annotated[int, Meta(ge=1, le=6)]
Bonus = Annotated[int, Meta(ge=0, le=6)]
Stat = Annotated[int, Meta(ge=0, le=20)]


class Outcome(Struct, frozen=True, forbid_unknown_fields=True):
    """One line of a die table: the faces it covers, its effect and amount, and its text."""

    rolls: Annotated[tuple[Face, ...], Meta(min_length=1)]
    effect: Effect
    amount: Annotated[int, Meta(ge=0, le=10)] = -1  # -1: not given, 1 (0 for NO_AMOUNT effects)
    text: str = ""  # "": not given, the effect's name

    def __post_init__(self) -> None:
        if self.amount < 0:
            force_setattr(self, "amount", 0 if self.effect in NO_AMOUNT else 1)
        if not self.text:
            force_setattr(self, "text", self.effect)


def card_summary(kind: str, text: str, strength: int = 0, craft: int = 0) -> str:
    """Says in a few words what a card is and does, from its data: `Monster, Strength 5`, `Follower: +1
    Craft in Psychic Combat` (a text's words after its first colon are what the card does)."""
    if kind == "monster":
        return f"Monster, Strength {strength}"
    if kind == "spirit":
        return f"Spirit, Craft {craft}"
    _, colon, does = text.partition(": ")
    words = (does if colon else text).strip().rstrip(".")
    return f"{kind.replace('-', ' ').title()}: {words}"


class Card(Struct, frozen=True, forbid_unknown_fields=True):
    """One card; enemies have Strength (monster) or Craft (spirit), items have bonuses."""

    id: Text
    name: Text
    kind: Text
    encounter: Face
    text: Text
    strength: Stat = 0
    craft: Stat = 0
    strength_bonus: Bonus = 0
    craft_bonus: Bonus = 0
    armour_save: Bonus = 0
    # Dungeon 8.3: the Tunnel leads out of the Dungeon; the deck file calls the flag `leaves_dungeon`.
    leaves_board: bool = renamed(default=False, name="leaves_dungeon")
    table: tuple[Outcome, ...] = ()

    @property
    def is_enemy(self) -> bool:
        """Tells whether the card is fought (a Monster or a Spirit)."""
        return self.kind in ("monster", "spirit")

    @property
    def trophy_kind(self) -> str:
        """Returns "monster" or "spirit" for an enemy, else ""."""
        return self.kind if self.is_enemy else ""

    @property
    def trophy_value(self) -> int:
        """Returns the Strength of a monster or the Craft of a spirit."""
        return self.strength if self.kind == "monster" else self.craft

    @property
    def summary(self) -> str:
        """Says what the card is and does in a few words (see `card_summary`)."""
        return card_summary(self.kind, self.text, self.strength, self.craft)

    def outcome(self, face: int) -> Outcome:
        """Returns the table line for a die face (tables are checked to cover 1-6)."""
        for line in self.table:
            if face in line.rolls:
                return line
        return Outcome((face,), "nothing", 0, "")


class DeckFile(Struct, frozen=True, forbid_unknown_fields=True):
    """A deck file: where its cards come from and the cards, in order."""

    source: Text
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: cards by id, in file order."""

    cards: dict[str, Card] = field(default_factory=dict)
    source: str = "house"
    # Each card's encounter number; the rules ask for it on every encounter, so it is built once.
    numbers: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", {cid: card.encounter for cid, card in self.cards.items()})


def check_table(card: Card, filename: str, where: str) -> None:
    """Fails unless the card's table lines cover each die face exactly once."""
    covered: set[int] = set()
    for i, line in enumerate(card.table):
        for face in line.rolls:
            if face in covered:
                fail(filename, f"{where}.table[{i}].rolls", f"face {face} is already covered")
            covered.add(face)
    missing = [face for face in range(1, 7) if face not in covered]
    if missing:
        fail(filename, f"{where}.table", f"faces {missing} are not covered")


def check_card(card: Card, filename: str, where: str, kinds: Mapping[str, int] = KIND_NUMBERS) -> None:
    """Fails unless the card's kind is one `kinds` allows, with its encounter number, the stats of its
    kind (Strength for a monster, Craft for a spirit) and a table exactly when its kind rolls one."""
    if card.kind not in kinds:
        fail(filename, f"{where}.kind", f"expected one of {', '.join(kinds)}, got {card.kind!r}")
    if card.encounter != kinds[card.kind]:
        fail(
            filename,
            f"{where}.encounter",
            f"a {card.kind} has encounter number {kinds[card.kind]}, got {card.encounter}",
        )
    for stat, kind in (("strength", "monster"), ("craft", "spirit")):
        given = getattr(card, stat)
        if card.kind == kind and not given:
            fail(filename, f"{where}.{stat}", f"a {kind} needs a {stat} of 1-20, got 0")
        if card.kind != kind and given:
            fail(filename, f"{where}.{stat}", f"only a {kind} has a {stat}, got {given}")
    if card.kind in TABLE_KINDS and not card.leaves_board:
        check_table(card, filename, where)
    elif card.table:
        fail(filename, f"{where}.table", f"a {card.kind} rolls no table")


def check_deck(
    deck: DeckFile, filename: str, size: int, prefix: str, kinds: Mapping[str, int] = KIND_NUMBERS
) -> Deck:
    """Returns the deck of exactly `size` cards whose ids start with `prefix`, each checked."""
    if len(deck.cards) != size:
        fail(filename, "cards", f"expected {size} cards, got {len(deck.cards)}")
    check_ids((card.id for card in deck.cards), filename, "cards", prefix)
    for i, card in enumerate(deck.cards):
        check_card(card, filename, f"cards[{i}]", kinds)
    return Deck(cards={card.id: card for card in deck.cards}, source=deck.source)
