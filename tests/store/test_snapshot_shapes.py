"""Snapshots are stamped with the shape of their ruleset's state; one of another shape is passed over."""

from __future__ import annotations

from typing import Any

from domain.game import Game
from domain.rulesets import state_version
from domain.rulesets.talisman.state import STATE_VERSION
from event_store.app.service import SNAPSHOT_INTERVAL, GameService, play_with_bots
from event_store.loading import STAMP, fold_from_snapshot, is_current
from tests import store_rows

PLAYERS = [("Ann", "warrior"), ("Bo", "troll")]


def _old_shape(state: dict[str, Any]) -> dict[str, Any]:
    """Returns a Dungeon state as the shape before positions were (board, space) and piles were named."""
    old = {k: v for k, v in state.items() if k not in ("cards", "gold", "piles")}
    old.update(
        spaces=state["cards"]["dungeon"],
        space_gold=state["gold"]["dungeon"],
        deck=state["piles"]["dungeon"],
        discard=state["piles"]["discard:dungeon"],
        players={
            name: {k: v for k, v in sheet.items() if k != "board"} for name, sheet in state["players"].items()
        },
    )
    return old


def _long_dungeon_game(db: str) -> tuple[GameService, Any]:
    service = GameService.open(db)
    for seed in range(20):  # a game long enough to be snapshotted at least once
        game_id = service.create_game("dungeon-short", PLAYERS)
        play_with_bots(service, game_id, seed=seed)
        if service.get_game(game_id).version > SNAPSHOT_INTERVAL + 5:
            return service, game_id
    raise AssertionError("no seeded bot game was long enough to snapshot")


def test_a_talisman_snapshot_is_stamped_with_the_state_shape_and_used(new_store, tmp_path):
    service, game_id = _long_dungeon_game(new_store("game"))
    snapshots = list(service.snapshots.get(game_id))
    assert snapshots and all(
        s.state[STAMP] == STATE_VERSION == state_version("dungeon-short") for s in snapshots
    )
    assert fold_from_snapshot(service.snapshots, game_id, None).version == snapshots[-1].originator_version


def test_an_unstamped_snapshot_counts_as_version_1_the_shape_of_rulesets_that_never_changed():
    assert state_version("vampire-empire") == 1 and is_current({"ruleset_name": "vampire-empire"})
    assert not is_current({"ruleset_name": "dungeon-short"})  # taken before the typed Talisman state
    assert not is_current({"ruleset_name": "no-such-game", STAMP: 1})


def test_a_store_holding_an_old_shape_snapshot_folds_the_game_from_its_events(db):
    builder, game_id = _long_dungeon_game(db)
    expected = builder.fold(game_id, use_snapshot=False)
    newest = list(builder.snapshots.get(game_id))[-1]
    old = Game.Snapshot(
        originator_id=newest.originator_id,
        originator_version=newest.originator_version,
        timestamp=newest.timestamp,
        topic=newest.topic,
        state={
            **{k: v for k, v in newest.state.items() if k != STAMP},
            "state": _old_shape(newest.state["state"]),
        },
    )
    stored = builder.mapper.to_stored_event(old)
    changed = store_rows.update(
        builder,
        f"UPDATE {store_rows.snapshots_table(builder)} SET state = ? "
        "WHERE originator_id = ? AND originator_version = ?",
        [stored.state, store_rows.key(builder, game_id), newest.originator_version],
    )
    builder.close()
    assert changed == 1
    service = GameService(db, env={"AGGREGATE_CACHE_MAXSIZE": ""})
    assert "spaces" in list(service.snapshots.get(game_id))[-1].state["state"]  # the old shape is stored
    for fold in (service.get_game(game_id), service.fold(game_id)):
        assert (fold.version, fold.chain, fold.state) == (expected.version, expected.chain, expected.state)
    assert STAMP not in vars(service.get_game(game_id))
