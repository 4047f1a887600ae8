"""How a main-board game ends and goes on after a death (house rules H1, H5): the Crown and its Command
Spell, the Crown against healing (house rule H5.21), `ending=first`, a killed character's new start, the
bot round cap, and bots finishing a game."""

from __future__ import annotations

from domain.bots import Bot
from domain.dice import HmacDice
from domain.events import GameEnded, GameWon, LifeGained, LifeLost, PlayerOut
from domain.rulesets.talisman.main.events import CharacterDied, CharacterRestarted, CommandSpellCast
from tests.decider_helpers import fold, of
from tests.main_helpers import ANN, BO, act, lay, new_game, put

TALISMAN = "talisman/talisman/1"
SWORD = "talisman/card/sword-1"


def test_a_killed_character_leaves_its_things_and_its_player_starts_anew():
    # house rule H1.7: what a killed character carried stays on its space; house rule H5.17: a new character,
    # at random.
    game, state = new_game()
    put(state, ANN, "outer", 2, lives=1, gold=3, objects=[SWORD])  # the Graveyard hurts the neutral on 1-2
    put(state, BO, "outer", 5)  # away: characters met on a space may attack instead (house rule H5.16)
    lay(state, "outer", 2)
    state.update(step="rolled", rolled=1)
    put(state, ANN, "outer", 1)
    events, after = act(game, state, "go:outer:2", values=[1], cards=["talisman/character/monk"])
    killed = of(events, CharacterDied)[0]
    assert (killed.character, killed.board, killed.space) == ("talisman/character/warrior", "outer", 2)
    restarted = of(events, CharacterRestarted)[0]
    assert restarted.character == "talisman/character/monk" and (restarted.board, restarted.space) == (
        "outer",
        0,
    )
    assert after["cards"]["outer"][2] == [SWORD] and after["gold"]["outer"][2] == 3
    sheet = after["players"][ANN]
    assert (sheet["character"], sheet["lives"], sheet["board"], sheet["space"]) == (
        "talisman/character/monk",
        4,
        "outer",
        0,
    )
    assert "talisman/character/warrior" in after["piles"]["characters"]
    assert "talisman/character/monk" not in after["piles"]["characters"]


def test_ending_first_the_first_to_reach_the_crown_wins():
    # house rule H5.19: option ending=first, the original rule.
    game, state = new_game({"ending": "first"})
    put(state, ANN, "inner", 4, talismans=[TALISMAN])
    events, after = act(game, state, "advance")
    assert of(events, GameWon)[0].player == ANN and game.status(after)["status"] == "finished"


def test_on_the_crown_the_only_action_is_the_command_spell():
    game, state = new_game()
    put(state, ANN, "crown", 0)
    state["crown_reached"] = True
    assert [a.id for a in game.legal_actions(state, ANN)] == ["command"]


def test_the_command_spell_on_four_to_six_takes_a_life_from_every_other_character():
    # house rule H5.19: roll 1 die, 4-6 every other character loses 1 life.
    game, state = new_game()
    put(state, ANN, "crown", 0)
    state["crown_reached"] = True
    events, after = act(game, state, "command", values=[4])
    assert of(events, CommandSpellCast)[0].hit and of(events, LifeLost)[0].player == BO
    events, _ = act(game, state, "command", values=[3])
    assert not of(events, CommandSpellCast)[0].hit and not of(events, LifeLost)


def test_once_the_crown_is_reached_a_killed_player_is_out_and_the_last_alive_wins():
    # house rule H5.17: no new character once someone stands on the Crown; the last alive wins (house).
    game, state = new_game()
    put(state, ANN, "crown", 0)
    put(state, BO, "outer", 5, lives=1)
    state["crown_reached"] = True
    events, after = act(game, state, "command", values=[6])
    assert of(events, PlayerOut)[0].player == BO and not of(events, CharacterRestarted)
    assert of(events, GameWon)[0].player == ANN and after["winner"] == ANN


def test_the_bot_round_cap_ends_the_game_drawn_and_says_so():
    # house rule H6.1: house turn cap for bots only, said in the log.
    game, state = new_game({"bot_round_cap": "400"})
    state["round"] = 400
    put(state, BO, "outer", 5)
    lay(state, "outer", 4, "talisman/card/market-day")
    state.update(turn=BO, step="rolled", rolled=1)
    events, after = act(game, state, "go:outer:4", player=BO)
    ended = of(events, GameEnded)[0]
    assert ended.winner == ""
    assert "house round cap for bot games (house rule H6.1, docs/house-rules.md)" in ended.reason
    assert after["round"] == 401 and game.status(after)["status"] == "finished"


def test_without_the_cap_the_rounds_run_on():
    game, state = new_game()
    state["round"] = 400
    lay(state, "outer", 4, "talisman/card/market-day")
    put(state, BO, "outer", 5)
    state.update(turn=BO, step="rolled", rolled=1)
    events, _ = act(game, state, "go:outer:4", player=BO)
    assert not of(events, GameEnded)


def test_a_seeded_bot_game_ends_with_a_winner_or_at_the_cap():
    game, state = new_game({"bot_round_cap": "400"}, characters=("warrior", "wizard", "troll"))
    dice, bot = HmacDice(b"\x07" * 32), Bot(7)
    for _ in range(20_000):
        if game.status(state)["status"] == "finished":
            break
        action = bot.choose(game, state, game.legal_actions(state))
        fold(game, state, game.decide(state, action.id, action.player, dice))
    assert game.status(state)["status"] == "finished"
    assert state["winner"] or state["round"] == 401


RING = "talisman/card/ring-of-healing"


def test_house_rule_the_crown_against_healing_stops_a_ring_while_another_holds_the_crown():
    # House rule H5.21, the Crown against healing: while another character stands on the Crown of Command,
    # no item heals; else a Ring of Healing outheals the Command Spell (H5.19) and the game never ends.
    game, state = new_game()
    put(state, BO, "crown", 0)
    put(state, ANN, "outer", 0, lives=2, objects=[RING])
    state["crown_reached"] = True
    events, after = act(game, state, "roll", values=[3])
    assert not of(events, LifeGained) and after["players"][ANN]["lives"] == 2
    # Off the Crown again (nobody there), the same ring heals at the start of the turn.
    put(state, BO, "outer", 5)
    events, after = act(game, state, "roll", values=[3])
    assert of(events, LifeGained)[0].amount == 1 and after["players"][ANN]["lives"] == 3


def test_house_rule_the_crown_against_healing_spares_the_holder_of_the_crown():
    # The character on the Crown is not "another": its own ring still heals it before its Command Spell.
    game, state = new_game()
    put(state, ANN, "crown", 0, lives=2, objects=[RING])
    state["crown_reached"] = True
    events, after = act(game, state, "command", values=[4])
    assert of(events, LifeGained)[0].amount == 1 and after["players"][ANN]["lives"] == 3
    assert of(events, LifeLost)[0].player == BO
