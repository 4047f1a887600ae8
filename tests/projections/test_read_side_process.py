"""`nightkeep projections run`: the read side as a process keeps its views (game list, boards, results,
dice statistics) equal to a fold of the events, exactly once, through batches, kills and rebuilds, on
both stores."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner
from structlog.testing import capture_logs

from cli.main import cli
from event_store.app.seats import seen_by
from event_store.app.service import GameService, play_with_bots
from event_store.follower_positions import heads
from event_store.recorded import fold_recorded
from event_store.sql import sql_store_of
from projections.read_side import ReadSide, fold_views
from projections.read_views import GameViews
from projections.views import render_board

pytestmark = pytest.mark.slow  # a long CLI tour: the read side run as a process

ROOT = Path(__file__).resolve().parents[2]
# The longest a test waits for a subprocess to reach a point (a bound against hanging, never a timing).
PATIENCE = 120.0


def nightkeep(db: str, *args: str) -> subprocess.Popen[str]:
    """Starts `nightkeep --db DB ARGS...` as its own process."""
    return subprocess.Popen(
        [str(Path(sys.executable).parent / "nightkeep"), "--db", db, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def invoke(db: str, *args: str):
    return CliRunner().invoke(cli, ["--db", db, *args])


def stored_heads(service: GameService) -> dict[str, int]:
    """Returns every game's head: how many events the store holds of it."""
    store = sql_store_of(service.recorder)
    assert store is not None
    return {str(game): version for game, version in heads(store).items()}


def stored(service: GameService) -> int:
    """Returns how many events the store holds, over every game."""
    return sum(stored_heads(service).values())


def boundaries(service: GameService, game_id: UUID) -> list[int]:
    """Returns the versions a game may be forked at: each event just before a player's action."""
    events = service.recorded_events(game_id)
    return [r.version - 1 for r in events if r.type_name == "ActionTaken" and r.fields["player"] != "host"]


def played_store(service: GameService) -> dict[str, UUID]:
    """Stores games of every kind the views must follow: finished, running, stopped by an early reveal,
    a fork, and a game with secrets (whose public board seals them)."""
    games = {}
    games["finished"] = service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    play_with_bots(service, games["finished"], seed=1)
    games["running"] = service.create_game("keep-run", [("Cy", None), ("Di", None)])
    play_with_bots(service, games["running"], seed=2, max_actions=10)
    games["stopped"] = service.create_game("dungeon-short", [("Ann", None), ("Cy", None)])
    play_with_bots(service, games["stopped"], seed=3, max_actions=10)
    service.reveal_seed(games["stopped"])
    at = boundaries(service, games["finished"])[5]
    games["fork"], _ = service.fork_game(games["finished"], at)
    play_with_bots(service, games["fork"], seed=4, max_actions=4)
    games["secrets"] = service.create_game("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")])
    play_with_bots(service, games["secrets"], seed=5, max_actions=20)
    return games


def test_views_equal_a_fold_of_the_events_after_each_run(store_service):
    side = ReadSide(store_service, batch_size=7)
    assert side.catch_up() == 0 and side.views() == fold_views(store_service)
    games = played_store(store_service)
    assert side.catch_up() == stored(store_service)
    assert side.progress().behind == 0 and side.positions() == stored_heads(store_service)
    views = side.views()
    assert views == fold_views(store_service)
    assert {views["games"][str(g)]["status"] for g in games.values()} == {"finished", "running", "stopped"}
    finished = views["games"][str(games["finished"])]
    won = {
        p: "won" if p == finished["winner"] else "lost" if finished["winner"] else "drawn"
        for p in ("Ann", "Bo")
    }
    assert views["results"] == {str(games["finished"]): won}  # only the finished game has a result
    assert views["dice"][str(games["finished"])], "a played dungeon game rolled dice"
    # More play on a running game: its views move on from where they were, and still equal a fold.
    play_with_bots(store_service, games["running"], seed=6, max_actions=10)
    assert side.catch_up() > 0
    assert side.views() == fold_views(store_service)


def test_the_board_is_the_public_board_with_secrets_sealed(store_service):
    games = played_store(store_service)
    ReadSide(store_service).catch_up()
    views = ReadSide(store_service).views()
    for game in games.values():
        recorded = store_service.recorded_events(game)
        public = fold_recorded(seen_by(recorded, None))
        stopped = views["games"][str(game)]["status"] == "stopped"
        assert views["boards"][str(game)] == {
            "version": len(recorded),
            "board": render_board(public.ruleset_name, public.state, stopped),
        }
    secrets = fold_recorded(store_service.recorded_events(games["secrets"]))
    assert views["boards"][str(games["secrets"])]["board"] != render_board("vampire-empire", secrets.state)


def test_a_batch_writes_several_events_of_a_game_in_one_transaction(store_service):
    played_store(store_service)
    side = ReadSide(store_service, batch_size=10)
    with capture_logs() as logs:
        assert side.run_batch() == 10
        assert side.position() == 10
        side.catch_up()
    versions: dict[str, list[int]] = {}
    for batch in (entry for entry in logs if entry["event"] == "read_side_batch"):
        versions.setdefault(batch["game"], []).append(batch["version"])
    assert versions == {
        game: [*range(10, head, 10), head] for game, head in stored_heads(store_service).items()
    }
    assert side.views() == fold_views(store_service)


def test_a_batch_that_fails_midway_writes_nothing_and_the_next_run_resumes(store_service, monkeypatch):
    played_store(store_service)
    side = ReadSide(store_service, batch_size=25)
    side.catch_up()
    before, position = side.views(), side.position()
    game = store_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    play_with_bots(store_service, game, seed=9)

    def fail(self):  # after the position, the game list and the boards were written in the transaction
        raise OSError("the disk is gone")

    monkeypatch.setattr(GameViews, "results", fail)
    with pytest.raises(OSError):
        side.run_batch()
    assert side.views() == before and side.position() == position
    monkeypatch.undo()
    side.catch_up()
    assert side.views() == fold_views(store_service)


def test_two_runners_at_once_count_each_event_once(store_service):
    played_store(store_service)
    first, second = ReadSide(store_service, batch_size=9), ReadSide(store_service, batch_size=4)
    write = first._write_batch
    raced = []

    def racing(game_id, start, end, views):
        if not raced:  # the other runner takes the same events of the same game first
            raced.append(second.run_batch())
        write(game_id, start, end, views)

    first._write_batch = racing  # type: ignore[method-assign]
    with capture_logs() as logs:
        first.catch_up()
    second.catch_up()
    assert raced == [4] and any(e["event"] == "read_side_position_moved" for e in logs)
    assert first.views() == fold_views(store_service)


def test_two_runners_taking_the_very_same_batch_count_it_once(store_service):
    # Same start, same batch size: the first leaves the position where the second would put it, so
    # only the row having moved from the second's start tells that the batch is counted already.
    played_store(store_service)
    first, second = ReadSide(store_service, batch_size=7), ReadSide(store_service, batch_size=7)
    write = first._write_batch
    raced = []

    def racing(game_id, start, end, views):
        if not raced:
            raced.append(second.run_batch())
        write(game_id, start, end, views)

    first._write_batch = racing  # type: ignore[method-assign]
    with capture_logs() as logs:
        first.catch_up()
    assert raced == [7] and any(e["event"] == "read_side_position_moved" for e in logs)
    assert first.views() == fold_views(store_service)


def test_rebuild_gives_the_same_views(store_service, db):
    played_store(store_service)
    assert invoke(db, "projections", "run", "--once", "--batch", "13").exit_code == 0
    kept = ReadSide(store_service).views()
    result = invoke(db, "projections", "run", "--rebuild", "--once", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["from"] == 0 and summary["events"] == summary["folded"] == stored(store_service) > 0
    assert summary["behind"] == 0 and summary["games"] == len(stored_heads(store_service))
    assert ReadSide(store_service).views() == kept == fold_views(store_service)
    assert invoke(db, "projections", "check").exit_code == 0


def test_check_names_a_view_that_differs_from_the_fold(store_service, db):
    played_store(store_service)
    side = ReadSide(store_service)
    side.catch_up()
    with side._store.transaction(commit=True) as c:
        c.execute("UPDATE nightkeep_read_dice SET rolls = rolls + 1 WHERE face = 6")
    result = invoke(db, "projections", "check")
    assert result.exit_code == 1 and result.output.startswith("dice of ")


def test_the_in_memory_store_has_no_read_side():
    result = CliRunner().invoke(cli, ["--db", ":memory:", "projections", "run", "--once"])
    assert result.exit_code == 2 and "SQLite or PostgreSQL" in result.output


def wait_until(what, check) -> None:
    deadline = time.monotonic() + PATIENCE
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def test_sigterm_finishes_the_batch_and_exits_0(store_service, db):
    played_store(store_service)
    latest = stored(store_service)
    side = ReadSide(store_service)
    runner = nightkeep(db, "projections", "run", "--batch", "5", "--poll", "0.1")
    try:
        wait_until("the runner to catch up", lambda: side.position() == latest)
        runner.send_signal(signal.SIGTERM)
        out, err = runner.communicate(timeout=PATIENCE)
    finally:
        runner.kill()
    assert runner.returncode == 0, err
    games = len(stored_heads(store_service))
    assert f"read side: {games} games, {latest:,} events folded; 0 games behind" in out
    assert "stopped by SIGTERM" in out
    assert side.views() == fold_views(store_service)


def test_sigterm_in_the_middle_of_a_catch_up_stops_after_a_whole_batch(store_service, db):
    played_store(store_service)
    side = ReadSide(store_service)
    runner = nightkeep(db, "projections", "run", "--batch", "3", "--json")
    try:
        wait_until("the runner's first batches", lambda: side.position() >= 30)
        runner.send_signal(signal.SIGTERM)
        out, err = runner.communicate(timeout=PATIENCE)
    finally:
        runner.kill()
    assert runner.returncode == 0, err
    summary = json.loads(out)
    positions, views = side.views_at()
    assert summary["stopped"] == "SIGTERM" and summary["folded"] == sum(positions.values())
    assert views == fold_views(store_service, upto=positions)
    assert invoke(db, "projections", "run", "--once").exit_code == 0
    assert side.views_at() == (stored_heads(store_service), fold_views(store_service))


def test_a_following_runner_takes_new_events_as_they_come(store_service, db, store_kind):
    # PostgreSQL wakes the runner by NOTIFY: its poll is longer than the test's patience, so a runner
    # that only polled would never be seen to catch up. SQLite is polled.
    poll = str(10 * PATIENCE) if store_kind == "postgresql" else "0.05"
    side = ReadSide(store_service)
    runner = nightkeep(db, "projections", "run", "--poll", poll)
    try:
        for seed in range(2):
            game = store_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
            play_with_bots(store_service, game, seed=seed, max_actions=20)
            latest = stored(store_service)
            wait_until("the runner to take the new events", lambda latest=latest: side.position() == latest)
        runner.send_signal(signal.SIGTERM)
        _, err = runner.communicate(timeout=PATIENCE)
    finally:
        runner.kill()
    assert runner.returncode == 0, err
    assert side.views() == fold_views(store_service)


WRITER = """
import sys
from event_store.app.service import GameService, play_with_bots
from event_store.follower_positions import heads
service = GameService.open(sys.argv[1])
for n, ruleset in enumerate(sys.argv[2:]):
    game = service.create_game(ruleset, [("Ann", None), ("Bo", None)])
    play_with_bots(service, game, seed=n, max_actions=60)
"""


KILLS = 8


def test_sigkill_at_random_moments_then_resume_counts_every_event_once(store_service, db):
    rng = random.Random(15)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, db, *["dungeon-short", "keep-run"] * 3],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.PIPE,
        text=True,
    )
    side = ReadSide(store_service)

    def latest() -> int:
        return stored(store_service)

    positions = []
    try:
        wait_until("the writer's first game", lambda: latest() > 0)
        while writer.poll() is None or len(positions) < KILLS:
            runner = nightkeep(db, "projections", "run", "--batch", str(rng.randint(1, 9)), "--poll", "0.05")
            last = side.position()
            # Killed a seeded while after its first batch (or at once when there is nothing new): the
            # moment varies, the test asserts no timing.
            wait_until(
                "the runner's first batch",
                lambda last=last: last < side.position() or last >= latest(),
            )
            time.sleep(rng.uniform(0.0, 0.4))
            runner.kill()
            runner.wait(timeout=PATIENCE)
            assert runner.returncode == -signal.SIGKILL
            taken, views = side.views_at()
            position = sum(taken.values())
            assert views == fold_views(store_service, upto=taken), f"after a kill at {position}"
            positions.append(position)
    finally:
        writer.kill()
        _, err = writer.communicate()
    assert writer.returncode == 0, err
    assert positions == sorted(positions), "a position never goes back"
    resumed = nightkeep(db, "projections", "run", "--once", "--json")
    out, err = resumed.communicate(timeout=PATIENCE)
    assert resumed.returncode == 0, err
    assert json.loads(out)["folded"] == stored(store_service)
    assert side.views() == fold_views(store_service)


def test_views_made_before_per_game_positions_are_rebuilt_from_zero(store_service):
    # A store whose views were kept with the old global position holds views but no per-game position:
    # its views are cleared as the read side opens, then folded again, each event once.
    played_store(store_service)
    side = ReadSide(store_service)
    side.catch_up()
    with side._store.transaction(commit=True) as c:
        c.execute("DELETE FROM nightkeep_follower_positions")
        c.execute("CREATE TABLE nightkeep_read_position (name TEXT PRIMARY KEY, notification_id BIGINT)")
    reopened = ReadSide(store_service)
    assert reopened.views() == {"games": {}, "boards": {}, "results": {}, "dice": {}}
    assert reopened.catch_up() == stored(store_service)
    assert reopened.views() == fold_views(store_service)


def test_a_runner_that_lost_a_game_to_another_goes_on_with_the_other_games(store_service):
    games = played_store(store_service)
    first, second = ReadSide(store_service, batch_size=1_000), ReadSide(store_service, batch_size=1_000)
    write = first._write_batch
    lost = []

    def racing(game_id, start, end, views):
        if not lost:  # the other runner takes this whole game first
            lost.append(str(game_id))
            second.run_batch()
        write(game_id, start, end, views)

    first._write_batch = racing  # type: ignore[method-assign]
    taken = first.catch_up()
    assert len(lost) == 1 and taken == stored(store_service) - stored_heads(store_service)[lost[0]]
    assert first.positions() == stored_heads(store_service) and len(games) == len(first.positions())
    assert first.views() == fold_views(store_service)
