"""The Dungeon short game's board view: the spiral as text, a players summary, and event wording.

Imports only `domain`; reads nothing but the state (or event) it is given and the content files.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from typing import Any

from domain.events import Event, GameWon
from domain.rulesets.dungeon.content import load_board, load_deck
from domain.rulesets.dungeon.encounters import GUARD
from domain.rulesets.dungeon.state import BOARD, DECK, DungeonSheet, DungeonState, sheet_in
from domain.rulesets.talisman.characters import load_characters
from domain.rulesets.talisman.shapes import discard_pile
from projections.spiral import render_spiral
from projections.talisman_sentences import BoardWords, short_combat_kind, talisman_sentences
from projections.talisman_sheet import (
    sheet_cells,
    sheet_summary,
    waiting_row,
)
from projections.text_layout import fit, table_lines, wrap
from projections.views import STOPPED_HEAD

State = DungeonState


SPIRAL_SIZE = 5
CELL_WIDTH = 13


def card_name(card_id: str) -> str:
    """Returns a card's name ("the Guard" for the Guard Room's guard), or the id's last part if unknown."""
    if card_id == GUARD:
        return "Guard"
    card = load_deck().cards.get(card_id)
    return card.name if card else card_id.rsplit("/", 1)[-1]


def space_name(index: int) -> str:
    """Returns a board space's name."""
    spaces = load_board().spaces
    return spaces[index].name if 0 <= index < len(spaces) else f"space {index}"


def character_name(character_id: str) -> str:
    """Returns a character's name (`Warrior`)."""
    found = load_characters().get(character_id)
    return found.name if found else character_id.rsplit("/", 1)[-1]


def _status(sheet: DungeonSheet) -> str:
    if sheet["status"] == "playing":
        return "fleeing" if sheet["fleeing"] else "in play"
    return str(sheet["status"])


def _waiting_row(state: State, name: str) -> dict[str, Any]:
    return waiting_row(name, state["requested"].get(name, ""), 0, space_name(0))


def players_summary(state: State) -> list[dict[str, Any]]:
    """Returns one JSON-native dict per seat: name, character, space, lives, stats, items, status."""
    cards = load_deck().cards
    rows: list[dict[str, Any]] = []
    for name in state["order"]:
        if name not in state["players"]:
            rows.append(_waiting_row(state, name))
            continue
        sheet = sheet_in(state, name)
        rows.append(sheet_summary(name, sheet, cards, character_name, card_name, space_name, _status(sheet)))
    return rows


def _standing(state: State) -> dict[int, list[str]]:
    here: dict[int, list[str]] = {}
    for name in state["order"]:
        sheet = state["players"].get(name)
        if sheet is not None and sheet["status"] != "out":
            here.setdefault(sheet["space"], []).append(name)
    return here


def _names_in_cell(names: list[str], lines: int = 2, width: int = CELL_WIDTH) -> list[str]:
    """Fits the names standing on a space into a cell's lines, ending with '+N' if some do not fit."""
    out = [""] * lines
    row = 0
    for index, name in enumerate(names):
        candidate = f"{out[row]},{name}" if out[row] else name
        if len(candidate) > width:
            row += 1
            candidate = name
        if row == lines or (row == lines - 1 and index < len(names) - 1 and len(candidate) + 4 > width):
            rest = f"+{len(names) - index}"
            out[lines - 1] = f"{out[lines - 1]},{rest}" if out[lines - 1] else rest
            break
        out[row] = candidate
    return out


def _marks(state: State, index: int, guard: int, draws: int) -> str:
    marks = []
    lying = len(state["cards"][BOARD][index])
    if guard:
        marks.append(f"Guard {guard}")
    if lying:
        marks.append(f"{lying} card{'s' if lying > 1 else ''}")
    elif draws > 1 and not guard:
        marks.append(f"draws {draws}")
    gold = state["gold"][BOARD][index]
    if gold:
        marks.append(f"{gold}g")
    return " ".join(marks)


def _grid_size(cells: int) -> int:
    # A replaced board may be longer: the grid grows to the smallest square that holds it.
    return max(SPIRAL_SIZE, math.isqrt(cells - 1) + 1)


def spiral_rows(state: State, width: int = 0) -> list[str]:
    """Returns the spiral as a boxed grid of spaces (name, who stands there, guard, cards, gold), its
    cells narrowed to fit `width` when given."""
    # The house board is a 5×5 spiral: the Entrance in the top-left corner, the Treasure Chamber
    # in the centre (Dungeon 6.1).
    here = _standing(state)
    spaces = load_board().spaces
    size = _grid_size(len(spaces))
    cell = min(CELL_WIDTH, (width - 1) // size - 3) if width else CELL_WIDTH
    cells = []
    for space in spaces:
        title = textwrap.wrap(f"{space.index:>2} {space.name}", cell)[:2]
        title += [""] * (2 - len(title))
        names = _names_in_cell(here.get(space.index, []), width=cell)
        cells.append([*title, *names, _marks(state, space.index, space.guard_strength, space.draws)])
    return render_spiral(cells, size, cell)


def _tight_spiral_rows(state: State, width: int) -> list[str]:
    """Returns the spiral with one line per space: its number and name, or who stands there."""
    here = _standing(state)
    spaces = load_board().spaces
    size = _grid_size(len(spaces))
    cell = (width - 1) // size - 3
    cells = [[f"{s.index:>2} {','.join(here[s.index]) if s.index in here else s.name}"] for s in spaces]
    return render_spiral(cells, size, cell, rules=False)


def _lying_rows(state: State) -> list[str]:
    rows = []
    for space in load_board().spaces:
        lying = [card_name(c) for c in state["cards"][BOARD][space.index]]
        gold = state["gold"][BOARD][space.index]
        if lying or gold:
            things = lying + ([f"{gold} gold"] if gold else [])
            rows.append(f"{space.index:>3}  {space.name}: {', '.join(things)}")
    return ["Lying face up:", *rows] if rows else ["Nothing lies face up."]


def _lying_paragraph(state: State, width: int, named: bool = True) -> list[str]:
    """Returns what lies face up as one wrapped paragraph (`12 Crypt: Sword, 2 gold; …`; not `named`,
    the spaces by number alone, as the spiral names them)."""
    rows = []
    for space in load_board().spaces:
        lying = [card_name(c) for c in state["cards"][BOARD][space.index]]
        gold = state["gold"][BOARD][space.index]
        if lying or gold:
            where = f"{space.index} {space.name}:" if named else str(space.index)
            rows.append(f"{where} {', '.join(lying + ([f'{gold} gold'] if gold else []))}")
    return wrap(f"Face up: {'; '.join(rows)}.", width) if rows else ["Nothing lies face up."]


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows]


SHEET_HEADERS = ["player", "character", "space", "strength", "craft", "lives", "gold"]
ITEM_HEADERS = ["objects", "followers", "trophies"]


def _sheets(state: State) -> list[list[str]]:
    """Returns each seat's sheet as cells: name, character, stats, objects, followers, trophies, status."""
    cards = load_deck().cards
    rows = []
    for name in state["order"]:
        if name not in state["players"]:
            wanted = state["requested"].get(name, "")
            character = character_name(wanted) if wanted else "(to be dealt)"
            rows.append([name, character] + [""] * 8 + ["waiting"])
            continue
        sheet = sheet_in(state, name)
        rows.append(
            [
                *sheet_cells(name, sheet, character_name, cards),
                ", ".join(card_name(c) for c in sheet["objects"]) or "-",
                ", ".join(card_name(c) for c in sheet["followers"]) or "-",
                ", ".join(card_name(c) for c in sheet["trophies"]) or "-",
                _status(sheet),
            ]
        )
    return rows


def _sheet_rows(state: State) -> list[str]:
    return _table([[*SHEET_HEADERS, *ITEM_HEADERS, "status"], *_sheets(state)])


def _carried(row: list[str]) -> list[str]:
    items = zip(ITEM_HEADERS, row[7:10], strict=True)
    return [f"{label} {held}" for label, held in items if held.strip("-")]


def _compact_sheets(state: State, width: int) -> list[str]:
    """Returns the sheets one line each, then a line or two for each seat that carries anything."""
    sheets = _sheets(state)
    headers = ["player", "character", "sp", "str", "craft", "lives", "gold", "status"]
    table = table_lines(headers, [[*row[:7], row[10]] for row in sheets], width)
    carried = [(row[0], _carried(row)) for row in sheets]
    return table + [
        line for name, held in carried if held for line in wrap(f"{name}: {'; '.join(held)}.", width)
    ]


def _heading(state: State, stopped: bool) -> list[str]:
    return ["The Dungeon (short game)", *heading(state, stopped)]


def heading(state: State, stopped: bool) -> list[str]:
    """Returns the lines under the board's title: who is to act, the winner or why nobody acts; the
    deck (the text board and the picture say the same)."""
    if stopped:
        head = STOPPED_HEAD
    elif state["phase"] == "over":
        head = f"Game over: {state['winner']} won." if state["winner"] else "Game over: nobody won."
    elif state["phase"] == "setup":
        head = "Waiting for the host to deal characters."
    else:
        head = f"{state['turn']} to act."
    piles = state["piles"]
    return [head, f"Dungeon deck: {len(piles[DECK])} left, {len(piles[discard_pile(DECK)])} discarded."]


def decision_lines(state: State, width: int) -> list[str]:
    """Returns who is to act and the sheets, one line each: what a player deciding needs on screen
    whatever else of the board is cut."""
    title, head, deck = _heading(state, False)
    return [*wrap(f"{title}: {head} {deck}", width), *_compact_sheets(state, width)]


def render_board(
    state: State,
    stopped: bool = False,
    width: int | None = None,
    height: int | None = None,
    apart: bool = False,
) -> str:
    """Renders the spiral (who stands where, face-up cards) and each character's sheet as text no wider
    than `width` (a game stopped by an early reveal has nobody to act; `apart`: without the
    `decision_lines`, the spiral and what lies face up alone)."""
    title, head, deck = _heading(state, stopped)
    if apart:

        def grid(width: int) -> list[str]:
            return [*spiral_rows(state, width), *_lying_paragraph(state, width)]

        def tight_grid(width: int) -> list[str]:
            return [*_tight_spiral_rows(state, width), *_lying_paragraph(state, width, False)]

        return fit([grid, tight_grid], width, height)

    def full(width: int) -> list[str]:
        return [title, head, deck, *spiral_rows(state), *_lying_rows(state), "", *_sheet_rows(state)]

    def compact(width: int) -> list[str]:
        top = [*wrap(f"{title}: {head}", width), deck]
        sheets = _compact_sheets(state, width)
        return [*top, *spiral_rows(state, width), *_lying_paragraph(state, width), *sheets]

    def tight(width: int) -> list[str]:
        top = wrap(f"{title}: {head} {deck}", width)
        sheets = _compact_sheets(state, width)
        # The sheets before what lies face up: if the frame is still too short, the cards are cut first.
        return [*top, *_tight_spiral_rows(state, width), *sheets, *_lying_paragraph(state, width, False)]

    return fit([full, compact, tight], width, height)


# --- event wording ------------------------------------------------------------------------------------------


def _who(opponent: str) -> str:
    return f"the {card_name(opponent)}" if "/" in opponent else opponent


_MOVES = {"retreat": "fell back", "flight": "fled", "card": "was sent back"}

WORDS = BoardWords(
    card=card_name,
    character=character_name,
    cause=_who,
    deck=lambda deck: "Dungeon deck",
    where=lambda board, index: f"the {space_name(index)} ({index})",
    how_moved=lambda e: _MOVES.get(e.reason, "moved"),
    combat_kind=short_combat_kind,
    contest="race",
    won="game",
    place=lambda index: f" in the {space_name(index)}",
    fled="Dungeon",
    die_purposes={"movement": "to move", "armour": "to save a life", "table": "on the card's table"},
)

_DESCRIBERS: dict[type[Event], Callable[[Any], str]] = {
    **talisman_sentences(WORDS),
    GameWon: lambda e: f"{e.player} reached the Treasure Chamber and won the game!",
}


def opponent_name(ref: str) -> str:
    """Names a combat opponent as the Dungeon's timeline does (a card, or a player as is)."""
    return _who(ref)


def describe(event: Event) -> str | None:
    """Tells a Dungeon event in plain English, or returns None to leave it to the generic timeline."""
    describer = _DESCRIBERS.get(type(event))
    return describer(event) if describer else None
