"""The spaces of the expansions' boards as the main board's choices name them (by space id), for the
choices that send a character somewhere on them (a Rout in the Dungeon, Dungeon 12.10); the Dungeon's
Spirits for the Astral Conjunction (Dungeon 11.3); the mounts that stay outside (Dungeon 5.3, Keep 5.5)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.talisman.combat import PSYCHIC
from domain.rulesets.talisman.main.content_decks import HORSE
from domain.rulesets.talisman.main.context import MainContext

DUNGEON = "dungeon"


def dungeon_spirits(ctx: MainContext) -> frozenset[str]:
    """Returns the ids of the Dungeon deck's Spirits: the enemies its content (its expansion's
    `ExpansionContent`) makes worth a Spirit trophy; none when the Dungeon is not in play."""
    return frozenset(
        card
        for exp, exp_content in zip(ctx.expansions, ctx.expansion_contents, strict=True)
        if DUNGEON in exp.boards
        for card, worth in exp_content.trophies.items()
        if worth.trophy_kind == "spirit"
    )


def astral_bonus(ctx: MainContext, state: Any, board: str, opponent: str, kind: str) -> int:
    """Returns the Astral Conjunction's Craft for a Dungeon Spirit fought in the Dungeon (Dungeon 11.3;
    a main-deck Spirit has it already, `adventure`)."""
    if kind != PSYCHIC or board != DUNGEON or opponent not in dungeon_spirits(ctx):
        return 0
    return int(state["spirit_bonus"])


def dungeon_spots(ctx: MainContext, space: int, steps: int, either: bool) -> list[str]:
    """Returns the Dungeon spaces a character is driven to: `steps` back toward the Entrance, or also as
    far on when `either` (Dungeon 12.10); house: never onto the Treasure Chamber, never off the board."""
    ids = [spot.id for spot in ctx.spaces[DUNGEON]]  # the Entrance (0) to the Treasure Chamber (last)
    last = len(ids) - 1
    spots = {max(0, space - steps)} | ({min(last - 1, space + steps)} if either else set())
    return [ids[i] for i in sorted(spots - {space})]


def place_of(ctx: MainContext, space_id: str) -> tuple[str, int]:
    """Returns the (board, index) of a space id of the main board or an expansion's board (the Dungeon)."""
    return ctx.position(space_id)


def space_name(ctx: MainContext, board: str, index: int) -> str:
    """Returns the name of a space of the main board or an expansion's board (the Dungeon)."""
    return ctx.space(board, index).name


def horses(ctx: MainContext, sheet: Any) -> list[str]:
    """Returns the mounts a character has (`family = "horse"`: the Horse, the Warhorse, the Horse and
    Cart), which may not go into the Dungeon nor the Keep (Dungeon 5.3, Keep 5.5; a Mule may)."""
    held = [*sheet["objects"], *sheet["followers"]]
    return [card for card in held if card in ctx.cards and ctx.cards[card].family == HORSE]
