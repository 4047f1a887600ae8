"""The Vampire's Keep inside a main-board game (`keep=true`): the entry test, moving by the chart, the
Talisman Vault, the Exit Table and fleeing (house rules H3; Keep 5.2, 9.1, 10, 15.2, 15.3), dice scripted."""

from __future__ import annotations

from typing import Any

from domain.events import LifeLost, Moved
from domain.rulesets.keep.events import EntryTested, FlightEnded, VaultCardMet
from domain.rulesets.talisman.main.events import CharacterDied, ItemBought, RegionCrossed
from tests.decider_helpers import names, of
from tests.main_helpers import ANN, BO, act, land, new_game, put

KEEP = {"keep": "true"}
TRAPS = ["keep/vault/spiked-pit", "keep/vault/poison-needle", "keep/vault/swinging-blade"]
TALISMAN = "talisman/talisman/2"


def inside(state: dict[str, Any], space: int, player: str = ANN, **sheet: Any) -> None:
    """Stands a character inside the Keep (past the entry test), come in from the Fields (outer 1)."""
    put(state, player, "keep", space, entered=True, keep_from=["outer", 1], **sheet)
    state["turn"] = player


def where(state: dict[str, Any], player: str = ANN) -> tuple[str, int]:
    sheet = state["players"][player]
    return sheet["board"], sheet["space"]


def test_rules_3_the_entry_test_lets_in_a_character_whose_3_dice_are_under_strength_craft_and_lives():
    """Keep 8.1 (house rule H3.3): at the Keep Entrance 3 dice under Strength + Craft + Lives (Ann: 4 + 3 + 4)
    let the character in; it rolls to move on its next turn."""
    game, state = new_game(KEEP)
    put(state, ANN, "keep", 1, keep_from=["outer", 1])
    events, after = act(game, state, "enter", values=[3, 4, 3])
    (test,) = of(events, EntryTested)
    assert (test.total, test.target, test.passed) == (10, 11, True)
    assert where(after) == ("keep", 1) and after["turn"] == BO
    after["turn"] = ANN
    assert [a.id for a in game.legal_actions(after)] == ["roll"]


def test_rules_3_a_failed_entry_test_sends_the_character_back_for_at_least_one_turn_outside():
    """H3.3: a total not under Strength + Craft + Lives sends the character back to the space it came
    from, and it must spend at least one turn outside before going in again."""
    game, state = new_game(KEEP)
    put(state, ANN, "keep", 1, keep_from=["outer", 0])
    events, after = act(game, state, "enter", values=[4, 4, 3])
    assert not of(events, EntryTested)[0].passed and where(after) == ("outer", 0)
    after["players"][ANN]["gold"] = 5
    _, refused = land(game, after, "outer", 0)  # its turn outside: the Mystic is not offered
    assert "mystic-keep" not in (refused["choice"] or {"options": []})["options"]
    _, stays = act(game, refused, "choose:leave") if refused["choice"] else (None, refused)
    assert where(stays) == ("outer", 0)
    stays["turn"] = ANN
    stays["players"][ANN]["gold"] = 5
    _, again = land(game, stays, "outer", 0)  # the turn after: the way is open again
    _, went = act(game, again, "choose:mystic-keep")
    assert where(went) == ("keep", 1)


def test_keep_5_2_movement_in_the_keep_follows_the_chart():
    """Keep 5.2: a die of 1-2 moves 1 space, 3-4 two, 5-6 three, in number order toward the Vault."""
    for face, steps in ((1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)):
        game, state = new_game(KEEP)
        inside(state, 5)
        state["piles"]["keep"].remove("keep/card/sword")
        state["cards"]["keep"][5 + steps] = ["keep/card/sword"]  # a face-up card: nothing is drawn
        events, _ = act(game, state, "roll", values=[face])
        assert of(events, Moved)[0].to_space == 5 + steps, face


def test_keep_9_1_the_vault_gives_a_talisman_and_three_vault_cards_and_the_turn_ends():
    """Keep 9.1, 8.8, 14.2: reaching the Talisman Vault, take a Talisman and meet 3 cards of the Vault deck
    in order; the turn then ends."""
    game, state = new_game(KEEP)
    inside(state, 20)
    events, after = act(game, state, "roll", values=[1, 6, 6, 6], cards=[TALISMAN, *TRAPS])
    assert after["players"][ANN]["talismans"] == [TALISMAN]
    assert [e.card for e in of(events, VaultCardMet)] == TRAPS
    assert names(events)[-1] == "TurnEnded" and where(after) == ("keep", 21)
    assert sorted(after["piles"]["discard:vault"]) == sorted(TRAPS) and after["cards"]["keep"][21] == []


def test_keep_9_1_a_survivor_leaves_on_a_later_turn_by_the_exit_table():
    """Keep 9.1, 5.1 (house rule H3.14's house Exit Table): the Vault is the other way out: 1 the space it
    entered from, 2 Village, 3 City, 4 Warlock's Cave, 5 Portal of Power, 6 Plain of Peril."""
    game, state = new_game(KEEP)
    inside(state, 21)
    assert [a.id for a in game.legal_actions(state)] == ["exit"]
    ways = {1: ("outer", 1), 2: ("outer", 0), 3: ("outer", 12), 4: ("middle", 7), 5: ("middle", 0)}
    for face, out in {**ways, 6: ("inner", 0)}.items():
        events, after = act(game, state, "exit", values=[face])
        assert where(after) == out and of(events, RegionCrossed)[0].from_board == "keep"
        assert after["players"][ANN]["entered"] is False and after["turn"] == BO


def test_keep_9_1_killed_in_the_vault_the_talisman_objects_and_followers_stay_there():
    """Keep 9.1: a character killed in the Vault leaves its Talisman, Objects and Followers on the Vault
    space; the next character who reaches it and survives takes them."""
    game, state = new_game(KEEP)
    inside(state, 20, lives=1, objects=["talisman/card/sword"], followers=["talisman/card/porter"])
    events, after = act(
        game, state, "roll", values=[1, 1], cards=[TALISMAN, TRAPS[0], "talisman/character/dwarf"]
    )
    assert of(events, CharacterDied) and after["players"][ANN]["board"] != "keep"
    left = after["cards"]["keep"][21]
    assert sorted(left) == sorted([TALISMAN, "talisman/card/sword", "talisman/card/porter"])
    inside(after, 20, player=BO)
    _, bo = act(
        game,
        after,
        "roll",
        values=[1, 6, 6, 6, 1],  # the Crypt Hound: 6 + 2 against 1 + 4
        player=BO,
        cards=["talisman/talisman/1", *TRAPS[1:], "keep/vault/crypt-hound"],
    )
    assert sorted(bo["players"][BO]["talismans"]) == ["talisman/talisman/1", TALISMAN]
    assert bo["players"][BO]["followers"] == ["talisman/card/porter"] and bo["cards"]["keep"][21] == []


def test_keep_10_fleeing_goes_back_by_the_chart_then_out_onto_the_space_of_entry():
    """Keep 10: fleeing is irrevocable; the character moves back by the chart to the Entrance and ends its
    turn there; its next turn begins on the space it entered from, and it plays that turn outside."""
    game, state = new_game(KEEP)
    inside(state, 5)
    _, fleeing = act(game, state, "flee")
    fleeing["turn"] = ANN
    assert [a.id for a in game.legal_actions(fleeing)] == ["roll"]  # no way back
    events, mid = act(game, fleeing, "roll", values=[6])
    assert of(events, Moved)[0].to_space == 2 and not of(events, FlightEnded)
    mid["turn"] = ANN
    events, out = act(game, mid, "roll", values=[2])
    assert of(events, FlightEnded) and where(out) == ("keep", 1) and out["turn"] == BO
    out["turn"] = ANN
    assert [a.id for a in game.legal_actions(out)] == ["leave"]
    events, stepped = act(game, out, "leave")
    assert where(stepped) == ("outer", 1) and stepped["turn"] == ANN  # the turn goes on outside
    assert [a.id for a in game.legal_actions(stepped)][0] == "roll"
    assert stepped["players"][ANN]["keep_wait"] == 1  # this turn outside comes before any way back in


def test_keep_15_2_the_treasure_hoard_replaces_the_talisman():
    """Keep 15.2: with `keep.hoard` the Vault rolls the Treasure Hoard (2 dice: 11 → Sword, Shield and
    Armour, house: from the Purchase deck) instead of giving a Talisman, then its 3 Vault cards."""
    game, state = new_game({**KEEP, "keep.hoard": "true"})
    inside(state, 20)
    events, after = act(game, state, "roll", values=[1, 5, 6, 6, 6, 6], cards=TRAPS)
    assert after["players"][ANN]["talismans"] == []
    gear = ["talisman/purchase/sword", "talisman/purchase/shield", "talisman/purchase/armour"]
    assert [(e.card, e.price) for e in of(events, ItemBought)] == [(card, 0) for card in gear]
    assert after["players"][ANN]["objects"] == gear
    assert len(of(events, VaultCardMet)) == 3


def test_keep_15_3_a_survivor_with_a_talisman_goes_straight_to_the_crown():
    """Keep 15.3: with `keep.crown_exit` a character that gains a Talisman and survives the Keep moves at
    once to the Crown of Command."""
    game, state = new_game({**KEEP, "keep.crown_exit": "true"})
    inside(state, 20)
    events, after = act(game, state, "roll", values=[1, 6, 6, 6], cards=[TALISMAN, *TRAPS])
    assert where(after) == ("crown", 0) and after["crown_reached"]
    assert "Keep 15.3" in of(events, RegionCrossed)[0].reason
    game, state = new_game({**KEEP, "keep.crown_exit": "true"})
    inside(state, 20, lives=4)
    events, hurt = act(game, state, "roll", values=[1, 1, 6, 6], cards=[TALISMAN, *TRAPS])
    assert of(events, LifeLost) and where(hurt) == ("crown", 0)  # wounded, alive: it still goes


def test_keep_9_1_with_no_talisman_left_the_vault_gives_none_and_its_cards_are_still_met():
    """Keep 9.1 (house): with the Talisman deck empty the Vault gives no Talisman; its 3 cards are met."""
    game, state = new_game(KEEP)
    state["piles"]["talismans"] = []
    inside(state, 20)
    events, after = act(game, state, "roll", values=[1, 6, 6, 6], cards=TRAPS)
    assert after["players"][ANN]["talismans"] == [] and len(of(events, VaultCardMet)) == 3


def test_keep_9_1_a_kill_in_the_vault_that_ends_the_game_is_the_last_thing_that_happens():
    """Keep 9.1 (house rule H5.17): once the Crown is reached a character killed in the Vault is out; if that
    leaves one character alive, the game ends there and the Vault card stays where it lies."""
    game, state = new_game(KEEP)
    state["crown_reached"] = True
    inside(state, 20, lives=1)
    events, after = act(game, state, "roll", values=[1, 1], cards=[TALISMAN, TRAPS[0]])
    assert names(events)[-1] == "GameWon" and not of(events, VaultCardMet)
    assert TRAPS[0] in after["cards"]["keep"][21]
