"""Play-by-e-mail packet throughput: packets/s verified and applied by the host and by the players'
replicas, against the same actions taken locally, all in one run.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_packets.py             # full run (~1.5 minutes on 2 cores)
    python benchmarks/bench_packets.py --quick     # smoke run (< 15 s)
    python benchmarks/bench_packets.py --profile   # also cProfile the replicas' receives of one game

Every game is played as tests/pbem_table.py plays it: a host store and one replica store per signing
player, each a SQLite file in a fresh temp dir, with every key in one key folder (NIGHTKEEP_KEYS points
at it). The player to act reads their mail, a seeded `domain.bots.Bot` picks among the actions their
replica shows, the replica writes a signed action packet, the host takes it and writes what it owes
into the outbox, and the outbox is carried to the seats by hand. The games repeat run after run: the
dice seed (`new_seed`), the players' nonces and the host's mail secret come from seeded generators.

Timed (time.perf_counter around each call; set-up, invitations, joins, the bot's choice and carrying
the mail are not timed):
1. host: `Host.handle_text(action packet)` (read the armour, check the Ed25519 signature, the chain
   and that the packet is new, take the action through the game, which checks it is legal) plus
   `Host.follow()` (write the signed, redacted event packet every seat is owed into the outbox);
2. replica: `Replica.receive(event packet)` for every packet every seat gets (check the host's
   signature, the overlap with the chain held, re-audit the whole copy with the new events through
   the one reader, store the new events). That re-audit makes a packet cost more the longer the game:
   the growth is shown by the number of events the replica held, and on a long `bench-marathon` game
   (benchmarks/marathon_ruleset.py, registered here) as actions 1-20 against actions 201-220;
3. local, the baseline of every ratio: the same actions (same player, action and nonce, on a game with
   the same seed, so the same dice) taken with `GameService.take_action` on a plain SQLite store: no
   packets, no keys, no outbox. It runs interleaved with the host, action by action, so background
   load on this noisy VM hits both alike.

Scenarios: `dungeon-short` with 3 signing players (several games a run), `vampire-empire` with 2, and
one `bench-marathon` game of 220 actions with 2 (the long game is the slow part of the run: its
receives alone take most of a minute). Each run is repeated; the median run counts, and the
ratio is the median of the run-by-run ratios (seconds per packet / seconds per local action).
Output: a table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import logging
import math
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
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
from domain import rulesets  # noqa: E402
from domain.bots import Bot  # noqa: E402
from event_store.app.replay_file import export_game  # noqa: E402
from event_store.app.service import GameService  # noqa: E402
from event_store.pbem.hosting import Host  # noqa: E402
from event_store.pbem.keys import new_key  # noqa: E402
from event_store.pbem.packets import read_packets  # noqa: E402
from tests.pbem_table import Table  # noqa: E402

rulesets.register(rulesets.RulesetEntry("bench-marathon", "benchmarks.marathon_ruleset:Marathon"))

Scenario = tuple[str, list[tuple[str, str | None]]]  # ruleset, seats (name, character)

DUNGEON: Scenario = ("dungeon-short", [("Ann", None), ("Bo", None), ("Cy", None)])
CASTLE: Scenario = ("vampire-empire", [("Ann", "human"), ("Vlad", "vampire")])
MARATHON: Scenario = ("bench-marathon", [("Ann", None), ("Bo", None)])
EARLY = (1, 20)  # marathon windows, by the action whose event packets they are
LATE = (201, 220)

FULL = {"reps": 3, "dungeon_games": 3, "castle_games": 1, "marathon_actions": 220, "marathon_reps": 1}
QUICK = {"reps": 1, "dungeon_games": 1, "castle_games": 1, "marathon_actions": 40, "marathon_reps": 1}


# --- one game through packets ------------------------------------------------------------------------------


@dataclass
class Played:
    """What one or more games through packets cost, call by call."""

    host: list[float] = field(default_factory=list)  # handle_text + follow, per action packet
    local: list[float] = field(default_factory=list)  # GameService.take_action, per action
    sign: list[float] = field(default_factory=list)  # Replica.action_packet, per action (info)
    # Replica.receive, per event packet: (action it came from, events held before, seconds, appended)
    receives: list[tuple[int, int, float, int]] = field(default_factory=list)
    host_at: list[int] = field(default_factory=list)  # events on the host before each action
    events: int = 0  # events of the host's games at the end

    def extend(self, other: Played) -> None:
        self.host += other.host
        self.local += other.local
        self.sign += other.sign
        self.receives += other.receives
        self.host_at += other.host_at
        self.events += other.events


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


def seat(tmp: Path, ruleset: str, players: list[tuple[str, str | None]]) -> Table:
    """Sets up keys and a hosted game as tests/pbem_table.seat_table does, then lets every seat join."""
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
    return table


def play(
    tmp: Path,
    scenario: Scenario,
    bot_seed: int,
    max_actions: int = 100_000,
    profiler: cProfile.Profile | None = None,
    check: bool = False,
) -> Played:
    """Plays one game through packets (and the same actions locally), timing every call."""
    ruleset, players = scenario
    out = Played()
    with repeatable(bot_seed):
        table = seat(tmp, ruleset, players)
        local = GameService(str(tmp / "local.sqlite"))
        local_game = local.create_game(ruleset, players)
    host, game = table.host, table.game
    # Mail still owed to each seat, tagged with the action whose events it carries (0: before play).
    bag: dict[str, list[tuple[int, str]]] = {p: [(0, t) for t in texts] for p, texts in table.mail.items()}
    bot = Bot(bot_seed)
    perf = CLOCK[0]

    def read_mail(player: str) -> None:
        replica, member = table.replicas[player]
        for action, text in bag.pop(player, []):
            if profiler is not None:
                profiler.enable()
            t0 = perf()
            (got,) = replica.receive(text)
            elapsed = perf() - t0
            if profiler is not None:
                profiler.disable()
            out.receives.append((action, got.before, elapsed, got.after - got.before))

    with repeatable(bot_seed + 1):  # nonces: the same in every run of this game
        action = 0
        while action < max_actions:
            hosted = host.service.get_game(game)
            if hosted.is_finished:
                break
            action += 1
            player = hosted.status["to_act"][0]
            read_mail(player)
            replica, member = table.replicas[player]
            choice = bot.choose(hosted.ruleset, hosted.state, replica.legal_actions(member))
            t0 = perf()
            packet = replica.action_packet(member, choice.id)
            out.sign.append(perf() - t0)
            body = read_packets(packet)[0].body
            out.host_at.append(hosted.version)

            t0 = perf()
            handled = host.handle_text(packet)
            host.follow()
            out.host.append(perf() - t0)
            assert handled[0].ok and not handled[0].duplicate, handled[0].detail

            t0 = perf()
            local.take_action(local_game, body["player"], body["action"], body["nonce"])
            out.local.append(perf() - t0)

            for mail in host.due():
                bag.setdefault(mail.player, []).append((action, mail.packet))
                host.mark_sent(mail)
    for player in table.replicas:
        read_mail(player)

    out.events = host.service.get_game(game).version
    # The local game must be the same game (same seed, same actions, same dice), else the ratio lies.
    assert local.fold(local_game).state == host.service.fold(game).state, "the local game went another way"
    assert local.get_game(local_game).version == out.events
    if check:  # every replica holds exactly what the host would export for that seat
        for player, (replica, member) in table.replicas.items():
            assert export_game(replica.service, member.stored) == export_game(host.service, game, player)
    for replica, _ in table.replicas.values():
        replica.service.close()
    host.service.close()
    local.close()
    return out


def run_games(root: Path, label: str, scenario: Scenario, games: int, **kw: Any) -> Played:
    """Plays `games` games of a scenario (bot seeds 1, 2, ...), each in its own fresh temp dir."""
    total = Played()
    for index in range(games):
        tmp = Path(tempfile.mkdtemp(prefix=f"{label}-{index}-", dir=root))
        total.extend(play(tmp, scenario, bot_seed=index + 1, **kw))
    gc.collect()
    return total


# --- report -------------------------------------------------------------------------------------------------


def header(title: str) -> None:
    print(f"\n== {title}", flush=True)
    print(f"{'scenario':<52} {'packets':>8} {'seconds':>9} {'packets/s':>10} {'ratio':>8}  notes")


def line(label: str, packets: int, seconds: float, ratio: float | None, note: str = "") -> None:
    rate = packets / seconds if seconds else math.inf
    shown = f"{ratio:.1f}x" if ratio is not None else ""
    print(f"{label:<52} {packets:>8,} {seconds:>9.3f} {rate:>10,.0f} {shown:>8}  {note}", flush=True)


def median_run(runs: list[Played], pick: Callable[[Played], float]) -> float:
    """Median over runs of one figure of each run."""
    return float(statistics.median(pick(r) for r in runs))


def per_packet_ratio(runs: list[Played], pick: Callable[[Played], tuple[float, int]]) -> float:
    """Median over runs of (seconds per packet) / (seconds per local action), pair by pair."""
    return float(
        statistics.median(
            (pick(r)[0] / pick(r)[1]) / (sum(r.local) / len(r.local)) for r in runs if pick(r)[1]
        )
    )


def report_scenario(name: str, seats: int, games: int, runs: list[Played], figures: dict[str, Any]) -> None:
    first = runs[0]
    actions, received = len(first.local), len(first.receives)
    reps = len(runs)
    played = f"{games} games, " if games > 1 else ""
    header(
        f"{name}, {seats} signing players: {played}{actions} actions, {first.events} events a run "
        f"(median of {reps} runs)"
    )
    local_s = median_run(runs, lambda r: sum(r.local))
    host_s = median_run(runs, lambda r: sum(r.host))
    recv_s = median_run(runs, lambda r: sum(t for _, _, t, _ in r.receives))
    sign_s = median_run(runs, lambda r: sum(r.sign))
    host_ratio = per_packet_ratio(runs, lambda r: (sum(r.host), len(r.host)))
    recv_ratio = per_packet_ratio(runs, lambda r: (sum(t for _, _, t, _ in r.receives), len(r.receives)))
    table_ratio = statistics.median(
        (sum(r.host) + sum(t for _, _, t, _ in r.receives)) / sum(r.local) for r in runs
    )
    line("local: GameService.take_action (baseline)", actions, local_s, 1.0, "same actions, nonces, dice")
    line(
        "host: handle_text + follow, per action packet",
        actions,
        host_s,
        host_ratio,
        "verify + apply + outbox",
    )
    line(
        "replica: receive, per event packet",
        received,
        recv_s,
        recv_ratio,
        f"{received / actions:.1f} packets per action (one per seat)",
    )
    line(
        "whole table: host + every replica, per action",
        actions,
        host_s + recv_s,
        table_ratio,
        "packet handling costs this many local actions",
    )
    line("(info) replica: action_packet, player signs", actions, sign_s, None, "not in any ratio")
    key = name.replace("-", "_")
    figures[key] = {
        "actions": actions,
        "events": first.events,
        "event_packets": received,
        "reps": reps,
        "local_actions_s": round(actions / local_s, 1),
        "host_packets_s": round(actions / host_s, 1),
        "replica_packets_s": round(received / recv_s, 1),
        "host_ratio": round(host_ratio, 2),
        "replica_ratio": round(recv_ratio, 2),
        "table_ratio": round(table_ratio, 2),
    }


def bin_width(largest: int) -> int:
    for width in (25, 50, 100, 200, 250, 500, 1000):
        if largest / width <= 6:
            return width
    return 2000


def report_growth(name: str, runs: list[Played], figures: dict[str, Any]) -> None:
    """Per-packet receive time against the events the replica held, pooled over every run."""
    receives = [x for r in runs for x in r.receives]
    width = bin_width(max(held for _, held, _, _ in receives))
    print(f"\n   {name}: replica receive by events held before the packet (all runs pooled)")
    print(f"   {'events held':<20} {'packets':>8} {'median ms':>10} {'packets/s':>10}")
    bins: dict[int, list[float]] = {}
    for _, held, seconds, _ in receives:
        bins.setdefault(held // width, []).append(seconds)
    growth = []
    for b in sorted(bins):
        med = statistics.median(bins[b])
        label = f"{b * width}-{(b + 1) * width - 1}"
        print(f"   {label:<20} {len(bins[b]):>8,} {med * 1000:>10.2f} {1 / med:>10,.0f}")
        growth.append({"held": label, "packets": len(bins[b]), "median_ms": round(med * 1000, 3)})
    fit = statistics.linear_regression([float(h) for _, h, _, _ in receives], [t for _, _, t, _ in receives])
    print(
        f"   least squares: {fit.intercept * 1000:.2f} ms + {fit.slope * 1e6:.1f} us per event held"
        f" (a 1,000-event copy: {(fit.intercept + 1000 * fit.slope) * 1000:.0f} ms a packet)"
    )
    key = name.replace("-", "_")
    figures[key]["replica_growth"] = growth
    figures[key]["replica_ms_fixed"] = round(fit.intercept * 1000, 3)
    figures[key]["replica_us_per_event_held"] = round(fit.slope * 1e6, 2)


def report_windows(runs: list[Played], figures: dict[str, Any]) -> None:
    """Marathon: the packets of actions 1-20 against those of actions 201-220."""
    actions = len(runs[0].local)
    windows = [w for w in (EARLY, LATE) if w[1] <= actions] or [(1, actions)]
    print("\n   bench-marathon, early against late in the game (median run)")
    print(f"   {'actions':<12} {'side':<30} {'packets':>8} {'seconds':>9} {'packets/s':>10} {'ratio':>8}")
    out: dict[str, dict[str, Any]] = {}
    for lo, hi in windows:
        span = slice(lo - 1, hi)
        n = hi - lo + 1
        local_s = statistics.median(sum(r.local[span]) for r in runs)
        host_s = statistics.median(sum(r.host[span]) for r in runs)
        got = [[t for a, _, t, _ in r.receives if lo <= a <= hi] for r in runs]
        recv_s = statistics.median(sum(g) for g in got)
        held = runs[0].host_at[lo - 1], runs[0].host_at[hi - 1]
        label = f"{lo}-{hi}"
        for side, packets, seconds in (
            (f"local take_action ({held[0]}-{held[1]} ev)", n, local_s),
            ("host handle_text + follow", n, host_s),
            ("replica receive", len(got[0]), recv_s),
        ):
            ratio = (seconds / packets) / (local_s / n)
            rate = packets / seconds
            print(f"   {label:<12} {side:<30} {packets:>8} {seconds:>9.3f} {rate:>10,.0f} {ratio:>7.1f}x")
        out[label] = {
            "events_on_host": list(held),
            "local_actions_s": round(n / local_s, 1),
            "host_packets_s": round(n / host_s, 1),
            "replica_packets_s": round(len(got[0]) / recv_s, 1),
        }
    if len(windows) == 2:
        early, late = out[f"{EARLY[0]}-{EARLY[1]}"], out[f"{LATE[0]}-{LATE[1]}"]
        slow_r = early["replica_packets_s"] / late["replica_packets_s"]
        slow_h = early["host_packets_s"] / late["host_packets_s"]
        slow_l = early["local_actions_s"] / late["local_actions_s"]
        print(
            f"   late / early time per packet: replica {slow_r:.1f}x, host {slow_h:.1f}x, local {slow_l:.1f}x"
        )
        out["late_over_early"] = {
            "replica": round(slow_r, 2),
            "host": round(slow_h, 2),
            "local": round(slow_l, 2),
        }
    figures["bench_marathon"]["windows"] = out


def profile_receives(root: Path, top: int) -> None:
    """cProfile of the replicas' receives only, over one vampire-empire game."""
    profiler = cProfile.Profile()
    run_games(root, "profile", CASTLE, 1, profiler=profiler)
    print(f"\n== cProfile of Replica.receive over one {CASTLE[0]} game (top {top}; profiling slows it down)")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


# --- main -------------------------------------------------------------------------------------------------


# The clock every call is timed with: wall time, or with --cpu this process's CPU time (steadier on a
# shared machine; the servers here are in-process SQLite, so CPU time is the work).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run of each, a short marathon (< 15 s)")
    parser.add_argument("--reps", type=int, help="runs of the dungeon and castle scenarios (default 3)")
    parser.add_argument("--profile", action="store_true", help="also cProfile the replica receives")
    parser.add_argument("--cpu", action="store_true", help="time in process CPU time, not wall time")
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCK[0] = time.process_time
    cfg = dict(QUICK if args.quick else FULL)
    if args.reps is not None:
        if args.reps < 1:
            parser.error("--reps must be at least 1")
        cfg["reps"] = args.reps
    mode = "quick" if args.quick else "full"
    started = time.perf_counter()
    print(f"nightkeep packet benchmark ({mode}); python {sys.version.split()[0]}; {os.cpu_count()} cpus")
    figures: dict[str, Any] = {"mode": mode, "python": sys.version.split()[0], "cpus": os.cpu_count()}
    figures["clock"] = "cpu" if args.cpu else "wall"
    saved_keys = os.environ.get("NIGHTKEEP_KEYS")
    with tempfile.TemporaryDirectory(prefix="nightkeep-bench-packets-") as folder:
        root = Path(folder)
        run_games(root, "warm-up", DUNGEON, 1, max_actions=3)  # imports, content caches, SQLite
        dungeon: list[Played] = []
        castle: list[Played] = []
        for rep in range(cfg["reps"]):  # the two rulesets interleaved run by run
            dungeon.append(run_games(root, f"dungeon-{rep}", DUNGEON, cfg["dungeon_games"], check=rep == 0))
            castle.append(run_games(root, f"castle-{rep}", CASTLE, cfg["castle_games"], check=rep == 0))
        marathon = [
            run_games(root, f"marathon-{rep}", MARATHON, 1, max_actions=cfg["marathon_actions"])
            for rep in range(cfg["marathon_reps"])
        ]
        for (name, players), games, runs in (
            (DUNGEON, cfg["dungeon_games"], dungeon),
            (CASTLE, cfg["castle_games"], castle),
            (MARATHON, 1, marathon),
        ):
            report_scenario(name, len(players), games, runs, figures)
            report_growth(name, runs, figures)
        report_windows(marathon, figures)
        if args.profile:
            profile_receives(root, 20)
    if saved_keys is None:
        os.environ.pop("NIGHTKEEP_KEYS", None)
    else:
        os.environ["NIGHTKEEP_KEYS"] = saved_keys
    figures["wall_s"] = round(time.perf_counter() - started, 1)
    print(f"\ntotal {figures['wall_s']} s")
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
