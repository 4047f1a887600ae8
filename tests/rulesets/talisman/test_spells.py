"""Spells on the main board (house rules H1.2, H5.14; spells.toml, house): held up to the Craft limit, cast
when their `when` fits, one test per kind of effect, discarded once cast, answered by Counterspell."""

from __future__ import annotations

from typing import Any

from domain.events import CombatResolved, DieRolled, LifeGained, LifeLost, Moved
from domain.rulesets.talisman.character import spell_limit
from domain.rulesets.talisman.events import (
    CardDiscarded,
    ChoiceOffered,
    GoldChanged,
    LifeSaved,
    TrophyTaken,
    TurnLost,
)
from domain.rulesets.talisman.main.events import AlignmentChanged
from domain.rulesets.talisman.main.events_abilities import (
    EffectReadied,
    EffectSpent,
    EnemyDestroyed,
    GoldStolen,
    SpellCountered,
    SpellInvoked,
    SpellTaken,
)
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, land, lay, new_game, put

GOBLIN = "talisman/card/goblin-1"  # Strength 3
OGRE = "talisman/card/ogre-1"  # Strength 5
SHADOW = "talisman/card/shadow-1"  # Craft 2
SWORD = "talisman/card/sword-1"
FIELDS = 1


def spell(slug: str) -> str:
    """Returns a Spell's id."""
    return f"talisman/spell/{slug}"


def holding(*slugs: str, lives: int = 4) -> tuple[TalismanGame, dict[str, Any]]:
    """Returns a game where Ann (the Wizard, Craft 5) holds the Spells, Bo out of her way."""
    game, state = new_game(characters=("wizard", "warrior"))
    put(state, ANN, "outer", 0, spells=[spell(s) for s in slugs], lives=lives)
    put(state, BO, "middle", 5)
    return game, state


def ids(game: TalismanGame, state: dict[str, Any], player: str = ANN) -> list[str]:
    """Returns the ids of the legal actions."""
    return [a.id for a in game.legal_actions(state, player)]


def test_the_craft_limit_on_spells():
    # house rule H1.2: Craft 1-2 hold no Spell, 3 one, 4-5 two, 6 and more three.
    assert [spell_limit(craft) for craft in range(1, 8)] == [0, 0, 1, 2, 2, 3, 3]


def test_a_spell_cast_is_discarded_and_the_turn_goes_on():
    game, state = holding("conjure-gold")
    events, after = act(game, state, f"cast:{spell('conjure-gold')}")
    assert of(events, SpellInvoked)[0].spell == spell("conjure-gold")
    assert of(events, GoldChanged)[0].amount == 2
    assert after["players"][ANN]["spells"] == [] and spell("conjure-gold") in after["piles"]["discard:spells"]
    assert after["turn"] == ANN and after["step"] == "begun" and "roll" in ids(game, after)


def test_each_spell_is_cast_only_when_its_when_fits():
    # spells.toml: own-turn and fight Spells before moving; any-time ones also after the roll.
    game, state = holding("fortune", "strength")
    assert ids(game, state).count(f"cast:{spell('strength')}") == 1
    assert f"cast:{spell('fortune')}" not in ids(game, state)  # nothing rolled yet
    state.update(step="rolled", rolled=2)
    assert f"cast:{spell('fortune')}" in ids(game, state)
    assert f"cast:{spell('strength')}" not in ids(game, state)


def test_counterspell_is_never_cast_on_its_own_and_no_spell_works_on_the_cursed_glade():
    # house rule H5.8: no Spell works on the Cursed Glade (house).
    game, state = holding("counterspell", "conjure-gold")
    assert [a for a in ids(game, state) if a.startswith("cast:")] == [f"cast:{spell('conjure-gold')}"]
    put(state, ANN, "middle", 3)
    assert not [a for a in ids(game, state) if a.startswith("cast:")]


def test_heal_heals_up_to_the_starting_lives_and_is_not_offered_unhurt():
    game, state = holding("healing", lives=3)
    events, _ = act(game, state, f"cast:{spell('healing')}")
    assert of(events, LifeGained)[0].amount == 1
    game, state = holding("healing")
    assert f"cast:{spell('healing')}" not in ids(game, state)


def test_teleport_sends_the_caster_anywhere_in_its_region_and_ends_the_turn():
    game, state = holding("teleport")
    events, after = act(game, state, f"cast:{spell('teleport')}")
    assert len(of(events, ChoiceOffered)[0].options) == 24
    events, after = act(game, after, "choose:talisman/space/outer/city")
    assert of(events, Moved)[0].to_space == 12 and after["turn"] == BO


def test_banish_sends_another_and_the_casters_turn_goes_on():
    game, state = holding("banish")
    put(state, BO, "outer", 5)
    events, after = act(game, state, f"cast:{spell('banish')}:{BO}")
    assert of(events, ChoiceOffered)[0].kind == f"banish:{BO}"
    events, after = act(game, after, "choose:talisman/space/outer/city")
    assert of(events, Moved)[0].piece == BO and after["turn"] == ANN


def test_strength_is_readied_for_this_turns_combat_and_spent_there():
    game, state = holding("strength")
    _, after = act(game, state, f"cast:{spell('strength')}")
    assert after["players"][ANN]["ready"][0]["effect"] == "strength-bonus"
    lay(after, "outer", FIELDS, GOBLIN)
    events, after = land(game, after, "outer", FIELDS, values=[1, 1])
    assert of(events, CombatResolved)[0].player_total == 2 + 2 + 1 and of(events, EffectSpent)
    assert after["players"][ANN]["ready"] == []


def test_a_readied_spell_not_used_lapses_at_the_end_of_the_turn():
    game, state = holding("strength")
    _, after = act(game, state, f"cast:{spell('strength')}")
    lay(after, "outer", 3)
    _, after = land(game, after, "outer", 3, cards=[SWORD])
    assert after["players"][ANN]["ready"] == [] and after["turn"] == BO


def test_clear_mind_adds_craft_in_psychic_combat_only():
    game, state = holding("clear-mind")
    _, after = act(game, state, f"cast:{spell('clear-mind')}")
    lay(after, "outer", FIELDS, SHADOW)
    events, _ = land(game, after, "outer", FIELDS, values=[1, 1])
    assert of(events, CombatResolved)[0].player_total == 5 + 2 + 1


def test_sharpen_wits_is_one_more_craft_in_psychic_combat_this_turn():
    game, state = holding("sharpen-wits")
    _, after = act(game, state, f"cast:{spell('sharpen-wits')}")
    assert of(act(game, state, f"cast:{spell('sharpen-wits')}")[0], EffectReadied)[0].when == "psychic-combat"
    lay(after, "outer", FIELDS, SHADOW)
    events, _ = land(game, after, "outer", FIELDS, values=[1, 1])
    assert of(events, CombatResolved)[0].player_total == 5 + 1 + 1


def test_invisibility_ends_the_fight_with_no_dice():
    game, state = holding("invisibility")
    _, after = act(game, state, f"cast:{spell('invisibility')}")
    lay(after, "outer", FIELDS, OGRE)
    events, after = land(game, after, "outer", FIELDS)
    assert not of(events, CombatResolved) and not of(events, DieRolled)
    assert after["cards"]["outer"][FIELDS] == [OGRE]


def test_destroy_magic_unmakes_a_weak_enemy_with_no_trophy():
    game, state = holding("destroy-magic")
    _, after = act(game, state, f"cast:{spell('destroy-magic')}")
    lay(after, "outer", FIELDS, GOBLIN)
    events, done = land(game, after, "outer", FIELDS)
    assert of(events, EnemyDestroyed)[0].card == GOBLIN and not of(events, TrophyTaken)
    assert GOBLIN in done["piles"]["discard:adventure"] and done["cards"]["outer"][FIELDS] == []
    lay(after, "outer", FIELDS, OGRE)
    events, _ = land(game, after, "outer", FIELDS, values=[6, 1])
    assert of(events, CombatResolved)  # Strength 5 is too much for it


def test_lightning_takes_a_life_from_another():
    game, state = holding("lightning")
    events, after = act(game, state, f"cast:{spell('lightning')}:{BO}")
    assert of(events, LifeLost)[0].player == BO and after["players"][BO]["lives"] == 3


def test_curse_makes_another_miss_a_turn():
    game, state = holding("curse")
    events, _ = act(game, state, f"cast:{spell('curse')}:{BO}")
    assert of(events, TurnLost)[0].player == BO


def test_thieving_hands_empty_another_purse_into_the_casters():
    game, state = holding("thieving-hands")
    assert f"cast:{spell('thieving-hands')}:{BO}" in ids(game, state)
    put(state, BO, "middle", 5, gold=0)
    assert f"cast:{spell('thieving-hands')}:{BO}" not in ids(game, state)
    put(state, BO, "middle", 5, gold=3)
    events, after = act(game, state, f"cast:{spell('thieving-hands')}:{BO}")
    assert of(events, GoldStolen)[0].amount == 2 and after["players"][ANN]["gold"] == 3


def test_fortune_rolls_the_movement_die_again():
    game, state = holding("fortune")
    state.update(step="rolled", rolled=1)
    events, after = act(game, state, f"cast:{spell('fortune')}", values=[4])
    assert of(events, DieRolled)[0].purpose == "movement" and after["rolled"] == 4
    assert set(ids(game, after)) == {"go:outer:4", "go:outer:20"}


def test_counterspell_answers_a_spell_cast_at_its_holder():
    game, state = holding("lightning")
    put(state, BO, "middle", 5, spells=[spell("counterspell")])
    _, after = act(game, state, f"cast:{spell('lightning')}:{BO}")
    assert after["choice"] == {
        "player": BO,
        "kind": f"counter:{spell('lightning')}",
        "options": ["counterspell", "allow"],
    }
    events, done = act(game, after, "choose:counterspell", player=BO)
    assert of(events, SpellCountered)[0].spell == spell("lightning") and not of(events, LifeLost)
    assert done["players"][BO]["spells"] == [] and done["turn"] == ANN
    events, _ = act(game, after, "choose:allow", player=BO)
    assert of(events, LifeLost)[0].player == BO


def test_ward_keeps_the_caster_from_meeting_its_space():
    game, state = holding("ward")
    _, after = act(game, state, f"cast:{spell('ward')}")
    assert f"cast:{spell('ward')}" not in ids(game, after)
    lay(after, "outer", FIELDS, OGRE)
    events, _ = land(game, after, "outer", FIELDS)
    assert of(events, EffectSpent)[0].effect == "skip-encounter" and not of(events, CombatResolved)


def test_divination_sees_one_more_card_than_is_kept():
    # spells.toml (house): the deck is shuffled lazily, so looking ahead is seeing one card more.
    game, state = holding("divination")
    _, after = act(game, state, f"cast:{spell('divination')}")
    lay(after, "outer", FIELDS)
    events, after = land(game, after, "outer", FIELDS, cards=[OGRE, SWORD])
    assert of(events, ChoiceOffered)[0].options == sorted([OGRE, SWORD])
    events, _ = act(game, after, f"choose:{OGRE}")
    assert of(events, CardDiscarded)[0].card == OGRE


def test_mind_steal_takes_one_of_anothers_spells_by_a_die():
    game, state = holding("mind-steal")
    put(state, BO, "middle", 5, spells=[spell("mend"), spell("curse")])
    events, after = act(game, state, f"cast:{spell('mind-steal')}:{BO}", values=[2])
    assert of(events, DieRolled)[0].sides == 2
    assert of(events, SpellTaken)[0].spell == spell("mend")  # sorted: curse, mend
    assert after["players"][ANN]["spells"] == [spell("mend")]


def test_push_moves_another_one_space_the_casters_way():
    game, state = holding("push")
    put(state, BO, "outer", 5)
    _, after = act(game, state, f"cast:{spell('push')}:{BO}")
    assert after["choice"]["options"] == ["talisman/space/outer/chapel", "talisman/space/outer/sentinel"]
    events, after = act(game, after, "choose:talisman/space/outer/chapel")
    assert of(events, Moved)[0].to_space == 6 and after["turn"] == ANN


def test_temper_makes_another_neutral():
    game, state = holding("temper")
    assert f"cast:{spell('temper')}:{BO}" not in ids(game, state)  # the Warrior is neutral
    put(state, BO, "middle", 5, alignment="evil")
    events, after = act(game, state, f"cast:{spell('temper')}:{BO}")
    assert of(events, AlignmentChanged)[0].alignment == "neutral"


def test_iron_skin_saves_a_life_lost_in_combat_on_four_or_more():
    game, state = holding("iron-skin")
    _, after = act(game, state, f"cast:{spell('iron-skin')}")
    lay(after, "outer", FIELDS, OGRE)
    events, done = land(game, after, "outer", FIELDS, values=[1, 6, 4])
    assert of(events, LifeSaved)[0].item == "Iron Skin" and not of(events, LifeLost)
    events, _ = land(game, after, "outer", FIELDS, values=[1, 6, 3])
    assert of(events, LifeLost)
