"""Bot games and audits of the `talisman` main board beside `dungeon-short`'s, in the same run.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_talisman.py          # full: 8 talisman and 80 dungeon-short games, best of 3
    python benchmarks/bench_talisman.py --quick  # smoke: 1 and 8 games, once

Per ruleset (3 bot players each; `talisman` with the house round cap for bot games, house rule H6.1, as
`simulate` plays it), timed in CPU time (time.process_time) with wall time beside (time.perf_counter),
the best rep of each, the two rulesets interleaved rep by rep so background load on a shared machine hits
both alike; every rate, the ratio and its verdict are CPU time (wall rates are in the JSON line):
1. bot games/s: seeded bot games played to their end in an in-memory store (`play_with_bots`: every
   action decided, chained and stored), and the events/s that makes;
2. audit events/s: `audit_replay` over each game's exported replay file (parse, chain, re-decide every
   action from the state before it, recompute every draw); each report must be `ok`.
The dice seeds are made repeatable while the games are made (the service asks the OS for them).

Target: the audit of main-board games keeps at least 0.8x the per-event audit speed of `dungeon-short`.
Audit actions/s are shown beside it: a main-board turn is two actions (the roll, then where to go), so
it records fewer events an action than `dungeon-short`, whose roll moves at once.
Output: a table on stdout, then one JSON line with every figure (the ratio among them).
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import patch

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

from benchmarks.clocks import Spent, best, stopwatch  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

import event_store.app.service  # noqa: E402
from event_store.app.replay_file import audit_replay, export_game  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402
from simulation.bot_games import bot_game_options  # noqa: E402

RULESETS = ("talisman", "dungeon-short")
PLAYERS = [("Ann", None), ("Bo", None), ("Cy", None)]
TARGET_RATIO = 0.8
FULL = {"talisman": 8, "dungeon-short": 80, "reps": 3}
QUICK = {"talisman": 1, "dungeon-short": 8, "reps": 1}


def play_games(ruleset: str, games: int, seed: int) -> tuple[list[bytes], int]:
    """Plays `games` seeded bot games in memory; returns each as replay bytes, and the events made."""
    rng = random.Random(seed)
    service = GameService.open(":memory:")
    replays, events = [], 0
    with patch.object(event_store.app.service, "new_seed", lambda: rng.randbytes(32)):
        for n in range(games):
            game_id = service.create_game(ruleset, PLAYERS, bot_game_options(ruleset))
            play_with_bots(service, game_id, seed=seed + n)
            events += len(service.recorded_events(game_id))
            replays.append(export_game(service, game_id))
    service.close()
    return replays, events


def audit_all(replays: list[bytes]) -> tuple[int, int]:
    """Audits every file, refusing a failing audit; returns the events and the actions audited."""
    events = actions = 0
    for index, data in enumerate(replays):
        report = audit_replay(data, f"game {index}")
        if not report.ok:
            raise AssertionError(f"game {index} fails its audit: {report.findings[:3]}")
        events += report.events
        actions += report.actions
    return events, actions


def timed(times: list[Spent], fn: Callable[..., Any], *args: Any) -> Any:
    """Runs `fn(*args)` once after a full collection, appends its CPU and wall time to `times`; returns its
    result."""
    gc.collect()
    with stopwatch() as spent:
        result = fn(*args)
    times.append(spent)
    return result


def measure(sizes: dict[str, int], seed: int) -> dict[str, Any]:
    """Plays and audits each ruleset's games, interleaved, best of `reps`; returns the figures."""
    play_times: dict[str, list[Spent]] = {r: [] for r in RULESETS}
    audit_times: dict[str, list[Spent]] = {r: [] for r in RULESETS}
    made: dict[str, tuple[list[bytes], int]] = {}
    audited: dict[str, tuple[int, int]] = {}
    for _ in range(sizes["reps"]):
        for ruleset in RULESETS:
            made[ruleset] = timed(play_times[ruleset], play_games, ruleset, sizes[ruleset], seed)
            audited[ruleset] = timed(audit_times[ruleset], audit_all, made[ruleset][0])
    figures: dict[str, Any] = {}
    for ruleset in RULESETS:
        games, events = sizes[ruleset], made[ruleset][1]
        best_play, best_audit = best(play_times[ruleset]).cpu, best(audit_times[ruleset])
        figures[ruleset] = {
            "games": games,
            "events": events,
            "events_per_game": round(events / games),
            "bot_games_per_s": round(games / best_play, 2),
            "bot_events_per_s": round(events / best_play),
            "events_per_action": round(audited[ruleset][0] / audited[ruleset][1], 2),
            "audit_events_per_s": round(audited[ruleset][0] / best_audit.cpu),
            "audit_actions_per_s": round(audited[ruleset][1] / best_audit.cpu),
            "wall_audit_events_per_s": round(audited[ruleset][0] / best_audit.wall),
        }
    ratio = figures["talisman"]["audit_events_per_s"] / figures["dungeon-short"]["audit_events_per_s"]
    figures["audit_ratio"] = round(ratio, 3)
    wall = (
        figures["talisman"]["wall_audit_events_per_s"] / figures["dungeon-short"]["wall_audit_events_per_s"]
    )
    figures["wall_audit_ratio"] = round(wall, 3)
    figures["clock"] = "cpu"
    figures["target_ratio"] = TARGET_RATIO
    figures["meets_target"] = ratio >= TARGET_RATIO
    return figures


def report(figures: dict[str, Any]) -> None:
    """Prints the table, then the JSON line."""
    print(f"{'(rates in CPU time)':22}{'talisman':>14}{'dungeon-short':>16}")
    for key, label in (
        ("games", "games"),
        ("events_per_game", "events a game"),
        ("bot_games_per_s", "bot games/s"),
        ("bot_events_per_s", "bot events/s"),
        ("events_per_action", "events an action"),
        ("audit_events_per_s", "audit events/s"),
        ("audit_actions_per_s", "audit actions/s"),
    ):
        print(f"{label:22}{figures['talisman'][key]:>14}{figures['dungeon-short'][key]:>16}")
    verdict = "meets" if figures["meets_target"] else "MISSES"
    print(
        f"audit speed per event, talisman / dungeon-short, CPU: {figures['audit_ratio']:.2f} "
        f"({verdict} the target of {TARGET_RATIO}; wall: {figures['wall_audit_ratio']:.2f})"
    )
    print(json.dumps(figures, sort_keys=True))


def main() -> None:
    """Parses the options, measures, reports."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer games and reps")
    parser.add_argument("--seed", type=int, default=13, help="seed for the dice and the bots")
    args = parser.parse_args()
    report(measure(QUICK if args.quick else FULL, args.seed))


if __name__ == "__main__":
    main()
