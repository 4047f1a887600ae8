"""The CLI on the Dungeon short game: dealing, bad characters and content, bots, the demo."""

from __future__ import annotations

import json
from uuid import UUID

import pytest
from click.testing import CliRunner

from cli.main import cli
from event_store.app.service import GameService
from tests import store_rows


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
    assert "won after" in result.stdout or "Nobody won" in result.stdout
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


def test_players_add_entropy_then_the_host_starts_the_game(db):
    game = json.loads(
        run(
            db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--wait-for-entropy", "--json"
        ).stdout
    )["game"]
    refused = run(db, "act", game, "roll", "--as", "Ann")
    assert refused.exit_code == 1 and "not started" in refused.stderr
    assert run(db, "entropy", game, "Ann's coin flips", "--as", "Ann").exit_code == 0
    assert run(db, "entropy", game, "x", "--as", "Zed").exit_code == 2
    started = json.loads(run(db, "start", game, "--json").stdout)
    assert started["events"][0]["type"] == "ActionTaken"
    late = run(db, "entropy", game, "late", "--as", "Bo")
    assert late.exit_code == 2
    log = json.loads(run(db, "log", game, "--json").stdout)
    assert [e["type"] for e in log[:5]] == [
        "GameCreated",
        "SeedCommitted",
        "DiceChainCommitted",
        "EntropyAdded",
        "ActionTaken",
    ]


def test_acting_on_a_finished_game_says_it_is_over(db):
    game = json.loads(run(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json").stdout)[
        "game"
    ]
    run(db, "play", game, "--bots", "--seed", "1")
    result = run(db, "act", game, "roll", "--as", "Ann")
    assert result.exit_code == 1 and "game is over" in result.stderr


def test_export_writes_a_replay_and_refuses_a_tampered_store(db, tmp_path):
    from event_store.app.replay_file import read_replay

    game = json.loads(run(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json").stdout)[
        "game"
    ]
    run(db, "play", game, "--bots", "--seed", "1")
    out = tmp_path / "game.nkr"
    assert run(db, "export", game, "-o", str(out)).exit_code == 0
    assert read_replay(out.read_bytes()).header["game"] == game
    missing = run(db, "export", game, "-o", str(tmp_path / "no" / "such" / "dir.nkr"))
    assert missing.exit_code == 2 and len(missing.stderr.strip().splitlines()) == 1

    service = GameService.open(db)
    game_id = service.resolve_game_id(game)
    rolled = next(r for r in service.recorded_events(game_id) if r.type_name == "DieRolled")
    envelope = service.mapper.transcoder.decode(store_rows.event_state(service, game_id, rolled.version))
    envelope["fields"]["values"] = [7 - v for v in envelope["fields"]["values"]]
    store_rows.set_event_state(service, game_id, rolled.version, service.mapper.transcoder.encode(envelope))
    service.close()
    tampered = run(db, "export", game, "-o", str(tmp_path / "t.nkr"))
    assert tampered.exit_code == 1
    assert f"chain breaks at event {rolled.version}" in tampered.stderr


def test_a_damaged_stored_event_is_a_one_line_error(db):
    game = json.loads(run(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json").stdout)[
        "game"
    ]
    service = GameService.open(db)
    store_rows.set_event_state(service, UUID(game), 3, b"\xc1\xc1\xc1")  # bytes msgpack never writes
    service.close()
    for command in (["log", game], ["show", game]):
        result = run(db, *command)
        assert result.exit_code == 2, result.output
        assert "unreadable" in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["new", "dungeon-short", "--player", "A", "--player", "B", "--dice", "1,,2"], "malformed --dice"),
        (
            ["new", "dungeon-short", "--player", "A", "--player", "B", "--entropy", "A="],
            "malformed --entropy",
        ),
        (["play", "x", "--bot"], "'--bot' requires an argument"),
        (["show", "x", "--at", "abc"], "not a valid integer"),
    ],
)
def test_usage_errors_are_one_line(db, args, fragment):
    result = run(db, *args)
    assert result.exit_code == 2
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_an_empty_or_unsupported_store_location_is_refused(tmp_path):
    for location in ("", "mysql://someone@localhost/nightkeep"):
        result = CliRunner().invoke(cli, ["--db", location, "games"])
        assert result.exit_code == 2 and ("empty" in result.stderr or "unsupported store" in result.stderr)
