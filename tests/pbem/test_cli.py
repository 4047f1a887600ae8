"""Play by e-mail at the command line: keys, a hosted game, replicas, packets as files, mail-only play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from event_store.app.replay_file import export_game
from event_store.app.service import GameService
from event_store.pbem.mail import body_text, read_eml
from tests.pbem_table import NewStore

pytestmark = pytest.mark.slow  # a long CLI tour of play by e-mail, one subprocess per command


def run(*args: str, keys: Path, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env={"NIGHTKEEP_KEYS": str(keys)}, input=stdin)


@pytest.fixture
def people(tmp_path: Path) -> dict[str, Path]:
    """A key folder per person (host, Ann, Bo), each with that person's key."""
    folders = {}
    for person in ("host", "ann", "bo"):
        folder = tmp_path / f"keys-{person}"
        result = run("key", "new", person, keys=folder)
        assert result.exit_code == 0, result.output
        folders[person] = folder
    return folders


def public(people: dict[str, Path], person: str) -> str:
    return run("key", "export", person, keys=people[person]).stdout.strip()


def test_key_export_prints_one_line_and_a_fingerprint(people: dict[str, Path]) -> None:
    result = run("key", "export", "ann", "--json", keys=people["ann"])
    shown = json.loads(result.stdout)
    assert shown["public"].startswith("nightkeep-ed25519 ") and len(shown["fingerprint"]) == 19
    listed = run("key", "list", keys=people["ann"]).stdout
    assert "ann" in listed and shown["fingerprint"] in listed
    again = run("key", "new", "ann", keys=people["ann"])
    assert again.exit_code == 2 and "already a key" in again.stderr


def test_a_hosted_game_is_played_with_files_between_the_host_and_two_replicas(
    new_store: NewStore, tmp_path: Path, people: dict[str, Path]
) -> None:
    host_db, out = new_store("host"), tmp_path / "out"
    created = run(
        "--db",
        host_db,
        "new",
        "dungeon-short",
        "--player",
        "Ann",
        "--player",
        "Bo",
        "--key",
        f"Ann={public(people, 'ann')}",
        "--key",
        f"Bo={public(people, 'bo')}",
        "--host-mail",
        "host@example.org",
        "--out",
        str(out),
        "--json",
        keys=people["host"],
    )
    assert created.exit_code == 0, created.output
    game = json.loads(created.stdout)["game"]
    invites = {p: next(out.glob(f"*-{p}.nkp")) for p in ("Ann", "Bo")}
    fingerprint = run("key", "list", keys=people["host"]).stdout.split(maxsplit=1)[1].strip()
    for player, person in (("Ann", "ann"), ("Bo", "bo")):
        db = new_store(person)
        joined = run(
            "--db",
            db,
            "join",
            str(invites[player]),
            "--host-key",
            fingerprint,
            "-o",
            str(tmp_path / f"join-{person}.nkp"),
            keys=people[person],
        )
        assert joined.exit_code == 0, joined.output
        applied = run(
            "--db",
            host_db,
            "host",
            "apply",
            str(tmp_path / f"join-{person}.nkp"),
            "--out",
            str(out),
            keys=people["host"],
        )
        assert applied.exit_code == 0, applied.output
    # A game with signing seats waits for their entropy: each sends a packet, then the host deals.
    for person in ("ann", "bo"):
        db = new_store(person)
        for mail in sorted(out.glob(f"*-{person.capitalize()}.nkp"))[1:]:
            assert run("--db", db, "receive", str(mail), keys=people[person]).exit_code == 0
        packet = tmp_path / f"entropy-{person}.nkp"
        made = run("--db", db, "entropy", game, "-", "-o", str(packet), keys=people[person])
        assert made.exit_code == 0, made.output
        applied = run("--db", host_db, "host", "apply", str(packet), "--out", str(out), keys=people["host"])
        assert applied.exit_code == 0, applied.output
    for person in ("ann", "bo"):  # the deal
        db = new_store(person)
        for mail in sorted(out.glob(f"*-{person.capitalize()}.nkp"))[1:]:
            assert run("--db", db, "receive", str(mail), keys=people[person]).exit_code == 0
    # Whoever is to act acts on their replica; the host applies the packet; both replicas receive.
    for turn in range(6):
        status = json.loads(run("--db", host_db, "show", game, "--json", keys=people["host"]).stdout)
        player = status["to_act"][0]
        person = player.lower()
        db = new_store(person)
        listed = run("--db", db, "actions", game, "--json", keys=people[person])
        action = json.loads(listed.stdout)[0]["id"]
        packet = tmp_path / f"act-{turn}.nkp"
        if turn == 0:  # a file holding another packet (perhaps one not sent yet) is never overwritten
            packet.write_text("an earlier packet")
            refused = run("--db", db, "act", game, action, "-o", str(packet), keys=people[person])
            assert refused.exit_code == 2 and "exists" in refused.stderr, refused.output
            assert packet.read_text() == "an earlier packet"
            packet.unlink()
        acted = run("--db", db, "act", game, action, "-o", str(packet), keys=people[person])
        assert acted.exit_code == 0, acted.output
        before = len(list(out.glob("*.nkp")))
        applied = run("--db", host_db, "host", "apply", str(packet), "--out", str(out), keys=people["host"])
        assert applied.exit_code == 0, applied.output
        fresh = sorted(out.glob("*.nkp"))[before:]
        # The seat to move gets its packet at once; the other one when the turn of play passes to
        # someone else (one digest per turn of play, not one mail per move).
        now_to_act = json.loads(run("--db", host_db, "show", game, "--json", keys=people["host"]).stdout)
        assert {m.name.rsplit("-", 1)[1][:-4] for m in fresh} >= set(now_to_act["to_act"])
        assert 1 <= len(fresh) <= 2
        for mail in fresh:
            reader = "ann" if mail.name.endswith("-Ann.nkp") else "bo"
            received = run("--db", new_store(reader), "receive", str(mail), keys=people[reader])
            assert received.exit_code == 0, received.output
            assert "What happened since event" in received.stdout
    host = GameService(host_db)
    hosted = host.resolve_game_id(game)
    for player, person in (("Ann", "ann"), ("Bo", "bo")):
        replica = GameService(new_store(person))
        stored = replica.resolve_game_id(game)
        held = replica.chain_values(stored)
        assert held == host.chain_values(hosted)[: len(held)]  # what a digest has not brought yet follows
        if player in status["to_act"] or len(held) == len(host.chain_values(hosted)):
            assert export_game(replica, stored) == export_game(host, hosted, player)
        audited = run("--db", new_store(person), "audit", game, keys=people[person])
        assert audited.exit_code == 0, audited.output
        replica.close()
    # The same packet again changes nothing; a packet given to the wrong replica is refused.
    replayed = run(
        "--db", host_db, "host", "apply", str(tmp_path / "act-5.nkp"), "--out", str(out), keys=people["host"]
    )
    assert replayed.exit_code == 0 and "already" in replayed.output
    locally = run("--db", host_db, "act", game, "roll", "--as", status["to_act"][0], keys=people["host"])
    assert locally.exit_code != 0
    host.close()


def new_mail_only_game(host_db: str, out: Path, keys: Path) -> Result:
    """Starts a dungeon-short game of two mail-only seats; the first mails go into `out`."""
    mail = ["--mail", "Ann=ann@example.org", "--mail", "Bo=bo@example.org"]
    seats = ["--player", "Ann", "--player", "Bo"]
    return run("--db", host_db, "new", "dungeon-short", *seats, *mail, "--out", str(out), "--json", keys=keys)


def test_a_mail_only_player_plays_by_replying_with_a_number(
    new_store: NewStore, tmp_path: Path, people: dict[str, Path]
) -> None:
    host_db, out = new_store("host"), tmp_path / "out"
    created = new_mail_only_game(host_db, out, people["host"])
    assert created.exit_code == 0, created.output
    game = json.loads(created.stdout)["game"]
    host = GameService(host_db)
    game_id = host.resolve_game_id(game)
    for turn in range(4):
        player = host.get_game(game_id).status["to_act"][0]
        mail = sorted(out.glob(f"*-{player}.eml"))[-1]
        text = body_text(read_eml(mail.read_bytes()))
        assert "Your turn" in text and "Game-Key:" in text
        reply = tmp_path / f"reply-{turn}.eml"
        quoted = "\n".join(f"> {line}" for line in text.splitlines())
        reply.write_text(
            f"From: {player.lower()}@example.org\nTo: host@example.org\nSubject: Re: turn\n\n1\n\n{quoted}\n"
        )
        applied = run("--db", host_db, "host", "apply", str(reply), "--out", str(out), keys=people["host"])
        assert applied.exit_code == 0, applied.output
        again = run("--db", host_db, "host", "apply", str(reply), "--out", str(out), keys=people["host"])
        assert again.exit_code == 0 and "already applied" in again.output, again.output
    actions = [r.event for r in host.recorded_events(game_id) if r.type_name == "ActionTaken"]
    assert [a.auth for a in actions[1:]] == ["mail"] * 4
    assert host.audit(game_id).findings == []
    log = run("--db", host_db, "log", game, keys=people["host"]).stdout
    assert "(by mail, on the host's word)" in log
    host.close()


def test_a_forged_mail_key_is_refused_in_one_line(
    new_store: NewStore, tmp_path: Path, people: dict[str, Path]
) -> None:
    host_db, out = new_store("host"), tmp_path / "out"
    created = new_mail_only_game(host_db, out, people["host"])
    game = json.loads(created.stdout)["game"]
    reply = tmp_path / "forged.eml"
    reply.write_text(f"From: x@example.org\nSubject: Re\n\n1\n> Game-Key: {game} 5 AAAAAAAAAAAAAAAA\n")
    applied = run("--db", host_db, "host", "apply", str(reply), "--out", str(out), keys=people["host"])
    assert applied.exit_code == 1 and "forged" in applied.stderr and applied.stderr.count("\n") == 1


def test_audit_on_a_replica_names_the_packets_kept_against_its_host(
    new_store: NewStore, tmp_path: Path, people: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from event_store.pbem.packets import make_packet, read_packets
    from tests.pbem_table import seat_table

    table = seat_table(new_store, tmp_path, monkeypatch, "dungeon-short", [("Ann", None), ("Bo", None)])
    table.join_all()
    replica, member = table.replicas["Ann"]
    from dataclasses import replace

    seat = replace(table.host.seats(table.game)["Ann"], acked=0, sent=1)  # everything, as an events packet
    honest = read_packets(
        table.host.event_packet(table.game, seat, table.host.service.recorded_events(table.game), [], "")
    )[0]
    entries = list(honest.entries)
    entries[-1] = entries[-1]._replace(chain=bytes(32))
    rewritten = make_packet("events", dict(honest.body, events=entries), table.host.key.sign)
    refused = run("--db", new_store("Ann"), "receive", "-", keys=tmp_path / "keys", stdin=rewritten)
    assert refused.exit_code != 0 and "two histories" in refused.stderr
    audited = run(
        "--db",
        new_store("Ann"),
        "audit",
        str(table.game),
        "--proofs",
        str(tmp_path / "p"),
        keys=tmp_path / "keys",
    )
    assert audited.exit_code == 1 and "kept in this replica" in audited.stdout
    assert sorted(p.name.split("-")[-1] for p in (tmp_path / "p").iterdir()) == [
        "conflicting.nkp",
        "held.nkp",
    ]
    table.close()
