"""What every main-board content schema shares: the folder, sources, and the one-line error helpers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NoReturn

from domain.errors import ContentError

DIR = "talisman"

# Where a fact comes from: the printed game (as far as it is known) or nightkeep's own content.
Source = Literal["house", "rulebook"]


def fail(filename: str, key: str, message: str) -> NoReturn:
    """Raises the one-line ContentError naming the file and the key."""
    raise ContentError(f"{filename}: {key}: {message}")


def check_ids(filename: str, entries: Iterable[tuple[str, str]], prefix: str) -> None:
    """Fails on an id without `prefix` or met twice; `entries` are (key path, id)."""
    seen: set[str] = set()
    for key, value in entries:
        if not value.startswith(prefix) or value == prefix:
            fail(filename, f"{key}.id", f"expected an id starting with {prefix!r}, got {value!r}")
        if value in seen:
            fail(filename, f"{key}.id", f"duplicate id {value!r}")
        seen.add(value)
