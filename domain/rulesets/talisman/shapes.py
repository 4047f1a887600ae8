"""The typed shape of a Talisman game's state, shared by every board (house rules H1): read by the rules and
type-checked in the projections (`mypy --strict`).

Positions are (board, space): a sheet's `board` names the board it stands on (`talisman`, `dungeon`,
`keep`…) and `space` the space's index on it. Face-up cards lie per board and space (`cards[board][space]`),
gold likewise (`gold[board][space]`). Decks and piles are named (`piles[name]`), with the names the replay
format's pile ledger uses (`dungeon`, `keep`, `vault`, `spells`, `adventure`…); a deck's discard pile is
`discard:<deck>`. Every list stays msgpack-native, so snapshots and forks encode the state as it is.
A ruleset extends these with its own keys by subclassing the TypedDicts.
"""

from __future__ import annotations

from typing import TypedDict


class Sheet(TypedDict):
    """A character's sheet: stats (current and starting), lives, gold, what it carries, where it stands."""

    character: str
    strength: int
    craft: int
    base_strength: int
    base_craft: int
    lives: int
    gold: int
    objects: list[str]
    followers: list[str]
    trophies: list[str]
    board: str
    space: int
    status: str  # playing / out / winner (character.PLAYING…)
    skips: int  # turns still to miss


class TalismanState(TypedDict):
    """What every Talisman game's state holds; a ruleset's own state subclasses it."""

    order: list[str]  # seat names in seating order
    requested: dict[str, str]  # seat → the character asked for ("" = deal one)
    players: dict[str, Sheet]
    turn: str  # whose turn it is
    phase: str  # setup / turn / over
    winner: str
    cards: dict[str, list[list[str]]]  # board → space → face-up cards, in the order laid
    gold: dict[str, list[int]]  # board → space → gold lying there
    piles: dict[str, list[str]]  # named decks and piles (kept sorted: a lazy shuffle)


def discard_pile(deck: str) -> str:
    """Returns the name of a deck's discard pile."""
    return f"discard:{deck}"
