"""Alignment and carrying on the main board: a change of alignment drops the Objects bound to another
(RULES.md §5); at most 4 Objects are carried, more with a Mule or a Porter (RULES.md §1, house)."""

from __future__ import annotations

from domain.dice import ScriptedDice
from domain.resolution import Resolution
from domain.rulesets.talisman.events import ObjectTaken
from domain.rulesets.talisman.main.alignment import change_alignment
from domain.rulesets.talisman.main.carrying import carry_limit, room
from domain.rulesets.talisman.main.events import AlignmentChanged, ItemDropped
from domain.rulesets.talisman.main.outcomes import affordable
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, land, lay, new_game, put

LANCE = "talisman/card/holy-lance"  # bound to the good
RUNESWORD = "talisman/card/runesword"  # bound to the evil
SWORD = "talisman/card/sword-1"
MULE = "talisman/purchase/mule"
PORTER = "talisman/card/porter"


def _resolution(alignment: str, objects: list[str]) -> tuple:
    game, state = new_game(characters=("monk", "wizard"))
    put(state, ANN, "outer", 3, alignment=alignment, objects=objects)
    return game, Resolution(state, ScriptedDice(), game.evolve)


def test_a_change_of_alignment_drops_the_objects_bound_to_another():
    # RULES.md §5: alignment-bound Objects are dropped on a change.
    game, res = _resolution("good", [LANCE, SWORD, RUNESWORD])
    change_alignment(game.ctx, res, ANN, "neutral", "test")
    assert of(res.events, AlignmentChanged)[0].alignment == "neutral"
    assert sorted(e.card for e in of(res.events, ItemDropped)) == sorted([LANCE, RUNESWORD])
    assert res.state["players"][ANN]["objects"] == [SWORD]
    assert sorted(res.state["cards"]["outer"][3]) == sorted([LANCE, RUNESWORD])


def test_turning_evil_keeps_the_runesword_and_no_change_drops_nothing():
    game, res = _resolution("good", [LANCE, RUNESWORD])
    change_alignment(game.ctx, res, ANN, "evil", "test")
    assert [e.card for e in of(res.events, ItemDropped)] == [LANCE]
    game, res = _resolution("good", [LANCE])
    change_alignment(game.ctx, res, ANN, "good", "test")
    assert res.events == []


def test_a_place_that_changes_alignment_drops_bound_objects():
    # places.toml: a table's change-alignment outcome goes through the same rule.
    game, state = new_game(characters=("monk", "wizard"))
    put(state, BO, "middle", 5)
    put(state, ANN, "outer", 0, objects=[LANCE])
    lay(state, "outer", 3, "talisman/card/dark-bargain")
    events, after = land(game, state, "outer", 3)  # the Dark Bargain: you become evil
    assert of(events, AlignmentChanged)[0].alignment == "evil"
    assert of(events, ItemDropped)[0].card == LANCE and after["players"][ANN]["objects"] == []


def test_four_objects_are_carried_and_a_mule_or_a_porter_carries_more():
    # RULES.md §1: 4 Objects; house: a Mule 4 more, a Porter 2 more, neither counted itself.
    game, state = new_game()
    sheet = state["players"][ANN]
    sheet["objects"] = [SWORD] * 4
    assert (carry_limit(game.ctx, sheet), room(game.ctx, sheet)) == (4, 0)
    assert room(game.ctx, sheet, MULE) == 1
    sheet["objects"].append(MULE)
    assert (carry_limit(game.ctx, sheet), room(game.ctx, sheet)) == (8, 4)
    sheet["followers"] = [PORTER]
    assert carry_limit(game.ctx, sheet) == 10


def test_a_fifth_object_stays_on_the_space():
    game, state = new_game()
    put(state, BO, "middle", 5)
    put(state, ANN, "outer", 0, objects=[SWORD] * 4)
    lay(state, "outer", 1, "talisman/card/sword-2")
    events, after = land(game, state, "outer", 1)
    assert not of(events, ObjectTaken) and after["cards"]["outer"][1] == ["talisman/card/sword-2"]


def test_the_blacksmith_sells_only_what_can_be_carried_but_always_a_mule():
    game, state = new_game()
    put(state, ANN, "outer", 0, objects=[SWORD] * 4, gold=12)
    res = Resolution(state, ScriptedDice(), game.evolve)
    assert affordable(game.ctx, res, ANN) == [MULE]
