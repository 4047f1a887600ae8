"""Trust at the table (issue 26): a host that shows two seats two histories is caught by every keyed
replica within one turn of play, a dropped move is visible until the host applies it, every mail ends
with the history's fingerprint, and the host can publish each turn's head to a witness and on `serve`."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner, Result
from structlog.testing import capture_logs

from cli.main import cli
from domain.bots import Bot
from domain.errors import BadPacket
from domain.game import Game
from domain.signing import AUTH_SIGNED, fingerprint, history_fingerprint
from event_store.app.service import GameService
from event_store.pbem.club_host import add_observer, take_words
from event_store.pbem.host_runner import host_message
from event_store.pbem.hosting import Host
from event_store.pbem.keys import load_key
from event_store.pbem.mail import body_text
from event_store.pbem.packets import read_packets
from event_store.pbem.witness import Head, read_head_line
from tests.mail_servers import DovecotServer, SmtpServer
from tests.pbem.test_lying_host import cli as nightkeep_process
from tests.pbem_helpers import Mailbox, seed_randomness
from tests.pbem_table import Table, seat_table

pytest_plugins = ["tests.mail_servers"]

SEATS = [("Ann", None), ("Bo", None), ("Cy", None)]
MAIL_ONLY = ("Cy",)


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    """A Dungeon game of three seats on SQLite files: Ann and Bo play with keys, Cy by mail only."""
    seed_randomness(monkeypatch, 26)
    made = seat_table(
        lambda name: str(tmp_path / f"{name}.sqlite"),
        tmp_path,
        monkeypatch,
        "dungeon-short",
        SEATS,
        MAIL_ONLY,
    )
    made.join_all()
    yield made
    made.close()


def play_until(table: Table, seat: str, bot: Bot) -> None:
    """Plays the keyed seats' turns (and Cy's, honestly) until `seat` is to act, every replica up to date."""
    while table.to_act() != [seat] and not table.is_over():
        if table.to_act() == ["Cy"]:
            mail_only_move(table.host, table.game, b"honest-cy-nonce-" + bytes(16))
            table.deliver()
        else:
            table.play_turn(bot)
    for player in table.replicas:
        table.read_mail(player)


def mail_only_move(host: Host, game: UUID, nonce: bytes) -> None:
    """Cy's reply to the turn mail, as the host applies it: the first action, with the reply's nonce."""
    version = len(host.service.chain_values(game))
    action = host.service.legal_actions(game, "Cy")[0]
    host.take_mail_action(game, "Cy", version, action, nonce)


def copy_of_host(table: Table, tmp_path: Path) -> Host:
    """Returns a second host over a copy of the host's store: the same game, seed, key and outbox."""
    source = table.host.service.recorder.datastore.pool.db_name  # type: ignore[attr-defined]
    target = tmp_path / "host-b.sqlite"
    with sqlite3.connect(source) as a, sqlite3.connect(target) as b:
        a.backup(b)
    return Host(GameService(str(target)), table.host.key)


def mails_from(host: Host) -> dict[str, list[str]]:
    """Writes what a host owes and returns each seat's packets (or plain bodies), all marked sent."""
    host.follow()
    out: dict[str, list[str]] = {}
    for mail in host.due():
        out.setdefault(mail.player, []).append(mail.packet or mail.body)
        host.mark_sent(mail)
    return out


class TwoFacedHost:
    """A host that applies Cy's mail-only turn twice with different nonces, shows history A to Ann and B to
    Bo, and then puts every signed packet into both histories (past the checks an honest host makes)."""

    def __init__(self, table: Table, tmp_path: Path) -> None:
        self.table, self.a, self.b = table, table.host, copy_of_host(table, tmp_path)
        mail_only_move(self.a, table.game, b"A" * 32)
        mail_only_move(self.b, table.game, b"B" * 32)
        self.deliver()

    def deliver(self) -> None:
        """Ann gets history A's mail, Bo history B's; the rest is dropped."""
        self.table.mail.setdefault("Ann", []).extend(mails_from(self.a).get("Ann", []))
        self.table.mail.setdefault("Bo", []).extend(mails_from(self.b).get("Bo", []))

    def take(self, packet: str, monkeypatch: pytest.MonkeyPatch) -> None:
        """Applies a seat's packet to its own history, and forces it into the other one."""
        (read,) = read_packets(packet)
        own, other = (self.a, self.b) if read.player == "Ann" else (self.b, self.a)
        assert own.handle_text(packet)[0].ok
        with monkeypatch.context() as m:
            m.setattr(Game, "_check_authorised", lambda self, event: None)
            m.setattr("domain.game.said_problem", lambda *args: "")
            if read.kind == "action":
                version = len(other.service.chain_values(self.table.game))
                other.service.take_action(
                    self.table.game,
                    read.player,
                    read.body["action"],
                    read.body["nonce"],
                    version,
                    auth=AUTH_SIGNED,
                    signature=read.signature,
                )
            else:
                take_words(other, read, [])

    def close(self) -> None:
        self.b.service.close()


def test_a_host_showing_two_histories_is_caught_by_both_keyed_replicas_within_one_turn_with_proofs(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    play_until(table, "Cy", Bot("trust"))
    liar = TwoFacedHost(table, tmp_path)
    (ann, ann_seat), (bo, bo_seat) = table.replicas["Ann"], table.replicas["Bo"]
    try:
        table.read_mail("Ann")
        table.read_mail("Bo")  # each history alone is a good one: nothing to see yet
        assert ann.proofs(table.game) == [] and bo.proofs(table.game) == []
        # One turn of play: Ann moves on history A; Bo, waiting, says something to the table on history B.
        action = ann.legal_actions(ann_seat)[0].id
        liar.take(ann.action_packet(ann_seat, action), monkeypatch)
        liar.take(
            bo.words_packet(bo_seat, "press", to=[], text="my history? compare fingerprints"), monkeypatch
        )
        liar.deliver()
        with pytest.raises(BadPacket, match="the host showed Bo another history at event") as at_ann:
            table.read_mail("Ann")
        with pytest.raises(BadPacket, match="the host showed Ann another history at event") as at_bo:
            table.read_mail("Bo")
    finally:
        liar.close()
    for exc in (at_ann.value, at_bo.value):
        assert "\n" not in str(exc) and "kept as proof" in str(exc)
    (ann_proof,) = ann.proofs(table.game)
    (bo_proof,) = bo.proofs(table.game)
    assert "Bo's press" in ann_proof.detail and f"{action!r}" in bo_proof.detail
    for proof in (ann_proof, bo_proof):  # both host-signed packets: the one held, the one refused
        assert proof.held and proof.conflicting and proof.held != proof.conflicting
        assert all(
            p.is_signed_by(table.host.key.public) for p in read_packets(proof.held + proof.conflicting)
        )
    # Each is one self-contained file that anyone checks with only the host key's fingerprint.
    for player in ("Ann", "Bo"):
        out = tmp_path / f"proofs-{player}"
        written = nightkeep_process(
            "--db", table.store(player), "proofs", str(table.game)[:8], "-o", str(out)
        )
        assert written.returncode == 0, written.stderr
        (path,) = out.glob("proof-*.nkp")
        done = nightkeep_process("verify", str(path), "--host-key", fingerprint(table.host.key.public))
        assert done.returncode == 1, done.stdout + done.stderr
        assert "another history" in done.stdout, done.stdout


def test_an_honest_table_with_press_and_moves_leaves_no_warning_and_no_proof(table: Table) -> None:
    bot = Bot("honest")
    with capture_logs() as logs:
        for _ in range(6):  # rounds of Ann's move, Bo's press, Bo's move and Cy's by mail
            play_until(table, "Ann", bot)
            if table.is_over():
                break
            bo, bo_seat = table.replicas["Bo"]
            assert table.host.handle_text(bo.words_packet(bo_seat, "press", to=[], text="good luck"))[0].ok
            table.deliver()
            table.play_turn(bot)
        for player in table.replicas:
            table.read_mail(player)
    assert [entry for entry in logs if entry["log_level"] in ("warning", "error")] == []
    for replica, _ in table.replicas.values():
        assert replica.proofs(table.game) == []


def test_every_mail_of_one_event_ends_with_the_same_fingerprint_in_both_parts_within_60_columns(
    table: Table,
) -> None:
    play_until(table, "Cy", Bot("prints"))
    add_observer(table.host, table.game, "owl@example.org", "Owl")
    mail_only_move(table.host, table.game, b"C" * 32)
    table.host.follow()
    mails = table.host.due()
    assert {m.to for m in mails} == {f"{name}@example.org" for name in ("ann", "bo", "cy", "owl")}
    head = table.host.service.recorded_events(table.game)[-1]
    expected = f"History: {history_fingerprint(head.version, head.chain)}"
    for mail in mails:
        message = host_message(table.host, mail)
        text = body_text(message)
        assert text.rstrip().splitlines()[-1] == expected, mail.player
        long = [line for line in text.splitlines() if len(line) > 60 and not line.startswith("Game-Key: ")]
        assert long == [], mail.player  # (a Game-Key line is quoted whole: it is not for reading)
        html = message.get_body(preferencelist=("html",))
        assert html is not None and expected.replace("·", "&middot;") in html.get_content().replace(
            "·", "&middot;"
        )


def nightkeep(*args: str) -> Result:
    """Runs the nightkeep CLI in this process (the keys' folder is the table's, from the environment)."""
    return CliRunner().invoke(cli, list(args))


def test_a_dropped_move_is_shown_on_the_replica_until_the_host_applies_the_same_packet_sent_again(
    table: Table, tmp_path: Path
) -> None:
    play_until(table, "Ann", Bot("dropped"))
    ann, seat = table.replicas["Ann"]
    db, game = str(tmp_path / "Ann.sqlite"), str(table.game)
    action = ann.legal_actions(seat)[0].id
    at = len(ann.service.recorded_events(seat.stored))
    packet = ann.action_packet(seat, action)  # lost on its way: the host never reads it
    assert [(w.kind, w.what, w.version) for w in ann.waiting(seat)] == [("action", action, at)]
    listed = nightkeep("--db", db, "actions", game)
    assert listed.exit_code == 0, listed.output
    (line,) = [line for line in listed.stdout.splitlines() if line.startswith("waiting for the host")]
    assert f"your move {action!r} written at event {at}, not yet in the host's events" in line
    assert f"resend with nightkeep act {game} {action} -o FILE" in line
    shown = json.loads(nightkeep("--db", db, "show", game, "--json").stdout)
    assert [(w["kind"], w["what"], w["packet"]) for w in shown["waiting"]] == [("action", action, packet)]
    assert shown["history"]["fingerprint"] == history_fingerprint(
        at, ann.service.recorded_events(seat.stored)[-1].chain
    )
    # Sent again: the same point gives the same nonce and signature, so the same packet, waiting once.
    assert ann.action_packet(seat, action) == packet and len(ann.waiting(seat)) == 1
    handled = table.host.handle_text(packet)
    assert handled[0].ok and not handled[0].duplicate
    assert table.host.handle_text(packet)[0].duplicate  # and a third copy changes nothing
    table.deliver()
    table.read_mail("Ann")
    assert ann.waiting(seat) == []
    shown = json.loads(nightkeep("--db", db, "show", game, "--json").stdout)
    assert shown["waiting"] == [] and shown["history"]["version"] > at
    text = nightkeep("--db", db, "show", game).stdout
    assert "waiting for the host" not in text
    assert f"History: {shown['history']['fingerprint']}" in text


def test_host_run_mails_the_signed_head_of_each_game_that_moved_to_the_witness_over_real_servers(
    table: Table,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    smtp_to_maildir: SmtpServer,
    dovecot: DovecotServer,
) -> None:
    account = dovecot.new_user()
    monkeypatch.setenv("NIGHTKEEP_IMAP_PASSWORD", dovecot.password)
    host_run = [
        "--db",
        str(tmp_path / "host.sqlite"),
        "host",
        "run",
        "--inbox",
        f"imaps://{account}@{dovecot.host}:{dovecot.imaps_port}/INBOX",
        "--imap-ca",
        str(dovecot.ca_file),
        "--smtp",
        f"{smtp_to_maildir.host}:{smtp_to_maildir.port}",
        "--from",
        "host@example.org",
        "--witness",
        "Witness@Example.org",
        "--once",
    ]
    witness = Mailbox(smtp_to_maildir.maildir, "witness@example.org")

    def heads_mailed() -> list[Head]:
        ran = nightkeep(*host_run)
        assert ran.exit_code == 0, ran.output
        return [read_head_line(body_text(m), table.host.key.public) for m in witness.new_mail()]

    def head_now() -> Head:
        chains = table.host.service.chain_values(table.game)
        return Head(table.game, len(chains), chains[-1])

    assert heads_mailed() == [head_now()]
    assert heads_mailed() == []  # nothing moved: nothing to witness
    play_until(table, "Cy", Bot("witness"))
    (head,) = heads_mailed()
    assert head == head_now() and head.version > 7
    # Forged or altered lines are refused; the fingerprint in the mail is the one every seat's mail ends with.
    mails = Mailbox(smtp_to_maildir.maildir, "witness@example.org").new_mail()  # (in no set order)
    mail = next(m for m in mails if f" {head.version} " in body_text(m))
    assert body_text(mail).rstrip().splitlines()[-1] == f"History: {head.fingerprint}"
    line = next(line for line in body_text(mail).splitlines() if line.startswith("nightkeep-head "))
    with pytest.raises(BadPacket, match="not signed by the host key"):
        read_head_line(line.replace(f" {head.version} ", f" {head.version + 1} "), table.host.key.public)
    with pytest.raises(BadPacket, match="not signed by the host key"):
        read_head_line(line, load_key("ann").public)  # another key's: not the host's head


def test_serve_shows_every_games_head_as_json_the_same_as_its_fingerprint_in_mail(table: Table) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from cli.serve_command import viewer_app
    from tests.projections.test_web_viewer import asgi_get

    play_until(table, "Cy", Bot("serve"))
    app = viewer_app(table.host.service, "", "a test store")
    with ThreadPoolExecutor(1) as runner:  # its own thread and event loop, as test_web_viewer does
        status, body = runner.submit(asyncio.run, asgi_get(app, "/heads")).result(60)
    assert status == 200
    head = table.host.service.recorded_events(table.game)[-1]
    assert json.loads(body) == [
        {
            "game": str(table.game),
            "version": head.version,
            "chain": head.chain.hex(),
            "fingerprint": history_fingerprint(head.version, head.chain),
        }
    ]
    assert table.host.history_line(table.game) == f"History: {history_fingerprint(head.version, head.chain)}"
