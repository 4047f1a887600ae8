"""Character against character on the main board (house rule H5.16): landing where others stand, the player
may attack one instead of meeting the space; the winner takes a life, an Object or 1 Gold (its choice)."""

from __future__ import annotations

from domain.events import CombatResolved, LifeLost
from domain.rulesets.talisman.events import ChoiceOffered, ObjectTaken
from domain.rulesets.talisman.main.events import CharacterDied, CharacterRestarted
from domain.rulesets.talisman.main.events_abilities import CharacterAttacked, SpoilsTaken
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, land, lay, new_game, put

FIELDS = 1
SWORD = "talisman/card/sword-1"
AXE = "talisman/purchase/axe"


def met() -> tuple:
    """Returns a game where Ann (the Warrior, plain rules) has landed on the Fields where Bo stands."""
    game, state = new_game()
    put(state, BO, "outer", FIELDS, gold=2, objects=[AXE])
    lay(state, "outer", FIELDS, SWORD)
    events, after = land(game, state, "outer", FIELDS)
    return game, events, after


def test_landing_where_a_character_stands_offers_to_attack_or_meet_the_space():
    game, events, after = met()
    assert of(events, ChoiceOffered)[0].options == ["space", "attack:Bo"] and not of(events, ObjectTaken)
    events, after = act(game, after, "choose:space")
    assert of(events, ObjectTaken)[0].card == SWORD and after["turn"] == BO


def test_the_winner_chooses_a_life_gold_or_an_object():
    game, _, after = met()
    events, after = act(game, after, "choose:attack:Bo", values=[4, 1])  # 4+4 against 4+1
    assert of(events, CharacterAttacked)[0].kind == "combat"
    assert after["choice"] == {"player": ANN, "kind": "spoils:Bo:combat", "options": ["life", "gold", AXE]}
    events, done = act(game, after, f"choose:{AXE}")
    assert of(events, SpoilsTaken)[0].spoils == AXE
    assert done["players"][ANN]["objects"] == [AXE] and done["players"][BO]["objects"] == []
    _, done = act(game, after, "choose:gold")
    assert (done["players"][ANN]["gold"], done["players"][BO]["gold"]) == (2, 1)
    events, done = act(game, after, "choose:life")
    assert of(events, LifeLost)[0].player == BO and done["players"][BO]["lives"] == 3
    assert done["turn"] == BO  # the attacker's turn is over


def test_the_one_attacked_wins_and_chooses_too():
    game, _, after = met()
    _, after = act(game, after, "choose:attack:Bo", values=[1, 6])
    assert after["choice"]["player"] == BO and after["choice"]["options"] == ["life", "gold"]
    events, done = act(game, after, "choose:life", player=BO)
    assert of(events, LifeLost)[0].player == ANN


def test_a_tie_between_characters_takes_nothing():
    game, _, after = met()
    # The Warrior 4+2 against the Wizard 2+1 (the Axe)+3.
    events, after = act(game, after, "choose:attack:Bo", values=[2, 3])
    assert of(events, CombatResolved)[0].outcome == "standoff" and after["choice"] is None


def test_an_object_is_offered_only_when_the_winner_can_carry_it():
    # house rule H1.9: at most 4 Objects.
    game, state = new_game()
    put(state, BO, "outer", FIELDS, objects=[AXE])
    put(state, ANN, "outer", 0, objects=[SWORD] * 4)
    _, after = land(game, state, "outer", FIELDS)
    _, after = act(game, after, "choose:attack:Bo", values=[4, 1])
    assert after["choice"]["options"] == ["life", "gold"]


def test_a_character_killed_by_the_spoils_starts_anew():
    # house rule H5.17: a killed character's player is dealt a new character.
    game, state = new_game()
    put(state, BO, "outer", FIELDS, lives=1, gold=0)
    lay(state, "outer", FIELDS, SWORD)
    _, after = land(game, state, "outer", FIELDS)
    _, after = act(game, after, "choose:attack:Bo", values=[4, 1])
    events, done = act(game, after, "choose:life", cards=["talisman/character/monk"])
    assert of(events, CharacterDied)[0].player == BO and of(events, CharacterRestarted)
    assert done["players"][BO]["character"] == "talisman/character/monk"


def test_nobody_out_of_the_game_is_met():
    game, state = new_game()
    put(state, BO, "outer", FIELDS, status="out")
    lay(state, "outer", FIELDS, SWORD)
    events, _ = land(game, state, "outer", FIELDS)
    assert not of(events, ChoiceOffered)


def test_a_warrior_attacked_defends_with_two_dice_and_an_assassin_leaves_it_none():
    # house rule H5.15: Weapon Master in every Combat, Assassinate's victim rolls no die (house).
    game, state = new_game(characters=("thief", "warrior"), abilities=True)
    put(state, BO, "outer", FIELDS, gold=0)
    lay(state, "outer", FIELDS, SWORD)
    _, after = land(game, state, "outer", FIELDS)
    events, _ = act(game, after, "choose:attack:Bo", values=[6, 1, 2])
    assert of(events, CombatResolved)[0].opponent_total == 4 + 1 + 2
    game, state = new_game(characters=("assassin", "warrior"), abilities=True)
    put(state, BO, "outer", FIELDS, gold=0)
    lay(state, "outer", FIELDS, SWORD)
    _, after = land(game, state, "outer", FIELDS)
    events, _ = act(game, after, "choose:attack:Bo", values=[1])
    assert of(events, CombatResolved)[0].opponent_total == 4 + 1  # Duellist's +1, no die
