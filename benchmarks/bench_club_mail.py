"""A club's mail: how many mails each seat gets per turn of play, how big they are, and what one pass of
`host run` costs against one local action, over whole games played through `run_once` and a Maildir.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_club_mail.py            # dungeon-short (3 seats) and vampire-empire (2)
    python benchmarks/bench_club_mail.py --quick    # one short game (a smoke run, < 30 s)

Each game is played as tests/pbem/test_real_mail.py plays it, without servers: the host's mail is delivered
into one Maildir every player reads (each takes what is addressed to them), the players' mail into the
host's inbox Maildir, and `run_once` is run until the game is over and every replica holds all of it.
Signing players answer with packets from their replica, mail-only players by replying with the number
of a move (a seeded bot chooses). It uses only what the host had before the club's service too, so
the same script measures an older checkout (for the ratios of a closing note).

Figures, all in one run:
- mails per seat per turn of play: the mails each seat got (answers and refusals apart), over the
  game's turns (projections.turns), averaged over seats;
- bytes per mail: the mean and the largest, as sent (every part, attachments included);
- a pass of `run_once` that handles a move, in CPU time (time.process_time) and wall time, against one
  local action (`GameService.take_action` on a plain store, the same game's moves), interleaved so the
  machine's load hits both alike. The ratio is CPU seconds per pass over CPU seconds per action.
Output: a table, then one JSON line.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import mailbox
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

from cli.pbem_commands import mail_text  # noqa: E402
from domain.bots import Bot  # noqa: E402
from event_store.app.service import GameService  # noqa: E402
from event_store.pbem.host_runner import run_once  # noqa: E402
from event_store.pbem.hosting import Host  # noqa: E402
from event_store.pbem.keys import new_key  # noqa: E402
from event_store.pbem.mail import MaildirInbox, deliver_to_maildir  # noqa: E402
from event_store.pbem.replica import Replica  # noqa: E402
from projections.turns import turn_starts  # noqa: E402
from tests.pbem_helpers import (  # noqa: E402
    HOST_MAIL,
    Mailbox,
    MailOnlyPlayer,
    SigningPlayer,
    address,
    bot_chooser,
    seed_randomness,
)

GAMES = {
    "dungeon-short": ([("Ann", None), ("Bo", None), ("Cy", None)], ("Cy",)),
    "vampire-empire": ([("Ann", "human"), ("Vlad", "vampire")], ("Vlad",)),
}
MAX_PASSES = 600


@dataclass
class Played:
    """What one game cost and sent."""

    ruleset: str
    seats: int
    turns: int = 0
    mails: Counter[str] = field(default_factory=Counter)
    sizes: list[int] = field(default_factory=list)
    pass_cpu: list[float] = field(default_factory=list)
    pass_wall: list[float] = field(default_factory=list)
    local_cpu: list[float] = field(default_factory=list)
    local_wall: list[float] = field(default_factory=list)


def play(ruleset: str, folder: Path, seed: int) -> Played:
    """Plays one game by mail through run_once; returns its figures. The dice seed, the keys, the
    host's mail secret and the game id come from seeded generators, so the games repeat run after run
    (and on an older checkout)."""
    import os

    import pytest

    os.environ["NIGHTKEEP_KEYS"] = str(folder / "keys")
    patch = pytest.MonkeyPatch()
    seed_randomness(patch, seed)
    rng = random.Random(seed)
    patch.setattr("event_store.app.service.new_seed", lambda: rng.randbytes(32))
    try:
        return _play(ruleset, folder)
    finally:
        patch.undo()


def _play(ruleset: str, folder: Path) -> Played:
    seats, mail_only = GAMES[ruleset]
    played = Played(ruleset, len(seats))
    host_service = GameService(str(folder / "host.sqlite"))
    host = Host(host_service, new_key("host"), functools.partial(mail_text, host_service))
    signing = [name for name, _ in seats if name not in mail_only]
    keys = {name: new_key(name.lower()).public for name in signing}
    game = host.create(
        ruleset,
        seats,
        keys=keys,
        mail={n: address(n) for n, _ in seats},
        host_mail=HOST_MAIL,
        wait_for_entropy=True,
    )
    inbox_dir, outgoing = folder / "host-inbox", folder / "outgoing"
    for box in (inbox_dir, outgoing):
        mailbox.Maildir(box, create=True)

    def post(message: EmailMessage) -> None:
        deliver_to_maildir(inbox_dir, message.as_bytes())

    def send(message: EmailMessage) -> None:
        raw = message.as_bytes()
        to = str(message["To"])
        if "refused" not in str(message["Subject"]):
            played.mails[to] += 1
            played.sizes.append(len(raw))
        deliver_to_maildir(outgoing, raw)

    signers = [
        SigningPlayer(
            n, Replica(GameService(str(folder / f"{n}.sqlite"))), Mailbox(outgoing, address(n)), post, Bot(i)
        )
        for i, n in enumerate(signing, start=1)
    ]
    mailers = [
        MailOnlyPlayer(
            n, Mailbox(outgoing, address(n)), post, bot_chooser(host_service, game, n, Bot(10 + i))
        )
        for i, n in enumerate(mail_only)
    ]
    local = Local(ruleset, seats, folder)
    for _ in range(MAX_PASSES):
        moves_before = _moves(host_service, game)
        inbox = MaildirInbox(inbox_dir)
        cpu, wall = time.process_time(), time.perf_counter()
        run_once(host, inbox, send, HOST_MAIL)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        inbox.close()
        moves = [m for m in _moves(host_service, game)[len(moves_before) :] if m.player != "host"]
        if len(moves) == 1:  # a pass that handled exactly one move, against that move taken locally
            played.pass_cpu.append(cpu)
            played.pass_wall.append(wall)
            local.take(moves[0], played)
        for player in signers:
            player.read_mail()
            player.give_entropy_if_waited_on()
            player.act_if_my_turn()
        for mailer in mailers:
            mailer.read_and_reply()
        held = {len(p.replica.service.recorded_events(p.member.stored)) for p in signers if p.member}
        head = len(host_service.chain_values(game))
        if host_service.get_game(game).is_finished and held == {head}:
            break
    events = [r.event for r in host_service.recorded_events(game)]
    played.turns = len(turn_starts(events))
    return played


def _moves(service: GameService, game: Any) -> list[Any]:
    from domain.events import ActionTaken

    return [r.event for r in service.recorded_events(game) if isinstance(r.event, ActionTaken)]


class Local:
    """The same moves taken with GameService.take_action on a plain store: the baseline of the ratio."""

    def __init__(self, ruleset: str, seats: list[tuple[str, str | None]], folder: Path) -> None:
        self.service = GameService(str(folder / "local.sqlite"))
        self.game = self.service.create_game(ruleset, seats)

    def take(self, move: Any, played: Played) -> None:
        """Takes a legal move of the player the host's move was by (the host's own dice differ)."""
        legal = self.service.legal_actions(self.game, move.player) or self.service.legal_actions(self.game)
        if not legal:
            return
        choice = next((a for a in legal if a.id == move.action), legal[0])
        cpu, wall = time.process_time(), time.perf_counter()
        self.service.take_action(self.game, choice.player, choice.id)
        played.local_cpu.append(time.process_time() - cpu)
        played.local_wall.append(time.perf_counter() - wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one dungeon-short game")
    args = parser.parse_args()
    rulesets = ["dungeon-short"] if args.quick else list(GAMES)
    results = []
    for ruleset in rulesets:
        with tempfile.TemporaryDirectory() as folder:
            played = play(ruleset, Path(folder), seed=1)
        per_seat = sum(played.mails.values()) / played.seats / max(played.turns, 1)
        ratio = statistics.median(played.pass_cpu) / statistics.median(played.local_cpu)
        row = {
            "ruleset": ruleset,
            "turns": played.turns,
            "mails": sum(played.mails.values()),
            "mails_per_seat_per_turn": round(per_seat, 2),
            "bytes_mean": round(statistics.mean(played.sizes)),
            "bytes_max": max(played.sizes),
            "pass_cpu_ms": round(1000 * statistics.median(played.pass_cpu), 1),
            "pass_wall_ms": round(1000 * statistics.median(played.pass_wall), 1),
            "local_cpu_ms": round(1000 * statistics.median(played.local_cpu), 2),
            "pass_over_local_cpu": round(ratio, 1),
        }
        results.append(row)
        print(
            f"{ruleset:<15} {row['turns']:>4} turns {row['mails']:>4} mails  "
            f"{row['mails_per_seat_per_turn']:>5} mails/seat/turn  {row['bytes_mean']:>7} B mean "
            f"{row['bytes_max']:>7} B max  pass {row['pass_cpu_ms']} ms CPU ({row['pass_wall_ms']} wall)  "
            f"local {row['local_cpu_ms']} ms  ratio {row['pass_over_local_cpu']}x"
        )
    print(json.dumps(results))


if __name__ == "__main__":
    main()
