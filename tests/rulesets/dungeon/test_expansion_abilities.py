"""The main board's landing abilities on a Dungeon space in a main-board game (Dungeon 7.1, 12.5, 12.8,
12.9): evading enemies and drawing extra cards from the Dungeon deck, each with scripted dice and picks."""

from __future__ import annotations

from domain.events import CardDrawn, CombatResolved
from domain.rulesets.talisman.events import CardDiscarded, ObjectTaken
from domain.rulesets.talisman.main.events_abilities import EnemyEvaded
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, new_game, put

DUNGEON = {"dungeon": "true"}
RAT, OGRE = "dungeon/card/giant-rat", "dungeon/card/ogre"  # Strength 1 and 4
DUNGEON_SWORD = "dungeon/card/sword"
HELMET, SWORD = "talisman/card/helmet", "talisman/card/sword-1"
HEALING = "talisman/spell/healing"  # held, so no Spell is taken at the start of the turn
DRAWS_ONE, DRAWS_TWO = 4, 3  # Dungeon spaces reached by a roll of 3 from 1, and of 2 from 1


def inside(character, space=1, **sheet):
    """Returns a Dungeon game with Ann (that character, its abilities working) on a Dungeon space, on its
    turn before moving, holding a Spell."""
    game, state = new_game(DUNGEON, characters=(character, "warrior"), abilities=True)
    state["piles"]["spells"].remove(HEALING)
    put(state, ANN, "dungeon", space, spells=[HEALING], **sheet)
    state.update(turn=ANN, step="start")
    return game, state


def choice_ids(game, state):
    """Returns the options of the choice waiting (the `choose:` action ids without their prefix)."""
    return [a.id.removeprefix("choose:") for a in game.legal_actions(state, ANN)]


def test_an_evading_character_evades_a_dungeon_enemy_which_stays_face_up():
    """Dungeon 7.1: the Martial Artist's Sidestep (Strength 3 or less) works on a Dungeon enemy as on the
    main board: offered before the fight, the evaded Giant Rat is not fought and stays on its space."""
    game, state = inside("martial-artist")
    events, offered = act(game, state, "roll", values=[3], cards=[RAT])
    assert of(events, CardDrawn)[0].deck == "dungeon" and not of(events, CombatResolved)
    assert offered["choice"]["kind"] == "dungeon-landing:evade"
    assert choice_ids(game, offered) == [RAT, "fight"]
    (label,) = [a.label for a in game.legal_actions(offered, ANN) if a.id == f"choose:{RAT}"]
    assert label == "Evade the Giant Rat"
    events, after = act(game, offered, f"choose:{RAT}")
    assert [e.card for e in of(events, EnemyEvaded)] == [RAT] and not of(events, CombatResolved)
    assert after["cards"]["dungeon"][DRAWS_ONE] == [RAT]
    assert after["turn"] == BO and after["players"][ANN]["evaded"] == []  # for this turn only


def test_an_evaded_dungeon_enemy_does_not_stop_the_object_beside_it_being_taken():
    """Dungeon 7.1, house rule H1.8: Objects are taken once every enemy there is defeated or evaded."""
    game, state = inside("martial-artist")
    _, offered = act(game, state, "roll", values=[2], cards=[RAT, DUNGEON_SWORD])
    events, after = act(game, offered, f"choose:{RAT}")
    assert of(events, ObjectTaken)[0].card == DUNGEON_SWORD
    assert after["cards"]["dungeon"][DRAWS_TWO] == [RAT]
    assert DUNGEON_SWORD in after["players"][ANN]["objects"]


def test_choosing_to_fight_meets_the_dungeon_enemy():
    """Dungeon 7.1: the evasion is the player's choice; `fight` meets the enemy as usual."""
    game, state = inside("martial-artist")
    _, offered = act(game, state, "roll", values=[3], cards=[RAT])
    events, after = act(game, offered, "choose:fight", values=[4, 1])
    assert of(events, CombatResolved)[0].outcome == "won" and not of(events, EnemyEvaded)
    assert RAT in after["players"][ANN]["trophies"] and after["turn"] == BO


def test_a_dungeon_enemy_beyond_the_ability_is_fought_without_a_choice():
    """Dungeon 7.1: Sidestep evades Strength 3 or less, so the Ogre (4) is fought at once."""
    game, state = inside("martial-artist")
    events, after = act(game, state, "roll", values=[3, 6, 1], cards=[OGRE])
    assert of(events, CombatResolved)[0].outcome == "won"
    assert after["choice"] is None and after["turn"] == BO


def test_the_ninja_may_not_evade_a_dungeon_enemy():
    """Dungeon 12.5: in the Dungeon the Ninja is offered no evasion and fights the Giant Rat."""
    game, state = inside("ninja")
    events, after = act(game, state, "roll", values=[3, 4, 1], cards=[RAT])
    assert not of(events, EnemyEvaded) and of(events, CombatResolved)[0].opponent == RAT
    assert after["choice"] is None and after["turn"] == BO


def test_the_philosopher_sees_exactly_one_more_dungeon_card():
    """Dungeon 12.8: on a space drawing one Dungeon card the Philosopher draws two from the Dungeon deck,
    discards one, and meets the other."""
    game, state = inside("philosopher")
    events, offered = act(game, state, "roll", values=[3], cards=[OGRE, DUNGEON_SWORD])
    drawn = [(e.deck, e.card) for e in of(events, CardDrawn)]
    assert drawn == [("dungeon", OGRE), ("dungeon", DUNGEON_SWORD)]
    assert offered["choice"]["kind"] == "dungeon-landing:draw:1"
    assert choice_ids(game, offered) == sorted([OGRE, DUNGEON_SWORD])
    events, after = act(game, offered, f"choose:{OGRE}")
    assert of(events, CardDiscarded)[0].card == OGRE and not of(events, CombatResolved)
    assert of(events, ObjectTaken)[0].card == DUNGEON_SWORD
    assert OGRE in after["piles"]["discard:dungeon"] and after["cards"]["dungeon"][DRAWS_ONE] == []
    assert after["turn"] == BO


def test_the_philosophers_one_more_card_is_one_on_a_space_drawing_two():
    """Dungeon 12.8: only the next card: three drawn where two are, one of them discarded."""
    game, state = inside("philosopher")
    events, offered = act(game, state, "roll", values=[2], cards=[RAT, OGRE, DUNGEON_SWORD])
    assert len(of(events, CardDrawn)) == 3 and offered["choice"]["kind"] == "dungeon-landing:draw:1"
    events, after = act(game, offered, f"choose:{OGRE}", values=[5, 1])
    assert of(events, CombatResolved)[0].opponent == RAT
    assert after["cards"]["dungeon"][DRAWS_TWO] == [] and DUNGEON_SWORD in after["players"][ANN]["objects"]


def test_a_space_holding_cards_draws_none_so_the_philosopher_sees_none():
    """Dungeon 12.8: no Dungeon card is about to be drawn on a space already holding one: nothing to see."""
    game, state = inside("philosopher")
    state["piles"]["dungeon"].remove(DUNGEON_SWORD)
    state["cards"]["dungeon"][DRAWS_ONE] = [DUNGEON_SWORD]
    events, after = act(game, state, "roll", values=[3])
    assert not of(events, CardDrawn) and of(events, ObjectTaken)[0].card == DUNGEON_SWORD
    assert after["turn"] == BO


def test_the_prophetess_draws_no_extra_dungeon_card():
    """Dungeon 12.9: the Prophetess's Foresight gives no extra Dungeon card: one drawn, met, no choice."""
    game, state = inside("prophetess")
    events, after = act(game, state, "roll", values=[3], cards=[DUNGEON_SWORD])
    assert [e.card for e in of(events, CardDrawn)] == [DUNGEON_SWORD]
    assert of(events, ObjectTaken)[0].card == DUNGEON_SWORD
    assert after["choice"] is None and after["turn"] == BO


def test_the_prophetess_still_draws_an_extra_adventure_card_on_the_main_board():
    """Dungeon 12.9: the limit is the Dungeon's: on the main board Foresight draws one more Adventure card."""
    game, state = new_game(DUNGEON, characters=("prophetess", "warrior"), abilities=True)
    fields = 1  # the Outer Region's first Fields draws one card
    state["players"][ANN].update(board="outer", space=0)
    state.update(turn=ANN, step="rolled", rolled=1)
    _, offered = act(game, state, f"go:outer:{fields}", cards=[HELMET, SWORD])
    assert offered["choice"]["kind"] == "landing:draw:1"
    assert choice_ids(game, offered) == [HELMET, SWORD]


def test_a_readied_divination_draws_one_more_dungeon_card():
    """Dungeon 10.1: Divination works on Dungeon cards: cast before the move, one more Dungeon card is
    drawn onto the space reached and one discarded; the Spell's effect is then spent."""
    game, state = inside("warrior")
    divination = {"name": "Divination", "effect": "extra-card", "amount": 1, "when": "own-turn"}
    state["players"][ANN]["ready"] = [divination | {"lasting": False}]
    events, offered = act(game, state, "roll", values=[3], cards=[RAT, DUNGEON_SWORD])
    assert [e.deck for e in of(events, CardDrawn)] == ["dungeon", "dungeon"]
    assert offered["choice"]["kind"] == "dungeon-landing:draw:1" and offered["players"][ANN]["ready"] == []
    events, after = act(game, offered, f"choose:{RAT}")
    assert of(events, ObjectTaken)[0].card == DUNGEON_SWORD and RAT in after["piles"]["discard:dungeon"]
