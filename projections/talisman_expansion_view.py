"""The expansions' boards inside a `talisman` game (house rules H5, Dungeon 3.2, 6.1, Keep 3.2, 5.1): the
Dungeon's spiral and the Keep's three levels, with who stands where, what lies face up and where each
Teleport Tile sends, as lines the main board's view puts under (or, given room, beside) its regions.

Three levels of detail: `grid` (the spiral, every Keep space), `compact` (only the spaces with something
on them) and `brief` (as compact, counting the cards face up instead of naming them). Only what every
player sees is shown: the decks and the Teleport counters left by their count, never by their cards.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any, cast

from domain.rulesets.dungeon.content import load_board as load_dungeon
from domain.rulesets.dungeon.state import BOARD as DUNGEON
from domain.rulesets.dungeon.state import DECK as DUNGEON_DECK
from domain.rulesets.keep.content import LEVEL_SIZE, TILE
from domain.rulesets.keep.content import load_board as load_keep
from domain.rulesets.keep.content import load_deck as load_keep_deck
from domain.rulesets.keep.state import BOARD as KEEP
from domain.rulesets.keep.state import COUNTERS, ENTRANCE, KEEP_DECK, LAST, VAULT_DECK, KeepState
from domain.rulesets.talisman.main.state import MainSheet, MainState
from domain.rulesets.talisman.shapes import discard_pile
from projections import dungeon_view, keep_view
from projections.talisman_names import EXPANSION_BOARDS, name_of, space_name
from projections.text_layout import wrap

GRID, COMPACT, BRIEF = "grid", "compact", "brief"
NUMBER = 4  # the column of a space's number, as the main board's regions have it
_TILE_WIDTH = len("blank tile")
# The spiral with its cells at their widest (a 5×5 grid of cells and rules).
_SPIRAL_WIDTH = dungeon_view.SPIRAL_SIZE * (dungeon_view.CELL_WIDTH + 3) + 1
_SIDE_BY_SIDE_KEEP = 56  # the narrowest Keep column worth putting beside the Dungeon's spiral
_DUNGEON_MARKS = {"fleeing": "fleeing", "defeated": "beaten"}
_KEEP_MARKS = {"looping": "looping", "obelisk": "held", "fleeing": "fleeing"}
_BOARD_TITLES = {DUNGEON: "The Dungeon", KEEP: "The Vampire's Keep"}


def boards_in_play(state: MainState) -> list[str]:
    """Returns the expansions' boards a game has (the Dungeon, the Keep), in the order they are shown."""
    return [board for board in EXPANSION_BOARDS if board in state["cards"]]


def title_words(state: MainState) -> str:
    """Returns `with the Dungeon and the Vampire's Keep` for the heading ("" with no expansion)."""
    names = [_BOARD_TITLES[board].replace("The ", "the ", 1) for board in boards_in_play(state)]
    return f" with {' and '.join(names)}" if names else ""


# --- who and what is where ----------------------------------------------------------------------------------


def _on_board(state: MainState, board: str) -> list[tuple[str, MainSheet]]:
    found = [(name, state["players"].get(name)) for name in state["order"]]
    return [(n, s) for n, s in found if s is not None and s["board"] == board and s["status"] != "out"]


def _keep_marks(sheet: MainSheet) -> list[str]:
    # The Keep's own sheet keys (Keep 6.3, 8.6, 10), as the Keep run keeps them; a character still on the
    # Entrance that has not passed its test (Keep 8.1) stands outside the door.
    flags = cast(dict[str, Any], sheet)
    outside = flags.get("entered") is False and sheet["space"] == ENTRANCE
    return ["outside"] * outside + [word for key, word in _KEEP_MARKS.items() if flags.get(key)]


def _dungeon_marks(sheet: MainSheet) -> list[str]:
    # The Dungeon's sheet keys, as the short game keeps them: fleeing (Dungeon 9), beaten (7.3: it moves
    # back towards the Entrance on its next turn).
    flags = cast(dict[str, Any], sheet)
    return [word for key, word in _DUNGEON_MARKS.items() if flags.get(key)]


def standing(state: MainState, board: str) -> dict[int, list[str]]:
    """Returns who stands on each space of an expansion's board, each with its marks (`Ann (fleeing)`)."""
    here: dict[int, list[str]] = {}
    for name, sheet in _on_board(state, board):
        marks = _keep_marks(sheet) if board == KEEP else _dungeon_marks(sheet)
        here.setdefault(sheet["space"], []).append(f"{name} ({', '.join(marks)})" if marks else name)
    return here


def _is_tile(card: str) -> bool:
    found = load_keep_deck().cards.get(card)
    return found is not None and found.kind == TILE


def lying(state: MainState, board: str, space: int, brief: bool = False) -> list[str]:
    """Returns what lies face up on a space (a Keep tile is shown apart), gold last; `brief`: how many
    cards, not which."""
    cards = [c for c in state["cards"][board][space] if board != KEEP or not _is_tile(c)]
    gold = state["gold"][board][space]
    if brief:
        counted = [f"{len(cards)} card{'s' if len(cards) != 1 else ''}"] if cards else []
        return counted + ([f"{gold} gold"] if gold else [])
    counts = Counter(name_of(card) for card in cards)
    names = [f"{name} ×{n}" if n > 1 else name for name, n in counts.items()]
    return names + ([f"{gold} gold"] if gold else [])


def _keep_state(state: MainState) -> KeepState:
    # The Keep's tiles live in the main state's flat keys, as the Keep run keeps them.
    tiles = cast(dict[str, Any], state).get("tiles") or [0] * (LAST + 1)
    return cast(KeepState, {**state, "tiles": tiles})


def tile_mark(state: MainState, space: int) -> str:
    """Returns `tile→N` for a Keep space whose Teleport Tile sends to N, `blank tile` without a counter."""
    return keep_view.tile_mark(_keep_state(state), space)


def _space_line(prefix: str, people: list[str], things: list[str], width: int) -> list[str]:
    parts = [", ".join(people)] + ([f"face up: {', '.join(things)}"] if things else [])
    text = " · ".join(p for p in parts if p)
    room = max(width - len(prefix), 12)
    lines = wrap(text, room, indent="") if text else [""]
    return [(prefix + lines[0]).rstrip(), *(" " * len(prefix) + more for more in lines[1:])]


# --- the Dungeon --------------------------------------------------------------------------------------------


def _dungeon_counts(state: MainState) -> str:
    piles = state["piles"]
    left, gone = len(piles.get(DUNGEON_DECK, [])), len(piles.get(discard_pile(DUNGEON_DECK), []))
    return f"Dungeon deck {left} ({gone} discarded)"


def _dungeon_view_state(state: MainState) -> dungeon_view.State:
    # The short game's spiral reads the characters it is given: only those in the Dungeon.
    names = [name for name, _ in _on_board(state, DUNGEON)]
    players = {name: state["players"][name] for name in names}
    return cast(dungeon_view.State, {**state, "order": names, "players": players})


def _dungeon_grid(state: MainState, width: int) -> list[str]:
    title = "The Dungeon (a spiral from the Entrance to the Treasure Chamber in its centre)"
    head = [*wrap(title, width), *wrap(f"{_dungeon_counts(state)}.", width)]
    spiral = dungeon_view.spiral_rows(_dungeon_view_state(state), width)
    rows = []
    for space in load_dungeon().spaces:
        things = lying(state, DUNGEON, space.index)
        if things:
            rows.append(f"{space.index} {space.name}: {', '.join(things)}")
    face_up = wrap(f"Face up in the Dungeon: {'; '.join(rows)}.", width) if rows else []
    # The spiral's cells have room for names only: the marks of who is fleeing or beaten come after it.
    marked = [who for people in standing(state, DUNGEON).values() for who in people if "(" in who]
    marks = wrap(f"In the Dungeon: {', '.join(marked)}.", width) if marked else []
    return [*head, *spiral, *face_up, *marks]


def _dungeon_list(state: MainState, width: int, brief: bool) -> list[str]:
    here = standing(state, DUNGEON)
    spaces = load_dungeon().spaces
    shown = [s.index for s in spaces if s.index in here or lying(state, DUNGEON, s.index)]
    hidden = len(spaces) - len(shown)
    note = "empty" if not shown else f"{hidden} of {len(spaces)} empty, not shown" if hidden else ""
    lines = wrap(f"The Dungeon ({note}): {_dungeon_counts(state)}.", width)
    for index in shown:
        prefix = f"{index:>{NUMBER}} {space_name(DUNGEON, index):<16} "
        lines += _space_line(prefix, here.get(index, []), lying(state, DUNGEON, index, brief), width)
    return lines


# --- the Keep -----------------------------------------------------------------------------------------------


def _keep_counts(state: MainState) -> str:
    piles = state["piles"]

    def count(name: str) -> int:
        return len(piles.get(name, []))

    met = [name_of(card) for card in piles.get(discard_pile(VAULT_DECK), [])]
    vault = f"Vault deck {count(VAULT_DECK)}" + (f" (met: {', '.join(met)})" if met else "")
    counters = f"Teleport counters {count(COUNTERS)} of {len(load_keep().counters)} left"
    keep = f"Keep deck {count(KEEP_DECK)} ({count(discard_pile(KEEP_DECK))} discarded)"
    return f"{keep}, {vault}, {counters}"


@cache
def _keep_name_width() -> int:
    return max(len(space.name) for space in load_keep().spaces)


def _keep_levels(state: MainState, width: int, detail: str) -> list[str]:
    here = standing(state, KEEP)
    bare, brief = detail == GRID, detail == BRIEF
    rows: list[str] = []
    for level in range(1, LAST // LEVEL_SIZE + 1):
        first, last = (level - 1) * LEVEL_SIZE + 1, level * LEVEL_SIZE
        spaces = range(first, last + 1)
        busy = [n for n in spaces if n in here or tile_mark(state, n) or lying(state, KEEP, n)]
        numbers = list(spaces) if bare else busy
        if brief and not numbers:
            continue
        note = "" if bare else f"; {LEVEL_SIZE - len(numbers)} empty, not shown" if numbers else "; empty"
        rows.append(f"Level {level} (spaces {first}-{last}{note})")
        for number in numbers:
            name, tile = space_name(KEEP, number), tile_mark(state, number)
            prefix = f"{number:>{NUMBER}} {name:<{_keep_name_width()}} {tile:<{_TILE_WIDTH}} "
            rows += _space_line(prefix, here.get(number, []), lying(state, KEEP, number, brief), width)
    return rows


def _keep_vault(state: MainState, width: int) -> list[str]:
    flags = cast(dict[str, Any], state)
    notes = []
    if flags.get("vault_talismans"):
        notes.append(f"{flags['vault_talismans']} Talisman(s) left on it by the fallen")
    if flags.get("vault_spells"):  # Keep 9.1: what a character killed in the Vault leaves there
        notes.append(f"spells left there: {', '.join(name_of(s) for s in flags['vault_spells'])}")
    if flags.get("hoard"):
        notes.append("the Treasure Hoard is played")
    return wrap(f"Talisman Vault: {'; '.join(notes)}.", width) if notes else []


def _keep_block(state: MainState, width: int, detail: str) -> list[str]:
    title = "The Vampire's Keep (three levels, from the Entrance up to the Talisman Vault)"
    head = [*wrap(title, width), *wrap(f"{_keep_counts(state)}.", width)]
    return [*head, *_keep_levels(state, width, detail), *_keep_vault(state, width)]


# --- the expansions together --------------------------------------------------------------------------------


def _dungeon_block(state: MainState, width: int, detail: str) -> list[str]:
    return _dungeon_grid(state, width) if detail == GRID else _dungeon_list(state, width, detail == BRIEF)


_BLOCKS: dict[str, Callable[[MainState, int, str], list[str]]] = {DUNGEON: _dungeon_block, KEEP: _keep_block}


def expansion_lines(
    state: MainState, width: int, detail: str = GRID, side_by_side: bool = False
) -> list[str]:
    """Returns the expansions' boards in play, each after a blank line ([] with none); `side_by_side`:
    the Keep beside the Dungeon's spiral when the width leaves it room."""
    boards = boards_in_play(state)
    if side_by_side and len(boards) == 2 and detail == GRID:
        left = _dungeon_grid(state, _SPIRAL_WIDTH)
        column = max(map(len, left)) + 3
        if width - column >= _SIDE_BY_SIDE_KEEP:
            right = _keep_block(state, width - column, GRID)
            paired = itertools.zip_longest(left, right, fillvalue="")
            return ["", *[(a.ljust(column) + b).rstrip() for a, b in paired]]
    return [line for board in boards for line in ["", *_BLOCKS[board](state, width, detail)]]
