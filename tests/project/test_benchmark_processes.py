"""The --quick runs of the benchmarks that time whole processes or need a PostgreSQL server end well and
print the figures they promise (issue 28). No timing is asserted. The PostgreSQL ones are given the
tests' server (tests/pg_server.py) instead of starting their own, and the Citus one the tests' cluster
(tests/citus_cluster.py) too."""

from __future__ import annotations

import pytest

from tests.benchmark_runs import missing_keys, run_quick

pytestmark = pytest.mark.slow

PROCESSES = {
    "bench_cli.py": {"startup", "listing", "verdicts", "clock"},
    "soak_doors.py": {"cases", "cpu_s", "wall_s", "tracebacks"},
}
WITH_POSTGRES = {
    "bench_pg_actions.py": {"cpu_ratio", "wall_ratio", "round_trips", "sqlite", "postgresql"},
    "bench_load.py": {"append", "load", "targets"},
}
WITH_CITUS = {"bench_citus.py": {"append", "load", "ratios", "append_ratios", "servers"}}
# bench_load's quick run made smaller still: one process, one second a configuration, a few events.
LOAD_OPTIONS = ["--seconds", "1", "--processes", "1", "--games", "2"]
LOAD_OPTIONS += ["--append-events", "500", "--reps", "1", "--json"]


@pytest.mark.parametrize("script", sorted(PROCESSES))
def test_a_quick_run_of_whole_processes_ends_well_and_prints_its_figures(script, tmp_path):
    figures = run_quick(script, cwd=tmp_path)
    assert not missing_keys(figures, PROCESSES[script])


def test_the_show_benchmark_reads_each_command_s_own_peak_memory(tmp_path):
    figures = run_quick("bench_show.py", cwd=tmp_path)
    assert not missing_keys(figures, {"long_over_short_cpu", "long_over_short_wall", "maxrss_mib", "verdict"})
    # Each command's own peak, not the benchmark process's: `python -c pass` stays the smallest.
    peaks = figures["maxrss_mib"]
    assert min(peaks, key=peaks.get) == "python -c pass"


def test_the_postgresql_bot_game_benchmark_runs_on_the_tests_server(postgres_server, tmp_path):
    figures = run_quick("bench_pg_actions.py", "--pg-url", postgres_server.url(), cwd=tmp_path)
    assert not missing_keys(figures, WITH_POSTGRES["bench_pg_actions.py"])
    assert figures["round_trips"]["actions"] > 0  # the traced game was played


def test_the_load_benchmark_runs_on_the_tests_server(postgres_server, tmp_path):
    figures = run_quick("bench_load.py", "--pg-url", postgres_server.url(), *LOAD_OPTIONS, cwd=tmp_path)
    assert not missing_keys(figures, WITH_POSTGRES["bench_load.py"])
    on_postgres = [row for row in figures["load"] if row["store"] == "postgresql"]
    assert on_postgres and all(row["server_cpu_ms_per_action"] is not None for row in on_postgres)


def test_the_citus_benchmark_runs_on_the_tests_servers(postgres_server, citus_cluster, tmp_path):
    given = ["--pg-url", postgres_server.url(), "--citus-url", citus_cluster.url()]
    figures = run_quick("bench_citus.py", *given, *LOAD_OPTIONS, cwd=tmp_path)
    assert not missing_keys(figures, WITH_CITUS["bench_citus.py"])
    # Both stores played, and every server's CPU was read: the coordinator's and each worker's.
    assert {row["store"] for row in figures["load"]} == {"postgresql", "citus"}
    on_citus = [row for row in figures["load"] if row["store"] == "citus"]
    assert all(row["coordinator_cpu_ms_per_action"] is not None for row in on_citus)
    assert all(len(row["workers_cpu_ms_per_action"]) == 2 for row in on_citus)
    assert {row["pass"] for row in figures["append"]} == {
        "citus recorder",
        "citus COPY",
        "citus COPY, 1 connection per worker",
        "postgresql recorder",
        "postgresql COPY",
    }
