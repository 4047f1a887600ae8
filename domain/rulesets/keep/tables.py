"""The Vampire's Keep's die tables (`tables.toml`, H3.3-H3.16): each table's lines as a schema of their own
(the faces it is rolled with, the effects it may name, its own keys), checked and read as `TableLine`s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from msgspec import Meta, Struct

from domain.content import check_ids, fail
from domain.rulesets.talisman.cards import Card, Text, check_card

Amount = Annotated[int, Meta(ge=0, le=6)]
OneDie = Annotated[tuple[Annotated[int, Meta(ge=1, le=6)], ...], Meta(min_length=1)]
TwoDice = Annotated[tuple[Annotated[int, Meta(ge=2, le=12)], ...], Meta(min_length=1)]


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


# Each table's lines as its file writes them: the faces it is rolled with, its effects, its own keys.
class _Line(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """What every line says: its text."""

    text: Text


class TomeLine(_Line, frozen=True, kw_only=True):
    """A line of the Tome of the Undead (Keep 8.3), rolled with 2 dice."""

    rolls: TwoDice
    effect: Literal[
        "lose_life",
        "lose_strength",
        "lose_craft",
        "followers_leave",
        "heal",
        "gain_strength",
        "gain_craft",
        "gain_choice",
    ]
    amount: Amount


class SentryLine(_Line, frozen=True, kw_only=True):
    """A line of the Sentry's table (Keep 8.2), rolled with 1 die."""

    rolls: OneDie
    effect: Literal["slip_past", "combat_rounds", "psychic_rounds", "give_up"]
    amount: Amount


class CoffinLine(_Line, frozen=True, kw_only=True):
    """A line of the Ancient Coffin's table (house, space 17), rolled with 1 die."""

    rolls: OneDie
    effect: Literal["lose_life", "nothing", "take_object", "gain_gold"]
    amount: Amount


class FountainLine(_Line, frozen=True, kw_only=True):
    """A line of the Fountain of Blood's table (house, space 20), rolled with 1 die."""

    rolls: OneDie
    effect: Literal["lose_life", "nothing", "gain_life"]
    amount: Amount


class ExitLine(_Line, frozen=True, kw_only=True):
    """A line of the Exit Table (house, Keep 9.1): where a survivor of the Vault goes, rolled with 1 die."""

    rolls: OneDie
    effect: Literal["go_to"]
    destination: Text


class HoardLine(_Line, frozen=True, kw_only=True):
    """A row of the Treasure Hoard (Keep 15), rolled with 2 dice: gold, Spells and Objects."""

    rolls: TwoDice
    effect: Literal["treasure"]
    gold: Annotated[int, Meta(ge=0, le=20)] = 0
    spells: Annotated[int, Meta(ge=0, le=3)] = 0
    items: tuple[str, ...] = ()


class TablesFile(Struct, frozen=True, forbid_unknown_fields=True):
    """The tables file: the Hoard's Objects and every die table, as written."""

    source: Text
    items: Annotated[tuple[Card, ...], Meta(min_length=1)]
    tome: tuple[TomeLine, ...]
    sentry: tuple[SentryLine, ...]
    coffin: tuple[CoffinLine, ...]
    fountain: tuple[FountainLine, ...]
    exit: tuple[ExitLine, ...]
    hoard: tuple[HoardLine, ...]


# Each table's name and the totals its lines must cover exactly once (1 die or 2 dice).
TABLE_RANGES = {
    "tome": (2, 12),
    "sentry": (1, 6),
    "coffin": (1, 6),
    "fountain": (1, 6),
    "exit": (1, 6),
    "hoard": (2, 12),
}
TABLE_NAMES = tuple(TABLE_RANGES)


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


# --- checks -------------------------------------------------------------------------------------------------

AnyLine = TomeLine | SentryLine | CoffinLine | FountainLine | ExitLine | HoardLine


def _table_line(line: AnyLine) -> TableLine:
    if isinstance(line, ExitLine):
        return TableLine(line.rolls, line.effect, 0, line.text, destination=line.destination)
    if isinstance(line, HoardLine):
        return TableLine(
            line.rolls, line.effect, 0, line.text, gold=line.gold, spells=line.spells, items=line.items
        )
    return TableLine(line.rolls, line.effect, line.amount, line.text)


def _check_table(
    name: str, lines: tuple[AnyLine, ...], items: dict[str, Card], filename: str
) -> tuple[TableLine, ...]:
    low, high = TABLE_RANGES[name]
    covered: set[int] = set()
    for i, line in enumerate(lines):
        for face in line.rolls:
            if face in covered:
                fail(filename, f"{name}[{i}].rolls", f"total {face} is already covered")
            covered.add(face)
        for j, item in enumerate(line.items if isinstance(line, HoardLine) else ()):
            if item not in items:
                fail(
                    filename, f"{name}[{i}].items[{j}]", f"unknown item {item!r} (known: {', '.join(items)})"
                )
    missing = [face for face in range(low, high + 1) if face not in covered]
    if missing:
        fail(filename, name, f"faces {missing} are not covered")
    return tuple(map(_table_line, lines))


def check_tables(content: TablesFile, filename: str) -> Tables:
    """Returns the Tables once the Hoard's Objects are checked and each table covers its totals once."""
    check_ids((item.id for item in content.items), filename, "items", "keep/item/")
    for i, item in enumerate(content.items):
        check_card(item, filename, f"items[{i}]", {"object": 4})
    items = {item.id: item for item in content.items}
    tables = {name: _check_table(name, getattr(content, name), items, filename) for name in TABLE_NAMES}
    return Tables(**tables, items=items, source=content.source)
