"""Start-up and `games` benchmarks: whole commands as a user runs them, timed side by side.

Run from anywhere (the project root is put on sys.path), in the project's virtual environment:

    python benchmarks/bench_cli.py            # full run (~2-3 minutes on 2 cores: most of it builds
                                              # and indexes the 10,000-game store once)
    python benchmarks/bench_cli.py --quick    # smoke run: 3 rounds, 500 games (< 30 s)

1. Start-up, median of 10 rounds, interleaved (each round runs every command once, in turn, so drift
   in the machine's speed hits all alike): `python -c pass` (the floor), `nightkeep --help`,
   `nightkeep show GAME` (a finished dungeon-short game), `sqlite-utils --help` when it is installed
   (a Click tool people like; skipped when not), `python -c "import click"`. Ratios to `python -c pass`
   are the median of each round's ratio. Targets (issue 12): --help <= 6x, show <= 10x.
2. `games` over a store of 10,000 games (one played game of each of six templates, every ruleset,
   finished and running, then row-for-row copies of them under new ids: each copy is a valid game that
   passes the audit). The store is built once in a temp dir and its index caught up once (both timed
   and printed, as is the first listing that works out who is to act in the 5,000 running games);
   then, interleaved as above: `games` (its table shows the 20 most recent by default), `games --all`
   (every row), `games --json`. Targets: each <= 1 s wall, and the tables <= 2x `games --json`.

Each command runs as its own process with stdout to /dev/null; time.perf_counter around
subprocess.run. PYTHONDONTWRITEBYTECODE is dropped from the commands' environment, so the warm-up
round writes the bytecode an installed package has (else every run would compile nightkeep anew).
Output: a table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from event_store import lazy_log  # noqa: E402

lazy_log.defer_configuration(lambda: None, 30)  # building the stores logs nothing

from event_store.app.service import GameService, play_with_bots  # noqa: E402
from tests.store_clones import clone_games, new_ids, play_templates  # noqa: E402

PYTHON = sys.executable


def nightkeep() -> list[str]:
    """Returns the console script of this environment (else `python -m nightkeep`)."""
    script = Path(PYTHON).parent / "nightkeep"
    return [str(script)] if script.exists() else [PYTHON, "-m", "nightkeep"]


def wall(command: list[str], env: dict[str, str]) -> float:
    """Runs a command once and returns its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    return time.perf_counter() - start


def interleaved(commands: dict[str, list[str]], rounds: int, env: dict[str, str]) -> dict[str, list[float]]:
    """Times every command once per round, in turn, after one warm-up round."""
    for command in commands.values():
        wall(command, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            times[name].append(wall(command, env))
    return times


def ratio(times: dict[str, list[float]], name: str, base: str) -> float:
    """Returns the median of the per-round ratios of two commands' times."""
    return statistics.median(a / b for a, b in zip(times[name], times[base], strict=True))


def startup(rounds: int, folder: Path, env: dict[str, str]) -> dict[str, Any]:
    """Measures start-up against `python -c pass`; returns medians and ratios."""
    db = str(folder / "show.sqlite")
    service = GameService.open(db)
    game = service.create_game("dungeon-short", [("Ann", None), ("Bo", None), ("Cy", None)])
    play_with_bots(service, game, seed=1)
    commands = {
        "python -c pass": [PYTHON, "-c", "pass"],
        "nightkeep --help": [*nightkeep(), "--help"],
        "nightkeep show GAME": [*nightkeep(), "--db", db, "show", str(game)],
        'python -c "import click"': [PYTHON, "-c", "import click"],
    }
    sqlite_utils = shutil.which("sqlite-utils", path=f"{Path(PYTHON).parent}{os.pathsep}{env['PATH']}")
    if sqlite_utils:
        commands["sqlite-utils --help"] = [sqlite_utils, "--help"]
    times = interleaved(commands, rounds, env)
    return {
        "skipped": [] if sqlite_utils else ["sqlite-utils --help (not installed)"],
        "median_s": {name: statistics.median(t) for name, t in times.items()},
        "ratio_to_python": {name: ratio(times, name, "python -c pass") for name in commands},
    }


def build_store(folder: Path, games: int) -> tuple[str, dict[str, float]]:
    """Builds the many-games store and catches its index up; returns it and how long that took."""
    db = str(folder / "games.sqlite")
    start = time.perf_counter()
    service = GameService.open(db)
    templates = play_templates(service)
    clone_games(db, templates, new_ids(games - len(templates)))
    built = time.perf_counter() - start
    from projections.game_index import GameIndex

    start = time.perf_counter()
    index = GameIndex(service)
    index.catch_up()
    caught_up = time.perf_counter() - start
    start = time.perf_counter()
    index.find_who_acts(index.games())
    return db, {
        "build_s": built,
        "index_catch_up_s": caught_up,
        "first_who_acts_s": time.perf_counter() - start,
    }


def listing(rounds: int, db: str, games: int, env: dict[str, str]) -> dict[str, Any]:
    """Measures `games` over the store, with and without the terminal's default limit, and `--json`."""
    base = [*nightkeep(), "--db", db, "games"]
    commands = {"games (20 most recent)": base, "games --all": [*base, "--all"]}
    commands["games --json"] = [*base, "--json"]
    times = interleaved(commands, rounds, env)
    return {
        "games": games,
        "median_s": {name: statistics.median(t) for name, t in times.items()},
        "ratio_to_json": {name: ratio(times, name, "games --json") for name in commands},
    }


def main() -> None:
    """Runs both benchmarks and prints their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds and 500 games: a smoke run")
    args = parser.parse_args()
    rounds, games = (3, 500) if args.quick else (10, 10_000)
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("NIGHTKEEP_DB", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="nightkeep-bench-") as tmp:
        folder = Path(tmp)
        started = startup(rounds, folder, env)
        db, built = build_store(folder, games)
        listed = listing(rounds, db, games, env)
    print(f"start-up, median of {rounds} interleaved rounds")
    for name, seconds in started["median_s"].items():
        print(
            f"  {name:<28} {seconds * 1000:8.1f} ms  {started['ratio_to_python'][name]:6.2f}x python -c pass"
        )
    for skipped in started["skipped"]:
        print(f"  skipped: {skipped}")
    print(f"games over {games:,} games, median of {rounds} interleaved rounds")
    print(
        f"  store built in {built['build_s']:.1f} s, index caught up in {built['index_catch_up_s']:.1f} s,"
        f" who is to act first worked out in {built['first_who_acts_s']:.1f} s (once)"
    )
    for name, seconds in listed["median_s"].items():
        print(f"  {name:<28} {seconds * 1000:8.1f} ms  {listed['ratio_to_json'][name]:6.2f}x games --json")
    print(json.dumps({"startup": started, "store": built, "listing": listed}))


if __name__ == "__main__":
    main()
