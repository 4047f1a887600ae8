"""Shell completion through click's own machinery: the words a shell sends, the values it gets back."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli
from event_store.config import store_exists


def complete(line, shell="bash", env=None):
    """Returns the values the shell would offer for the last word of `line` (as bash or zsh sends it)."""
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    variables = {"_NIGHTKEEP_COMPLETE": f"{shell}_complete", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    result = CliRunner().invoke(cli, [], prog_name="nightkeep", env={**variables, **(env or {})})
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line]  # no completions: one empty line
    if shell == "bash":
        return [entry.split(",", 1)[1] for entry in lines]
    return [lines[i + 1].replace("\\:", ":") for i in range(0, len(lines), 3)]  # zsh: type, value, help


def new_game(db, ruleset="dungeon-short", *seats):
    args = [arg for seat in (seats or ("Ann", "Vlad")) for arg in ("--player", seat)]
    result = CliRunner().invoke(cli, ["--db", db, "new", ruleset, *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["game"]


def test_the_completion_command_prints_clicks_script_for_each_shell():
    for shell in ("bash", "zsh", "fish"):
        result = CliRunner().invoke(cli, ["completion", shell])
        assert result.exit_code == 0, shell
        assert "_NIGHTKEEP_COMPLETE" in result.stdout and f"{shell}_complete" in result.stdout
    refused = CliRunner().invoke(cli, ["completion", "tcsh"])
    assert refused.exit_code == 2


def test_commands_complete():
    assert complete("nightkeep rule") == ["rulesets"]


def test_ruleset_names_complete():
    shipped = [name for name in complete("nightkeep new ") if name != "toy-race"]  # the tests' own ruleset
    assert shipped == ["dungeon-short", "keep-run", "talisman", "vampire-empire"]
    assert complete("nightkeep new ke") == ["keep-run"]


def test_option_keys_then_values_complete_for_the_ruleset_named_earlier():
    assert complete("nightkeep new keep-run --option ", shell="zsh") == ["hoard=", "wizard="]
    assert complete("nightkeep new keep-run --option w", shell="zsh") == ["wizard="]
    assert complete("nightkeep new keep-run --option hoard=", shell="zsh") == ["hoard=true", "hoard=false"]
    assert complete("nightkeep new dungeon-short --option ", shell="zsh") == []


def test_option_values_complete_in_bash_which_splits_the_word_at_the_equals_sign():
    assert complete("nightkeep new keep-run --option hoard =") == ["true", "false"]
    assert complete("nightkeep new keep-run --option hoard = f") == ["false"]


def test_a_fresh_process_joins_what_bash_split_as_a_real_tab_press_does():
    # In a process of its own nothing else has loaded the completion module, as when a shell asks.
    import os
    import subprocess
    import sys

    env = {**os.environ, "_NIGHTKEEP_COMPLETE": "bash_complete", "COMP_CWORD": "6"}
    for words, expected in (
        ("nightkeep new keep-run --player Ann : wi", "plain,wizard"),
        ("nightkeep new keep-run --option hoard = f", "plain,false"),
    ):
        env["COMP_WORDS"] = words
        done = subprocess.run(
            [sys.executable, "-m", "nightkeep"], env=env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == [expected], done.stdout


def test_characters_complete_after_the_players_name():
    assert complete("nightkeep new keep-run --player Ann:wa", shell="zsh") == ["Ann:warrior"]
    assert complete("nightkeep new vampire-empire --player Ann:", shell="zsh") == ["Ann:human", "Ann:vampire"]
    assert complete("nightkeep new keep-run --player Ann : wi") == ["wizard"]  # bash splits at ':'


def test_game_ids_complete_from_the_store(db):
    game = new_game(db)
    assert complete(f"nightkeep --db {db} show ") == [game]
    assert complete(f"nightkeep --db {db} fork {game[:4]}") == [game]
    assert complete(f"nightkeep --db {db} show zzz") == []


def test_game_ids_complete_from_the_store_named_by_the_environment(db):
    game = new_game(db)
    assert complete("nightkeep log ", env={"NIGHTKEEP_DB": db}) == [game]


def test_without_a_store_nothing_completes_and_no_store_is_created(db):
    assert complete(f"nightkeep --db {db} show ") == []
    assert not store_exists(db)


def test_player_names_complete_for_as_from_the_game_named_earlier(db):
    game = new_game(db)
    assert complete(f"nightkeep --db {db} show {game} --as ") == ["Ann", "Vlad", "host"]
    assert complete(f"nightkeep --db {db} show {game} --as v") == ["Vlad"]  # any case, as did-you-mean
    assert complete(f"nightkeep --db {db} act {game} roll --as ") == ["Ann", "Vlad"]  # the host does not act


def test_legal_action_ids_of_act_complete_for_the_game_named_earlier(db):
    game = new_game(db)
    assert complete(f"nightkeep --db {db} act {game} ") == ["roll"]
    assert complete(f"nightkeep --db {db} act {game} --as Vlad ") == []  # not Vlad's turn


def test_a_game_with_secrets_completes_actions_only_for_the_player_named(db):
    game = new_game(db, "vampire-empire", "Ann:human", "Vlad:vampire")
    assert complete(f"nightkeep --db {db} act {game} ") == []
    offered = []
    for seat in ("Ann", "Vlad"):
        mine = complete(f"nightkeep --db {db} act {game} --as {seat} ")
        legal = CliRunner().invoke(cli, ["--db", db, "actions", game, "--as", seat, "--json"]).stdout
        assert mine == [a["id"] for a in json.loads(legal)]
        offered += mine
    assert offered  # someone is to act
