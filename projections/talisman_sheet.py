"""The summary of a Talisman character sheet that every board's `show --json` shares."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.events import CombatResolved
from domain.rulesets.talisman.character import Item, craft_bonus, strength_bonus
from domain.rulesets.talisman.shapes import Sheet


def sheet_summary(
    name: str,
    sheet: Sheet,
    items: Mapping[str, Item],
    character_name: Callable[[str], str],
    card_name: Callable[[str], str],
    space_name: Callable[[int], str],
    status: str,
) -> dict[str, Any]:
    """Returns one seat's JSON-native summary: character, space, lives, stats with bonuses, items, status."""
    return {
        "name": name,
        "character": character_name(sheet["character"]),
        "space": sheet["space"],
        "space_name": space_name(sheet["space"]),
        "lives": sheet["lives"],
        "strength": sheet["strength"] + strength_bonus(sheet, items),
        "craft": sheet["craft"] + craft_bonus(sheet, items),
        "gold": sheet["gold"],
        "objects": [card_name(c) for c in sheet["objects"]],
        "followers": [card_name(c) for c in sheet["followers"]],
        "trophies": len(sheet["trophies"]),
        "status": status,
    }


def with_bonus(base: int, bonus: int) -> str:
    """Shows a stat with its Object and Follower bonus: `5 (4+1)`, or just `4`."""
    return f"{base + bonus} ({base}+{bonus})" if bonus else str(base)


def sheet_cells(
    name: str, sheet: Sheet, character: Callable[[str], str], cards: Mapping[str, Item]
) -> list[str]:
    """Returns the cells a short board's sheet row starts with (text and picture alike): the player, the
    character's name, the space, Strength and Craft with their bonuses, lives and gold."""
    return [
        name,
        character(sheet["character"]),
        str(sheet["space"]),
        with_bonus(sheet["strength"], strength_bonus(sheet, cards)),
        with_bonus(sheet["craft"], craft_bonus(sheet, cards)),
        str(sheet["lives"]),
        str(sheet["gold"]),
    ]


def waiting_row(name: str, character: str, space: int, space_name: str, **own: Any) -> dict[str, Any]:
    """Returns the `show --json` row of a seat not dealt its character yet: the shared keys, nothing
    held, then the board's own keys (`own`) with their empty values."""
    row: dict[str, Any] = {"name": name, "character": character, "space": space, "space_name": space_name}
    row.update(lives=0, strength=0, craft=0, gold=0, objects=[], followers=[], trophies=0, status="waiting")
    row.update(own)
    return row


def lives(n: int) -> str:
    """Returns `n lives` (or `1 life`) for a sentence."""
    return f"{n} {'life' if abs(n) == 1 else 'lives'}"


def combat_sentence(e: CombatResolved, foe: str, kind: str) -> str:
    """Returns how a combat ended, each side's total by its name (`foe`, `kind` in the board's words)."""
    mine, theirs = f"{e.player} ({e.player_total})", f"{foe} ({e.opponent_total})"
    if e.outcome == "won":
        return f"{mine} beat {theirs} in {kind}."
    if e.outcome == "lost":
        return f"{mine} was defeated by {theirs} in {kind}."
    return f"{mine} and {theirs} fought to a stand-off in {kind}."
