"""What Objects and Followers do on the main board (house rules H1; the house decks' effects): room to
carry, more movement, healing and gold each turn, finds used at once, alignment-bound cards."""

from __future__ import annotations

from domain.events import LifeGained
from domain.rulesets.talisman.events import CardDiscarded, FollowerJoined, GoldChanged, ObjectTaken
from domain.rulesets.talisman.main.events import AlignmentChanged, ItemDropped
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, land, lay, new_game, put

SWORDS = ["talisman/card/sword-1", "talisman/card/sword-2", "talisman/card/axe", "talisman/card/armour"]
HOLY_LANCE, UNICORN = "talisman/card/holy-lance", "talisman/card/unicorn"  # bound to the good
RUNESWORD, IMP = "talisman/card/runesword", "talisman/card/imp"  # bound to the evil


def test_a_fifth_object_stays_on_the_space_without_a_mule():
    # house rule H1.9: at most 4 Objects are carried; the excess stays on the space.
    game, state = new_game()
    put(state, ANN, "outer", 2, objects=list(SWORDS))
    lay(state, "outer", 3, "talisman/card/helmet")
    events, after = land(game, state, "outer", 3)
    assert not of(events, ObjectTaken) and after["cards"]["outer"][3] == ["talisman/card/helmet"]


def test_a_mule_carries_more():
    game, state = new_game()
    put(state, ANN, "outer", 2, objects=[*SWORDS[:3], "talisman/purchase/mule"])
    lay(state, "outer", 3, "talisman/card/helmet")
    events, _ = land(game, state, "outer", 3)
    assert of(events, ObjectTaken)


def test_a_horse_adds_to_the_movement_roll():
    game, state = new_game()
    put(state, ANN, "outer", 0, followers=["talisman/card/horse"])
    _, after = act(game, state, "roll", values=[3])
    assert [a.id for a in game.legal_actions(after, ANN)] == ["go:outer:4", "go:outer:20"]


def test_a_ring_of_healing_heals_at_the_start_of_the_turn():
    game, state = new_game()
    put(state, ANN, "outer", 0, lives=2, objects=["talisman/card/ring-of-healing"])
    events, _ = act(game, state, "roll", values=[3])
    assert of(events, LifeGained)[0].amount == 1
    assert [e.type_name for e in events][:2] == ["LifeGained", "DieRolled"]


def test_a_bag_of_gold_is_spent_when_found():
    game, state = new_game()
    lay(state, "outer", 3, "talisman/card/bag-of-gold")
    events, after = land(game, state, "outer", 3)
    assert of(events, GoldChanged)[0].amount == 3 and of(events, CardDiscarded)
    assert after["players"][ANN]["objects"] == []


def test_a_card_bound_to_another_alignment_is_left_lying():
    # house rule H5.18: alignment-bound cards; a neutral Warrior does not take the good's Holy Lance.
    game, state = new_game()
    lay(state, "middle", 2, HOLY_LANCE, UNICORN, "talisman/card/market-day")
    events, _ = land(game, state, "middle", 2)
    assert not of(events, ObjectTaken) and not of(events, FollowerJoined)


def test_a_change_of_alignment_drops_the_cards_bound_to_the_old_one():
    # house rule H5.18: alignment-bound Objects are dropped on a change; the Mystic's 4 makes one good.
    game, state = new_game()
    put(state, BO, "outer", 23, objects=[RUNESWORD, "talisman/card/sword-1"], followers=[IMP])
    _, after = land(game, state, "outer", 0, player=BO)
    events, after = act(game, after, "choose:mystic", player=BO, values=[4])
    assert of(events, AlignmentChanged)[0].alignment == "good"
    assert [e.card for e in of(events, ItemDropped)] == [RUNESWORD, IMP]
    sheet = after["players"][BO]
    assert sheet["objects"] == ["talisman/card/sword-1"] and sheet["followers"] == []
    assert after["cards"]["outer"][0] == [RUNESWORD, IMP]
