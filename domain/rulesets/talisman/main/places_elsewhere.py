"""The spaces of the expansions' boards as the main board's choices name them (by space id), for the
choices that send a character somewhere on them (a Rout in the Dungeon, Dungeon 12.10); the Dungeon's
Spirits for the Astral Conjunction (Dungeon 11.3); the mounts that stay outside (Dungeon 5.3, Keep 5.5)."""

from __future__ import annotations

from functools import cache
from typing import Any

from domain.rulesets.talisman.combat import PSYCHIC
from domain.rulesets.talisman.main.content_decks import HORSE
from domain.rulesets.talisman.main.context import MainContext

DUNGEON = "dungeon"
DUNGEON_SPACE = "dungeon/space/"


@cache
def dungeon_spirits() -> frozenset[str]:
    """Returns the ids of the Dungeon deck's Spirits."""
    from domain.rulesets.dungeon.content import load_deck

    return frozenset(card.id for card in load_deck().cards.values() if card.kind == "spirit")


def astral_bonus(state: Any, board: str, opponent: str, kind: str) -> int:
    """Returns the Astral Conjunction's Craft for a Dungeon Spirit fought in the Dungeon (Dungeon 11.3;
    a main-deck Spirit has it already, `adventure`)."""
    if kind != PSYCHIC or board != DUNGEON or opponent not in dungeon_spirits():
        return 0
    return int(state["spirit_bonus"])


@cache
def dungeon_ids() -> tuple[str, ...]:
    """Returns the Dungeon's space ids, the Entrance (0) to the Treasure Chamber (last)."""
    from domain.rulesets.dungeon.content import load_board

    return tuple(space.id for space in load_board().spaces)


def dungeon_spots(space: int, steps: int, either: bool) -> list[str]:
    """Returns the Dungeon spaces a character is driven to: `steps` back toward the Entrance, or also as
    far on when `either` (Dungeon 12.10); house: never onto the Treasure Chamber, never off the board."""
    last = len(dungeon_ids()) - 1
    spots = {max(0, space - steps)} | ({min(last - 1, space + steps)} if either else set())
    return [dungeon_ids()[i] for i in sorted(spots - {space})]


def place_of(ctx: MainContext, space_id: str) -> tuple[str, int]:
    """Returns the (board, index) of a space id of the main board or the Dungeon."""
    if space_id.startswith(DUNGEON_SPACE):
        return DUNGEON, dungeon_ids().index(space_id)
    return ctx.position(space_id)


def space_name(ctx: MainContext, board: str, index: int) -> str:
    """Returns the name of a space of the main board or the Dungeon."""
    if board == DUNGEON:
        from domain.rulesets.dungeon.content import load_board

        return load_board().spaces[index].name
    return ctx.space(board, index).name


def horses(ctx: MainContext, sheet: Any) -> list[str]:
    """Returns the mounts a character has (`family = "horse"`: the Horse, the Warhorse, the Horse and
    Cart), which may not go into the Dungeon nor the Keep (Dungeon 5.3, Keep 5.5; a Mule may)."""
    held = [*sheet["objects"], *sheet["followers"]]
    return [card for card in held if card in ctx.cards and ctx.cards[card].family == HORSE]
