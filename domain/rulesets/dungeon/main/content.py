"""The Dungeon expansion's own content (house, house rule H2.14): `dungeon-exits.toml`, the ways out of the
Dungeon onto the main board (the Treasure Chamber table, Dungeon 8.1; the Tunnel, 8.3); and
`is_doorway`, what tells a Doorway card (Dungeon 4)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from msgspec import Meta, Struct

from domain.content import content_path, load_schema
from domain.rulesets.talisman.main.content_base import DIR, Source, fail

if TYPE_CHECKING:
    from domain.rulesets.talisman.main.context import MainContext

EXITS_FILE = "dungeon-exits.toml"
ADVENTURE_FILE = "adventure-dungeon.toml"
DOORWAY = "doorway"  # the Doorway cards' effect, and a way out that leads to a Doorway of the player's choice
Face = Annotated[int, Meta(ge=1, le=6)]


class Row(Struct, frozen=True, forbid_unknown_fields=True):
    """One row of the Treasure Chamber table: the totals it covers and where it leads."""

    rolls: Annotated[tuple[Face, ...], Meta(min_length=1)]
    to: str
    text: str


class ExitsFile(Struct, frozen=True, forbid_unknown_fields=True):
    """The ways out of the Dungeon."""

    source: Source
    tunnel: str
    fallback: str
    chamber: tuple[Row, ...]

    def row(self, total: int) -> Row:
        """Returns the Treasure Chamber table's row for a total (1-6; checked to cover each once)."""
        return next(row for row in self.chamber if total in row.rolls)


def _check_exits(model: ExitsFile, filename: str) -> ExitsFile:
    covered = [face for row in model.chamber for face in row.rolls]
    if sorted(covered) != list(range(1, 7)):
        fail(filename, "chamber", f"expected the totals 1-6 each once, got {sorted(covered)}")
    return model


def load_exits() -> ExitsFile:
    """Returns the ways out of the Dungeon in use, validated."""
    return load_schema(DIR, EXITS_FILE, ExitsFile, _check_exits)


def exits_path() -> Path:
    """Returns the file the ways out are read from."""
    return content_path(DIR, EXITS_FILE)


def is_doorway(ctx: MainContext, card: str) -> bool:
    """Tells whether a card is a Doorway (Dungeon 4.2: no Destruction or Earthquake removes one)."""
    return bool(ctx.effects.get(card) == DOORWAY)
