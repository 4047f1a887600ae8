"""A minimal text view of a `talisman` main-board game: who stands where, region by region, and each
character's sheet (the full board view replaces it)."""

from __future__ import annotations

import textwrap
from typing import Any, cast

from domain.rulesets.talisman.characters import character_or_stand_in
from domain.rulesets.talisman.main.content import load_board
from domain.rulesets.talisman.main.state import MainSheet, MainState
from projections.talisman_sheet import sheet_summary

WIDTH = 80


def _space_name(board: str, index: int) -> str:
    return load_board().space(board, index).name


def _heading(state: MainState, stopped: bool) -> str:
    if state["phase"] == "over":
        return f"Game over. Winner: {state['winner'] or 'nobody'} (round {state['round']})"
    if stopped:
        return "Stopped: the dice seed was revealed before the end; nobody acts."
    if state["phase"] == "setup":
        return "Waiting for the host to start the game."
    choice = state["choice"]
    waiting = f"{choice['player']} chooses ({choice['kind']})" if choice else f"{state['turn']} to act"
    return f"Round {state['round']}: {waiting}"


def _where(state: MainState) -> list[str]:
    lines = []
    for board in load_board().boards:
        here = [
            f"{name} on the {_space_name(board.id, sheet['space'])}"
            for name, sheet in state["players"].items()
            if sheet["board"] == board.id
        ]
        cards = sum(len(c) for c in state["cards"].get(board.id, []))
        text = f"{board.name}: {', '.join(here) or 'nobody'}; {cards} card(s) face up"
        lines += textwrap.wrap(text, WIDTH, subsequent_indent="  ")
    return lines


def _sheet(name: str, sheet: MainSheet) -> str:
    who = character_or_stand_in(sheet["character"]).name
    return (
        f"{name} ({who}, {sheet['alignment']}): Strength {sheet['strength']} Craft {sheet['craft']} "
        f"Lives {sheet['lives']} Gold {sheet['gold']} Objects {len(sheet['objects'])} "
        f"Followers {len(sheet['followers'])} Spells {len(sheet['spells'])} "
        f"Talismans {len(sheet['talismans'])}"
    )


def render_board(
    state: dict[str, Any], stopped: bool = False, width: int | None = None, height: int | None = None
) -> str:
    """Renders the game as text no wider than 80 columns."""
    main = cast(MainState, state)
    limit = min(width or WIDTH, WIDTH)
    lines = [_heading(main, stopped), *_where(main)]
    for name in main["order"]:
        if name in main["players"]:
            lines += textwrap.wrap(_sheet(name, main["players"][name]), limit, subsequent_indent="  ")
    return "\n".join(line[:limit] for line in lines)


def players_summary(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Returns one JSON-native dict per dealt seat."""
    main = cast(MainState, state)
    rows = []
    for name in main["order"]:
        sheet = main["players"].get(name)
        if sheet is None:
            continue
        board = sheet["board"]

        def space_name(index: int, board: str = board) -> str:
            return _space_name(board, index)

        row = sheet_summary(name, sheet, {}, _character_name, _card_name, space_name, sheet["status"])
        rows.append({**row, "board": board, "alignment": sheet["alignment"]})
    return rows


def _character_name(character: str) -> str:
    return character_or_stand_in(character).name


def _card_name(card: str) -> str:
    return card.rsplit("/", 1)[-1].replace("-", " ")
