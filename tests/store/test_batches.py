"""A batch of stored events comes back byte for byte, on both stores (PostgreSQL sends it in binary)."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.persistence import StoredEvent

EVERY_BYTE = bytes(range(256))


def test_batch_of_many_games_comes_back_byte_for_byte(store_service):
    games = [UUID(int=n + 1) for n in range(5)]
    batch = [
        StoredEvent(game, version, "domain.game:Game.Recorded", EVERY_BYTE * version + b"\\'\"{},()")
        for version in range(1, 41)
        for game in games
    ]
    ids = store_service.recorder.insert_events(batch)
    assert ids is None or len(ids) == len(batch)
    for game in games:
        back = store_service.recorder.select_events(game)
        assert [(e.originator_version, e.topic, e.state) for e in back] == [
            (e.originator_version, e.topic, e.state) for e in batch if e.originator_id == game
        ]


def test_postgres_recorder_sends_the_batch_in_binary(postgres_server):
    from event_store.app.service import GameService

    service = GameService.open(postgres_server.fresh_url("binary"))
    try:
        assert "unnest(%b::" in service.recorder.insert_events_statement.as_string()
    finally:
        service.close()
