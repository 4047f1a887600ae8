"""The clocks every benchmark reads: CPU time beside wall time, for calls in this process and for whole
child processes.

Why CPU time: on this shared 2-core machine the wall-clock ratio of the same two calls swung 0.34-1.28x
under other jobs' load while CPU time held to about 5% (issue 28). So every benchmark prints both and
judges its target on CPU; wall time is printed for what a user waits, never for a verdict.

- `Spent` is what one call (or a run of calls) cost: CPU seconds (this process's user + sys,
  time.process_time) and wall seconds (time.perf_counter).
- `stopwatch()` times a block; `timed(fn, *args)` a call.
- `run_child(argv)` runs a process to the end and returns its own CPU (user + sys from os.wait4, so
  only that child's), wall time and peak resident memory (ru_maxrss).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass
class Spent:
    """CPU and wall seconds spent by one call, a run of calls, or a child process."""

    cpu: float = 0.0
    wall: float = 0.0

    def __add__(self, other: Spent) -> Spent:
        return Spent(self.cpu + other.cpu, self.wall + other.wall)

    def __mul__(self, n: float) -> Spent:
        return Spent(self.cpu * n, self.wall * n)

    def __truediv__(self, n: float) -> Spent:
        return Spent(self.cpu / n, self.wall / n)

    def ratio(self, other: Spent) -> Spent:
        """Returns this cost over another's, clock by clock."""
        return Spent(self.cpu / other.cpu, self.wall / other.wall)


def total(spent: Sequence[Spent]) -> Spent:
    """Adds up a run of costs."""
    return sum(spent, Spent())


def best(spent: Sequence[Spent]) -> Spent:
    """Returns the cheapest run on each clock (best of N, CPU and wall each their own best)."""
    return Spent(min(s.cpu for s in spent), min(s.wall for s in spent))


def median(spent: Sequence[Spent]) -> Spent:
    """Returns the median run on each clock."""
    cpus, walls = sorted(s.cpu for s in spent), sorted(s.wall for s in spent)
    middle = len(spent) // 2
    if len(spent) % 2:
        return Spent(cpus[middle], walls[middle])
    return Spent((cpus[middle - 1] + cpus[middle]) / 2, (walls[middle - 1] + walls[middle]) / 2)


@contextmanager
def stopwatch() -> Iterator[Spent]:
    """Times the block: the yielded Spent is filled in when the block ends."""
    spent = Spent()
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        yield spent
    finally:
        spent.cpu, spent.wall = time.process_time() - cpu, time.perf_counter() - wall


def timed(fn: Callable[..., T], *args: Any) -> tuple[T, Spent]:
    """Calls `fn(*args)` once; returns its result and what it cost."""
    with stopwatch() as spent:
        result = fn(*args)
    return result, spent


@dataclass
class Child:
    """What one child process cost: its own CPU and wall time, its peak memory and its exit status."""

    spent: Spent
    maxrss_mib: float
    returncode: int


def run_child(argv: Sequence[str], env: dict[str, str] | None = None, stdin: int | None = None) -> Child:
    """Runs a process to its end with stdout and stderr to /dev/null; returns its cost, from os.wait4
    (so another child of this process running at the same time is not counted)."""
    wall = time.perf_counter()
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL if stdin is None else stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - wall
    proc.returncode = os.waitstatus_to_exitcode(status)
    # ru_maxrss is KiB on Linux, bytes on macOS.
    maxrss = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return Child(Spent(usage.ru_utime + usage.ru_stime, elapsed), maxrss, proc.returncode)


def both(spent: Spent, scale: float = 1000.0, unit: str = "ms") -> str:
    """Formats a cost as 'CPU x ms (wall y ms)'."""
    return f"{spent.cpu * scale:.1f} {unit} CPU ({spent.wall * scale:.1f} wall)"
