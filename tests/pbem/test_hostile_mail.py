"""A host no mail can stop: hostile mail through `run_once` over a Maildir (a seeded sample of the fuzz
run's generator), mail nested 2,000 deep, senders that are no one usable address, unreadable mail given
to `receive` and `host apply`, a host run killed at random points while it answers requests, its output
flushed each pass, and a replica's refusals logged by what they are."""

from __future__ import annotations

import mailbox
import random
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
import structlog
from click.testing import CliRunner

from cli.main import cli
from domain.bots import Bot
from domain.errors import TamperedLog
from domain.events import next_chain
from event_store.app.service import GameService
from event_store.pbem.host_runner import run_once
from event_store.pbem.hosting import Host
from event_store.pbem.keys import new_key
from event_store.pbem.mail import (
    MaildirInbox,
    UnreadableMail,
    body_text,
    deliver_to_maildir,
    read_eml,
    read_mail_text,
    safe_address,
    sender_of,
)
from event_store.pbem.packets import make_packet, read_packets
from tests.hostile_run import digest_of, run_hostile
from tests.pbem_helpers import HOST_MAIL, address, is_refusal, reply_to, seed_randomness
from tests.pbem_table import NewStore, Table, seat_table

pytestmark = pytest.mark.slow  # a seeded fuzz sample of hostile mail, and a kill loop of the host

REPO = Path(__file__).resolve().parents[2]
MALLORY = "mallory@example.org"


def nested(depth: int, sender: str = MALLORY, text: str = "status") -> bytes:
    """Returns a mail whose text lies under `depth` multipart levels."""
    inner = f"Content-Type: text/plain\r\n\r\n{text}\r\n".encode()
    for level in range(depth):
        mark = b"b%d" % level
        head = b'Content-Type: multipart/mixed; boundary="' + mark + b'"\r\n\r\n--' + mark + b"\r\n"
        inner = head + inner + b"\r\n--" + mark + b"--\r\n"
    return f"From: {sender}\r\nTo: {HOST_MAIL}\r\nSubject: hi\r\nMIME-Version: 1.0\r\n".encode() + inner


def from_header(sender: bytes, text: bytes = b"status") -> bytes:
    """Returns a one-part mail with this From header, as its bytes."""
    return b"From: " + sender + b"\r\nTo: host@example.org\r\nSubject: hi\r\n\r\n" + text + b"\r\n"


# --- the fuzz run's generator, a seeded sample --------------------------------------------------------


def test_a_seeded_sample_of_hostile_mail_stops_no_pass_and_every_good_mail_is_handled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_randomness(monkeypatch, 25)
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp_path / "keys"))

    counts, _ = run_hostile(tmp_path, mails=300, seed=25, max_size=256 * 1024)

    assert (counts.stops, counts.tracebacks, counts.stop_errors) == (0, 0, [])
    assert counts.good_sent >= 10 and counts.good_handled == counts.good_sent and counts.moves_lost == 0
    assert counts.unsafe_to == 0 and counts.failures_past_reader == {} and counts.stalls == 0
    assert counts.games >= 2, "a game was played to its end among the hostile mail"
    assert counts.outcomes[("deep nesting", "UnreadableMail")] >= 5, counts.outcomes
    assert counts.set_aside >= sum(n for (_, outcome), n in counts.outcomes.items() if outcome != "handled")
    assert not list((tmp_path / "inbox" / "new").iterdir()) and not list(
        (tmp_path / "inbox" / "cur").iterdir()
    )


# --- a table of two mail-only seats over a Maildir ---------------------------------------------------


@dataclass
class MailTable:
    """A dungeon-short game hosted for Bo and Cy, who play by mail; the host's mail is kept in `sent`."""

    host: Host
    game: UUID
    inbox: Path
    sent: list[EmailMessage] = field(default_factory=list)

    def post(self, raw: bytes) -> None:
        """Drops a mail into the host's inbox."""
        deliver_to_maildir(self.inbox, raw)

    def run(self) -> Any:
        """Runs one pass of the host; returns what it did."""
        return run_once(self.host, MaildirInbox(self.inbox), self.sent.append, HOST_MAIL)

    def to(self, who: str) -> list[EmailMessage]:
        """Returns the mails the host sent to an address."""
        return [m for m in self.sent if str(m["To"]) == who]

    def pending(self) -> int:
        """Returns how many mails wait in the inbox."""
        return sum(1 for sub in ("new", "cur") for _ in (self.inbox / sub).iterdir())


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MailTable]:
    seed_randomness(monkeypatch, 7)
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp_path / "keys"))
    host = Host(GameService(str(tmp_path / "host.sqlite")), new_key("host"))
    seats: list[tuple[str, str | None]] = [("Bo", None), ("Cy", None)]
    game = host.create("dungeon-short", seats, {}, {"Bo": address("Bo"), "Cy": address("Cy")}, HOST_MAIL)
    mailbox.Maildir(tmp_path / "inbox", create=True)
    mail_table = MailTable(host, game, tmp_path / "inbox")
    mail_table.run()  # the first mails to Bo and Cy
    yield mail_table
    host.service.close()


def bo_asks(table: MailTable, words: str) -> bytes:
    """Returns Bo's reply to the newest mail he got, its first line `words`."""
    return reply_to(table.to(address("Bo"))[-1], f"{words}\n").as_bytes()


def test_a_mail_nested_2000_deep_is_set_aside_its_sender_told_once_and_the_mail_behind_it_handled(
    table: MailTable,
) -> None:
    deep, asked = nested(2000), bo_asks(table, "status")
    table.post(deep)
    table.post(asked)

    done = table.run()

    assert (done.set_aside, table.pending()) == (1, 0)
    assert table.host.seen(digest_of(deep)).startswith("failed: UnreadableMail")
    (told,) = table.to(MALLORY)
    (line,) = body_text(told).splitlines()
    assert is_refusal(told) and "nested more than 40 deep" in line and "send it again" in line
    assert table.host.seen(digest_of(asked)) == "handled"
    assert "status" in str(table.to(address("Bo"))[-1]["Subject"])

    table.post(deep)  # the same mail again: remembered as failed, so moved on and not told again
    assert table.run().set_aside == 0 and table.pending() == 0
    assert len(table.to(MALLORY)) == 1


def test_a_pass_killed_between_telling_and_the_failed_mark_tells_the_sender_once(table: MailTable) -> None:
    deep = nested(2000)
    table.post(deep)
    table.run()
    table.host.remember(digest_of(deep), "started:1", final=True)  # as if killed before the mark
    table.post(deep)

    assert table.run().set_aside == 1
    assert len(table.to(MALLORY)) == 1


def test_a_mail_that_stopped_the_host_three_times_is_set_aside_unread(table: MailTable) -> None:
    asked = bo_asks(table, "help")
    table.host.remember(digest_of(asked), "started:3", final=True)  # three passes died reading it
    table.post(asked)

    assert table.run().set_aside == 1
    assert "stopped the host 3 times" in table.host.seen(digest_of(asked))
    (told,) = table.to(address("Bo"))[-1:]
    assert is_refusal(told)


@pytest.mark.parametrize(
    "sender",
    [
        pytest.param(b"x\x00y@example.org", id="NUL"),
        pytest.param(b"a" * 100_000 + b"@example.org", id="100,000 characters"),
        pytest.param(b"a@example.org, b@example.org", id="two addresses"),
        pytest.param(b"friends: a@example.org;", id="group"),
        pytest.param(b"a@example.org\x1b[2J", id="escape"),
        pytest.param(b'"a\r\n"@example.org', id="folded quote"),
    ],
)
def test_a_sender_that_is_not_one_usable_address_is_never_written_to(table: MailTable, sender: bytes) -> None:
    already = len(table.sent)
    table.post(from_header(sender, b"no key here"))

    done = table.run()

    assert (done.handled, done.refused, table.pending()) == (1, 1, 0)
    assert table.sent[already:] == [], "a refusal goes nowhere rather than to a copied header"


def test_a_mail_of_many_forged_packets_gets_one_refusal(table: MailTable, tmp_path: Path) -> None:
    mallory = new_key("mallory")
    body = {"game": str(table.game), "player": "Bo", "version": 3, "chain": bytes(32), "action": "roll"}
    forged = [make_packet("action", body | {"nonce": bytes([n]) * 32}, mallory.sign) for n in range(50)]
    table.post(from_header(MALLORY.encode(), "\n".join(forged).encode()))

    done = table.run()

    assert (done.handled, done.refused) == (50, 50)
    (told,) = table.to(MALLORY)
    line, *rest = body_text(told).splitlines()
    assert line.startswith("Refused: Bo plays by mail")
    assert [r for r in rest if r.strip() and not r.startswith("History: event ")] == []


def test_a_mail_a_program_sent_is_not_answered(table: MailTable) -> None:
    automatic = b"Auto-Submitted: auto-replied\r\n" + from_header(MALLORY.encode(), b"I am away.")
    table.post(automatic)

    done = table.run()

    assert (done.refused, table.pending()) == (1, 0)
    assert table.to(MALLORY) == [], "no answer to an answering machine, which would answer back"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ann Example <Ann@Example.org>", "ann@example.org"),
        ("ann@example.org (Ann)", "ann@example.org"),
        ("Zoë <zoe@example.org>", "zoe@example.org"),
        ('"a b"@example.org', '"a b"@example.org'),
        ("x\x00y@example.org", ""),
        ("ann@example.org\r\nBcc: all@example.org", ""),
        ("a" * 65 + "@example.org", ""),
        ("a@" + "b" * 250 + ".org", ""),
        ("a" * 100_000 + "@example.org", ""),
        ("ann.example.org", ""),
        ("ann@", ""),
        ("a@example.org, b@example.org", ""),
        ("friends: a@example.org;", ""),
        ("<ann@example.org", ""),
        ("ünï@example.org", ""),
        ("", ""),
    ],
)
def test_safe_address_gives_one_bare_address_or_nothing(text: str, expected: str) -> None:
    assert safe_address(text) == expected


def test_sender_of_takes_one_from_header_only() -> None:
    assert sender_of(read_eml(from_header(b"Ann <ann@example.org>"))) == "ann@example.org"
    twice = b"From: a@example.org\r\n" + from_header(b"b@example.org")
    assert sender_of(read_eml(twice)) == ""


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        pytest.param(nested(41), "nested more than 40 deep", id="41 deep"),
        pytest.param(
            b'From: a@b.org\r\nContent-Type: multipart/mixed; boundary="p"\r\n\r\n'
            + b"--p\r\nContent-Type: text/plain\r\n\r\nx\r\n" * 101,
            "more than 100 MIME parts",
            id="101 parts",
        ),
        pytest.param(
            b"From: a@b.org\r\nContent-Type: text/plain; name=" + b"x" * 4000 + b"\r\n\r\nx\r\n",
            "MIME headers is longer",
            id="long MIME header",
        ),
        pytest.param(b"no headers at all", "no headers", id="no headers"),
    ],
)
def test_mail_past_a_bound_is_unreadable_in_one_line(raw: bytes, reason: str) -> None:
    with pytest.raises(UnreadableMail, match=reason) as caught:
        read_mail_text(raw)
    assert "\n" not in str(caught.value)


def test_mail_40_deep_is_read() -> None:
    assert read_mail_text(nested(40, text="1")).text == "1\n"


# --- receive and host apply: exit 2 and one line ------------------------------------------------------


@pytest.mark.parametrize("command", ["receive", "host apply"])
@pytest.mark.parametrize("through", ["file", "stdin"])
def test_receive_and_host_apply_refuse_a_mail_nested_2000_deep_with_one_line_and_exit_2(
    table: MailTable, tmp_path: Path, command: str, through: str
) -> None:
    deep = tmp_path / "deep.eml"
    deep.write_bytes(nested(2000))
    store = tmp_path / "host.sqlite"
    before = (table.host.service.chain_values(table.game), table.host.due(), store.stat().st_size)
    source = str(deep) if through == "file" else "-"
    extra = ["--out", str(tmp_path / "out")] if command == "host apply" else []

    result = CliRunner().invoke(
        cli,
        ["--db", str(store), *command.split(), source, *extra],
        input=nested(2000) if through == "stdin" else None,
    )

    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: cannot read ") and "nested more than 40 deep" in line
    assert "internal error" not in line
    assert (table.host.service.chain_values(table.game), table.host.due(), store.stat().st_size) == before


# --- one answer per request, whenever the host is killed ---------------------------------------------


def test_a_request_read_again_after_a_kill_is_answered_once(
    table: MailTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = bo_asks(table, "history 1")
    table.post(asked)
    remember = Host.remember

    def killed_at_the_mark(host: Host, digest: str, outcome: str, final: bool = False) -> None:
        if outcome == "handled":
            raise KeyboardInterrupt  # the host stops after the answer is queued, before the mark
        remember(host, digest, outcome, final)

    monkeypatch.setattr(Host, "remember", killed_at_the_mark)
    with pytest.raises(KeyboardInterrupt):
        table.run()
    monkeypatch.setattr(Host, "remember", remember)
    table.run()

    answers = [m for m in table.to(address("Bo")) if "history" in str(m["Subject"])]
    assert len(answers) == 1 and table.pending() == 0


def host_run(host_db: str, inbox: Path, out: Path, *more: str) -> subprocess.Popen[bytes]:
    """Starts `nightkeep host run` over a Maildir, writing the mail owed as .eml files into `out`; its
    stdout is a pipe."""
    command = [sys.executable, "-m", "cli.main", "--db", host_db, "--log-format", "json", "host", "run"]
    options = ["--inbox", f"maildir:{inbox}", "--out", str(out), "--from", HOST_MAIL, *more]
    return subprocess.Popen([*command, *options], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def run_to_the_end(host_db: str, inbox: Path, out: Path) -> float:
    """Runs one pass of host run to its end; returns how long it took."""
    started = time.monotonic()
    process = host_run(host_db, inbox, out, "--once")
    process.communicate(timeout=120)
    assert process.returncode == 0
    return time.monotonic() - started


def answers_by_address(host: Host) -> dict[str, int]:
    """Returns how many answers and refusals (outbox rows for no seat, each its own Message-ID) the host
    wrote to each address, checking each was sent."""
    with host.db.transaction(commit=False) as c:
        c.execute("SELECT to_addr, sent FROM nightkeep_pbem_outbox WHERE player = ''")
        rows = c.fetchall()
    assert all(sent for _, sent in rows), "every answer went out"
    counted: dict[str, int] = {}
    for to, _ in rows:
        counted[to] = counted.get(to, 0) + 1
    return counted


KILLED_RUNS = 12


def newest_to(out: Path, to: str) -> EmailMessage:
    """Returns the newest mail the host wrote to an address."""
    mails = [read_eml(p.read_bytes()) for p in sorted(out.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns)]
    return [m for m in mails if str(m["To"]) == to][-1]


def test_host_run_killed_at_random_points_answers_each_request_once(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_randomness(monkeypatch, 11)
    rng = random.Random(11)
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp_path / "keys"))
    host_db, inbox, out = new_store("host"), tmp_path / "inbox", tmp_path / "out"
    mailbox.Maildir(inbox, create=True)
    host = Host(GameService(host_db), new_key("host"))
    seats: list[tuple[str, str | None]] = [("Bo", None), ("Cy", None)]
    host.create("dungeon-short", seats, {}, {"Bo": address("Bo"), "Cy": address("Cy")}, HOST_MAIL)
    run_to_the_end(host_db, inbox, out)  # the first mails
    starting = run_to_the_end(host_db, inbox, out)  # nothing to do: how long starting takes
    asked = {address("Bo"): 0, MALLORY: 0}
    working, killed_at_work = 0.0, 0
    for run in range(KILLED_RUNS + 1):
        newest = newest_to(out, address("Bo"))
        for words in ("status", f"history {run}", "help", f"history {run + 1}", "status", "help"):
            deliver_to_maildir(
                inbox, reply_to(newest, f"{words}\n{rng.random()}\n", address("Bo")).as_bytes()
            )
        deliver_to_maildir(inbox, nested(2000, text=f"status {run}"))
        deliver_to_maildir(inbox, from_header(MALLORY.encode(), b"no key %d" % run))
        asked[address("Bo")] += 6
        asked[MALLORY] += 2
        if run == 0:  # a pass with work: how long working takes
            working = run_to_the_end(host_db, inbox, out)
            continue
        process = host_run(host_db, inbox, out, "--once")
        if run < KILLED_RUNS:
            time.sleep(rng.uniform(0.9 * starting, 1.1 * working))
        else:  # the last kill lands while the pass is handling the mail, whatever the machine's load
            while process.poll() is None and not 0 < _left_in(inbox) < 8:
                time.sleep(0.001)
        process.send_signal(signal.SIGKILL)  # a no-op once the process has ended and been reaped
        process.wait(timeout=60)
        killed_at_work += 0 < _left_in(inbox) < 8
        run_to_the_end(host_db, inbox, out)

    assert answers_by_address(host) == asked, "each request answered once, under one Message-ID"
    assert killed_at_work >= 1, "some kill landed while the pass was handling the mail"
    host.service.close()


def _left_in(inbox: Path) -> int:
    """Counts the mails a Maildir still holds (a pass removes each one it has handled)."""
    return sum(1 for sub in ("new", "cur") for _ in (inbox / sub).iterdir())


# --- host run's output, a pass at a time -----------------------------------------------------------------


def test_host_run_in_a_loop_prints_each_pass_as_it_ends(table: MailTable, tmp_path: Path) -> None:
    table.post(from_header(MALLORY.encode(), b"no key"))
    process = host_run(str(tmp_path / "host.sqlite"), table.inbox, tmp_path / "out", "--interval", "60")
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 60)
        line = process.stdout.readline().decode() if ready else ""
    finally:
        process.kill()
        process.wait(timeout=60)

    assert line.startswith("refused: "), "the pass's line came out as the pass ended"
    assert table.pending() == 0


# --- a replica names what it refuses ------------------------------------------------------------------


@pytest.fixture
def dealt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    dungeon: list[tuple[str, str | None]] = [("Ann", None), ("Bo", None)]
    stores = lambda name: str(tmp_path / f"{name}.sqlite")  # noqa: E731
    table = seat_table(stores, tmp_path, monkeypatch, "dungeon-short", dungeon)
    table.join_all()
    table.play_turn(Bot("x"))
    yield table
    table.close()


def test_a_replica_logs_host_events_the_audit_refuses_as_such_not_as_equivocation(dealt: Table) -> None:
    player = dealt.to_act()[0]
    dealt.read_mail(player)
    replica, member = dealt.replicas[player]
    held = replica.service.recorded_events(member.stored)
    dealt.play_turn(Bot("y"))
    (packet,) = read_packets(dealt.mail[player][-1])
    entries, chain = [], held[-1].chain
    for entry in packet.entries:  # a signature no key made, chained as the host would chain it
        fields = dict(entry.fields, signature=bytes(64)) if entry.fields.get("signature") else entry.fields
        chain = next_chain(chain, entry.type_name, entry.class_version, fields)
        entries.append(entry._replace(fields=fields, chain=chain))
    forged = make_packet("events", dict(packet.body, events=entries), dealt.host.key.sign)

    with structlog.testing.capture_logs() as logged, pytest.raises(TamperedLog):
        replica.receive(forged)

    events = [e["event"] for e in logged]
    assert "host_events_refused_by_audit" in events and "host_equivocated" not in events
    (proof,) = replica.proofs(dealt.game)
    assert proof.detail.startswith("the host signed events the audit refuses")
