"""`nightkeep show GAME` of a long game against a short one: whole processes, CPU time and peak memory.

Run from anywhere (the project root is put on sys.path), in the project's virtual environment:

    python benchmarks/bench_show.py            # a 100,000-event game against a ~174-event one
    python benchmarks/bench_show.py --quick    # a 5,000-event game: a smoke run
    python benchmarks/bench_show.py --events 20000 --rounds 3

Issue 28's row "`show` of a 100k-event game vs a 174-event one" (target: flat, <= 1.2x in CPU time).
Both games are `bench-marathon` games (benchmarks/marathon_ruleset.py) in one SQLite store, grown with
batched saves as bench_store.py grows them, so the two `show`s differ only in the game's length. A
`dungeon-short` game (~174 events, the game bench_cli.py shows) is shown too, for reference. The CLI runs
in its own process as `nightkeep show` would, through a launcher that first registers the benchmark-only
ruleset (`python -c "...register...; cli.main.main()"`); `python -c pass` is the floor.

Timed: each command's own CPU time (user + sys from os.wait4) and wall time, median of `--rounds`
interleaved rounds after one warm-up round (which also writes the bytecode), and its peak resident memory
(ru_maxrss, the largest of the rounds). The verdict is on CPU time: wall time swings with the machine's
load. Output: a table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from event_store import lazy_log  # noqa: E402

lazy_log.defer_configuration(lambda: None, 30)  # building the store logs nothing

from bench_store import build_batched  # noqa: E402  (registers bench-marathon here)

from benchmarks.clocks import Child, Spent, median, run_child  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402

PYTHON = sys.executable
TARGET = 1.2  # long game's show / short game's show, CPU time
SHORT_EVENTS = 174
# The launcher registers the benchmark-only ruleset, then runs the CLI as the console script does.
LAUNCHER = (
    "import sys; from domain import rulesets; "
    "rulesets.register(rulesets.RulesetEntry('bench-marathon', 'benchmarks.marathon_ruleset:Marathon')); "
    "from cli.main import main; sys.argv[0] = 'nightkeep'; main()"
)


def build(db: str, long_events: int) -> dict[str, str]:
    """Builds the store: a short and a long marathon game and a dungeon-short game; returns their ids."""
    service = GameService.open(db)
    games = {
        "short": str(build_batched(service, SHORT_EVENTS)),
        "long": str(build_batched(service, long_events)),
    }
    dungeon = service.create_game("dungeon-short", [("Ann", None), ("Bo", None), ("Cy", None)])
    play_with_bots(service, dungeon, seed=1)
    games["dungeon"] = str(dungeon)
    service.close()
    return games


def measure(commands: dict[str, list[str]], rounds: int, env: dict[str, str]) -> dict[str, list[Child]]:
    """Runs every command once per round, in turn, after a warm-up round; refuses a failing command."""
    runs: dict[str, list[Child]] = {name: [] for name in commands}
    for index in range(rounds + 1):
        for name, command in commands.items():
            child = run_child(command, env=env)
            if child.returncode:
                raise SystemExit(f"{name} failed with exit {child.returncode}: {' '.join(command)}")
            if index:
                runs[name].append(child)
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a 5,000-event game, 2 rounds: a smoke run")
    parser.add_argument("--events", type=int, help="events of the long game (default 100,000)")
    parser.add_argument("--rounds", type=int, help="timed rounds (default 5)")
    args = parser.parse_args(argv)
    long_events = args.events or (5_000 if args.quick else 100_000)
    rounds = args.rounds or (2 if args.quick else 5)
    if long_events <= SHORT_EVENTS or rounds < 1:
        parser.error(f"--events must be above {SHORT_EVENTS} and --rounds at least 1")
    env = {
        **os.environ,
        "NO_COLOR": "1",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.pop("NIGHTKEEP_DB", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cpu, started = time.process_time(), time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="nightkeep-bench-show-") as tmp:
        db = str(Path(tmp) / "show.sqlite")
        games = build(db, long_events)
        built = time.perf_counter() - started
        show = [PYTHON, "-c", LAUNCHER, "--db", db, "show"]
        commands = {
            "python -c pass": [PYTHON, "-c", "pass"],
            f"show, marathon {SHORT_EVENTS} events": [*show, games["short"]],
            f"show, marathon {long_events:,} events": [*show, games["long"]],
            "show, dungeon-short (reference)": [*show, games["dungeon"]],
        }
        runs = measure(commands, rounds, env)
    spent: dict[str, Spent] = {name: median([c.spent for c in r]) for name, r in runs.items()}
    peak = {name: max(c.maxrss_mib for c in r) for name, r in runs.items()}
    short, long_ = f"show, marathon {SHORT_EVENTS} events", f"show, marathon {long_events:,} events"
    ratio = spent[long_].ratio(spent[short])
    verdict = "PASS" if ratio.cpu <= TARGET else "FAIL"
    print(f"nightkeep show benchmark; store built in {built:.1f} s; median of {rounds} interleaved rounds")
    print(f"{'command':<40} {'CPU ms':>9} {'wall ms':>9} {'peak MiB':>9}")
    for name in commands:
        print(f"{name:<40} {spent[name].cpu * 1000:9.1f} {spent[name].wall * 1000:9.1f} {peak[name]:9.1f}")
    print(
        f"long / short show: {ratio.cpu:.2f}x CPU ({ratio.wall:.2f}x wall), peak memory "
        f"{peak[long_]:.0f} / {peak[short]:.0f} MiB  (target <= {TARGET}x CPU: {verdict})"
    )
    figures: dict[str, Any] = {
        "long_events": long_events,
        "short_events": SHORT_EVENTS,
        "rounds": rounds,
        "cpu_ms": {name: round(s.cpu * 1000, 1) for name, s in spent.items()},
        "wall_ms": {name: round(s.wall * 1000, 1) for name, s in spent.items()},
        "maxrss_mib": {name: round(m, 1) for name, m in peak.items()},
        "long_over_short_cpu": round(ratio.cpu, 3),
        "long_over_short_wall": round(ratio.wall, 3),
        "verdict": verdict,
        "cpu_s": round(time.process_time() - cpu, 1),
        "wall_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
