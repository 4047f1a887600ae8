"""Inside the Dungeon in a main-board game (Dungeon 6, 7, 9; house rules H2): the short game's spiral and
encounters, fights and kills by the main board's rules, each rule with scripted dice and picks."""

from __future__ import annotations

from domain.events import CardDrawn, CombatResolved, LifeLost, Moved, PlayerOut
from domain.rulesets.talisman.events import FleeingDeclared, ObjectTaken, TrophyTaken
from domain.rulesets.talisman.main.events import CharacterDied, CharacterRestarted
from tests.decider_helpers import names, of
from tests.main_helpers import ANN, BO, act, new_game, put

DUNGEON = {"dungeon": "true"}
RAT, OGRE = "dungeon/card/giant-rat", "dungeon/card/ogre"  # Strength 1 and 4
DUNGEON_SWORD = "dungeon/card/sword"
SWORD = "talisman/purchase/sword"
GUARD_ROOM, CHAMBER = 6, 24


def inside(space, player=ANN, **sheet):
    """Returns a Dungeon game with the player on a Dungeon space, on its turn, before moving."""
    game, state = new_game(DUNGEON)
    put(state, player, "dungeon", space, **sheet)
    state.update(turn=player, step="start")
    return game, state


def test_a_roll_moves_toward_the_treasure_chamber_and_meets_the_space_reached():
    """Dungeon 6.2, 7.1: one die toward the centre; the space reached draws its Dungeon card and is met."""
    game, state = inside(1)
    events, after = act(game, state, "roll", values=[3], cards=[DUNGEON_SWORD])
    (moved,) = of(events, Moved)
    assert (moved.board, moved.from_space, moved.to_space) == ("dungeon", 1, 4)
    assert of(events, CardDrawn)[0].deck == "dungeon"
    assert of(events, ObjectTaken)[0].card == DUNGEON_SWORD
    assert after["players"][ANN]["objects"] == [DUNGEON_SWORD]
    assert names(events)[-1] == "TurnEnded"


def test_a_roll_past_the_treasure_chamber_stops_on_it():
    """Dungeon 8.1: the move ends on the Treasure Chamber."""
    game, state = inside(22)
    events, after = act(game, state, "roll", values=[6])
    assert of(events, Moved)[0].to_space == CHAMBER
    assert after["players"][ANN]["space"] == CHAMBER and after["turn"] == BO


def test_a_dungeon_enemy_is_fought_with_the_main_boards_items():
    """Dungeon 7.1: encounters in the Dungeon are as on the main board (a Purchase Sword adds 1)."""
    game, state = inside(1, objects=[SWORD])
    events, after = act(game, state, "roll", values=[3, 3, 2], cards=[RAT])
    (combat,) = of(events, CombatResolved)
    assert (combat.player_total, combat.opponent_total, combat.outcome) == (4 + 1 + 3, 1 + 2, "won")
    assert of(events, TrophyTaken)[0].card == RAT
    assert RAT in after["players"][ANN]["trophies"]


def test_a_character_defeated_in_combat_moves_back_on_its_next_turn():
    """Dungeon 7.3, 6.4: defeated in Combat, the character rolls and moves toward the Entrance next turn."""
    game, state = inside(1)
    events, after = act(game, state, "roll", values=[3, 1, 6], cards=[OGRE])
    assert of(events, CombatResolved)[0].outcome == "lost" and of(events, LifeLost)
    assert after["players"][ANN]["defeated"] is True
    after.update(turn=ANN)
    (roll,) = [a for a in game.legal_actions(after, ANN) if a.id == "roll"]
    assert "back" in roll.label
    events, later = act(game, after, "roll", values=[2], cards=[DUNGEON_SWORD])
    assert of(events, Moved)[0].to_space == 2
    assert later["players"][ANN]["defeated"] is False  # the next turn only


def test_moving_back_stops_on_the_entrance():
    """Dungeon 7.3: the move back stops on the Entrance itself (which is not met)."""
    game, state = inside(2, defeated=True)
    events, after = act(game, state, "roll", values=[5])
    assert of(events, Moved)[0].to_space == 0
    assert not of(events, CardDrawn) and after["turn"] == BO


def test_the_guard_room_guard_is_fought_by_whoever_lands_there():
    """house rule H2.3: landing on the Guard Room fights the Guard (Strength 4); it draws no card."""
    game, state = inside(3)
    events, _ = act(game, state, "roll", values=[3, 4, 1])
    (combat,) = of(events, CombatResolved)
    assert combat.opponent == "dungeon/guard" and combat.opponent_total == 4 + 1
    assert not of(events, CardDrawn) and not of(events, TrophyTaken)


def test_fleeing_is_declared_after_leaving_the_entrance_and_turns_every_move_back():
    """Dungeon 9.1: fleeing may be declared once off the Entrance; it is irrevocable and all moves go back."""
    game, state = inside(0)
    assert "flee" not in [a.id for a in game.legal_actions(state, ANN)]
    state["players"][ANN].update(space=10)
    events, after = act(game, state, "flee")
    assert of(events, FleeingDeclared) and after["turn"] == ANN  # the roll follows
    ids = [a.id for a in game.legal_actions(after, ANN)]
    assert "flee" not in ids and "roll" in ids
    events, _ = act(game, after, "roll", values=[3], cards=[DUNGEON_SWORD])
    assert of(events, Moved)[0].to_space == 7


def test_a_character_defeated_while_fleeing_still_flees_toward_the_entrance():
    """Dungeon 9.2: a defeat while fleeing changes nothing: the next move still goes toward the Entrance."""
    game, state = inside(12, fleeing=True)
    events, after = act(game, state, "roll", values=[2, 1, 6], cards=[OGRE])
    assert of(events, Moved)[0].to_space == 10 and of(events, CombatResolved)[0].outcome == "lost"
    after.update(turn=ANN)
    events, later = act(game, after, "roll", values=[1], cards=[DUNGEON_SWORD, "dungeon/card/sage"])
    assert of(events, Moved)[0].to_space == 9
    assert later["players"][ANN]["fleeing"] is True


def test_a_fleeing_character_that_reaches_the_entrance_stays_in_the_game_and_leaves_next_turn():
    """Dungeon 9.1: once on the Entrance a fleeing character leaves as 8.2 says (no longer out of a race)."""
    game, state = inside(3, fleeing=True)
    state["cards"]["outer"][3] = ["talisman/card/doorway-1"]
    events, after = act(game, state, "roll", values=[5])
    assert of(events, Moved)[0].to_space == 0 and not of(events, PlayerOut)
    after.update(turn=ANN)
    assert [a.id for a in game.legal_actions(after, ANN)] == ["dungeon:door:outer:3"]


def test_a_character_killed_in_the_dungeon_dies_by_the_main_boards_rule_and_leaves_its_things_there():
    """House rules H1.7, H5.17: killed in the Dungeon, its things stay on its space; a new one starts."""
    game, state = inside(1, lives=1, objects=[SWORD], gold=3)
    events, after = act(game, state, "roll", values=[3, 1, 6], cards=[OGRE, "talisman/character/elf"])
    (died,) = of(events, CharacterDied)
    assert (died.board, died.space) == ("dungeon", 4)
    assert of(events, CharacterRestarted)
    assert after["players"][ANN]["board"] != "dungeon"
    assert SWORD in after["cards"]["dungeon"][4] and after["gold"]["dungeon"][4] == 3


def test_another_character_takes_up_what_a_killed_one_left_once_no_enemy_is_left():
    """house rule H1.7: what a killed character left on a Dungeon space is taken by whoever meets it clear."""
    game, state = inside(1)
    state["cards"]["dungeon"][4] = [SWORD]
    events, after = act(game, state, "roll", values=[3])
    assert [e.card for e in of(events, ObjectTaken)] == [SWORD]
    assert after["players"][ANN]["objects"] == [SWORD] and after["cards"]["dungeon"][4] == []


def test_landing_where_another_character_stands_offers_the_space_or_an_attack():
    """Dungeon 7.1, house rule H5.16: as on the main board, meet the space or attack a character there."""
    game, state = inside(1)
    put(state, BO, "dungeon", 4)
    events, after = act(game, state, "roll", values=[3])
    assert after["turn"] == ANN and not of(events, CardDrawn)
    ids = [a.id for a in game.legal_actions(after, ANN)]
    assert ids == ["dungeon:space", "attack:Bo"]
    events, _ = act(game, after, "attack:Bo", values=[6, 1])
    assert of(events, CombatResolved)[0].outcome == "won"


def test_no_character_encounter_on_the_entrance_or_the_guard_room():
    """House rule H2.13 (as Dungeon 14): the Entrance and the Guard Room give no choice of encounter."""
    game, state = inside(3)
    put(state, BO, "dungeon", GUARD_ROOM)
    events, after = act(game, state, "roll", values=[3, 6, 1])
    assert of(events, CombatResolved)[0].opponent == "dungeon/guard" and after["turn"] == BO
