"""What the host writes together is written in one transaction, on SQLite and on PostgreSQL: a failure
injected between a packet's events and its seat/seen rows, or a hosted game and its seats, leaves
neither; the outbox follower stopped before its commit, or racing another host, writes each mail once."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest

from domain.bots import Bot
from event_store.app.service import GameService
from event_store.follower_positions import GamePositions, heads
from event_store.pbem.hosting import Host
from event_store.pbem.outbox import TRACKING
from event_store.pbem.packets import read_packets
from tests.pbem_table import NewStore, Table, seat_table

DUNGEON = [("Ann", None), ("Bo", None), ("Cy", None)]


class Injected(Exception):
    """The failure a test injects into a transaction."""


@pytest.fixture
def table(new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    made = seat_table(new_store, tmp_path, monkeypatch, "dungeon-short", DUNGEON)
    made.join_all()
    yield made
    made.close()


def _action_packet(table: Table) -> tuple[str, str]:
    player = table.to_act()[0]
    table.read_mail(player)
    replica, member = table.replicas[player]
    return player, replica.action_packet(member, replica.legal_actions(member)[0].id)


def _outbox(host: Host) -> list[tuple[str, str, int]]:
    with host.db.transaction(commit=False) as c:
        c.execute("SELECT game_id, player, version FROM nightkeep_pbem_outbox WHERE packet <> '' ORDER BY id")
        return [tuple(row) for row in c.fetchall()]


def _positions(host: Host) -> dict[UUID, int]:
    """Returns the outbox follower's position in each game it has taken."""
    return GamePositions(host.db, TRACKING).taken()


def test_a_packet_whose_seen_row_fails_leaves_no_event_and_no_ack_then_applies_once(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    import event_store.pbem.hosting as hosting

    player, packet = _action_packet(table)
    chains = table.host.service.chain_values(table.game)
    acked = table.host.seats(table.game)[player].acked
    # The statement that remembers the packet fails inside the events' transaction.
    failing = ("INSERT INTO no_such_table VALUES (?)", ["x"])
    with monkeypatch.context() as patched, pytest.raises(Exception, match="no_such_table"):
        patched.setattr(hosting, "_seen_row", lambda digest, outcome, final=False: failing)
        table.host.handle_text(packet)
    assert table.host.service.chain_values(table.game) == chains
    assert table.host.seats(table.game)[player].acked == acked
    (handled,) = table.host.handle_text(packet)
    assert handled.ok and not handled.duplicate, handled.detail
    after = table.host.service.chain_values(table.game)
    assert after[: len(chains)] == chains and len(after) > len(chains)
    assert table.host.seats(table.game)[player].acked == len(chains)
    (again,) = table.host.handle_text(packet)
    assert again.duplicate and table.host.service.chain_values(table.game) == after


def test_a_packets_events_its_ack_and_its_seen_row_are_one_transaction(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, packet = _action_packet(table)
    (parsed,) = read_packets(packet)
    saves: list[list[str]] = []
    real_save = table.host.service.save

    def recording_save(*aggregates, **kwargs):  # type: ignore[no-untyped-def]
        saves.append([sql for sql, _ in kwargs.get("rows", ())])
        return real_save(*aggregates, **kwargs)

    monkeypatch.setattr(table.host.service, "save", recording_save)
    assert table.host.handle_text(packet)[0].ok
    (rows,) = saves  # one save stored the action's events, and with them:
    assert any("UPDATE nightkeep_pbem_seats" in sql for sql in rows)
    assert any("INSERT INTO nightkeep_pbem_seen" in sql for sql in rows)
    assert table.host.seen(parsed.digest) is not None


def test_a_hosted_game_whose_seats_cannot_be_written_is_not_stored_at_all(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = seat_table(new_store, tmp_path, monkeypatch, "dungeon-short", DUNGEON)
    host = made.host
    before = heads(host.db)
    with host.db.transaction(commit=True) as c:
        c.execute("DROP TABLE nightkeep_pbem_seats")
    with pytest.raises(Exception, match="nightkeep_pbem_seats"):
        host.create("dungeon-short", DUNGEON, {}, {}, "host@example.org")
    assert heads(host.db) == before  # no event of a second game
    assert host.service.secrets.held() == {made.game}  # nor its seed
    again = Host(host.service, host.key)  # makes the table again
    second = again.create("dungeon-short", DUNGEON, {}, {}, "host@example.org")
    assert set(again.seats(second)) == {"Ann", "Bo", "Cy"}
    made.close()


def test_the_outbox_follower_stopped_before_its_commit_writes_nothing_then_each_mail_once(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    import event_store.pbem.outbox as outbox

    table.deliver()
    _, packet = _action_packet(table)
    assert table.host.handle_text(packet)[0].ok
    position, written = _positions(table.host), _outbox(table.host)
    real_queue = outbox._queue
    calls = []

    def queue_then_die(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args)
        real_queue(*args, **kwargs)
        if len(calls) == 2:  # a mail written, more to come: the process stops here
            raise Injected("killed")

    with monkeypatch.context() as patched, pytest.raises(Injected):
        patched.setattr(outbox, "_queue", queue_then_die)
        table.host.follow()
    assert (_positions(table.host), _outbox(table.host)) == (position, written)
    # Restarted: a new process on the same store.
    restarted = Host(GameService(table.store("host")), table.host.key)
    assert restarted.follow() == len(DUNGEON)
    assert restarted.follow() == 0
    new = _outbox(restarted)[len(written) :]
    assert sorted(player for _, player, _ in new) == ["Ann", "Bo", "Cy"]
    assert max(Counter(_outbox(restarted)).values()) == 1  # no seat owed the same event twice
    restarted.service.close()


def test_two_hosts_following_at_once_write_each_mail_once(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.deliver()
    table.play_turn(Bot("x"))  # delivered: nothing owed
    _, packet = _action_packet(table)
    assert table.host.handle_text(packet)[0].ok
    other = Host(GameService(table.store("host")), table.host.key)
    real_owed = table.host.owed
    raced = []

    owed_here = []

    def owed_while_the_other_follows(game_id):  # type: ignore[no-untyped-def]
        mails = real_owed(game_id)
        if not raced:  # between this host's reading and its writing, the other host writes the batch
            owed_here.append(len(mails))
            raced.append(other.follow())
        return mails

    monkeypatch.setattr(table.host, "owed", owed_while_the_other_follows)
    assert table.host.follow() == 0  # the game's mail was written by the other: it writes none
    assert raced == owed_here and raced[0] >= 1  # the other wrote the very mails this host read
    assert max(Counter(_outbox(table.host)).values()) == 1
    assert _positions(table.host) == heads(table.host.db)
    other.service.close()


def test_two_host_processes_writing_the_same_batch_at_the_same_moment_write_it_once(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.deliver()
    _, packet = _action_packet(table)
    assert table.host.handle_text(packet)[0].ok
    hosts = [Host(GameService(table.store("host")), table.host.key) for _ in range(2)]
    both_read = threading.Barrier(2, timeout=60)
    for host in hosts:
        real_owed = host.owed

        def owed_then_wait(game_id, real_owed=real_owed):  # type: ignore[no-untyped-def]
            mails = real_owed(game_id)
            both_read.wait()  # both have read the position and the mails before either writes
            return mails

        monkeypatch.setattr(host, "owed", owed_then_wait)
    written: list[int] = []
    threads = [threading.Thread(target=lambda h=h: written.append(h.follow())) for h in hosts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(written) == [0, len(DUNGEON)]
    assert max(Counter(_outbox(table.host)).values()) == 1
    for host in hosts:
        host.service.close()
