"""The play-by-e-mail host's cost per action packet, early against late in a long game.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_host_packets.py            # three ~1,000-event games (about 20 s)
    python benchmarks/bench_host_packets.py --quick    # a ~300-event game (a few seconds)
    python benchmarks/bench_host_packets.py --profile  # also cProfile the late window's packets

One `bench-marathon` game (benchmarks/marathon_ruleset.py) with two signing players is hosted on a
SQLite store as tests/pbem_table.py seats it (the replicas join from their invitations). The players'
action packets are then signed here with their keys at the host's head, as a replica that is up to
date makes them, so the run times the host alone: no replica re-audits its copy between packets.

Timed per packet, in process CPU time (`time.process_time`, steady on a shared machine) beside wall
time: `Host.handle_text(packet)` + `Host.follow()` (check, apply, write the redacted event packets
owed into the outbox), and, apart, the mails `host run` composes from the outbox (`host_message`).
The baseline of every ratio is the same action taken with `GameService.take_action` on a plain SQLite
store (same seed, players and nonces, so the same dice), interleaved action by action.

Windows: the first WINDOW actions after the joins against the last WINDOW of the game (the median
packet of each); the figure that counts is late / early CPU time per packet, the median over `--reps`
games (issue 28's target: <= 1.2x). On a loaded machine the local action slows too, so the late / early
of host/local is printed beside it. Output: a table, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest.mock import patch

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

import event_store.app.service  # noqa: E402
from domain import rulesets  # noqa: E402
from event_store.app.service import GameService  # noqa: E402
from event_store.pbem.host_runner import host_message  # noqa: E402
from event_store.pbem.hosting import Host  # noqa: E402
from event_store.pbem.keys import KeyPair, new_key  # noqa: E402
from event_store.pbem.packets import make_packet  # noqa: E402
from tests.pbem_table import Table  # noqa: E402

rulesets.register(rulesets.RulesetEntry("bench-marathon", "benchmarks.marathon_ruleset:Marathon"))

PLAYERS: list[tuple[str, str | None]] = [("Ann", None), ("Bo", None)]
WINDOW = 20  # actions per window
FULL = {"events": 1_000, "reps": 3}
QUICK = {"events": 300, "reps": 1}


@dataclass
class Timings:
    """CPU and wall seconds of one call, per action."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)


@dataclass
class Run:
    """What one game cost, action by action."""

    host: Timings = field(default_factory=Timings)  # handle_text + follow
    mail: Timings = field(default_factory=Timings)  # host_message of the mails the packet made owed
    local: Timings = field(default_factory=Timings)  # GameService.take_action
    held: list[int] = field(default_factory=list)  # events on the host before each packet


@contextmanager
def timed(into: Timings) -> Iterator[None]:
    cpu, wall = time.process_time(), time.perf_counter()
    yield
    into.cpu.append(time.process_time() - cpu)
    into.wall.append(time.perf_counter() - wall)


def seat(tmp: Path) -> tuple[Table, dict[str, KeyPair]]:
    """Hosts a marathon game with two signing seats that have joined; returns the table and the keys."""
    os.environ["NIGHTKEEP_KEYS"] = str(tmp / "keys")
    keys = {name: new_key(name.lower()) for name, _ in PLAYERS}
    host = Host(GameService(str(tmp / "host.sqlite")), new_key("host"))
    game = host.create(
        "bench-marathon",
        PLAYERS,
        {name: pair.public for name, pair in keys.items()},
        {name: f"{name.lower()}@example.org" for name, _ in PLAYERS},
        "host@example.org",
    )
    table = Table(tmp, host, game, lambda name: str(tmp / f"{name.lower()}.sqlite"))
    table.join_all()
    for mail in host.due():
        host.mark_sent(mail)
    return table, keys


def action_packet(host: Host, table: Table, key: KeyPair, player: str, nonce: bytes) -> tuple[str, str]:
    """Returns a player's packet for their first legal action, made at the host's head; and its action."""
    game = host.service.get_game(table.game)
    chain = host.service.recorded_events(table.game, gt=game.version - 1)[-1].chain
    action = host.service.legal_actions(table.game, player)[0].id
    body = {
        "game": str(table.game),
        "player": player,
        "version": game.version,
        "chain": chain,
        "action": action,
        "nonce": nonce,
    }
    return make_packet("action", body, key.sign), action


def play(tmp: Path, events: int, profiler: cProfile.Profile | None, late_from: int) -> Run:
    """Plays one game of about `events` events through packets, and the same actions locally."""
    rng = random.Random(28)
    seed = rng.randbytes(32)
    with patch.object(event_store.app.service, "new_seed", lambda: seed):
        table, keys = seat(tmp)
        local = GameService(str(tmp / "local.sqlite"))
        local_game = local.create_game("bench-marathon", PLAYERS)
    host, game, run = table.host, table.game, Run()
    while host.service.get_game(game).version < events:
        hosted = host.service.get_game(game)
        player = hosted.status["to_act"][0]
        nonce = rng.randbytes(16)
        packet, action = action_packet(host, table, keys[player], player, nonce)
        run.held.append(hosted.version)
        profiling = profiler is not None and len(run.held) > late_from
        if profiling:
            profiler.enable()  # type: ignore[union-attr]
        with timed(run.host):
            handled = host.handle_text(packet)
            host.follow()
        with timed(run.mail):
            mails = host.due()
            for mail in mails:
                host_message(host, mail)
        if profiling:
            profiler.disable()  # type: ignore[union-attr]
        assert handled[0].ok and not handled[0].duplicate, handled[0].detail
        assert len(mails) == len(PLAYERS), [m.subject for m in mails]
        for mail in mails:
            host.mark_sent(mail)
        with timed(run.local):
            local.take_action(local_game, player, action, nonce)
    # The local game must be the same game (same seed, actions and dice), else the ratio lies.
    assert local.fold(local_game).state == host.service.fold(game).state, "the local game went another way"
    table.close()
    local.close()
    return run


def window(run: Run, span: slice) -> dict[str, Any]:
    """Per-packet figures of a window of actions (ms, the median of the window's packets)."""

    def ms(values: list[float]) -> float:
        return round(statistics.median(values[span]) * 1000, 3)

    return {
        "held": [run.held[span][0], run.held[span][-1]],
        "host_cpu_ms": ms(run.host.cpu),
        "host_wall_ms": ms(run.host.wall),
        "mail_cpu_ms": ms(run.mail.cpu),
        "local_cpu_ms": ms(run.local.cpu),
        "local_wall_ms": ms(run.local.wall),
    }


def report(runs: list[Run], figures: dict[str, Any]) -> None:
    """Prints each run's windows, then the median over runs of late / early per packet."""
    print(
        f"{'run':<4} {'window':<7} {'events held':<12} {'host cpu ms':>12} {'(wall)':>9} {'mail cpu ms':>12} "
        f"{'local cpu ms':>13} {'host/local':>11}"
    )
    growths: list[dict[str, float]] = []
    for index, run in enumerate(runs, start=1):
        n = len(run.held)
        early, late = window(run, slice(0, WINDOW)), window(run, slice(n - WINDOW, n))
        for name, w in (("early", early), ("late", late)):
            ratio = w["host_cpu_ms"] / w["local_cpu_ms"]
            w["host_over_local"] = round(ratio, 2)
            print(
                f"{index:<4} {name:<7} {w['held'][0]:>4}-{w['held'][1]:<7} {w['host_cpu_ms']:>12.2f} "
                f"{w['host_wall_ms']:>9.2f} {w['mail_cpu_ms']:>12.2f} {w['local_cpu_ms']:>13.2f} "
                f"{ratio:>10.1f}x"
            )
        growth = {key: late[f"{key}_cpu_ms"] / early[f"{key}_cpu_ms"] for key in ("host", "mail", "local")}
        # On a loaded machine the local action slows with everything else: host/local is the steadier figure.
        growth["host_over_local"] = late["host_over_local"] / early["host_over_local"]
        growths.append(growth)
        figures.setdefault("runs", []).append({"early": early, "late": late})
    median = {key: round(statistics.median(g[key] for g in growths), 2) for key in growths[0]}
    print(
        f"late / early CPU time per packet (median of {len(runs)} runs): host {median['host']:.2f}x "
        f"(target <= 1.2x), mail {median['mail']:.2f}x, local action {median['local']:.2f}x; "
        f"host/local late over early {median['host_over_local']:.2f}x"
    )
    figures.update(actions=len(runs[0].held), events=runs[0].held[-1], late_over_early=median)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a ~300-event game (a few seconds)")
    parser.add_argument("--events", type=int, help="the game's length in events (default 1,000)")
    parser.add_argument("--reps", type=int, help="games played, the median counts (default 3; --quick 1)")
    parser.add_argument(
        "--profile", action="store_true", help="also cProfile the late window's packets (which it slows)"
    )
    args = parser.parse_args(argv)
    config = QUICK if args.quick else FULL
    events, reps = args.events or config["events"], args.reps or config["reps"]
    if events < 200 or reps < 1:
        parser.error("--events must be at least 200 (two windows of 20 actions apart), --reps at least 1")
    mode = "quick" if args.quick else "full"
    print(f"nightkeep host packet benchmark ({mode}); python {sys.version.split()[0]}; {os.cpu_count()} cpus")
    figures: dict[str, Any] = {"mode": mode, "python": sys.version.split()[0], "clock": "cpu"}
    profiler = cProfile.Profile() if args.profile else None
    saved_keys = os.environ.get("NIGHTKEEP_KEYS")
    started_cpu, started = time.process_time(), time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix="nightkeep-bench-host-") as folder:
            runs = []
            for rep in range(reps):  # each game in a folder of its own (its own keys)
                (Path(folder) / str(rep)).mkdir()
                # About 4.3 events an action: the late window is the last WINDOW actions (profiled once).
                late_from = int(events / 4.3) - WINDOW
                runs.append(play(Path(folder) / str(rep), events, profiler if rep == 0 else None, late_from))
    finally:
        if saved_keys is None:
            os.environ.pop("NIGHTKEEP_KEYS", None)
        else:
            os.environ["NIGHTKEEP_KEYS"] = saved_keys
    report(runs, figures)
    if profiler is not None:
        print("(--profile: the late window's times include the profiler's own cost; compare runs without it)")
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.sort_stats("cumulative").print_stats(30)
    figures["cpu_s"] = round(time.process_time() - started_cpu, 1)
    figures["wall_s"] = round(time.perf_counter() - started, 1)
    print(f"total {figures['cpu_s']} s CPU, {figures['wall_s']} s wall")
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
