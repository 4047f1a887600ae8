"""Shared Talisman mechanics (house rules H1): combat, armour saves, trophies, bonuses, encounter order."""

from __future__ import annotations

from dataclasses import dataclass

from domain.dice import ScriptedDice
from domain.events import CombatResolved, DieRolled, LifeLost
from domain.rulesets.talisman.character import (
    best_armour,
    effective_craft,
    effective_strength,
    in_encounter_order,
    new_sheet,
    room_to_carry,
)
from domain.rulesets.talisman.characters import load_characters
from domain.rulesets.talisman.combat import _cheapest_trade, lose_combat_life, resolve_combat, take_trophy
from domain.rulesets.talisman.events import LifeSaved, TrophiesTraded, TrophyTaken


@dataclass(frozen=True)
class Thing:
    strength_bonus: int = 0
    craft_bonus: int = 0
    armour_save: int = 0
    trophy_kind: str = ""
    trophy_value: int = 0


ITEMS = {
    "sword": Thing(strength_bonus=1),
    "runesword": Thing(strength_bonus=2),
    "wand": Thing(craft_bonus=1),
    "armour": Thing(armour_save=4),
    "helmet": Thing(armour_save=6),
    "hound": Thing(strength_bonus=1),
}


def sheet(**changes):
    base = new_sheet(load_characters()["talisman/character/warrior"])
    base.update(changes)
    return base


def test_new_sheet_has_4_lives_1_gold_and_starting_stats():
    s = sheet()
    assert (s["strength"], s["craft"], s["base_strength"], s["lives"], s["gold"]) == (4, 3, 4, 4, 1)
    assert s["objects"] == s["followers"] == s["trophies"] == []


def test_effective_strength_best_weapon_plus_followers():
    s = sheet(objects=["sword", "runesword", "wand"], followers=["hound"])
    assert effective_strength(s, ITEMS) == 4 + 2 + 1
    assert effective_craft(s, ITEMS) == 3 + 1


def test_combat_higher_total_wins_tie_is_a_stand_off():
    outcome, events = resolve_combat("Ann", 4, "ogre", 4, "combat", ScriptedDice([3, 2]))
    assert outcome == "won" and events[0] == DieRolled(
        player="Ann", purpose="combat", sides=6, values=[3, 2], draws=[0, 1]
    )
    assert resolve_combat("Ann", 4, "ogre", 4, "combat", ScriptedDice([2, 2]))[0] == "standoff"
    outcome, events = resolve_combat("Ann", 3, "ghost", 3, "psychic", ScriptedDice([1, 2]))
    assert outcome == "lost" and events[0].purpose == "psychic-combat"
    assert events[1] == CombatResolved(
        player="Ann", opponent="ghost", kind="psychic", player_total=4, opponent_total=5, outcome="lost"
    )


def test_armour_one_save_roll_with_the_best_item_none_in_psychic_combat():
    s = sheet(objects=["helmet", "armour"])
    assert best_armour(s, ITEMS) == ("armour", 4)
    assert lose_combat_life("Ann", s, "combat", ITEMS, ScriptedDice([4]), "ogre")[-1] == LifeSaved(
        player="Ann", item="armour"
    )
    assert lose_combat_life("Ann", s, "combat", ITEMS, ScriptedDice([3]), "ogre")[-1] == LifeLost(
        player="Ann", amount=1, reason="ogre"
    )
    assert lose_combat_life("Ann", s, "psychic", ITEMS, ScriptedDice([]), "ghost") == [
        LifeLost(player="Ann", amount=1, reason="ghost")
    ]


def test_trophy_trade_spends_the_cheapest_set_worth_7():
    assert _cheapest_trade([("a", 6), ("b", 5), ("c", 2)]) == ["b", "c"]
    cards = {
        "rat": Thing(trophy_kind="monster", trophy_value=1),
        "troll": Thing(trophy_kind="monster", trophy_value=6),
        "ghost": Thing(trophy_kind="spirit", trophy_value=3),
    }
    events = take_trophy("Ann", sheet(trophies=["rat", "ghost"]), "troll", 4, cards)
    assert events == [
        TrophyTaken(player="Ann", card="troll", space=4, kind="monster", value=6),
        TrophiesTraded(player="Ann", cards=["rat", "troll"], stat="strength", amount=1),
    ]


def test_encounter_order_and_carrying_room():
    numbers = {"place": 6, "sword": 4, "rat": 2, "trap": 1, "hermit": 3, "hound": 5}
    assert in_encounter_order(["place", "sword", "hound", "rat", "hermit", "trap"], numbers) == [
        "trap",
        "rat",
        "hermit",
        "sword",
        "hound",
        "place",
    ]
    assert room_to_carry(sheet(objects=["a", "b", "c"])) == 1
    assert room_to_carry(sheet(objects=["a", "b", "c", "d", "e"])) == 0
