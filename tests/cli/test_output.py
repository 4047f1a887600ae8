"""Output for people and machines: rulesets, did-you-mean, content dirs, JSON errors, log, export, fork."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli
from domain.rulesets.catalogue import describe_ruleset
from event_store.config import store_exists

SHIPPED = ("dungeon-short", "keep-run", "vampire-empire", "talisman")


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
        {"key": "hoard", "values": ["true", "false"], "default": "false", "help": keep["options"][0]["help"]},
        {
            "key": "wizard",
            "values": ["choose", "auto"],
            "default": "choose",
            "help": keep["options"][1]["help"],
        },
    ]
    assert "Vampire Wizard" in keep["options"][1]["help"] and "Keep 8.4" in keep["options"][1]["help"]
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
    assert "--option wizard=choose|auto (default choose)" in text
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
    line = one_line_error(run(db, "act", game, "rool", "--as", "Ann"), code=1)
    assert "did you mean 'roll'?" in line


def test_a_misspelt_command_gets_a_suggestion(db):
    line = one_line_error(run(db, "shwo"))
    assert "did you mean 'show'?" in line.lower()


# --- NIGHTKEEP_CONTENT_DIR ------------------------------------------------------------------------------

SEATS = ("--player", "Ann", "--player", "Bo")


def stored_games(db):
    from event_store.app.service import GameService

    service = GameService.open(db)  # keep a reference: a collected Application closes its store
    return service.recorder.max_notification_id() or 0


def test_a_content_dir_that_does_not_exist_is_an_error_not_the_shipped_content(db, tmp_path):
    env = {"NIGHTKEEP_CONTENT_DIR": str(tmp_path / "no-such-folder")}
    line = one_line_error(run(db, "new", "dungeon-short", *SEATS, env=env))
    assert "NIGHTKEEP_CONTENT_DIR" in line and "does not exist" in line
    (tmp_path / "a-file").write_text("")
    line = one_line_error(run(db, "rulesets", env={"NIGHTKEEP_CONTENT_DIR": str(tmp_path / "a-file")}))
    assert "is not a directory" in line


def test_a_content_dir_with_a_misspelt_folder_or_file_names_it(db, tmp_path):
    (tmp_path / "dungon").mkdir()
    (tmp_path / "dungon" / "board.toml").write_text("")
    line = one_line_error(
        run(db, "new", "dungeon-short", *SEATS, env={"NIGHTKEEP_CONTENT_DIR": str(tmp_path)})
    )
    assert "dungon/" in line and "did you mean 'dungeon'?" in line
    other = tmp_path / "other"
    (other / "dungeon").mkdir(parents=True)
    (other / "dungeon" / "bord.toml").write_text("")
    line = one_line_error(run(db, "new", "dungeon-short", *SEATS, env={"NIGHTKEEP_CONTENT_DIR": str(other)}))
    assert "dungeon/bord.toml is no content file" in line and "did you mean 'board.toml'?" in line


def test_a_content_dir_without_the_rulesets_files_is_an_error_and_stores_nothing(db, tmp_path):
    (tmp_path / "keep").mkdir()
    (tmp_path / "keep" / "board.toml").write_text("")  # content for another ruleset only
    line = one_line_error(
        run(db, "new", "dungeon-short", *SEATS, env={"NIGHTKEEP_CONTENT_DIR": str(tmp_path)})
    )
    assert "holds none of this ruleset's files" in line and "dungeon/board.toml" in line
    assert stored_games(db) == 0


# --- errors as JSON, and a bare nightkeep ---------------------------------------------------------------


def json_error(result, code):
    assert result.exit_code == code, result.output
    assert result.stdout == ""
    return json.loads(result.stderr)


def test_with_json_a_nightkeep_error_is_json_on_stderr_with_the_same_exit_code(db):
    game = new_game(db)
    refused = json_error(run(db, "act", game, "flee", "--as", "Ann", "--json"), 1)
    assert refused["exit"] == 1 and "not a legal action" in refused["error"]
    bad = json_error(run(db, "show", game, "--as", "vlad", "--json"), 2)
    assert bad == {"error": bad["error"], "exit": 2} and "no player 'vlad'" in bad["error"]


def test_with_json_a_usage_error_from_click_is_json_too(db):
    missing = json_error(run(db, "show", "--json"), 2)
    assert missing == {"error": "Missing argument 'GAME'.", "exit": 2}
    unknown = json_error(run(db, "new", "dungeon-short", "--jsn", "--json"), 2)
    assert "--jsn" in unknown["error"]


def test_without_json_an_error_stays_one_plain_line(db):
    line = one_line_error(run(db, "show"))
    assert line.startswith("Error: Missing argument 'GAME'.")
    assert "--json" not in line and not line.startswith("{")


def test_a_json_after_a_double_dash_is_an_argument_not_the_flag(db):
    line = one_line_error(run(db, "show", "--", "--json"))
    assert line.startswith("Error: ")


def test_bare_nightkeep_prints_the_help_once_and_exits_0():
    result = CliRunner().invoke(cli, [])
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout.count("Usage:") == 1 and "Commands:" in result.stdout
    assert "Error" not in result.stdout


def test_a_real_commands_usage_error_is_still_one_line_exit_2(db):
    line = one_line_error(run(db, "fork", "some-game"))
    assert "Missing option '--at'" in line and "(see " in line


# --- log --json, export -o -, fork -----------------------------------------------------------------------


def played_game(db):
    game = new_game(db)
    assert run(db, "play", game, "--bots").exit_code == 0
    return game


def test_log_json_carries_chain_time_and_text_beside_version_type_and_fields(db):
    from datetime import datetime

    from event_store.app.service import GameService
    from projections.timeline import describe_events

    game = played_game(db)
    entries = json.loads(run(db, "log", game, "--json").stdout)
    service = GameService.open(db)
    recorded = service.recorded_events(service.resolve_game_id(game))
    assert [e["version"] for e in entries] == [r.version for r in recorded]
    texts = describe_events("dungeon-short", recorded)  # told as the plain log tells them: with labels
    for entry, r, text in zip(entries, recorded, texts, strict=True):
        assert set(entry) == {"version", "type", "fields", "chain", "time", "text"}
        assert entry["type"] == r.type_name
        assert entry["chain"] == r.chain.hex()
        assert datetime.fromisoformat(entry["time"]) == r.timestamp
        assert entry["text"] == text
    plain = run(db, "log", game).stdout.splitlines()
    assert plain[0].split(None, 1)[1] == entries[0]["text"]


def test_export_to_dash_writes_the_replay_bytes_to_stdout(db, tmp_path):
    game = played_game(db)
    to_file = tmp_path / "game.nkr"
    assert run(db, "export", game, "-o", str(to_file)).exit_code == 0
    result = run(db, "export", game, "-o", "-")
    assert result.exit_code == 0
    assert result.stdout_bytes == to_file.read_bytes()
    assert not (tmp_path / "-").exists()


def test_export_refuses_an_existing_file_unless_forced(db, tmp_path):
    game = played_game(db)
    out = tmp_path / "game.nkr"
    out.write_bytes(b"keep me")
    line = one_line_error(run(db, "export", game, "-o", str(out)))
    assert "exists" in line and "--force" in line
    assert out.read_bytes() == b"keep me"
    forced = run(db, "export", game, "-o", str(out), "--force")
    assert forced.exit_code == 0, forced.output
    assert out.read_bytes() == run(db, "export", game, "-o", "-").stdout_bytes


def test_fork_prints_only_the_new_id_on_stdout_and_the_sentence_on_stderr(db):
    from uuid import UUID

    game = played_game(db)
    result = run(db, "fork", game, "--at", "3")
    assert result.exit_code == 0, result.output
    fork_id = result.stdout.strip()
    assert result.stdout == fork_id + "\n" and UUID(fork_id)
    assert f"forked from {game} at event 3" in result.stderr
    shown = json.loads(run(db, "show", fork_id, "--json").stdout)
    assert shown["game"] == fork_id
    as_json = json.loads(run(db, "fork", game, "--at", "3", "--json").stdout)
    assert UUID(as_json["game"]) and as_json["forked_from"]["game"] == game


def test_new_refuses_the_bot_round_cap_a_game_between_people_may_not_have(new_store, tmp_path):
    # house rule H6.1: the house round cap is for bot games only; simulate and demo set it.
    db = new_store("games")
    result = run(db, "new", "talisman", "--player", "Ann", "--player", "Bo", "--option", "bot_round_cap=400")
    assert result.exit_code == 2
    assert "for bot games only" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not store_exists(db) or run(db, "games", "--json").stdout.strip() == "[]"
