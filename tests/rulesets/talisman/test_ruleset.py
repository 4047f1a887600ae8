"""The `talisman` ruleset as a whole: its options, who acts, pending choices, decide never mutating, and
the minimal board view (house rules H5)."""

from __future__ import annotations

import pytest

from domain.dice import ScriptedDice
from domain.errors import BadSetup, IllegalAction
from projections import talisman_view
from tests.main_helpers import ANN, BO, act, land, new_game, put


def test_options_are_the_ending_the_bot_round_cap_and_the_expansions():
    game, _ = new_game({"ending": "first", "bot_round_cap": "400"})
    assert {k: game.options[k] for k in ("ending", "bot_round_cap")} == {
        "ending": "first",
        "bot_round_cap": "400",
    }
    # house rule H5.20: every option is recorded, the expansions off unless asked for.
    assert game.options["dungeon"] == game.options["keep"] == "false"
    with pytest.raises(BadSetup):
        new_game({"ending": "never"})
    with pytest.raises(BadSetup, match="needs its expansion"):
        new_game({"keep.hoard": "true"})  # an expansion's option without the expansion
    with pytest.raises(BadSetup, match="alternatives"):
        new_game({"dungeon": "true", "dungeon.talisman_exit": "true", "dungeon.crown_exit": "true"})


def test_the_deal_puts_each_character_on_its_starting_space():
    _, state = new_game(characters=("warrior", "wizard"))
    ann, bo = state["players"][ANN], state["players"][BO]
    assert (ann["board"], ann["space"], bo["space"]) == ("outer", 18, 2)  # the Tavern, the Graveyard
    assert (ann["lives"], ann["gold"], bo["alignment"]) == (4, 1, "evil")
    assert state["turn"] == ANN and state["round"] == 1


def test_only_the_player_on_turn_acts():
    game, state = new_game()
    assert game.status(state)["to_act"] == [ANN]
    assert game.legal_actions(state, BO) == []
    with pytest.raises(IllegalAction):
        game.decide(state, "roll", BO, ScriptedDice([3]))


def test_a_pending_choice_is_the_only_thing_to_do_and_its_player_acts():
    game, state = new_game()
    put(state, ANN, "outer", 23)
    _, after = land(game, state, "outer", 0)  # the Village offers its services
    assert game.status(after)["to_act"] == [ANN]
    ids = [a.id for a in game.legal_actions(after)]
    assert ids and all(i.startswith("choose:") for i in ids)
    assert not game.is_legal(after, ANN, "roll")


def test_decide_in_place_gives_the_events_decide_gives():
    game, state = new_game()
    events, _ = act(game, state, "roll", values=[4])
    in_place = game.decide_in_place(state, "roll", ANN, ScriptedDice([4]))
    assert [e.to_fields() for e in in_place] == [e.to_fields() for e in events]
    assert state["step"] == "rolled"


def test_the_board_view_fits_80_columns():
    game, state = new_game(characters=("warrior", "wizard", "troll", "martial-artist"))
    text = talisman_view.render_board(state)
    tavern = next(line for line in text.splitlines() if line.split()[1:2] == ["Tavern"])
    assert "Outer Region" in text and "Ann" in tavern.split()
    assert max(len(line) for line in text.splitlines()) <= 80
    summary = talisman_view.players_summary(state)
    assert summary[0]["space_name"] == "Tavern" and summary[0]["board"] == "outer"


def test_choices_are_labelled_in_words():
    game, state = new_game()
    put(state, ANN, "outer", 23, gold=5)
    _, after = land(game, state, "outer", 0)
    assert [a.label for a in game.legal_actions(after)] == [
        "Go to the Blacksmith",
        "Go to the Mystic",
        "Leave",
    ]
    _, after = act(game, after, "choose:blacksmith")
    assert "Buy the Water Bottle" in [a.label for a in game.legal_actions(after)]
