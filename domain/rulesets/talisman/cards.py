"""Talisman cards shared by every board's deck (RULES.md §1): the card model, die tables, validation.

A board's deck file lists cards with an id, name, kind, encounter number and text; enemies carry
Strength (monsters) or Craft (spirits); items carry bonuses and armour saves; Events, Strangers and
Places carry a die table whose lines name an effect from `EFFECTS`. A board may add its own kinds
(the Keep's Teleport Tiles) and a flag for cards that lead off its board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.content import Section, unique_ids

# RULES.md §1: encounter numbers by card kind (1 Event, 2 Enemy, 3 Stranger, 4 Object, 5 Follower, 6 Place).
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
EFFECTS = (
    "lose_life",
    "gain_life",
    "gain_gold",
    "lose_gold",
    "gain_strength",
    "gain_craft",
    "lose_turn",
    "move_back",
    "nothing",
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One line of a die table: the faces it covers, its effect and amount, and its text."""

    rolls: tuple[int, ...]
    effect: str
    amount: int
    text: str


@dataclass(frozen=True, slots=True)
class Card:
    """One card; enemies have Strength (monster) or Craft (spirit), items have bonuses."""

    id: str
    name: str
    kind: str
    encounter: int
    text: str
    strength: int = 0
    craft: int = 0
    strength_bonus: int = 0
    craft_bonus: int = 0
    armour_save: int = 0
    leaves_board: bool = False
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

    def outcome(self, face: int) -> Outcome:
        """Returns the table line for a die face (tables are validated to cover 1-6)."""
        for line in self.table:
            if face in line.rolls:
                return line
        return Outcome((face,), "nothing", 0, "")


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: cards by id, in file order."""

    cards: dict[str, Card] = field(default_factory=dict)
    source: str = "house"
    # Each card's encounter number; the rules ask for it on every encounter, so it is built once.
    numbers: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", {cid: card.encounter for cid, card in self.cards.items()})


def parse_table(entry: Section) -> tuple[Outcome, ...]:
    lines: list[Outcome] = []
    covered: dict[int, int] = {}
    for line in entry.tables("table"):
        line.check_keys(["rolls", "effect", "amount", "text"])
        rolls = line.integers("rolls", low=1, high=6)
        effect = line.text("effect")
        if effect not in EFFECTS:
            line.fail("effect", f"unknown effect {effect!r} (known: {', '.join(EFFECTS)})")
        amount = line.integer(
            "amount", default=0 if effect in ("nothing", "lose_turn") else 1, low=0, high=10
        )
        for face in rolls:
            if face in covered:
                line.fail("rolls", f"face {face} is already covered")
            covered[face] = 1
        lines.append(Outcome(tuple(rolls), effect, amount, line.text("text", default=effect)))
    missing = [face for face in range(1, 7) if face not in covered]
    if missing:
        entry.fail("table", f"faces {missing} are not covered")
    return tuple(lines)


def parse_card(
    entry: Section,
    kinds: Mapping[str, int] = KIND_NUMBERS,
    leaves_key: str = "",
    extra_keys: tuple[str, ...] = (),
) -> Card:
    """Validates one card entry; `kinds` maps the kinds this deck allows to their encounter numbers,
    `leaves_key` names the flag of cards that lead off the board (if the board has such cards)."""
    keys = [
        "id",
        "name",
        "kind",
        "encounter",
        "text",
        "strength",
        "craft",
        "strength_bonus",
        "craft_bonus",
        "armour_save",
        "table",
        *extra_keys,
    ]
    entry.check_keys([*keys, leaves_key] if leaves_key else keys)
    kind = entry.text("kind", choices=tuple(kinds))
    number = entry.integer("encounter", low=1, high=6)
    if number != kinds[kind]:
        entry.fail("encounter", f"a {kind} has encounter number {kinds[kind]}, got {number}")
    leaves = entry.flag(leaves_key) if leaves_key else False
    needs_table = kind in TABLE_KINDS and not leaves
    return Card(
        id=entry.text("id"),
        name=entry.text("name"),
        kind=kind,
        encounter=number,
        text=entry.text("text"),
        strength=entry.integer("strength", low=1, high=20) if kind == "monster" else 0,
        craft=entry.integer("craft", low=1, high=20) if kind == "spirit" else 0,
        strength_bonus=entry.integer("strength_bonus", default=0, low=0, high=6),
        craft_bonus=entry.integer("craft_bonus", default=0, low=0, high=6),
        armour_save=entry.integer("armour_save", default=0, low=0, high=6),
        leaves_board=leaves,
        table=parse_table(entry) if needs_table else (),
    )


def parse_deck(
    data: dict[str, Any],
    filename: str,
    size: int,
    prefix: str,
    kinds: Mapping[str, int] = KIND_NUMBERS,
    leaves_key: str = "",
) -> Deck:
    """Validates a parsed deck file of exactly `size` cards whose ids start with `prefix`."""
    top = Section(data, filename)
    top.check_keys(["source", "cards"])
    entries = top.tables("cards")
    if len(entries) != size:
        top.fail("cards", f"expected {size} cards, got {len(entries)}")
    unique_ids(entries, prefix=prefix)
    cards = {card.id: card for card in (parse_card(entry, kinds, leaves_key) for entry in entries)}
    return Deck(cards=cards, source=top.text("source"))
