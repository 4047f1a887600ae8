"""The Game aggregate and GameService: chain, seed secrecy, legality errors, concurrency, snapshots."""

from __future__ import annotations

import hashlib
import uuid

import pytest

from domain.errors import GameOver, IllegalAction, NotYourTurn, StaleVersion, UnknownGame, UsageError
from domain.events import GENESIS_CHAIN, next_chain
from event_store.app.service import SNAPSHOT_INTERVAL, GameService, play_with_bots
from tests import store_rows

PLAYERS = [("Ann", None), ("Bo", None)]


def finish(service, game_id):
    play_with_bots(service, game_id, seed=1)
    return service.get_game(game_id)


def test_every_event_is_chained_to_the_one_before(store_service):
    game_id = store_service.create_game("toy-race", PLAYERS)
    finish(store_service, game_id)
    previous = GENESIS_CHAIN
    for recorded in store_service.recorded_events(game_id):
        assert recorded.chain == next_chain(
            previous, recorded.type_name, recorded.class_version, recorded.fields
        )
        previous = recorded.chain


def test_seed_stays_out_of_the_public_log_until_the_game_ends(store_service):
    game_id = store_service.create_game("toy-race", PLAYERS)
    seed = store_service.seed_of(game_id)
    types = [r.type_name for r in store_service.recorded_events(game_id)]
    assert "SeedRevealed" not in types
    assert all(seed not in repr(r.fields).encode() for r in store_service.recorded_events(game_id))
    commitment = store_service.recorded_events(game_id)[1].fields["commitment"]
    assert commitment == hashlib.sha256(seed).digest()
    game = finish(store_service, game_id)
    last = store_service.recorded_events(game_id)[-1]
    assert last.type_name == "SeedRevealed" and last.fields["seed"] == seed
    assert game.meta["seed"] == seed


def test_early_reveal_records_the_seed_once(store_service):
    game_id = store_service.create_game("toy-race", PLAYERS)
    seed = store_service.reveal_seed(game_id)
    store_service.reveal_seed(game_id)
    reveals = [r for r in store_service.recorded_events(game_id) if r.type_name == "SeedRevealed"]
    assert [r.fields["seed"] for r in reveals] == [seed]


def test_wrong_player_illegal_action_and_finished_game_are_refused_and_store_nothing(store_service):
    game_id = store_service.create_game("toy-race", PLAYERS)
    version = store_service.get_game(game_id).version
    with pytest.raises(NotYourTurn):
        store_service.take_action(game_id, "Bo", "roll")
    with pytest.raises(IllegalAction):
        store_service.take_action(game_id, "Ann", "fly")
    assert store_service.get_game(game_id).version == version
    finish(store_service, game_id)
    with pytest.raises(GameOver):
        store_service.take_action(game_id, "Ann", "roll")


def test_unknown_game_is_a_clear_error(store_service):
    with pytest.raises(UnknownGame):
        store_service.get_game(uuid.uuid4())
    with pytest.raises(UnknownGame):
        store_service.resolve_game_id("not-a-game")


def test_a_lost_race_says_the_game_moved_on(new_store, tmp_path):
    db = new_store("race")
    first, second = GameService.open(db), GameService.open(db)
    game_id = first.create_game("toy-race", PLAYERS)
    stale = second.get_game(game_id)
    first.take_action(game_id, "Ann", "roll")
    with pytest.raises(StaleVersion, match="moved on to version"):
        second.take_action(game_id, "Bo", "roll", expected_version=stale.version)
    # The same race without an expected version is caught by the store's unique version constraint.
    stale.take_action("Ann", "roll", stale.dice(second.seed_of(game_id)))
    second.get_game = lambda _id, version=None: stale  # type: ignore[method-assign]
    second.repository.cache.get(game_id, evict=True)  # no copy of its own to try first: only the stale load
    with pytest.raises(StaleVersion, match="moved on to version"):
        GameService.take_action(second, game_id, "Bo", "roll")
    reader = GameService.open(db)
    events = reader.recorded_events(game_id)
    assert [r.version for r in events] == list(range(1, len(events) + 1))


LONG_RACE = {"goal": "100"}  # nobody wins in the few turns these tests take


def test_a_service_acting_on_its_own_stale_copy_acts_on_the_newest_game(new_store):
    db = new_store("race")
    first, second = GameService.open(db), GameService.open(db)
    loads = []
    load = second.playable_game
    second.playable_game = lambda game_id: loads.append(game_id) or load(game_id)  # type: ignore[method-assign]
    game_id = first.create_game("toy-race", PLAYERS, LONG_RACE)
    second.take_action(game_id, "Ann", "roll")  # second holds the game as it saved it: Bo to move
    assert len(loads) == 1
    first.take_action(game_id, "Bo", "roll")
    # Its copy says Bo is to move, the store says Ann: the rules' refusal of the copy is not the answer.
    second.take_action(game_id, "Ann", "roll")
    first.take_action(game_id, "Bo", "roll")
    first.take_action(game_id, "Ann", "roll")
    # Its copy and the store both say Bo, but its copy's next version is taken: it is taken again on top.
    second.take_action(game_id, "Bo", "roll")
    assert len(loads) == 3  # loaded when it had no copy, and after each refusal of its copy
    version, recorded = second.take_action(game_id, "Ann", "roll")
    assert len(loads) == 3  # its copy was the newest game: not loaded
    reader = GameService.open(db)
    assert version == reader.get_game(game_id).version == recorded[-1].version
    assert [r.event.player for r in reader.recorded_events(game_id) if r.type_name == "ActionTaken"][1:] == [
        "Ann",
        "Bo",
        "Ann",
        "Bo",
        "Ann",
        "Bo",
        "Ann",
    ]
    assert reader.audit(game_id).findings == []


def test_an_expected_version_is_held_against_the_store_not_against_a_stale_copy(new_store):
    db = new_store("race")
    first, second = GameService.open(db), GameService.open(db)
    game_id = first.create_game("toy-race", PLAYERS, LONG_RACE)
    held, _ = second.take_action(game_id, "Ann", "roll")
    newest, _ = first.take_action(game_id, "Bo", "roll")
    with pytest.raises(StaleVersion, match=f"moved on to version {newest}, reload"):
        second.take_action(game_id, "Ann", "roll", expected_version=held)
    version, _ = second.take_action(game_id, "Ann", "roll", expected_version=newest)
    assert version > newest == GameService.open(db).get_game(game_id, newest).version


def test_game_loads_from_sqlite_in_a_new_process_like_a_fresh_service(new_store, tmp_path):
    db = new_store("games")
    service = GameService.open(db)
    game_id = service.create_game("toy-race", PLAYERS)
    game = finish(service, game_id)
    reopened = GameService.open(db)
    assert reopened.get_game(game_id).state == game.state
    assert reopened.fold(game_id).state == game.state


def test_old_versions_load_for_replay(store_service):
    game_id = store_service.create_game("toy-race", PLAYERS)
    finish(store_service, game_id)
    early = store_service.get_game(game_id, version=5)
    assert early.version == 5 and early.state["pos"] == {"Ann": 0, "Bo": 0}
    assert store_service.fold(game_id, 5).state == early.state
    with pytest.raises(UsageError):
        store_service.get_game(game_id, version=10_000)


def test_long_games_are_snapshotted_so_loading_does_not_replay_everything(new_store, tmp_path):
    service = GameService.open(new_store("long"))
    game_id = service.create_game("toy-race", PLAYERS, {"goal": "300"})
    finish(service, game_id)
    snapshots = list(service.snapshots.get(game_id))
    version = service.get_game(game_id).version
    # One snapshot each time the game passes a multiple of the interval, taken right after that save.
    every = SNAPSHOT_INTERVAL
    assert [s.originator_version // every for s in snapshots] == list(range(1, version // every + 1))
    assert all(s.originator_version % every < 10 for s in snapshots)
    fresh = GameService.open(new_store("long"))
    assert fresh.get_game(game_id).state == service.fold(game_id).state
    middle = snapshots[0].originator_version + 7
    assert fresh.get_game(game_id, version=middle).state == service.fold(game_id, middle).state


@pytest.mark.parametrize("cache", ["64", ""])
def test_a_game_loaded_from_its_snapshot_plays_on_exactly_as_one_folded_from_every_event(new_store, cache):
    db, twin = new_store("game"), new_store("twin")
    builder = GameService.open(db)
    game_id = builder.create_game("toy-race", PLAYERS, {"goal": "100000"})
    for _ in range(30):
        play_with_bots(builder, game_id, seed=2, max_actions=1)
    store_rows.copy_store(builder, GameService.open(twin))
    builder.close()
    lean = GameService(db, env={"AGGREGATE_CACHE_MAXSIZE": cache})
    full = GameService(twin, env={"AGGREGATE_CACHE_MAXSIZE": "", "IS_SNAPSHOTTING_ENABLED": "n"})
    assert lean.get_game(game_id).version % SNAPSHOT_INTERVAL != 0  # some events after the last snapshot
    for _ in range(12):
        player = lean.legal_actions(game_id)[0].player
        version, recorded = lean.take_action(game_id, player, "roll")
        assert (version, [(r.version, r.fields, r.chain) for r in recorded]) == (
            full.take_action(game_id, player, "roll")[0],
            [
                (r.version, r.fields, r.chain)
                for r in full.recorded_events(game_id, gt=recorded[0].version - 1)
            ],
        )
        loaded, folded = lean.get_game(game_id), full.get_game(game_id)
        assert (loaded.version, loaded.chain, loaded.meta, loaded.state) == (
            folded.version,
            folded.chain,
            folded.meta,
            folded.state,
        )
        assert loaded.modified_on == lean.recorded_events(game_id)[-1].timestamp
    assert not lean.audit(game_id).findings


def test_a_fold_from_a_snapshot_equals_the_fold_of_every_event_in_forks_and_imports_too(new_store, tmp_path):
    from event_store.app.replay_file import export_game, import_game

    service = GameService.open(new_store("games"))
    game_id = service.create_game("toy-race", PLAYERS, {"goal": "400"})
    for _ in range(40):
        play_with_bots(service, game_id, seed=3, max_actions=1)
    last = service.get_game(game_id).version
    assert list(service.snapshots.get(game_id))  # the fold below starts from one of them

    def same_folds(gid, versions):
        for at in versions:
            lean, whole = service.fold(gid, at), service.fold(gid, at, use_snapshot=False)
            assert (lean.version, lean.chain, lean.meta, lean.state, lean.ruleset_name) == (
                whole.version,
                whole.chain,
                whole.meta,
                whole.state,
                whole.ruleset_name,
            )

    same_folds(game_id, [None, 1, 2, SNAPSHOT_INTERVAL, SNAPSHOT_INTERVAL + 1, last - 1, last])
    boundary = max(r.version for r in service.recorded_events(game_id) if r.type_name == "ActionTaken") - 1
    fork_id, _ = service.fork_game(game_id, boundary)
    for _ in range(10):
        play_with_bots(service, fork_id, seed=4, max_actions=1)
    same_folds(fork_id, [None, boundary, boundary + 2])
    finish(service, game_id)
    elsewhere = GameService.open(new_store("other"))
    import_game(elsewhere, export_game(service, game_id))
    assert elsewhere.fold(game_id).state == service.fold(game_id, use_snapshot=False).state
    with pytest.raises(UsageError, match="only"):
        service.fold(game_id, service.get_game(game_id).version + 1)


def test_entropy_changes_the_dice_and_is_refused_after_the_first_draw(store_service):
    a = store_service.create_game("toy-race", PLAYERS, entropy=[("Ann", b"lucky")])
    assert store_service.recorded_events(a)[3].type_name == "EntropyAdded"  # after the key chain's anchor
    game = store_service.get_game(a)
    game.take_action("Ann", "roll", game.dice(store_service.seed_of(a)))
    with pytest.raises(UsageError):
        game.add_entropy("Bo", b"late")


def test_scripted_dice_game_is_marked_and_follows_the_script(store_service):
    game_id = store_service.create_game("toy-race", PLAYERS, dice_script=[6, 2])
    created = store_service.recorded_events(game_id)[0]
    assert created.fields["scripted"] is True and created.fields["dice_script"] == [6, 2]
    _, events = store_service.take_action(game_id, "Ann", "roll")
    _, more = store_service.take_action(game_id, "Bo", "roll")
    rolls = [r.fields["values"] for r in events + more if r.type_name == "DieRolled"]
    assert rolls == [[6], [2]]


def test_actions_are_logged_as_key_value_events(store_service):
    from structlog.testing import capture_logs

    with capture_logs() as logs:
        game_id = store_service.create_game("toy-race", PLAYERS)
        store_service.take_action(game_id, "Ann", "roll")
    assert [entry["event"] for entry in logs] == ["game_created", "action_taken"]
    assert logs[1]["player"] == "Ann" and logs[1]["action"] == "roll" and logs[1]["game"] == str(game_id)


def test_the_seed_is_nowhere_in_the_stored_events_until_revealed(store_service):
    # What every follower reads (per game, on every store: there is no global log on Citus).
    game_id = store_service.create_game("toy-race", PLAYERS)
    seed = store_service.seed_of(game_id)
    stored = store_service.recorder.select_events(game_id)
    assert stored and all(seed not in e.state for e in stored)
    store_service.reveal_seed(game_id)
    stored = store_service.recorder.select_events(game_id)
    assert sum(seed in e.state for e in stored) == 1


def test_after_an_early_reveal_no_more_actions_are_taken(store_service):
    game_id = store_service.create_game("toy-race", PLAYERS)
    store_service.reveal_seed(game_id)
    with pytest.raises(GameOver, match="stopped: its dice seed was revealed"):
        store_service.take_action(game_id, "Ann", "roll", nonce=b"chosen to get a six")


def test_players_add_entropy_after_the_commitment_and_before_the_host_starts(store_service):
    game_id = store_service.create_game("toy-race", PLAYERS, wait_for_entropy=True)
    with pytest.raises(IllegalAction, match="not started"):
        store_service.take_action(game_id, "Ann", "roll")
    store_service.add_entropy(game_id, "Bo", b"bo's coin flips")
    with pytest.raises(UsageError):
        store_service.add_entropy(game_id, "Zed", b"no seat")
    _, started = store_service.start_game(game_id)
    assert [r.type_name for r in started][:1] == ["ActionTaken"]
    types = [r.type_name for r in store_service.recorded_events(game_id)]
    assert types[:5] == ["GameCreated", "SeedCommitted", "DiceChainCommitted", "EntropyAdded", "ActionTaken"]
    with pytest.raises(UsageError):
        store_service.add_entropy(game_id, "Ann", b"too late")
    with pytest.raises(IllegalAction):
        store_service.start_game(game_id)
    store_service.take_action(game_id, "Ann", "roll")


def test_entropy_changes_every_later_draw(store_service):
    plain = store_service.create_game("toy-race", PLAYERS, wait_for_entropy=True)
    mixed = store_service.create_game("toy-race", PLAYERS, wait_for_entropy=True)
    store_service.add_entropy(mixed, "Ann", b"x")
    for game_id in (plain, mixed):
        store_service.start_game(game_id)
    games = [store_service.get_game(g) for g in (plain, mixed)]
    assert games[0].meta["pool"] != games[1].meta["pool"]


def test_an_unreadable_snapshot_is_passed_over_for_the_events_which_are_the_record(db):
    builder = GameService.open(db)
    game_id = builder.create_game("toy-race", PLAYERS, {"goal": "100000"})
    for _ in range(30):
        play_with_bots(builder, game_id, seed=2, max_actions=1)
    expected = builder.fold(game_id, use_snapshot=False)
    damaged = store_rows.update(
        builder, f"UPDATE {store_rows.snapshots_table(builder)} SET state = ?", [b"\xc1" * 3]
    )
    builder.close()
    assert damaged >= 1
    service = GameService(db, env={"AGGREGATE_CACHE_MAXSIZE": ""})
    for fold in (service.get_game(game_id), service.fold(game_id)):
        assert (fold.version, fold.chain, fold.meta, fold.state) == (
            expected.version,
            expected.chain,
            expected.meta,
            expected.state,
        )
    player = service.legal_actions(game_id)[0].player
    assert service.take_action(game_id, player, "roll")[0] > expected.version
    assert not service.audit(game_id).findings
