"""One way down, one way back: an action loads its game once (STYLE.md habit 15). `GameService.act`
resolves the player and the action (a unique prefix) on the one loaded aggregate, and the `act` command
asks nothing more of the store to render what happened; whether the store is a replica was decided when
it was opened."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.errors import UsageError
from event_store.app.service import GameService


@pytest.fixture
def service(tmp_path):
    service = GameService.open(str(tmp_path / "games.sqlite"))
    yield service
    service.close()


@pytest.fixture
def loads(monkeypatch):
    """Counts every load of a game aggregate: each goes through GameService.get_game."""
    counted: list[object] = []
    real = GameService.get_game

    def counting(self, game_id, version=None):
        counted.append(game_id)
        return real(self, game_id, version)

    monkeypatch.setattr(GameService, "get_game", counting)
    return counted


def new_dungeon_game(service: GameService):
    return service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])


def test_a_named_action_by_a_named_player_loads_the_game_once(service, loads):
    game_id = new_dungeon_game(service)
    acted = service.act(game_id, "roll", "Ann")
    assert loads == [game_id]
    assert (acted.player, acted.action.id, acted.ruleset_name) == ("Ann", "roll", "dungeon-short")
    assert acted.version == service.fold(game_id).version and acted.recorded[0].type_name == "ActionTaken"


def test_a_prefix_of_the_action_loads_the_game_once(service, loads):
    game_id = new_dungeon_game(service)
    acted = service.act(game_id, "ro", "Ann")
    assert loads == [game_id]
    assert acted.action.id == "roll" and acted.recorded[0].event.action == "roll"


def test_an_action_with_no_player_named_loads_the_game_once(service, loads):
    game_id = new_dungeon_game(service)
    acted = service.act(game_id, "ro")
    assert loads == [game_id]
    assert acted.player == "Ann" and acted.action.id == "roll"


def test_a_refusal_loads_the_game_once_and_stores_nothing(service, loads):
    game_id = service.create_game("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")])
    before = service.fold(game_id).version
    with pytest.raises(UsageError, match="keeps each player's options private"):
        service.act(game_id, "draw")
    assert loads == [game_id] and service.fold(game_id).version == before


@pytest.mark.parametrize(
    ("typed", "player"), [("roll", ["--as", "Ann"]), ("ro", ["--as", "Ann"]), ("ro", [])]
)
def test_the_act_command_loads_the_game_once_and_asks_no_replica_question(
    tmp_path, monkeypatch, typed, player
):
    db = str(tmp_path / "games.sqlite")
    made = CliRunner().invoke(
        cli, ["--db", db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json"]
    )
    assert made.exit_code == 0, made.output
    game = json.loads(made.stdout)["game"]

    def no_replica(*args: object) -> bool:
        raise AssertionError("the store was opened as no replica: act must not ask the e-mail layer")

    monkeypatch.setattr("cli.game_commands.replica_act", no_replica)
    counted: list[object] = []
    real = GameService.get_game
    monkeypatch.setattr(GameService, "get_game", lambda s, g, v=None: counted.append(g) or real(s, g, v))
    result = CliRunner().invoke(cli, ["--db", db, "act", game, typed, *player, "--json"])
    assert result.exit_code == 0, result.output
    assert len(counted) == 1
    assert json.loads(result.stdout)["events"][0]["fields"]["action"] == "roll"
