"""The Dungeon's content: the board (`board.toml`) and the 36-card deck (`deck.toml`), validated at load."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from msgspec import Meta, Struct

from domain.content import check_ids, content_path, fail, load_schema
from domain.rulesets.talisman.cards import Card, Deck, DeckFile, Outcome, Text, check_deck

__all__ = ["Board", "Card", "Deck", "Outcome", "Space", "load_board", "load_deck"]

DIR = "dungeon"
BOARD_FILE = "board.toml"
DECK_FILE = "deck.toml"
DECK_SIZE = 36  # Dungeon 2: the box holds 36 Dungeon cards
CARD_PREFIX = "dungeon/card/"
SPACE_PREFIX = "dungeon/space/"

SpaceKind = Literal["entrance", "chamber", "guard-room", "treasure-chamber"]
ENDS = ("entrance", "treasure-chamber")


class Space(Struct, frozen=True, forbid_unknown_fields=True):
    """One space of the spiral: index from the Entrance (0), name, kind and how many cards it draws."""

    index: int
    id: Text
    name: Text
    kind: SpaceKind
    draws: Annotated[int, Meta(ge=0, le=3)]
    guard_strength: Annotated[int, Meta(ge=0, le=12)] = 0


class Board(Struct, frozen=True, forbid_unknown_fields=True):
    """The Dungeon spiral, Entrance first and Treasure Chamber last."""

    spaces: tuple[Space, ...]
    source: Text

    @property
    def last(self) -> int:
        """Returns the index of the Treasure Chamber."""
        return len(self.spaces) - 1


def _check_space(space: Space, filename: str, index: int, last: int) -> None:
    where = f"spaces[{index}]"
    if space.index != index:
        fail(
            filename,
            f"{where}.index",
            f"expected {index} (indexes must run 0, 1, 2, … in order), got {space.index}",
        )
    wanted = "entrance" if index == 0 else "treasure-chamber" if index == last else ""
    if wanted and space.kind != wanted:
        fail(filename, f"{where}.kind", f"expected {wanted!r} for space {index}, got {space.kind!r}")
    if not wanted and space.kind in ENDS:
        fail(filename, f"{where}.kind", f"{space.kind!r} may only be the first or last space")
    if space.kind != "chamber" and space.draws:
        fail(filename, f"{where}.draws", f"a {space.kind} draws no cards, got {space.draws}")
    if space.kind == "guard-room" and space.guard_strength < 1:
        fail(filename, f"{where}.guard_strength", "a guard-room needs a guard_strength of at least 1")


def check_board(board: Board, filename: str) -> Board:
    """Returns the board once its spaces run Entrance to Treasure Chamber with unique ids (Dungeon 3)."""
    if len(board.spaces) < 3:
        fail(filename, "spaces", f"expected at least 3 spaces, got {len(board.spaces)}")
    check_ids((space.id for space in board.spaces), filename, "spaces", SPACE_PREFIX)
    for index, space in enumerate(board.spaces):
        _check_space(space, filename, index, board.last)
    return board


def check_dungeon_deck(deck: DeckFile, filename: str) -> Deck:
    """Returns the deck once it holds the 36 cards of Dungeon 2, each checked."""
    return check_deck(deck, filename, DECK_SIZE, CARD_PREFIX)


def load_board() -> Board:
    """Returns the Dungeon board in use, validated."""
    return load_schema(DIR, BOARD_FILE, Board, check_board)


def load_deck() -> Deck:
    """Returns the Dungeon deck in use, validated."""
    return load_schema(DIR, DECK_FILE, DeckFile, check_dungeon_deck)


def content_paths() -> list[Path]:
    """Returns the Dungeon's content files in use (board and deck)."""
    return [content_path(DIR, BOARD_FILE), content_path(DIR, DECK_FILE)]
