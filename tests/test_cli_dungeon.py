"""The CLI on the Dungeon short game: dealing, bad characters and content, bots, the demo."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from event_store.service import GameService


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "dungeon.sqlite")


def run(db, *args, env=None):
    return CliRunner().invoke(cli, ["--db", db, *args], env=env)


def stored(db):
    service = GameService.open(db)
    return service.recorder.max_notification_id() or 0


def test_a_player_without_a_character_is_dealt_one_by_a_recorded_draw(db):
    game = json.loads(
        run(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo:warrior", "--json").stdout
    )
    log = json.loads(run(db, "log", game["game"], "--json").stdout)
    dealt = {e["fields"]["player"]: e["fields"] for e in log if e["type"] == "CharacterDealt"}
    assert dealt["Ann"]["draw"] >= 0 and dealt["Ann"]["character"] != "talisman/character/warrior"
    assert dealt["Bo"] == {"player": "Bo", "character": "talisman/character/warrior", "draw": -1}


def test_bots_finish_a_dungeon_game_and_show_reports_the_winner(db):
    game = json.loads(run(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json").stdout)[
        "game"
    ]
    shown = json.loads(run(db, "play", game, "--bots", "--seed", "5", "--json").stdout)
    assert shown["status"] == "finished"
    assert {p["name"] for p in shown["players"]} == {"Ann", "Bo"}
    winners = [p["name"] for p in shown["players"] if p["status"] == "winner"]
    assert winners == ([shown["winner"]] if shown["winner"] else [])
    board = run(db, "show", game).stdout
    assert "24 Treasure" in board and "Ann" in board


@pytest.mark.parametrize(
    ("players", "fragment"),
    [
        (["--player", "Ann:dragonslayer", "--player", "Bo"], "dragonslayer"),
        (["--player", "Ann"], "2"),
        (["--player", "Ann", "--player", "Ann"], "Ann"),
        (["--player", "Ann:warrior", "--player", "Bo:warrior"], "warrior"),
    ],
)
def test_bad_setups_exit_2_with_one_line_and_store_nothing(db, players, fragment):
    result = run(db, "new", "dungeon-short", *players)
    assert result.exit_code == 2, result.output
    assert fragment.lower() in result.stderr.lower()
    assert len(result.stderr.strip().splitlines()) == 1
    assert stored(db) == 0


def test_a_corrupt_content_file_exits_2_naming_the_file_and_stores_nothing(db, tmp_path):
    override = tmp_path / "content" / "dungeon"
    override.mkdir(parents=True)
    (override / "board.toml").write_text("source = 'house'\n[[spaces]\nindex = 0\n", encoding="utf-8")
    result = run(
        db,
        "new",
        "dungeon-short",
        "--player",
        "Ann",
        "--player",
        "Bo",
        env={"NIGHTKEEP_CONTENT_DIR": str(tmp_path / "content")},
    )
    assert result.exit_code == 2
    assert "board.toml" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert stored(db) == 0


def test_an_illegal_dungeon_action_exits_1(db):
    game = json.loads(run(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json").stdout)[
        "game"
    ]
    before = stored(db)
    result = run(db, "act", game, "flee", "--as", "Ann")  # 9.1: not before leaving the Entrance
    assert result.exit_code == 1
    assert stored(db) == before


def test_demo_plays_a_whole_game_and_says_how_to_replay_it(db):
    result = run(db, "demo", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "24 Treasure" in result.stdout
    assert "wins after" in result.stdout or "Nobody wins" in result.stdout
    replay_line = next(
        line for line in result.stdout.splitlines() if "replay" in line and "nightkeep" in line
    )
    game_id = replay_line.split()[-1]
    replayed = run(db, "replay", game_id)
    assert replayed.exit_code == 0 and "revealed the dice seed" in replayed.stdout


@pytest.mark.parametrize("name", ["dungeon/guard", "host", "x" * 40])
def test_player_names_that_could_pass_for_ids_or_the_host_are_refused(db, name):
    result = run(db, "new", "dungeon-short", "--player", name, "--player", "Bo")
    assert result.exit_code == 2
    assert "player name" in result.stderr
    assert stored(db) == 0
