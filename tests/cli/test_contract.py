"""The CLI contract on the toy ruleset: JSON shapes, exit codes, one-line errors, nothing stored on error."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from cli.main import cli
from event_store.app.service import GameService


def run(db, *args):
    result = CliRunner().invoke(cli, ["--db", db, *args])
    return result


def stored_events(db):
    service = GameService.open(db)  # keep a reference: a collected Application closes its store
    return service.recorder.max_notification_id() or 0


def new_game(db, *extra):
    result = run(db, "new", "toy-race", "--player", "Ann", "--player", "Bo", "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["game"]


def test_every_command_has_help_with_an_example():
    names = cli.list_commands(click.Context(cli))
    assert {"new", "show", "games", "host"} <= set(names)
    for name in names:
        command = cli.get_command(click.Context(cli), name)
        assert command is not None, name
        result = CliRunner().invoke(cli, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Example:" in result.output, f"{name} help has no example"
        assert command.help and command.help.strip(), name


def test_new_actions_act_show_log_in_json(db):
    game = new_game(db)
    actions = json.loads(run(db, "actions", game, "--json").stdout)
    assert actions == [{"id": "roll", "player": "Ann", "label": "Roll and move"}]
    acted = json.loads(run(db, "act", game, "roll", "--as", "Ann", "--json").stdout)
    assert [e["type"] for e in acted["events"]][:3] == ["ActionTaken", "DieRolled", "Moved"]
    assert acted["version"] == acted["events"][-1]["version"]
    shown = json.loads(run(db, "show", game, "--json").stdout)
    assert shown["game"] == game and shown["ruleset"] == "toy-race" and shown["status"] == "running"
    assert shown["version"] == acted["version"]
    log = json.loads(run(db, "log", game, "--json").stdout)
    assert [e["version"] for e in log] == list(range(1, acted["version"] + 1))
    assert log[0]["type"] == "GameCreated" and log[1]["fields"]["commitment"]


def test_play_with_bots_finishes_and_reveals_the_seed(db):
    game = new_game(db)
    shown = json.loads(run(db, "play", game, "--bots", "--seed", "3", "--json").stdout)
    assert shown["status"] == "finished" and shown["winner"] in {"Ann", "Bo"}
    log = json.loads(run(db, "log", game, "--json").stdout)
    assert log[-1]["type"] == "SeedRevealed"


def test_show_at_an_earlier_event_and_replay_to(db):
    game = new_game(db)
    run(db, "act", game, "roll", "--as", "Ann")
    early = json.loads(run(db, "show", game, "--at", "3", "--json").stdout)
    assert early["version"] == 3
    replayed = run(db, "replay", game, "--to", "4")
    assert replayed.exit_code == 0 and "    4  " in replayed.stdout


@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (["new", "no-such-game", "--player", "Ann"], 2, "unknown ruleset"),
        (["new", "toy-race", "--player", "Ann:"], 2, "malformed --player"),
        (["new", "toy-race", "--player", ":x"], 2, "malformed --player"),
        (["new", "toy-race", "--player", "A", "--option", "nokey"], 2, "malformed --option"),
        (["new", "toy-race", "--player", "A", "--option", "colour=red"], 2, "unknown option"),
        (["new", "toy-race", "--player", "A", "--dice", "7"], 2, "malformed --dice"),
        (["new", "toy-race", "--player", "A", "--entropy", "nothing"], 2, "malformed --entropy"),
        (["new", "toy-race", "--player", "A", "--entropy", "Zed=x"], 2, "no player 'Zed'"),
        (["show", "00000000-0000-0000-0000-000000000000"], 2, "no game"),
        (["show", "not-an-id"], 2, "not a game id"),
        (["act", "GAME", "roll", "--as", "Zed"], 2, "no player 'Zed'"),
        (["actions", "GAME", "--as", "Zed"], 2, "no player 'Zed'"),
        (["show", "GAME", "--as", "Zed"], 2, "no player 'Zed'"),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_exit_code_and_stores_nothing(db, args, code, fragment):
    game = new_game(db)
    before = stored_events(db)
    result = run(db, *[game if a == "GAME" else a for a in args])
    assert result.exit_code == code
    assert fragment in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert stored_events(db) == before
    assert game


def test_illegal_wrong_player_and_stale_actions_exit_1_and_store_nothing(db):
    game = new_game(db)
    before = stored_events(db)
    for args in (
        ["act", game, "fly", "--as", "Ann"],
        ["act", game, "roll", "--as", "Bo"],
        ["act", game, "roll", "--as", "Ann", "--expect-version", "2"],
    ):
        result = run(db, *args)
        assert result.exit_code == 1, (args, result.output)
        assert len(result.stderr.strip().splitlines()) == 1
    assert stored_events(db) == before


def test_act_without_as_is_taken_by_the_one_player_to_act(db):
    game = new_game(db)
    unnamed = run(db, "act", game[:8], "roll")  # hot seat: a short id and no --as
    assert unnamed.exit_code == 0, unnamed.output
    assert "Ann" in unnamed.stdout
    assert [a["player"] for a in json.loads(run(db, "actions", game, "--json").stdout)] == ["Bo"]


def test_act_with_as_names_its_player_so_a_repeated_command_cannot_play_the_next_turn(db, monkeypatch):
    game = new_game(db)
    assert run(db, "act", game, "roll", "--as", "Ann").exit_code == 0
    before = stored_events(db)
    again = run(db, "act", game, "roll", "--as", "Ann")  # the same command retried: Bo's turn now
    assert again.exit_code == 1 and "not Ann's turn" in again.stderr
    assert stored_events(db) == before
    monkeypatch.setenv("NIGHTKEEP_AS", "Bo")
    assert run(db, "act", game, "roll").exit_code == 0  # hot seat: the player from the environment
    assert json.loads(run(db, "actions", game, "--json").stdout) == []  # Bo's own actions: none, Ann's turn
    assert [a["player"] for a in json.loads(run(db, "actions", game, "--as", "Ann", "--json").stdout)] == [
        "Ann"
    ]


def test_a_corrupt_store_file_is_a_clear_error(tmp_path):
    # SQLite only: a file that is not a database (a PostgreSQL store is a server's, never a file).
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    result = run(str(bad), "show", "00000000-0000-0000-0000-000000000000")
    assert result.exit_code == 2
    assert "store" in result.stderr


def test_verbose_logs_are_json_lines_on_stderr_when_not_on_a_terminal(db):
    result = CliRunner().invoke(cli, ["--db", db, "-v", "new", "toy-race", "--player", "Ann", "--json"])
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stderr.strip().splitlines()]
    assert [line["event"] for line in lines] == ["game_created"]
    assert lines[0]["level"] == "info" and lines[0]["ruleset"] == "toy-race"
    assert json.loads(result.stdout)["game"] == lines[0]["game"]


def test_without_verbose_nothing_but_errors_reach_stderr(db):
    result = run(db, "new", "toy-race", "--player", "Ann")
    assert result.exit_code == 0 and result.stderr == ""


def test_a_mistyped_store_is_an_error_not_a_new_empty_store(tmp_path):
    # SQLite only: a path whose folders do not exist (tests/store/test_postgres.py holds a database without a
    # store to the same message).
    missing = tmp_path / "typo" / "gmaes.sqlite"
    for args in (["show", "1b4e28ba-2fa1-11d2-883f-0016d3cca427"], ["games"], ["log", "x"], ["audit", "x"]):
        result = run(str(missing), *args)
        assert result.exit_code == 2, args
        assert f"no store at {missing}" in result.stderr, args
    assert not missing.exists() and not missing.parent.exists()
    created = run(str(missing), "new", "toy-race", "--player", "Ann", "--player", "Bo")
    assert created.exit_code == 0 and missing.exists()


def test_an_old_shard_map_is_refused_in_one_line_and_a_store_file_so_named_still_opens(tmp_path, monkeypatch):
    # Shard maps are gone (issue 29): `shards:clubs.toml` is said to be one, never made a new SQLite file.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "clubs.toml").write_text('[[shard]]\nname = "a"\ndb = "a.sqlite"\n')
    for args in (["games"], ["new", "toy-race", "--player", "Ann", "--player", "Bo"]):
        result = run("shards:clubs.toml", *args)
        assert result.exit_code == 2, args
        assert result.stderr.count("\n") == 1 and "shard maps are gone" in result.stderr, args
        assert "docs/scaling.md" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clubs.toml"]
    # A store made under such a name (through ./, or before) is a SQLite file like any other.
    assert run("./shards:old.sqlite", "new", "toy-race", "--player", "Ann").exit_code == 0
    listed = run("shards:old.sqlite", "games", "--json")
    assert listed.exit_code == 0 and len(json.loads(listed.stdout)) == 1
