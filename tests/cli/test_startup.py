"""Start-up: `--help` loads no command module, the registry's help is each command's own, logging is lazy."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from cli.lazy_group import SuggestingGroup, load_command
from cli.main import COMMANDS, cli


def imported_after(code: str) -> set[str]:
    """Returns the modules a fresh interpreter holds after running `code`."""
    script = f"import sys\n{code}\nimport json; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_the_registry_help_is_each_commands_own_short_help():
    for name, entry in COMMANDS.items():
        command = load_command(entry)
        assert command.get_short_help_str(limit=1000) == entry.help, name


def test_the_registry_names_every_command_under_its_own_name():
    for name, entry in COMMANDS.items():
        command = load_command(entry)
        assert command.name == name or (name, entry.attribute) == ("log", "log_command"), name
        assert CliRunner().invoke(cli, [name, "--help"]).exit_code == 0, name


def test_help_lists_every_command_without_importing_any_command_module():
    code = (
        "from click.testing import CliRunner\n"
        "from cli.main import cli\n"
        "result = CliRunner().invoke(cli, ['--help'])\n"
        "assert result.exit_code == 0, result.output\n"
        "print(result.output)"
    )
    modules = imported_after(code)
    loaded = {entry.module for entry in COMMANDS.values()} & modules
    assert loaded == set()
    assert not {"structlog", "rich", "eventsourcing", "event_store.app.service"} & modules


def test_help_shows_the_registry_help_shortened_as_click_shortens_it():
    output = CliRunner().invoke(cli, ["--help"]).output
    for name in COMMANDS:
        assert any(line.split()[:1] == [name] for line in output.splitlines()), name
    assert re.search(r"^  show +Shows the board now, or at event N\.$", output, re.M), output


def test_a_command_that_logs_nothing_shown_never_imports_structlog(tmp_path):
    db = str(tmp_path / "s.sqlite")
    code = (
        "from cli.main import cli\n"
        f"cli.main(['--db', {db!r}, 'new', 'dungeon-short', '--player', 'Ann', '--player', 'Bo'],"
        " standalone_mode=False)\n"
    )
    modules = imported_after(code)
    assert "event_store.app.service" in modules
    assert not {"structlog", "structlog.dev"} & modules


def test_verbose_configures_logging_at_the_first_event(tmp_path):
    db = str(tmp_path / "v.sqlite")
    result = CliRunner().invoke(
        cli, ["--db", db, "--log-format", "json", "-v", "new", "toy-race", "--player", "Ann", "--player", "B"]
    )
    assert result.exit_code == 0, result.output
    logged = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    assert [entry["event"] for entry in logged] == ["game_created"]
    assert logged[0]["level"] == "info"


def test_an_unknown_command_is_still_a_one_line_usage_error():
    result = CliRunner().invoke(cli, ["shwo"])
    assert result.exit_code == 2
    assert "no command 'shwo'" in result.output
    assert isinstance(cli, click.Group)


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (["shwo"], "show"),  # a command not loaded yet: click's own suggestion missed it
        (["rulesests"], "rulesets"),
        (["key", "nwe"], "new"),
        (["host", "rollbak", "GAME"], "rollback"),
        (["host", "observer", "ad"], "add"),  # a group in a group
        (["projections", "rn"], "run"),
    ],
)
def test_a_misspelt_command_is_answered_with_the_closest_in_one_line_and_exit_2(args, meant):
    """Issue 30: the README promises did-you-mean for a misspelt command; `nightkeep shwo` got none."""
    result = subprocess.run(
        [sys.executable, "-m", "nightkeep", *args], capture_output=True, text=True, timeout=120
    )
    said = result.stderr.strip().splitlines()
    assert result.returncode == 2 and result.stdout == ""
    assert len(said) == 1 and f"did you mean '{meant}'?" in said[0], said


def test_a_command_nothing_is_close_to_gets_no_guess():
    result = CliRunner().invoke(cli, ["xyzzy"])
    assert result.exit_code == 2 and "did you mean" not in result.output


def test_every_group_of_the_cli_suggests():
    groups, seen = [], [load_command(entry) for entry in COMMANDS.values()]
    while seen:
        command = seen.pop()
        if isinstance(command, click.Group):
            groups.append(command.name)
            assert isinstance(command, SuggestingGroup), command.name
            seen.extend(command.commands.values())
    assert {"host", "key", "observer", "projections", "rollback", "store", "tournament"} <= set(groups)


def _imported_by(db: str, *args: str) -> set[str]:
    """Returns the modules a fresh interpreter holds after running one command on a store."""
    return imported_after(
        f"from cli.main import cli\ncli.main(['--db', {db!r}, *{args!r}], standalone_mode=False)"
    )


def test_show_and_act_import_only_what_they_draw(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")  # the full layout: a narrow one draws its tables with rich
    db = str(tmp_path / "d.sqlite")
    new = CliRunner().invoke(cli, ["--db", db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo"])
    assert new.exit_code == 0, new.output
    game = new.stdout.split()[-1]
    shown = _imported_by(db, "show", game)
    assert "projections.dungeon_view" in shown
    # No console library for a plain-text board, no bots, no process pools.
    assert not {"rich", "simulation.bot_games", "multiprocessing", "concurrent.futures.process"} & shown
    acted = _imported_by(db, "act", game, "roll", "--as", "Ann")
    assert "event_store.app.service" in acted
    assert not {"rich", "simulation.bot_games", "multiprocessing", "concurrent.futures.process"} & acted
