"""Spells across the boards (Dungeon 10, Keep 5.4, 11; spells.toml): the house Spells on cards and
spaces, the Dungeon as a region for Spells, and the Keep's border that no Spell crosses."""

from __future__ import annotations

from typing import Any

from domain.events import LifeLost, Moved
from domain.rulesets.talisman.events import CardDiscarded, ChoiceOffered
from domain.rulesets.talisman.main.abilities import ABILITIES
from domain.rulesets.talisman.main.events_abilities import (
    CardDestroyed,
    CardDisplaced,
    CardReturned,
    EffectReadied,
    EffectSpent,
    SpellLaid,
)
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, land, lay, new_game, put

GOBLIN = "talisman/card/goblin-1"
RAT = "dungeon/card/giant-rat"
BOTH = {"dungeon": "true", "keep": "true"}


def spell(slug: str) -> str:
    """Returns a Spell's id."""
    return f"talisman/spell/{slug}"


def holding(
    *slugs: str, board: str = "outer", space: int = 0, options: dict[str, str] | None = None
) -> tuple[TalismanGame, dict[str, Any]]:
    """Returns a game where Ann (the Wizard) stands on (board, space) holding the Spells, Bo far off."""
    game, state = new_game(BOTH if options is None else options, characters=("wizard", "warrior"))
    put(state, ANN, board, space, spells=[spell(s) for s in slugs])
    put(state, BO, "middle", 5)
    return game, state


def casts(game: TalismanGame, state: dict[str, Any], player: str = ANN) -> list[str]:
    """Returns the `cast:` actions open, and checks the quick legality check agrees with each."""
    listed = [a.id for a in game.legal_actions(state, player) if a.id.startswith("cast:")]
    for action_id in listed:
        assert game.is_legal(state, player, action_id)
    return listed


def refused(game: TalismanGame, state: dict[str, Any], action_id: str, player: str = ANN) -> bool:
    """Tells whether a cast is neither listed nor legal (the two checks agree)."""
    listed = action_id in casts(game, state, player)
    return not listed and not game.is_legal(state, player, action_id)


def choose(game: TalismanGame, state: dict[str, Any], option: str) -> tuple[list[Any], dict[str, Any]]:
    """Makes the pending choice."""
    return act(game, state, f"choose:{option}", state["choice"]["player"])


# -- the house Spells on cards and spaces --------------------------------------------------------------


def test_destruction_discards_a_card_face_up_in_the_casters_region():
    # house rule H5.14: Destruction (house) destroys a card lying face up on a space of the caster's region.
    game, state = holding("destruction", options={})
    lay(state, "outer", 3, GOBLIN)
    events, after = act(game, state, f"cast:{spell('destruction')}")
    assert of(events, ChoiceOffered)[0].options == [f"3:{GOBLIN}"]
    events, after = choose(game, after, f"3:{GOBLIN}")
    assert of(events, CardDestroyed)[0].deck == "adventure"
    assert after["cards"]["outer"][3] == [] and GOBLIN in after["piles"]["discard:adventure"]
    assert after["turn"] == ANN and after["choice"] is None  # the caster's turn goes on


def test_the_card_spells_are_not_offered_with_nothing_face_up():
    # house rule H5.14 (house): a Spell that would find no card is not offered.
    game, state = holding("destruction", "displacement", "metamorph", options={})
    assert casts(game, state) == []


def test_displacement_moves_a_card_to_another_space_of_the_region():
    # house rule H5.14: Displacement (house) moves a card lying face up to another space of the region.
    game, state = holding("displacement", options={})
    lay(state, "outer", 3, GOBLIN)
    _, after = act(game, state, f"cast:{spell('displacement')}")
    events, after = choose(game, after, f"3:{GOBLIN}")
    assert "3" not in of(events, ChoiceOffered)[0].options and len(after["choice"]["options"]) == 23
    events, after = choose(game, after, "10")
    assert of(events, CardDisplaced)[0].to_space == 10
    assert after["cards"]["outer"][3] == [] and after["cards"]["outer"][10] == [GOBLIN]


def test_metamorph_sends_a_card_back_into_its_deck():
    # house rule H5.14: Metamorph (house) changes a card: it goes back into its deck, the space draws anew.
    game, state = holding("metamorph", options={})
    lay(state, "outer", 3, GOBLIN)
    _, after = act(game, state, f"cast:{spell('metamorph')}")
    events, after = choose(game, after, f"3:{GOBLIN}")
    assert of(events, CardReturned)[0].deck == "adventure"
    assert GOBLIN in after["piles"]["adventure"] and after["piles"]["adventure"] == sorted(
        after["piles"]["adventure"]
    )


def test_a_hex_laid_on_a_space_strikes_the_next_to_land_there():
    # house rule H5.14: Hex (house) is laid on a space; the next character to land there loses a life.
    game, state = holding("hex", options={})
    _, after = act(game, state, f"cast:{spell('hex')}")
    events, after = choose(game, after, "4")
    assert of(events, SpellLaid)[0].space == 4 and after["cards"]["outer"][4] == [spell("hex")]
    assert spell("hex") not in after["piles"]["discard:spells"]
    events, after = land(game, after, "outer", 4, player=BO)
    assert of(events, LifeLost)[0].player == BO and of(events, CardDiscarded)[0].card == spell("hex")
    assert spell("hex") in after["piles"]["discard:spells"] and spell("hex") not in after["cards"]["outer"][4]


def test_a_barrier_stops_the_next_to_land_there_meeting_anything_else():
    # house rule H5.14: Barrier (house) is laid on a space; the next character to land there meets nothing.
    game, state = holding("barrier", options={})
    lay(state, "outer", 3, GOBLIN)
    _, after = act(game, state, f"cast:{spell('barrier')}")
    _, after = choose(game, after, "3")
    events, after = land(game, after, "outer", 3, player=BO)
    assert [e.card for e in of(events, CardDiscarded)] == [spell("barrier")]
    assert after["cards"]["outer"][3] == [GOBLIN]  # not met: it waits for the next one


def test_misdirection_lets_its_target_move_only_anticlockwise_once():
    # house rule H5.14: Misdirection (house): the target's next move goes the other way (anticlockwise).
    game, state = holding("misdirection", options={})
    put(state, BO, "outer", 5)
    events, after = act(game, state, f"cast:{spell('misdirection')}:{BO}")
    assert of(events, EffectReadied)[0].player == BO
    after.update(turn=BO, step="rolled", rolled=2)
    assert [a.id for a in game.legal_actions(after, BO)] == ["go:outer:3"]
    events, after = act(game, after, "go:outer:3", BO, cards=["talisman/card/windfall-1"])
    assert of(events, EffectSpent)[0].effect == "misdirect" and after["players"][BO]["ready"] == []


# -- Dungeon 10 ---------------------------------------------------------------------------------------


def test_the_card_spells_work_on_dungeon_cards_from_inside_the_dungeon():
    # Dungeon 10.1: Destruction, Displacement and Metamorph may be used on Dungeon cards.
    game, state = holding("destruction", "displacement", "metamorph", board="dungeon", space=5)
    lay(state, "dungeon", 3, RAT)
    state["piles"]["dungeon"].remove(RAT)
    _, after = act(game, state, f"cast:{spell('destruction')}")
    assert after["choice"]["kind"] == "destroy:dungeon"
    events, after = choose(game, after, f"3:{RAT}")
    assert of(events, CardDestroyed)[0].deck == "dungeon" and RAT in after["piles"]["discard:dungeon"]
    lay(after, "dungeon", 3, RAT)
    _, moved = act(game, after, f"cast:{spell('displacement')}")
    _, moved = choose(game, moved, f"3:{RAT}")
    _, moved = choose(game, moved, "7")
    assert moved["cards"]["dungeon"][7] == [RAT]
    _, changed = act(game, after, f"cast:{spell('metamorph')}")
    events, changed = choose(game, changed, f"3:{RAT}")
    assert of(events, CardReturned)[0].deck == "dungeon" and RAT in changed["piles"]["dungeon"]


def test_divination_may_be_cast_in_the_dungeon():
    # Dungeon 10.1: Divination may be used on Dungeon cards (it readies its look at the next cards).
    game, state = holding("divination", board="dungeon", space=5)
    events, _ = act(game, state, f"cast:{spell('divination')}")
    assert of(events, EffectReadied)[0].effect == "extra-card"


def test_a_doorway_is_never_destroyed_moved_or_changed():
    # Dungeon 4.2: a Doorway is immune to Destruction (and so to Displacement and Metamorph, house).
    game, state = holding("destruction", options={"dungeon": "true"})
    doorway = game.ctx.cards["talisman/card/doorway-1"]
    lay(state, "outer", 3, doorway.id)
    assert casts(game, state) == []
    lay(state, "outer", 4, GOBLIN)
    _, after = act(game, state, f"cast:{spell('destruction')}")
    assert after["choice"]["options"] == [f"4:{GOBLIN}"]


def test_hex_and_barrier_may_be_laid_on_dungeon_spaces():
    # Dungeon 10.2: the Hex and Barrier Spells may be played on Dungeon spaces.
    game, state = holding("hex", "barrier", board="dungeon", space=5)
    _, after = act(game, state, f"cast:{spell('hex')}")
    assert after["choice"]["kind"] == f"lay:dungeon:{spell('hex')}" and len(after["choice"]["options"]) == 25
    _, after = choose(game, after, "6")
    _, after = act(game, after, f"cast:{spell('barrier')}")
    _, after = choose(game, after, "8")
    assert after["cards"]["dungeon"][6] == [spell("hex")] and after["cards"]["dungeon"][8] == [
        spell("barrier")
    ]


def test_misdirection_may_be_cast_at_a_player_in_the_dungeon():
    # Dungeon 10.3: the Misdirection Spell may be played on a player who is in the Dungeon.
    game, state = holding("misdirection")
    put(state, BO, "dungeon", 4)
    events, after = act(game, state, f"cast:{spell('misdirection')}:{BO}")
    assert (
        of(events, EffectReadied)[0].player == BO
        and after["players"][BO]["ready"][0]["effect"] == "misdirect"
    )


def test_teleport_is_not_cast_in_the_dungeon():
    # Dungeon 10.4: the Teleport Spell may not be used by a character who is in the Dungeon.
    game, state = holding("teleport", board="dungeon", space=5)
    assert refused(game, state, f"cast:{spell('teleport')}")
    put(state, ANN, "outer", 0)
    assert f"cast:{spell('teleport')}" in casts(game, state)


def test_the_dungeon_counts_as_a_region_for_spells_at_other_characters():
    # Dungeon 10: otherwise the Dungeon counts as a Region for spells: cast into it and out of it.
    game, state = holding("lightning")
    put(state, BO, "dungeon", 4)
    events, _ = act(game, state, f"cast:{spell('lightning')}:{BO}")
    assert of(events, LifeLost)[0].player == BO
    put(state, ANN, "dungeon", 5)
    put(state, BO, "outer", 3)
    events, _ = act(game, state, f"cast:{spell('lightning')}:{BO}")
    assert of(events, LifeLost)[0].player == BO


def test_spells_that_move_a_character_on_the_main_board_do_not_reach_into_the_dungeon():
    # Dungeon 10.4 and 10 (house): Banish and Push move a character round a region of the main board.
    game, state = holding("banish", "push")
    put(state, BO, "dungeon", 4)
    assert refused(game, state, f"cast:{spell('banish')}:{BO}")
    assert refused(game, state, f"cast:{spell('push')}:{BO}")


# -- Keep 5.4, 11 -------------------------------------------------------------------------------------


def test_no_spell_that_moves_or_alters_movement_is_cast_in_the_keep():
    # Keep 11.1: no Spell that alters movement, and no Teleport, in the Keep; Keep 5.4: nothing alters it.
    game, state = holding("teleport", "fortune", "conjure-gold", board="keep", space=3)
    assert casts(game, state) == [f"cast:{spell('conjure-gold')}"]
    state.update(step="rolled", rolled=2)
    assert refused(game, state, f"cast:{spell('fortune')}")


def test_no_spell_is_cast_from_the_keep_at_a_character_on_another_board():
    # Keep 11.1: characters in the Keep may not cast Spells on characters on any other board.
    game, state = holding("lightning", "misdirection", board="keep", space=3)
    for board, space in (("outer", 3), ("dungeon", 4)):
        put(state, BO, board, space)
        assert refused(game, state, f"cast:{spell('lightning')}:{BO}")
        assert refused(game, state, f"cast:{spell('misdirection')}:{BO}")
    put(state, BO, "keep", 5)
    assert f"cast:{spell('lightning')}:{BO}" in casts(game, state)  # inside the Keep, as on the main board


def test_characters_in_the_keep_are_not_reached_by_spells_from_other_boards():
    # Keep 11.2: characters in the Keep cannot be affected by Spells cast from any other board.
    for board in ("outer", "dungeon"):
        game, state = holding("lightning", "curse", "misdirection", board=board, space=5)
        put(state, BO, "keep", 4)
        assert casts(game, state) == []


def test_a_misdirection_on_a_character_who_then_enters_the_keep_does_not_alter_its_moves():
    # Keep 5.4: no character's movement in the Keep is altered by any Spell (the Keep's chart rules it).
    game, state = holding("misdirection")
    put(state, BO, "outer", 5)
    _, after = act(game, state, f"cast:{spell('misdirection')}:{BO}")
    put(after, BO, "keep", 4)
    spots = [("keep", 6), ("keep", 2)]
    assert ABILITIES.destinations(game.ctx, after, BO, spots) == spots


def test_the_spells_on_cards_and_spaces_do_not_act_on_the_keep():
    # Keep 11.1 and house rule H3.22 (house): the Keep's seed names no Spell on its cards or spaces.
    game, state = holding("destruction", "hex", "barrier", "displacement", board="keep", space=3)
    lay(state, "keep", 5, "keep/card/test")
    assert casts(game, state) == []


def test_the_quick_legality_check_agrees_on_every_cast_on_every_board():
    # Dungeon 10, Keep 11: `is_legal` answers what `legal_actions` lists, for every Spell and target.
    slugs = [s.id.removeprefix("talisman/spell/") for s in new_game(BOTH)[0].ctx.spells.spells]
    boards = (("outer", 0), ("middle", 2), ("inner", 3), ("dungeon", 5), ("keep", 3))
    for board, space in boards:
        for other, at in boards:
            game, state = holding(*slugs[:3], board=board, space=space)
            state["players"][ANN]["spells"] = [spell(s) for s in slugs]
            put(state, BO, other, at)
            if board != "keep":
                lay(state, board, space, GOBLIN)  # something for the card Spells to pick
            listed = {a.id for a in game.legal_actions(state, ANN)}
            for slug in slugs:
                for suffix in ("", f":{BO}"):
                    action_id = f"cast:{spell(slug)}{suffix}"
                    assert game.is_legal(state, ANN, action_id) == (action_id in listed), action_id


def test_the_card_and_space_spells_choices_say_what_each_option_does():
    # house rules H5: the choices the rules give a player are labelled so the player can follow them.
    from domain.rulesets.talisman.main.choices import option_label

    ctx = new_game(BOTH)[0].ctx
    assert option_label(ctx, "destroy:outer", f"3:{GOBLIN}") == "Destroy the Goblin on the Woods (Outer 3)"
    assert option_label(ctx, "displace:outer", f"3:{GOBLIN}") == "Move the Goblin on the Woods (Outer 3)"
    assert option_label(ctx, f"displace-to:outer:3:{GOBLIN}", "5") == "Move the Goblin to the Hills (Outer 5)"
    assert option_label(ctx, "metamorph:outer", f"3:{GOBLIN}") == (
        "Send the Goblin on the Woods (Outer 3) back into its deck"
    )
    assert (
        option_label(ctx, f"lay:dungeon:{spell('hex')}", "6") == "Lay the Hex on the Guard Room (Dungeon 6)"
    )


def test_a_barrier_keeps_a_place_without_cards_from_being_met_and_a_hex_strikes_there_too():
    # house rule H5.14 (house): a laid Spell acts on whoever lands on its space, whatever the space does.
    game, state = holding("barrier", "hex", options={})
    _, after = act(game, state, f"cast:{spell('barrier')}")
    _, after = choose(game, after, "0")  # the Village: its services, no cards; Ann stands there
    events, after = land(game, after, "outer", 0, player=BO)
    assert of(events, ChoiceOffered) == [] and after["cards"]["outer"][0] == []  # not even Ann is met
    _, after = act(game, after | {"turn": ANN, "step": "start"}, f"cast:{spell('hex')}")
    _, after = choose(game, after, "0")
    put(after, ANN, "outer", 12)
    events, after = land(game, after, "outer", 0, player=BO)
    assert of(events, LifeLost)[0].player == BO and of(events, ChoiceOffered)[0].kind.startswith("service")


def test_a_spell_that_destroys_an_enemy_sends_a_dungeon_card_to_the_dungeon_discards():
    # Dungeon 10.1: Spells work on Dungeon cards; Destroy Magic's enemy goes to its own deck's discards.
    from domain.dice import ScriptedDice
    from domain.resolution import Resolution
    from domain.rulesets.talisman.combat import COMBAT
    from domain.rulesets.talisman.main.fights import fight

    game, state = holding("destroy-magic", board="dungeon", space=5)
    lay(state, "dungeon", 5, RAT)
    _, after = act(game, state, f"cast:{spell('destroy-magic')}")
    res = Resolution(after, ScriptedDice(), game.evolve)
    fight(game.ctx, res, ANN, RAT, 1, COMBAT)
    assert of(res.events, CardDestroyed)[0].deck == "dungeon" and RAT in res.state["piles"]["discard:dungeon"]


def test_a_hex_laid_on_a_dungeon_space_strikes_whoever_lands_there_in_the_dungeon():
    # Dungeon 10.2: a Hex played on a Dungeon space acts on the next character to land there.
    game, state = holding(board="dungeon", space=3, options={"dungeon": "true"})
    state["cards"]["dungeon"][5] = [spell("hex")]
    events, after = act(game, state, "roll", values=[2, 6, 1], cards=[RAT])
    assert of(events, LifeLost)[0].reason == "Hex" and of(events, CardDiscarded)[0].card == spell("hex")
    assert (
        spell("hex") not in after["players"][ANN]["objects"]
        and spell("hex") in after["piles"]["discard:spells"]
    )


def test_a_barrier_laid_on_a_dungeon_space_keeps_it_from_being_met():
    # Dungeon 10.2: a Barrier played on a Dungeon space: the next to land there meets nothing there.
    game, state = holding(board="dungeon", space=3, options={"dungeon": "true"})
    state["cards"]["dungeon"][5] = [spell("barrier")]
    events, after = act(game, state, "roll", values=[2])
    assert [e.card for e in of(events, CardDiscarded)] == [spell("barrier")] and after["cards"]["dungeon"][
        5
    ] == []


def test_a_misdirected_character_in_the_dungeon_moves_the_other_way_once():
    # Dungeon 10.3: Misdirection played on a player in the Dungeon: its next move goes the other way.
    game, state = holding("misdirection", options={"dungeon": "true"})
    put(state, BO, "dungeon", 8)
    _, after = act(game, state, f"cast:{spell('misdirection')}:{BO}")
    after.update(turn=BO, step="start")
    events, after = act(game, after, "roll", BO, values=[2, 6, 1])  # back to the Guard Room, not on to 10
    assert of(events, EffectSpent)[0].player == BO and of(events, Moved)[0].to_space == 6
    assert after["players"][BO]["ready"] == []
