"""A replica audits each packet's events from where its copy's last audit ended (issue 28): whole games
played through a table, counting which packets went on from the kept point and which read the whole
copy, and what a missing, stale or damaged point does (the whole copy is audited; nothing is lost)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import event_store.pbem.replica as replica_module
from domain.audit import AuditReport
from domain.bots import Bot
from domain.errors import TamperedLog
from event_store.app.replay_file import audit_replay
from event_store.audit_points import TABLE, load_point
from event_store.pbem.packets import make_packet, read_packets
from event_store.recorded import fold_recorded
from event_store.transcoder import MsgpackTranscoder
from tests.lying_host import CASTLE, DUNGEON
from tests.pbem_table import NewStore, Table, seat_table

TRANSCODER = MsgpackTranscoder()


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts the replicas' audits from a point (resumed) and of whole copies (whole)."""
    counts = {"resumed": 0, "whole": 0}
    resumed, whole = replica_module.audit_tail, replica_module.check_import

    def audit_tail(*args: Any, **kwargs: Any) -> tuple[AuditReport, Any] | None:
        found = resumed(*args, **kwargs)
        counts["resumed"] += found is not None
        return found

    def check_import(*args: Any, **kwargs: Any) -> Any:
        counts["whole"] += 1
        return whole(*args, **kwargs)

    monkeypatch.setattr(replica_module, "audit_tail", audit_tail)
    monkeypatch.setattr(replica_module, "check_import", check_import)
    return counts


def _play(table: Table, seed: int) -> None:
    bot = Bot(seed)
    turns = 0
    while not table.is_over() and turns < 400:
        table.play_turn(bot)
        turns += 1
    for player in table.replicas:
        table.read_mail(player)


def _host_copy(table: Table, player: str) -> bytes:
    from event_store.app.replay_file import export_game

    return export_game(table.host.service, table.game, player)


@pytest.mark.parametrize(("ruleset", "seats"), [("dungeon-short", DUNGEON), ("vampire-empire", CASTLE)])
def test_a_whole_game_is_audited_packet_by_packet_from_the_kept_point(
    new_store: NewStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    counted: dict[str, int],
    ruleset: str,
    seats: Any,
) -> None:
    table = seat_table(new_store, tmp_path, monkeypatch, ruleset, seats)
    try:
        table.join_all()
        _play(table, 7)
        assert table.is_over()
        for player in table.replicas:
            # Each replica ends with exactly the host's copy for it, and that copy passes the whole audit.
            assert table.copy_of(player) == _host_copy(table, player)
            assert audit_replay(table.copy_of(player)).ok
        # The joins, each copy's first sealed event (its checks change) and the seed's reveal read the
        # whole copy; every other packet went on from the point.
        assert counted["resumed"] > 5 * counted["whole"], counted
    finally:
        table.close()


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    made = seat_table(
        lambda name: str(tmp_path / f"{name}.sqlite"), tmp_path, monkeypatch, "dungeon-short", DUNGEON
    )
    made.join_all()
    yield made
    made.close()


def _points(table: Table, player: str) -> list[tuple[Any, ...]]:
    replica, _ = table.replicas[player]
    with replica.db.transaction(commit=False) as c:
        c.execute(f"SELECT stored_id, version, chain, point FROM {TABLE}")
        return [tuple(row) for row in c.fetchall()]


def _set_point(table: Table, player: str, point: bytes) -> None:
    replica, _ = table.replicas[player]
    with replica.db.transaction(commit=True) as c:
        c.execute(f"UPDATE {TABLE} SET point=?", [point])


@pytest.mark.parametrize(("ruleset", "seats"), [("dungeon-short", DUNGEON), ("vampire-empire", CASTLE)])
def test_the_point_follows_the_copys_head_and_holds_its_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, seats: Any
) -> None:
    """The point is at the copy's head after every packet, and its fold is the fold of the held events
    (what `act` on the replica reads its legal moves from)."""
    table = seat_table(lambda name: str(tmp_path / f"{name}.sqlite"), tmp_path, monkeypatch, ruleset, seats)
    try:
        table.join_all()
        bot = Bot(3)
        for _ in range(12):
            table.play_turn(bot)
            for player in table.replicas:
                table.read_mail(player)
                replica, member = table.replicas[player]
                ((stored, version, chain, _),) = _points(table, player)
                assert stored == str(member.stored)
                head = replica.service.head(member.stored)
                assert (version, bytes(chain)) == head
                point = load_point(replica.db, member.stored, *head)
                assert point is not None
                whole = fold_recorded(replica.service.recorded_events(member.stored))
                assert TRANSCODER.encode([point.fold.meta, point.fold.state]) == TRANSCODER.encode(
                    [whole.meta, whole.state]
                )
    finally:
        table.close()


@pytest.mark.parametrize("damage", ["garbage", "another version", "truncated"])
def test_a_damaged_point_is_passed_over_and_the_whole_copy_audited(
    table: Table, counted: dict[str, int], damage: str
) -> None:
    bot = Bot(5)
    for _ in range(4):
        table.play_turn(bot)
    table.read_mail("Ann")
    ((_, _, _, point),) = _points(table, "Ann")
    point = bytes(point)
    broken = {
        "garbage": b"\xc1not msgpack",
        "another version": point.replace(b"0.4.0", b"0.3.9"),
        "truncated": point[: len(point) // 2],
    }[damage]
    _set_point(table, "Ann", broken)
    counted.update(resumed=0, whole=0)
    _until_mail_for(table, "Ann", bot)
    table.read_mail("Ann")
    assert counted["whole"] >= 1  # the damaged point was not used…
    assert table.copy_of("Ann") == _host_copy(table, "Ann")  # …and nothing was lost
    ((_, _, _, again),) = _points(table, "Ann")
    assert bytes(again) != broken  # a good point was written again


def test_a_point_behind_the_head_is_not_used(table: Table, counted: dict[str, int]) -> None:
    bot = Bot(9)
    for _ in range(4):
        table.play_turn(bot)
    table.read_mail("Ann")
    replica, _ = table.replicas["Ann"]
    with replica.db.transaction(commit=True) as c:
        c.execute(f"UPDATE {TABLE} SET version = version - 1")
    counted.update(resumed=0, whole=0)
    _until_mail_for(table, "Ann", bot)
    table.read_mail("Ann")
    assert counted["whole"] >= 1
    assert table.copy_of("Ann") == _host_copy(table, "Ann")


def test_forged_events_after_the_point_are_refused_as_the_whole_audit_refuses_them(
    table: Table, counted: dict[str, int]
) -> None:
    """A host that signs an event the rules do not give (a die changed, with a chain that follows) is
    refused by the audit from the point, with the finding a whole copy's audit names."""
    from domain.events import next_chain
    from event_store.log_reader import FileEntry

    bot = Bot(11)
    for _ in range(3):
        table.play_turn(bot)
    table.read_mail("Ann")
    replica, _ = table.replicas["Ann"]
    # The next packet to Ann that brings a die roll she does not hold, taken before she reads it.
    rolled = -1
    while rolled < 0:
        table.play_turn(bot)
        waiting = table.mail.pop("Ann", [])
        for text in waiting[:-1]:
            replica.receive(text)
        if not waiting:
            continue
        (packet,) = read_packets(waiting[-1])
        entries = list(packet.entries)
        head = replica.service.head(table.replicas["Ann"][1].stored)[0]
        rolled = next(
            (i for i, e in enumerate(entries) if e.type_name == "DieRolled" and e.version > head), -1
        )
        if rolled < 0:
            replica.receive(waiting[-1])
    # The packet ends with the roll's action: a later action signed on the honest chain would be
    # refused before the audit (another history shown), which is test_lying_host's.
    end = next(
        (i for i in range(rolled, len(entries)) if entries[i].type_name == "ActionTaken"), len(entries)
    )
    entries = entries[:end]
    forged_fields = dict(entries[rolled].fields)
    forged_fields["values"] = [v % 6 + 1 for v in forged_fields["values"]]
    previous = entries[rolled - 1].chain if rolled else _held_head(table)
    forged = []
    for index, entry in enumerate(entries):
        fields = forged_fields if index == rolled else entry.fields
        chain = entry.chain
        if index >= rolled:
            chain = next_chain(previous, entry.type_name, entry.class_version, fields)
        forged.append(
            FileEntry(entry.version, entry.type_name, entry.class_version, fields, chain, entry.time)
        )
        previous = chain
    text = make_packet("events", {**packet.body, "events": forged}, table.host.key.sign)
    before = table.copy_of("Ann")
    counted.update(resumed=0, whole=0)
    with pytest.raises(TamperedLog) as refused:
        replica.receive(text)
    assert "(dice)" in str(refused.value) or "(rules)" in str(refused.value), refused.value
    assert counted["resumed"] == 0  # the audit from the point found it, and the whole copy's audit named it
    assert table.copy_of("Ann") == before  # nothing stored


def _held_head(table: Table) -> bytes:
    replica, member = table.replicas["Ann"]
    return replica.service.head(member.stored)[1]


def _until_mail_for(table: Table, player: str, bot: Bot) -> None:
    """Plays until the host has written the player a packet (a seat not to move may get its mail only
    once a turn of play is over)."""
    for _ in range(40):
        table.play_turn(bot)
        if table.mail.get(player):
            return
    raise AssertionError(f"no mail for {player} in 40 actions")
