"""Runs a benchmark's --quick mode as a user runs it, for the tests that keep every benchmark working:
its own process, the project on PYTHONPATH, and its last line read as the JSON figures it promises.
No timing is asserted: on a shared machine a figure says nothing a test can hold."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
QUICK_RUN_SECONDS = 600  # a hung benchmark fails here, not the whole suite


def benchmark_scripts() -> list[str]:
    """Returns every script in benchmarks/ a user runs (those with a main), by file name."""
    return sorted(p.name for p in BENCHMARKS.glob("*.py") if 'if __name__ == "__main__":' in p.read_text())


def run_quick(script: str, *options: str, cwd: Path) -> Any:
    """Runs `python benchmarks/SCRIPT --quick OPTIONS…`; fails unless it exits 0 with a JSON last line,
    and returns that line's value."""
    env = {
        **os.environ,
        "NO_COLOR": "1",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("NIGHTKEEP_DB", None)
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--quick", *options],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=QUICK_RUN_SECONDS,
    )
    assert done.returncode == 0, (
        f"{script} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    lines = done.stdout.strip().splitlines()
    assert lines, f"{script} printed nothing"
    return json.loads(lines[-1])


def missing_keys(figures: Any, expected: set[str]) -> set[str]:
    """Returns the expected keys the figures lack (every row of a list of rows must have them)."""
    rows = figures if isinstance(figures, list) else [figures]
    assert rows and all(isinstance(row, dict) for row in rows), figures
    return {key for row in rows for key in expected if key not in row}
