"""Audit throughput of nightkeep replay files against a python-chess baseline, both in the same run.

Run from anywhere (the project root is put on sys.path); python-chess comes from the `bench` extra:

    pip install -e '.[bench]'
    python benchmarks/bench_audit.py            # full run: 200 games, best of 5 (~1 minute on 2 cores)
    python benchmarks/bench_audit.py --quick    # smoke run: 15 games, best of 2 (a few seconds)

Set-up, not timed:
1. G seeded `dungeon-short` bot games (3 players) are played in an in-memory store and exported as `.nkr`
   bytes. The service draws each game's dice seed from the OS; here `new_seed` is swapped for a seeded
   generator while the games are made, so every run audits the same games.
2. Random chess games (a seeded `random.Random` picks among the legal moves until the game is over or
   reaches 200 plies) are written as one PGN string, until its plies outnumber the nightkeep events.

Timed (best of N, the two sides interleaved rep by rep so background load on this noisy VM hits both
alike) in CPU time (time.process_time, plus the worker processes' user + sys for the workers pass) and
wall time (time.perf_counter). The verdict is on CPU time, which holds under other jobs' load where the
wall-clock ratio swung 0.34-1.28x (issue 28); wall figures are printed beside:
- nightkeep: `audit_replay(data)` on every file; each report must be `ok`. That parses the file, checks
  the hash chain and header, re-decides every action from the state before it and recomputes every draw
  from the revealed seed. Parse-only (`parse_replay`) and audit-only (`audit_log` on parsed entries)
  are timed as well, to show where the time goes.
- python-chess: `chess.pgn.read_game` over the whole PGN; each game must have no `errors`. This is the
  baseline the ratio uses. `read_game` parses every SAN token against the current position
  (`Board.parse_san` accepts only a legal move) and pushes it, so reading a game *is* validating it.
  Replaying the mainline on a fresh board afterwards (`game.end().board()`) re-applies moves already
  proven legal and checks nothing more; it is timed and shown for information only, because adding it
  would make the baseline slower and the target easier to pass.

Target: audit events/s >= 2x python-chess validated plies/s, both in CPU time, one process. The
workers pass is for information: it spreads the files over processes, so what it buys is wall time
(its CPU time is the sum over the processes). Output: a table on stdout, then one JSON
line with every figure. `--profile` adds a cProfile of one audit pass over every file.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib.metadata
import io
import json
import logging
import os
import pstats
import random
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any
from unittest.mock import patch

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

from benchmarks.clocks import Spent, best, stopwatch  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

try:
    import chess  # noqa: E402
    import chess.pgn  # noqa: E402
except ImportError:  # benchmark-only dependency: say how to get it instead of a traceback
    sys.exit("python-chess is missing: pip install -e '.[bench]'  (or pip install 'chess>=1.10,<2')")

import event_store.app.service  # noqa: E402
from domain.audit import audit_log  # noqa: E402
from event_store.app.replay_file import FileEntry, audit_replay, export_game, parse_replay  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402
from event_store.pbem.audit_files import audit_files  # noqa: E402

RULESET = "dungeon-short"
PLAYERS = [("Ann", None), ("Bo", None), ("Cy", None)]
TARGET_RATIO = 2.0
PLY_CAP = 200

FULL = {"games": 200, "reps": 5}
QUICK = {"games": 15, "reps": 2}

Parsed = tuple[dict[str, Any], list[FileEntry]]


# --- set-up (not timed) ----------------------------------------------------------------------------------


def seeded_dice_seeds(seed: int) -> AbstractContextManager[Any]:
    """Makes the service draw repeatable game seeds (it asks the OS for them) while inside."""
    rng = random.Random(seed)
    return patch.object(event_store.app.service, "new_seed", lambda: rng.randbytes(32))


def make_replays(games: int, seed: int) -> list[bytes]:
    """Plays `games` seeded bot games in memory and returns each as replay-file bytes."""
    svc = GameService.open(":memory:")
    replays = []
    with seeded_dice_seeds(seed):
        for i in range(games):
            gid = svc.create_game(RULESET, PLAYERS)
            play_with_bots(svc, gid, seed=seed + i)
            replays.append(export_game(svc, gid))
    svc.close()
    return replays


def random_game(rng: random.Random) -> chess.pgn.Game:
    """Plays random legal moves from the start until the game is over or reaches the ply cap."""
    board = chess.Board()
    while board.ply() < PLY_CAP and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return chess.pgn.Game.from_board(board)


def make_pgn(min_plies: int, seed: int) -> tuple[str, int, int]:
    """Writes random games as PGN until they hold `min_plies` plies; returns (pgn, games, plies)."""
    rng = random.Random(seed)
    out = io.StringIO()
    games = plies = 0
    while plies < min_plies:
        game = random_game(rng)
        plies += game.end().ply()
        games += 1
        print(game, file=out, end="\n\n")
    return out.getvalue(), games, plies


# --- timed passes -------------------------------------------------------------------------------------------


def audit_all(replays: list[bytes]) -> dict[str, int]:
    """Audits every file, refusing to count a failing audit; returns the summed report counts."""
    totals = {"events": 0, "actions": 0, "draws": 0, "draws_verified": 0}
    for index, data in enumerate(replays):
        report = audit_replay(data, f"game {index}")
        if not report.ok:
            raise AssertionError(f"game {index} fails its audit: {report.findings[:3]}")
        totals["events"] += report.events
        totals["actions"] += report.actions
        totals["draws"] += report.draws
        totals["draws_verified"] += report.draws_verified
    return totals


def audit_files_in_workers(paths: list[str], jobs: int) -> int:
    """Audits files as `nightkeep audit FILE…` does, in `jobs` processes; returns the events audited."""
    events = 0
    for path, report, unreadable in audit_files(paths, jobs):
        if report is None or not report.ok:
            raise AssertionError(f"{path} fails its audit: {unreadable or report and report.findings[:3]}")
        events += report.events
    return events


def parse_all(replays: list[bytes]) -> list[Parsed]:
    """Parses every file (structure only: no chain, rules or dice)."""
    return [parse_replay(data, f"game {index}") for index, data in enumerate(replays)]


def audit_parsed(parsed: list[Parsed]) -> int:
    """Audits already-parsed files; returns the events audited."""
    events = 0
    for header, entries in parsed:
        report = audit_log(entries, header)
        if not report.ok:
            raise AssertionError(f"game {header.get('game')} fails its audit: {report.findings[:3]}")
        events += report.events
    return events


def read_pgn(pgn: str) -> list[chess.pgn.Game]:
    """Reads (and so validates) every game of a PGN string; a game with an illegal move fails."""
    stream = io.StringIO(pgn)
    games: list[chess.pgn.Game] = []
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise AssertionError(f"chess game {len(games) + 1} does not read cleanly: {game.errors[0]}")
        games.append(game)
    return games


def read_pgn_and_replay(pgn: str) -> int:
    """Reads every game, then replays its mainline on a fresh board; returns the plies replayed."""
    return sum(game.end().board().ply() for game in read_pgn(pgn))


def children_cpu() -> float:
    """Returns the user + sys time of this process's ended children (the audit's worker processes)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(times: list[Spent], fn: Callable[..., Any], *args: Any) -> Any:
    """Runs `fn(*args)` once after a full collection, appends its CPU time (with that of worker processes
    it ended) and wall time to `times`; returns its result."""
    gc.collect()
    workers = children_cpu()
    with stopwatch() as spent:
        result = fn(*args)
    spent.cpu += children_cpu() - workers
    times.append(spent)
    return result


# --- report ------------------------------------------------------------------------------------------------


def row(label: str, value: str, note: str = "") -> None:
    """Prints one line of the table."""
    print(f"{label:<52} {value:>18}  {note}", flush=True)


def measure(cfg: dict[str, Any], replays: list[bytes], pgn: str, paths: list[str]) -> dict[str, Any]:
    """Times every pass `cfg['reps']` times, interleaved, after one untimed warm-up of each."""
    audit_all(replays[:1])  # imports the ruleset and fills the content caches
    read_pgn(pgn[: pgn.find("\n\n[") + 1])
    passes: dict[str, list[Spent]] = {
        k: [] for k in ("audit", "parse", "audit_log", "workers", "chess", "replay")
    }
    out: dict[str, Any] = {}
    for _ in range(cfg["reps"]):
        # Each pass drops what it built before the next starts: a big live heap (the parsed files, the
        # read games) would make the collector's full passes slower for whichever side runs next.
        out["totals"] = timed(passes["audit"], audit_all, replays)
        parsed = timed(passes["parse"], parse_all, replays)
        out["audit_log_events"] = timed(passes["audit_log"], audit_parsed, parsed)
        del parsed
        out["worker_events"] = timed(passes["workers"], audit_files_in_workers, paths, cfg["jobs"])
        games = timed(passes["chess"], read_pgn, pgn)
        out["read_plies"] = sum(game.end().ply() for game in games)
        del games
        out["replayed_plies"] = timed(passes["replay"], read_pgn_and_replay, pgn)
    out["best"] = {k: best(v) for k, v in passes.items()}
    return out


def rates_of(m: dict[str, Any], pgn_plies: int, clock: str = "cpu") -> dict[str, float]:
    """Turns the best times on one clock into rates, after checking both sides counted what they were
    given."""
    totals = m["totals"]
    best = {name: getattr(spent, clock) for name, spent in m["best"].items()}
    assert m["read_plies"] == pgn_plies == m["replayed_plies"], (
        m["read_plies"],
        pgn_plies,
        m["replayed_plies"],
    )
    assert m["audit_log_events"] == totals["events"] == m["worker_events"]
    return {
        "audit_ev_s": totals["events"] / best["audit"],
        "audit_actions_s": totals["actions"] / best["audit"],
        "audit_draws_verified_s": totals["draws_verified"] / best["audit"],
        "parse_only_ev_s": totals["events"] / best["parse"],
        "audit_log_only_ev_s": totals["events"] / best["audit_log"],
        "audit_workers_ev_s": totals["events"] / best["workers"],
        "chess_read_plies_s": pgn_plies / best["chess"],
        "chess_read_and_replay_plies_s": pgn_plies / best["replay"],
    }


def ms(spent: Spent) -> str:
    """Writes a cost as CPU ms and wall ms."""
    return f"{spent.cpu * 1000:.0f} ms CPU, {spent.wall * 1000:.0f} wall"


def print_nightkeep(
    cfg: dict[str, Any], totals: dict[str, int], best: dict[str, Spent], rates: dict[str, float]
) -> None:
    """Prints the nightkeep half of the table."""
    events = totals["events"]
    print(
        f"\n== nightkeep: audit_replay on {cfg['games']} {RULESET} files "
        f"(best of {cfg['reps']}; rates in CPU)"
    )
    row("events audited", f"{events:,}", f"{events / cfg['games']:.0f} per game")
    row("actions re-decided", f"{totals['actions']:,}", f"{rates['audit_actions_s']:,.0f} actions/s")
    row(
        "draws recomputed from the seed / draws",
        f"{totals['draws_verified']:,} / {totals['draws']:,}",
        f"{rates['audit_draws_verified_s']:,.0f} draws verified/s",
    )
    row(
        "audit_replay (parse + chain + rules + dice)",
        f"{rates['audit_ev_s']:,.0f} ev/s",
        ms(best["audit"]),
    )
    row("  parse_replay alone", f"{rates['parse_only_ev_s']:,.0f} ev/s", ms(best["parse"]))
    row(
        "  audit_log on parsed entries alone",
        f"{rates['audit_log_only_ev_s']:,.0f} ev/s",
        ms(best["audit_log"]),
    )
    row(
        f"nightkeep audit FILE… in {cfg['jobs']} worker processes",
        f"{rates['audit_workers_ev_s']:,.0f} ev/s",
        f"{ms(best['workers'])}, files read from disk; CPU of every process",
    )


def print_chess(
    cfg: dict[str, Any], games: int, plies: int, best: dict[str, Spent], rates: dict[str, float]
) -> None:
    """Prints the python-chess half of the table."""
    print(f"\n== python-chess {chess.__version__}: one PGN string (best of {cfg['reps']}; rates in CPU)")
    row("games / plies", f"{games:,} / {plies:,}", f"random legal moves, cap {PLY_CAP} plies")
    row(
        "read_game (parse + validate): the baseline",
        f"{rates['chess_read_plies_s']:,.0f} ply/s",
        ms(best["chess"]),
    )
    row(
        "read_game + replay on a fresh board (info only)",
        f"{rates['chess_read_and_replay_plies_s']:,.0f} ply/s",
        ms(best["replay"]),
    )


def report(cfg: dict[str, Any], m: dict[str, Any], pgn_games: int, pgn_plies: int) -> dict[str, Any]:
    """Prints the table and the verdict; returns every figure for the JSON line."""
    rates = rates_of(m, pgn_plies)
    walls = rates_of(m, pgn_plies, "wall")
    print_nightkeep(cfg, m["totals"], m["best"], rates)
    print_chess(cfg, pgn_games, pgn_plies, m["best"], rates)
    ratio = rates["audit_ev_s"] / rates["chess_read_plies_s"]
    wall_ratio = walls["audit_ev_s"] / walls["chess_read_plies_s"]
    workers_ratio = walls["audit_workers_ev_s"] / walls["chess_read_plies_s"]
    verdict = "PASS" if ratio >= TARGET_RATIO else "FAIL"
    workers_verdict = "PASS" if workers_ratio >= TARGET_RATIO else "FAIL"
    print(f"\n== ratio (best of {cfg['reps']} on each side)")
    row(
        "one process: audit ev/s / python-chess ply/s, CPU",
        f"{ratio:.2f}x",
        f"target >= {TARGET_RATIO:.0f}x: {verdict} (wall: {wall_ratio:.2f}x)",
    )
    row(
        f"(info) nightkeep audit, {cfg['jobs']} processes / python-chess, 1",
        f"{workers_ratio:.2f}x",
        f"wall time, what the processes buy: {workers_verdict} (python-chess's reader is single-process)",
    )
    figures: dict[str, Any] = {k: round(v) for k, v in rates.items()}
    figures.update({f"wall_{k}": round(v) for k, v in walls.items()})
    figures.update(m["totals"], chess_games=pgn_games, chess_plies=pgn_plies, ratio=round(ratio, 3))
    figures.update(wall_ratio=round(wall_ratio, 3), clock="cpu")
    figures.update(workers_ratio=round(workers_ratio, 3), jobs=cfg["jobs"])
    figures["verdict"] = verdict
    figures["workers_verdict"] = workers_verdict
    return figures


def profile_audit(replays: list[bytes], top: int) -> None:
    """Prints the functions that take the most own time in one audit pass over every file."""
    profiler = cProfile.Profile()
    profiler.runcall(audit_all, replays)
    print(f"\n== cProfile of one audit pass (top {top} by own time; profiling slows everything down)")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="15 games, best of 2: a smoke run")
    parser.add_argument("--games", type=int, help="how many nightkeep games to audit (default 200)")
    parser.add_argument("--reps", type=int, help="timed repeats of each pass; the best counts (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the games on both sides (default 1)")
    parser.add_argument("--profile", action="store_true", help="also cProfile one audit pass")
    args = parser.parse_args(argv)
    if (args.games is not None and args.games < 1) or (args.reps is not None and args.reps < 1):
        parser.error("--games and --reps must be at least 1")
    cfg = dict(QUICK if args.quick else FULL)
    cfg.update({k: v for k, v in (("games", args.games), ("reps", args.reps)) if v is not None})
    cpu, started = time.process_time(), time.perf_counter()
    mode = "quick" if args.quick else "full"
    print(f"nightkeep audit benchmark ({mode}); python {sys.version.split()[0]}; {os.cpu_count()} cpus")
    print(
        f"set-up (not timed): {cfg['games']} bot games, then a PGN with at least as many plies …", flush=True
    )
    replays = make_replays(cfg["games"], args.seed)
    events = sum(len(parse_replay(data)[1]) for data in replays)
    pgn, pgn_games, pgn_plies = make_pgn(events, args.seed)
    print(f"set-up done in {time.perf_counter() - started:.1f} s; timing, best of {cfg['reps']} interleaved")
    cfg["jobs"] = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index, data in enumerate(replays):
            path = Path(folder) / f"game-{index:04d}.nkr"
            path.write_bytes(data)
            paths.append(str(path))
        figures = report(cfg, measure(cfg, replays, pgn, paths), pgn_games, pgn_plies)
    if args.profile:
        profile_audit(replays, 30)
    figures.update(
        mode=mode,
        games=cfg["games"],
        reps=cfg["reps"],
        seed=args.seed,
        python=sys.version.split()[0],
        chess_version=chess.__version__,
        nightkeep=importlib.metadata.version("nightkeep"),
        cpus=os.cpu_count(),
        cpu_s=round(time.process_time() - cpu, 1),
        wall_s=round(time.perf_counter() - started, 1),
    )
    print(f"\ntotal {figures['cpu_s']} s CPU, {figures['wall_s']} s wall")
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
