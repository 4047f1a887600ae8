"""Vampire Empire benchmarks: bot games/s, and what hidden information costs the audit and the views.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_castle.py            # 200 games (~20 s on 2 cores)
    python benchmarks/bench_castle.py --games 50
    python benchmarks/bench_castle.py --quick    # 10 games, once: a smoke run

One run measures (best of 3, in CPU time, time.process_time; each rate is also given per wall second,
time.perf_counter, under `wall_`: CPU time holds on a loaded machine, wall time does not):
1. bot games/s played with the decider alone (no store) and through GameService on SQLite;
2. audit events/s of the host's full log, and of the human player's and the public copy of the same
   finished games, which the audit re-decides from the revealed seed, checking every seal: the ratio
   to the full log is what sealing costs;
3. events/s folding a viewer's copy (redaction included) and boards/s rendering it.
Output: a small table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

from benchmarks.clocks import Spent, stopwatch  # noqa: E402
from domain.actions import HOST, START  # noqa: E402
from domain.audit import audit_log  # noqa: E402
from domain.bots import Bot  # noqa: E402
from domain.dice import HmacDice  # noqa: E402
from domain.events import GameCreated  # noqa: E402
from domain.game import NIGHTKEEP_VERSION  # noqa: E402
from domain.hidden import PUBLIC  # noqa: E402
from domain.rulesets.castle.empire import VampireEmpire  # noqa: E402
from event_store.app.replay_file import encode_replay, parse_replay  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402
from event_store.recorded import fold_recorded, redacted  # noqa: E402
from projections.views import render_board  # noqa: E402

empire = VampireEmpire()
SEATS = [("Hana", "human"), ("Vlad", "vampire")]


REPEAT = [3]  # runs of each timed pass; the best counts (1 with --quick)


def best(run: Callable[[], Any]) -> Spent:
    """Returns the best CPU time and the best wall time of REPEAT runs."""
    times = []
    for _ in range(REPEAT[0]):
        with stopwatch() as spent:
            run()
        times.append(spent)
    return Spent(min(t.cpu for t in times), min(t.wall for t in times))


def rate(figures: dict[str, float], name: str, count: float, spent: Spent) -> None:
    """Records `count` per CPU second under `name`, and per wall second under `wall_` + name."""
    figures[name] = count / spent.cpu
    figures[f"wall_{name}"] = count / spent.wall


def decider_games(count: int) -> None:
    """Plays `count` bot games with the decider alone."""
    created = GameCreated(
        ruleset=empire.name,
        players=[{"name": n, "character": s} for n, s in SEATS],
        options={},
        content_hash=empire.content_hash(),
        scripted=False,
        dice_script=[],
        nightkeep_version=NIGHTKEEP_VERSION,
    )
    for index in range(count):
        state = empire.initial_state(created)
        dice, bot = HmacDice(hashlib.sha256(f"bench-{index}".encode()).digest()), Bot(index)
        player, action = HOST, START
        while True:
            empire.decide_in_place(state, action, player, dice)
            if empire.status(state)["status"] == "finished":
                break
            choice = bot.choose(empire, state, empire.legal_actions(state))
            player, action = choice.player, choice.id


def stored_games(count: int) -> tuple[GameService, list[Any]]:
    """Plays `count` bot games through the service on a fresh SQLite file."""
    folder = tempfile.mkdtemp(prefix="nightkeep-bench-")
    service = GameService.open(str(Path(folder) / "games.sqlite"))
    ids = []
    for index in range(count):
        game_id = service.create_game(empire.name, SEATS, {}, None, [], False)
        play_with_bots(service, game_id, seed=index)
        ids.append(game_id)
    return service, ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=0, help="bot games (default 200; 10 with --quick)")
    parser.add_argument("--quick", action="store_true", help="10 games, each pass once: a smoke run")
    args = parser.parse_args()
    args.games = args.games or (10 if args.quick else 200)
    REPEAT[0] = 1 if args.quick else 3
    logging.disable(logging.WARNING)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

    figures: dict[str, float] = {}
    rate(figures, "decider_games_per_s", args.games, best(lambda: decider_games(args.games)))
    stored = max(2 if args.quick else 10, args.games // 10)
    with stopwatch() as spent:
        service, ids = stored_games(stored)
    rate(figures, "sqlite_games_per_s", stored, spent)

    host_logs = [service.verified_events(game_id) for game_id in ids]
    for viewer in (HOST, "Hana", PUBLIC):
        entries = [
            parse_replay(encode_replay(str(g), redacted(log, viewer), viewer))[1]
            for g, log in zip(ids, host_logs, strict=True)
        ]
        events = sum(len(e) for e in entries)

        def audit_all(entries: list[Any] = entries, viewer: str = viewer) -> None:
            for game in entries:
                report = audit_log(game)
                assert report.ok and not report.partial, (viewer, report.findings)

        rate(figures, f"audit_ev_per_s_{viewer or 'public'}", events, best(audit_all))
    figures["sealed_audit_ratio_public_to_host"] = (
        figures["audit_ev_per_s_public"] / figures["audit_ev_per_s_host"]
    )

    events = sum(len(log) for log in host_logs)
    folded = best(lambda: [fold_recorded(redacted(log, "Hana")) for log in host_logs])
    rate(figures, "fold_ev_per_s_hana", events, folded)
    folds = [fold_recorded(redacted(log, "Hana")) for log in host_logs]
    drawn = best(lambda: [render_board(empire.name, f.state) for f in folds for _ in range(20)])
    rate(figures, "boards_per_s", len(folds) * 20, drawn)
    figures["mean_events_per_game"] = events / len(host_logs)

    print(f"{'rates per second of':40} {'CPU':>12} {'wall':>12}")
    for name, value in figures.items():
        if not name.startswith("wall_"):
            wall = figures.get(f"wall_{name}")
            print(f"{name:40} {value:12,.2f} {'' if wall is None else f'{wall:12,.2f}'}")
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
