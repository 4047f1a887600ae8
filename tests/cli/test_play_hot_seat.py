"""`nightkeep play GAME` at one terminal: numbered choices, ids and prefixes, bots in chosen seats, q to stop,
and in a game with secrets a cleared screen and a question before each player sits down."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from cli.main import cli
from event_store.app.service import GameService

CLEARED = "(screen cleared)"


def run(db, *args, input=None):
    return CliRunner().invoke(cli, ["--db", db, *args], input=input)


def new_game(db, ruleset, *players):
    seats = [arg for p in players for arg in ("--player", p)]
    result = run(db, "new", ruleset, *seats, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["game"]


def actions_taken(db, game):
    service = GameService.open(db)
    return service.get_game(service.resolve_game_id(game)).meta["actions"]


def status(db, game):
    return json.loads(run(db, "show", game, "--json").stdout)["status"]


def test_without_a_terminal_play_says_what_to_do_and_exits_2(db):
    game = new_game(db, "dungeon-short", "Ann", "Bo")
    result = run(db, "play", game)
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0 and "--bots" in result.stderr and "--stdin" in result.stderr


def test_a_number_takes_that_action_and_q_stops_with_everything_stored(db):
    game = new_game(db, "dungeon-short", "Ann", "Bo")
    before = actions_taken(db, game)
    result = run(db, "play", game[:8], "--stdin", input="1\nq\n")
    assert result.exit_code == 0, result.output
    assert re.search(r"^1 +roll +Roll", result.stdout, re.M)
    assert "Stopped; every action so far is stored" in result.stdout
    assert actions_taken(db, game) == before + 1  # Ann's roll, then Bo's turn was not taken


def test_a_prefix_of_an_action_id_is_enough_and_a_bad_choice_asks_again(db):
    game = new_game(db, "dungeon-short", "Ann", "Bo")
    before = actions_taken(db, game)
    result = run(db, "play", game, "--stdin", input="99\nzz\nro\n")  # end of input stops too
    assert result.exit_code == 0, result.output
    assert "there is no action 99" in result.stdout and "no action 'zz' now" in result.stdout
    assert actions_taken(db, game) == before + 1


def test_a_bot_takes_its_seat_and_the_human_plays_to_the_end(db):
    game = new_game(db, "dungeon-short", "Ann", "Bo")
    result = run(db, "play", game, "--bot", "Bo", "--stdin", input="1\n" * 500)
    assert result.exit_code == 0, result.output
    assert "No more play: the game is over" in result.stdout
    assert status(db, game) == "finished"


def test_a_bot_for_a_seat_nobody_has_is_refused(db):
    game = new_game(db, "dungeon-short", "Ann", "Bo")
    result = run(db, "play", game, "--bot", "Vlad", "--stdin", input="q\n")
    assert result.exit_code == 2 and "no player 'Vlad'" in result.stderr


def test_a_secret_game_asks_who_sits_down_and_clears_the_screen_between_players(db):
    game = new_game(db, "vampire-empire", "Hana:human", "Vlad:vampire")
    result = run(db, "play", game, "--stdin", input="Hana\nVlad\n1\ndraw\npass\nHana\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert "It is Vlad to act, not 'Hana'" in result.stdout  # Vlad's turn: Hana may not look
    assert result.stdout.count("Who is at the keyboard?") >= 2
    assert result.stdout.count(CLEARED) >= 2
    # Nothing Vlad saw of his own hand is left after the screen is cleared for Hana.
    vlad_part, _, hana_part = result.stdout.partition("Hana to act. Who is at the keyboard? Hana")
    assert hana_part and "Into Vlad's hand" in vlad_part and "Into Vlad's hand" not in hana_part


def test_a_secret_game_with_a_bot_opponent_tells_the_player_what_the_bot_did(db):
    game = new_game(db, "vampire-empire", "Hana:human", "Vlad:vampire")
    result = run(db, "play", game, "--bot", "Vlad", "--stdin", input="Hana\ndraw\npass\nq\n")
    assert result.exit_code == 0, result.output
    assert "Since your last choice, Hana" in result.stdout
    assert "Vlad" in result.stdout.partition("Since your last choice, Hana")[2]


def test_log_board_and_help_show_what_a_screen_may_cut_and_then_the_choice_is_asked_again(db):
    game = new_game(db, "dungeon-short", "Ann", "Bo")
    result = run(db, "play", game, "--bot", "Bo", "--stdin", input="1\nlog\nboard\n?\n]\nq\n")
    assert result.exit_code == 0, result.output
    after_log = result.stdout.partition("your choice (number or id; ? help; q quits): log\n")[2]
    assert after_log.startswith("Since your last choice, Ann:\n") and "Bo's turn ended" in after_log
    after_board = after_log.partition("q quits): board\n")[2]
    assert after_board.startswith("The Dungeon (short game)\n")  # the whole board, its sheets included
    after_help = after_board.partition("q quits): ?\n")[2]
    assert after_help.startswith("At the choice prompt type") and "PgDn" in after_help
    assert after_help.partition("q quits): ]\n")[2].startswith("dungeon-short game ")  # one page: redrawn


def test_bots_in_every_seat_of_a_talisman_game_play_it_under_the_round_cap(db):
    # house rule H6.1: bots that finish a game bound it; a person at a seat keeps the game as created.
    game = new_game(db, "talisman", "Ann", "Bo")
    result = run(db, "play", game, "--bot", "Ann", "--bot", "Bo", "--stdin", input="q\n")
    assert result.exit_code == 0, result.output
    assert status(db, game) == "finished"
    service = GameService.open(db)
    assert service.get_game(service.resolve_game_id(game)).meta["options"]["bot_round_cap"] == "400"
    other = new_game(db, "talisman", "Cy", "Di")
    assert run(db, "play", other, "--bot", "Cy", "--stdin", input="q\n").exit_code == 0
    assert service.get_game(service.resolve_game_id(other)).meta["options"]["bot_round_cap"] == "0"
