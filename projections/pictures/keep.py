"""The Keep board picture: its levels of spaces from the content in use, where each Teleport tile sends,
the Sentry, Tome, Vampire Wizard and Talisman Vault as the state has them, the pieces and face-up cards,
and each character's sheet in a table.

Each level is a band of spaces in rows of four, the path snaking through it (arrows between steps);
spaces are grouped by the level the content gives them, so a group's own board is drawn with no code
change. A tile's destination is written on its space (`tile → 15 Bell Tower Stair`) and again in a key.
`keep_panel` draws the levels alone, for a picture that shows the Keep beside another board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import drawsvg

from domain.rulesets.keep.content import Board, Space, load_board
from domain.rulesets.keep.state import BOARD, VAULT_DECK, KeepState, sheet_in
from domain.rulesets.keep.vault import items_in_play
from domain.rulesets.talisman.shapes import TalismanState, discard_pile
from projections.keep_view import counts_line, face_up, head_line, name_of, status_words, tile_mark
from projections.pictures._expansion_parts import (
    GAP,
    LINE,
    MARGIN,
    Cell,
    Piece,
    Table,
    draw_grid,
    draw_header,
    draw_lines,
    draw_step,
    draw_table,
    finished_page,
    where_everyone_is,
)
from projections.pictures.dungeon import pieces_by_space
from projections.pictures.kit import label
from projections.pictures.short_sheets import carried_lines as short_carried_lines
from projections.pictures.short_sheets import sheet_table as seat_table
from projections.talisman_sheet import sheet_cells

TITLE = "The Vampire's Keep (Keep run)"
COLUMNS = 4
KIND_FILLS = {"entrance": "#e4efe4", "hall": "#ffffff", "vault": "#f7efc4"}
SPECIAL_FILL = "#ece4f4"  # the spaces with a rule of their own (Sentry, Tome, Wizard, Coffin…)
HEADERS = ["player", "character", "space", "strength", "craft", "lives", "gold", "talisman", "status"]


def snake(count: int, columns: int = COLUMNS) -> list[tuple[int, int]]:
    """Returns (row, column) for a level's spaces in rows of `columns`, every other row right to left."""
    places = []
    for step in range(count):
        row, column = divmod(step, columns)
        places.append((row, column if row % 2 == 0 else columns - 1 - column))
    return places


def levels(board: Board) -> dict[int, list[Space]]:
    """Returns the board's spaces by level, in number order."""
    found: dict[int, list[Space]] = {}
    for space in board.spaces:
        found.setdefault(space.level, []).append(space)
    return found


def tile_note(state: KeepState, number: int) -> str:
    """Returns where the tile on a space sends (`tile → 15 Bell Tower Stair`), `blank tile`, or ""."""
    destination = state["tiles"][number]
    if destination:
        return f"tile → {destination} {load_board().space(destination).name}"
    return tile_mark(state, number)


def _notes(state: KeepState, space: Space) -> list[str]:
    notes = [tile_note(state, space.number)]
    if space.kind == "sentry":
        board = load_board()
        notes.append(f"Strength {board.sentry_strength}, Craft {board.sentry_craft}")
    elif space.kind == "vampire-wizard" and state["wizard"].get("spell"):
        notes.append(f"casting {name_of(state['wizard']['spell'])}")
    elif space.kind == "vault":
        left = len(state["piles"][VAULT_DECK])
        notes.append(f"{left} Vault card{'s' if left != 1 else ''}")
    return [note for note in notes if note]


def space_cell(state: KeepState, space: Space, pieces: Sequence[Piece]) -> Cell:
    """Returns how a Keep space is drawn: number and name, its tile or rule, pieces, face-up cards."""
    fill = KIND_FILLS.get(space.kind, SPECIAL_FILL)
    tooltip = f"{space.number} {space.name}" + (f": {', '.join(p.player for p in pieces)}" if pieces else "")
    title = f"{space.number} {space.name}"
    return Cell([title], _notes(state, space), list(pieces), face_up(state, space.number), fill, tooltip)


def keep_panel(page: drawsvg.Group, state: KeepState, top: float) -> float:
    """Draws the Keep's levels (spaces, tiles, pieces, face-up cards) from `top`; returns the bottom."""
    here = pieces_by_space(cast(TalismanState, state), BOARD)
    at = top
    for level, spaces in levels(load_board()).items():
        first, last = spaces[0].number, spaces[-1].number
        page.append(
            label(
                f"Level {level} (spaces {first}-{last})",
                MARGIN,
                at + LINE,
                text_anchor="start",
                font_weight="bold",
            )
        )
        cells = [space_cell(state, space, here.get(space.number, [])) for space in spaces]
        boxes, at = draw_grid(page, cells, snake(len(cells)), COLUMNS, at + LINE + 10)
        for start, end in zip(boxes, boxes[1:], strict=False):
            draw_step(page, start, end)
        at += GAP
    return at


def heading(state: KeepState, stopped: bool) -> list[str]:
    """Returns the lines under the title, as the text board words them: who is to act (or must choose),
    the winner or why nobody acts; the decks and counters."""
    return [head_line(state, stopped), counts_line(state)]


def keep_notes(state: KeepState) -> list[str]:
    """Returns the key under the levels: every tile and where it sends, then the Sentry, the Vampire
    Wizard and the Talisman Vault as the state has them."""
    board = load_board()
    tiles = [
        f"{s.number} {s.name} {tile_note(state, s.number).removeprefix('tile ')}"
        for s in board.spaces
        if tile_note(state, s.number)
    ]
    notes = [f"Teleport tiles: {'; '.join(tiles)}." if tiles else "No Teleport tile is laid yet."]
    for space in board.spaces:
        if space.kind == "sentry":
            notes.append(
                f"Sentry ({space.number}): Strength {board.sentry_strength}, Craft {board.sentry_craft}."
            )
        elif space.kind == "vampire-wizard" and state["wizard"].get("spell"):
            drawn = state["wizard"].get("drawn", 1)
            notes.append(
                f"Vampire Wizard ({space.number}) casts {name_of(state['wizard']['spell'])} "
                f"({drawn} spell{'s' if drawn != 1 else ''} drawn this turn)."
            )
        elif space.kind == "vault":
            notes.append(_vault_note(state, space))
    return notes


def _vault_note(state: KeepState, space: Space) -> str:
    piles = state["piles"]
    met = [name_of(c) for c in piles[discard_pile(VAULT_DECK)]]
    left, talismans = len(piles[VAULT_DECK]), state["vault_talismans"]
    notes = [
        f"{left} Vault card{'s' if left != 1 else ''} left" + (f" (met: {', '.join(met)})" if met else "")
    ]
    if talismans:
        notes.append(f"{talismans} Talisman{'s' if talismans != 1 else ''} left by the fallen")
    if state["vault_spells"]:
        notes.append(f"spells left there: {', '.join(name_of(s) for s in state['vault_spells'])}")
    notes.append("the Treasure Hoard is played" if state["hoard"] else "every survivor takes a Talisman")
    return f"{space.name} ({space.number}): {'; '.join(notes)}."


def sheet_table(state: KeepState) -> Table:
    """Returns each seat's sheet as a table row: stats as the state holds them (with bonuses), status."""
    cards = items_in_play().cards

    def cells(name: str) -> list[str]:
        sheet = sheet_in(state, name)
        talisman = "yes" if sheet["talisman"] else "-"
        return [*sheet_cells(name, sheet, name_of, cards), talisman, status_words(sheet)]

    return seat_table(state, HEADERS, cells)


def carried_lines(state: KeepState) -> list[str]:
    """Returns a line for each character that carries anything: objects, followers, spells, trophies."""

    def held_by(name: str) -> list[tuple[str, list[str]]]:
        sheet = sheet_in(state, name)
        kinds = ("objects", sheet["objects"]), ("followers", sheet["followers"]), ("spells", sheet["spells"])
        return [*kinds, ("trophies", sheet["trophies"])]

    return short_carried_lines(cast(TalismanState, state), held_by, name_of)


def draw(fold: Any, stopped: bool = False) -> drawsvg.Drawing:
    """Returns the board picture of a fold: heading, levels, the key, then the players' table."""
    state = cast(KeepState, fold.state)
    body = drawsvg.Group()
    at = draw_header(body, TITLE, heading(state, stopped))
    at = keep_panel(body, state, at)
    at = draw_lines(body, keep_notes(state), at)
    at = draw_table(body, sheet_table(state), at + 16)
    at = draw_lines(body, carried_lines(state), at + 8)
    board = load_board()
    described = where_everyone_is("The Keep", len(board.spaces), state, lambda n: board.space(n).name)
    return finished_page(body, at, TITLE, described)
