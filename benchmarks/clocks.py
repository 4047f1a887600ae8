"""The clocks every benchmark reads: CPU time beside wall time, for calls in this process and for whole
child processes.

Why CPU time: on this shared 2-core machine the wall-clock ratio of the same two calls swung 0.34-1.28x
under other jobs' load while CPU time held to about 5% (issue 28). So every benchmark prints both and
judges its target on CPU; wall time is printed for what a user waits, never for a verdict.

- `Spent` is what one call (or a run of calls) cost: CPU seconds (this process's user + sys,
  time.process_time) and wall seconds (time.perf_counter).
- `stopwatch()` times a block; `timed(fn, *args)` a call.
- `run_child(argv)` runs a process to the end and returns its own CPU (user + sys from os.wait4, so
  only that child's), wall time and peak resident memory (ru_maxrss), through a small spawner.
- `postmaster_of(url)` and `server_cpu(pid)` read a local PostgreSQL server's processes' CPU from /proc.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
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


# The process that starts each measured command: a bare Python with a small image. A child forked from
# this (big) benchmark process would report this process's memory as its own peak (Linux counts the
# image it had before exec in ru_maxrss), so a small spawner forks it instead and reports what os.wait4
# says of it: its own CPU (user + sys), its wall time from fork to exit, its peak RSS and exit status.
SPAWNER = """
import json, os, sys, time
began = time.perf_counter()
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - began
print(json.dumps([usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss, os.waitstatus_to_exitcode(status)]))
"""


def run_child(argv: Sequence[str], env: dict[str, str] | None = None) -> Child:
    """Runs a process to its end, stdin, stdout and stderr on /dev/null; returns its own cost, from
    os.wait4 in a small spawner process (see SPAWNER)."""
    done = subprocess.run(
        [sys.executable, "-c", SPAWNER, *argv], env=env, capture_output=True, text=True, check=True
    )
    cpu, wall, maxrss, returncode = json.loads(done.stdout)
    # ru_maxrss is KiB on Linux, bytes on macOS.
    mib = maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return Child(Spent(cpu, wall), mib, returncode)


# --- a PostgreSQL server's CPU ----------------------------------------------------------------------------
# A client that waits on its server spends little CPU of its own: a PostgreSQL benchmark reads the server's
# processes' CPU too, when the server runs on this machine.

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def postmaster_of(url: str) -> int | None:
    """Returns the pid of the server's postmaster when it runs on this machine (the parent of the backend
    that serves a new connection), else None."""
    import psycopg

    with psycopg.connect(url.split("?")[0], autocommit=True) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
        # Read while the connection is open: its backend ends when it closes.
        try:
            stat = Path(f"/proc/{row[0] if row else 0}/stat").read_text()
        except OSError:  # not on this machine (or /proc hides it)
            return None
    return int(stat.rsplit(")", 1)[1].split()[1])  # ppid


def server_cpu(postmaster: int) -> float:
    """Returns the CPU seconds the server's processes have used so far: the postmaster's own and its
    reaped children's, plus every live child's."""
    seconds = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # a process that ended meanwhile: its time is in the postmaster's reaped time
            continue
        pid, ppid = int(stat.parent.name), int(fields[1])
        if pid == postmaster:
            seconds += sum(int(f) for f in fields[11:15]) / TICK  # utime, stime, cutime, cstime
        elif ppid == postmaster:
            seconds += (int(fields[11]) + int(fields[12])) / TICK
    return seconds


def both(spent: Spent, scale: float = 1000.0, unit: str = "ms") -> str:
    """Formats a cost as 'CPU x ms (wall y ms)'."""
    return f"{spent.cpu * scale:.1f} {unit} CPU ({spent.wall * scale:.1f} wall)"
