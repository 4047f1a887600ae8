"""The game index follows the notification log incrementally, persists its position, and rebuilds."""

from __future__ import annotations

import json
import threading

import pytest
from click.testing import CliRunner
from eventsourcing.persistence import IntegrityError, Tracking

from cli.main import cli
from event_store.app.service import GameService, play_with_bots
from projections.game_index import INDEX_NAME, GameIndex


def test_index_lists_new_games_and_follows_them_to_the_end(store_service):
    index = GameIndex(store_service)
    first = store_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    second = store_service.create_game("toy-race", [("Cy", None)])
    entries = {e["game"]: e for e in index.games()}
    assert set(entries) == {str(first), str(second)}
    assert entries[str(first)]["status"] == "running" and entries[str(first)]["players"] == ["Ann", "Bo"]
    play_with_bots(store_service, first, seed=4)
    game = store_service.get_game(first)
    entry = {e["game"]: e for e in index.games()}[str(first)]
    assert entry["status"] == "finished"
    assert entry["winner"] == game.status["winner"]
    assert entry["version"] == game.version


def test_index_reads_only_what_is_new_and_keeps_its_position_across_processes(new_store, tmp_path):
    db = new_store("index")
    service = GameService.open(db)
    service.create_game("toy-race", [("Ann", None)])
    index = GameIndex(service)
    assert index.catch_up() > 0
    assert index.catch_up() == 0
    assert 0 < index.position <= service.recorder.max_notification_id()
    reopened = GameService.open(db)
    assert GameIndex(reopened).catch_up() == 0
    reopened.create_game("toy-race", [("Bo", None)])
    assert GameIndex(reopened).catch_up() == 5  # created, seed, key chain, start, its consequence


def test_index_rebuilt_from_zero_equals_the_incremental_one(store_service):
    index = GameIndex(store_service)
    for seed in range(3):
        game_id = store_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
        index.catch_up()
        play_with_bots(store_service, game_id, seed=seed)
    incremental = index.games()
    index.rebuild()
    assert index.games() == incremental


def test_index_works_on_the_in_memory_store(memory_service):
    memory_service.create_game("toy-race", [("Ann", None)])
    assert [e["players"] for e in GameIndex(memory_service).games()] == [["Ann"]]


def test_games_command_lists_games(new_store, tmp_path):
    db = new_store("cli")
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


def test_a_batch_another_process_tracked_first_is_written_once(new_store):
    db = new_store("twice")
    first, second = GameService.open(db), GameService.open(db)
    try:
        game_id = first.create_game("toy-race", [("Ann", None)])
        one, two = GameIndex(first), GameIndex(second)
        one.catch_up()
        view = two._view  # the second process holds the batch the first one has just tracked
        with pytest.raises(IntegrityError):
            view.save_batch({"stale": {"game": "stale"}}, Tracking(INDEX_NAME, one.position))
        assert [e["game"] for e in two.games()] == [str(game_id)]
        assert two.catch_up() == 0 and two.position == one.position
    finally:
        first.close()
        second.close()


def test_processes_catching_up_at_once_agree_with_a_rebuild(new_store):
    db = new_store("racing")
    writer = GameService.open(db)
    for seed in range(4):
        play_with_bots(writer, writer.create_game("toy-race", [("Ann", None), ("Bo", None)]), seed=seed)
    readers = [GameService.open(db) for _ in range(4)]
    errors: list[BaseException] = []

    def catch_up(service: GameService) -> None:
        try:
            GameIndex(service, batch_size=7).catch_up()  # small batches: the readers overtake each other
        except BaseException as exc:  # noqa: BLE001  (reported by the test, not lost in a thread)
            errors.append(exc)

    threads = [threading.Thread(target=catch_up, args=(reader,)) for reader in readers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert errors == []
        index = GameIndex(writer)
        assert index.position == writer.recorder.max_notification_id()
        caught_up = index.games()
        index.rebuild()
        assert index.games() == caught_up and len(caught_up) == 4
    finally:
        for service in (writer, *readers):
            service.close()
