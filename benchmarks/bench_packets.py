"""Play-by-e-mail packet cost: the host's and the players' replicas' cost per packet against the same
action taken locally, in CPU time (wall time beside it), all in one run.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_packets.py             # full run (~2 minutes of CPU on 2 cores)
    python benchmarks/bench_packets.py --quick     # smoke run (a few seconds)
    python benchmarks/bench_packets.py --profile   # also cProfile the replicas' receives of one game

Every game is played as tests/pbem_table.py plays it: a host store and one replica store per signing
player, each a SQLite file in a fresh temp dir, with every key in one key folder (NIGHTKEEP_KEYS points
at it). The player to act reads their mail, a seeded `domain.bots.Bot` picks among the actions their
replica shows, the replica writes a signed action packet, the host takes it and writes what it owes
into the outbox, and the outbox is carried to the seats by hand. The games repeat run after run: the
dice seed (`new_seed`), the players' nonces and the host's mail secret come from seeded generators.

Each call is timed in this process's CPU time (time.process_time) and wall time (time.perf_counter);
set-up, invitations, joins, the bot's choice and carrying the mail are not timed. Every verdict and
every ratio printed first is CPU time: everything runs in this process on SQLite, so CPU time is the
work, and it holds on a loaded machine where wall time does not (wall ratios are printed beside).
1. host: `Host.handle_text(action packet)` (read the armour, check the Ed25519 signature, the chain
   and that the packet is new, take the action through the game) plus `Host.follow()` (write the
   signed, redacted event packet every seat is owed into the outbox);
2. replica: `Replica.receive(event packet)` for every packet every seat gets (check the host's
   signature, the overlap with the chain held, audit the new events, store them);
3. local, the baseline of every ratio: the same actions (same player, action and nonce, on a game with
   the same seed, so the same dice) taken with `GameService.take_action` on a plain SQLite store: no
   packets, no keys, no outbox. It runs interleaved with the host, action by action.

Scenarios:
- `dungeon-short` with 3 signing players (several games a run) and `vampire-empire` with 2: whole
  games; each run is repeated, the median run counts.
- the ladder (issue 28's rows): one `bench-marathon` game (benchmarks/marathon_ruleset.py, registered
  here) with 2 signing players, measured in windows of a few actions at ~100, ~1,000 and ~5,000 events
  held. Between windows the game is carried on fast and untimed: the players sign action packets from
  the host's copy (the same packet a replica makes, signed with the seat's key) and the host takes them;
  at the next window every replica catches up with one packet, then the window is played in full.
  Rows: replica `receive` per packet over one local `take_action` at each rung (target <= 3x at ~5,000
  events, and flat), and the host per packet at ~1,000 events over at ~100 (target <= 1.2x; the local
  action's own late/early ratio is printed beside).
Output: tables on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import logging
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

import event_store.app.service  # noqa: E402
import event_store.pbem.hosting  # noqa: E402
import event_store.pbem.replica  # noqa: E402
from benchmarks.clocks import Spent, stopwatch, total  # noqa: E402
from domain import rulesets  # noqa: E402
from domain.bots import Bot  # noqa: E402
from event_store.app.replay_file import export_game  # noqa: E402
from event_store.app.service import GameService  # noqa: E402
from event_store.pbem.hosting import Host  # noqa: E402
from event_store.pbem.keys import KeyPair, new_key  # noqa: E402
from event_store.pbem.packets import make_packet, read_packets  # noqa: E402
from tests.pbem_table import Table  # noqa: E402

rulesets.register(rulesets.RulesetEntry("bench-marathon", "benchmarks.marathon_ruleset:Marathon"))

Scenario = tuple[str, list[tuple[str, str | None]]]  # ruleset, seats (name, character)

DUNGEON: Scenario = ("dungeon-short", [("Ann", None), ("Bo", None), ("Cy", None)])
CASTLE: Scenario = ("vampire-empire", [("Ann", "human"), ("Vlad", "vampire")])
MARATHON: Scenario = ("bench-marathon", [("Ann", None), ("Bo", None)])
REPLICA_TARGET = 3.0  # replica receive per packet / local action at ~5,000 events (issue 28)
HOST_TARGET = 1.2  # host per packet late in a ~1,000-event game / early

FULL = {"reps": 3, "dungeon_games": 3, "castle_games": 1, "rungs": (100, 1000, 5000), "window": 10}
QUICK = {"reps": 1, "dungeon_games": 1, "castle_games": 0, "rungs": (60, 200), "window": 3}


# --- one game through packets ------------------------------------------------------------------------------


@dataclass
class Played:
    """What one or more games (or one window of a game) through packets cost, call by call."""

    host: list[Spent] = field(default_factory=list)  # handle_text + follow, per action packet
    local: list[Spent] = field(default_factory=list)  # GameService.take_action, per action
    sign: list[Spent] = field(default_factory=list)  # Replica.action_packet, per action (info)
    # Replica.receive, per event packet: (events held before, cost, events appended)
    receives: list[tuple[int, Spent, int]] = field(default_factory=list)
    host_at: list[int] = field(default_factory=list)  # events on the host before each action
    events: int = 0  # events of the host's games at the end

    def extend(self, other: Played) -> None:
        self.host += other.host
        self.local += other.local
        self.sign += other.sign
        self.receives += other.receives
        self.host_at += other.host_at
        self.events += other.events

    def received(self) -> Spent:
        return total([spent for _, spent, _ in self.receives])


@contextmanager
def repeatable(seed: int) -> Iterator[bytes]:
    """Makes the games' dice seed, the players' nonces and the host's mail secret repeat run after run;
    yields the dice seed, which every game created inside gets (the host's and the local one)."""
    rng = random.Random(seed)
    dice_seed = rng.randbytes(32)
    seeded = SimpleNamespace(token_bytes=lambda n=32: rng.randbytes(n))
    with (
        patch.object(event_store.app.service, "new_seed", lambda: dice_seed),
        patch.object(event_store.pbem.replica.Replica, "_own_randomness", lambda *_: rng.randbytes(32)),
        patch.object(event_store.pbem.hosting, "secrets", seeded),
    ):
        yield dice_seed


def seat(tmp: Path, ruleset: str, players: list[tuple[str, str | None]]) -> tuple[Table, dict[str, KeyPair]]:
    """Sets up keys and a hosted game as tests/pbem_table.seat_table does, then lets every seat join;
    returns the table and the players' keys."""
    os.environ["NIGHTKEEP_KEYS"] = str(tmp / "keys")
    host_key = new_key("host")
    keys = {name: new_key(name.lower()) for name, _ in players}
    host = Host(GameService(str(tmp / "host.sqlite")), host_key)
    game = host.create(
        ruleset,
        players,
        {name: pair.public for name, pair in keys.items()},
        {name: f"{name.lower()}@example.org" for name, _ in players},
        "host@example.org",
    )
    table = Table(tmp, host, game, lambda name: str(tmp / f"{name.lower()}.sqlite"))
    table.join_all()
    return table, keys


class Game:
    """One game through packets and the same game taken locally, played action by action."""

    def __init__(self, tmp: Path, scenario: Scenario, bot_seed: int) -> None:
        ruleset, players = scenario
        with repeatable(bot_seed):
            self.table, self.keys = seat(tmp, ruleset, players)
            self.local = GameService(str(tmp / "local.sqlite"))
            self.local_game = self.local.create_game(ruleset, players)
        self.host, self.game = self.table.host, self.table.game
        self.bot = Bot(bot_seed)
        self.nonces = random.Random(bot_seed + 2)  # for the packets signed from the host's copy
        self.out = Played()
        self.profiler: cProfile.Profile | None = None

    def read_mail(self, player: str) -> None:
        """The player's replica takes every packet waiting for them, each timed."""
        replica, _ = self.table.replicas[player]
        for text in self.table.mail.pop(player, []):
            if self.profiler is not None:
                self.profiler.enable()
            with stopwatch() as spent:
                (got,) = replica.receive(text)
            if self.profiler is not None:
                self.profiler.disable()
            self.out.receives.append((got.before, spent, got.after - got.before))

    def read_all_mail(self) -> None:
        for player in self.table.replicas:
            self.read_mail(player)

    def is_over(self) -> bool:
        return self.host.service.get_game(self.game).is_finished

    def act(self) -> None:
        """The player to act reads their mail and acts through their replica; host and local timed."""
        hosted = self.host.service.get_game(self.game)
        player = hosted.status["to_act"][0]
        self.read_mail(player)
        replica, member = self.table.replicas[player]
        choice = self.bot.choose(hosted.ruleset, hosted.state, replica.legal_actions(member))
        with stopwatch() as signed:
            packet = replica.action_packet(member, choice.id)
        self.out.sign.append(signed)
        self.out.host_at.append(hosted.version)
        with stopwatch() as hosting:
            handled = self.host.handle_text(packet)
            self.host.follow()
        self.out.host.append(hosting)
        assert handled[0].ok and not handled[0].duplicate, handled[0].detail
        self._take_locally(read_packets(packet)[0].body)
        self.table.deliver()  # nothing left to write: this only carries the mail

    def act_untimed(self) -> None:
        """Carries the game on one action fast: the player signs from the host's copy (no replica, no
        outbox); the same action is taken locally, untimed."""
        hosted = self.host.service.get_game(self.game)
        player = hosted.status["to_act"][0]
        actions = list(hosted.ruleset.legal_actions(hosted.state, player))
        choice = self.bot.choose(hosted.ruleset, hosted.state, actions)
        chains = self.host.service.chain_values(self.game)
        body = {
            "game": str(self.game),
            "player": player,
            "version": len(chains),
            "chain": chains[-1],
            "action": choice.id,
            "nonce": self.nonces.randbytes(32),
        }
        handled = self.host.handle_text(make_packet("action", body, self.keys[player].sign))
        assert handled[0].ok and not handled[0].duplicate, handled[0].detail
        self.local.take_action(self.local_game, player, body["action"], body["nonce"])

    def _take_locally(self, body: dict[str, Any]) -> None:
        with stopwatch() as local:
            self.local.take_action(self.local_game, body["player"], body["action"], body["nonce"])
        self.out.local.append(local)

    def catch_up(self) -> None:
        """Every replica takes what it lacks in one packet, untimed. The host took packets signed from its
        own copy, so it believes each seat holds what it signed at and would send only what follows; the
        packet is made by the host's own `event_packet` for the seat as it really stands."""
        recorded = self.host.service.verified_events(self.game)
        to_act = list(self.host.service.get_game(self.game).status.get("to_act", []))
        host_mail = self.host.host_mail(self.game)
        for player, (replica, member) in self.table.replicas.items():
            held = len(replica.service.chain_values(member.stored))
            stands = replace(self.host.seats(self.game)[player], acked=held, sent=held)
            replica.receive(self.host.event_packet(self.game, stands, recorded, to_act, host_mail))

    def finish(self, check: bool) -> None:
        """Checks the local game is the same game (else the ratio lies) and closes every store."""
        self.out.events = self.host.service.get_game(self.game).version
        assert self.local.fold(self.local_game).state == self.host.service.fold(self.game).state
        assert self.local.get_game(self.local_game).version == self.out.events
        if check:  # every replica holds exactly what the host would export for that seat
            for player, (replica, member) in self.table.replicas.items():
                assert export_game(replica.service, member.stored) == export_game(
                    self.host.service, self.game, player
                )
        self.table.close()
        self.local.close()


def play(
    tmp: Path,
    scenario: Scenario,
    bot_seed: int,
    profiler: cProfile.Profile | None = None,
    check: bool = False,
) -> Played:
    """Plays one whole game through packets (and the same actions locally), timing every call."""
    game = Game(tmp, scenario, bot_seed)
    game.profiler = profiler
    with repeatable(bot_seed + 1):  # nonces: the same in every run of this game
        while not game.is_over():
            game.act()
        game.read_all_mail()
    game.finish(check)
    return game.out


def run_games(root: Path, label: str, scenario: Scenario, games: int, **kw: Any) -> Played:
    """Plays `games` games of a scenario (bot seeds 1, 2, ...), each in its own fresh temp dir."""
    played = Played()
    if not games:
        return played
    for index in range(games):
        tmp = Path(tempfile.mkdtemp(prefix=f"{label}-{index}-", dir=root))
        played.extend(play(tmp, scenario, bot_seed=index + 1, **kw))
    gc.collect()
    return played


@dataclass
class Rung:
    """One window of the ladder: a few actions played in full at about `held` events."""

    held: int
    played: Played


def climb(root: Path, rungs: tuple[int, ...], window: int, seed: int = 1) -> list[Rung]:
    """Plays one long bench-marathon game, timed in a window of `window` actions at each rung."""
    game = Game(Path(tempfile.mkdtemp(prefix="ladder-", dir=root)), MARATHON, seed)
    out: list[Rung] = []
    with repeatable(seed + 1):
        for rung in rungs:
            while game.host.service.get_game(game.game).version < rung:
                game.act_untimed()
            game.catch_up()
            game.out = Played()
            held = game.host.service.get_game(game.game).version
            for _ in range(window):
                game.act()
            game.read_all_mail()
            out.append(Rung(held, game.out))
            gc.collect()
    game.finish(check=True)
    return out


# --- report -------------------------------------------------------------------------------------------------


def per(spent: list[Spent]) -> Spent:
    return total(spent) / len(spent)


def ms(spent: Spent) -> str:
    return f"{spent.cpu * 1000:8.2f} {spent.wall * 1000:8.2f}"


def ratio_of(part: Spent, base: Spent) -> str:
    r = part.ratio(base)
    return f"{r.cpu:6.1f}x {r.wall:6.1f}x"


def median_run(runs: list[Played], pick: Callable[[Played], Spent]) -> Spent:
    """Median over runs of one figure of each run, CPU and wall each their own median."""
    picked = [pick(r) for r in runs]
    return Spent(statistics.median(s.cpu for s in picked), statistics.median(s.wall for s in picked))


def report_scenario(name: str, seats: int, games: int, runs: list[Played], figures: dict[str, Any]) -> None:
    first = runs[0]
    actions, received = len(first.local), len(first.receives)
    played = f"{games} games, " if games > 1 else ""
    print(
        f"\n== {name}, {seats} signing players: {played}{actions} actions, {first.events} events a run "
        f"(median of {len(runs)} runs)"
    )
    print(f"{'per call':<46} {'calls':>6} {'CPU ms':>8} {'wall ms':>8} {'CPU':>7} {'wall':>7}")
    local = median_run(runs, lambda r: per(r.local))
    host = median_run(runs, lambda r: per(r.host))
    recv = median_run(runs, lambda r: r.received() / len(r.receives))
    sign = median_run(runs, lambda r: per(r.sign))
    for label, calls, spent in (
        ("local: GameService.take_action (baseline)", actions, local),
        ("host: handle_text + follow, per action packet", actions, host),
        ("replica: receive, per event packet", received, recv),
        ("(info) replica: action_packet, player signs", actions, sign),
    ):
        print(f"{label:<46} {calls:>6,} {ms(spent)} {ratio_of(spent, local)}")
    table = (host + recv * (received / actions)).ratio(local)
    print(
        f"whole table per action (host + every replica): {table.cpu:.1f}x local CPU ({table.wall:.1f}x wall)"
    )
    figures[name.replace("-", "_")] = {
        "actions": actions,
        "events": first.events,
        "event_packets": received,
        "reps": len(runs),
        "local_ms_cpu": round(local.cpu * 1000, 3),
        "host_ms_cpu": round(host.cpu * 1000, 3),
        "replica_ms_cpu": round(recv.cpu * 1000, 3),
        "host_ratio_cpu": round(host.ratio(local).cpu, 2),
        "replica_ratio_cpu": round(recv.ratio(local).cpu, 2),
        "host_ratio_wall": round(host.ratio(local).wall, 2),
        "replica_ratio_wall": round(recv.ratio(local).wall, 2),
        "table_ratio_cpu": round(table.cpu, 2),
    }


def report_ladder(rungs: list[Rung], window: int, figures: dict[str, Any]) -> None:
    """Issue 28's replica and host rows: per packet against one local action, rung by rung."""
    print(f"\n== bench-marathon ladder, 2 signing players: {window} actions played in full at each rung")
    print(
        f"{'events held':>11} {'side':<34} {'calls':>6} {'CPU ms':>8} {'wall ms':>8} "
        f"{'CPU':>7} {'wall':>7}  (ratio to local)"
    )
    out = []
    for rung in rungs:
        p = rung.played
        local, host, recv = per(p.local), per(p.host), p.received() / len(p.receives)
        for side, calls, spent in (
            ("local take_action", len(p.local), local),
            ("host handle_text + follow", len(p.host), host),
            ("replica receive", len(p.receives), recv),
        ):
            print(f"{rung.held:>11,} {side:<34} {calls:>6} {ms(spent)} {ratio_of(spent, local)}")
        out.append(
            {
                "held": rung.held,
                "local_ms_cpu": round(local.cpu * 1000, 3),
                "host_ms_cpu": round(host.cpu * 1000, 3),
                "replica_ms_cpu": round(recv.cpu * 1000, 3),
                "replica_ratio_cpu": round(recv.ratio(local).cpu, 2),
                "replica_ratio_wall": round(recv.ratio(local).wall, 2),
                "host_ratio_cpu": round(host.ratio(local).cpu, 2),
            }
        )
    ratios = " / ".join(f"{r['replica_ratio_cpu']:.1f}x" for r in out)
    held = " / ".join(f"{r['held']:,}" for r in out)
    last = out[-1]["replica_ratio_cpu"]
    verdict = "PASS" if last <= REPLICA_TARGET else "FAIL"
    print(
        f"replica receive per packet / local action, CPU, at {held} events: {ratios}"
        f"  (target <= {REPLICA_TARGET:.0f}x at the last rung: {verdict})"
    )
    early, late = rungs[0].played, rungs[min(1, len(rungs) - 1)].played
    host_growth = per(late.host).ratio(per(early.host))
    local_growth = per(late.local).ratio(per(early.local))
    host_verdict = "PASS" if host_growth.cpu <= HOST_TARGET else "FAIL"
    print(
        f"host per packet at {rungs[min(1, len(rungs) - 1)].held:,} events / at {rungs[0].held:,}: "
        f"{host_growth.cpu:.2f}x CPU ({host_growth.wall:.2f}x wall); local action {local_growth.cpu:.2f}x CPU"
        f"  (target <= {HOST_TARGET}x: {host_verdict})"
    )
    figures["ladder"] = {
        "window": window,
        "rungs": out,
        "replica_ratio_cpu_last": last,
        "replica_verdict": verdict,
        "host_late_over_early_cpu": round(host_growth.cpu, 2),
        "host_late_over_early_wall": round(host_growth.wall, 2),
        "local_late_over_early_cpu": round(local_growth.cpu, 2),
        "host_verdict": host_verdict,
    }


def profile_receives(root: Path, top: int) -> None:
    """cProfile of the replicas' receives only, over one vampire-empire game."""
    profiler = cProfile.Profile()
    run_games(root, "profile", CASTLE, 1, profiler=profiler)
    print(f"\n== cProfile of Replica.receive over one {CASTLE[0]} game (top {top}; profiling slows it down)")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


# --- main -------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run of each, a short ladder (a smoke run)")
    parser.add_argument("--reps", type=int, help="runs of the dungeon and castle scenarios (default 3)")
    parser.add_argument("--profile", action="store_true", help="also cProfile the replica receives")
    args = parser.parse_args(argv)
    cfg = dict(QUICK if args.quick else FULL)
    if args.reps is not None:
        if args.reps < 1:
            parser.error("--reps must be at least 1")
        cfg["reps"] = args.reps
    mode = "quick" if args.quick else "full"
    cpu, started = time.process_time(), time.perf_counter()
    print(f"nightkeep packet benchmark ({mode}); python {sys.version.split()[0]}; {os.cpu_count()} cpus")
    print("per call: CPU time (time.process_time) and wall time; verdicts on CPU")
    figures: dict[str, Any] = {"mode": mode, "python": sys.version.split()[0], "cpus": os.cpu_count()}
    figures["clock"] = "cpu"
    saved_keys = os.environ.get("NIGHTKEEP_KEYS")
    with tempfile.TemporaryDirectory(prefix="nightkeep-bench-packets-") as folder:
        root = Path(folder)
        if not args.quick:
            run_games(root, "warm-up", DUNGEON, 1)  # imports, content caches, SQLite
        dungeon: list[Played] = []
        castle: list[Played] = []
        for rep in range(cfg["reps"]):  # the two rulesets interleaved run by run
            dungeon.append(run_games(root, f"dungeon-{rep}", DUNGEON, cfg["dungeon_games"], check=rep == 0))
            castle.append(run_games(root, f"castle-{rep}", CASTLE, cfg["castle_games"], check=rep == 0))
        rungs = climb(root, cfg["rungs"], cfg["window"])
        for (name, players), games, runs in (
            (DUNGEON, cfg["dungeon_games"], dungeon),
            (CASTLE, cfg["castle_games"], castle),
        ):
            if games:
                report_scenario(name, len(players), games, runs, figures)
        report_ladder(rungs, cfg["window"], figures)
        if args.profile:
            profile_receives(root, 20)
    if saved_keys is None:
        os.environ.pop("NIGHTKEEP_KEYS", None)
    else:
        os.environ["NIGHTKEEP_KEYS"] = saved_keys
    figures["cpu_s"] = round(time.process_time() - cpu, 1)
    figures["wall_s"] = round(time.perf_counter() - started, 1)
    print(f"\ntotal {figures['cpu_s']} s CPU, {figures['wall_s']} s wall")
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
