"""Moving on the main board and crossing its regions (house rules H5), with scripted dice."""

from __future__ import annotations

from domain.events import CombatResolved, DieRolled, LifeLost, Moved
from domain.rulesets.talisman.events import StatChanged
from domain.rulesets.talisman.main.events import RegionCrossed
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, lay, new_game, put

TALISMAN = "talisman/talisman/1"


def test_roll_offers_the_spaces_exactly_that_many_away_both_ways():
    # house rule H5.2: roll 1 die, move exactly that many spaces clockwise or anticlockwise.
    game, state = new_game()
    put(state, ANN, "outer", 0)
    events, after = act(game, state, "roll", values=[3])
    assert of(events, DieRolled)[0].values == [3]
    assert [a.id for a in game.legal_actions(after, ANN)] == ["go:outer:3", "go:outer:21"]
    assert game.legal_actions(after, BO) == []


def test_going_moves_on_the_board_and_passes_the_turn():
    game, state = new_game()
    put(state, ANN, "outer", 0)
    lay(state, "outer", 21, "talisman/card/market-day")
    state.update(step="rolled", rolled=3)
    events, after = act(game, state, "go:outer:21")
    assert of(events, Moved)[0].to_space == 21
    assert (after["players"][ANN]["board"], after["players"][ANN]["space"]) == ("outer", 21)
    assert after["turn"] == BO and after["step"] == "start"


def test_a_roll_that_is_not_one_of_the_destinations_is_refused():
    game, state = new_game()
    put(state, ANN, "outer", 0)
    state.update(step="rolled", rolled=3)
    assert not game.is_legal(state, ANN, "go:outer:4")


def test_sentinel_won_crosses_to_the_middle_regions_hills():
    # house rule H5.4: defeat the Sentinel (Strength 9) in Combat to cross to the Hills (house).
    game, state = new_game()
    put(state, ANN, "outer", 4, strength=8)
    lay(state, "middle", 15, "talisman/card/market-day")
    events, after = act(game, state, "cross:sentinel", values=[6, 1])
    assert of(events, CombatResolved)[0].outcome == "won"
    crossed = of(events, RegionCrossed)[0]
    assert (crossed.from_board, crossed.to_board, crossed.to_space) == ("outer", "middle", 15)
    assert after["players"][ANN]["board"] == "middle"


def test_sentinel_lost_costs_a_life_and_stays():
    game, state = new_game()
    put(state, ANN, "outer", 4)
    events, after = act(game, state, "cross:sentinel", values=[1, 6])
    assert of(events, LifeLost)[0].reason == "the Sentinel"
    assert not of(events, RegionCrossed)
    assert after["players"][ANN]["space"] == 4


def test_sentinel_is_fought_only_on_its_space():
    game, state = new_game()
    put(state, ANN, "outer", 5)
    assert not game.is_legal(state, ANN, "cross:sentinel")


def test_from_the_middle_regions_hills_a_character_crosses_back_past_the_sentinel_without_a_fight():
    # house rule H5.4 leaves the way out open; house: the Sentinel bars only the way in.
    game, state = new_game()
    put(state, ANN, "middle", 15)
    lay(state, "outer", 4)
    assert "cross:back" in {a.id for a in game.legal_actions(state, ANN)}
    events, after = act(game, state, "cross:back")
    assert not of(events, CombatResolved)
    crossed = of(events, RegionCrossed)[0]
    assert (crossed.to_board, crossed.to_space) == ("outer", 4)
    assert (after["players"][ANN]["board"], after["players"][ANN]["space"]) == ("outer", 4)


def test_crossing_back_is_open_only_on_the_middle_regions_hills():
    game, state = new_game()
    put(state, ANN, "middle", 14)
    assert not game.is_legal(state, ANN, "cross:back")


def test_raft_crosses_to_the_middle_space_at_the_same_angle():
    # house rule H5.4: with a Raft from any Outer space; index * 16 // 24 (house).
    game, state = new_game()
    put(state, ANN, "outer", 12, objects=["talisman/purchase/raft"])
    lay(state, "middle", 8)
    events, after = act(game, state, "cross:raft")
    assert of(events, RegionCrossed)[0].to_space == 8
    assert after["players"][ANN]["board"] == "middle"


def test_no_raft_no_crossing():
    game, state = new_game()
    put(state, ANN, "outer", 12)
    assert not game.is_legal(state, ANN, "cross:raft")


def test_portal_opened_by_strength_leads_to_the_plain_of_peril():
    # house rule H5.5: 2 dice ≤ the ability → the Plain of Peril.
    game, state = new_game()
    put(state, ANN, "middle", 0)
    events, after = act(game, state, "portal:strength", values=[2, 2])
    assert of(events, RegionCrossed)[0].to_board == "inner"
    assert (after["players"][ANN]["board"], after["players"][ANN]["space"]) == ("inner", 0)


def test_portal_failed_loses_one_of_the_ability_above_its_start():
    game, state = new_game()
    put(state, ANN, "middle", 0, craft=5)
    events, after = act(game, state, "portal:craft", values=[6, 6])
    assert of(events, StatChanged)[0].amount == -1
    assert after["players"][ANN]["craft"] == 4 and after["players"][ANN]["board"] == "middle"


def test_portal_failed_at_the_starting_value_loses_nothing():
    # house rule H1.3: Strength and Craft never fall below their starting values.
    game, state = new_game()
    put(state, ANN, "middle", 0)
    events, _ = act(game, state, "portal:strength", values=[6, 6])
    assert not of(events, StatChanged)


def test_inner_region_advances_one_space_without_a_roll():
    game, state = new_game()
    put(state, ANN, "inner", 0)
    lay(state, "inner", 1)
    assert [a.id for a in game.legal_actions(state, ANN)] == ["advance", "advance:crypt", "retreat"]
    events, after = act(game, state, "advance", values=[1, 1, 1])  # the Mines: 3 dice − Craft
    assert of(events, Moved)[0].to_space == 1
    assert all(d.purpose != "movement" for d in of(events, DieRolled))


def test_the_valley_of_fire_is_barred_without_a_talisman():
    # house rule H5.6: the Valley of Fire may be entered only by a character holding a Talisman.
    game, state = new_game()
    put(state, ANN, "inner", 3)
    assert [a.id for a in game.legal_actions(state, ANN)] == ["retreat"]
    put(state, ANN, "inner", 3, talismans=[TALISMAN])
    assert [a.id for a in game.legal_actions(state, ANN)] == ["advance", "retreat"]


def test_from_the_valley_of_fire_advance_reaches_the_crown():
    game, state = new_game()
    put(state, ANN, "inner", 4, talismans=[TALISMAN])
    events, after = act(game, state, "advance")
    assert of(events, RegionCrossed)[0].to_board == "crown"
    assert after["crown_reached"] is True


def test_the_other_way_round_leads_to_the_crypt():
    game, state = new_game()
    put(state, ANN, "inner", 0)
    events, after = act(game, state, "advance:crypt", values=[1, 1, 1])  # the Crypt: 3 dice − Strength
    assert after["players"][ANN]["space"] == 7


def test_retreat_from_the_plain_of_peril_goes_back_to_the_portal():
    game, state = new_game()
    put(state, ANN, "inner", 0)
    lay(state, "middle", 0, "talisman/card/market-day")
    events, after = act(game, state, "retreat")
    assert of(events, RegionCrossed)[0].to_board == "middle"
    assert (after["players"][ANN]["board"], after["players"][ANN]["space"]) == ("middle", 0)
