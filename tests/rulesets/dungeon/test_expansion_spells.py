"""Spells and the Dungeon beside the main board (Dungeon 10): house rule H2.10 on Misdirection and forced
moves (10.3 against 7.3 and 9.1-9.2), and house rule H2.11 that the Spells on cards and spaces reach the
Dungeon from the main board (10.1-10.2)."""

from __future__ import annotations

from typing import Any

from domain.events import LifeLost, Moved
from domain.rulesets.talisman.events import CardDiscarded, ChoiceOffered
from domain.rulesets.talisman.main.choices import option_label
from domain.rulesets.talisman.main.events_abilities import (
    CardDestroyed,
    CardDisplaced,
    CardReturned,
    EffectSpent,
    EffectWasted,
    SpellLaid,
)
from domain.rulesets.talisman.main.ruleset import TalismanGame
from projections.talisman_timeline import describe
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, lay, new_game, put
from tests.rulesets.talisman.test_spells_across_boards import casts, spell
from tests.rulesets.talisman.test_spells_across_boards import holding as holding_in

DUNGEON = {"dungeon": "true"}
GOBLIN = "talisman/card/goblin-1"
RAT = "dungeon/card/giant-rat"
SWORD = "dungeon/card/sword"


def holding(*slugs: str, board: str = "outer", space: int = 0) -> tuple[TalismanGame, dict[str, Any]]:
    """Returns a Dungeon game where Ann (the Wizard) stands on (board, space) holding the Spells, Bo far
    off on the main board."""
    return holding_in(*slugs, board=board, space=space, options=DUNGEON)


def choose(game: TalismanGame, state: dict[str, Any], option: str) -> tuple[list[Any], dict[str, Any]]:
    """Makes the pending choice."""
    return act(game, state, f"choose:{option}", state["choice"]["player"])


def misdirected(space: int, **flags: bool) -> tuple[TalismanGame, dict[str, Any]]:
    """Returns a game where Ann cast Misdirection at Bo in the Dungeon on `space` (Dungeon 10.3), then Bo
    took the flags given (fleeing, defeated) and it is Bo's turn."""
    game, state = holding("misdirection")
    put(state, BO, "dungeon", space)
    _, after = act(game, state, f"cast:{spell('misdirection')}:{BO}")
    assert after["players"][BO]["ready"][0]["effect"] == "misdirect"
    after["players"][BO].update(flags)
    after.update(turn=BO, step="start")
    return game, after


# -- house rule H2.10, Misdirection and forced moves (Dungeon 10.3, 9.1-9.2, 7.3) ----------------------------


def test_a_misdirection_does_not_turn_a_flight_toward_the_treasure_chamber():
    # Dungeon 9.1: a fleeing character makes all its moves toward the Entrance; 10.3: Misdirection may be
    # played on it. House ruling: the flight wins; the Misdirection is used up and does nothing.
    game, state = misdirected(4)
    _, fleeing = act(game, state, "flee", BO)
    events, after = act(game, fleeing, "roll", BO, values=[2], cards=[SWORD])
    assert of(events, Moved)[0].to_space == 2  # back toward the Entrance, not on to 6
    assert of(events, EffectSpent) == [] and of(events, EffectWasted)[0].player == BO
    assert after["players"][BO]["ready"] == []
    told = describe(of(events, EffectWasted)[0])
    assert told is not None and "did nothing" in told and "fleeing" in told and "Dungeon 9.1" in told


def test_a_misdirection_does_not_turn_the_move_back_after_a_defeat():
    # Dungeon 7.3: defeated on space 8, the character moves back toward the Entrance on its next turn.
    # House ruling: a Misdirection waiting on it is used up by that move and does not send it on to 11.
    game, state = misdirected(8, defeated=True)
    events, after = act(game, state, "roll", BO, values=[3], cards=[SWORD])
    assert of(events, Moved)[0].to_space == 5
    wasted = of(events, EffectWasted)[0]
    assert wasted.name == "Misdirection" and "Dungeon 7.3" in wasted.reason
    assert after["players"][BO]["ready"] == [] and not after["players"][BO]["defeated"]


def test_a_misdirection_does_not_turn_a_flight_after_a_defeat_either():
    # Dungeon 9.2: defeated while fleeing, the character still moves toward the Entrance next turn.
    game, state = misdirected(6, fleeing=True, defeated=True)
    events, _ = act(game, state, "roll", BO, values=[1], cards=[SWORD])
    assert of(events, Moved)[0].to_space == 5 and "fleeing" in of(events, EffectWasted)[0].reason


def test_a_misdirection_still_turns_an_inward_move_in_the_dungeon():
    # Dungeon 10.3: on a character moving inward (not fleeing, not defeated) it acts: 4 back to 2, not 6.
    game, state = misdirected(4)
    assert [a.id for a in game.legal_actions(state, BO) if a.id == "roll"] == ["roll"]
    events, after = act(game, state, "roll", BO, values=[2], cards=[SWORD])
    assert of(events, Moved)[0].to_space == 2
    assert of(events, EffectSpent)[0].effect == "misdirect" and of(events, EffectWasted) == []
    assert after["players"][BO]["ready"] == []


def test_misdirection_is_not_offered_at_a_character_whose_moves_are_forced():
    # House ruling (Misdirection and forced moves): a cast that can do nothing is not offered, as every
    # Spell that would find nothing to act on (Dungeon 9.1 fleeing, 7.3 moving back); inward it is.
    game, state = holding("misdirection")
    action = f"cast:{spell('misdirection')}:{BO}"
    put(state, BO, "dungeon", 4)
    assert casts(game, state) == [action]
    for flag in ("fleeing", "defeated"):
        forced = {**state, "players": {**state["players"], BO: {**state["players"][BO], flag: True}}}
        assert casts(game, forced) == [] and not game.is_legal(forced, ANN, action)


# -- house rule H2.11, Spells reach the Dungeon (Dungeon 10.1-10.2) ------------------------------------------


def test_destruction_cast_on_the_main_board_reaches_a_dungeon_card():
    # Dungeon 10.1: Destruction may be used on Dungeon cards; house rule H2.11: also from the main board.
    game, state = holding("destruction")
    lay(state, "outer", 3, GOBLIN)
    lay(state, "dungeon", 4, RAT)
    state["piles"]["dungeon"].remove(RAT)
    _, after = act(game, state, f"cast:{spell('destruction')}")
    assert after["choice"]["options"] == [f"3:{GOBLIN}", f"dungeon:4:{RAT}"]
    events, after = choose(game, after, f"dungeon:4:{RAT}")
    destroyed = of(events, CardDestroyed)[0]
    assert (destroyed.board, destroyed.space, destroyed.deck) == ("dungeon", 4, "dungeon")
    assert after["cards"]["dungeon"][4] == [] and after["cards"]["outer"][3] == [GOBLIN]
    assert RAT in after["piles"]["discard:dungeon"]


def test_destruction_is_offered_on_the_main_board_for_a_dungeon_card_alone():
    # Dungeon 10.1 and house rule H2.11: a Dungeon card is enough for the Spell to be worth casting.
    game, state = holding("destruction", "displacement", "metamorph")
    assert casts(game, state) == []
    lay(state, "dungeon", 4, RAT)
    assert len(casts(game, state)) == 3


def test_displacement_cast_on_the_main_board_moves_a_dungeon_card_within_the_dungeon():
    # Dungeon 10.1: Displacement on a Dungeon card; it moves to another space of the Dungeon.
    game, state = holding("displacement")
    lay(state, "dungeon", 4, RAT)
    _, after = act(game, state, f"cast:{spell('displacement')}")
    events, after = choose(game, after, f"dungeon:4:{RAT}")
    offered = of(events, ChoiceOffered)[0]
    assert offered.kind == f"displace-to:dungeon:4:{RAT}" and "4" not in offered.options
    assert len(offered.options) == len(after["cards"]["dungeon"]) - 1
    events, after = choose(game, after, "9")
    moved = of(events, CardDisplaced)[0]
    assert (moved.board, moved.from_space, moved.to_space) == ("dungeon", 4, 9)
    assert after["cards"]["dungeon"][4] == [] and after["cards"]["dungeon"][9] == [RAT]


def test_metamorph_cast_on_the_main_board_sends_a_dungeon_card_back_into_the_dungeon_deck():
    # Dungeon 10.1: Metamorph on a Dungeon card: it goes back into its own deck, the Dungeon's.
    game, state = holding("metamorph")
    lay(state, "dungeon", 4, RAT)
    state["piles"]["dungeon"].remove(RAT)
    _, after = act(game, state, f"cast:{spell('metamorph')}")
    events, after = choose(game, after, f"dungeon:4:{RAT}")
    returned = of(events, CardReturned)[0]
    assert (returned.board, returned.space, returned.deck) == ("dungeon", 4, "dungeon")
    assert RAT in after["piles"]["dungeon"] and after["cards"]["dungeon"][4] == []


def test_a_hex_cast_on_the_main_board_is_laid_on_a_dungeon_space_and_strikes_there():
    # Dungeon 10.2: the Hex may be played on Dungeon spaces; house rule H2.11: also from the main board.
    game, state = holding("hex")
    _, after = act(game, state, f"cast:{spell('hex')}")
    options = after["choice"]["options"]
    assert options[:24] == [str(s) for s in range(24)] and options[24:] == [f"dungeon:{s}" for s in range(25)]
    events, after = choose(game, after, "dungeon:5")
    laid = of(events, SpellLaid)[0]
    assert (laid.board, laid.space) == ("dungeon", 5) and after["cards"]["dungeon"][5] == [spell("hex")]
    put(after, BO, "dungeon", 3)
    after.update(turn=BO, step="start")
    events, after = act(game, after, "roll", BO, values=[2], cards=[SWORD])
    assert of(events, LifeLost)[0].player == BO and of(events, CardDiscarded)[0].card == spell("hex")


def test_a_barrier_cast_on_the_main_board_keeps_a_dungeon_space_from_being_met():
    # Dungeon 10.2: the Barrier may be played on Dungeon spaces; the next to land there meets nothing.
    game, state = holding("barrier")
    _, after = act(game, state, f"cast:{spell('barrier')}")
    _, after = choose(game, after, "dungeon:5")
    put(after, BO, "dungeon", 3)
    after.update(turn=BO, step="start")
    events, after = act(game, after, "roll", BO, values=[2])  # no Dungeon card is drawn there
    assert [e.card for e in of(events, CardDiscarded)] == [spell("barrier")]
    assert after["cards"]["dungeon"][5] == []


def test_a_spell_cast_inside_the_dungeon_reaches_only_the_dungeon():
    # Dungeon 10: otherwise the Dungeon counts as a Region: from inside, its own cards and spaces alone.
    game, state = holding("destruction", "hex", board="dungeon", space=5)
    lay(state, "outer", 3, GOBLIN)
    lay(state, "dungeon", 4, RAT)
    _, after = act(game, state, f"cast:{spell('destruction')}")
    assert after["choice"]["options"] == [f"4:{RAT}"]
    _, after = act(game, state, f"cast:{spell('hex')}")
    assert after["choice"]["options"] == [str(s) for s in range(25)]


def test_without_the_dungeon_the_spells_reach_only_the_casters_region():
    # Dungeon 10 applies only with the Dungeon in play: the main board's Hex offers its region's spaces.
    game, state = new_game({}, characters=("wizard", "warrior"))
    put(state, ANN, "outer", 0, spells=[spell("hex")])
    _, after = act(game, state, f"cast:{spell('hex')}")
    assert after["choice"]["options"] == [str(s) for s in range(24)]


def test_the_dungeon_options_of_a_spell_cast_on_the_main_board_name_the_dungeon_space():
    # House rule H2.11: the choices say where each option acts, so a player can follow them.
    ctx = holding()[0].ctx
    assert option_label(ctx, "destroy:outer", f"dungeon:6:{RAT}") == (
        "Destroy the Giant Rat on the Guard Room (Dungeon 6)"
    )
    assert option_label(ctx, f"lay:outer:{spell('barrier')}", "dungeon:6") == (
        "Lay the Barrier on the Guard Room (Dungeon 6)"
    )
    assert option_label(ctx, "metamorph:outer", f"dungeon:6:{RAT}") == (
        "Send the Giant Rat on the Guard Room (Dungeon 6) back into its deck"
    )
