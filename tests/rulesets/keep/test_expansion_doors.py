"""The Keep's doors and borders as an outside referee checked them (`keep=true`): the Warlock's test
under the Treasure Hoard (Keep 4.2, 15.2), no paid door offered to a character that cannot go in
(Keep 4.3, 4.4, 10), the Enchantress keeping the Magic Object (4.3), the Command Spell stopping at the
Keep's border (11.2), a flight declared and run in one turn (10), and an expansion's options needing it."""

from __future__ import annotations

import pytest

from domain.errors import BadSetup
from domain.events import DieRolled, LifeLost, Moved
from domain.rulesets.talisman.events import FleeingDeclared
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, land, new_game, put
from tests.rulesets.keep.test_expansion_spaces import inside

WARLOCK = ("middle", 7)
AMULET = "talisman/card/amulet"


def _services(state: dict) -> list[str]:
    choice = state["choice"]
    return list(choice["options"]) if choice else []


def test_keep_4_2_the_warlocks_test_stays_open_under_the_treasure_hoard():
    """Keep 4.2, 15.2: the Treasure Hoard changes the Vault, not the ways in: the Warlock still tests."""
    game, state = new_game({"keep": "true", "keep.hoard": "true"})
    _, at_cave = land(game, state, *WARLOCK)
    assert "warlock-keep" in _services(at_cave)
    events, after = act(game, at_cave, "choose:warlock-keep", values=[2, 3])
    assert [e.purpose for e in of(events, DieRolled)] == ["warlock-keep"]
    assert (after["players"][ANN]["board"], after["players"][ANN]["space"]) == ("keep", 1)


def test_keep_15_1_the_warlock_offers_no_way_in_when_the_talismans_stay_in_the_deck():
    """Keep 15.1: only the Mystic, the Enchantress and the Portals lead in: no Warlock's test is offered."""
    game, state = new_game({"keep": "true", "keep.talismans_in_deck": "true"})
    events, at_cave = land(game, state, *WARLOCK, values=[3])  # the Cave's own table is rolled instead
    assert "warlock-keep" not in _services(at_cave)
    assert "warlock-keep" not in [e.purpose for e in of(events, DieRolled)]


def test_keep_10_no_paid_door_is_offered_to_a_character_owing_a_turn_outside():
    """Keep 10, 4.4: after a flight a character spends a turn outside: the Mystic does not take its Gold."""
    game, state = new_game({"keep": "true"})
    put(state, ANN, "outer", 23, gold=7, keep_wait=1)
    _, at_village = land(game, state, "outer", 0)
    assert "mystic-keep" not in _services(at_village)
    put(state, ANN, "outer", 23, gold=7, keep_wait=0)
    _, free = land(game, state, "outer", 0)
    assert "mystic-keep" in _services(free)


def test_keep_4_3_the_enchantress_keeps_the_magic_object_she_is_brought():
    """Keep 4.3: the Magic Object brought to the Enchantress leaves the board; the character goes in."""
    game, state = new_game({"keep": "true"})
    put(state, ANN, "outer", 11, objects=[AMULET])
    _, at_city = land(game, state, "outer", 12)
    _, after = act(game, at_city, "choose:enchantress-keep")
    assert AMULET not in after["cards"]["outer"][12] and AMULET not in after["players"][ANN]["objects"]
    assert AMULET in after["piles"]["discard:adventure"]
    assert (after["players"][ANN]["board"], after["players"][ANN]["space"]) == ("keep", 1)


def test_keep_11_2_the_command_spell_does_not_reach_into_the_keep():
    """Keep 11.2: the Command Spell cast on the Crown takes no life from a character in the Keep."""
    game, state = new_game({"keep": "true"}, characters=("warrior", "wizard", "elf"))
    put(state, ANN, "crown", 0)
    state["crown_reached"] = True
    inside(state, 5, player=BO)
    put(state, "Cy", "outer", 3)
    state.update(turn=ANN, step="start")
    events, _ = act(game, state, "command", values=[6])
    assert [e.player for e in of(events, LifeLost)] == ["Cy"]


def test_keep_10_a_flight_is_declared_and_run_in_the_same_turn():
    """Keep 10: fleeing is declared and the roll back toward the Entrance follows in the same turn."""
    game, state = new_game({"keep": "true"})
    inside(state, 5)
    events, after = act(game, state, "flee")
    assert of(events, FleeingDeclared) and after["turn"] == ANN
    events, after = act(game, after, "roll", values=[3])
    assert of(events, Moved)[0].to_space == 3 and after["turn"] == BO


def test_rules_5_an_expansions_options_are_refused_without_it():
    """house rule H5.20: an expansion's own option set away from its default needs the expansion in play."""
    with pytest.raises(BadSetup, match="keep.wizard=auto needs its expansion"):
        TalismanGame.check_options({"keep.wizard": "auto"})
    TalismanGame.check_options({"keep.wizard": "choose"})  # every game records its defaults
    TalismanGame.check_options({"keep": "true", "keep.wizard": "auto"})
