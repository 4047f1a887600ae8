"""`nightkeep demo [RULESET]`: any ruleset, paced on a terminal only, ending with the outcome and commands
that replay, audit and fork the very game it played."""

from __future__ import annotations

import shlex

import pytest
from click.testing import CliRunner

from cli.main import cli


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


@pytest.fixture
def pauses(monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr("cli.demo_command.time.sleep", slept.append)
    return slept


@pytest.mark.parametrize("ruleset", ["dungeon-short", "keep-run", "vampire-empire"])
def test_the_demo_plays_any_ruleset_and_its_closing_commands_run(db, ruleset, pauses):
    result = run(db, "demo", ruleset)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert any(line.startswith(f"New {ruleset} game ") for line in lines)
    assert any(" won after " in line or line.startswith("Nobody won this time") for line in lines)
    commands = [shlex.split(line)[1:] for line in lines if line.startswith("  nightkeep ")]
    assert [c[2] for c in commands] == ["replay", "audit", "fork"]
    for command in commands:
        ran = CliRunner().invoke(cli, command)
        assert ran.exit_code == 0, (command, ran.output)
    assert pauses == []  # piped output is not paced


def test_on_a_terminal_the_demo_pauses_after_each_turn_unless_fast(db, pauses, monkeypatch):
    monkeypatch.setattr("cli.demo_command.stdout_is_terminal", lambda: True)
    assert run(db, "demo").exit_code == 0
    turns = len(pauses)
    assert turns > 3
    pauses.clear()
    assert run(db, "demo", "--fast").exit_code == 0
    assert pauses == []


def test_a_demo_of_an_unknown_ruleset_is_one_line_and_exit_2(db):
    result = run(db, "demo", "chess")
    assert result.exit_code == 2
    assert "no demo for 'chess'" in result.stderr and result.stderr.count("\n") == 1
