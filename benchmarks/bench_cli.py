"""Start-up and `games` benchmarks: whole commands as a user runs them, timed side by side.

Run from anywhere (the project root is put on sys.path), in the project's virtual environment:

    python benchmarks/bench_cli.py            # full run (~2-3 minutes on 2 cores: most of it builds
                                              # and indexes the 10,000-game store once)
    python benchmarks/bench_cli.py --quick    # smoke run: 2 rounds, 100 games

1. Start-up, median of 10 rounds, interleaved (each round runs every command once, in turn, so drift
   in the machine's speed hits all alike): `python -c pass` (the floor), `nightkeep --help`,
   `nightkeep show GAME` (a finished dungeon-short game), `sqlite-utils --help` when it is installed
   (a Click tool people like; skipped when not), `python -c "import click"`. Ratios to `python -c pass`
   are the median of each round's ratio. Targets (issue 12, issue 28's table): --help <= 6x, show <= 10x.
2. `games` over a store of 10,000 games (one played game of each of six templates, every ruleset,
   finished and running, then row-for-row copies of them under new ids: each copy is a valid game that
   passes the audit). The store is built once in a temp dir and its index caught up once (both timed
   and printed, as is the first listing that works out who is to act in the 5,000 running games);
   then, interleaved as above: `games` (its table shows the 20 most recent by default), `games --all`
   (every row), `games --json`. Targets: each <= 1 s, and the tables <= 2x `games --json`.

Each command runs as its own process with stdout to /dev/null, started by a small spawner that reports
the command's own CPU time (user + sys, os.wait4) and wall time (benchmarks/clocks.py). Every target is
judged on CPU time, which holds on a loaded machine where wall time does not; wall is printed beside.
PYTHONDONTWRITEBYTECODE is dropped from the commands' environment, so the warm-up
round writes the bytecode an installed package has (else every run would compile nightkeep anew).
Output: a table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.clocks import Spent, run_child  # noqa: E402
from event_store import lazy_log  # noqa: E402

lazy_log.defer_configuration(lambda: None, 30)  # building the stores logs nothing

from event_store.app.service import GameService, play_with_bots  # noqa: E402
from tests.store_clones import clone_games, new_ids, play_templates  # noqa: E402

PYTHON = sys.executable
HELP_TARGET, SHOW_TARGET = 6.0, 10.0  # start-up over `python -c pass`, CPU time


def pass_fail(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def nightkeep() -> list[str]:
    """Returns the console script of this environment (else `python -m nightkeep`)."""
    script = Path(PYTHON).parent / "nightkeep"
    return [str(script)] if script.exists() else [PYTHON, "-m", "nightkeep"]


def spent(command: list[str], env: dict[str, str]) -> Spent:
    """Runs a command once and returns its CPU and wall time; refuses a failing command."""
    child = run_child(command, env=env)
    if child.returncode:
        raise SystemExit(f"exit {child.returncode}: {' '.join(command)}")
    return child.spent


def interleaved(commands: dict[str, list[str]], rounds: int, env: dict[str, str]) -> dict[str, list[Spent]]:
    """Times every command once per round, in turn, after one warm-up round."""
    for command in commands.values():
        spent(command, env)
    times: dict[str, list[Spent]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            times[name].append(spent(command, env))
    return times


def ratio(times: dict[str, list[Spent]], name: str, base: str, clock: str = "cpu") -> float:
    """Returns the median of the per-round ratios of two commands' times on one clock."""
    pairs = zip(times[name], times[base], strict=True)
    return statistics.median(getattr(a, clock) / getattr(b, clock) for a, b in pairs)


def medians(times: dict[str, list[Spent]], clock: str) -> dict[str, float]:
    """Returns each command's median time on one clock."""
    return {name: statistics.median(getattr(t, clock) for t in runs) for name, runs in times.items()}


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
        "median_cpu_s": medians(times, "cpu"),
        "median_s": medians(times, "wall"),
        "ratio_to_python": {name: ratio(times, name, "python -c pass") for name in commands},
        "wall_ratio_to_python": {name: ratio(times, name, "python -c pass", "wall") for name in commands},
    }


def build_store(folder: Path, games: int) -> tuple[str, dict[str, float]]:
    """Builds the many-games store (its clones copy their index rows) and builds its index again from the
    events, as a writer does once for a store made before the index; returns it and how long that took."""
    db = str(folder / "games.sqlite")
    start = time.perf_counter()
    service = GameService.open(db)
    templates = play_templates(service)
    clone_games(db, templates, new_ids(games - len(templates)))
    built = time.perf_counter() - start
    start = time.perf_counter()
    service.rebuild_game_index()
    return db, {"build_s": built, "index_rebuild_s": time.perf_counter() - start}


def listing(rounds: int, db: str, games: int, env: dict[str, str]) -> dict[str, Any]:
    """Measures `games` over the store, with and without the terminal's default limit, and `--json`."""
    base = [*nightkeep(), "--db", db, "games"]
    commands = {"games (20 most recent)": base, "games --all": [*base, "--all"]}
    commands["games --json"] = [*base, "--json"]
    times = interleaved(commands, rounds, env)
    return {
        "games": games,
        "median_cpu_s": medians(times, "cpu"),
        "median_s": medians(times, "wall"),
        "ratio_to_json": {name: ratio(times, name, "games --json") for name in commands},
        "wall_ratio_to_json": {name: ratio(times, name, "games --json", "wall") for name in commands},
    }


def main() -> None:
    """Runs both benchmarks and prints their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 rounds and 100 games: a smoke run")
    parser.add_argument("--rounds", type=int, default=0, help="timed rounds (default 10; 2 with --quick)")
    parser.add_argument(
        "--games", type=int, default=0, help="games listed (default 10,000; 100 with --quick)"
    )
    args = parser.parse_args()
    rounds, games = (2, 100) if args.quick else (10, 10_000)
    rounds, games = args.rounds or rounds, args.games or games
    if rounds < 1 or games < 10:
        parser.error("--rounds must be at least 1 and --games at least 10")
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("NIGHTKEEP_DB", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="nightkeep-bench-") as tmp:
        folder = Path(tmp)
        started = startup(rounds, folder, env)
        db, built = build_store(folder, games)
        listed = listing(rounds, db, games, env)
    print(f"start-up, median of {rounds} interleaved rounds (ratios: median of each round's ratio)")
    print(f"  {'command':<28} {'CPU ms':>8} {'wall ms':>8}  {'CPU':>6} {'wall':>6}  x python -c pass")
    for name, seconds in started["median_cpu_s"].items():
        print(
            f"  {name:<28} {seconds * 1000:8.1f} {started['median_s'][name] * 1000:8.1f}  "
            f"{started['ratio_to_python'][name]:5.2f}x {started['wall_ratio_to_python'][name]:5.2f}x"
        )
    for skipped in started["skipped"]:
        print(f"  skipped: {skipped}")
    verdicts = {
        "help": started["ratio_to_python"]["nightkeep --help"] <= HELP_TARGET,
        "show": started["ratio_to_python"]["nightkeep show GAME"] <= SHOW_TARGET,
    }
    print(
        f"  CPU targets: --help <= {HELP_TARGET:.0f}x {pass_fail(verdicts['help'])}, "
        f"show <= {SHOW_TARGET:.0f}x {pass_fail(verdicts['show'])}"
    )
    print(f"games over {games:,} games, median of {rounds} interleaved rounds")
    print(
        f"  store built in {built['build_s']:.1f} s, its index built again from the events in"
        f" {built['index_rebuild_s']:.1f} s (once; wall)"
    )
    print(f"  {'command':<28} {'CPU ms':>8} {'wall ms':>8}  {'CPU':>6} {'wall':>6}  x games --json")
    for name, seconds in listed["median_cpu_s"].items():
        print(
            f"  {name:<28} {seconds * 1000:8.1f} {listed['median_s'][name] * 1000:8.1f}  "
            f"{listed['ratio_to_json'][name]:5.2f}x {listed['wall_ratio_to_json'][name]:5.2f}x"
        )
    verdicts["listing_1s"] = max(listed["median_cpu_s"].values()) <= 1.0
    verdicts["tables_2x"] = max(listed["ratio_to_json"].values()) <= 2.0
    print(
        f"  CPU targets: each <= 1 s {pass_fail(verdicts['listing_1s'])}, "
        f"tables <= 2x --json {pass_fail(verdicts['tables_2x'])}"
    )
    figures = {"startup": started, "store": built, "listing": listed, "clock": "cpu"}
    figures["verdicts"] = {name: pass_fail(ok) for name, ok in verdicts.items()}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
