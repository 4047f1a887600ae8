"""Every save moves the heads of the games it touches in its own transaction (event_store.game_heads), so
a game's head row is always its last stored version, on both stores; a store made before the heads table
gets it filled from its events when it is opened."""

from __future__ import annotations

from uuid import UUID

from event_store.app.replay_file import export_game, import_game
from event_store.app.service import GameService, play_with_bots
from event_store.game_heads import HEADS
from event_store.sql import sql_store_of


def heads(service: GameService) -> dict[UUID, int]:
    store = sql_store_of(service.recorder)
    assert store is not None
    with store.transaction(commit=False) as c:
        c.execute(f"SELECT game_id, version FROM {HEADS}")
        rows = c.fetchall()
    return {game_id: row[1] for game_id, row in zip(store.ids(rows), rows, strict=True)}


def last_versions(service: GameService, games: list[UUID]) -> dict[UUID, int]:
    return {game: service.recorded_events(game)[-1].version for game in games}


def test_a_head_is_the_last_version_after_creates_actions_forks_and_imports(store_service, new_store):
    game = store_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    assert heads(store_service) == last_versions(store_service, [game])
    play_with_bots(store_service, game, seed=1, max_actions=12)
    actions = [r for r in store_service.recorded_events(game) if r.type_name == "ActionTaken"]
    at = [r.version - 1 for r in actions if r.fields["player"] != "host"][3]
    fork, _ = store_service.fork_game(game, at)
    play_with_bots(store_service, fork, seed=2, max_actions=3)
    play_with_bots(store_service, game, seed=3, max_actions=3)
    assert heads(store_service) == last_versions(store_service, [game, fork])

    other = GameService.open(new_store("other"))
    try:
        imported = import_game(other, export_game(store_service, game)).stored
        assert heads(other) == last_versions(other, [imported])
    finally:
        other.close()


def test_a_store_made_before_the_heads_table_gets_it_filled_when_opened(db):
    service = GameService.open(db)
    games = [service.create_game("dungeon-short", [("Ann", None), ("Bo", None)]) for _ in range(2)]
    play_with_bots(service, games[0], seed=1, max_actions=8)
    store = sql_store_of(service.recorder)
    assert store is not None
    with store.transaction(commit=True) as c:
        c.execute(f"DROP TABLE {HEADS}")
    service.close()

    reopened = GameService.open(db)
    try:
        assert heads(reopened) == last_versions(reopened, games)
        play_with_bots(reopened, games[1], seed=2, max_actions=4)
        assert heads(reopened) == last_versions(reopened, games)
    finally:
        reopened.close()
