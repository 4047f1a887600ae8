"""Play by e-mail through packet files: a host, separate replica stores, signed packets both ways."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.bots import Bot
from domain.errors import BadPacket, NotSigned, UsageError
from domain.events import ActionTaken
from event_store.app.replay_file import audit_replay, export_game
from event_store.pbem.keys import load_key, new_key
from event_store.pbem.packets import BEGIN, END, decode_packet, find_armoured, make_packet, read_packets
from tests.pbem_table import NewStore, Table, seat_table, stored_bytes

DUNGEON = [("Ann", None), ("Bo", None), ("Cy", None)]
CASTLE = [("Ann", "human"), ("Vlad", "vampire")]


def play_out(table: Table, seed: str, cap: int = 3000) -> int:
    bot = Bot(seed)
    turns = 0
    while not table.is_over() and turns < cap:
        table.play_turn(bot)
        turns += 1
    assert table.is_over()
    for player in table.replicas:
        table.read_mail(player)
    return turns


def test_a_three_player_dungeon_game_is_played_through_packets_and_every_replica_equals_the_host(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = seat_table(new_store, tmp_path, monkeypatch, "dungeon-short", DUNGEON)
    table.join_all()
    play_out(table, "dungeon")
    service = table.host.service
    for player in table.replicas:
        copy = table.copy_of(player)
        assert copy == export_game(service, table.game, player)
        assert audit_replay(copy).findings == []
    assert service.audit(table.game).findings == []
    actions = [r.event for r in service.recorded_events(table.game) if isinstance(r.event, ActionTaken)]
    assert {a.auth for a in actions if a.player != "host"} == {"signed"}


def test_a_vampire_empire_game_through_packets_keeps_the_vampire_secrets_out_of_the_human_replica(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = seat_table(new_store, tmp_path, monkeypatch, "vampire-empire", CASTLE)
    table.join_all()
    play_out(table, "castle")
    service = table.host.service
    for player in ("Ann", "Vlad"):
        assert table.copy_of(player) == export_game(service, table.game, player)
        assert audit_replay(table.copy_of(player)).findings == []
    assert audit_replay(export_game(service, table.game)).findings == []
    # Every salt of Vlad's private events, and every value in them Ann never saw in the open (an
    # unrevealed identity, a card of Vlad's hand), searched in the SQLite file itself.
    seen_by_ann = table.copy_of("Ann")
    private = [r.fields for r in service.recorded_events(table.game) if r.fields.get("owner") == "Vlad"]
    salts = [f["salt"] for f in private]
    hidden = {v for f in private for v in _texts(f) if v.encode() not in seen_by_ann}
    assert salts and hidden, "the game had private events of the vampire player"
    store = stored_bytes(table.replicas["Ann"][0].service)
    own = [r.fields["salt"] for r in service.recorded_events(table.game) if r.fields.get("owner") == "Ann"]
    assert own and all(s in store for s in own), "the search finds what the replica does hold"
    assert [s for s in salts if s in store] == []
    assert [v for v in hidden if v.encode() in store] == []


def _texts(fields: dict[str, object]) -> list[str]:
    out: list[str] = []
    for key, value in fields.items():
        items = value if isinstance(value, list) else [value]
        out += [v for v in items if isinstance(v, str) and key != "owner" and len(v) >= 4]
    return out


def test_entropy_packets_made_at_once_are_all_taken_then_the_host_deals_by_itself(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = seat_table(new_store, tmp_path, monkeypatch, "dungeon-short", DUNGEON, wait_for_entropy=True)
    table.join_all()
    packets = {p: table.replicas[p][0].entropy_packet(table.replicas[p][1]) for p in ("Ann", "Bo", "Cy")}
    for player in ("Ann", "Bo"):  # made before any was applied: their order does not matter
        assert table.host.handle_text(packets[player])[0].ok
    assert table.host.service.fold(table.game).meta["actions"] == 0  # Cy's is not in yet
    again = table.host.handle_text(packets["Ann"])[0]
    assert again.ok and again.duplicate
    assert table.host.handle_text(packets["Cy"])[0].ok
    assert table.host.service.fold(table.game).meta["actions"] == 1  # dealt
    assert table.host.service.audit(table.game).findings == []
    table.deliver()
    for player in ("Ann", "Bo", "Cy"):
        table.read_mail(player)
        assert audit_replay(table.copy_of(player)).findings == []


@pytest.fixture
def running(new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    table = seat_table(new_store, tmp_path, monkeypatch, "dungeon-short", DUNGEON)
    table.join_all()
    table.play_turn(Bot("x"))
    yield table
    table.close()


def _next_packet(table: Table) -> tuple[str, str]:
    player = table.to_act()[0]
    table.read_mail(player)
    replica, member = table.replicas[player]
    return player, replica.action_packet(member, replica.legal_actions(member)[0].id)


def _refused(table: Table, text: str, reason: str) -> None:
    chains = table.host.service.chain_values(table.game)
    handled = table.host.handle_text(text)
    assert not handled[0].ok
    assert re.search(reason, handled[0].detail), handled[0].detail
    assert "\n" not in handled[0].detail
    assert table.host.service.chain_values(table.game) == chains


def test_a_forged_signature_is_refused_and_nothing_is_stored(running: Table) -> None:
    player, text = _next_packet(running)
    packet = read_packets(text)[0]
    forged = make_packet("action", packet.body, new_key("mallory").sign)
    _refused(running, forged, "not signed by")


def test_a_packet_signed_by_another_players_key_is_refused(running: Table) -> None:
    player, text = _next_packet(running)
    other = next(p for p in ("Ann", "Bo", "Cy") if p != player)
    packet = read_packets(text)[0]
    _refused(running, make_packet("action", packet.body, load_key(other.lower()).sign), "not signed by")


def test_a_packet_for_a_player_whose_turn_it_is_not_is_refused(running: Table) -> None:
    player, _ = _next_packet(running)
    other = next(p for p in ("Ann", "Bo", "Cy") if p != player)
    replica, member = running.replicas[other]
    running.read_mail(other)
    head = running.host.service.recorded_events(running.game)
    body = {
        "game": str(running.game),
        "player": other,
        "version": len(head),
        "chain": head[-1].chain,
        "action": "roll",
        "nonce": b"n",
    }
    _refused(running, make_packet("action", body, load_key(other.lower()).sign), "not .*turn")


def test_a_replayed_packet_is_not_applied_twice(running: Table) -> None:
    _, text = _next_packet(running)
    assert running.host.handle_text(text)[0].ok
    before = running.host.service.chain_values(running.game)
    again = running.host.handle_text(text)[0]
    assert again.ok and again.duplicate
    assert running.host.service.chain_values(running.game) == before


def test_a_copy_of_a_packet_with_its_body_re_encoded_is_refused_and_binds_no_address(running: Table) -> None:
    import msgpack

    from domain.events import canonical_bytes
    from event_store.pbem.packets import armour

    _, text = _next_packet(running)
    packet = read_packets(text)[0]
    assert running.host.handle_text(text, "ann-or-bo@example.org")[0].ok
    # The same move, signature and all, with the body's keys in another order: a new digest.
    shuffled = msgpack.packb(dict(reversed(list(msgpack.unpackb(packet.body_bytes).items()))))
    assert shuffled != packet.body_bytes
    document = {"format": "nightkeep-packet", "format_version": 1, "kind": packet.kind}
    forged = armour(canonical_bytes({**document, "body": shuffled, "signature": packet.signature}))
    with pytest.raises(BadPacket, match="canonical"):
        read_packets(forged)
    before = running.host.seats(running.game)[packet.player].mail
    assert running.host.handle_text(forged, "eve@evil.example")[0].ok is False
    # An exact copy sent from elsewhere is a duplicate, and does not become the seat's address.
    assert running.host.handle_text(text, "eve@evil.example")[0].duplicate
    assert running.host.seats(running.game)[packet.player].mail == before != "eve@evil.example"


def test_a_packet_made_before_the_game_moved_on_is_refused(running: Table) -> None:
    _, first = _next_packet(running)
    assert running.host.handle_text(first)[0].ok
    packet = read_packets(first)[0]
    stale = dict(packet.body, version=packet.body["version"] - 2)
    stale["chain"] = running.host.service.chain_values(running.game)[stale["version"] - 1]
    _refused(running, make_packet("action", stale, load_key(packet.player.lower()).sign), "moved on")


def test_a_packet_from_a_history_the_host_never_had_is_refused(running: Table) -> None:
    _, text = _next_packet(running)
    packet = read_packets(text)[0]
    wrong = dict(packet.body, chain=b"\x01" * 32)
    _refused(running, make_packet("action", wrong, load_key(packet.player.lower()).sign), "does not chain")


def test_a_packet_for_another_game_is_refused(running: Table) -> None:
    _, text = _next_packet(running)
    packet = read_packets(text)[0]
    other = dict(packet.body, game="00000000-0000-4000-8000-000000000000")
    _refused(running, make_packet("action", other, load_key(packet.player.lower()).sign), "no game")


def test_truncated_and_damaged_packets_are_refused_in_one_line(running: Table) -> None:
    _, text = _next_packet(running)
    _refused(running, text[: len(text) // 2], "truncated")
    lines = text.splitlines()
    damaged = "\n".join([*lines[:2], lines[2][:-3] + "AAA", *lines[3:]])
    _refused(running, damaged, "damaged")


def test_a_packet_survives_quoting_rewrapping_and_crlf(running: Table) -> None:
    _, text = _next_packet(running)
    quoted = "".join(f"> {line}\r\n" for line in text.splitlines())
    inner = "".join(text.split(BEGIN)[1].split(END)[0].split())
    rewrapped = (
        f"See below.\n{BEGIN} " + " ".join(inner[i : i + 50] for i in range(0, len(inner), 50)) + f" {END}"
    )
    for variant in (quoted, rewrapped):
        assert find_armoured(variant) == find_armoured(text)
    assert running.host.handle_text(quoted)[0].ok


def test_a_host_packet_sent_to_the_host_is_refused(running: Table) -> None:
    invite = running.host.event_packet(
        running.game,
        running.host.seats(running.game)["Ann"],
        running.host.service.recorded_events(running.game),
        [],
        "",
    )
    _refused(running, invite, "come from the host")


def test_a_replica_refuses_a_packet_not_signed_by_its_host(running: Table) -> None:
    player = running.to_act()[0]
    text = running.mail[player][-1]
    packet = read_packets(text)[0]
    forged = make_packet(packet.kind, packet.body, new_key("fake-host").sign)
    replica, _ = running.replicas[player]
    with pytest.raises(BadPacket, match="not signed by"):
        replica.receive(forged)


def test_a_host_that_rewrites_history_is_caught_and_both_packets_are_kept(running: Table) -> None:
    player = running.to_act()[0]
    running.read_mail(player)
    replica, member = running.replicas[player]
    held = read_packets(running_packet(running, player))[0]
    entries = list(held.entries)
    last = entries[-1]
    entries[-1] = last._replace(chain=bytes(32))
    body = dict(held.body, events=entries)
    rewritten = make_packet("events", body, running.host.key.sign)
    before = replica.service.chain_values(member.stored)
    with pytest.raises(BadPacket, match="two histories"):
        replica.receive(rewritten)
    assert replica.service.chain_values(member.stored) == before
    (proof,) = replica.proofs(running.game)
    assert proof.version == last.version and proof.conflicting == rewritten and BEGIN in proof.held


def running_packet(table: Table, player: str) -> str:
    """Returns the host's events packet for a seat as it stands now."""
    seat = table.host.seats(table.game)[player]
    return table.host.event_packet(table.game, seat, table.host.service.recorded_events(table.game), [], "")


def test_the_host_cannot_act_for_a_signing_player_at_its_terminal(running: Table) -> None:
    player = running.to_act()[0]
    action = running.host.service.legal_actions(running.game, player)[0]
    with pytest.raises(NotSigned):
        running.host.service.take_action(running.game, player, action.id)


def test_the_audit_finds_an_action_whose_signature_does_not_match(running: Table) -> None:
    from domain.audit import RawEntry, audit_log

    entries = running.host.service.log_entries(running.game)
    index = next(i for i, e in enumerate(entries) if e.type_name == "ActionTaken" and e.fields["auth"])
    forged = dict(entries[index].fields, action="something-else")
    tampered = [*entries[:index], entries[index]._replace(fields=forged), *entries[index + 1 :]]
    report = audit_log([RawEntry(*e) for e in tampered])
    assert any(f.kind == "signature" and f.version == index + 1 for f in report.findings)


def test_keys_are_owner_only_and_export_as_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp_path / "k"))
    pair = new_key("ann")
    assert stat.S_IMODE(os.stat(tmp_path / "k" / "ann.key").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(tmp_path / "k").st_mode) == 0o700
    assert "\n" not in pair.public_text and pair.public_text.startswith("nightkeep-ed25519 ")
    with pytest.raises(UsageError, match="already a key"):
        new_key("ann")
    assert load_key("ann").public == pair.public


def test_a_packet_with_a_repeated_key_is_unreadable() -> None:
    import msgpack

    data = msgpack.packb({"format": "nightkeep-packet"}, use_bin_type=True)
    doubled = b"\x82" + data[1:] + data[1:]  # the same key twice
    with pytest.raises(BadPacket, match="names the key 'format' twice"):
        decode_packet(doubled)


def test_a_replica_store_holds_no_seed(running: Table) -> None:
    replica, member = running.replicas["Ann"]
    with running.replicas["Ann"][0].db.transaction(commit=False) as c:
        c.execute("SELECT COUNT(*) FROM nightkeep_secrets")
        assert c.fetchone()[0] == 0
    assert not replica.service.holds_seed(member.stored)


def test_the_host_cannot_give_entropy_in_a_mail_only_seats_name(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from domain.audit import RawEntry, audit_log
    from domain.events import EntropyAdded, next_chain

    table = seat_table(
        new_store, tmp_path, monkeypatch, "vampire-empire", CASTLE, mail_only=("Vlad",), wait_for_entropy=True
    )
    with pytest.raises(NotSigned, match="plays by mail"):
        table.host.service.add_entropy(table.game, "Vlad", b"chosen by the host")
    # Written into a log by hand, the audit names it.
    entries = table.host.service.log_entries(table.game)
    event = EntropyAdded(player="Vlad", value=b"chosen by the host")
    chain = next_chain(entries[-1].chain, event.type_name, event.class_version, event.to_fields())
    forged = [
        *entries,
        RawEntry(len(entries) + 1, event.type_name, event.class_version, event.to_fields(), chain),
    ]
    report = audit_log(forged)
    assert any(f.kind == "signature" and "host's own" in f.detail for f in report.findings)


def test_a_fork_of_a_game_played_by_email_is_played_at_one_terminal(running: Table) -> None:
    service = running.host.service
    boundary = (
        max(r.version for r in service.recorded_events(running.game) if r.type_name == "ActionTaken") - 1
    )
    fork_id, _ = service.fork_game(running.game, boundary)
    player = service.get_game(fork_id).status["to_act"][0]
    action = service.legal_actions(fork_id, player)[0]
    service.take_action(fork_id, player, action.id)  # no signature asked: the seats' keys bound the original
    assert service.audit(fork_id).findings == []
