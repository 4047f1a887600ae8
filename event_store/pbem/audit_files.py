"""Auditing many replay files at once, in worker processes when there are several cores.

An audit is pure CPU work per file (parse, chain, re-decide, recompute the dice), and tournament
archives hold hundreds of games, so files are spread over processes. Results come back in the order
the files were given, one at a time, so a caller can show progress.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

from domain.audit import AuditReport
from domain.errors import NightkeepError
from event_store.app.replay_file import audit_replay
from event_store.log_reader import read_file
from event_store.pbem.proofs import is_proof_file

# Below this many files a pool's start-up costs more than it saves.
MIN_FILES_FOR_WORKERS = 4
# More workers than this would only thrash (and a huge --jobs must not fork without end).
MAX_JOBS = 64

AuditResult = tuple[str, AuditReport | None, str]


def audit_file(path: str) -> AuditResult:
    """Audits one replay file; returns (path, report, "") or (path, None, why it is unreadable)."""
    try:
        data = read_file(path)
    except NightkeepError as exc:
        return path, None, str(exc)
    try:
        report = audit_replay(data, path)
    except NightkeepError as exc:
        if is_proof_file(data):  # a proof against a host is checked with its fingerprint, by verify
            return (
                path,
                None,
                f"{path} is a proof file: nightkeep verify {path} --host-key FINGERPRINT checks it",
            )
        return path, None, str(exc)
    report.decoded = []  # the events stay here: a worker process sends back only the findings
    return path, report, ""


def default_jobs(files: int) -> int:
    """Returns how many worker processes suit this many files on this machine."""
    if files < MIN_FILES_FOR_WORKERS:
        return 1
    return max(1, min(os.cpu_count() or 1, files))


def audit_files(paths: Sequence[str], jobs: int | None = None) -> Iterator[AuditResult]:
    """Audits replay files, in `jobs` worker processes (default: one per core for many files)."""
    jobs = default_jobs(len(paths)) if jobs is None else max(1, min(jobs, MAX_JOBS, len(paths) or 1))
    if jobs == 1:
        yield from (audit_file(path) for path in paths)
        return
    chunk = max(1, len(paths) // (jobs * 8))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(audit_file, paths, chunksize=chunk)
