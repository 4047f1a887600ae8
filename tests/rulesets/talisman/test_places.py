"""What each kind of space of the main board does to a character landing on it (house rules H5), one
test per kind and branch, with scripted dice. The tables are the house ones of `places.toml`."""

from __future__ import annotations

from domain.events import CardDrawn, CombatResolved, DieRolled, LifeGained, LifeLost
from domain.rulesets.talisman.events import (
    CardDiscarded,
    CardEncountered,
    ChoiceMade,
    ChoiceOffered,
    FollowerLeft,
    GoldChanged,
    ObjectTaken,
    StatChanged,
    TrophyTaken,
    TurnLost,
)
from domain.rulesets.talisman.main.events import (
    AlignmentChanged,
    ItemBought,
    ItemSold,
    QuestCompleted,
    QuestGiven,
    RegionCrossed,
)
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, land, lay, new_game, put

GOBLIN = "talisman/card/goblin-1"  # a monster of Strength 3
SHADOW = "talisman/card/shadow-1"  # a spirit of Craft 2
SWORD = "talisman/card/sword-1"
WOLF = "talisman/card/wolf"  # a Follower


def test_fields_draw_a_card_and_a_monster_is_fought_and_kept_as_a_trophy():
    # house rule H5.7: Fields draw 1 Adventure card; house rule H1.6: a killed enemy is a trophy.
    game, state = new_game()
    lay(state, "outer", 1)
    events, after = land(game, state, "outer", 1, values=[4, 1], cards=[GOBLIN])
    assert of(events, CardDrawn)[0].card == GOBLIN and of(events, CardDrawn)[0].deck == "adventure"
    assert of(events, CombatResolved)[0].outcome == "won"
    assert of(events, TrophyTaken)[0].card == GOBLIN
    assert after["cards"]["outer"][1] == [] and after["players"][ANN]["trophies"] == [GOBLIN]


def test_an_enemy_left_standing_keeps_the_object_on_the_space():
    # house rule H1.8: Objects are taken only once every enemy on the space is defeated.
    game, state = new_game()
    lay(state, "outer", 20, GOBLIN, SWORD)  # the Ruins hold 2
    events, after = land(game, state, "outer", 20, values=[2, 3])  # 4+2 vs 3+3: a stand-off
    assert of(events, CombatResolved)[0].outcome == "standoff"
    assert not of(events, ObjectTaken)
    assert after["cards"]["outer"][20] == [GOBLIN, SWORD]


def test_a_spirit_is_met_in_psychic_combat():
    game, state = new_game()
    lay(state, "outer", 3, SHADOW)
    events, after = land(game, state, "outer", 3, values=[1, 6])
    assert of(events, CombatResolved)[0].kind == "psychic"
    assert of(events, LifeLost)[0].amount == 1


def test_an_object_with_no_enemy_is_taken():
    game, state = new_game()
    lay(state, "outer", 3, SWORD)
    events, after = land(game, state, "outer", 3)
    assert of(events, ObjectTaken)[0].card == SWORD
    assert after["players"][ANN]["objects"] == [SWORD]


def test_an_event_is_applied_then_discarded():
    game, state = new_game()
    lay(state, "outer", 3, "talisman/card/windfall-1")
    events, after = land(game, state, "outer", 3)
    assert of(events, GoldChanged)[0].amount == 2
    assert of(events, CardDiscarded)[0].card == "talisman/card/windfall-1"
    assert "talisman/card/windfall-1" in after["piles"]["discard:adventure"]


def test_village_offers_its_services_and_the_healer_heals_for_gold():
    # house rule H5.9: the Village's Healer, 1 Gold a life up to the starting lives.
    game, state = new_game()
    put(state, ANN, "outer", 1, lives=2, gold=1)
    state.update(step="rolled", rolled=1)
    events, after = act(game, state, "go:outer:0")
    offered = of(events, ChoiceOffered)[0]
    assert offered.kind == "service:village" and "healer" in offered.options and "leave" in offered.options
    assert after["turn"] == ANN  # the turn waits on the choice
    events, after = act(game, after, "choose:healer")
    assert of(events, GoldChanged)[0].amount == -1 and of(events, LifeGained)[0].amount == 1
    assert after["players"][ANN]["lives"] == 3 and after["choice"]["kind"] == "service:village"
    _, after = act(game, after, "choose:leave")
    assert after["turn"] == BO


def test_village_blacksmith_sells_from_the_purchase_deck():
    game, state = new_game()
    put(state, ANN, "outer", 1, gold=3)
    state.update(step="rolled", rolled=1)
    _, after = act(game, state, "go:outer:0")
    events, after = act(game, after, "choose:blacksmith")
    assert "talisman/purchase/sword" in of(events, ChoiceOffered)[0].options
    events, after = act(game, after, "choose:talisman/purchase/sword")
    assert of(events, ItemBought)[0].price == 2
    assert (
        after["players"][ANN]["objects"] == ["talisman/purchase/sword"] and after["players"][ANN]["gold"] == 1
    )
    assert after["piles"]["purchase"].count("talisman/purchase/sword") == 2


def test_village_mystic_rolls_on_her_table():
    game, state = new_game()
    put(state, ANN, "outer", 1)
    state.update(step="rolled", rolled=1)
    _, after = act(game, state, "go:outer:0")
    events, after = act(game, after, "choose:mystic", values=[4])
    assert of(events, AlignmentChanged)[0].alignment == "good"


def test_city_alchemist_buys_an_object_for_gold():
    game, state = new_game()
    put(state, ANN, "outer", 11, objects=[SWORD])
    state.update(step="rolled", rolled=1)
    _, after = act(game, state, "go:outer:12")
    events, after = act(game, after, "choose:alchemist")
    events, after = act(game, after, f"choose:{SWORD}")
    assert of(events, ItemSold)[0].gold == 1 and after["players"][ANN]["objects"] == []


def test_city_leave_ends_the_visit():
    game, state = new_game()
    put(state, ANN, "outer", 11)
    state.update(step="rolled", rolled=1)
    _, after = act(game, state, "go:outer:12")
    events, after = act(game, after, "choose:leave")
    assert of(events, ChoiceMade)[0].option == "leave" and after["turn"] == BO


def test_chapel_heals_the_good_and_hurts_the_evil():
    # house rule H5.9: Chapel — good: heal; evil: lose a life; neutral: roll.
    game, state = new_game(characters=("priest", "wizard"))
    put(state, ANN, "outer", 5, lives=2)
    state.update(step="rolled", rolled=1)
    events, _ = act(game, state, "go:outer:6")
    assert of(events, LifeGained)[0].amount == 2
    events, _ = land(game, state, "outer", 6, player=BO)
    assert of(events, LifeLost)[0].amount == 1


def test_chapel_neutral_rolls():
    game, state = new_game()
    events, _ = land(game, state, "outer", 6, values=[1])
    assert of(events, DieRolled)[0].purpose == "chapel" and of(events, LifeLost)


def test_graveyard_heals_the_evil_and_hurts_the_good():
    game, state = new_game(characters=("monk", "wizard"))
    put(state, BO, "outer", 5)  # away: characters met on a space may attack instead (house rule H5.16)
    events, _ = land(game, state, "outer", 2)
    assert of(events, LifeLost)
    put(state, BO, "outer", 1, lives=3)
    put(state, ANN, "outer", 6)
    events, _ = land(game, state, "outer", 2, player=BO)
    assert of(events, LifeGained)[0].amount == 1


def test_tavern_roll_can_cost_a_turn():
    game, state = new_game()
    events, after = land(game, state, "outer", 18, values=[1])
    assert of(events, TurnLost)
    assert after["players"][ANN]["skips"] == 1 and after["turn"] == BO


def test_temple_rolls_two_dice():
    game, state = new_game()
    events, _ = land(game, state, "middle", 11, values=[4, 5])
    assert of(events, DieRolled)[0].values == [4, 5] and of(events, StatChanged)[0].stat == "strength"


def test_castle_heals():
    game, state = new_game()
    put(state, ANN, "middle", 13, lives=2)
    state.update(step="rolled", rolled=1)
    events, _ = act(game, state, "go:middle:14", values=[3])
    assert of(events, LifeGained)[0].amount == 1


def test_forest_draws_then_rolls():
    game, state = new_game()
    lay(state, "outer", 22, "talisman/card/market-day")
    events, _ = land(game, state, "outer", 22, values=[5])
    assert of(events, CardEncountered) and of(events, StatChanged)[0].stat == "craft"


def test_crags_draw_then_roll():
    game, state = new_game()
    lay(state, "outer", 8, "talisman/card/market-day")
    events, _ = land(game, state, "outer", 8, values=[3])
    assert of(events, DieRolled)[0].purpose == "crags"


def test_warlocks_cave_sets_a_quest_and_a_met_quest_gives_a_talisman():
    # house rule H5.10: the Warlock's Cave, a quest whose reward is a Talisman.
    game, state = new_game()
    put(state, ANN, "middle", 6, gold=5)
    state.update(step="rolled", rolled=1)
    events, after = act(game, state, "go:middle:7", values=[2], cards=["talisman/talisman/2"])
    assert of(events, QuestGiven)[0].goal == "pay-gold"
    assert of(events, QuestCompleted) and of(events, CardDrawn)[0].deck == "talismans"
    assert (
        after["players"][ANN]["talismans"] == ["talisman/talisman/2"] and after["players"][ANN]["gold"] == 2
    )


def test_crypt_sends_by_three_dice_less_strength():
    # house rule H5.11: 3 dice − Strength: 0 stay, 1 Plain of Peril, 2–3 Portal, 4–5 Warlock's Cave, 6+ City.
    game, state = new_game()
    put(state, ANN, "inner", 0)
    events, after = act(game, state, "advance:crypt", values=[6, 6, 4])  # 16 − 4 = 12
    assert of(events, RegionCrossed)[-1].to_board == "outer"
    assert after["players"][ANN]["space"] == 12  # the City


def test_mines_send_by_three_dice_less_craft():
    game, state = new_game()
    put(state, ANN, "inner", 0)
    events, after = act(game, state, "advance", values=[2, 1, 1])  # 4 − 3 = 1
    assert (after["players"][ANN]["board"], after["players"][ANN]["space"]) == ("inner", 0)


def test_desert_takes_a_life_without_a_water_bottle():
    game, state = new_game()
    events, _ = land(game, state, "middle", 8)
    assert of(events, LifeLost)[0].reason == "Desert"
    put(state, ANN, "middle", 7, objects=["talisman/purchase/water-bottle"])
    events, _ = land(game, state, "middle", 8)
    assert not of(events, LifeLost)


def test_oasis_holds_two_cards():
    game, state = new_game()
    lay(state, "middle", 9)
    events, _ = land(
        game, state, "middle", 9, cards=["talisman/card/market-day", "talisman/card/harvest-festival"]
    )
    assert len(of(events, CardDrawn)) == 2


def test_hidden_valley_holds_three_cards():
    game, state = new_game()
    lay(state, "middle", 2, "talisman/card/market-day", "talisman/card/cutpurses", "talisman/card/windfall-1")
    events, _ = land(game, state, "middle", 2)
    assert not of(events, CardDrawn) and len(of(events, CardEncountered)) == 3


def test_vampires_tower_offers_a_follower_instead_of_a_life():
    game, state = new_game()
    put(state, ANN, "inner", 1, followers=[WOLF])
    events, after = act(game, state, "advance", values=[3])
    assert of(events, ChoiceOffered)[0].options == ["life", WOLF]
    events, after = act(game, after, f"choose:{WOLF}")
    assert of(events, FollowerLeft)[0].card == WOLF
    assert of(events, LifeLost)[0].amount == 1  # the second life: no Follower left to give


def test_vampires_tower_without_followers_takes_lives():
    game, state = new_game()
    put(state, ANN, "inner", 1)
    events, _ = act(game, state, "advance", values=[1])
    assert of(events, LifeLost)[0].amount == 1


def test_pits_fight_a_die_of_pitfiends():
    game, state = new_game()
    put(state, ANN, "inner", 2)
    events, _ = act(game, state, "advance", values=[2, 6, 1, 6, 1])
    assert [c.outcome for c in of(events, CombatResolved)] == ["won", "won"]


def test_werewolf_den_rolls_the_werewolfs_strength():
    game, state = new_game()
    put(state, ANN, "inner", 6)
    events, _ = act(game, state, "advance", values=[3, 3, 6, 1])  # the Werewolf: 2 dice = 6
    assert of(events, DieRolled)[0].purpose == "enemy-strength"
    assert of(events, CombatResolved)[0].opponent_total == 7


def test_dice_with_death_ties_roll_again_and_the_lower_loses():
    game, state = new_game()
    put(state, ANN, "inner", 7)
    events, _ = act(game, state, "advance", values=[3, 3, 3, 3, 1, 1, 2, 4])
    assert len(of(events, DieRolled)) == 2 and of(events, LifeLost)[0].reason == "Dice with Death"


def test_plain_of_peril_and_valley_of_fire_do_nothing_on_landing():
    game, state = new_game()
    put(state, ANN, "middle", 0)
    events, _ = act(game, state, "portal:strength", values=[1, 1])
    assert not of(events, CardDrawn) and not of(events, DieRolled)[1:]
    put(state, ANN, "inner", 3, talismans=["talisman/talisman/1"])
    events, _ = act(game, state, "advance")
    assert [e.type_name for e in events] == ["Moved", "TurnEnded"]


def test_black_knight_asks_for_the_toll_or_a_fight():
    # house rules H5: pay 1 Gold or fight Strength 9 (house).
    game, state = new_game()
    lay(state, "middle", 1, "talisman/card/market-day")
    _, after = land(game, state, "middle", 1)
    assert after["choice"]["options"] == ["pay", "fight"]
    events, after = act(game, after, "choose:pay")
    assert of(events, GoldChanged)[0].amount == -1 and of(events, CardEncountered)


def test_black_knight_fought_and_lost_meets_nothing():
    game, state = new_game()
    lay(state, "middle", 1, "talisman/card/market-day")
    _, after = land(game, state, "middle", 1)
    events, after = act(game, after, "choose:fight", values=[1, 6])
    assert of(events, LifeLost) and not of(events, CardEncountered)


def test_cursed_glade_runes_chasm_sentinel_and_portal_draw_one_card():
    game, state = new_game()
    for board, space in [("middle", 3), ("middle", 4), ("middle", 5), ("outer", 4), ("middle", 0)]:
        lay(state, board, space)
        events, _ = land(game, state, board, space, cards=["talisman/card/market-day"])
        assert len(of(events, CardDrawn)) == 1, (board, space)


def test_an_event_of_the_region_strikes_everyone_on_that_region():
    # The Pestilence strikes every character in the region (board) where it is drawn.
    game, state = new_game(characters=("warrior", "wizard", "troll"))
    put(state, BO, "outer", 12)
    put(state, "Cy", "middle", 3)
    lay(state, "outer", 3, "talisman/card/pestilence")
    events, _ = land(game, state, "outer", 3)
    assert [e.player for e in of(events, LifeLost)] == [ANN, BO]


def test_on_the_cursed_glade_no_magic_object_works():
    # house rule H5.8: on the Cursed Glade no Magic Objects or Spells work (house).
    game, state = new_game()
    put(state, ANN, "middle", 2, objects=["talisman/card/holy-lance"])  # Strength +3, a Magic Object
    lay(state, "middle", 3, GOBLIN)
    events, _ = land(game, state, "middle", 3, values=[2, 3])  # 4+2 against 3+3 without the lance
    assert of(events, CombatResolved)[0].player_total == 6


def test_the_astral_conjunction_makes_spirits_stronger_until_the_next_event():
    # Dungeon 11.1: the Astral Conjunction affects spirits; house: +1 Craft until the next Event.
    game, state = new_game()
    lay(state, "outer", 3, "talisman/card/astral-conjunction")
    _, after = land(game, state, "outer", 3)
    assert after["spirit_bonus"] == 1
    lay(after, "outer", 10, SHADOW)
    events, after = land(game, after, "outer", 10, values=[1, 1])
    assert of(events, CombatResolved)[0].opponent_total == 2 + 1 + 1
    lay(after, "outer", 16, "talisman/card/market-day")
    _, after = land(game, after, "outer", 16)
    assert after["spirit_bonus"] == 0
