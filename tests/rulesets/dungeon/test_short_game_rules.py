"""Rules of the Short Play Dungeon Game (Dungeon 6-9, 14; house rules H1, H2), driven with scripted dice.

Each test: given a state (built from events, or a face-up card laid on a space), when an action is
decided with ScriptedDice, then the events are exactly the ones the rule calls for.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.actions import HOST, START
from domain.dice import DiceScriptExhausted, ScriptedDice
from domain.errors import IllegalAction
from domain.events import (
    CardDrawn,
    CharacterDealt,
    CombatResolved,
    DieRolled,
    Event,
    GameCreated,
    GameEnded,
    GameWon,
    LifeLost,
    Moved,
    PlayerOut,
    TurnEnded,
)
from domain.rulesets.dungeon.short_game import DungeonShort
from domain.rulesets.talisman.events import (
    CardEncountered,
    DeckReshuffled,
    FleeingDeclared,
    FollowerJoined,
    GoldTaken,
    LifeSaved,
    ObjectTaken,
    PlayOpened,
    TrophiesTraded,
    TrophyTaken,
    TurnLost,
    TurnSkipped,
)
from tests import decider_helpers as helpers
from tests.decider_helpers import names, of

dungeon = DungeonShort()

C = "dungeon/card/"
GOBLIN, OGRE, MINOTAUR, BRONZE_DRAGON = C + "goblin", C + "ogre", C + "minotaur", C + "bronze-dragon"
GHOST, SPECTRE = C + "ghost", C + "spectre"
SWORD, ARMOUR, SHIELD, HELMET, RUNE_SWORD = (
    C + "sword",
    C + "armour",
    C + "shield",
    C + "helmet",
    C + "rune-sword",
)
MERCENARY, HEALER, FOUL_AIR, CAVE_IN, TUNNEL = (
    C + "mercenary",
    C + "wandering-healer",
    C + "foul-air",
    C + "cave-in",
    C + "tunnel",
)
WARRIOR, TROLL = "talisman/character/warrior", "talisman/character/troll"


# --- given --------------------------------------------------------------------------------------------------


def created(*seats: tuple[str, str]) -> GameCreated:
    return GameCreated(
        ruleset=dungeon.name,
        players=[{"name": n, "character": c} for n, c in seats],
        options={},
        content_hash=dungeon.content_hash(),
        scripted=True,
        dice_script=[],
        nightkeep_version="test",
    )


def fold(state: dict[str, Any], events: list[Event]) -> dict[str, Any]:
    return helpers.fold(dungeon, state, events)


def started(*seats: tuple[str, str], cards: tuple[str, ...] = ()) -> dict[str, Any]:
    """Returns a dealt game; by default Ann is the Warrior (4/3) and Bo the Troll (6/1)."""
    seats = seats or (("Ann", "warrior"), ("Bo", "troll"))
    state = dungeon.initial_state(created(*seats))
    return fold(state, dungeon.decide(state, START, HOST, ScriptedDice(cards=cards)))


def place(state: dict[str, Any], player: str, space: int) -> None:
    here = state["players"][player]["space"]
    dungeon.evolve(
        state, Moved(piece=player, board="dungeon", from_space=here, to_space=space, reason="given")
    )


def lay(state: dict[str, Any], space: int, *cards: str) -> None:
    """Lays cards face up on a space, as if drawn there earlier."""
    for card in cards:
        state["piles"]["dungeon"].remove(card)
        state["cards"]["dungeon"][space].append(card)


def carry(state: dict[str, Any], player: str, *cards: str) -> None:
    for card in cards:
        state["piles"]["dungeon"].remove(card)
        key = "followers" if card == MERCENARY else "objects"
        state["players"][player][key].append(card)


def defeat(state: dict[str, Any], player: str) -> None:
    """Records that a character lost a combat to the Ogre, as if on its last turn (Dungeon 7.3)."""
    dungeon.evolve(
        state,
        CombatResolved(
            player=player, opponent=OGRE, kind="combat", player_total=5, opponent_total=9, outcome="lost"
        ),
    )


def turn_to(state: dict[str, Any], player: str) -> None:
    dungeon.evolve(state, TurnEnded(player=state["turn"], next_player=player))


def act(
    state: dict[str, Any],
    action: str,
    values: tuple[int, ...] = (),
    cards: tuple[str, ...] = (),
    player: str = "",
) -> tuple[list[Event], dict[str, Any]]:
    """Decides an action with scripted dice (all used up); returns the events and new state."""
    return helpers.decided(dungeon, state, action, player or state["turn"], ScriptedDice(values, cards))


def ids(state: dict[str, Any], player: str | None = None) -> list[str]:
    return [a.id for a in dungeon.legal_actions(state, player)]


# --- dealing ------------------------------------------------------------------------------------------------


def test_dealing_chosen_character_has_draw_minus_one_and_random_one_a_draw():
    state = dungeon.initial_state(created(("Ann", ""), ("Bo", "warrior")))
    events = dungeon.decide(state, START, HOST, ScriptedDice(cards=["talisman/character/wizard"]))
    assert events == [
        CharacterDealt(player="Ann", character="talisman/character/wizard", draw=0),
        CharacterDealt(player="Bo", character=WARRIOR, draw=-1),
        PlayOpened(player="Ann"),
    ]
    state = fold(state, events)
    assert state["turn"] == "Ann" and ids(state) == ["roll"]


def test_dealing_at_random_never_deals_a_character_someone_chose():
    state = dungeon.initial_state(created(("Ann", ""), ("Bo", "warrior")))
    with pytest.raises(DiceScriptExhausted):
        dungeon.decide(state, START, HOST, ScriptedDice(cards=[WARRIOR]))


def test_start_is_only_taken_once_by_the_host():
    state = started()
    with pytest.raises(IllegalAction):
        dungeon.decide(state, START, HOST, ScriptedDice())


def test_decide_refuses_unknown_or_out_of_turn_actions():
    state = started()
    with pytest.raises(IllegalAction):
        dungeon.decide(state, "dance", "Ann", ScriptedDice([1]))
    with pytest.raises(IllegalAction):
        dungeon.decide(state, "roll", "Bo", ScriptedDice([1]))
    with pytest.raises(IllegalAction):
        dungeon.decide(state, "attack:Bo", "Ann", ScriptedDice([1, 1]))


# --- 6: movement --------------------------------------------------------------------------------------------


def test_dungeon_14_characters_start_together_on_the_entrance_of_the_spiral():
    state = started()
    assert [state["players"][n]["space"] for n in ("Ann", "Bo")] == [0, 0]
    assert state["last"] == 24 and len(state["cards"]["dungeon"]) == 25


def test_dungeon_6_2_roll_one_die_and_move_toward_the_centre():
    events, state = act(started(), "roll", values=(2,), cards=(SWORD,))
    assert events == [
        DieRolled(player="Ann", purpose="movement", sides=6, values=[2], draws=[0]),
        Moved(piece="Ann", board="dungeon", from_space=0, to_space=2, reason="roll"),
        CardDrawn(player="Ann", deck="dungeon", card=SWORD, draw=1),
        ObjectTaken(player="Ann", card=SWORD, space=2),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["objects"] == [SWORD] and SWORD not in state["piles"]["dungeon"]


def test_dungeon_6_3_move_follows_the_spiral_space_by_space():
    state = started()
    place(state, "Ann", 4)
    lay(state, 9, SWORD)
    events, state = act(state, "roll", values=(5,))
    assert of(events, Moved) == [Moved(piece="Ann", board="dungeon", from_space=4, to_space=9, reason="roll")]


def test_dungeon_6_4_no_backward_move_without_defeat_card_or_flight():
    state = started()
    place(state, "Ann", 8)
    lay(state, 12, SWORD)
    assert "toward the Treasure Chamber" in dungeon.legal_actions(state)[0].label
    events, _ = act(state, "roll", values=(4,))
    assert of(events, Moved)[0].to_space == 12


def test_dungeon_6_4_a_card_may_send_a_character_back():
    state = started()
    lay(state, 5, CAVE_IN)
    events, state = act(state, "roll", values=(5, 2))
    assert names(events) == [
        "DieRolled",
        "Moved",
        "CardEncountered",
        "DieRolled",
        "Moved",
        "CardDiscarded",
        "TurnEnded",
    ]
    assert of(events, Moved)[1] == Moved(
        piece="Ann", board="dungeon", from_space=5, to_space=3, reason="card"
    )
    assert state["cards"]["dungeon"][3] == [] and CAVE_IN in state["piles"]["discard:dungeon"]


# --- 7: encounters ------------------------------------------------------------------------------------------


def test_dungeon_7_1_draw_two_space_lays_two_cards_and_meets_them():
    events, state = act(started(), "roll", values=(3, 6, 1), cards=(SWORD, GOBLIN))
    assert [e.card for e in of(events, CardDrawn)] == [SWORD, GOBLIN]
    assert names(events)[4:] == [
        "CardEncountered",
        "DieRolled",
        "CombatResolved",
        "TrophyTaken",
        "ObjectTaken",
        "TurnEnded",
    ]
    assert state["cards"]["dungeon"][3] == []


def test_dungeon_12_5_ninja_may_not_evade_enemies_in_the_dungeon():
    state = started(("Ann", "ninja"), ("Bo", "troll"))
    lay(state, 4, GOBLIN)
    events, _ = act(state, "roll", values=(4, 6, 1))
    # The fight is resolved within the move itself: no action (such as an evade) is offered first.
    assert of(events, CombatResolved)[0].opponent == GOBLIN
    assert names(events)[-1] == "TurnEnded"


def test_dungeon_7_3_defeat_in_combat_marks_the_character_defeated_and_enemy_stays_face_up():
    state = started()
    lay(state, 4, OGRE)
    events, state = act(state, "roll", values=(4, 1, 6))
    assert of(events, CombatResolved)[0].outcome == "lost"
    assert of(events, LifeLost) == [LifeLost(player="Ann", amount=1, reason=OGRE)]
    assert state["players"]["Ann"]["defeated"] and state["cards"]["dungeon"][4] == [OGRE]


def test_dungeon_7_3_defeated_character_moves_back_next_turn():
    state = started()
    place(state, "Ann", 12)
    defeat(state, "Ann")
    lay(state, 10, SWORD)
    assert "move back" in dungeon.legal_actions(state)[0].label
    events, state = act(state, "roll", values=(2,))
    assert of(events, Moved) == [
        Moved(piece="Ann", board="dungeon", from_space=12, to_space=10, reason="retreat")
    ]
    assert not state["players"]["Ann"]["defeated"]
    turn_to(state, "Ann")
    lay(state, 13, HELMET)
    events, _ = act(state, "roll", values=(3,))
    assert of(events, Moved)[0].to_space == 13  # the next turn only: forward again


def test_dungeon_7_3_move_back_stops_on_the_entrance():
    state = started()
    place(state, "Ann", 3)
    defeat(state, "Ann")
    events, _ = act(state, "roll", values=(6,))
    assert of(events, Moved) == [
        Moved(piece="Ann", board="dungeon", from_space=3, to_space=0, reason="retreat")
    ]
    assert names(events)[-1] == "TurnEnded"


# --- 8.1, 14: winning ---------------------------------------------------------------------------------------


def test_dungeon_8_1_roll_past_treasure_chamber_stops_on_it():
    state = started()
    place(state, "Ann", 22)
    events, state = act(state, "roll", values=(5,))
    assert events[-2:] == [
        Moved(piece="Ann", board="dungeon", from_space=22, to_space=24, reason="roll"),
        GameWon(player="Ann", reason="reached the Treasure Chamber"),
    ]
    assert dungeon.status(state) == {"status": "finished", "winner": "Ann", "to_act": []}
    assert dungeon.legal_actions(state) == []


# --- 9: fleeing ---------------------------------------------------------------------------------------------


def test_dungeon_9_1_fleeing_only_after_leaving_the_entrance():
    state = started()
    assert "flee" not in ids(state)
    place(state, "Ann", 5)
    assert ids(state) == ["roll", "flee"]


def test_dungeon_9_1_fleeing_is_irrevocable_and_moves_toward_the_entrance():
    state = started()
    place(state, "Ann", 5)
    events, state = act(state, "flee")
    assert events == [FleeingDeclared(player="Ann")]
    assert ids(state) == ["roll"] and "flee" in dungeon.legal_actions(state)[0].label
    lay(state, 2, SWORD)
    events, state = act(state, "roll", values=(3,))
    assert of(events, Moved) == [
        Moved(piece="Ann", board="dungeon", from_space=5, to_space=2, reason="flight")
    ]
    turn_to(state, "Ann")
    assert ids(state) == ["roll"]
    events, state = act(state, "roll", values=(6,))
    assert events[1:] == [
        Moved(piece="Ann", board="dungeon", from_space=2, to_space=0, reason="flight"),
        PlayerOut(player="Ann", reason="fled the Dungeon"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["status"] == "out"


def test_dungeon_9_2_fleeing_continues_after_defeat():
    state = started()
    place(state, "Ann", 10)
    dungeon.evolve(state, FleeingDeclared(player="Ann"))
    lay(state, 8, OGRE)
    events, state = act(state, "roll", values=(2, 1, 6))
    assert state["players"]["Ann"]["defeated"] and state["players"]["Ann"]["fleeing"]
    turn_to(state, "Ann")
    lay(state, 5, SWORD)
    events, _ = act(state, "roll", values=(3,))
    assert of(events, Moved) == [
        Moved(piece="Ann", board="dungeon", from_space=8, to_space=5, reason="flight")
    ]


# --- 14: characters meeting ---------------------------------------------------------------------------------


def test_dungeon_14_no_encounters_between_characters_on_entrance():
    state = started()
    place(state, "Ann", 2)
    defeat(state, "Ann")
    events, state = act(state, "roll", values=(4,))
    assert state["players"]["Bo"]["space"] == 0 and names(events)[-1] == "TurnEnded"


def test_dungeon_14_landing_on_other_characters_offers_a_choice():
    state = started()
    place(state, "Bo", 5)
    lay(state, 5, SWORD)
    events, state = act(state, "roll", values=(5,))
    assert names(events) == ["DieRolled", "Moved"]
    assert ids(state) == ["encounter-space", "attack:Bo"] and ids(state, "Bo") == []
    assert dungeon.status(state)["to_act"] == ["Ann"]
    events, _ = act(state, "encounter-space")
    assert names(events) == ["ObjectTaken", "TurnEnded"]


def test_character_combat_loser_loses_a_life_and_counts_as_defeated():
    state = started()
    place(state, "Bo", 5)
    place(state, "Ann", 5)
    dungeon.evolve(state, DieRolled(player="Ann", purpose="movement", sides=6, values=[5], draws=[0]))
    events, state = act(state, "attack:Bo", values=(6, 1))  # Warrior 4+6=10 against Troll 6+1=7
    assert events == [
        DieRolled(player="Ann", purpose="combat", sides=6, values=[6, 1], draws=[0, 1]),
        CombatResolved(
            player="Ann", opponent="Bo", kind="combat", player_total=10, opponent_total=7, outcome="won"
        ),
        LifeLost(player="Bo", amount=1, reason="Ann"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Bo"]["defeated"] and state["players"]["Bo"]["lives"] == 3
    assert "move back" in dungeon.legal_actions(state)[0].label


def test_character_combat_armour_saves_the_loser():
    state = started()
    place(state, "Bo", 5)
    place(state, "Ann", 5)
    carry(state, "Ann", ARMOUR)
    dungeon.evolve(state, DieRolled(player="Ann", purpose="movement", sides=6, values=[5], draws=[0]))
    events, state = act(state, "attack:Bo", values=(1, 6, 4))
    assert of(events, LifeSaved) == [LifeSaved(player="Ann", item=ARMOUR)] and not of(events, LifeLost)
    assert state["players"]["Ann"]["defeated"]  # saved or not, a lost combat is a defeat


# --- Guard Room ---------------------------------------------------------------------------------------------


def test_guard_room_guard_strength_4_must_be_fought_and_a_loss_is_a_defeat():
    state = started()
    place(state, "Ann", 2)
    place(state, "Bo", 6)
    events, state = act(state, "roll", values=(4, 1, 6))
    assert of(events, CombatResolved) == [
        CombatResolved(
            player="Ann",
            opponent="dungeon/guard",
            kind="combat",
            player_total=5,
            opponent_total=10,
            outcome="lost",
        )
    ]
    assert not of(events, CardDrawn) and state["players"]["Ann"]["defeated"]
    assert names(events)[-1] == "TurnEnded"  # no choice to attack Bo instead


def test_guard_room_beaten_guard_gives_no_trophy():
    state = started()
    place(state, "Ann", 2)
    events, state = act(state, "roll", values=(4, 6, 1))
    assert of(events, CombatResolved)[0].outcome == "won" and not of(events, TrophyTaken)
    assert state["players"]["Ann"]["trophies"] == []


# --- combat, psychic combat, armour, trophies (house rules H1)
# -------------------------------------------------


def test_combat_monster_beaten_becomes_a_trophy_and_leaves_the_space():
    state = started()
    lay(state, 4, GOBLIN)
    events, state = act(state, "roll", values=(4, 3, 1))
    assert of(events, CombatResolved)[0] == CombatResolved(
        player="Ann", opponent=GOBLIN, kind="combat", player_total=7, opponent_total=3, outcome="won"
    )
    assert of(events, TrophyTaken) == [
        TrophyTaken(player="Ann", card=GOBLIN, space=4, kind="monster", value=2)
    ]
    assert state["cards"]["dungeon"][4] == [] and state["players"]["Ann"]["trophies"] == [GOBLIN]


def test_combat_sword_adds_one_strength():
    state = started()
    carry(state, "Ann", SWORD)
    lay(state, 4, OGRE)
    events, _ = act(state, "roll", values=(4, 3, 4))  # 4+1+3=8 against 4+4=8: stand-off
    assert (
        of(events, CombatResolved)[0].player_total == 8
        and of(events, CombatResolved)[0].outcome == "standoff"
    )


def test_psychic_combat_uses_craft_and_no_object_saves_a_life():
    state = started()
    carry(state, "Ann", ARMOUR)
    lay(state, 4, SPECTRE)
    events, state = act(state, "roll", values=(4, 1, 5))  # Craft 3+1=4 against 4+5=9; no armour roll
    assert of(events, CombatResolved)[0].kind == "psychic"
    assert of(events, DieRolled)[1].purpose == "psychic-combat"
    assert of(events, LifeLost) == [LifeLost(player="Ann", amount=1, reason=SPECTRE)] and not of(
        events, LifeSaved
    )


@pytest.mark.parametrize(
    ("items", "face", "saved"),
    [
        ((ARMOUR,), 4, True),
        ((ARMOUR,), 3, False),
        ((SHIELD,), 4, False),
        ((SHIELD,), 5, True),
        ((HELMET,), 5, False),
        ((HELMET,), 6, True),
        ((HELMET, ARMOUR), 4, True),
    ],
)
def test_armour_saves_armour_4_shield_5_helmet_6_one_roll_with_the_best(items, face, saved):
    state = started()
    carry(state, "Ann", *items)
    lay(state, 4, OGRE)
    events, state = act(state, "roll", values=(4, 1, 6, face))
    assert [e.purpose for e in of(events, DieRolled)] == ["movement", "combat", "armour"]
    assert bool(of(events, LifeSaved)) is saved and bool(of(events, LifeLost)) is not saved
    assert state["players"]["Ann"]["lives"] == (4 if saved else 3)


def test_trophies_7_monster_strength_trade_for_one_strength():
    state = started()
    state["piles"]["dungeon"].remove(MINOTAUR)
    state["players"]["Ann"]["trophies"].append(MINOTAUR)
    lay(state, 4, GOBLIN)
    events, state = act(state, "roll", values=(4, 6, 1))
    assert of(events, TrophiesTraded) == [
        TrophiesTraded(player="Ann", cards=[MINOTAUR, GOBLIN], stat="strength", amount=1)
    ]
    sheet = state["players"]["Ann"]
    assert (
        sheet["strength"] == 5
        and sheet["trophies"] == []
        and {MINOTAUR, GOBLIN} <= set(state["piles"]["discard:dungeon"])
    )


def test_trophies_7_spirit_craft_trade_for_one_craft():
    state = started()
    state["piles"]["dungeon"].remove(GHOST)
    state["players"]["Ann"]["trophies"].append(GHOST)
    lay(state, 4, SPECTRE)
    events, state = act(state, "roll", values=(4, 6, 1))  # Craft 3+6=9 against 4+1=5
    assert of(events, TrophiesTraded)[0].stat == "craft" and state["players"]["Ann"]["craft"] == 4


def test_trophies_below_7_points_are_kept():
    state = started()
    lay(state, 4, GOBLIN)
    events, _ = act(state, "roll", values=(4, 6, 1))
    assert not of(events, TrophiesTraded)


# --- encounter order, face-up cards, objects and followers --------------------------------------------------


def test_encounter_order_event_enemy_stranger_object():
    state = started()
    lay(state, 4, SWORD, GOBLIN, HEALER, FOUL_AIR)
    events, state = act(state, "roll", values=(4, 3, 6, 1, 1))
    met = [e.card for e in events if isinstance(e, CardEncountered | ObjectTaken)]
    assert met == [FOUL_AIR, GOBLIN, HEALER, SWORD]
    assert state["cards"]["dungeon"][4] == [HEALER]  # the Event is discarded, the Stranger stays


def test_objects_and_followers_are_taken_only_after_every_enemy_is_beaten():
    state = started()
    lay(state, 4, SWORD, OGRE, MERCENARY)
    events, state = act(state, "roll", values=(4, 1, 6))
    assert not of(events, ObjectTaken) and not of(events, FollowerJoined)
    assert state["cards"]["dungeon"][4] == [SWORD, OGRE, MERCENARY]


def test_stand_off_leaves_the_enemy_and_the_next_enemy_is_fought():
    state = started()
    lay(state, 4, OGRE, GOBLIN, SWORD)
    events, state = act(state, "roll", values=(4, 3, 3, 6, 1))
    assert [e.outcome for e in of(events, CombatResolved)] == ["standoff", "won"]
    assert not of(events, ObjectTaken) and state["cards"]["dungeon"][4] == [OGRE, SWORD]


def test_followers_join_once_enemies_are_beaten():
    state = started()
    lay(state, 4, MERCENARY, GOBLIN)
    events, state = act(state, "roll", values=(4, 6, 1))
    assert of(events, FollowerJoined) == [FollowerJoined(player="Ann", card=MERCENARY, space=4)]
    assert state["players"]["Ann"]["followers"] == [MERCENARY]


def test_enemies_stay_face_up_and_are_met_instead_of_drawing():
    state = started()
    lay(state, 4, OGRE)
    turn_to(state, "Bo")
    events, _ = act(state, "roll", values=(4, 6, 1))
    assert not of(events, CardDrawn) and of(events, CardEncountered)[0].card == OGRE


def test_carrying_limit_4_objects_excess_stays_on_the_space():
    state = started()
    carry(state, "Ann", SWORD, ARMOUR, SHIELD, HELMET)
    lay(state, 4, RUNE_SWORD)
    events, state = act(state, "roll", values=(4,))
    assert not of(events, ObjectTaken) and state["cards"]["dungeon"][4] == [RUNE_SWORD]


# --- lives, out, turn order ---------------------------------------------------------------------------------


def test_zero_lives_kills_the_character_and_its_belongings_stay_on_the_space():
    state = started()
    carry(state, "Ann", SWORD, MERCENARY)
    state["players"]["Ann"]["lives"] = 1
    lay(state, 4, BRONZE_DRAGON)
    events, state = act(state, "roll", values=(4, 1, 6))
    assert events[-3:] == [
        LifeLost(player="Ann", amount=1, reason=BRONZE_DRAGON),
        PlayerOut(player="Ann", reason="killed"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert (
        state["cards"]["dungeon"][4] == [BRONZE_DRAGON, SWORD, MERCENARY] and state["gold"]["dungeon"][4] == 1
    )
    assert state["players"]["Ann"]["status"] == "out"
    events, state = act(state, "roll", values=(4, 6, 1))  # Bo: Troll 6+6 beats the Dragon 6+1
    assert [type(e) for e in events[-4:]] == [ObjectTaken, FollowerJoined, GoldTaken, TurnEnded]
    assert state["players"]["Bo"]["gold"] == 2 and state["gold"]["dungeon"][4] == 0
    assert ids(state, "Bo") == ["roll", "flee"]  # Ann is skipped


def test_everyone_out_ends_the_game_with_no_winner():
    state = started()
    dungeon.evolve(state, PlayerOut(player="Bo", reason="fled the Dungeon"))
    state["players"]["Ann"]["lives"] = 1
    lay(state, 4, BRONZE_DRAGON)
    events, state = act(state, "roll", values=(4, 1, 6))
    assert events[-2:] == [
        PlayerOut(player="Ann", reason="killed"),
        GameEnded(winner="", reason="every character is out"),
    ]
    assert dungeon.status(state) == {"status": "finished", "winner": "", "to_act": []}


def test_turn_order_is_seating_order_skipping_players_who_are_out():
    state = started(("Ann", "warrior"), ("Bo", "troll"), ("Cy", "wizard"))
    dungeon.evolve(state, PlayerOut(player="Bo", reason="fled the Dungeon"))
    lay(state, 1, SWORD)
    events, _ = act(state, "roll", values=(1,))
    assert events[-1] == TurnEnded(player="Ann", next_player="Cy")


def test_a_lost_turn_is_skipped_when_it_comes_round():
    state = started()
    lay(state, 4, FOUL_AIR)
    events, state = act(state, "roll", values=(4, 1))
    assert of(events, TurnLost) == [TurnLost(player="Ann", reason=FOUL_AIR)]
    lay(state, 2, SWORD)
    events, state = act(state, "roll", values=(2,))
    assert events[-3:] == [
        TurnEnded(player="Bo", next_player="Ann"),
        TurnSkipped(player="Ann"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["turn"] == "Bo" and state["players"]["Ann"]["skips"] == 0


# --- deck ---------------------------------------------------------------------------------------------------


def test_tunnel_is_removed_from_the_deck_in_the_short_game():
    state = started()
    assert (
        TUNNEL not in state["piles"]["dungeon"]
        and len(state["piles"]["dungeon"]) == 35
        and state["piles"]["dungeon"] == sorted(state["piles"]["dungeon"])
    )


def test_empty_deck_takes_back_the_discard_pile():
    state = started()
    state["piles"]["discard:dungeon"], state["piles"]["dungeon"] = [SWORD], []
    events, state = act(state, "roll", values=(1,), cards=(SWORD,))
    assert events[2:4] == [
        DeckReshuffled(deck="dungeon", count=1, cards=[SWORD]),
        CardDrawn(player="Ann", deck="dungeon", card=SWORD, draw=1),
    ]
    assert state["piles"]["discard:dungeon"] == [] and state["piles"]["dungeon"] == []


def test_cards_are_drawn_among_the_cards_left_in_sorted_order():
    state = started()
    events, _ = act(state, "roll", values=(1,))  # scripted dice pick the first option when none is scripted
    assert of(events, CardDrawn)[0].card == sorted(state["piles"]["dungeon"])[0]


def test_lives_never_fall_below_zero_when_a_card_takes_more_than_are_left():
    from domain.resolution import Resolution
    from domain.rulesets.talisman.effects import lose_lives

    state = started()
    place(state, "Ann", 5)
    dungeon.evolve(state, LifeLost(player="Ann", amount=3, reason="given"))
    res = Resolution(state, ScriptedDice(), dungeon.evolve)
    lose_lives(res, "Ann", 2, "a replaced deck's harsh card")
    assert of(res.events, LifeLost) == [
        LifeLost(player="Ann", amount=1, reason="a replaced deck's harsh card")
    ]
    assert res.state["players"]["Ann"]["lives"] == 0
    assert res.state["players"]["Ann"]["status"] == "out"


def test_decide_refuses_a_player_without_a_seat():
    state = started()
    with pytest.raises(IllegalAction):
        dungeon.decide(state, "roll", "Zed", ScriptedDice([3]))
