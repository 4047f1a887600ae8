"""The fold and field-type paths side by side: this tree's closures against the `exec`-generated code of
an earlier revision (issue 27 item 7), in one process, on every file in replays/.

Run from a clone (git must be able to show the earlier revision):

    python benchmarks/bench_fold_paths.py                # best of 7 rounds
    python benchmarks/bench_fold_paths.py --quick        # best of 2 (a smoke run, a few seconds)
    python benchmarks/bench_fold_paths.py --against REV  # another revision's generated code

Set-up, not timed: every replay file is read (the one reader) into stored envelopes and decoded events;
`domain/folding.py` and `domain/field_types.py` of REV are loaded as modules of their own beside this
tree's (they import this tree's `domain.game` and `domain.events`).

Timed, the two sides interleaved round by round so background load hits both alike, CPU time
(`time.process_time`) beside wall (`time.perf_counter`), the best round of each:
- fold: `fold_envelopes` of every file into a fresh GameFold (its per-type steps made on first use, as
  every fold does), each pass folding all files;
- check: the per-type fields checker (`fields_checker`, made once per type) on every event of every file;
- read: the one reader (`read_replay`: shape, chain, every field's type) on every file, each side's
  `fields_checker` put where the reader takes it from and its per-type caches emptied first.
Both sides' results are compared (the folded state and chain; every checker's answer) before timing.

Output: a table, then one JSON line with every figure; each ratio is closure ÷ exec (above 1: the
closures are slower).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))

import domain.audit.reading  # noqa: E402
import domain.events  # noqa: E402
from domain import field_types, folding  # noqa: E402
from domain.events import Event  # noqa: E402
from domain.events import field_types as spec_of  # noqa: E402
from domain.game import GameFold  # noqa: E402
from event_store.app.replay_file import read_replay  # noqa: E402

# The last revision whose fold and field checks were generated source run with `exec`.
EXEC_REVISION = "c1119db"


def load_revision(revision: str, folder: Path) -> tuple[ModuleType, ModuleType]:
    """Loads `domain/folding.py` and `domain/field_types.py` as they were at `revision`."""
    modules = []
    for name in ("folding", "field_types"):
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{revision}:domain/{name}.py"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        path = folder / f"exec_{name}.py"
        path.write_text(source)
        spec = importlib.util.spec_from_file_location(f"exec_{name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
        modules.append(module)
    return modules[0], modules[1]


def read_replays() -> list[tuple[list[dict[str, Any]], list[Event]]]:
    """Returns every replay file's stored envelopes and decoded events."""
    files = []
    for path in sorted((ROOT / "replays").glob("*.nkr")):
        recorded = read_replay(path.read_bytes(), path.name).events
        envelopes = [
            {"type": r.type_name, "v": r.class_version, "fields": r.fields, "chain": r.chain}
            for r in recorded
        ]
        files.append((envelopes, [r.event for r in recorded]))
    return files


def fold_all(fold_envelopes: Callable[[Any, Any], None], files: list[Any]) -> list[GameFold]:
    folds = []
    for envelopes, _ in files:
        fold = GameFold()
        fold_envelopes(fold, envelopes)
        folds.append(fold)
    return folds


def checkers(fields_checker: Callable[[Any], Callable[[Any], bool]], files: list[Any]) -> dict[type, Any]:
    return {type(e): fields_checker(spec_of(type(e))) for _, events in files for e in events}


def check_all(checks: dict[type, Callable[[Any], bool]], files: list[Any]) -> int:
    held = 0
    for _, events in files:
        for event in events:
            held += checks[type(event)](event)
    return held


def read_all(fields_checker: Callable[[Any], Callable[[Any], bool]], blobs: list[bytes]) -> None:
    """Reads every file through the one reader with this `fields_checker`, its caches empty."""
    domain.events.fields_checker = fields_checker
    domain.audit.reading.fields_checker = fields_checker
    for cache in (
        domain.events._FIELD_SPECS,
        domain.events._FIELD_CHECKS,
        domain.audit.reading._PLAIN_CLASSES,
    ):
        cache.clear()
    for blob in blobs:
        read_replay(blob)


def timed(fn: Callable[[], Any]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - cpu, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="best of 2 rounds (a smoke run)")
    parser.add_argument("--against", default=EXEC_REVISION, help="the revision whose generated code to run")
    parser.add_argument("--rounds", type=int, default=0, help="rounds (default 7; 2 with --quick)")
    args = parser.parse_args(argv)
    rounds = args.rounds or (2 if args.quick else 7)
    with tempfile.TemporaryDirectory() as folder:
        exec_folding, exec_field_types = load_revision(args.against, Path(folder))
        files = read_replays()
        blobs = [path.read_bytes() for path in sorted((ROOT / "replays").glob("*.nkr"))]
        events = sum(len(envelopes) for envelopes, _ in files)
        sides = {
            "closure": (folding.fold_envelopes, field_types.fields_checker),
            "exec": (exec_folding.fold_envelopes, exec_field_types.fields_checker),
        }
        # Same answers first: the folded games, and every checker on every event.
        folded = {side: fold_all(fold, files) for side, (fold, _) in sides.items()}
        assert [(f.state, f.chain, f.meta, f.version) for f in folded["closure"]] == [
            (f.state, f.chain, f.meta, f.version) for f in folded["exec"]
        ]
        checks = {side: checkers(make, files) for side, (_, make) in sides.items()}
        assert check_all(checks["closure"], files) == check_all(checks["exec"], files) == events
        best: dict[str, list[float]] = {}
        for _ in range(rounds):
            for side, (fold, _) in sides.items():
                for what, fn in (
                    ("fold", lambda fold=fold: fold_all(fold, files)),
                    ("check", lambda side=side: check_all(checks[side], files)),
                    ("read", lambda make=sides[side][1]: read_all(make, blobs)),
                ):
                    cpu, wall = timed(fn)
                    key = f"{what}_{side}"
                    old = best.get(key, [float("inf"), float("inf")])
                    best[key] = [min(old[0], cpu), min(old[1], wall)]
    figures: dict[str, Any] = {
        "files": len(files),
        "events": events,
        "rounds": rounds,
        "against": args.against,
    }
    print(f"{len(files)} replay files, {events} events; best of {rounds} rounds, sides interleaved")
    head = f"{'closure cpu':>13}{'exec cpu':>10}{'ratio':>7}{'closure wall':>14}{'exec wall':>11}{'ratio':>7}"
    print(f"{'':8}{head}")
    for what in ("fold", "check", "read"):
        (c_cpu, c_wall), (e_cpu, e_wall) = best[f"{what}_closure"], best[f"{what}_exec"]
        figures[what] = {
            "closure_cpu_ms": round(c_cpu * 1000, 2),
            "exec_cpu_ms": round(e_cpu * 1000, 2),
            "cpu_ratio": round(c_cpu / e_cpu, 3),
            "closure_wall_ms": round(c_wall * 1000, 2),
            "exec_wall_ms": round(e_wall * 1000, 2),
            "wall_ratio": round(c_wall / e_wall, 3),
        }
        f = figures[what]
        print(
            f"{what:8}{f['closure_cpu_ms']:>10.1f} ms{f['exec_cpu_ms']:>7.1f} ms{f['cpu_ratio']:>7.2f}"
            f"{f['closure_wall_ms']:>11.1f} ms{f['exec_wall_ms']:>8.1f} ms{f['wall_ratio']:>7.2f}"
        )
    read_all(field_types.fields_checker, [])  # this tree's checker back in place
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
