"""The action load of bench_load.py: K bot games across M processes, each process its own GameService,
every `take_action` timed.

Each process creates its share of the K games, waits at a barrier with the others, then takes bot actions
round-robin over its games for a fixed time; a finished game is replaced by a new one. Only
`GameService.take_action` is timed (load from the cache and the store's check for newer events, the
rules, the save and its commit); the bot's choice and game creation are not.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import structlog

# Children are spawned: this runs in each of them before the service is imported.
structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))

from domain.bots import Bot  # noqa: E402
from event_store.app.service import GameService  # noqa: E402
from simulation.bot_games import bot_game_options, seats_for  # noqa: E402

SETUP_TIMEOUT_S = 300


@dataclass
class PlayJob:
    """What one process does: which store it writes to, how many games, for how long."""

    index: int
    db: str
    games: int
    seconds: float
    ruleset: str


@dataclass
class PlayResult:
    """What one process measured."""

    actions: int = 0
    events: int = 0  # stored by the timed actions and by the games created to replace finished ones
    games_created: int = 0
    seconds: float = 0.0
    cpu_s: float = 0.0  # this process's own CPU time while playing
    latencies: list[float] = field(default_factory=list)
    error: str = ""


class _Table:
    """A process's service and games, each game with its bot."""

    def __init__(self, job: PlayJob) -> None:
        self.job = job
        self.service = GameService(job.db)
        self.players = seats_for(job.ruleset)
        self.options = bot_game_options(job.ruleset)
        self.bots: dict[UUID, Bot] = {}

    def new_game(self) -> tuple[UUID, int]:
        """Creates a game; returns its id and the events it stored."""
        game_id = self.service.create_game(self.job.ruleset, self.players, self.options)
        self.bots[game_id] = Bot(f"{self.job.index}-{len(self.bots)}")
        return game_id, self.service.get_game(game_id).version

    def close(self) -> None:
        self.service.close()


def play(job: PlayJob, opening: Any, start: Any, results: Any) -> None:
    """Runs one process's share of the load and puts its PlayResult on the queue."""
    result = PlayResult()
    table = None
    try:
        # One process opens its store at a time: opening a PostgreSQL store runs the library's DDL
        # (CREATE OR REPLACE FUNCTION even when the store exists), and two at once can fail with
        # "tuple concurrently updated" (see the report); the benchmark measures play, not that.
        with opening:
            table = _Table(job)
        games = [table.new_game()[0] for _ in range(job.games)]
        start.wait(SETUP_TIMEOUT_S)
        _play_until(table, games, result, time.perf_counter() + job.seconds)
    except Exception as exc:  # noqa: BLE001  (reported by the parent, which must not hang)
        result.error = f"{type(exc).__name__}: {exc}"
        start.abort()
    finally:
        if table is not None:
            table.close()
    results.put(result)


def _play_until(table: _Table, games: list[UUID], result: PlayResult, deadline: float) -> None:
    began, cpu = time.perf_counter(), time.process_time()
    clock = time.perf_counter
    service = table.service
    while clock() < deadline:
        for slot, game_id in enumerate(games):
            bot = table.bots[game_id]
            game = service.get_game(game_id)  # the cached copy, brought up to date
            if game.is_finished:
                games[slot], stored = table.new_game()
                result.games_created += 1
                result.events += stored
                continue
            choice = bot.choose(game.ruleset, game.state, game.ruleset.legal_actions(game.state, None))
            t0 = clock()
            _, recorded = service.take_action(game_id, choice.player, choice.id)
            result.latencies.append(clock() - t0)
            result.actions += 1
            result.events += len(recorded)
    result.seconds = clock() - began
    result.cpu_s = time.process_time() - cpu


@dataclass
class LoadFigures:
    """One configuration's figures: the processes' sums and latency percentiles."""

    store: str
    processes: int
    games: int
    actions: int
    events: int
    seconds: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    client_cores: float  # the game processes' CPU time per second of the window
    machine_busy: float  # the whole machine's CPU use over the window (0-1; other users included)
    waits: dict[str, float] = field(default_factory=dict)  # PostgreSQL: see load_waits.py
    client_cpu_s: float = 0.0  # the game processes' CPU time over the window
    server_cpu_s: float | None = None  # PostgreSQL on this machine: its processes' CPU over the window

    @property
    def actions_s(self) -> float:
        return self.actions / self.seconds

    @property
    def events_s(self) -> float:
        return self.events / self.seconds


def run_load(
    store: str,
    db: str,
    processes: int,
    games: int,
    seconds: float,
    ruleset: str,
    during: Callable[[float], dict[str, float]] | None = None,
    server_cpu: Callable[[], float] | None = None,
) -> LoadFigures:
    """Runs K games across M spawned processes on the store `db`; returns the figures.
    `during(seconds)`, if given, runs in this process while they play (it samples the server);
    `server_cpu()`, if given, reads the server's processes' CPU seconds so far (before and after)."""
    # The store is made once, before the processes open it (one at a time: see play).
    GameService(db).close()
    context = multiprocessing.get_context("spawn")
    start, opening = context.Barrier(processes + 1), context.Lock()
    queue = context.Queue()
    shares = [games // processes + (1 if i < games % processes else 0) for i in range(processes)]
    workers = [
        context.Process(
            target=play, args=(PlayJob(i, db, shares[i], seconds, ruleset), opening, start, queue)
        )
        for i in range(processes)
    ]
    for worker in workers:
        worker.start()
    try:
        start.wait(SETUP_TIMEOUT_S)
    except threading.BrokenBarrierError:
        pass  # a worker failed: its result says why
    before = cpu_jiffies()
    server_before = server_cpu() if server_cpu is not None else 0.0
    waits = during(seconds) if during is not None else (time.sleep(seconds) or {})
    server_spent = server_cpu() - server_before if server_cpu is not None else None
    after = cpu_jiffies()
    results: list[PlayResult] = [queue.get(timeout=SETUP_TIMEOUT_S + seconds) for _ in workers]
    for worker in workers:
        worker.join()
    errors = [r.error for r in results if r.error]
    if errors:
        raise RuntimeError(f"{store}, {processes} processes: {errors[0]}")
    latencies = sorted(t for r in results for t in r.latencies)
    window = max(r.seconds for r in results)  # the processes start together at the barrier
    return LoadFigures(
        store=store,
        processes=processes,
        games=games,
        actions=sum(r.actions for r in results),
        events=sum(r.events for r in results),
        seconds=window,
        p50_ms=statistics.median(latencies) * 1000,
        p99_ms=percentile(latencies, 0.99) * 1000,
        max_ms=latencies[-1] * 1000,
        client_cores=sum(r.cpu_s for r in results) / window,
        machine_busy=(after[0] - before[0]) / max(1, after[1] - before[1]),
        waits=waits,
        client_cpu_s=sum(r.cpu_s for r in results),
        server_cpu_s=server_spent,
    )


def cpu_jiffies() -> tuple[int, int]:
    """Returns the machine's busy and total CPU time so far (Linux /proc/stat; zeros elsewhere)."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields[:8]) - idle, sum(fields[:8])


def percentile(ordered: list[float], fraction: float) -> float:
    """Returns the nearest-rank percentile of an ordered list."""
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]
