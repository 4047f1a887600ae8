"""The Vampire's Keep as an expansion of the main board: set-up and every way in (Keep 3, 4, 5.5, 15.1),
played through the `talisman` ruleset with `keep=true`, dice scripted."""

from __future__ import annotations

from typing import Any

from domain.dice import ScriptedDice
from domain.rulesets.keep.events import EntryTested
from domain.rulesets.talisman.events import CardDiscarded, ChoiceOffered, ItemGivenUp
from domain.rulesets.talisman.main.events import ItemDropped, QuestCompleted, RegionCrossed
from domain.rulesets.talisman.main.outcomes import apply_outcome
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import names, of
from tests.main_helpers import ANN, BO, act, land, lay, new_game, put

KEEP = {"keep": "true"}
PORTAL = "talisman/card/ethereal-portal-1"
VILLAGE, CITY, WARLOCK = ("outer", 0), ("outer", 12), ("middle", 7)
TEMPLE = ("middle", 11)
PILGRIM = "talisman/card/mystic-pilgrim"


def at_entrance(state: dict[str, Any], player: str = ANN) -> bool:
    sheet = state["players"][player]
    return (sheet["board"], sheet["space"]) == ("keep", 1)


def test_keep_3_3_the_keeps_adventure_cards_and_piles_join_only_with_the_option():
    """Keep 3.1, 3.2, 3.3 (second), 3.4-3.6: the main game is set up with the Keep's board beside it; 24 new
    Adventure cards (8 Ethereal Portals, 16 house cards) are shuffled in; the Keep deck, the Vault deck
    and the Teleport counters are piles beside the Keep (Keep 2: 48 + 12 cards, 40 counters)."""
    _, plain = new_game()
    _, state = new_game(KEEP)
    added = set(state["piles"]["adventure"]) - set(plain["piles"]["adventure"])
    assert len(added) == 24
    assert sum(card.startswith("talisman/card/ethereal-portal") for card in added) == 8
    assert len(state["piles"]["keep"]) == 48 and len(state["piles"]["vault"]) == 12
    assert len(state["piles"]["counters"]) == 40
    assert len(state["cards"]["keep"]) == 22  # Keep 5.1: spaces 1-21 (index 0 unused)
    assert "keep" not in plain["piles"] and "keep" not in plain["cards"]


def test_keep_4_1_the_finder_of_an_ethereal_portal_may_step_through_to_the_keep_entrance():
    """Keep 4.1: an Ethereal Portal lets its finder go to the Keep Entrance (house: its choice; the Portal
    closes either way)."""
    game, state = new_game(KEEP)
    lay(state, "outer", 1, PORTAL)  # a Fields space draws 1 card: the Portal lies there
    events, after = land(game, state, "outer", 1)
    (offered,) = of(events, ChoiceOffered)
    assert offered.kind == f"keep-portal:{PORTAL}" and offered.options == ["go", "stay"]
    events, went = act(game, after, "choose:go")
    assert of(events, CardDiscarded)[0].card == PORTAL
    assert at_entrance(went) and went["players"][ANN]["keep_from"] == ["outer", 1]
    events, stayed = act(game, after, "choose:stay")
    assert of(events, CardDiscarded) and (
        stayed["players"][ANN]["board"],
        stayed["players"][ANN]["space"],
    ) == (
        "outer",
        1,
    )


def _serve(game: TalismanGame, state: dict[str, Any], where: tuple[str, int], service: str, values=()):
    events, after = land(game, state, *where)
    assert service in after["choice"]["options"], after["choice"]
    return act(game, after, f"choose:{service}", values=values)


def test_keep_4_2_the_warlock_guides_a_character_whose_2_dice_are_at_most_strength_plus_craft():
    """Keep 4.2: at the Warlock's Cave, 2 dice at most Strength + Craft (Ann: 4 + 3) lead to the Keep."""
    game, state = new_game(KEEP)
    _, passed = _serve(game, state, WARLOCK, "warlock-keep", values=[3, 4])
    assert at_entrance(passed)
    _, failed = _serve(game, state, WARLOCK, "warlock-keep", values=[4, 4])
    assert (failed["players"][ANN]["board"], failed["players"][ANN]["space"]) == WARLOCK


def test_keep_4_3_the_enchantress_sends_a_character_in_for_one_magic_object():
    """Keep 4.3: the Enchantress takes 1 Magic Object and sends its bearer to the Keep Entrance."""
    game, state = new_game(KEEP)
    put(state, ANN, "outer", 11, objects=["talisman/card/amulet"])
    events, after = _serve(game, state, CITY, "enchantress-keep")
    assert of(events, ItemGivenUp)[0].card == "talisman/card/amulet"  # she keeps it: it leaves the board
    assert at_entrance(after) and after["players"][ANN]["objects"] == []


def test_keep_4_4_the_village_mystic_sends_a_character_in_for_5_gold():
    """Keep 4.4: the Village Mystic takes 5 Gold and sends the payer to the Keep Entrance."""
    game, state = new_game(KEEP)
    state["players"][ANN]["gold"] = 6
    _, after = _serve(game, state, VILLAGE, "mystic-keep")
    assert at_entrance(after) and after["players"][ANN]["gold"] == 1
    state["players"][ANN]["gold"] = 4
    _, poor = land(game, state, *VILLAGE)
    assert "mystic-keep" not in poor["choice"]["options"]


def test_keep_4_5_a_talisman_from_a_place_leads_to_the_keep_entrance_instead():
    """Keep 4.5 (and 3.3): a place that would give a Talisman (the Temple's 12) sends the character to the
    Keep Entrance; no Talisman is drawn outside the Keep."""
    game, state = new_game(KEEP)
    events, after = land(game, state, *TEMPLE, values=[6, 6])
    assert at_entrance(after) and after["players"][ANN]["talismans"] == []
    assert len(after["piles"]["talismans"]) == len(state["piles"]["talismans"])
    assert "Keep 4.5" in of(events, RegionCrossed)[0].reason


def test_keep_4_5_a_talisman_from_an_adventure_card_leads_to_the_keep_entrance_instead():
    """Keep 4.5: an Adventure card that would give a Talisman (the Mystic Pilgrim's 12) sends its finder to
    the Keep Entrance."""
    game, state = new_game(KEEP)
    lay(state, "outer", 1, PILGRIM)
    _, after = land(game, state, "outer", 1, values=[6, 6])
    assert at_entrance(after) and after["players"][ANN]["talismans"] == []


def test_keep_4_5_the_warlocks_quest_reward_leads_to_the_keep_entrance_instead():
    """Keep 4.5: the Warlock's quest reward, a Talisman, sends the character to the Keep Entrance."""
    game, state = new_game(KEEP)
    quest = {"id": "pay-gold", "goal": "pay-gold", "amount": 3, "target": "", "progress": 0}
    put(state, ANN, "outer", 3, gold=5, quest=quest)
    events, after = land(game, state, "outer", 4)  # the Gold is paid as soon as it is had
    assert of(events, QuestCompleted) and at_entrance(after)
    assert after["players"][ANN]["talismans"] == []


def test_keep_15_1_with_the_talismans_in_the_deck_they_are_gained_as_before():
    """Keep 15.1: with `keep.talismans_in_deck` a Talisman is gained as on the plain main board, and the
    Warlock's test no longer leads in (only the Mystic, the Enchantress and the Portals do)."""
    game, state = new_game({**KEEP, "keep.talismans_in_deck": "true"})
    _, after = land(game, state, *TEMPLE, values=[6, 6])
    assert len(after["players"][ANN]["talismans"]) == 1 and after["players"][ANN]["board"] == "middle"
    _, at_cave = land(game, state, *WARLOCK, values=[3])  # no way in offered: the Cave's table instead
    assert at_cave["choice"] is None or "warlock-keep" not in at_cave["choice"]["options"]
    state["players"][ANN]["gold"] = 5
    _, mystic = _serve(game, state, VILLAGE, "mystic-keep")
    assert at_entrance(mystic)


def test_keep_5_5_horses_stay_outside_and_mules_go_in():
    """Keep 5.5: a Horse and a Horse and Cart are left on the space the character goes in from; a Mule goes
    in with it."""
    game, state = new_game(KEEP)
    horse, cart, mule = "talisman/card/horse", "talisman/card/horse-and-cart", "talisman/purchase/mule"
    put(state, ANN, "outer", 22, gold=5, followers=[horse], objects=[cart, mule])
    state.update(step="rolled", rolled=1)  # the Horse adds 1: two spaces to the Village
    _, there = act(game, state, "go:outer:0")
    events, after = act(game, there, "choose:mystic-keep")
    assert [e.card for e in of(events, ItemDropped)] == [horse, cart]
    assert at_entrance(after) and after["players"][ANN]["objects"] == [mule]
    assert {horse, cart} <= set(after["cards"]["outer"][0])


def test_keep_4_a_way_in_ends_the_turn_and_the_entry_test_comes_next():
    """Keep 4, 8.1, 5.1: whoever reaches the Keep starts on the Keep Entrance, the only way in, and follows
    its instructions: on its next turn its only action is the entry test."""
    game, state = new_game(KEEP)
    state["players"][ANN]["gold"] = 5
    events, after = _serve(game, state, VILLAGE, "mystic-keep")
    assert names(events)[-1] == "TurnEnded" and after["turn"] == BO
    after["turn"] = ANN
    assert [a.id for a in game.legal_actions(after)] == ["enter"]
    events, _ = act(game, after, "enter", values=[1, 1, 1])
    assert of(events, EntryTested)[0].passed


def test_keep_15_2_with_the_treasure_hoard_talismans_are_gained_outside_the_keep():
    """Keep 15.2 (house): the Hoard replaces the Vault's Talisman, so the Talismans stay in play outside the
    Keep as under Keep 15.1 (else nobody could ever hold one)."""
    game, state = new_game({**KEEP, "keep.hoard": "true"})
    _, after = land(game, state, *TEMPLE, values=[6, 6])
    assert len(after["players"][ANN]["talismans"]) == 1 and after["players"][ANN]["board"] == "middle"


def test_keep_4_5_a_talisman_given_on_another_board_leads_to_the_keep_too():
    """Keep 4.5: a location on any board that gives a Talisman (the Dungeon's Treasure Chamber under
    Dungeon 13.1) sends the character to the Keep Entrance; it will come out where it went in from."""
    game, state = new_game({**KEEP, "dungeon": "true", "dungeon.talisman_exit": "true"})
    put(state, ANN, "dungeon", 3)
    res = game.resolution(state, ScriptedDice(), in_place=False)
    apply_outcome(game.ctx, res, ANN, "gain-talisman", 1, "", "the Treasure Chamber (Dungeon 13.1)")
    assert at_entrance(res.state) and res.state["players"][ANN]["talismans"] == []
    assert res.state["players"][ANN]["keep_from"] == ["dungeon", 3]
