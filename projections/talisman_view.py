"""The `talisman` main board as text (house rule H5.1): each region's spaces with who stands there and what
lies face up, the decks, whose turn or which choice the game waits on, and each character's sheet; with
an expansion in play, its board under the regions (`talisman_expansion_view`) and, on each character's
line, the board it stands on in words.

The full layout fits 80 columns; a wider terminal gets the Outer Region beside the others (and the Keep
beside the Dungeon's spiral), a narrower or shorter one only the spaces with something on them. Reads
the typed `MainState` and the content files only.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from typing import Any, cast

from domain.rulesets.talisman.character import Item, craft_bonus, strength_bonus
from domain.rulesets.talisman.characters import resolve_character
from domain.rulesets.talisman.main.content import load_board
from domain.rulesets.talisman.main.state import (
    ADVENTURE,
    CROWN,
    PURCHASE,
    ROLLED,
    SPELLS,
    TALISMANS,
    MainSheet,
    MainState,
)
from domain.rulesets.talisman.shapes import discard_pile
from projections.talisman_choices import choice_subject, choice_words
from projections.talisman_expansion_view import (
    BRIEF,
    COMPACT,
    GRID,
    boards_in_play,
    expansion_lines,
    title_words,
)
from projections.talisman_names import (
    board_name,
    board_words,
    items,
    name_of,
    space_name,
)
from projections.talisman_sheet import sheet_summary, waiting_row, with_bonus
from projections.text_layout import NARROW, fit, table_lines, wrap
from projections.views import STOPPED_HEAD

TITLE = "Talisman: the main board"
NUMBER = 4  # the column of a space's number ("  17")
SHORT = {"outer": "O", "middle": "M", "inner": "I", "crown": "C", "dungeon": "D", "keep": "K"}
_REGION_NOTES = {
    "outer": "clockwise from the Village",
    "middle": "clockwise from the Portal of Power",
    "inner": "a ring whose far side is the Valley of Fire",
}


# --- names (on every board: `talisman_names`) ---------------------------------------------------------------


def _items(state: MainState) -> Mapping[str, Item]:
    return items(expansions=bool(boards_in_play(state)))


# --- the regions --------------------------------------------------------------------------------------------


def _standing(state: MainState) -> dict[tuple[str, int], list[str]]:
    here: dict[tuple[str, int], list[str]] = {}
    for name in state["order"]:
        sheet = state["players"].get(name)
        if sheet is not None and sheet["status"] != "out":
            here.setdefault((sheet["board"], sheet["space"]), []).append(name)
    return here


def face_up(state: MainState, board: str, space: int) -> list[str]:
    """Returns the names of the cards lying face up on a space (`Shield ×2`), first laid first, gold
    last."""
    counts = Counter(name_of(card) for card in state["cards"][board][space])
    names = [f"{name} ×{n}" if n > 1 else name for name, n in counts.items()]
    gold = state["gold"][board][space]
    return names + ([f"{gold} gold"] if gold else [])


def _space_lines(
    state: MainState, board: str, space: int, people: list[str], width: int, brief: bool = False
) -> list[str]:
    prefix = f"{space:>{NUMBER}} {space_name(board, space):<16} "
    lying = face_up(state, board, space)
    if brief and lying:  # how much lies there, not what
        cards, gold = len(state["cards"][board][space]), state["gold"][board][space]
        lying = [f"{cards} card{'s' if cards != 1 else ''}"] * bool(cards) + [f"{gold} gold"] * bool(gold)
    parts = [", ".join(people)] + ([f"face up: {', '.join(lying)}"] if lying else [])
    text = " · ".join(p for p in parts if p)
    lines = wrap(text, width - len(prefix), indent="") if text else [""]
    return [(prefix + lines[0]).rstrip(), *(" " * len(prefix) + more for more in lines[1:])]


def _region_lines(
    state: MainState, board: str, width: int, bare: bool = True, brief: bool = False
) -> list[str]:
    """Returns a region's heading and its spaces; without `bare`, only those with something on them
    (`brief`: saying how many cards lie face up, not which)."""
    here = _standing(state)
    size = len(state["cards"][board])
    shown = [s for s in range(size) if bare or (board, s) in here or face_up(state, board, s)]
    note = _REGION_NOTES.get(board, "") if board != CROWN else ""
    if not bare:
        hidden = size - len(shown)
        note = "empty" if not shown else f"{hidden} of {size} empty, not shown" if hidden else ""
    lines = wrap(name_of(board) + (f" ({note})" if note else ""), width)
    for space in shown:
        lines += _space_lines(state, board, space, here.get((board, space), []), width, brief)
    return lines


def _boards(state: MainState) -> list[str]:
    return [b.id for b in load_board().boards if b.id in state["cards"]]


# --- the game around the board ------------------------------------------------------------------------------


def head_line(state: MainState, stopped: bool, options: bool = True) -> str:
    """Returns where a game stands under the board's title: who is to act or choose (and, with `options`,
    from what), the winner or why nobody acts (the text board and the picture say the same)."""
    if stopped:
        return STOPPED_HEAD
    if state["phase"] == "over":
        won = f"{state['winner']} won" if state["winner"] else "nobody won"
        return f"Game over after {state['round']} round(s): {won}."
    if state["phase"] == "setup":
        return "Waiting for the host to deal the characters."
    choice = state["choice"]
    if choice is not None:
        if not options:  # the options are listed apart, one a line
            subject = choice_subject(choice["kind"])
            return f"Round {state['round']}: {choice['player']} chooses{f' {subject}' if subject else ''}."
        chooses = choice_words(choice["kind"], choice["options"])
        return f"Round {state['round']}: {choice['player']} {chooses}."
    rolled = f" (rolled {state['rolled']}: where to go)" if state["step"] == ROLLED else ""
    return f"Round {state['round']}: {state['turn']} to act{rolled}."


def _decks(state: MainState) -> str:
    piles = state["piles"]

    def count(name: str) -> int:
        return len(piles.get(name, []))

    return (
        f"Adventure deck {count(ADVENTURE)} ({count(discard_pile(ADVENTURE))} discarded), "
        f"Purchase {count(PURCHASE)}, Spells {count(SPELLS)} ({count(discard_pile(SPELLS))} discarded), "
        f"Talismans {count(TALISMANS)}."
    )


def status_words(sheet: MainSheet) -> str:
    """Returns a character's standing in the game: in play, out or winner."""
    return "in play" if sheet["status"] == "playing" else sheet["status"]


def requested_name(state: MainState, player: str) -> str:
    """Returns the name of the character a seat asked for before the deal ("" if none)."""
    wanted = state["requested"].get(player, "") or ""
    return name_of(resolve_character(wanted)) if wanted else ""


# A character that is not in play has its standing beside its player's name: `Di (out)`.
SHEET_HEADERS = ["player", "character", "at", "str", "craft", "lives", "gold", "align"]


def _sheet_rows(state: MainState, width: int) -> list[str]:
    """Returns the character sheets as a table no wider than `width`."""
    items, rows = _items(state), []
    for name in state["order"]:
        sheet = state["players"].get(name)
        if sheet is None:
            rows.append([f"{name} (waiting)", requested_name(state, name) or "(to be dealt)", *[""] * 6])
            continue
        rows.append(
            [
                name if sheet["status"] == "playing" else f"{name} ({status_words(sheet)})",
                name_of(sheet["character"]),
                _at(sheet),
                with_bonus(sheet["strength"], strength_bonus(sheet, items)),
                with_bonus(sheet["craft"], craft_bonus(sheet, items)),
                str(sheet["lives"]),
                str(sheet["gold"]),
                sheet["alignment"],
            ]
        )
    return table_lines(SHEET_HEADERS, rows, width, wrapping=["character", "at"])


def _at(sheet: MainSheet) -> str:
    board, space = sheet["board"], sheet["space"]
    return f"{SHORT.get(board, '?')} {space} {space_name(board, space)}"


def _carried(sheet: MainSheet) -> list[str]:
    kept = (
        ("objects", sheet["objects"]),
        ("followers", sheet["followers"]),
        ("spells", sheet["spells"]),
        ("talismans", sheet["talismans"]),
        ("trophies", sheet["trophies"]),
    )
    held = [f"{label}: {', '.join(name_of(c) for c in cards)}" for label, cards in kept if cards]
    quest = sheet["quest"]
    if quest is not None:
        held.append(f"quest: {quest['goal'].replace('-', ' ')} {quest['progress']}/{quest['amount']}")
    if sheet["skips"]:
        held.append(f"misses {sheet['skips']} turn(s)")
    return held


def _carried_rows(state: MainState, width: int, tight: bool = False) -> list[str]:
    rows = []
    placed = bool(boards_in_play(state))  # with an expansion, each line says which board it is on
    for name in state["order"]:
        sheet = state["players"].get(name)
        if sheet is None:
            continue
        held = _carried(sheet)
        if held or not tight:
            who = f"{name} ({board_words(sheet['board'], sheet['space'])})" if placed else name
            rows += wrap(f"{who} carries " + ("; ".join(held) if held else "nothing") + ".", width)
    return rows


# --- the layouts ------------------------------------------------------------------------------------------


def _side_by_side(left: list[str], right: list[str]) -> list[str]:
    column = max(map(len, left), default=0) + 3
    return [(a.ljust(column) + b).rstrip() for a, b in itertools.zip_longest(left, right, fillvalue="")]


def decision_lines(state: dict[str, Any], width: int) -> list[str]:
    """Returns the title, who is to act or choose (the options are listed apart) and the character sheets:
    what a player deciding needs on screen whatever else of the board is cut."""
    main = cast(MainState, state)
    head = head_line(main, False, options=False)
    return [*wrap(f"{TITLE + title_words(main)}. {head}", width), *_sheet_rows(main, width)]


def render_board(
    state: dict[str, Any],
    stopped: bool = False,
    width: int | None = None,
    height: int | None = None,
    apart: bool = False,
) -> str:
    """Renders the regions (who stands where, what lies face up), the decks and the sheets as text no
    wider than `width` (80 columns with no width; a game stopped by an early reveal has nobody to act;
    `apart`: without the title and the sheets, the `decision_lines`)."""
    main = cast(MainState, state)
    boards, named = _boards(main), TITLE + title_words(main)

    def title(width: int, tight: bool) -> list[str]:
        if apart:
            return []
        head = head_line(main, stopped)
        return wrap(f"{named}. {head}", width) if tight else [*wrap(named, width), *wrap(head, width)]

    def sheets(width: int) -> list[str]:
        return [] if apart else _sheet_rows(main, width)

    def regions(width: int, bare: bool = True, brief: bool = False, detail: str = GRID) -> list[str]:
        lines = [line for b in boards for line in _region_lines(main, b, width, bare, brief)]
        return [*lines, *expansion_lines(main, width, detail)]

    def around(width: int, regions: list[str], tight: bool = False) -> list[str]:
        return [
            *title(width, tight), *wrap(_decks(main), width), "",
            *regions, "", *sheets(width), *_carried_rows(main, width, tight),
        ]  # fmt: skip

    def full(width: int) -> list[str]:
        return around(width, regions(width))

    def wide(width: int, bare: bool = True) -> list[str]:
        half = (width - 3) // 2
        left = _region_lines(main, boards[0], half, bare) if boards else []
        right = [line for b in boards[1:] for line in _region_lines(main, b, half, bare)]
        # The Keep beside the Dungeon's spiral when there is room for both (Dungeon 3.2, Keep 3.2).
        more = expansion_lines(main, width, GRID if bare else COMPACT, side_by_side=bare)
        return around(width, [*_side_by_side(left, right), *more])

    def wide_compact(width: int) -> list[str]:
        return wide(width, bare=False)

    def compact(width: int) -> list[str]:
        return around(width, regions(width, bare=False, detail=COMPACT))

    def tight(width: int) -> list[str]:
        lines = regions(width, bare=False, detail=BRIEF)
        return around(width, [line for line in lines if not line.endswith("(empty)")], tight=True)

    def tightest(width: int) -> list[str]:
        # The sheets first: their `at` column tells where everyone stands, the regions only add cards.
        lines = regions(width, False, True, BRIEF)
        return [
            *title(width, True), *sheets(width),
            *[line for line in lines if not line.endswith("(empty)")],
            *wrap(_decks(main), width), *_carried_rows(main, width, True),
        ]  # fmt: skip

    if width is None:
        return "\n".join(full(NARROW))
    # Wider than an ordinary terminal, the Outer Region goes beside the others.
    narrow = [full, compact, tight, tightest]
    layouts = [wide, full, wide_compact, *narrow[1:]] if width > NARROW else narrow
    return fit(layouts, width, height)


# --- players summary ----------------------------------------------------------------------------------------


def players_summary(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Returns one JSON-native dict per seat: the shared fields plus the main board's (board, alignment,
    spells, Talismans, quest)."""
    main = cast(MainState, state)
    rows: list[dict[str, Any]] = []
    for name in main["order"]:
        sheet = main["players"].get(name)
        if sheet is None:
            rows.append(_waiting_row(main, name))
            continue
        board = sheet["board"]

        def named(space: int, board: str = board) -> str:
            return space_name(board, space)

        row = sheet_summary(name, sheet, _items(main), name_of, name_of, named, status_words(sheet))
        rows.append(
            {
                **row,
                "board": board,
                "alignment": sheet["alignment"],
                "spells": [name_of(s) for s in sheet["spells"]],
                "talismans": len(sheet["talismans"]),
                "quest": sheet["quest"]["goal"] if sheet["quest"] else "",
                **_placed(main, board, sheet["space"]),
            }
        )
    return rows


def _placed(state: MainState, board: str, space: int) -> dict[str, str]:
    """Returns, in a game with an expansion, the board's name and where the character stands in words
    (`board_name`, `where`); nothing in a game of the main board alone, whose rows stay as they were."""
    if not boards_in_play(state):
        return {}
    return {"board_name": board_name(board), "where": board_words(board, space)}


def _waiting_row(state: MainState, name: str) -> dict[str, Any]:
    own = {"board": "", "alignment": "", "spells": [], "talismans": 0, "quest": ""}
    extra = {"board_name": "", "where": ""} if boards_in_play(state) else {}
    return waiting_row(name, requested_name(state, name), 0, "", **own, **extra)
