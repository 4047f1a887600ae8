"""The character sheets under the short boards' pictures (the Dungeon's and the Keep's): a table row for
each seat beside its piece, and a line for what each character carries. Each board passes the cells
its sheet adds and the kinds of card it holds."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.errors import UnknownCharacter
from domain.rulesets.talisman.characters import resolve_character
from domain.rulesets.talisman.shapes import TalismanState
from projections.dungeon_view import character_name
from projections.pictures._expansion_parts import Piece, Table, short_names


def asked_for(wanted: str) -> str:
    """Returns the name of the character a seat asked for (by id or short name), or `to be dealt`."""
    if not wanted:
        return "to be dealt"
    try:
        return character_name(resolve_character(wanted))
    except UnknownCharacter:  # content swapped since the game was set up: the name as recorded
        return wanted


def sheet_table(state: TalismanState, headers: list[str], cells: Callable[[str], list[str]]) -> Table:
    """Returns each seat's sheet as a table row beside its piece: a dealt character's `cells` (by the
    seat's name), or the character a seat still waiting asked for."""
    short = short_names(state["order"])
    rows: list[tuple[Piece | None, list[str]]] = []
    for seat, name in enumerate(state["order"]):
        piece = Piece(name, seat, short[name])
        if name not in state["players"]:
            asked = asked_for(state["requested"].get(name, ""))
            rows.append((piece, [name, asked, *[""] * (len(headers) - 3), "waiting"]))
        else:
            rows.append((piece, cells(name)))
    return Table(headers, rows)


Held = Callable[[str], Sequence[tuple[str, Sequence[str]]]]


def carried_lines(state: TalismanState, held_by: Held, card_name: Callable[[str], str]) -> list[str]:
    """Returns a line for each character that carries anything; `held_by` gives a seat's cards by kind
    (`objects`…), in the order they are told."""
    lines = []
    for name in state["order"]:
        if name not in state["players"]:
            continue
        held = [f"{what}: {', '.join(card_name(c) for c in cards)}" for what, cards in held_by(name) if cards]
        if held:
            lines.append(f"{name} carries {'; '.join(held)}.")
    return lines
