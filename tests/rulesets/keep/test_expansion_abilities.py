"""The main board's landing abilities on a Keep space in a main-board game (Keep 7.2, 11.1, 13; H5.15):
the Keep runs the main board's landing steps, so passing a space, evading its enemies and drawing extra
Keep cards work there as on the main board, and the Sacred Obelisk's barrier still holds. Scripted dice and
picks; each test lands Ann by a movement roll of 1 (one space, Keep 5.2)."""

from __future__ import annotations

from typing import Any

from domain.events import CardDrawn, CombatResolved
from domain.rulesets.keep.events import ObeliskTested, TeleportCounterDrawn, Teleported
from domain.rulesets.talisman.events import CardDiscarded, ObjectTaken
from domain.rulesets.talisman.main.events_abilities import AbilityUsed, EffectSpent, EnemyEvaded
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import names, of
from tests.main_helpers import ANN, BO, act, new_game, put

KEEP = {"keep": "true"}
WARRIOR, BAT = "keep/card/vampire-warrior-1", "keep/card/vampire-bat-1"  # Strength 4 and 2
SWORD, TILE = "keep/card/sword", "keep/card/teleport-tile-1"
HEALING = "talisman/spell/healing"  # held, so no Spell is taken at the start of the turn
HALLWAY, BONE_GALLERY, OBELISK = 6, 5, 19  # a hall drawing 1 card, one drawing 2, the Sacred Obelisk


def inside(character: str, space: int = HALLWAY - 1, **sheet: Any) -> tuple[TalismanGame, dict[str, Any]]:
    """Returns a Keep game with Ann (that character, its abilities working) inside the Keep on `space`, on
    her turn before moving, holding a Spell; Bo (the Warrior) waits on the main board."""
    game, state = new_game(KEEP, characters=(character, "warrior"), abilities=True)
    state["piles"]["spells"].remove(HEALING)
    put(state, ANN, "keep", space, entered=True, keep_from=["outer", 1], spells=[HEALING], **sheet)
    put(state, BO, "outer", 5)
    state.update(turn=ANN, step="start")
    return game, state


def choices(game: TalismanGame, state: dict[str, Any]) -> list[str]:
    """Returns the options of the choice waiting (the `choose:` action ids without their prefix)."""
    return [a.id.removeprefix("choose:") for a in game.legal_actions(state, ANN)]


def labels(game: TalismanGame, state: dict[str, Any]) -> list[str]:
    """Returns the labels of the actions open to Ann."""
    return [a.label for a in game.legal_actions(state, ANN)]


def test_keep_7_2_a_ninja_landing_on_a_keep_hall_may_evade_its_enemy():
    """Keep 7.2, 13: the Ninja's Shadow Step works in the Keep: after meeting the space is chosen, the hall's
    card is drawn and the Vampire Warrior offered to be evaded; evaded, it is not fought and stays face up."""
    game, state = inside("ninja")
    _, asked = act(game, state, "roll", values=[1])
    assert asked["choice"]["kind"] == "keep-meet" and choices(game, asked) == ["space", "pass"]
    events, offered = act(game, asked, "choose:space", cards=[WARRIOR])
    assert [e.deck for e in of(events, CardDrawn)] == ["keep"] and not of(events, CombatResolved)
    assert offered["choice"]["kind"] == "keep-landing:evade"
    assert labels(game, offered) == ["Evade the Vampire Warrior", "Fight"]
    events, after = act(game, offered, f"choose:{WARRIOR}")
    assert of(events, EnemyEvaded)[0].card == WARRIOR and not of(events, CombatResolved)
    assert after["cards"]["keep"][HALLWAY] == [WARRIOR] and after["turn"] == BO


def test_keep_7_2_a_ninja_that_chooses_to_fight_meets_the_keep_enemy():
    """Keep 7.1: choosing `fight` meets the space as on the main board: the Vampire Warrior is fought."""
    game, state = inside("ninja")
    _, asked = act(game, state, "roll", values=[1])
    _, offered = act(game, asked, "choose:space", cards=[WARRIOR])
    events, after = act(game, offered, "choose:fight", values=[6, 1])  # 6 + 3 against 1 + 4
    assert of(events, CombatResolved)[0].outcome == "won" and WARRIOR in after["players"][ANN]["trophies"]


def test_keep_7_2_a_ninja_may_pass_a_keep_space_unmet():
    """Keep 7.2, 13: the Ninja's Unseen works in the Keep: passing the space draws and meets nothing."""
    game, state = inside("ninja")
    _, asked = act(game, state, "roll", values=[1])
    assert labels(game, asked) == ["Meet the space", "Pass the space by"]
    events, after = act(game, asked, "choose:pass")
    assert of(events, AbilityUsed)[0].detail == "Hallway" and not of(events, CardDrawn)
    assert after["cards"]["keep"][HALLWAY] == [] and after["turn"] == BO


def test_keep_8_6_no_ability_passes_the_sacred_obelisk():
    """Keep 8.6 (house): the Obelisk's test is the way past its barrier, as the Sentinel's crossing on the
    main board: a Ninja landing on it is not offered to pass it by, and takes the test."""
    game, state = inside("ninja", space=OBELISK - 1)
    events, after = act(game, state, "roll", values=[1, 1, 1])
    assert of(events, ObeliskTested)[0].passed and after["choice"] is None


def test_keep_7_2_a_prophetess_draws_her_extra_keep_card_and_chooses_which_goes_back():
    """Keep 7.2, 13: the Prophetess's Foresight works in the Keep: a hall drawing 1 card draws 2, she
    discards one of them (as on the main board) and meets the other."""
    game, state = inside("prophetess")
    events, offered = act(game, state, "roll", values=[1], cards=[BAT, SWORD])
    assert [e.card for e in of(events, CardDrawn)] == [BAT, SWORD]
    assert offered["choice"]["kind"] == "keep-landing:draw:1" and choices(game, offered) == [SWORD, BAT]
    assert labels(game, offered) == [
        "Discard the Sword (Object: +1 Strength in combat)",
        "Discard the Vampire Bat (Monster, Strength 2)",
    ]
    events, after = act(game, offered, f"choose:{BAT}")
    assert of(events, CardDiscarded)[0].card == BAT and BAT in after["piles"]["discard:keep"]
    assert of(events, ObjectTaken)[0].card == SWORD and not of(events, CombatResolved)
    assert after["cards"]["keep"][HALLWAY] == [] and after["turn"] == BO


def test_keep_7_2_the_prophetess_keeps_as_many_cards_as_a_hall_drawing_two_draws():
    """Keep 7.2: on a hall drawing 2 cards she draws 3 and discards 1."""
    game, state = inside("prophetess", space=BONE_GALLERY - 1)
    _, offered = act(game, state, "roll", values=[1], cards=[BAT, SWORD, "keep/card/armour"])
    assert offered["choice"]["kind"] == "keep-landing:draw:1" and len(choices(game, offered)) == 3


def test_keep_6_1_a_teleport_tile_among_the_prophetess_cards_is_laid_and_not_sent_back():
    """Keep 6.1 (house): a Teleport Tile drawn among her cards is laid with its counter at once, so only
    the other card may go back; she keeps as many cards as the hall draws, the tile among them, met last."""
    game, state = inside("prophetess")
    events, offered = act(game, state, "roll", values=[1], cards=[TILE, BAT, "keep/counter/00"])
    assert of(events, TeleportCounterDrawn) and choices(game, offered) == [BAT]
    events, after = act(game, offered, f"choose:{BAT}")
    assert of(events, Teleported) and after["cards"]["keep"][HALLWAY] == [TILE]


def test_keep_7_2_the_martial_artist_evades_a_weak_keep_enemy_only():
    """Keep 7.2: Sidestep (Strength 3 or less) evades the Vampire Bat (2); the Vampire Warrior (4) is fought
    without a choice."""
    game, state = inside("martial-artist")
    _, offered = act(game, state, "roll", values=[1], cards=[BAT])
    assert choices(game, offered) == [BAT, "fight"]
    game, state = inside("martial-artist")
    events, after = act(game, state, "roll", values=[1, 6, 1], cards=[WARRIOR])
    assert of(events, CombatResolved) and after["choice"] is None


def test_keep_7_2_the_philosopher_sees_one_more_keep_card():
    """Keep 7.2: Contemplation (one more card seen than kept) works on the Keep deck as on the main board."""
    game, state = inside("philosopher")
    _, offered = act(game, state, "roll", values=[1], cards=[BAT, SWORD])
    assert offered["choice"]["kind"] == "keep-landing:draw:1" and choices(game, offered) == [SWORD, BAT]


def test_keep_11_1_a_readied_ward_keeps_a_keep_space_from_being_met():
    """Keep 11.1: Spells work in the Keep as on the main board: a Ward cast before moving keeps the space
    landed on from being met (nothing drawn), and is spent."""
    game, state = inside("warrior")
    ward = "talisman/spell/ward"
    state["piles"]["spells"].remove(ward)
    state["players"][ANN]["spells"].append(ward)
    _, cast = act(game, state, f"cast:{ward}")
    events, after = act(game, cast, "roll", values=[1])
    assert of(events, EffectSpent)[0].effect == "skip-encounter" and not of(events, CardDrawn)
    assert after["cards"]["keep"][HALLWAY] == [] and after["turn"] == BO


def test_keep_11_1_a_readied_divination_draws_one_more_keep_card():
    """Keep 11.1: a Divination readied before moving draws one more Keep card onto the hall and one goes
    back; its effect is then spent."""
    game, state = inside("warrior")
    divination = {"name": "Divination", "effect": "extra-card", "amount": 1, "when": "own-turn"}
    state["players"][ANN]["ready"] = [divination | {"lasting": False}]
    events, offered = act(game, state, "roll", values=[1], cards=[BAT, SWORD])
    assert [e.deck for e in of(events, CardDrawn)] == ["keep", "keep"]
    assert offered["choice"]["kind"] == "keep-landing:draw:1" and offered["players"][ANN]["ready"] == []


def test_keep_7_2_a_character_without_landing_abilities_meets_the_hall_as_before():
    """Keep 7.1: with no ability or Spell that the landing steps read, the hall draws its card and it is met
    at once (no choice)."""
    game, state = inside("warrior")
    events, after = act(game, state, "roll", values=[1], cards=[SWORD])
    assert of(events, ObjectTaken)[0].card == SWORD and after["choice"] is None
    assert names(events)[-1] == "TurnEnded"
