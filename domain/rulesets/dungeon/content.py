"""The Dungeon's content: the board (`board.toml`) and the 36-card deck (`deck.toml`), validated at load."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain.content import Section, content_path, load_model, unique_ids

DIR = "dungeon"
BOARD_FILE = "board.toml"
DECK_FILE = "deck.toml"
DECK_SIZE = 36  # Dungeon 2: the box holds 36 Dungeon cards
CARD_PREFIX = "dungeon/card/"
SPACE_PREFIX = "dungeon/space/"

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
SPACE_KINDS = ("entrance", "chamber", "guard-room", "treasure-chamber")


@dataclass(frozen=True, slots=True)
class Outcome:
    """One line of a die table: the faces it covers, its effect and amount, and its text."""

    rolls: tuple[int, ...]
    effect: str
    amount: int
    text: str


@dataclass(frozen=True, slots=True)
class Card:
    """One Dungeon card; enemies have Strength (monster) or Craft (spirit), items have bonuses."""

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
    leaves_dungeon: bool = False
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
class Space:
    """One space of the spiral: index from the Entrance (0), name, kind and how many cards it draws."""

    index: int
    id: str
    name: str
    kind: str
    draws: int
    guard_strength: int = 0


@dataclass(frozen=True, slots=True)
class Board:
    """The Dungeon spiral, Entrance first and Treasure Chamber last."""

    spaces: tuple[Space, ...]
    source: str

    @property
    def last(self) -> int:
        """Returns the index of the Treasure Chamber."""
        return len(self.spaces) - 1


@dataclass(frozen=True, slots=True)
class Deck:
    """The Dungeon deck: cards by id, in file order."""

    cards: dict[str, Card] = field(default_factory=dict)
    source: str = "house"
    # Each card's encounter number; the rules ask for it on every encounter, so it is built once.
    numbers: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", {cid: card.encounter for cid, card in self.cards.items()})


def _space(entry: Section, index: int, last: int) -> Space:
    entry.check_keys(["index", "id", "name", "kind", "draws", "guard_strength"])
    if entry.integer("index") != index:
        entry.fail(
            "index", f"expected {index} (indexes must run 0, 1, 2, … in order), got {entry.data['index']}"
        )
    kind = entry.text("kind", choices=SPACE_KINDS)
    wanted = "entrance" if index == 0 else "treasure-chamber" if index == last else ""
    if wanted and kind != wanted:
        entry.fail("kind", f"expected {wanted!r} for space {index}, got {kind!r}")
    if not wanted and kind in ("entrance", "treasure-chamber"):
        entry.fail("kind", f"{kind!r} may only be the first or last space")
    draws = entry.integer("draws", low=0, high=3)
    if kind != "chamber" and draws:
        entry.fail("draws", f"a {kind} draws no cards, got {draws}")
    guard = entry.integer("guard_strength", default=0, low=0, high=12)
    if kind == "guard-room" and guard < 1:
        entry.fail("guard_strength", "a guard-room needs a guard_strength of at least 1")
    return Space(index, entry.text("id"), entry.text("name"), kind, draws, guard)


def build_board(data: dict[str, Any], filename: str) -> Board:
    """Validates a parsed board file into a Board."""
    top = Section(data, filename)
    top.check_keys(["source", "spaces"])
    entries = top.tables("spaces")
    if len(entries) < 3:
        top.fail("spaces", f"expected at least 3 spaces, got {len(entries)}")
    unique_ids(entries, prefix=SPACE_PREFIX)
    spaces = tuple(_space(entry, i, len(entries) - 1) for i, entry in enumerate(entries))
    return Board(spaces=spaces, source=top.text("source"))


def _table(entry: Section) -> tuple[Outcome, ...]:
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


def _card(entry: Section) -> Card:
    entry.check_keys(
        [
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
            "leaves_dungeon",
            "table",
        ]
    )
    kind = entry.text("kind", choices=tuple(KIND_NUMBERS))
    number = entry.integer("encounter", low=1, high=6)
    if number != KIND_NUMBERS[kind]:
        entry.fail("encounter", f"a {kind} has encounter number {KIND_NUMBERS[kind]}, got {number}")
    leaves = entry.flag("leaves_dungeon")
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
        leaves_dungeon=leaves,
        table=_table(entry) if needs_table else (),
    )


def build_deck(data: dict[str, Any], filename: str) -> Deck:
    """Validates a parsed deck file into a Deck."""
    top = Section(data, filename)
    top.check_keys(["source", "cards"])
    entries = top.tables("cards")
    if len(entries) != DECK_SIZE:
        top.fail("cards", f"expected {DECK_SIZE} cards, got {len(entries)}")
    unique_ids(entries, prefix=CARD_PREFIX)
    cards = {card.id: card for card in (_card(entry) for entry in entries)}
    return Deck(cards=cards, source=top.text("source"))


def load_board() -> Board:
    """Returns the Dungeon board in use, validated."""
    return load_model(DIR, BOARD_FILE, build_board)


def load_deck() -> Deck:
    """Returns the Dungeon deck in use, validated."""
    return load_model(DIR, DECK_FILE, build_deck)


def content_paths() -> list[Path]:
    """Returns the Dungeon's content files in use (board and deck)."""
    return [content_path(DIR, BOARD_FILE), content_path(DIR, DECK_FILE)]
