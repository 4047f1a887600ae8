"""The game index follows the notification log incrementally, persists its position, and rebuilds."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli
from event_store.service import GameService, play_with_bots
from projections.game_index import GameIndex


def test_index_lists_new_games_and_follows_them_to_the_end(sqlite_service):
    index = GameIndex(sqlite_service)
    first = sqlite_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    second = sqlite_service.create_game("toy-race", [("Cy", None)])
    entries = {e["game"]: e for e in index.games()}
    assert set(entries) == {str(first), str(second)}
    assert entries[str(first)]["status"] == "running" and entries[str(first)]["players"] == ["Ann", "Bo"]
    play_with_bots(sqlite_service, first, seed=4)
    game = sqlite_service.get_game(first)
    entry = {e["game"]: e for e in index.games()}[str(first)]
    assert entry["status"] == "finished"
    assert entry["winner"] == game.status["winner"]
    assert entry["version"] == game.version


def test_index_reads_only_what_is_new_and_keeps_its_position_across_processes(tmp_path):
    db = str(tmp_path / "index.sqlite")
    service = GameService.open(db)
    service.create_game("toy-race", [("Ann", None)])
    index = GameIndex(service)
    assert index.catch_up() > 0
    assert index.catch_up() == 0
    assert 0 < index.position <= service.recorder.max_notification_id()
    reopened = GameService.open(db)
    assert GameIndex(reopened).catch_up() == 0
    reopened.create_game("toy-race", [("Bo", None)])
    assert GameIndex(reopened).catch_up() == 4


def test_index_rebuilt_from_zero_equals_the_incremental_one(sqlite_service):
    index = GameIndex(sqlite_service)
    for seed in range(3):
        game_id = sqlite_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
        index.catch_up()
        play_with_bots(sqlite_service, game_id, seed=seed)
    incremental = index.games()
    index.rebuild()
    assert index.games() == incremental


def test_index_works_on_the_in_memory_store(memory_service):
    memory_service.create_game("toy-race", [("Ann", None)])
    assert [e["players"] for e in GameIndex(memory_service).games()] == [["Ann"]]


def test_games_command_lists_games(tmp_path):
    db = str(tmp_path / "cli.sqlite")
    runner = CliRunner()
    created = json.loads(
        runner.invoke(
            cli, ["--db", db, "new", "dungeon-short", "--player", "A", "--player", "B", "--json"]
        ).stdout
    )["game"]
    listed = json.loads(runner.invoke(cli, ["--db", db, "games", "--json"]).stdout)
    assert [e["game"] for e in listed] == [created]
    table = runner.invoke(cli, ["--db", db, "games"]).stdout
    assert created[:8] in table and created not in table and "running" in table
