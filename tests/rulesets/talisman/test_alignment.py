"""Alignment changes on the main board drop the cards bound to another alignment (house rule H5.18), from
whatever changes it: an Adventure card's event, a Spell; the winner of a fight may take only what it
may hold."""

from __future__ import annotations

from domain.rulesets.talisman.main.events import AlignmentChanged, ItemDropped
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, land, lay, new_game, put

LANCE = "talisman/card/holy-lance"  # bound to the good
RUNESWORD = "talisman/card/runesword"  # bound to the evil
SWORD = "talisman/card/sword-1"


def test_an_event_that_turns_a_character_evil_drops_the_holy_lance():
    game, state = new_game(characters=("monk", "wizard"))
    put(state, BO, "middle", 5)
    put(state, ANN, "outer", 0, objects=[LANCE, SWORD])
    lay(state, "outer", 3, "talisman/card/dark-bargain")
    events, after = land(game, state, "outer", 3)  # the Dark Bargain: you become evil
    assert of(events, AlignmentChanged)[0].alignment == "evil"
    assert of(events, ItemDropped)[0].card == LANCE and after["players"][ANN]["objects"] == [SWORD]
    assert LANCE in after["cards"]["outer"][3]


def test_temper_makes_an_evil_character_neutral_and_it_drops_the_runesword():
    game, state = new_game(characters=("wizard", "sorceress"))
    put(state, ANN, "outer", 0, spells=["talisman/spell/temper"])
    put(state, BO, "middle", 5, objects=[RUNESWORD])
    events, after = act(game, state, f"cast:talisman/spell/temper:{BO}")
    assert of(events, AlignmentChanged)[0].alignment == "neutral"
    assert of(events, ItemDropped)[0].card == RUNESWORD and after["players"][BO]["objects"] == []


def test_the_winner_of_a_fight_takes_no_object_bound_to_another_alignment():
    game, state = new_game(characters=("warrior", "sorceress"))
    put(state, BO, "outer", 1, objects=[RUNESWORD, SWORD], gold=0)
    lay(state, "outer", 1)
    _, after = land(game, state, "outer", 1)
    _, after = act(game, after, "choose:attack:Bo", values=[6, 1])
    assert after["choice"]["options"] == ["life", SWORD]
