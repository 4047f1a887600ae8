"""What checking every draw on receipt costs a replica: the same packets received with per-turn key
checks (today) and with them switched off (the draws of a running game left unverified, as before
per-turn keys), in one run, in CPU time.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_turn_keys.py            # ~1 minute on 2 cores
    python benchmarks/bench_turn_keys.py --quick    # dungeon-short, once: a smoke run

A seeded game of each scenario is played once by packets (tests/pbem_table.py: a host, a replica per
signing seat, every key in one folder) and every packet each seat received is kept. Then, run after run,
each seat's packets are received again into a fresh replica store, timed with time.process_time around
each `Replica.receive` (time.perf_counter's wall time beside it), alternately with the checks on and
off: on, the audit checks each action's key against the committed chain and recomputes every public die
and pick with it (and a seat's own private draws with its private key); off, the audit is given no key
and no key check, so the dice of a running game cannot be verified, as before. The ratio is CPU per
packet on / off (median of the run-by-run ratios; the wall ratio is printed beside, for information).
Output: a table, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

import domain.audit.redecide  # noqa: E402
import domain.audit.sealed  # noqa: E402
from benchmarks.clocks import Spent, stopwatch  # noqa: E402
from domain.bots import Bot  # noqa: E402
from event_store.app.service import GameService  # noqa: E402
from event_store.pbem.hosting import Host  # noqa: E402
from event_store.pbem.keys import new_key  # noqa: E402
from event_store.pbem.replica import Replica  # noqa: E402
from tests.pbem_table import Table  # noqa: E402

SCENARIOS = {
    "dungeon-short": [("Ann", None), ("Bo", None), ("Cy", None)],
    "vampire-empire": [("Ann", "human"), ("Vlad", "vampire")],
}


def play(folder: Path, ruleset: str, seed: int) -> dict[str, list[str]]:
    """Plays one game by packets; returns every packet each seat received, its invitation first."""
    os.environ["NIGHTKEEP_KEYS"] = str(folder / "keys")
    players = SCENARIOS[ruleset]
    keys = {name: new_key(name.lower()) for name, _ in players}
    host = Host(GameService(str(folder / "host.sqlite")), new_key("host"))
    mails = {name: f"{name.lower()}@example.org" for name, _ in players}
    game = host.create(ruleset, players, {n: k.public for n, k in keys.items()}, mails, "host@example.org")
    table = Table(folder, host, game, lambda name: str(folder / f"{name}.sqlite"))
    table.deliver()
    received: dict[str, list[str]] = {name: [table.mail[name][0]] for name, _ in players}
    table.mail = {}
    for name, _ in players:
        replica = Replica(GameService(table.store(name)))
        member, join = replica.join(received[name][0])
        table.replicas[name] = (replica, member)
        assert all(h.ok for h in host.handle_text(join))
    original = Replica.receive

    def keep(self: Replica, text: str) -> object:
        player = next(name for name, (r, _) in table.replicas.items() if r is self)
        received[player].append(text)
        return original(self, text)

    bot = Bot(seed)
    with patch.object(Replica, "receive", keep):
        while not table.is_over():
            table.play_turn(bot)
    table.close()
    return received


@contextmanager
def unchecked() -> Iterator[None]:
    """The audit without per-turn keys: no key check, and the dice drawn with no known key."""
    real = domain.audit.redecide.AuditDice

    def keyless(outcomes, seed, meta, nonce, key=None, turn_key=b"", owners=None):  # type: ignore[no-untyped-def]
        return real(outcomes, seed, meta, nonce, key)

    with (
        patch.object(domain.audit.redecide, "AuditDice", keyless),
        patch.object(domain.audit.redecide, "dice_key_problem", lambda meta, event: ""),
        patch.object(domain.audit.sealed, "dice_key_problem", lambda meta, event: ""),
        patch.object(domain.audit.sealed, "_check_draws", lambda *args: None),
    ):
        yield


def receive_all(folder: Path, received: dict[str, list[str]], tag: str) -> tuple[Spent, int]:
    """Receives every seat's packets into fresh replicas; returns the time spent in `receive`, packets."""
    spent, packets = Spent(), 0
    for name, texts in received.items():
        replica = Replica(GameService(str(folder / f"{tag}-{name}.sqlite")))
        replica.join(texts[0])
        for text in texts[1:]:
            with stopwatch() as one:
                replica.receive(text)
            spent += one
            packets += 1
        replica.service.close()
    return spent, packets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=0, help="runs of each mode (default 3; 1 with --quick)")
    parser.add_argument("--quick", action="store_true", help="dungeon-short only, once: a smoke run")
    args = parser.parse_args(argv)
    args.reps = args.reps or (1 if args.quick else 3)
    scenarios = ["dungeon-short"] if args.quick else list(SCENARIOS)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    figures: dict[str, object] = {"clock": "cpu", "reps": args.reps}
    print(f"{'scenario':<16}{'packets':>8}{'on ms/pk':>10}{'off ms/pk':>11}{'on/off':>8}{'wall':>8}  (CPU)")
    with tempfile.TemporaryDirectory(prefix="nightkeep-bench-keys-") as tmp:
        root = Path(tmp)
        for ruleset in scenarios:
            game_folder = root / ruleset
            game_folder.mkdir()
            received = play(game_folder, ruleset, seed=1)
            on: list[Spent] = []
            off: list[Spent] = []
            for rep in range(args.reps):
                spent, packets = receive_all(game_folder, received, f"on-{rep}")
                on.append(spent / packets)
                with unchecked():
                    spent, packets = receive_all(game_folder, received, f"off-{rep}")
                off.append(spent / packets)
            ratio = statistics.median(a.cpu / b.cpu for a, b in zip(on, off, strict=True))
            wall = statistics.median(a.wall / b.wall for a, b in zip(on, off, strict=True))
            on_ms, off_ms = (
                statistics.median(s.cpu for s in on) * 1000,
                statistics.median(s.cpu for s in off) * 1000,
            )
            print(f"{ruleset:<16}{packets:>8}{on_ms:>10.2f}{off_ms:>11.2f}{ratio:>7.2f}x{wall:>7.2f}x")
            figures[ruleset] = {
                "packets": packets,
                "on_ms": on_ms,
                "off_ms": off_ms,
                "ratio": ratio,
                "wall_ratio": wall,
            }
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
