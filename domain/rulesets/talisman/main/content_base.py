"""What every main-board content schema shares: the folder, sources, and the one-line error helpers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from domain.content import fail as fail  # the one-line ContentError every content file raises

DIR = "talisman"

# Where a fact comes from: the printed game (as far as it is known) or nightkeep's own content.
Source = Literal["house", "rulebook"]

# What a card, a place's die-table row and a service may all do (`outcomes.OUTCOMES` applies each).
Effect = Literal[
    "nothing",
    "lose-life",
    "gain-life",
    "heal",
    "gain-gold",
    "lose-gold",
    "gain-strength",
    "lose-strength",
    "gain-craft",
    "lose-craft",
    "lose-turn",
    "gain-spell",
    "teleport",
]


def check_ids(filename: str, entries: Iterable[tuple[str, str]], prefix: str) -> None:
    """Fails on an id without `prefix` or met twice; `entries` are (key path, id)."""
    seen: set[str] = set()
    for key, value in entries:
        if not value.startswith(prefix) or value == prefix:
            fail(filename, f"{key}.id", f"expected an id starting with {prefix!r}, got {value!r}")
        if value in seen:
            fail(filename, f"{key}.id", f"duplicate id {value!r}")
        seen.add(value)
