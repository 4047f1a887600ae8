"""Schemas of the main board (`board.toml`) and the places' die tables (`places.toml`), house rule H5.9."""

from __future__ import annotations

from typing import Literal, get_args

import msgspec

from domain.rulesets.talisman.main.content_base import Effect, Source, check_ids, fail

BOARD_FILE = "board.toml"
PLACES_FILE = "places.toml"

# The boards of the main board in order (the shared decisions): regions are boards, then the Crown.
BOARDS: dict[str, int] = {"outer": 24, "middle": 16, "inner": 8, "crown": 1}
SPACE_PREFIX = "talisman/space/"

# What resolves a space (the rules hold one handler per kind): `draw` only draws Adventure cards.
Kind = Literal[
    "draw",
    "village",
    "city",
    "chapel",
    "graveyard",
    "tavern",
    "temple",
    "castle",
    "forest",
    "crags",
    "warlocks-cave",
    "crypt",
    "mines",
    "desert",
    "vampires-tower",
    "pits",
    "werewolf-den",
    "dice-with-death",
    "plain-of-peril",
    "valley-of-fire",
    "sentinel",
    "portal-of-power",
    "black-knight",
    "cursed-glade",
    "crown",
]
KINDS: tuple[str, ...] = get_args(Kind)

# What a row, a fixed outcome or a service does (places.toml's header says each in words).
Outcome = Literal[
    Effect,
    "quest",
    "fight",
    "fight-psychic",
    "fight-rolled",
    "fight-many",
    "duel",
    "lose-follower",
    "lose-life-or-follower",
    "gain-talisman",
    "change-alignment",
    "buy",
    "sell-object",
    "enter-keep",
    "enter-keep-test",
]
OUTCOMES: tuple[str, ...] = get_args(Outcome)
Alignment = Literal["good", "neutral", "evil"]
Ability = Literal["", "strength", "craft"]
Goal = Literal["kill-monster", "kill-spirit", "pay-gold", "bring-follower", "lose-life", "visit-space"]


class Space(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One space: its id, name, handler kind, the cards it holds, its table and guardian."""

    id: str
    name: str
    kind: Kind
    draws: int = 0
    table: str = ""
    guard: int = 0
    toll: int = 0
    source: Source = "house"


class Board(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One board (a region, or the Crown): its id, name and spaces in index order."""

    id: str
    name: str
    spaces: tuple[Space, ...]


class BoardFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole main board: its boards in order and the spaces characters' `start` names mean."""

    source: Source
    boards: tuple[Board, ...]
    starts: dict[str, str]

    def board(self, board_id: str) -> Board:
        """Returns the board with that id."""
        return next(b for b in self.boards if b.id == board_id)

    def space(self, board_id: str, index: int) -> Space:
        """Returns the space at (board, index)."""
        return self.board(board_id).spaces[index]

    def position(self, space_id: str) -> tuple[str, int]:
        """Returns the (board, index) of a space id."""
        for board in self.boards:
            for index, space in enumerate(board.spaces):
                if space.id == space_id:
                    return board.id, index
        raise KeyError(space_id)


class Row(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One band of a die table: totals low..high give the outcome (with its amount and target)."""

    low: int
    high: int
    outcome: Outcome
    text: str
    amount: int = 0
    target: str = ""


class Fixed(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An outcome without a roll: for one alignment, or (alignment empty) for everyone."""

    outcome: Outcome
    text: str
    alignment: Alignment | Literal[""] = ""
    amount: int = 0
    target: str = ""


class Service(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A choice a place offers (Healer, Blacksmith, Mystic…): its price, outcome or table."""

    id: str
    name: str
    outcome: Outcome
    text: str
    amount: int = 0
    cost: int = 0
    pay: Literal["gold", "magic-object"] = "gold"
    table: str = ""
    option: str = ""
    repeat: bool = False


class Quest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Warlock's quest: its goal, how much of it, and (for some goals) which space or card."""

    id: str
    goal: Goal
    text: str
    amount: int = 1
    target: str = ""


class Table(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A place's die table: dice rolled (less an ability), fixed outcomes, services and rows."""

    id: str
    name: str
    text: str
    dice: int = 0
    minus: Ability = ""
    fixed: tuple[Fixed, ...] = ()
    services: tuple[Service, ...] = ()
    rows: tuple[Row, ...] = ()
    source: Source = "house"


class PlacesFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every place's table by id, and the Warlock's quests."""

    source: Source
    tables: tuple[Table, ...]
    quests: tuple[Quest, ...] = ()

    def table(self, table_id: str) -> Table:
        """Returns the table with that id."""
        return next(t for t in self.tables if t.id == table_id)


def check_board(model: BoardFile, filename: str) -> BoardFile:
    """Checks what the schema cannot say: the boards, their sizes, ids, draws and starts."""
    ids = [b.id for b in model.boards]
    if ids != list(BOARDS):
        fail(
            filename, "boards", f"expected the boards {', '.join(BOARDS)} in that order, got {', '.join(ids)}"
        )
    for i, board in enumerate(model.boards):
        if len(board.spaces) != BOARDS[board.id]:
            fail(
                filename,
                f"boards[{i}].spaces",
                f"expected {BOARDS[board.id]} spaces, got {len(board.spaces)}",
            )
        for j, space in enumerate(board.spaces):
            key = f"boards[{i}].spaces[{j}]"
            if not space.id.startswith(f"{SPACE_PREFIX}{board.id}/"):
                fail(filename, f"{key}.id", f"expected an id starting with '{SPACE_PREFIX}{board.id}/'")
            for field in ("draws", "guard", "toll"):
                if not 0 <= getattr(space, field) <= 12:
                    fail(filename, f"{key}.{field}", f"expected 0-12, got {getattr(space, field)}")
    spaces = [
        (f"boards[{i}].spaces[{j}]", s.id) for i, b in enumerate(model.boards) for j, s in enumerate(b.spaces)
    ]
    check_ids(filename, spaces, SPACE_PREFIX)
    known = {s for _, s in spaces}
    for name, space_id in model.starts.items():
        if space_id not in known:
            fail(filename, f"starts.{name}", f"no space has the id {space_id!r}")
    return model


def check_places(model: PlacesFile, filename: str) -> PlacesFile:
    """Checks what the schema cannot say: unique ids, rows covering the dice, known references."""
    check_ids(filename, [(f"tables[{i}]", t.id) for i, t in enumerate(model.tables)], "")
    check_ids(filename, [(f"quests[{i}]", q.id) for i, q in enumerate(model.quests)], "")
    tables = {t.id for t in model.tables}
    quests = {q.id for q in model.quests}
    for i, table in enumerate(model.tables):
        key = f"tables[{i}]"
        if not 0 <= table.dice <= 3:
            fail(filename, f"{key}.dice", f"expected 0-3, got {table.dice}")
        if not (table.rows or table.fixed or table.services):
            fail(filename, key, "expected rows, fixed outcomes or services")
        _check_rows(table, filename, key)
        for j, service in enumerate(table.services):
            if service.table and service.table not in tables:
                fail(filename, f"{key}.services[{j}].table", f"no table has the id {service.table!r}")
        for j, row in enumerate(table.rows):
            if row.outcome == "quest" and row.target not in quests:
                fail(filename, f"{key}.rows[{j}].target", f"no quest has the id {row.target!r}")
    return model


def _check_rows(table: Table, filename: str, key: str) -> None:
    if not table.rows:
        if table.dice:
            fail(filename, f"{key}.rows", f"expected rows for {table.dice} dice")
        return
    if not table.dice:
        fail(filename, f"{key}.dice", "expected dice for a table with rows")
    check_bands(table.rows, table.dice, table.minus, filename, key)


def check_bands(rows: tuple[Row, ...], dice: int, minus: str, filename: str, key: str) -> None:
    """Fails unless the rows cover every total the dice give, once each and in order."""
    # Rows less an ability (`minus`) have open ends: the first also takes every lower total, the last
    # every higher one.
    low, high = (dice, 6 * dice) if not minus else (rows[0].low, rows[-1].high)
    expected = low
    for j, row in enumerate(rows):
        if row.low != expected or row.high < row.low:
            fail(
                filename,
                f"{key}.rows[{j}]",
                f"expected a band starting at {expected}, got {row.low}-{row.high}",
            )
        expected = row.high + 1
    if expected - 1 != high:
        fail(filename, f"{key}.rows", f"faces {expected}-{high} are missing")
