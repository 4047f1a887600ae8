"""Every benchmark's --quick run ends well and prints the figures it promises (issue 28: a benchmark never
breaks unnoticed). Each runs as its own process, as a user runs it; no timing is asserted.

The benchmarks that run whole processes or need a server are in test_benchmark_processes.py (a second
module, so the two halves run on two workers)."""

from __future__ import annotations

import subprocess

import pytest

from tests.benchmark_runs import ROOT, benchmark_scripts, missing_keys, run_quick

pytestmark = pytest.mark.slow

# Script -> keys its JSON line must have (the figures the table and the verdicts are read from).
IN_PROCESS = {
    "bench_action.py": {"audit_ratio", "fold_every_event_ratio", "clock", "cpu_s"},
    "bench_audit.py": {"ratio", "wall_ratio", "verdict", "clock", "cpu_s"},
    "bench_castle.py": {
        "decider_games_per_s",
        "wall_decider_games_per_s",
        "sealed_audit_ratio_public_to_host",
    },
    "bench_club_mail.py": {"pass_cpu_ms", "pass_wall_ms", "pass_over_local_cpu"},
    "bench_host_packets.py": {"late_over_early", "runs", "clock", "cpu_s"},
    "bench_mail_size.py": {"dungeon-short"},
    "bench_pictures.py": {"dungeon-short", "python-chess"},
    "bench_play.py": {"prefix", "timeline", "clock"},
    "bench_read_side.py": {"events", "batch_20_events_per_s", "batch_20_events_per_wall_s", "clock"},
    "bench_store.py": {"append_single_msgpack_ev_s", "rebuild_fold_ev_s", "clock", "cpu_s"},
    "bench_talisman.py": {"audit_ratio", "wall_audit_ratio", "meets_target", "clock"},
    "bench_turn_keys.py": {"dungeon-short", "clock"},
    "bench_views.py": {"dungeon-short"},
}
# Not run here, and why.
NOT_RUN = {
    "fuzz_hostile_mail.py": "its engine, tests/hostile_run.run_hostile, is tests/pbem/test_hostile_mail.py's "
    "own fuzz sample; even --quick plays two whole games through the host (minutes of CPU)",
}
# Needs git: it loads an earlier revision's code (`git show`), so it runs from a clone only.
FROM_A_CLONE = {"bench_fold_paths.py": {"fold", "check", "read"}}


@pytest.mark.parametrize("script", sorted(IN_PROCESS))
def test_a_quick_run_ends_well_and_prints_its_figures(script, tmp_path):
    figures = run_quick(script, cwd=tmp_path)
    assert not missing_keys(figures, IN_PROCESS[script])


def test_the_fold_paths_benchmark_runs_from_a_clone(tmp_path):
    inside = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--is-inside-work-tree"], capture_output=True
    )
    if inside.returncode != 0:
        pytest.skip("not a git clone (an sdist): bench_fold_paths reads an earlier revision with git show")
    held = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", "c1119db^{commit}"], capture_output=True)
    if held.returncode != 0:
        pytest.skip(
            "a shallow clone: bench_fold_paths compares with revision c1119db, which it does not hold"
        )
    figures = run_quick("bench_fold_paths.py", cwd=tmp_path)
    assert not missing_keys(figures, FROM_A_CLONE["bench_fold_paths.py"])


def test_the_packet_benchmark_measures_every_rung_of_its_ladder(tmp_path):
    figures = run_quick("bench_packets.py", cwd=tmp_path)
    assert not missing_keys(figures, {"ladder", "dungeon_short", "clock", "cpu_s"})
    ladder = figures["ladder"]
    assert len(ladder["rungs"]) == 2
    assert all(rung["held"] > 0 and rung["replica_ratio_cpu"] > 0 for rung in ladder["rungs"])
    assert ladder["replica_verdict"] in ("PASS", "FAIL") and ladder["host_verdict"] in ("PASS", "FAIL")


def test_every_benchmark_has_a_quick_run_in_the_suite():
    from tests.project.test_benchmark_processes import PROCESSES, WITH_CITUS, WITH_POSTGRES

    covered = IN_PROCESS.keys() | FROM_A_CLONE.keys() | PROCESSES.keys() | WITH_POSTGRES.keys()
    covered |= WITH_CITUS.keys()
    covered |= {"bench_packets.py", "bench_show.py"}  # each has a test of its own above or there
    covered |= NOT_RUN.keys()
    assert set(benchmark_scripts()) == covered
