"""Writers killed with SIGKILL at random moments, on SQLite and on PostgreSQL (issue 15, item 5).

Each test reuses one store across all its runs (the store must stay sound across many kills): a writer
starts as a process of its own and is killed after a seeded random delay within its work; then the
store must open, every game in it must audit clean with no version missing or doubled, every
interrupted game must take another action (unless it is over), a file whose import was killed
imports again or is found already stored, and the read side's views equal a fold of the events up to
its position. 100 runs per store in all: bot drivers (cheap to start), and the real `act`,
`play --bots`, `import` and `projections run` commands. (`host run` killed at random points is
tests/pbem/test_real_mail.py's, on both stores.)
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from uuid import UUID

import pytest

from domain.bots import Bot
from event_store.app.replay_file import check_import, export_game, import_game
from event_store.app.service import GameService, play_with_bots
from event_store.sql import SQLITE, sql_store_of
from projections.read_side import ReadSide, fold_views
from tests.race_driver import choose
from tests.store.test_concurrency import REPO, check_log

pytestmark = pytest.mark.slow  # a kill loop: writer processes killed with SIGKILL at random moments

BOT_RUNS = 30
PROJECTION_RUNS = 10
ACT_RUNS = 25
PLAY_RUNS = 20
IMPORT_RUNS = 15
PLAYERS = [("Ann", None), ("Bo", None)]
TIMEOUT = 60


def started(args: list[str], stdout: int | None = subprocess.DEVNULL) -> subprocess.Popen[str]:
    """Starts a writer as a process of its own."""
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.Popen(args, cwd=REPO, stdout=stdout, stderr=subprocess.DEVNULL, text=True, env=env)


def killed(args: list[str], after: float) -> bool:
    """Runs a writer and kills it with SIGKILL `after` seconds after it starts; returns whether it had
    ended by itself first."""
    process = started(args)
    time.sleep(after)
    process.send_signal(signal.SIGKILL)  # a no-op once it has ended and been reaped
    return process.wait(timeout=TIMEOUT) == 0


def killed_after_actions(args: list[str], actions: int) -> None:
    """Runs a bot driver and kills it with SIGKILL once it has stored that many actions (a moment in its
    work, however loaded the machine: it is likely writing the next one then)."""
    process = started(args, stdout=subprocess.PIPE)
    for _ in range(actions):
        if not process.stdout.readline():  # type: ignore[union-attr]
            break  # every game is over
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=TIMEOUT)


def run_time(args: list[str]) -> float:
    """Returns how long a writer takes to its end on this machine now, so that kills land within its work
    on a busy machine as on an idle one."""
    begun = time.monotonic()
    done = subprocess.run(args, cwd=REPO, capture_output=True, timeout=TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr
    return time.monotonic() - begun


def cli(db: str, *args: str) -> list[str]:
    """Returns the command line of a real nightkeep command on a store."""
    return [sys.executable, "-m", "nightkeep", "--db", db, *args]


def reopened(db: str, games: list[UUID]) -> GameService:
    """Opens the store afresh, as the next command would, and checks it and every given game."""
    service = GameService.open(db)
    store = sql_store_of(service.recorder)
    assert store is not None
    if store.dialect == SQLITE:
        with store.transaction(commit=False) as c:
            c.execute("PRAGMA integrity_check")
            assert c.fetchall() == [("ok",)]
    for game_id in games:
        check_log(service, game_id)
    return service


def continued(service: GameService, game_id: UUID, bot: Bot) -> bool:
    """Takes one more bot action in an interrupted game; returns False if the game is over."""
    chosen = choose(service, game_id, bot)
    if chosen is None:
        return False
    version, player, action = chosen
    assert service.take_action(game_id, player, action, expected_version=version)[0] > version
    return True


def kept_running(service: GameService, games: list[UUID], bot: Bot) -> list[UUID]:
    """Continues every game once; replaces each finished one by a new game."""
    return [g if continued(service, g, bot) else service.create_game("dungeon-short", PLAYERS) for g in games]


def test_bot_drivers_killed_at_random_moments_leave_every_game_sound_and_playable(new_store):
    db, rng, bot = new_store("bots"), random.Random(151), Bot(151)
    service = GameService.open(db)
    games = [service.create_game("dungeon-short", PLAYERS) for _ in range(3)]
    games.append(service.create_game("keep-run", PLAYERS))
    service.close()
    every = list(games)
    for run in range(BOT_RUNS):
        driver = [sys.executable, "-m", "tests.race_driver", "bots", db, f"killed-{run}", *map(str, games)]
        killed_after_actions(driver, rng.randrange(12))
        service = reopened(db, games)
        games = kept_running(service, games, bot)
        every.extend(g for g in games if g not in every)
        service.close()
    reopened(db, every).close()


def test_act_commands_killed_at_random_moments_leave_the_game_sound_and_playable(new_store):
    db, rng, bot = new_store("act"), random.Random(152), Bot(152)
    service = GameService.open(db)
    games = [service.create_game("dungeon-short", PLAYERS)]
    every = list(games)
    whole = 0.0
    for run in range(ACT_RUNS + 1):
        version, player, action = choose(service, games[0], bot) or (0, "", "")
        command = cli(db, "act", str(games[0]), action, "--as", player, "--expect-version", str(version))
        service.close()
        if run == 0:
            whole = run_time(command)  # the first action is taken whole: how long one takes here
        else:
            killed(command, rng.uniform(0.3, 1.1) * whole)
        service = reopened(db, games)
        games = kept_running(service, games, bot)
        every.extend(g for g in games if g not in every)
    service.close()
    reopened(db, every).close()


def test_play_with_bots_killed_at_random_moments_leaves_the_game_sound_and_playable(new_store):
    db, rng, bot = new_store("play"), random.Random(153), Bot(153)
    service = GameService.open(db)
    whole = run_time(cli(db, "play", str(service.create_game("dungeon-short", PLAYERS)), "--bots"))
    games = [service.create_game("dungeon-short", PLAYERS)]
    every = list(games)
    service.close()
    for run in range(PLAY_RUNS):
        killed(cli(db, "play", str(games[0]), "--bots", "--seed", str(run)), rng.uniform(0.2, 1.0) * whole)
        service = reopened(db, games)
        games = kept_running(service, games, bot)
        every.extend(g for g in games if g not in every)
        service.close()
    reopened(db, every).close()


def test_imports_killed_at_random_moments_store_all_or_nothing_and_import_again(new_store, tmp_path: Path):
    db, rng = new_store("imports"), random.Random(154)
    source = GameService.open(":memory:")
    files: dict[UUID, Path] = {}
    for n in range(IMPORT_RUNS):
        game_id = source.create_game("dungeon-short", PLAYERS)
        play_with_bots(source, game_id, seed=n)
        files[game_id] = tmp_path / f"game-{n}.nkr"
        # The host's full log, or every other time the public copy (stored as a copy under an id of
        # its own, its row written just before its events).
        files[game_id].write_bytes(export_game(source, game_id, *([] if n % 2 else [""])))
    GameService.open(db).close()
    spare = tmp_path / "spare.nkr"
    spare.write_bytes(export_game(source, source.create_game("dungeon-short", PLAYERS)))
    whole = run_time(cli(db, "import", str(spare)))
    stored: list[UUID] = [check_import(spare.read_bytes()).stored]
    for game_id, path in files.items():
        killed(cli(db, "import", str(path)), rng.uniform(0.3, 1.1) * whole)
        service = reopened(db, stored)
        stored_as = check_import(path.read_bytes()).stored
        held = service.has_game(stored_as)
        if held:
            check_log(service, stored_as)  # all of it, or nothing (one transaction)
        again = import_game(service, path.read_bytes())
        assert again.added == (0 if held else len(source.recorded_events(game_id)))
        stored.append(stored_as)
        service.close()
    reopened(db, stored).close()


def test_the_read_side_killed_at_random_moments_keeps_views_that_equal_a_fold(new_store):
    db, rng, bot = new_store("read"), random.Random(155), Bot(155)
    service = GameService.open(db)
    games = [service.create_game("dungeon-short", PLAYERS) for _ in range(2)]
    for n, game_id in enumerate(games):
        play_with_bots(service, game_id, seed=n)
    games.append(service.create_game("keep-run", PLAYERS))
    service.close()
    every = list(games)
    whole = run_time(cli(db, "projections", "run", "--rebuild", "--once", "--batch", "4"))
    for run in range(PROJECTION_RUNS):
        rebuild = ["--rebuild"] if run % 2 else []  # a rebuild killed midway, every other run
        command = cli(db, "projections", "run", *rebuild, "--once", "--batch", str(rng.randint(1, 9)))
        killed(command, rng.uniform(0.3, 1.1) * whole)
        service = reopened(db, every)
        position, views = ReadSide(service).views_at()
        assert views == fold_views(service, upto=position), f"after a kill at {position}"
        games = kept_running(service, games, bot)  # new events for the next run to follow
        every.extend(g for g in games if g not in every)
        service.close()
    reopened(db, every).close()
