"""What PostgreSQL's backends wait on during a load run: `pg_stat_activity` sampled every few ms.

A backend serving a game process is either waiting for the process's next statement (idle, `ClientRead`:
the time is spent in Python or in the operating system's scheduler), or active: running (no wait
event), waiting on a lock (`Lock/relation`: the library's `LOCK TABLE ... IN EXCLUSIVE MODE` of the
events table; `Lock/object`: the cluster-wide queue lock a `NOTIFY` takes while it commits), or on the
disk (`IO/WALSync`, `LWLock/WALWrite`: the commit's flush). Shares of samples are reported, which is
what lets a run on a noisy machine still say where a store's time goes.
"""

from __future__ import annotations

import time
from collections import Counter

SAMPLE_EVERY_S = 0.01
QUERY = (
    "SELECT state, coalesce(wait_event_type, ''), coalesce(wait_event, '') FROM pg_stat_activity "
    "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND datname = ANY(%s)"
)


def sample_waits(url: str, databases: list[str], seconds: float) -> dict[str, float]:
    """Samples the backends of some databases for `seconds`; returns each state's share of samples."""
    import psycopg

    seen: Counter[str] = Counter()
    deadline = time.perf_counter() + seconds
    with psycopg.connect(url, autocommit=True) as conn:
        while time.perf_counter() < deadline:
            for state, kind, event in conn.execute(QUERY, [databases]).fetchall():
                seen[_label(state, kind, event)] += 1
            time.sleep(SAMPLE_EVERY_S)
    total = sum(seen.values()) or 1
    return {label: round(count / total, 3) for label, count in seen.most_common()}


def _label(state: str, kind: str, event: str) -> str:
    if state != "active":
        if state == "idle":
            return "idle: waiting for the client"
        return state + (f": {kind}/{event}" if kind else "")
    return f"active: {kind}/{event}" if kind else "active: running"


def summary(shares: dict[str, float], top: int = 4) -> str:
    """Writes the largest shares on one line (a saved run's shares may come back in any order)."""
    largest = sorted(shares.items(), key=lambda item: -item[1])[:top]
    return ", ".join(f"{label} {share:.0%}" for label, share in largest)
