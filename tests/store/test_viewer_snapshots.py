"""Each viewer's board (the public's, each player's) is loaded from that viewer's own snapshot and the
events after it: equal to the fold of the log sealed for that viewer, holding no other seat's secret,
and passed over for the events when its row is unreadable, stale or another's."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner

import event_store.app.service as service_module
from cli.main import cli
from domain.actions import HOST
from domain.errors import UsageError
from domain.hidden import PUBLIC
from event_store.app.replay_file import export_game, import_game
from event_store.app.service import SNAPSHOT_INTERVAL, GameService, play_with_bots
from event_store.recorded import fold_recorded, redacted
from event_store.viewer_folds import view_id
from tests import store_rows

SEATS = [("Hana", None), ("Vlad", None)]
VIEWERS = [PUBLIC, "Hana", "Vlad"]


@pytest.fixture(autouse=True)
def views_at_every_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    """Viewers' folds are snapshotted with each of the game's own snapshots: a short game holds several."""
    monkeypatch.setattr(service_module, "VIEW_SNAPSHOTS_EVERY", 1)


def _played(service: GameService, actions: int = 40, seed: int = 3) -> UUID:
    """Plays a hidden-information game one saved action at a time, so it is snapshotted every interval."""
    game_id = service.create_game("vampire-empire", SEATS)
    for _ in range(actions):
        play_with_bots(service, game_id, seed=seed, max_actions=1)
    return game_id


def _sealed_fold(service: GameService, game_id: UUID, viewer: str, at: int | None = None) -> Any:
    return fold_recorded(redacted(service.recorded_events(game_id, lte=at), viewer))


def _same(a: Any, b: Any) -> bool:
    return (a.version, a.chain, a.meta, a.state) == (b.version, b.chain, b.meta, b.state)


def _view_rows(service: GameService, game_id: UUID, viewer: str) -> list[tuple[int, bytes]]:
    rows = store_rows.execute(
        service,
        f"SELECT originator_version, state FROM {store_rows.snapshots_table(service)} "
        "WHERE originator_id = ? ORDER BY originator_version",
        [store_rows.key(service, view_id(game_id, viewer))],
    )
    return [(version, bytes(state)) for version, state in rows]


def test_each_viewers_board_from_its_snapshot_is_the_fold_of_the_log_sealed_for_it(store_service):
    game_id = _played(store_service)
    head = store_service.fold(game_id).version
    assert head > 3 * SNAPSHOT_INTERVAL
    for viewer in VIEWERS:
        versions = [version for version, _ in _view_rows(store_service, game_id, viewer)]
        assert len(versions) >= 3 and all(v % SNAPSHOT_INTERVAL < 10 for v in versions), viewer
        for at in (None, 1, versions[0], versions[0] + 5, versions[-1], head):
            lean = store_service.fold_as(game_id, viewer or None, at)
            assert _same(lean, _sealed_fold(store_service, game_id, viewer, at)), (viewer, at)
    assert _same(store_service.fold_as(game_id, HOST), store_service.fold(game_id, use_snapshot=False))
    # The views differ: each seat holds its own secrets, the public none.
    folds = [store_service.fold_as(game_id, viewer or None).state for viewer in VIEWERS]
    assert folds[0] != folds[1] and folds[1] != folds[2]


def test_a_game_without_private_events_keeps_only_the_publics_board_which_each_seat_starts_from(
    store_service,
):
    game_id = store_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    for _ in range(60):
        play_with_bots(store_service, game_id, seed=5, max_actions=1)
    assert not any(r.event.private for r in store_service.recorded_events(game_id))
    assert len(_view_rows(store_service, game_id, PUBLIC)) >= 2
    assert _view_rows(store_service, game_id, "Ann") == _view_rows(store_service, game_id, "Bo") == []
    head = store_service.fold(game_id).version
    for viewer in (PUBLIC, "Ann", "Bo"):
        for at in (None, SNAPSHOT_INTERVAL + 3, head):
            lean = store_service.fold_as(game_id, viewer or None, at)
            assert _same(lean, _sealed_fold(store_service, game_id, viewer, at)), (viewer, at)


def test_a_viewers_snapshot_holds_no_other_seats_private_dice_key(store_service):
    game_id = _played(store_service)
    dealt = {
        r.fields["owner"]: r.fields["key"]
        for r in store_service.recorded_events(game_id)
        if r.type_name == "DiceKeyDealt"
    }
    assert dealt.keys() == {"Hana", "Vlad"}
    for viewer in VIEWERS:
        rows = _view_rows(store_service, game_id, viewer)
        assert rows
        for _, state in rows:
            for owner, key in dealt.items():
                assert (key in state) == (owner == viewer), (viewer, owner)
        assert store_service.fold_as(game_id, viewer or None).meta["private_keys"].keys() <= {viewer}


def test_an_unreadable_viewer_snapshot_is_passed_over_for_the_events(db):
    builder = GameService.open(db)
    game_id = _played(builder)
    expected = {viewer: _sealed_fold(builder, game_id, viewer) for viewer in VIEWERS}
    for viewer in VIEWERS:
        damaged = store_rows.update(
            builder,
            f"UPDATE {store_rows.snapshots_table(builder)} SET state = ? WHERE originator_id = ?",
            [b"\xc1" * 3, store_rows.key(builder, view_id(game_id, viewer))],
        )
        assert damaged >= 3
    builder.close()
    service = GameService(db, env={"AGGREGATE_CACHE_MAXSIZE": ""})
    for viewer in VIEWERS:
        assert _same(service.fold_as(game_id, viewer or None), expected[viewer]), viewer
    service.close()


def _move_row(service: GameService, source: UUID, version: int, target: UUID, to_version: int) -> None:
    """Copies one snapshot row under another id and version (what a bad copy or a forger would store)."""
    table = store_rows.snapshots_table(service)
    (topic, state) = store_rows.execute(
        service,
        f"SELECT topic, state FROM {table} WHERE originator_id = ? AND originator_version = ?",
        [store_rows.key(service, source), version],
    )[0]
    store_rows.execute(
        service,
        f"DELETE FROM {table} WHERE originator_id = ? AND originator_version = ?",
        [store_rows.key(service, target), to_version],
    )
    store_rows.execute(
        service,
        f"INSERT INTO {table} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
        [store_rows.key(service, target), to_version, topic, state],
    )


@pytest.mark.parametrize("kind", ["another game's", "past the log's end", "another seat's", "the host's"])
def test_a_stale_or_forged_viewer_snapshot_is_passed_over_and_the_board_stays_right(db, kind):
    builder = GameService.open(db)
    game_id, other = _played(builder), _played(builder, seed=4)
    head = builder.fold(game_id).version
    newest = _view_rows(builder, game_id, PUBLIC)[-1][0]
    if kind == "another game's":  # the same version of another log: its chain differs
        source, version = view_id(other, PUBLIC), _view_rows(builder, other, PUBLIC)[-1][0]
        _move_row(builder, source, version, view_id(game_id, PUBLIC), newest)
    elif kind == "past the log's end":  # a snapshot of events the store does not hold
        _move_row(builder, view_id(game_id, PUBLIC), newest, view_id(game_id, PUBLIC), head + 7)
    elif kind == "another seat's":  # Hana's board, with her hand and key, stored as the public's
        _move_row(builder, view_id(game_id, "Hana"), newest, view_id(game_id, PUBLIC), newest)
    else:  # the game's own snapshot (every secret) stored as the public's
        host_newest = max(s.originator_version for s in builder.snapshots.get(game_id))
        _move_row(builder, game_id, host_newest, view_id(game_id, PUBLIC), host_newest)
    expected = _sealed_fold(builder, game_id, PUBLIC)
    builder.close()
    service = GameService(db, env={"AGGREGATE_CACHE_MAXSIZE": ""})
    public = service.fold_as(game_id, None)
    assert _same(public, expected)
    assert public.meta["private_keys"] == {}
    shown = CliRunner().invoke(cli, ["--db", db, "show", str(game_id), "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["history"]["version"] == head
    service.close()


def test_show_reads_a_viewers_board_and_refuses_a_name_with_no_seat(store_service):
    game_id = _played(store_service)
    with pytest.raises(UsageError, match="no player 'Nobody' in this game"):
        store_service.fold_as(game_id, "Nobody")
    with pytest.raises(UsageError, match="only"):
        store_service.fold_as(game_id, None, 10_000)


def test_an_imported_copy_is_snapshotted_for_its_viewers_and_shown_from_them(new_store):
    host = GameService.open(new_store("host"))
    game_id = _played(host)
    data = export_game(host, game_id, "Hana")
    head = host.fold(game_id).version
    expected = {viewer: _sealed_fold(host, game_id, viewer) for viewer in (PUBLIC, "Hana")}
    host.close()
    elsewhere = GameService.open(new_store("Hana"))
    stored = import_game(elsewhere, data).stored
    for viewer in (PUBLIC, "Hana"):
        # One save of the whole copy: one snapshot per viewer, at its last event.
        assert [v for v, _ in _view_rows(elsewhere, stored, viewer)] == [head], viewer
        assert _same(elsewhere.fold_as(stored, viewer or None), expected[viewer]), viewer
    elsewhere.close()
