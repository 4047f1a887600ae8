"""The Dungeon's content: the board (`board.toml`) and the 36-card deck (`deck.toml`), validated at load."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.content import Section, content_path, load_model, unique_ids
from domain.rulesets.talisman.cards import Card, Deck, Outcome, parse_deck

__all__ = ["Board", "Card", "Deck", "Outcome", "Space", "load_board", "load_deck"]

DIR = "dungeon"
BOARD_FILE = "board.toml"
DECK_FILE = "deck.toml"
DECK_SIZE = 36  # Dungeon 2: the box holds 36 Dungeon cards
CARD_PREFIX = "dungeon/card/"
SPACE_PREFIX = "dungeon/space/"

SPACE_KINDS = ("entrance", "chamber", "guard-room", "treasure-chamber")


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


def build_deck(data: dict[str, Any], filename: str) -> Deck:
    """Validates a parsed deck file into a Deck."""
    return parse_deck(data, filename, DECK_SIZE, CARD_PREFIX, leaves_key="leaves_dungeon")


def load_board() -> Board:
    """Returns the Dungeon board in use, validated."""
    return load_model(DIR, BOARD_FILE, build_board)


def load_deck() -> Deck:
    """Returns the Dungeon deck in use, validated."""
    return load_model(DIR, DECK_FILE, build_deck)


def content_paths() -> list[Path]:
    """Returns the Dungeon's content files in use (board and deck)."""
    return [content_path(DIR, BOARD_FILE), content_path(DIR, DECK_FILE)]
