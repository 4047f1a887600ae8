"""Character sheets and what is read off them: effective stats, armour, carrying room, order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from domain.rulesets.talisman.characters import Character
from domain.rulesets.talisman.shapes import Sheet

# A sheet's status in a short game's race.
PLAYING, OUT, WINNER = "playing", "out", "winner"

STARTING_LIVES = 4
STARTING_GOLD = 1
CARRY_LIMIT = 4  # house rule H1.9 (Talisman): at most 4 Objects; the excess stays on the space


class Item(Protocol):
    """What an Object or Follower card tells combat: its bonuses and the die face it saves a life on."""

    @property
    def strength_bonus(self) -> int: ...

    @property
    def craft_bonus(self) -> int: ...

    @property
    def armour_save(self) -> int: ...


def new_sheet(character: Character, board: str = "", space: int = 0) -> Sheet:
    """Returns a fresh character sheet in play on (board, space) (board "": not placed yet): starting
    stats, 4 lives, 1 gold, nothing carried, no turn to miss."""
    return {
        "character": character.id,
        "strength": character.strength,
        "craft": character.craft,
        "base_strength": character.strength,
        "base_craft": character.craft,
        "lives": STARTING_LIVES,
        "gold": STARTING_GOLD,
        "objects": [],
        "followers": [],
        "trophies": [],
        "board": board,
        "space": space,
        "status": PLAYING,
        "skips": 0,
    }


def stat_now_and_base(sheet: Sheet, stat: str) -> tuple[int, int]:
    """Returns a sheet's Strength or Craft (`stat`) now and its starting value."""
    if stat == "strength":
        return sheet["strength"], sheet["base_strength"]
    if stat == "craft":
        return sheet["craft"], sheet["base_craft"]
    raise ValueError(f"no stat named {stat!r}")


def _bonus(sheet: Sheet, items: Mapping[str, Item], stat: str) -> int:
    attr = f"{stat}_bonus"
    carried: list[int] = [getattr(items[c], attr) for c in sheet["objects"] if c in items]
    # House: only one weapon is wielded, so only the best Object bonus counts; Followers all help.
    best = max(carried, default=0)
    helpers: int = sum(getattr(items[c], attr) for c in sheet["followers"] if c in items)
    return max(0, best) + helpers


def strength_bonus(sheet: Sheet, items: Mapping[str, Item]) -> int:
    """Returns the Strength that Objects and Followers add in combat."""
    return _bonus(sheet, items, "strength")


def craft_bonus(sheet: Sheet, items: Mapping[str, Item]) -> int:
    """Returns the Craft that Objects and Followers add in psychic combat."""
    return _bonus(sheet, items, "craft")


def effective_strength(sheet: Sheet, items: Mapping[str, Item]) -> int:
    """Returns Strength with Object and Follower bonuses."""
    return sheet["strength"] + strength_bonus(sheet, items)


def effective_craft(sheet: Sheet, items: Mapping[str, Item]) -> int:
    """Returns Craft with Object and Follower bonuses."""
    return sheet["craft"] + craft_bonus(sheet, items)


def best_armour(sheet: Sheet, items: Mapping[str, Item]) -> tuple[str, int]:
    """Returns the carried item that saves a life most often and its lowest saving face, or ("", 0)."""
    best = ("", 0)
    for card in sheet["objects"]:
        item = items.get(card)
        if item is not None and item.armour_save and (not best[1] or item.armour_save < best[1]):
            best = (card, item.armour_save)
    return best


def spell_limit(craft: int) -> int:
    """Returns how many spells a character may hold (H1.2: Craft 1-2 → 0, 3 → 1, 4-5 → 2, 6+ → 3)."""
    return 0 if craft <= 2 else 1 if craft == 3 else 2 if craft <= 5 else 3


def room_for_spells(sheet: Mapping[str, Any]) -> int:
    """Returns how many more spells the character may hold (a sheet without `spells` holds none)."""
    return max(0, spell_limit(int(sheet["craft"])) - len(sheet.get("spells", ())))


def room_to_carry(sheet: Sheet) -> int:
    """Returns how many more Objects the character can carry."""
    return max(0, CARRY_LIMIT - len(sheet["objects"]))


def in_encounter_order(cards: Sequence[str], numbers: Mapping[str, int]) -> list[str]:
    """Returns the cards sorted by encounter number, keeping the order they were laid in for ties."""
    return sorted(cards, key=lambda card: numbers.get(card, 9))
