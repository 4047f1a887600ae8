"""The Vampire's Keep's content (house rules H3): board, Keep deck, Vault deck, Spells and die tables.

Each file (`board.toml`, `deck.toml`, `vault.toml`, `spells.toml`, `tables.toml`) is declared as a
schema and checked at load; every error is one line naming the file and the key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal, get_args

from msgspec import Meta, Struct

from domain.content import check_ids, content_path, fail, load_schema
from domain.rulesets.keep.tables import Amount, TableLine, Tables, TablesFile, check_tables
from domain.rulesets.talisman.cards import (
    KIND_NUMBERS,
    Card,
    Deck,
    DeckFile,
    Text,
    check_deck,
)

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

# The rules refer to these spaces by number (Keep 8.1-8.8, house rules H3); every other space is a hall.
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
SpaceKind = Literal[
    "hall", "entrance", "sentry", "tome", "vampire-wizard", "coffin", "obelisk", "fountain", "vault"
]
VaultTest = Literal["strength", "craft", "luck"]
VAULT_TESTS = {"strength": 12, "craft": 12, "luck": 5}  # test -> highest value
SpellEffect = Literal[
    "lose_life",
    "lose_gold",
    "lose_turn",
    "move_back",
    "lose_strength",
    "lose_craft",
    "gain_life",
    "gain_gold",
    "nothing",
]
SPELL_EFFECTS: tuple[str, ...] = get_args(SpellEffect)


class Space(Struct, frozen=True, forbid_unknown_fields=True):
    """One Keep space: number 1-21, id, name, kind, Keep cards drawn when empty, and level 1-3."""

    number: int
    id: Text
    name: Text
    kind: SpaceKind
    draws: int

    @property
    def level(self) -> int:
        """Returns the level (1-3) the space lies on, seven spaces a level (Keep 3)."""
        return (self.number - 1) // LEVEL_SIZE + 1


class Board(Struct, frozen=True, forbid_unknown_fields=True):
    """The Keep's 21 spaces (Entrance first, Talisman Vault last), the Sentry and the Teleport counters."""

    spaces: tuple[Space, ...]
    sentry_strength: Annotated[int, Meta(ge=1, le=12)]
    sentry_craft: Annotated[int, Meta(ge=1, le=12)]
    counters: tuple[Annotated[int, Meta(ge=1, le=SPACE_COUNT)], ...]
    source: Text

    def space(self, number: int) -> Space:
        """Returns the space with this number (1 is the Keep Entrance)."""
        if not 1 <= number <= len(self.spaces):
            raise ValueError(f"no Keep space {number} (expected 1-{len(self.spaces)})")
        return self.spaces[number - 1]

    @property
    def last(self) -> int:
        """Returns the number of the Talisman Vault."""
        return len(self.spaces)


class VaultCard(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One Vault card: a Strength, Craft or luck test against `value` (`lives` lost to a luck trap)."""

    id: Text
    name: Text
    test: VaultTest
    value: Annotated[int, Meta(ge=1, le=12)]
    lives: Annotated[int, Meta(ge=0, le=3)] = 0
    text: Text


class VaultFile(Struct, frozen=True, forbid_unknown_fields=True):
    """The Vault deck file."""

    source: Text
    cards: tuple[VaultCard, ...]


class Spell(Struct, frozen=True, forbid_unknown_fields=True):
    """One Spell of the house deck the Vampire Wizard casts: an effect and its amount."""

    id: Text
    name: Text
    effect: SpellEffect
    amount: Amount
    text: Text


class SpellsFile(Struct, frozen=True, forbid_unknown_fields=True):
    """The house Spell deck file."""

    source: Text
    spells: tuple[Spell, ...]


# --- board --------------------------------------------------------------------------------------------------


def _check_space(space: Space, filename: str, number: int) -> None:
    where = f"spaces[{number - 1}]"
    if space.number != number:
        fail(
            filename,
            f"{where}.number",
            f"expected {number} (numbers must run 1, 2, 3, … in order), got {space.number}",
        )
    wanted = FIXED_KINDS.get(number, "hall")
    if space.kind != wanted:
        fail(filename, f"{where}.kind", f"expected {wanted!r} for space {number}, got {space.kind!r}")
    if space.kind == "hall" and space.draws not in (1, 2):
        fail(filename, f"{where}.draws", f"a hall draws 1 or 2 cards, got {space.draws}")
    if space.kind != "hall" and space.draws != 0:
        fail(filename, f"{where}.draws", f"a {space.kind} space draws no cards, got {space.draws}")


def check_board(board: Board, filename: str) -> Board:
    """Returns the board once it has 21 spaces numbered in order, the fixed spaces where the rules put
    them (Keep 8) and 40 Teleport counters."""
    if len(board.spaces) != SPACE_COUNT:
        fail(filename, "spaces", f"expected {SPACE_COUNT} spaces, got {len(board.spaces)}")
    check_ids((space.id for space in board.spaces), filename, "spaces", "keep/space/")
    for number, space in enumerate(board.spaces, start=1):
        _check_space(space, filename, number)
    if len(board.counters) != COUNTER_COUNT:
        fail(filename, "counters", f"expected {COUNTER_COUNT} Teleport counters, got {len(board.counters)}")
    return board


# --- decks --------------------------------------------------------------------------------------------------

_TILE_STATS = ("strength", "craft", "strength_bonus", "craft_bonus", "armour_save", "table")


def check_keep_deck(deck: DeckFile, filename: str) -> Deck:
    """Returns the Keep deck once it holds 48 cards, exactly 6 of them plain Teleport Tiles."""
    checked = check_deck(deck, filename, DECK_SIZE, "keep/card/", kinds=KEEP_KINDS)
    for i, card in enumerate(deck.cards):
        if card.leaves_board:
            fail(filename, f"cards[{i}].leaves_dungeon", "unknown field")
        # A tile's only effect is its Teleport counter (Keep 6.1): stats or a table would be ignored.
        given = [stat for stat in _TILE_STATS if getattr(card, stat)] if card.kind == TILE else []
        if given:
            fail(filename, f"cards[{i}].{given[0]}", f"a {TILE} has no stats or table")
    tiles = sum(card.kind == TILE for card in deck.cards)
    if tiles != TILE_COUNT:
        fail(filename, "cards", f"expected {TILE_COUNT} {TILE} cards, got {tiles}")
    return checked


def _check_vault_card(card: VaultCard, filename: str, where: str) -> None:
    if card.value > VAULT_TESTS[card.test]:
        fail(filename, f"{where}.value", f"expected at most {VAULT_TESTS[card.test]}, got {card.value}")
    if card.test == "luck" and not card.lives:
        fail(filename, f"{where}.lives", "a luck test costs 1-3 lives, got 0")
    if card.test != "luck" and card.lives:
        fail(
            filename,
            f"{where}.lives",
            f"only a luck test costs a set number of lives, not a {card.test} test",
        )


def check_vault(vault: VaultFile, filename: str) -> dict[str, VaultCard]:
    """Returns the Vault deck by id, in file order, once it holds exactly 12 cards (Keep 2)."""
    if len(vault.cards) != VAULT_SIZE:
        fail(filename, "cards", f"expected {VAULT_SIZE} cards, got {len(vault.cards)}")
    check_ids((card.id for card in vault.cards), filename, "cards", "keep/vault/")
    for i, card in enumerate(vault.cards):
        _check_vault_card(card, filename, f"cards[{i}]")
    return {card.id: card for card in vault.cards}


def check_spells(content: SpellsFile, filename: str) -> dict[str, Spell]:
    """Returns the Spell deck by id, in file order, once it holds 12-16 spells, an amount exactly for
    those that do something."""
    low, high = SPELL_COUNT
    if not low <= len(content.spells) <= high:
        fail(filename, "spells", f"expected {low}-{high} spells, got {len(content.spells)}")
    check_ids((spell.id for spell in content.spells), filename, "spells", "keep/spell/")
    for i, spell in enumerate(content.spells):
        if (spell.effect == "nothing") != (spell.amount == 0):
            wanted = "0" if spell.effect == "nothing" else "1-6"
            fail(filename, f"spells[{i}].amount", f"expected {wanted} for {spell.effect}, got {spell.amount}")
    return {spell.id: spell for spell in content.spells}


# --- loading ------------------------------------------------------------------------------------------------


def load_board() -> Board:
    """Returns the Keep board in use, validated."""
    return load_schema(DIR, BOARD_FILE, Board, check_board)


def load_deck() -> Deck:
    """Returns the 48-card Keep deck in use, validated."""
    return load_schema(DIR, DECK_FILE, DeckFile, check_keep_deck)


def load_vault() -> dict[str, VaultCard]:
    """Returns the Vault deck in use by id, in file order, validated."""
    return load_schema(DIR, VAULT_FILE, VaultFile, check_vault)


def load_spells() -> dict[str, Spell]:
    """Returns the house Spell deck in use by id, in file order, validated."""
    return load_schema(DIR, SPELLS_FILE, SpellsFile, check_spells)


def load_tables() -> Tables:
    """Returns the Keep's die tables in use, validated."""
    return load_schema(DIR, TABLES_FILE, TablesFile, check_tables)


FILES = (BOARD_FILE, DECK_FILE, VAULT_FILE, SPELLS_FILE, TABLES_FILE)


def content_paths() -> list[Path]:
    """Returns the Keep's content files in use (board, deck, vault, spells, tables)."""
    return [content_path(DIR, name) for name in FILES]
