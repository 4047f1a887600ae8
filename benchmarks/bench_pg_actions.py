"""A bot game on PostgreSQL against the same game on SQLite (issue 28, item 4: >= 0.7x), and the round
trips each action makes.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_pg_actions.py            # 12 games x 5 reps (about a minute on 2 cores)
    python benchmarks/bench_pg_actions.py --quick    # 2 games x 1 rep (a few seconds)
    python benchmarks/bench_pg_actions.py --durable  # on a server with the package's durable defaults

Seeded `dungeon-short` games of 3 bots are played as `simulation.bot_games` plays them (`play_with_bots`,
each action a `GameService` command of its own), in one GameService per store, on a
SQLite file and on a schema of a PostgreSQL server started here (as the tests start theirs: durability
off, unless `--durable`) or given by `--pg-url`. Each rep plays the same games on both stores, one after
the other. Figures per store: actions/s of wall time, the client's CPU (time.process_time) and the
server's (user+sys of the cluster's processes, read from /proc; only for a server started here). The
target is judged on CPU: actions per CPU second on PostgreSQL (client and server together) against
SQLite's (all in the client), >= 0.7, the median of the reps' ratios; the wall-time ratio is shown
beside it.

Round trips are counted on one more game, traced (libpq's trace; `tests/pg_round_trips.py`): per bot
action (everything `play_with_bots` asks the store for one), a count, not a time.

Output: a table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import structlog  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))

from event_store.app.service import GameService, play_with_bots  # noqa: E402
from simulation.bot_games import BotGames  # noqa: E402

FULL = {"games": 12, "reps": 5}
QUICK = {"games": 2, "reps": 1}
RULESET, PLAYERS, SEED = "dungeon-short", 3, "bench-pg"
TARGET = 0.7


@dataclass
class Run:
    """One store's figures over one rep's games."""

    actions: int
    wall_s: float
    client_cpu_s: float
    server_cpu_s: float | None  # None: a server not started here

    @property
    def cpu_s(self) -> float:
        return self.client_cpu_s + (self.server_cpu_s or 0.0)


@dataclass
class Server:
    """Where PostgreSQL stores go, and how to read its processes' CPU time (None: not ours)."""

    url: Callable[[str], str]  # schema -> store URL
    cpu: Callable[[], float] | None


def cluster_cpu(data: Path) -> Callable[[], float]:
    """Returns a reader of the user+sys seconds of a cluster's postmaster and its children."""
    tick = os.sysconf("SC_CLK_TCK")

    def read() -> float:
        postmaster = (data / "postmaster.pid").read_text().split()[0]
        children = subprocess.run(["pgrep", "-P", postmaster], capture_output=True, text=True).stdout
        total = 0.0
        for pid in [postmaster, *children.split()]:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue  # a process that ended meanwhile
            total += (int(fields[11]) + int(fields[12])) / tick
        return total

    return read


@contextmanager
def pg_server(durable: bool, given_url: str) -> Iterator[Server]:
    """Starts a server for the run (as the tests do, or with durable defaults) or uses a given one."""
    if given_url:
        from load_server import given_server

        with given_server(given_url) as given:
            yield Server(lambda schema: given.database_url(given.database(), schema), None)
        return
    if durable:
        from load_server import durable_server

        with durable_server() as server:
            assert server.data is not None
            url = partial(server.database_url, server.database())
            yield Server(url, cluster_cpu(server.data))
        return
    from tests.pg_server import start_server

    test_server, folder, stop = start_server()
    try:
        yield Server(lambda schema: test_server.url(schema=schema), cluster_cpu(folder / "data"))
    finally:
        subprocess.run(stop, capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)


def play(db: str, games: BotGames, server_cpu: Callable[[], float] | None) -> Run:
    """Creates and plays a simulation's games to their end in one service; returns the figures (game
    creation included: it is one save like an action's)."""
    service = GameService(db)
    actions = 0
    try:
        server_before = server_cpu() if server_cpu else 0.0
        wall, cpu = time.perf_counter(), time.process_time()
        for index in range(games.games):
            actions += play_with_bots(service, games.create(service, index), games.bot_seed(index))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        server = server_cpu() - server_before if server_cpu else None
    finally:
        service.close()
    return Run(actions, wall, cpu, server)


def count_round_trips(db: str, games: BotGames) -> dict[str, Any]:
    """Plays one more game on PostgreSQL, traced; returns its round trips per bot action (everything
    `play_with_bots` does for one) and how many actions made how many."""
    from tests.pg_round_trips import RoundTrips

    service = GameService(db)
    # The command the bot loop calls once an action (take_action before play_with_bots had one of its own).
    name = "take_bot_action" if hasattr(service, "take_bot_action") else "take_action"
    per_action: list[int] = []
    command = getattr(service, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        result = command(*args, **kwargs)
        per_action.append(trips.taken())  # with what was read since the last action
        return result

    try:
        game_id = service.create_game(
            games.ruleset,
            games.seats,
            dict(games.options),
            game_id=games.game_id(games.games),
            seed=games.dice_seed(games.games),
        )
        with RoundTrips(service.recorder.datastore) as trips:
            setattr(service, name, counted)
            actions = play_with_bots(service, game_id, games.bot_seed(games.games))
            per_action[-1] += trips.taken()
    finally:
        service.close()
    return {
        "actions": actions,
        "per_bot_action": sum(per_action) / actions,
        "first_action": per_action[0],  # the game's first load: its snapshot, seed and copy row
        "later_actions": dict(sorted(Counter(per_action[1:]).items())),  # round trips -> actions
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 games, 1 rep (a smoke run)")
    parser.add_argument("--games", type=int, help="games per rep")
    parser.add_argument("--reps", type=int, help="reps (each plays the games on both stores)")
    parser.add_argument("--durable", action="store_true", help="a server with fsync etc. on")
    parser.add_argument("--pg-url", default="", help="a server of your own (no server CPU then)")
    args = parser.parse_args()
    sizes = dict(QUICK if args.quick else FULL)
    sizes.update({k: v for k, v in (("games", args.games), ("reps", args.reps)) if v})
    folder = Path(tempfile.mkdtemp(prefix="bench-pg-actions-"))
    figures: dict[str, list[Run]] = {"sqlite": [], "postgresql": []}
    try:
        with pg_server(args.durable, args.pg_url) as server:
            for rep in range(sizes["reps"]):
                games = BotGames.of(RULESET, sizes["games"], seed=SEED, players=PLAYERS)
                figures["sqlite"].append(play(str(folder / f"rep{rep}.sqlite"), games, None))
                stamp = f"bench_pg_{os.getpid()}_{rep}"
                figures["postgresql"].append(play(server.url(stamp), games, server.cpu))
            trips = count_round_trips(server.url(f"bench_pg_{os.getpid()}_trips"), games)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    report(figures, trips, sizes, args)


def per_act(run: Run, seconds: str) -> float:
    """Returns a run's seconds of one kind (wall_s, cpu_s) per action."""
    spent: float = getattr(run, seconds)
    return spent / run.actions


def median(runs: list[Run], per: Callable[[Run], float]) -> float:
    return statistics.median(per(run) for run in runs)


def report(figures: dict[str, list[Run]], trips: dict[str, float], sizes: dict[str, int], args: Any) -> None:
    """Prints the table and the JSON line."""
    out: dict[str, Any] = {"sizes": sizes, "durable": args.durable, "given_server": bool(args.pg_url)}
    print(f"{RULESET}, {PLAYERS} bots, {sizes['games']} games x {sizes['reps']} reps (medians)")
    print(f"{'store':<12}{'actions':>9}{'wall act/s':>12}{'client CPU ms/act':>19}{'server CPU ms/act':>19}")
    for store, runs in figures.items():
        wall = median(runs, lambda r: r.actions / r.wall_s)
        client = median(runs, lambda r: 1000 * r.client_cpu_s / r.actions)
        server = median(runs, lambda r: 1000 * (r.server_cpu_s or 0) / r.actions)
        shown = "-" if runs[0].server_cpu_s is None else f"{server:.3f}"
        print(f"{store:<12}{runs[0].actions:>9}{wall:>12.0f}{client:>19.3f}{shown:>19}")
        out[store] = {"runs": [asdict(r) for r in runs], "wall_actions_s": wall, "client_cpu_ms": client}
    # Each rep's two stores ran one after the other: their ratio is taken rep by rep, so a change of the
    # machine's load between reps moves both sides of it.
    pairs = list(zip(figures["postgresql"], figures["sqlite"], strict=True))
    wall_ratio = statistics.median(per_act(lite, "wall_s") / per_act(pg, "wall_s") for pg, lite in pairs)
    cpu_ratio = statistics.median(per_act(lite, "cpu_s") / per_act(pg, "cpu_s") for pg, lite in pairs)
    verdict = "PASS" if cpu_ratio >= TARGET else "FAIL"
    print(f"PostgreSQL/SQLite actions per CPU second (client+server): {cpu_ratio:.2f}x")
    print(f"  target >= {TARGET}: {verdict}")
    print(f"PostgreSQL/SQLite actions per wall second: {wall_ratio:.2f}x  (for information: load swings it)")
    print(
        f"round trips: {trips['per_bot_action']:.2f} per bot action ({trips['actions']} actions traced; "
        f"the first {trips['first_action']}, later ones: {trips['later_actions']} as round trips: actions)"
    )
    out.update({"cpu_ratio": cpu_ratio, "wall_ratio": wall_ratio, "target": TARGET, "round_trips": trips})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
