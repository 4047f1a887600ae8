"""The characters' abilities across the boards (Dungeon 12.1-12.10, Keep 5.4, 7.2, 13; abilities.toml
`limits`): each limit bites on the board the seed names, against the foe it names, and nowhere else."""

from __future__ import annotations

from typing import Any

from domain.dice import ScriptedDice
from domain.events import CombatResolved, DieRolled, Moved
from domain.resolution import Resolution
from domain.rulesets.dungeon.encounters import GUARD
from domain.rulesets.talisman.combat import COMBAT, LOST, WON
from domain.rulesets.talisman.events import ChoiceOffered
from domain.rulesets.talisman.main.abilities import ABILITIES
from domain.rulesets.talisman.main.ability_encounters import BEAT, DRAWS, EVADE, PASS
from domain.rulesets.talisman.main.ability_hooks import ACTIONS, BONUS, STEPS
from domain.rulesets.talisman.main.ability_limits import amount_on, either_way
from domain.rulesets.talisman.main.fights import fight
from domain.rulesets.talisman.main.hook_lookup import at
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, new_game, put

BOTH = {"dungeon": "true", "keep": "true"}
WOLF = "talisman/card/wolf"
GUARD_ROOM = 6  # the Dungeon's Guard Room (dungeon board.toml)
DUNGEON_OGRE = "dungeon/card/ogre"


def playing(character: str, board: str = "dungeon", space: int = 5) -> tuple[TalismanGame, dict[str, Any]]:
    """Returns a game where Ann plays the character with its abilities, standing on (board, space)."""
    game, state = new_game(BOTH, characters=(character, "warrior"), abilities=True)
    put(state, ANN, board, space)
    put(state, BO, "middle", 5)
    return game, state


def hooks(game: TalismanGame, state: dict[str, Any], point: str, player: str = ANN) -> list[str]:
    """Returns the hook names of the player's abilities acting at a point where it stands."""
    return [ability.hook for ability, _ in at(game.ctx, state["players"][player], point)]


def fought(game: TalismanGame, state: dict[str, Any], foe: str, value: int, faces: list[int]) -> list[Any]:
    """Has Ann fight a foe of Strength `value` in Combat with scripted dice (all of them used)."""
    dice = ScriptedDice(faces)
    res = Resolution(state, dice, game.evolve)
    fight(game.ctx, res, ANN, foe, value, COMBAT)
    assert dice.unused == ([], [])
    return res.events


def outcome(events: list[Any]) -> str:
    """Returns the outcome of the (first) fight recorded."""
    return str(of(events, CombatResolved)[0].outcome)


def test_amazon_and_centaur_have_no_special_movement_in_the_dungeon():
    # Dungeon 12.1: Amazon, Centaur: no special movement ability in the Dungeon.
    for character in ("amazon", "centaur"):
        game, state = playing(character)
        assert hooks(game, state, STEPS) == []
        put(state, ANN, "outer", 5)
        assert hooks(game, state, STEPS) == ["extra-movement"]


def test_the_assassin_may_not_assassinate_the_guard_but_may_anything_else_in_the_dungeon():
    # Dungeon 12.2: the Assassin may not Assassinate the Guard in the Guard Room (only the Guard).
    game, state = playing("assassin", space=GUARD_ROOM)
    events = fought(game, state, GUARD, 4, [3, 2])  # the Guard rolls its die
    assert of(events, DieRolled)[0].values == [3, 2]
    events = fought(game, state, DUNGEON_OGRE, 4, [3])  # a Dungeon card there: it rolls none
    assert of(events, DieRolled)[0].values == [3]
    put(state, ANN, "outer", 5)
    assert of(fought(game, state, "talisman/card/goblin-1", 3, [3]), DieRolled)[0].values == [3]


def test_the_inquisitor_may_not_imprison_in_the_dungeon():
    # Dungeon 12.3: the Inquisitor may not Imprison other characters while in the Dungeon.
    game, state = playing("inquisitor")
    assert "imprison" not in hooks(game, state, BEAT)
    put(state, ANN, "outer", 5)
    assert "imprison" in hooks(game, state, BEAT)


def test_the_leprechaun_may_not_teleport_in_the_dungeon_nor_in_the_keep():
    # Dungeon 12.4: the Leprechaun may not Teleport in the Dungeon; Keep 5.4: nor in the Keep.
    for board in ("dungeon", "keep"):
        game, state = playing("leprechaun", board=board)
        assert hooks(game, state, ACTIONS) == []
    game, state = playing("leprechaun", board="outer", space=5)
    assert hooks(game, state, ACTIONS) == ["teleport-self"]
    assert any(a.id.startswith("ability:teleport-self:") for a in game.legal_actions(state, ANN))


def test_the_ninja_must_meet_every_space_and_may_not_evade_in_the_dungeon():
    # Dungeon 12.5: the Ninja must encounter all spaces landed on and may not Evade in the Dungeon.
    game, state = playing("ninja")
    assert hooks(game, state, PASS) == [] and hooks(game, state, EVADE) == []
    put(state, ANN, "outer", 5)
    assert hooks(game, state, PASS) == ["skip-encounters"] and hooks(game, state, EVADE) == ["evade-enemies"]


def test_only_the_ninja_loses_its_evading_in_the_dungeon():
    # Dungeon 12.5: the limit is the Ninja's; the Martial Artist's Sidestep still evades there.
    game, state = playing("martial-artist")
    assert hooks(game, state, EVADE) == ["evade-enemies"]


def test_the_orcs_wolf_gives_no_movement_bonus_in_the_dungeon():
    # Dungeon 12.6: Orc: a Wolf allows no movement bonus in the Dungeon.
    game, state = playing("orc")
    state["players"][ANN]["followers"] = [WOLF]
    assert hooks(game, state, STEPS) == []
    put(state, ANN, "outer", 5)
    assert hooks(game, state, STEPS) == ["wolf-ride"]


def test_the_martial_artist_has_no_killer_blow_against_the_guard():
    # Dungeon 12.7: no Killer Blow against the Guard in the Guard Room; against anything else it works.
    game, state = playing("martial-artist", space=GUARD_ROOM)
    assert outcome(fought(game, state, GUARD, 12, [6, 6])) == LOST
    game, state = playing("martial-artist", space=GUARD_ROOM)
    assert outcome(fought(game, state, DUNGEON_OGRE, 12, [6, 6])) == WON
    put(state, ANN, "outer", 5)
    assert outcome(fought(game, state, "talisman/card/dragon-1", 12, [6, 6])) == WON


def test_the_philosopher_sees_only_the_next_card_in_the_dungeon_and_on_the_main_board():
    # Dungeon 12.8: in the Dungeon only the next Dungeon card; on the main board only the next Adventure card.
    game, state = playing("philosopher")
    (ability,) = [a for a, _ in at(game.ctx, state["players"][ANN], DRAWS)]
    assert amount_on(ability, "dungeon") == 1
    assert [hook.run(game.ctx, state, ANN, a) for a, hook in at(game.ctx, state["players"][ANN], DRAWS)] == [
        1
    ]
    put(state, ANN, "outer", 5)
    assert [hook.run(game.ctx, state, ANN, a) for a, hook in at(game.ctx, state["players"][ANN], DRAWS)] == [
        1
    ]


def test_the_prophetess_draws_no_extra_dungeon_card():
    # Dungeon 12.9: the Prophetess may not draw an extra Dungeon card as she does Adventure cards.
    game, state = playing("prophetess")
    assert hooks(game, state, DRAWS) == []
    put(state, ANN, "outer", 5)
    assert hooks(game, state, DRAWS) == ["extra-card"]


def test_the_zulu_routs_either_way_in_the_dungeon():
    # Dungeon 12.10: a character Routed in the Dungeon may be moved in either direction.
    game, state = playing("zulu", space=8)
    put(state, BO, "dungeon", 8)
    (ability, hook), *_ = [(a, h) for a, h in at(game.ctx, state["players"][ANN], BEAT) if a.hook == "rout"]
    assert either_way(ability, "dungeon") and not either_way(ability, "outer")
    res = Resolution(state, ScriptedDice(), game.evolve)
    hook.run(game.ctx, res, ANN, ability, BO)
    assert of(res.events, ChoiceOffered)[0].options == [
        "dungeon/space/well-room",
        "dungeon/space/hall-of-bones",
    ]
    labels = [a.label for a in game.legal_actions(res.state, ANN)]
    # Either way: the label says where to, not "back" (Hall of Bones, space 9, is toward the centre).
    assert labels[0].startswith("Drive Bo to the ") and "(Dungeon 7)" in labels[0]
    assert labels[1].startswith("Drive Bo to the ") and "(Dungeon 9)" in labels[1]
    events, after = act(game, res.state, "choose:dungeon/space/well-room")
    assert of(events, Moved)[0].to_space == 7 and after["players"][BO]["space"] == 7
    assert after["players"][BO]["board"] == "dungeon"


def test_a_rout_in_the_dungeon_without_the_limit_drives_back_toward_the_entrance():
    # Dungeon 12.10: the either-direction limit is what lets the Zulu choose; a plain Rout goes back.
    from domain.rulesets.talisman.main.ability_encounters import rout_options

    game, state = playing("zulu", space=8)
    assert rout_options(game.ctx, state["players"][ANN], 1, either=False) == ["dungeon/space/well-room"]


def test_movement_abilities_and_spells_do_not_work_in_the_keep():
    # Keep 5.4, 13: nothing alters movement in the Keep, no ability that enhances or alters movement.
    movers = [
        (c.id, a.hook)
        for c in new_game(BOTH, abilities=True)[0].ctx.abilities.characters
        for a in c.abilities
        if a.movement
    ]
    assert {hook for _, hook in movers} >= {"extra-movement", "wolf-ride", "teleport-self"}
    for character in ("amazon", "centaur", "orc", "leprechaun", "elf"):
        game, state = playing(character, board="keep", space=3)
        state["players"][ANN]["followers"] = [WOLF]
        assert hooks(game, state, STEPS) == [] and hooks(game, state, ACTIONS) == []
        spots = [("keep", 5), ("keep", 1)]
        assert ABILITIES.destinations(game.ctx, state, ANN, spots) == spots


def test_every_other_ability_keeps_working_in_the_keep():
    # Keep 7.2, 13: characters keep all their other special abilities in the Keep.
    for character, point, hook in (
        ("amazon", BONUS, "extra-strength-vs-characters"),
        ("warrior", "dice", "two-dice-combat"),
        ("ninja", EVADE, "evade-enemies"),
        ("prophetess", DRAWS, "extra-card"),
        ("inquisitor", BEAT, "imprison"),
    ):
        game, state = playing(character, board="keep", space=3)
        assert hook in hooks(game, state, point), character
    game, state = playing("amazon", board="keep", space=3)
    assert ABILITIES.combat_bonus(game.ctx, state, ANN, COMBAT, BO) == 1


def test_abilities_naming_main_board_spaces_do_nothing_on_the_expansions_boards():
    # Keep 7.2 and Dungeon 12 (house): an ability tied to a main-board space (the Chapel, the Plains)
    # finds none on the Dungeon or the Keep, and the turn goes on.
    for board in ("dungeon", "keep"):
        game, state = playing("priest", board=board, space=3)
        state["players"][ANN]["lives"] = 2
        res = Resolution(state, ScriptedDice(), game.evolve)
        ABILITIES.turn_started(game.ctx, res, ANN)
        assert res.events == []
        game, state = playing("centaur", board=board, space=3)
        assert ABILITIES.combat_bonus(game.ctx, state, ANN, COMBAT, DUNGEON_OGRE) == 0


def test_a_rout_drives_no_one_in_the_keep():
    # Keep 5.4 (house): no ability moves a character in the Keep, so a Rout there offers no space.
    from domain.rulesets.talisman.main.ability_encounters import rout_options

    game, state = playing("zulu", board="keep", space=8)
    assert rout_options(game.ctx, state["players"][ANN], 1) == []
