"""A copy of a game (a player's or the public's) holds none of another player's private events, so
`show`, `log` and `replay --as` that other player are refused, as `export` refuses them: the board would
be the public view told under that player's name (a dispute over what they could know needs their copy)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
HANA = REPLAYS / "vampire-empire-001-Hana.nkr"
PUBLIC = REPLAYS / "vampire-empire-001-public.nkr"


@pytest.mark.parametrize(
    ("copy", "viewer", "whose"), [(HANA, "Vlad", "Hana's copy"), (PUBLIC, "Hana", "the public copy")]
)
def test_replay_of_a_copy_file_as_another_player_is_refused_in_one_line(copy, viewer, whose):
    refused = CliRunner().invoke(cli, ["replay", str(copy), "--as", viewer, "--at", "40", "--no-interactive"])
    assert refused.exit_code == 2
    assert refused.stdout == "" and refused.stderr.count("\n") == 1
    assert f"{copy.name} is {whose} of its game" in refused.stderr


def test_a_copy_file_is_still_replayed_as_its_own_viewer_the_host_and_the_public():
    for viewer in (["--as", "Hana"], ["--as", "host"], []):
        shown = CliRunner().invoke(cli, ["replay", str(HANA), *viewer, "--at", "40", "--no-interactive"])
        assert shown.exit_code == 0, shown.output
        assert ("Your hand (Hana" in shown.stdout) == (viewer != [])


def test_show_log_and_replay_of_a_stored_copy_as_another_player_are_refused(new_store):
    db = new_store()
    imported = CliRunner().invoke(cli, ["--db", db, "import", str(HANA), "--json"])
    assert imported.exit_code == 0, imported.output
    game = json.loads(imported.stdout)["game"]
    for command in (["show", game], ["log", game], ["replay", game, "--no-interactive"]):
        refused = CliRunner().invoke(cli, ["--db", db, *command, "--as", "Vlad"])
        assert refused.exit_code == 2, command
        assert refused.stdout == "" and "is Hana's copy of game" in refused.stderr, command
        own = CliRunner().invoke(cli, ["--db", db, *command, "--as", "Hana"])
        assert own.exit_code == 0 and own.stdout, command
