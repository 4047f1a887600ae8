"""The Vampire's Keep's content (RULES.md §3): board, Keep deck, Vault deck, Spells and die tables.

Each file (`board.toml`, `deck.toml`, `vault.toml`, `spells.toml`, `tables.toml`) is validated at load
into frozen dataclasses; every error is one line naming the file and the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.content import Section, content_path, load_model, unique_ids
from domain.rulesets.talisman.cards import KIND_NUMBERS, Card, Deck, parse_card, parse_deck

__all__ = [
    "Board",
    "Card",
    "Deck",
    "Space",
    "Spell",
    "TableLine",
    "Tables",
    "VaultCard",
    "content_paths",
    "load_board",
    "load_deck",
    "load_spells",
    "load_tables",
    "load_vault",
]

DIR = "keep"
BOARD_FILE = "board.toml"
DECK_FILE = "deck.toml"
VAULT_FILE = "vault.toml"
SPELLS_FILE = "spells.toml"
TABLES_FILE = "tables.toml"

TILE = "teleport-tile"
KEEP_KINDS: dict[str, int] = {**KIND_NUMBERS, TILE: 6}  # Keep 6.1: a Teleport Tile is a Place 6
DECK_SIZE = 48
TILE_COUNT = 6
VAULT_SIZE = 12  # Keep 2: the box holds 12 Vault cards
SPELL_COUNT = (12, 16)
SPACE_COUNT = 21
LEVEL_SIZE = 7
COUNTER_COUNT = 40  # Keep 2, 3.6: 40 Teleport counters drawn from a cup

# The rules refer to these spaces by number (Keep 8.1-8.8, RULES.md §3); every other space is a hall.
FIXED_KINDS = {
    1: "entrance",
    4: "sentry",
    10: "tome",
    14: "vampire-wizard",
    17: "coffin",
    19: "obelisk",
    20: "fountain",
    21: "vault",
}
SPACE_KINDS = ("hall", *FIXED_KINDS.values())
VAULT_TESTS = {"strength": 12, "craft": 12, "luck": 5}  # test -> highest value
SPELL_EFFECTS = (
    "lose_life",
    "lose_gold",
    "lose_turn",
    "move_back",
    "lose_strength",
    "lose_craft",
    "gain_life",
    "gain_gold",
    "nothing",
)


@dataclass(frozen=True, slots=True)
class Space:
    """One Keep space: number 1-21, id, name, kind, Keep cards drawn when empty, and level 1-3."""

    number: int
    id: str
    name: str
    kind: str
    draws: int
    level: int


@dataclass(frozen=True, slots=True)
class Board:
    """The Keep's 21 spaces (Entrance first, Talisman Vault last), the Sentry and the Teleport counters."""

    spaces: tuple[Space, ...]
    sentry_strength: int
    sentry_craft: int
    counters: tuple[int, ...]
    source: str

    def space(self, number: int) -> Space:
        """Returns the space with this number (1 is the Keep Entrance)."""
        if not 1 <= number <= len(self.spaces):
            raise ValueError(f"no Keep space {number} (expected 1-{len(self.spaces)})")
        return self.spaces[number - 1]

    @property
    def last(self) -> int:
        """Returns the number of the Talisman Vault."""
        return len(self.spaces)


@dataclass(frozen=True, slots=True)
class VaultCard:
    """One Vault card: a Strength, Craft or luck test against `value` (`lives` lost to a luck trap)."""

    id: str
    name: str
    test: str
    value: int
    lives: int
    text: str


@dataclass(frozen=True, slots=True)
class Spell:
    """One Spell of the house deck the Vampire Wizard casts: an effect and its amount."""

    id: str
    name: str
    effect: str
    amount: int
    text: str


@dataclass(frozen=True, slots=True)
class TableLine:
    """One line of a die table: the totals it covers, its effect, and what the effect needs."""

    rolls: tuple[int, ...]
    effect: str
    amount: int
    text: str
    destination: str = ""
    gold: int = 0
    spells: int = 0
    items: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TableSpec:
    """How one table of `tables.toml` is rolled and which effects its lines may name."""

    name: str
    low: int
    high: int
    effects: tuple[str, ...]
    keys: tuple[str, ...] = ("amount",)


TABLE_SPECS = (
    TableSpec(
        "tome",
        2,
        12,
        (
            "lose_life",
            "lose_strength",
            "lose_craft",
            "followers_leave",
            "heal",
            "gain_strength",
            "gain_craft",
            "gain_choice",
        ),
    ),
    TableSpec("sentry", 1, 6, ("slip_past", "combat_rounds", "psychic_rounds", "give_up")),
    TableSpec("coffin", 1, 6, ("lose_life", "nothing", "take_object", "gain_gold")),
    TableSpec("fountain", 1, 6, ("lose_life", "nothing", "gain_life")),
    TableSpec("exit", 1, 6, ("go_to",), keys=("destination",)),
    TableSpec("hoard", 2, 12, ("treasure",), keys=("gold", "spells", "items")),
)
TABLE_NAMES = tuple(spec.name for spec in TABLE_SPECS)


@dataclass(frozen=True, slots=True)
class Tables:
    """The Keep's die tables and the Objects the Treasure Hoard gives."""

    tome: tuple[TableLine, ...]
    sentry: tuple[TableLine, ...]
    coffin: tuple[TableLine, ...]
    fountain: tuple[TableLine, ...]
    exit: tuple[TableLine, ...]
    hoard: tuple[TableLine, ...]
    items: dict[str, Card]
    source: str = "house"

    def line(self, table: str, total: int) -> TableLine:
        """Returns the line of `table` (e.g. "tome") for a die total; tables cover every total at load."""
        if table not in TABLE_NAMES:
            raise ValueError(f"unknown Keep table {table!r} (known: {', '.join(TABLE_NAMES)})")
        lines: tuple[TableLine, ...] = getattr(self, table)
        for line in lines:
            if total in line.rolls:
                return line
        raise ValueError(f"no line of the {table} table covers {total}")


# --- board --------------------------------------------------------------------------------------------------


def _space(entry: Section, number: int) -> Space:
    entry.check_keys(["number", "id", "name", "kind", "draws"])
    if entry.integer("number") != number:
        entry.fail(
            "number", f"expected {number} (numbers must run 1, 2, 3, … in order), got {entry.data['number']}"
        )
    kind = entry.text("kind", choices=SPACE_KINDS)
    wanted = FIXED_KINDS.get(number, "hall")
    if kind != wanted:
        entry.fail("kind", f"expected {wanted!r} for space {number}, got {kind!r}")
    draws = entry.integer("draws")
    if kind == "hall" and draws not in (1, 2):
        entry.fail("draws", f"a hall draws 1 or 2 cards, got {draws}")
    if kind != "hall" and draws != 0:
        entry.fail("draws", f"a {kind} space draws no cards, got {draws}")
    level = (number - 1) // LEVEL_SIZE + 1
    return Space(number, entry.text("id"), entry.text("name"), kind, draws, level)


def build_board(data: dict[str, Any], filename: str) -> Board:
    """Validates a parsed board file into a Board."""
    top = Section(data, filename)
    top.check_keys(["source", "sentry_strength", "sentry_craft", "counters", "spaces"])
    entries = top.tables("spaces")
    if len(entries) != SPACE_COUNT:
        top.fail("spaces", f"expected {SPACE_COUNT} spaces, got {len(entries)}")
    unique_ids(entries, prefix="keep/space/")
    spaces = tuple(_space(entry, i + 1) for i, entry in enumerate(entries))
    counters = top.integers("counters", low=1, high=SPACE_COUNT)
    if len(counters) != COUNTER_COUNT:
        top.fail("counters", f"expected {COUNTER_COUNT} Teleport counters, got {len(counters)}")
    return Board(
        spaces=spaces,
        sentry_strength=top.integer("sentry_strength", low=1, high=12),
        sentry_craft=top.integer("sentry_craft", low=1, high=12),
        counters=tuple(counters),
        source=top.text("source"),
    )


# --- decks --------------------------------------------------------------------------------------------------


def build_deck(data: dict[str, Any], filename: str) -> Deck:
    """Validates a parsed Keep deck file: 48 cards, exactly 6 of them plain Teleport Tiles."""
    deck = parse_deck(data, filename, DECK_SIZE, "keep/card/", kinds=KEEP_KINDS)
    top = Section(data, filename)
    tiles = [entry for entry in top.tables("cards") if entry.data.get("kind") == TILE]
    for entry in tiles:
        # A tile's only effect is its Teleport counter (Keep 6.1): stats or a table would be ignored.
        for key in entry.data:
            if key not in ("id", "name", "kind", "encounter", "text"):
                entry.fail(key, f"a {TILE} has no stats or table")
    if len(tiles) != TILE_COUNT:
        top.fail("cards", f"expected {TILE_COUNT} {TILE} cards, got {len(tiles)}")
    return deck


def _vault_card(entry: Section) -> VaultCard:
    entry.check_keys(["id", "name", "test", "value", "lives", "text"])
    test = entry.text("test", choices=tuple(VAULT_TESTS))
    value = entry.integer("value", low=1, high=VAULT_TESTS[test])
    if test == "luck":
        lives = entry.integer("lives", low=1, high=3)
    elif "lives" in entry.data:
        entry.fail("lives", f"only a luck test costs a set number of lives, not a {test} test")
    else:
        lives = 0
    return VaultCard(entry.text("id"), entry.text("name"), test, value, lives, entry.text("text"))


def build_vault(data: dict[str, Any], filename: str) -> dict[str, VaultCard]:
    """Validates a parsed Vault deck file of exactly 12 cards."""
    top = Section(data, filename)
    top.check_keys(["source", "cards"])
    top.text("source")
    entries = top.tables("cards")
    if len(entries) != VAULT_SIZE:
        top.fail("cards", f"expected {VAULT_SIZE} cards, got {len(entries)}")
    unique_ids(entries, prefix="keep/vault/")
    return {card.id: card for card in map(_vault_card, entries)}


def _spell(entry: Section) -> Spell:
    entry.check_keys(["id", "name", "effect", "amount", "text"])
    effect = entry.text("effect")
    if effect not in SPELL_EFFECTS:
        entry.fail("effect", f"unknown effect {effect!r} (known: {', '.join(SPELL_EFFECTS)})")
    amount = entry.integer("amount", low=0, high=6)
    if (effect == "nothing") != (amount == 0):
        entry.fail("amount", f"expected {'0' if effect == 'nothing' else '1-6'} for {effect}, got {amount}")
    return Spell(entry.text("id"), entry.text("name"), effect, amount, entry.text("text"))


def build_spells(data: dict[str, Any], filename: str) -> dict[str, Spell]:
    """Validates a parsed Spell deck file of 12-16 spells."""
    top = Section(data, filename)
    top.check_keys(["source", "spells"])
    top.text("source")
    entries = top.tables("spells")
    low, high = SPELL_COUNT
    if not low <= len(entries) <= high:
        top.fail("spells", f"expected {low}-{high} spells, got {len(entries)}")
    unique_ids(entries, prefix="keep/spell/")
    return {spell.id: spell for spell in map(_spell, entries)}


# --- tables -------------------------------------------------------------------------------------------------


def _hoard_items(line: Section, items: dict[str, Card]) -> tuple[str, ...]:
    value = line.data.get("items", [])
    if not isinstance(value, list):
        line.fail("items", f"expected a list of item ids, got {type(value).__name__}")
    for i, item in enumerate(value):
        if not isinstance(item, str) or item not in items:
            line.fail(f"items[{i}]", f"unknown item {item!r} (known: {', '.join(items)})")
    return tuple(value)


def _table_line(line: Section, spec: TableSpec, items: dict[str, Card]) -> TableLine:
    line.check_keys(["rolls", "effect", "text", *spec.keys])
    rolls = tuple(line.integers("rolls", low=spec.low, high=spec.high))
    effect = line.text("effect")
    if effect not in spec.effects:
        line.fail("effect", f"unknown effect {effect!r} (known: {', '.join(spec.effects)})")
    text = line.text("text")
    if spec.name == "exit":
        return TableLine(rolls, effect, 0, text, destination=line.text("destination"))
    if spec.name == "hoard":
        gold = line.integer("gold", default=0, low=0, high=20)
        spells = line.integer("spells", default=0, low=0, high=3)
        return TableLine(rolls, effect, 0, text, gold=gold, spells=spells, items=_hoard_items(line, items))
    return TableLine(rolls, effect, line.integer("amount", low=0, high=6), text)


def _table(top: Section, spec: TableSpec, items: dict[str, Card]) -> tuple[TableLine, ...]:
    lines: list[TableLine] = []
    covered: set[int] = set()
    for entry in top.tables(spec.name):
        line = _table_line(entry, spec, items)
        for face in line.rolls:
            if face in covered:
                entry.fail("rolls", f"total {face} is already covered")
            covered.add(face)
        lines.append(line)
    missing = [face for face in range(spec.low, spec.high + 1) if face not in covered]
    if missing:
        top.fail(spec.name, f"faces {missing} are not covered")
    return tuple(lines)


def _items(top: Section) -> dict[str, Card]:
    entries = top.tables("items")
    if not entries:
        top.fail("items", "expected at least one item")
    unique_ids(entries, prefix="keep/item/")
    return {card.id: card for card in (parse_card(entry, {"object": 4}) for entry in entries)}


def build_tables(data: dict[str, Any], filename: str) -> Tables:
    """Validates a parsed tables file into Tables (items first: the hoard names them)."""
    top = Section(data, filename)
    top.check_keys(["source", "items", *TABLE_NAMES])
    items = _items(top)
    tome, sentry, coffin, fountain, exit_, hoard = (_table(top, spec, items) for spec in TABLE_SPECS)
    return Tables(tome, sentry, coffin, fountain, exit_, hoard, items, source=top.text("source"))


# --- loading ------------------------------------------------------------------------------------------------


def load_board() -> Board:
    """Returns the Keep board in use, validated."""
    return load_model(DIR, BOARD_FILE, build_board)


def load_deck() -> Deck:
    """Returns the 48-card Keep deck in use, validated."""
    return load_model(DIR, DECK_FILE, build_deck)


def load_vault() -> dict[str, VaultCard]:
    """Returns the Vault deck in use by id, in file order, validated."""
    return load_model(DIR, VAULT_FILE, build_vault)


def load_spells() -> dict[str, Spell]:
    """Returns the house Spell deck in use by id, in file order, validated."""
    return load_model(DIR, SPELLS_FILE, build_spells)


def load_tables() -> Tables:
    """Returns the Keep's die tables in use, validated."""
    return load_model(DIR, TABLES_FILE, build_tables)


FILES = (BOARD_FILE, DECK_FILE, VAULT_FILE, SPELLS_FILE, TABLES_FILE)


def content_paths() -> list[Path]:
    """Returns the Keep's content files in use (board, deck, vault, spells, tables)."""
    return [content_path(DIR, name) for name in FILES]
