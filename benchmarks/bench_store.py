"""Store benchmarks for nightkeep's GameService: append rates, rebuild rates, per-action latency, bot games.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_store.py            # full run (~30-60 s on 2 cores; well under 3 minutes)
    python benchmarks/bench_store.py --quick    # smoke run (a few seconds)

One run measures, on SQLite files in a fresh temp dir per measurement (best of N), in CPU time
(time.process_time: every rate, ratio and target below; it holds on a loaded machine where wall time
swings) with the wall-time rates (time.perf_counter) in the JSON line under `wall_`:
1. events/s appended at one action per save (`GameService.take_action` in a loop) and batched (many
   `game.take_action` on the aggregate in memory, then one `svc.save`), counting stored events;
2. the same with the library's JSONTranscoder as the baseline, and the msgpack/JSON ratios;
3. events/s to rebuild a 10,000-event game: the read-side `svc.fold` of every event
   (`use_snapshot=False`; the fold from a snapshot is in bench_action.py) and the library repository
   path (`repository.get(..., projector_func=project_game)`, no cache, no snapshots);
4. ms per `svc.take_action` on a ~1,000-event game, with the aggregate cache and without it;
5. bot games/s of full `dungeon-short` games (in memory and on SQLite), mean events per game and the
   fold rate over those real games.

Long games come from `benchmarks/marathon_ruleset.py` (`bench-marathon`), a benchmark-only ruleset
registered at runtime here, because a real Dungeon game never reaches 1,000 or 10,000 events; see its
docstring. Output: a small table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

from benchmarks.clocks import Spent, stopwatch  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

import domain.game  # noqa: E402
from domain import rulesets  # noqa: E402
from domain.events import TurnEnded  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402

rulesets.register(rulesets.RulesetEntry("bench-marathon", "benchmarks.marathon_ruleset:Marathon"))

MARATHON = "bench-marathon"
PLAYERS = [("Ann", None), ("Bo", None), ("Cy", None)]
JSON_ENV = {"TRANSCODER_TOPIC": "eventsourcing.persistence:JSONTranscoder"}
NO_CACHE_NO_SNAPSHOTS = {"IS_SNAPSHOTTING_ENABLED": "n", "AGGREGATE_CACHE_MAXSIZE": ""}
NO_CACHE = {"AGGREGATE_CACHE_MAXSIZE": ""}

FULL = {
    "reps": 7,
    "single_actions": 300,  # ~1,300 events per measurement, one save each
    "batch_actions": 1000,  # ~4,300 events per measurement, one save
    "rebuild_events": 10_000,
    "latency_events": 1_000,
    "latency_actions": 200,
    "bot_games": 30,
    "bot_budget_s": 30.0,  # per store; stop early if the games are slow
}
QUICK = {
    "reps": 2,
    "single_actions": 60,
    "batch_actions": 200,
    "rebuild_events": 2_000,
    "latency_events": 500,
    "latency_actions": 20,
    "bot_games": 2,
    "bot_budget_s": 3.0,
}


# --- helpers -------------------------------------------------------------------------------------------


class Workdir:
    """Hands out fresh SQLite file paths, each in its own temp dir."""

    def __init__(self) -> None:
        self._root = tempfile.TemporaryDirectory(prefix="nightkeep-bench-")
        self._n = 0

    @property
    def root(self) -> str:
        return self._root.name

    def fresh(self, label: str) -> str:
        self._n += 1
        path = Path(self._root.name) / f"{self._n:03d}-{label}" / "games.sqlite"
        path.parent.mkdir(parents=True)
        return str(path)

    def cleanup(self) -> None:
        self._root.cleanup()


def current_player(game_or_fold: Any) -> str:
    state = game_or_fold.state
    return str(state["order"][state["turn"]])


def next_player_from(recorded: list[Any], fallback: str) -> str:
    for r in recorded:
        if isinstance(r.event, TurnEnded):
            return str(r.event.next_player)
    return fallback


def timed(fn: Callable[[], Any]) -> tuple[Spent, Any]:
    gc.collect()
    with stopwatch() as spent:
        result = fn()
    return spent, result


def build_batched(svc: GameService, events: int, chunk_actions: int = 1000) -> UUID:
    """Creates a marathon game and grows it to at least `events` events with batched saves."""
    gid = svc.create_game(MARATHON, PLAYERS)
    seed = svc.seed_of(gid)
    game = svc.get_game(gid)
    while game.version < events:
        for _ in range(chunk_actions):
            if game.version >= events:
                break
            game.take_action(current_player(game), "roll", game.dice(seed))
            # As the service does: the key chain's next segment is committed when an action ends one.
            game.commit_dice_chain(seed)
        svc.save(game)
        game = svc.get_game(gid)
    return gid


ROWS: list[tuple[str, str, str]] = []


def row(label: str, value: str, note: str = "") -> None:
    ROWS.append((label, value, note))
    print(f"{label:<58} {value:>16}  {note}", flush=True)


def section(title: str) -> None:
    print(f"\n== {title}", flush=True)


def fmt_rate(x: float) -> str:
    return f"{x:,.0f} ev/s"


def target(ok: bool, text: str) -> str:
    return f"target {text}: {'OK' if ok else 'MISSED'}"


# --- 1 & 2: append rates ---------------------------------------------------------------------------------


def append_single(work: Workdir, env: dict[str, str] | None, actions: int) -> tuple[Spent, int]:
    """One action per save through GameService.take_action; returns (seconds, stored events)."""
    svc = GameService(work.fresh("single"), env=env)
    gid = svc.create_game(MARATHON, PLAYERS)
    game = svc.get_game(gid)
    start_version = game.version
    player = current_player(game)
    take = svc.take_action
    gc.collect()
    elapsed = Spent()
    version = start_version
    for _ in range(actions):
        with stopwatch() as spent:
            version, recorded = take(gid, player, "roll")
        elapsed += spent
        player = next_player_from(recorded, player)
    svc.close()
    return elapsed, version - start_version


def append_batched(work: Workdir, env: dict[str, str] | None, actions: int) -> tuple[Spent, Spent, int]:
    """Many actions on the aggregate in memory, one save; returns (total s, save-only s, events)."""
    svc = GameService(work.fresh("batched"), env=env)
    gid = svc.create_game(MARATHON, PLAYERS)
    seed = svc.seed_of(gid)
    game = svc.get_game(gid)
    start_version = game.version
    gc.collect()
    with stopwatch() as acting:
        for _ in range(actions):
            game.take_action(current_player(game), "roll", game.dice(seed))
            game.commit_dice_chain(seed)
    with stopwatch() as saving:
        svc.save(game)
    events = game.version - start_version
    svc.close()
    return acting + saving, saving, events


def bench_append(work: Workdir, cfg: dict[str, Any], results: dict[str, Any]) -> None:
    section(f"1-2. append to SQLite (bench-marathon, 3 players; best of {cfg['reps']}, fresh file each)")
    transcoders = (("msgpack", None), ("json", JSON_ENV))
    single: dict[str, list[tuple[Spent, int]]] = {name: [] for name, _ in transcoders}
    batched: dict[str, list[tuple[Spent, Spent, int]]] = {name: [] for name, _ in transcoders}
    # Interleave the transcoders rep by rep, so background load hits both alike.
    for _ in range(cfg["reps"]):
        for name, env in transcoders:
            single[name].append(append_single(work, env, cfg["single_actions"]))
            batched[name].append(append_batched(work, env, cfg["batch_actions"]))
    for name, _ in transcoders:
        best_single = max(ev / s.cpu for s, ev in single[name])
        best_batched = max(ev / total.cpu for total, _, ev in batched[name])
        best_save = max(ev / save.cpu for _, save, ev in batched[name])
        results[f"wall_append_single_{name}_ev_s"] = round(max(ev / s.wall for s, ev in single[name]))
        results[f"wall_append_batched_{name}_ev_s"] = round(max(ev / t.wall for t, _, ev in batched[name]))
        results[f"append_single_{name}_ev_s"] = round(best_single)
        results[f"append_batched_{name}_ev_s"] = round(best_batched)
        results[f"append_batched_save_only_{name}_ev_s"] = round(best_save)
        ev_single = single[name][0][1]
        ev_batched = batched[name][0][2]
        row(
            f"{name}: one action per save (svc.take_action)",
            fmt_rate(best_single),
            f"{cfg['single_actions']} actions = ~{ev_single} events",
        )
        row(
            f"{name}: batched, act in memory + one save",
            fmt_rate(best_batched),
            f"{cfg['batch_actions']} actions = ~{ev_batched} events",
        )
        row(f"{name}: batched, the svc.save alone", fmt_rate(best_save), "incl. snapshots taken in save()")
    for key in ("append_single", "append_batched", "append_batched_save_only"):
        ratio = results[f"{key}_msgpack_ev_s"] / results[f"{key}_json_ev_s"]
        results[f"{key}_ratio_msgpack_json"] = round(ratio, 3)
        row(
            f"ratio msgpack/JSON: {key.replace('append_', '')}",
            f"{ratio:.2f}x",
            target(ratio >= 1.0, ">= 1.0x"),
        )


# --- 3: rebuild a long game ------------------------------------------------------------------------------


def bench_rebuild(work: Workdir, cfg: dict[str, Any], results: dict[str, Any]) -> None:
    n = cfg["rebuild_events"]
    reps = cfg["reps"]
    section(f"3. rebuild a {n:,}-event game from SQLite (best of {reps})")
    db = work.fresh("rebuild")
    builder = GameService(db)
    gid = build_batched(builder, n)
    builder.close()

    reader = GameService(db)
    fold_times = []
    for _ in range(reps):
        s, fold = timed(lambda: reader.fold(gid, use_snapshot=False))
        fold_times.append(s)
    events = fold.version
    fold_rate = events / min(t.cpu for t in fold_times)
    results["wall_rebuild_fold_ev_s"] = round(events / min(t.wall for t in fold_times))
    reader.close()

    repo_svc = GameService(db, env=NO_CACHE_NO_SNAPSHOTS)
    assert repo_svc.repository.cache is None and repo_svc.snapshots is None
    repo_times = []
    for _ in range(reps):
        s, game = timed(lambda: repo_svc.repository.get(gid, projector_func=domain.game.project_game))
        repo_times.append(s)
    assert game.version == events, (game.version, events)
    repo_rate = events / min(t.cpu for t in repo_times)
    repo_svc.close()

    results["rebuild_events"] = events
    results["rebuild_fold_ev_s"] = round(fold_rate)
    results["rebuild_fold_ms"] = round(events / fold_rate * 1000, 2)
    results["rebuild_repository_ev_s"] = round(repo_rate)
    results["rebuild_repository_ms"] = round(events / repo_rate * 1000, 2)
    row(
        f"(a) svc.fold(gid, use_snapshot=False), every one of {events:,} events",
        fmt_rate(fold_rate),
        f"{events / fold_rate * 1000:.1f} ms CPU; " + target(fold_rate >= 150_000, ">= 150k ev/s"),
    )
    row(
        "(b) repository.get(project_game), no cache/snapshots",
        fmt_rate(repo_rate),
        f"{events / repo_rate * 1000:.1f} ms CPU",
    )


# --- 4: per-action latency on a 1,000-event game ------------------------------------------------------------


def latency(work: Workdir, cfg: dict[str, Any], env: dict[str, str] | None, label: str) -> list[Spent]:
    db = work.fresh(label)
    builder = GameService(db)
    gid = build_batched(builder, cfg["latency_events"])
    builder.close()
    svc = GameService(db, env=env)  # fresh instance: the first call warms the cache (if any)
    player = current_player(svc.fold(gid))
    take = svc.take_action
    times = []
    gc.collect()
    for _ in range(cfg["latency_actions"]):
        with stopwatch() as spent:
            _, recorded = take(gid, player, "roll")
        times.append(spent * 1000)
        player = next_player_from(recorded, player)
    svc.close()
    return times


def bench_latency(work: Workdir, cfg: dict[str, Any], results: dict[str, Any]) -> None:
    n, k = cfg["latency_events"], cfg["latency_actions"]
    section(f"4. ms per svc.take_action on a ~{n:,}-event game ({k} actions, fresh service on the file)")
    for key, env, label in (
        ("cache", None, "aggregate cache on (default, 64)"),
        ("nocache", NO_CACHE, "aggregate cache off"),
    ):
        both = latency(work, cfg, env, key)
        times = [t.cpu for t in both]
        mean, median = statistics.fmean(times), statistics.median(times)
        results[f"wall_action_ms_{key}_median"] = round(statistics.median(t.wall for t in both), 3)
        results[f"action_ms_{key}_mean"] = round(mean, 3)
        results[f"action_ms_{key}_median"] = round(median, 3)
        results[f"action_ms_{key}_first"] = round(times[0], 3)
        results[f"action_ms_{key}_p95"] = round(sorted(times)[int(len(times) * 0.95) - 1], 3)
        note = f"first call {times[0]:.2f} ms, p95 {results[f'action_ms_{key}_p95']:.2f} ms"
        if key == "cache":
            note += "; " + target(mean <= 2.0 and median <= 2.0, "<= 2 ms")
        row(f"{label}: mean", f"{mean:.3f} ms CPU", note)
        row(
            f"{label}: median",
            f"{median:.3f} ms CPU",
            f"wall {results[f'wall_action_ms_{key}_median']:.3f} ms",
        )
    gain = results["action_ms_nocache_mean"] / results["action_ms_cache_mean"]
    results["action_cache_speedup_mean"] = round(gain, 2)
    row("what the cache buys (mean no-cache / mean cache)", f"{gain:.1f}x")


# --- 5: bot games -----------------------------------------------------------------------------------------


def bench_bots(work: Workdir, cfg: dict[str, Any], results: dict[str, Any]) -> None:
    section("5. bot games: dungeon-short, 3 players, play_with_bots(svc, gid, seed=i)")
    try:
        rulesets.get_ruleset("dungeon-short")
    except Exception as exc:  # the ruleset is being written by someone else right now
        print(f"dungeon-short not available ({type(exc).__name__}: {exc})")
        results["bot_games"] = "dungeon-short not available"
        return
    for store, db in (("memory", ":memory:"), ("sqlite", work.fresh("bots"))):
        svc = GameService.open(db)
        gids: list[UUID] = []
        elapsed = Spent()
        try:
            for i in range(cfg["bot_games"]):
                with stopwatch() as spent:
                    gid = svc.create_game("dungeon-short", PLAYERS)
                    play_with_bots(svc, gid, seed=i)
                elapsed += spent
                gids.append(gid)
                if elapsed.cpu > cfg["bot_budget_s"]:
                    break
        except Exception as exc:
            print(f"dungeon-short failed on {store} after {len(gids)} games: {type(exc).__name__}: {exc}")
            results[f"bot_error_{store}"] = f"{type(exc).__name__}: {exc}"
            if not gids:
                continue
        events = [svc.get_game(g).version for g in gids]
        rate = len(gids) / elapsed.cpu
        results[f"bot_games_{store}_per_s"] = round(rate, 3)
        results[f"wall_bot_games_{store}_per_s"] = round(len(gids) / elapsed.wall, 3)
        results[f"bot_games_{store}_played"] = len(gids)
        results[f"bot_events_per_game_{store}_mean"] = round(statistics.fmean(events), 1)
        row(
            f"{store}: full games/s ({len(gids)} games)",
            f"{rate:.2f} games/s",
            f"mean {statistics.fmean(events):.0f} events/game, {sum(events) / elapsed.cpu:,.0f} ev/s stored",
        )
        folds: list[Spent] = []
        for _ in range(cfg["reps"]):
            gc.collect()
            with stopwatch() as spent:
                for g in gids:
                    svc.fold(g, use_snapshot=False)
            folds.append(spent)
        fold_rate = sum(events) / min(t.cpu for t in folds)
        results[f"bot_fold_{store}_ev_s"] = round(fold_rate)
        if store == "sqlite":
            note = f"{sum(events)} events; " + target(fold_rate >= 150_000, ">= 150k ev/s")
        else:
            note = f"{sum(events)} events (library read path)"
        row(f"{store}: svc.fold over those games", fmt_rate(fold_rate), note)
        svc.close()


# --- main -------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shrink every count for a smoke run")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    work = Workdir()
    results: dict[str, Any] = {
        "mode": "quick" if args.quick else "full",
        "python": sys.version.split()[0],
        "eventsourcing": importlib.metadata.version("eventsourcing"),
        "cpus": os.cpu_count(),
    }
    print(f"nightkeep store benchmark ({results['mode']}); temp dir {work.root}; python {results['python']}")
    print(f"{'measurement':<58} {'result':>16}  notes (rates and targets in CPU time)")
    cpu, t0 = time.process_time(), time.perf_counter()
    results["clock"] = "cpu"
    try:
        bench_append(work, cfg, results)
        bench_rebuild(work, cfg, results)
        bench_latency(work, cfg, results)
        bench_bots(work, cfg, results)
    finally:
        work.cleanup()
    results["cpu_s"] = round(time.process_time() - cpu, 1)
    results["wall_s"] = round(time.perf_counter() - t0, 1)
    print(f"\ntotal {results['cpu_s']} s CPU, {results['wall_s']} s wall")
    print(json.dumps(results, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
