"""Fuzzing every door a log comes in by: import, replay FILE and audit (DESIGN.md, "One reader").

Bit flips, truncation, deep nesting, wrong types, huge integers and lengths, duplicated, swapped,
dropped and inserted events, re-chained forgeries and header edits (tests/log_mutations.py) of
recorded games: no door raises anything but nightkeep's one-line errors, a refused import leaves the
store as it was, replay and audit agree, and import stores nothing but the genuine history or a
prefix of it. The same cases run by the hundred thousand in benchmarks/soak_doors.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import cli
from event_store.app.service import GameService
from tests.log_mutations import MUTATIONS, check_doors, fresh_store, store_snapshot

pytestmark = pytest.mark.slow  # fuzzing every door a log comes in by

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
# A Dungeon game with scripted dice, a Keep run, a Dungeon fork and the castle game's public copy.
BASES = [
    REPLAYS / name
    for name in (
        "dungeon-short-2p-scripted-001.nkr",
        "keep-run-3p-001.nkr",
        "dungeon-short-3p-fork-001.nkr",
        "vampire-empire-001-public.nkr",
    )
]
ORIGINALS = {path.name: path.read_bytes() for path in BASES}

cases = st.tuples(st.sampled_from(sorted(ORIGINALS)), st.sampled_from(sorted(MUTATIONS)), st.randoms())


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(cases)
def test_no_door_crashes_writes_half_or_takes_in_a_forgery(case):
    name, mutation, rng = case
    original = ORIGINALS[name]
    data = MUTATIONS[mutation](original, random.Random(rng.random()))
    check_doors(original, data, fresh_store())


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_every_kind_of_mutation_is_refused_somewhere(mutation):
    """Each mutation makes files the doors refuse (a mutation that never changed anything would prove
    nothing above)."""
    refused = 0
    for seed in range(30):
        name = sorted(ORIGINALS)[seed % len(ORIGINALS)]
        data = MUTATIONS[mutation](ORIGINALS[name], random.Random(seed))
        refused += not check_doors(ORIGINALS[name], data, fresh_store()).imported
    assert refused >= 10


def test_the_genuine_files_pass_every_door():
    for name, data in ORIGINALS.items():
        outcome = check_doors(data, data, fresh_store())
        assert outcome.clean and outcome.replayed and outcome.imported, name


def test_a_sqlite_store_is_left_as_it_was_by_every_refused_import(new_store, tmp_path):
    service = GameService.open(new_store("store"))
    check_doors(ORIGINALS[BASES[1].name], ORIGINALS[BASES[1].name], service)  # one genuine game in it
    rng = random.Random(5)
    for index in range(60):
        name = sorted(ORIGINALS)[index % len(ORIGINALS)]
        data = MUTATIONS[sorted(MUTATIONS)[index % len(MUTATIONS)]](ORIGINALS[name], rng)
        before = store_snapshot(service)
        if not check_doors(ORIGINALS[name], data, service).imported:
            assert store_snapshot(service) == before


@pytest.mark.parametrize("seed", range(12))
def test_the_cli_doors_answer_a_mutated_file_in_one_line(new_store, tmp_path, seed):
    """The same files through the real commands: exit 0, 1 or 2 and at most one line on stderr."""
    rng = random.Random(seed)
    name = sorted(ORIGINALS)[seed % len(ORIGINALS)]
    mutation = sorted(MUTATIONS)[seed % len(MUTATIONS)]
    path = tmp_path / "mutated.nkr"
    path.write_bytes(MUTATIONS[mutation](ORIGINALS[name], rng))
    db = new_store("doors")
    for args in (["audit", str(path)], ["replay", str(path), "--no-interactive"], ["import", str(path)]):
        result = CliRunner().invoke(cli, ["--db", db, *args])
        assert result.exit_code in (0, 1, 2), (mutation, args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), (mutation, args)
        assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) <= 1, (
            mutation,
            args,
            result.stderr,
        )
