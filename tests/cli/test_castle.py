"""Vampire Empire through the CLI: sides in the character slot, options listed and taken only with --as,
the public board by default, and viewers' exports."""

from __future__ import annotations

import json

import msgpack
import pytest
from click.testing import CliRunner

from cli.main import cli
from event_store.app.service import GameService


@pytest.fixture
def db(new_store, tmp_path):
    return new_store("castle")


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


def new_game(db, *players: str) -> str:
    seats = [arg for p in (players or ("Hana:human", "Vlad:vampire")) for arg in ("--player", p)]
    result = run(db, "new", "vampire-empire", *seats, "--json")
    assert result.exit_code == 0, result.output
    return str(json.loads(result.stdout)["game"])


def stored_events(db) -> int:
    service = GameService.open(db)
    return service.recorder.max_notification_id() or 0


def test_sides_are_chosen_in_the_character_slot(db):
    game = new_game(db, "Vlad:vampire", "Hana:human")
    players = json.loads(run(db, "show", game, "--json").stdout)["players"]
    assert {p["name"]: p["side"] for p in players} == {"Hana": "human", "Vlad": "vampire"}
    # A seat that names no side gets the free one.
    game = new_game(db, "Ann", "Bo:human")
    players = json.loads(run(db, "show", game, "--json").stdout)["players"]
    assert {p["name"]: p["side"] for p in players} == {"Ann": "vampire", "Bo": "human"}


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Hana:human", "Vlad:human"], "both players chose the human side"),
        (["Hana:human", "Vlad:werewolf"], "sides are human and vampire, got 'werewolf'"),
        (["Hana:human"], "takes 2 players"),
        (["Hana:human", "Vlad:vampire", "Ann"], "takes 2 players"),
        (["Hana:human", "hana:vampire"], "player names must differ"),
    ],
)
def test_a_bad_setup_is_one_line_on_stderr_and_stores_nothing(db, players, message):
    new_game(db)
    before = stored_events(db)
    result = run(db, "new", "vampire-empire", *[a for p in players for a in ("--player", p)])
    assert result.exit_code == 2 and message in result.stderr and len(result.stderr.splitlines()) == 1
    assert stored_events(db) == before


def test_actions_and_act_need_as_because_options_show_secrets(db):
    game = new_game(db)
    before = stored_events(db)
    for args, why in (
        (["actions", game], "keeps each player's options private"),
        (["act", game, "draw"], ""),
    ):
        result = run(db, *args)
        assert result.exit_code == 2
        assert why in result.stderr and "--as PLAYER" in result.stderr
    assert stored_events(db) == before
    listed = json.loads(run(db, "actions", game, "--as", "Vlad", "--json").stdout)
    assert {a["player"] for a in listed} == {"Vlad"} and "draw" in {a["id"] for a in listed}
    assert json.loads(run(db, "actions", game, "--as", "Hana", "--json").stdout) == []  # not her turn


def test_act_as_the_wrong_player_or_an_illegal_action_stores_nothing(db):
    game = new_game(db)
    before = stored_events(db)
    wrong = run(db, "act", game, "draw", "--as", "Hana")
    assert wrong.exit_code == 1 and "it is not Hana's turn" in wrong.stderr
    illegal = run(db, "act", game, "reveal:lady", "--as", "Vlad")  # not before drawing
    assert illegal.exit_code == 1
    assert stored_events(db) == before
    done = run(db, "act", game, "draw", "--as", "Vlad", "--json")
    assert done.exit_code == 0 and stored_events(db) > before


def test_act_output_shows_the_actor_their_own_cards_and_nothing_of_the_other(db):
    game = new_game(db)
    result = run(db, "act", game, "draw", "--as", "Vlad", "--json")
    events = json.loads(result.stdout)["events"]
    assert [e["type"] for e in events] == ["ActionTaken", "CardsDrawn"]  # a full hand draws nothing
    log = json.loads(run(db, "log", game, "--as", "Vlad", "--json").stdout)
    own = [e for e in log if e["type"] == "IdentityTokensDrawn" and "sealed" not in e["fields"]]
    assert [e["fields"]["owner"] for e in own] == ["Vlad"]  # his tokens in full, Hana's sealed


def test_play_with_bots_shows_the_public_board_unless_asked_otherwise(db):
    game = new_game(db)
    public = run(db, "play", game, "--bots", "--seed", "3")
    assert public.exit_code == 0, public.output
    assert "Game over" in public.stdout
    assert "hand (" not in public.stdout.lower() and "tokens" not in public.stdout
    as_hana = run(db, "show", game, "--as", "Hana")
    assert "Your hand (Hana" in as_hana.stdout and "Your tokens (Hana)" in as_hana.stdout
    assert "Vlad's tokens" not in as_hana.stdout
    host = run(db, "show", game, "--as", "host")
    assert "Hana's hand" in host.stdout and "Vlad's tokens" in host.stdout


def test_export_is_public_by_default_and_an_organiser_imports_every_copy(new_store, db, tmp_path):
    game = new_game(db)
    run(db, "play", game, "--bots", "--seed", "5")
    paths = {}
    for name, extra in (("public", []), ("hana", ["--as", "Hana"]), ("host", ["--as", "host"])):
        paths[name] = tmp_path / f"{name}.nkr"
        result = run(db, "export", game, "-o", str(paths[name]), *extra)
        assert result.exit_code == 0, result.output
    headers = {n: msgpack.unpackb(p.read_bytes(), raw=False, timestamp=3)["header"] for n, p in paths.items()}
    assert headers["public"]["viewer"] == "" and headers["hana"]["viewer"] == "Hana"
    assert "viewer" not in headers["host"]
    for name, path in paths.items():
        audited = run(db, "audit", str(path), "--json")
        assert audited.exit_code == 0, (name, audited.output)
        report = json.loads(audited.stdout)
        report = report[0] if isinstance(report, list) else report
        assert report["finished"] and not report["partial"] and report["draws_verified"] == report["draws"]
    organiser = new_store("organiser")
    stored = {}
    for name, path in paths.items():
        result = run(organiser, "import", str(path), "--json")
        assert result.exit_code == 0, (name, result.output)
        stored[name] = json.loads(result.stdout)
    assert stored["host"]["game"] == game and stored["host"]["copy_of"] is None
    assert {stored[n]["copy_of"] for n in ("public", "hana")} == {game}
    assert stored["hana"]["viewer"] == "Hana" and stored["public"]["viewer"] == ""
    for name, seen_as in (("public", []), ("hana", ["--as", "Hana"]), ("host", ["--as", "host"])):
        again = tmp_path / f"again-{name}.nkr"
        assert run(organiser, "export", stored[name]["game"], "-o", str(again), *seen_as).exit_code == 0
        assert again.read_bytes() == paths[name].read_bytes(), name
    refused = run(organiser, "actions", stored["hana"]["game"], "--as", "Hana")
    assert refused.exit_code == 1 and "cannot be continued" in refused.stderr


def test_fork_waits_for_the_seed_of_a_game_with_secrets(db):
    game = new_game(db)
    events = len(json.loads(run(db, "log", game, "--json").stdout))
    before = stored_events(db)
    refused = run(db, "fork", game, "--at", str(events))
    assert refused.exit_code == 1 and "can be forked only once its seed is revealed" in refused.stderr
    assert stored_events(db) == before
    run(db, "play", game, "--bots", "--seed", "2")
    forked = run(db, "fork", game, "--at", str(events), "--json")
    assert forked.exit_code == 0, forked.output
