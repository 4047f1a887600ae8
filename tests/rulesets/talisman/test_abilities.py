"""Every hook of the characters' abilities (abilities.toml, house wording, house rule H5.15), one rules test
each with scripted dice; the seeds' limits (Dungeon 12, Keep 7.2, 13) are checked where they bite."""

from __future__ import annotations

from typing import Any

from domain.events import CardDrawn, CombatResolved, DieRolled, LifeGained, Moved
from domain.rulesets.talisman.events import (
    CardDiscarded,
    ChoiceOffered,
    GoldChanged,
    ObjectTaken,
    TurnLost,
)
from domain.rulesets.talisman.main import hook_lookup
from domain.rulesets.talisman.main.content_abilities import HOOKS
from domain.rulesets.talisman.main.events_abilities import (
    AbilityUsed,
    EffectReadied,
    EffectSpent,
    EnemyEvaded,
    FollowerTaken,
    GoldStolen,
)
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, land, lay, new_game, put

GOBLIN = "talisman/card/goblin-1"  # a beast of Strength 3
OGRE = "talisman/card/ogre-1"  # a beast of Strength 5
BOAR = "talisman/card/wild-boar-1"  # an animal of Strength 1
SHADOW = "talisman/card/shadow-1"  # a spirit of Craft 2
SWORD = "talisman/card/sword-1"
WOLF = "talisman/card/wolf"
HEALING = "talisman/spell/healing"
FIELDS, WOODS, CRAGS, PLAINS, FOREST, CITY = 1, 10, 8, 9, 22, 12  # Outer Region spaces


def game_of(character: str, other: str = "wizard") -> tuple[TalismanGame, dict[str, Any]]:
    """Returns a game of Ann (the character, abilities on) and Bo, who stands out of the way."""
    game, state = new_game(characters=(character, other), abilities=True)
    put(state, BO, "middle", 5)
    return game, state


def ids(game: TalismanGame, state: dict[str, Any], player: str = ANN) -> list[str]:
    """Returns the ids of the legal actions."""
    return [a.id for a in game.legal_actions(state, player)]


def test_every_hook_of_the_content_has_a_function():
    assert set(HOOKS) == set(hook_lookup.ABILITY_HOOKS)


def test_assassinate_the_enemy_rolls_no_die():
    # house rule H5.15: the one attacked rolls no die (Assassin; house).
    game, state = game_of("assassin")
    lay(state, "outer", FIELDS, GOBLIN)
    events, _ = land(game, state, "outer", FIELDS, values=[1])
    assert of(events, DieRolled)[0].values == [1]
    fought = of(events, CombatResolved)[0]
    assert (fought.player_total, fought.opponent_total, fought.outcome) == (4, 3, "won")


def test_forest_lore_takes_spells_up_to_the_craft_limit():
    # house rule H5.15: landing on the Forest; house rules H1: Craft 4 holds 2 Spells (Druid; house).
    game, state = game_of("druid")
    lay(state, "outer", FOREST, SWORD)
    spells = ["talisman/spell/healing", "talisman/spell/mend"]
    events, after = land(game, state, "outer", FOREST, values=[3], cards=spells)
    assert [e.card for e in of(events, CardDrawn)] == spells
    assert after["players"][ANN]["spells"] == spells


def test_stone_blood_adds_strength_in_the_crags_and_sure_footing_need_not_roll():
    # house rule H5.15: +1 Strength in the Crags; the Crags' table is the player's choice (Dwarf; house).
    game, state = game_of("dwarf")
    lay(state, "outer", CRAGS, GOBLIN)
    events, after = land(game, state, "outer", CRAGS, values=[3, 3])
    assert of(events, CombatResolved)[0].player_total == 3 + 1 + 3
    assert of(events, ChoiceOffered)[-1].options == ["roll", "pass"]
    events, _ = act(game, after, "choose:pass")
    assert not of(events, DieRolled)
    events, _ = act(game, after, "choose:roll", values=[3])
    assert of(events, DieRolled)[0].purpose == "crags"


def test_woodland_paths_go_from_the_woods_to_the_forest():
    # house rule H5.15: in place of rolling, from any Woods to the Forest (Elf; house).
    game, state = game_of("elf")
    put(state, ANN, "outer", WOODS)
    assert f"ability:woodland-move:outer:{FOREST}" in ids(game, state)
    lay(state, "outer", FOREST, SWORD)
    events, _ = act(game, state, f"ability:woodland-move:outer:{FOREST}", values=[3])
    assert of(events, Moved)[0].to_space == FOREST
    put(state, ANN, "outer", FIELDS)
    assert not [a for a in ids(game, state) if a.startswith("ability:")]


def test_fade_into_green_evades_an_enemy_in_the_woods_and_then_takes_the_object():
    # house rule H5.15: in any Woods; house rule H1.8: an evaded enemy does not guard the Objects (Elf;
    # house).
    game, state = game_of("elf")
    lay(state, "outer", WOODS, GOBLIN, SWORD)
    events, after = land(game, state, "outer", WOODS)
    assert of(events, ChoiceOffered)[0].options == [GOBLIN, "fight"]
    events, after = act(game, after, f"choose:{GOBLIN}")
    assert of(events, EnemyEvaded)[0].card == GOBLIN and not of(events, CombatResolved)
    assert of(events, ObjectTaken)[0].card == SWORD
    assert after["cards"]["outer"][WOODS] == [GOBLIN]
    lay(state, "outer", FIELDS, GOBLIN)
    events, _ = land(game, state, "outer", FIELDS, values=[3, 1])
    assert of(events, CombatResolved)  # not in Woods: no evading


def test_raise_the_dead_gives_strength_in_the_next_combat():
    # house rule H5.15: a Monster killed serves in the next Combat (Ghoul; house).
    game, state = game_of("ghoul")
    lay(state, "outer", FIELDS, GOBLIN)
    events, after = land(game, state, "outer", FIELDS, values=[6, 1])
    assert of(events, EffectReadied)[0].lasting
    lay(after, "outer", 3, "talisman/card/goblin-2")
    events, after = land(game, after, "outer", 3, values=[1, 1])
    assert of(events, CombatResolved)[0].player_total == 2 + 1 + 1
    assert of(events, EffectSpent) and not after["players"][ANN]["ready"]


def test_soothing_song_lets_animals_pass_but_not_beasts():
    # house rule H5.15: animals do not attack (Minstrel; house).
    game, state = game_of("minstrel")
    lay(state, "outer", FIELDS, BOAR)
    events, _ = land(game, state, "outer", FIELDS)
    assert of(events, ChoiceOffered)[0].options == [BOAR, "fight"]
    lay(state, "outer", FIELDS, GOBLIN)
    events, _ = land(game, state, "outer", FIELDS, values=[6, 1])
    assert of(events, CombatResolved)


def test_inner_calm_adds_craft_to_strength_in_combat():
    # house rule H5.15: Strength 2 + Craft 3 (Monk; house).
    game, state = game_of("monk")
    lay(state, "outer", FIELDS, GOBLIN)
    events, _ = land(game, state, "outer", FIELDS, values=[1, 1])
    assert of(events, CombatResolved)[0].player_total == 2 + 3 + 1


def test_meditation_adds_craft_against_spirits():
    # house rule H5.15: +1 in Psychic Combat against Spirits (Monk, Priest, Inquisitor; house).
    game, state = game_of("priest")
    lay(state, "outer", FIELDS, SHADOW)
    events, _ = land(game, state, "outer", FIELDS, values=[1, 1])
    assert of(events, CombatResolved)[0].player_total == 4 + 1 + 1


def test_herb_craft_heals_at_the_start_of_a_turn_in_the_woods():
    # house rule H5.15: at the start of the turn in any Woods (Druid; house).
    game, state = game_of("druid")
    put(state, ANN, "outer", WOODS, lives=2)
    events, after = act(game, state, "roll", values=[4])
    assert of(events, LifeGained)[0].amount == 1 and after["players"][ANN]["lives"] == 3
    put(state, ANN, "outer", FIELDS)
    events, _ = act(game, state, "roll", values=[4])
    assert not of(events, LifeGained)


def test_foresight_draws_one_more_card_and_discards_one():
    # house rule H5.15: one more card drawn, one discarded by the player's choice (Prophetess; house).
    game, state = game_of("prophetess")
    lay(state, "outer", FIELDS)
    events, after = land(game, state, "outer", FIELDS, cards=[GOBLIN, SWORD])
    assert of(events, ChoiceOffered)[0].options == sorted([GOBLIN, SWORD])
    events, after = act(game, after, f"choose:{GOBLIN}")
    assert of(events, CardDiscarded)[0].card == GOBLIN
    assert of(events, ObjectTaken)[0].card == SWORD


def test_contemplation_looks_at_the_next_card():
    # house rule H5.15 (Philosopher, house: seeing the next card is one more drawn, one discarded).
    game, state = game_of("philosopher")
    lay(state, "outer", FIELDS)
    events, after = land(game, state, "outer", FIELDS, cards=[GOBLIN, SWORD])
    assert of(events, ChoiceOffered)[0].kind == "landing:draw:1"


def test_spell_at_start_takes_a_spell_holding_none():
    # house rule H5.15: holding no Spell at the start of the turn (Wizard; house).
    game, state = game_of("wizard", "warrior")
    events, after = act(game, state, "roll", values=[3], cards=[HEALING])
    assert of(events, CardDrawn)[0].card == HEALING and after["players"][ANN]["spells"] == [HEALING]
    events, _ = act(game, after | {"step": "start"}, "roll", values=[3])
    assert not of(events, CardDrawn)


def test_dark_will_may_attack_in_psychic_combat_and_beguile_takes_a_follower():
    # house rule H5.15: Psychic Combat against a character; a Follower taken on 4-6 (Sorceress; house).
    game, state = game_of("sorceress", "warrior")
    put(state, BO, "outer", FIELDS, followers=[WOLF])
    events, after = land(game, state, "outer", FIELDS)
    assert of(events, ChoiceOffered)[0].options == ["space", "attack:Bo", "psychic:Bo", "beguile:Bo"]
    events, _ = act(game, after, "choose:beguile:Bo", values=[3])
    assert not of(events, FollowerTaken)
    events, done = act(game, after, "choose:beguile:Bo", values=[5])
    assert of(events, FollowerTaken)[0].card == WOLF and done["players"][ANN]["followers"] == [WOLF]


def test_light_fingers_take_gold_instead_of_attacking():
    # house rule H5.15: take 1 Gold from a character on the space (Thief; house).
    game, state = game_of("thief")
    put(state, BO, "outer", FIELDS, gold=3)
    _, after = land(game, state, "outer", FIELDS)
    events, after = act(game, after, "choose:steal:Bo")
    assert of(events, GoldStolen)[0].amount == 1
    assert (after["players"][ANN]["gold"], after["players"][BO]["gold"]) == (2, 2)


def test_slip_away_evades_in_the_city_only():
    # house rule H5.15: in the City (Thief; house).
    game, state = game_of("thief")
    lay(state, "outer", CITY, GOBLIN)
    put(state, ANN, "outer", CITY)
    assert [o for o in _evadable(game, state)] == [GOBLIN]
    put(state, ANN, "outer", FIELDS)
    lay(state, "outer", FIELDS, GOBLIN)
    assert _evadable(game, state) == []


def _evadable(game: TalismanGame, state: dict[str, Any]) -> list[str]:
    from domain.dice import ScriptedDice
    from domain.resolution import Resolution
    from domain.rulesets.talisman.main.landing import evadable

    return evadable(game.ctx, Resolution(state, ScriptedDice(), game.evolve), ANN)


def test_regenerate_heals_a_wounded_troll_on_a_six():
    # house rule H5.15: 1 die at the start of the turn, 6 heals (Troll; house).
    game, state = game_of("troll")
    put(state, ANN, "outer", 8, lives=2)
    events, _ = act(game, state, "roll", values=[6, 2])
    assert of(events, LifeGained)[0].amount == 1
    events, _ = act(game, state, "roll", values=[5, 2])
    assert not of(events, LifeGained)
    put(state, ANN, "outer", 8, lives=4)
    events, _ = act(game, state, "roll", values=[2])  # unhurt: no roll
    assert len(of(events, DieRolled)) == 1


def test_weapon_master_keeps_the_higher_of_two_dice():
    # house rule H5.15: 2 dice in Combat (Warrior; house).
    game, state = game_of("warrior")
    lay(state, "outer", FIELDS, GOBLIN)
    events, _ = land(game, state, "outer", FIELDS, values=[1, 5, 2])
    assert of(events, DieRolled)[0].values == [1, 5, 2]
    assert of(events, CombatResolved)[0].player_total == 4 + 5


def test_duellist_adds_strength_against_characters():
    # house rule H5.15: +1 against characters; the winner takes its spoils (Warrior, Amazon, Orc; house).
    game, state = game_of("orc")
    put(state, BO, "outer", FIELDS, gold=2)
    _, after = land(game, state, "outer", FIELDS)
    events, after = act(game, after, "choose:attack:Bo", values=[1, 1])
    assert of(events, CombatResolved)[0].player_total == 4 + 1 + 1
    assert of(events, ChoiceOffered)[-1].options == ["life", "gold"]


def test_long_stride_moves_one_more_or_one_fewer():
    # house rule H5.15: +1 or -1 on the movement roll (Amazon; house).
    game, state = game_of("amazon")
    put(state, ANN, "outer", 0)
    state.update(step="rolled", rolled=3)
    assert set(ids(game, state)) == {f"go:outer:{s}" for s in (3, 21, 4, 20, 2, 22)}


def test_gallop_adds_up_to_two_and_wolf_rider_one_with_a_wolf():
    # house rule H5.15 (Centaur: up to 2 more, house: or fewer; Orc: 1 more with a Wolf Follower, which
    # itself adds 1 to anyone's roll).
    game, state = game_of("centaur")
    put(state, ANN, "outer", 0)
    state.update(step="rolled", rolled=3)
    assert {"go:outer:5", "go:outer:1"} <= set(ids(game, state))
    game, state = game_of("orc")
    put(state, ANN, "outer", 0, followers=[WOLF])
    state.update(step="rolled", rolled=3)
    assert set(ids(game, state)) == {f"go:outer:{s}" for s in (4, 20, 5, 19)}


def test_imprison_makes_a_character_beaten_in_combat_miss_a_turn():
    # house rule H5.15 (Inquisitor).
    game, state = game_of("inquisitor")
    put(state, BO, "outer", FIELDS, gold=2)
    _, after = land(game, state, "outer", FIELDS)
    _, after = act(game, after, "choose:attack:Bo", values=[6, 1])
    events, after = act(game, after, "choose:gold")
    assert of(events, TurnLost)[0].player == BO
    assert after["players"][ANN]["gold"] == 2


def test_vanish_goes_to_any_woods_of_the_region():
    # house rule H5.15 (Leprechaun, house: of its own region).
    game, state = game_of("leprechaun")
    put(state, ANN, "outer", 0)
    assert [a for a in ids(game, state) if a.startswith("ability:")] == [
        "ability:teleport-self:outer:3",
        "ability:teleport-self:outer:10",
        "ability:teleport-self:outer:16",
    ]


def test_pot_of_gold_finds_gold_on_a_six():
    # house rule H5.15 (Leprechaun).
    game, state = game_of("leprechaun")
    events, _ = act(game, state, "roll", values=[6, 3])
    assert of(events, GoldChanged)[0].amount == 1
    events, _ = act(game, state, "roll", values=[4, 3])
    assert not of(events, GoldChanged)


def test_unseen_may_pass_the_space_and_shadow_step_evades_any_enemy():
    # house rule H5.15 (Ninja).
    game, state = game_of("ninja")
    lay(state, "outer", FIELDS, OGRE)
    events, after = land(game, state, "outer", FIELDS)
    assert of(events, ChoiceOffered)[0].options == ["space", "pass"]
    events, _ = act(game, after, "choose:pass")
    assert of(events, AbilityUsed)[0].ability == "skip-encounters" and not of(events, CombatResolved)
    events, _ = act(game, after, "choose:space")
    assert of(events, ChoiceOffered)[0].options == [OGRE, "fight"]


def test_sidestep_evades_only_the_weak():
    # house rule H5.15: Strength 3 or less (Martial Artist; house).
    game, state = game_of("martial-artist")
    lay(state, "outer", FIELDS, GOBLIN)
    events, _ = land(game, state, "outer", FIELDS)
    assert of(events, ChoiceOffered)[0].options == [GOBLIN, "fight"]


def test_killer_blow_wins_on_a_six():
    # house rule H5.15: 3 + 6 against the Ogre's 5 + 6 still wins (Martial Artist; house).
    game, state = game_of("martial-artist")
    lay(state, "outer", FIELDS, OGRE)
    events, _ = land(game, state, "outer", FIELDS, values=[6, 6])
    assert of(events, CombatResolved)[0].outcome == "won"


def test_rout_drives_a_beaten_character_back_the_winners_way():
    # house rule H5.15: 1 space, the winner's choice of direction (Zulu; house).
    game, state = game_of("zulu")
    put(state, BO, "outer", FIELDS, gold=1)
    _, after = land(game, state, "outer", FIELDS)
    _, after = act(game, after, "choose:attack:Bo", values=[6, 1])
    events, after = act(game, after, "choose:gold")
    offered = of(events, ChoiceOffered)[0]
    assert offered.options == ["talisman/space/outer/graveyard", "talisman/space/outer/village"]
    events, after = act(game, after, "choose:talisman/space/outer/village")
    assert of(events, Moved)[0].piece == BO and after["players"][BO]["space"] == 0


def test_plainsrunner_adds_strength_on_the_plains():
    # house rule H5.15: +1 Strength on the Plains (Centaur, Zulu; house).
    game, state = game_of("centaur")
    lay(state, "outer", PLAINS, GOBLIN)
    events, _ = land(game, state, "outer", PLAINS, values=[1, 1])
    assert of(events, CombatResolved)[0].player_total == 4 + 1 + 1


def test_an_ability_turned_off_by_an_expansion_does_not_act_on_its_boards(monkeypatch):
    # Keep 5.4: nothing alters movement in the Keep (the Amazon's Long Stride is off there).
    game, state = game_of("amazon")
    monkeypatch.setitem(hook_lookup.EXPANSION_OF, "outer", "keep")
    assert hook_lookup.at(game.ctx, state["players"][ANN], "steps") == []
    monkeypatch.setitem(hook_lookup.EXPANSION_OF, "outer", "dungeon")
    assert hook_lookup.at(game.ctx, state["players"][ANN], "steps") == []  # Dungeon 12.1
