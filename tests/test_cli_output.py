"""Output for people and machines: rulesets, did-you-mean, content dirs, JSON errors, log, export, fork."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.rulesets.catalogue import describe_ruleset

SHIPPED = ("dungeon-short", "keep-run", "vampire-empire")


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "out.sqlite")


def run(db, *args, env=None):
    return CliRunner().invoke(cli, ["--db", db, *args], env=env)


def new_game(db, ruleset="dungeon-short", *players):
    seats = players or ("Ann", "Vlad")
    args = [arg for name in seats for arg in ("--player", name)]
    result = run(db, "new", ruleset, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["game"]


def one_line_error(result, code=2):
    assert result.exit_code == code, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


# --- nightkeep rulesets ---------------------------------------------------------------------------------


def test_rulesets_json_lists_players_options_with_defaults_and_characters():
    listed = {r["name"]: r for r in json.loads(CliRunner().invoke(cli, ["rulesets", "--json"]).stdout)}
    assert set(SHIPPED) <= set(listed)
    keep = listed["keep-run"]
    assert keep["players"] == {"min": 2, "max": 6}
    assert keep["options"] == [
        {"key": "hoard", "values": ["true", "false"], "default": "false", "help": keep["options"][0]["help"]}
    ]
    assert {"id": "warrior", "name": "Warrior"} in keep["characters"]
    castle = listed["vampire-empire"]
    assert castle["players"] == {"min": 2, "max": 2}
    assert [c["id"] for c in castle["characters"]] == ["human", "vampire"]
    assert listed["dungeon-short"]["options"] == []


def test_rulesets_text_fits_80_columns_and_names_every_option_and_character():
    result = CliRunner().invoke(cli, ["rulesets"])
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    text = " ".join(result.stdout.split())
    for name in SHIPPED:
        assert f"{name} (" in text
    assert "--option hoard=true|false (default false)" in text
    assert "martial-artist" in text and "sides (--player NAME:SIDE): human, vampire" in text


def test_new_help_and_top_level_help_name_the_rulesets():
    new_help = CliRunner().invoke(cli, ["new", "--help"]).stdout
    top_help = CliRunner().invoke(cli, ["--help"]).stdout
    for name in SHIPPED:
        assert name in new_help and name in top_help
    assert "nightkeep rulesets" in new_help
    assert "Talisman Dungeon games" not in top_help


def test_the_catalogue_reads_characters_from_the_content_in_use(content_override):
    content_override("talisman", "characters.toml", lambda t: t.replace('name = "Warrior"', 'name = "Brute"'))
    assert ("warrior", "Brute") in describe_ruleset("dungeon-short").characters


# --- did you mean ---------------------------------------------------------------------------------------


def test_a_misspelt_ruleset_gets_a_suggestion(db):
    line = one_line_error(run(db, "new", "dungeon-shrot", "--player", "Ann", "--player", "Bo"))
    assert "did you mean 'dungeon-short'?" in line


def test_a_misspelt_option_key_and_value_get_suggestions(db):
    seats = ("--player", "Ann", "--player", "Bo")
    key = one_line_error(run(db, "new", "keep-run", *seats, "--option", "hord=true"))
    value = one_line_error(run(db, "new", "keep-run", *seats, "--option", "hoard=ture"))
    assert "did you mean 'hoard'?" in key and "did you mean 'true'?" in value


def test_a_misspelt_character_or_side_gets_a_suggestion(db):
    line = one_line_error(run(db, "new", "dungeon-short", "--player", "Ann:wariror", "--player", "Bo"))
    assert "did you mean 'warrior'?" in line
    line = one_line_error(run(db, "new", "vampire-empire", "--player", "Ann:vampyre", "--player", "Bo"))
    assert "did you mean 'vampire'?" in line


def test_a_player_named_in_the_wrong_case_gets_the_seated_name(db):
    game = new_game(db)
    for command in (("show", game), ("log", game), ("actions", game)):
        line = one_line_error(run(db, *command, "--as", "vlad"))
        assert "no player 'vlad'" in line and "did you mean 'Vlad'?" in line, command
    line = one_line_error(run(db, "act", game, "roll", "--as", "vlad"))
    assert "did you mean 'Vlad'?" in line


def test_a_misspelt_action_id_gets_the_legal_one(db):
    game = new_game(db)
    line = one_line_error(run(db, "act", game, "rol", "--as", "Ann"), code=1)
    assert "did you mean 'roll'?" in line


def test_a_misspelt_command_gets_a_suggestion(db):
    line = one_line_error(run(db, "shwo"))
    assert "did you mean 'show'?" in line.lower()
