"""Names on the `talisman` main board and its expansions' boards: cards, spaces, positions in words.

The main board's content names its own ids; the Dungeon's and the Keep's ids (house rules H5: the
expansions as options) are named by their short games' views, and the Adventure cards an expansion
shuffles in by the main context with every expansion in play. Reads content files only.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from domain.rulesets.dungeon import content as dungeon_content
from domain.rulesets.dungeon.encounters import GUARD
from domain.rulesets.dungeon.state import BOARD as DUNGEON
from domain.rulesets.keep import content as keep_content
from domain.rulesets.keep.state import BOARD as KEEP
from domain.rulesets.keep.vault import items_in_play
from domain.rulesets.talisman.character import Item
from domain.rulesets.talisman.characters import load_characters
from domain.rulesets.talisman.main.build import build_context
from domain.rulesets.talisman.main.content import load_board
from domain.rulesets.talisman.main.context import MainContext
from projections import dungeon_view, keep_view

# The expansions' boards, in the order the view shows them, with the name a sentence gives each.
EXPANSION_BOARDS = {DUNGEON: "the Dungeon", KEEP: "the Keep"}
_SHORT_NAMES = {DUNGEON: "Dungeon", KEEP: "Keep"}
_BOARD_NAMES = {DUNGEON: "Dungeon", KEEP: "Vampire's Keep"}


@cache
def main_context() -> MainContext:
    """Returns the main board's content without expansions (what a plain game names and counts)."""
    return build_context({})


@cache
def _expansions_context() -> MainContext:
    # The Adventure cards the expansions shuffle in, and what their cards are named and worth.
    return build_context({name: "true" for name in ("dungeon", "keep")})


@cache
def _names() -> dict[str, str]:
    ctx = main_context()
    found = {c.id: c.name for c in ctx.adventure.cards}
    found |= {i.id: i.name for i in ctx.purchase.items}
    found |= {s.id: s.name for s in ctx.spells.spells}
    found |= {t.id: t.name for t in ctx.talismans.talismans}
    found |= {c.id: c.name for c in load_characters().values()}
    found |= {s.id: s.name for b in ctx.board.boards for s in b.spaces}
    found |= {b.id: b.name for b in ctx.board.boards}
    found |= {a.id: a.name for c in ctx.abilities.characters for a in c.abilities}
    return found


@cache
def _expansion_names() -> dict[str, str]:
    found = {s.id: s.name for s in dungeon_content.load_board().spaces}
    found |= {card_id: dungeon_view.card_name(card_id) for card_id in dungeon_content.load_deck().cards}
    found[GUARD] = dungeon_view.card_name(GUARD)  # the Guard Room's guard, fought like a card
    found |= {s.id: s.name for s in keep_content.load_board().spaces}
    return found | _expansions_context().names


def name_of(ref: str) -> str:
    """Returns the name behind a content id (card, item, spell, Talisman, character, space, region,
    ability), on the main board or an expansion's."""
    found = _names().get(ref) or _expansion_names().get(ref)
    if found:
        return found
    if ref.startswith(KEEP + "/"):
        return keep_view.name_of(ref)
    return ref.rsplit("/", 1)[-1].replace("-", " ")


def option_words(option: str) -> str:
    """Returns a pending choice's option in words: a content id by its name, else as written."""
    parts = option.split(":")  # `attack:Bo`: attack Bo
    return " ".join(name_of(part) if "/" in part else part.replace("-", " ") for part in parts)


def items(expansions: bool = False) -> Mapping[str, Item]:
    """Returns what every card a character may carry adds in a fight (with `expansions`, the Dungeon's
    and the Keep's cards too)."""
    return _all_items() if expansions else main_context().items


@cache
def _all_items() -> Mapping[str, Item]:
    found: dict[str, Item] = {}
    found |= dungeon_content.load_deck().cards
    found |= items_in_play().cards
    found |= _expansions_context().items
    return found | main_context().items


# --- spaces and positions -----------------------------------------------------------------------------------


def space_name(board: str, space: int) -> str:
    """Returns a space's name on any board, or `space N` off it."""
    if board == DUNGEON:
        return dungeon_view.space_name(space)
    if board == KEEP:
        return keep_view.space_name(space)
    spaces = load_board().board(board).spaces if board in _regions() else ()
    return spaces[space].name if 0 <= space < len(spaces) else f"space {space}"


@cache
def _regions() -> frozenset[str]:
    return frozenset(b.id for b in load_board().boards)


def where(board: str, space: int) -> str:
    """Returns a position in words: `the Village (Outer 0)`, `the Crypt (Dungeon 3)`."""
    region = _SHORT_NAMES.get(board) or name_of(board).split()[0]
    return f"the {space_name(board, space)} ({region} {space})"


def keep_level(space: int) -> int:
    """Returns the Keep level a space is on (spaces 1-7 are level 1, Keep 5.1)."""
    return (space - 1) // keep_content.LEVEL_SIZE + 1


def board_name(board: str) -> str:
    """Returns a board's name: `Outer Region`, `Dungeon`, `Vampire's Keep`."""
    return _BOARD_NAMES.get(board) or name_of(board)


def board_words(board: str, space: int) -> str:
    """Says where a character stands, board first: `in the Dungeon, space 7 Well Room`, `in the Keep,
    level 2, space 11 Corridor`, `on the main board, Outer Region, space 3 Woods`."""
    named = f"space {space} {space_name(board, space)}"
    if board == DUNGEON:
        return f"in the Dungeon, {named}"
    if board == KEEP:
        return f"in the Keep, level {keep_level(space)}, {named}"
    return f"on the main board, {name_of(board)}, {named}"
