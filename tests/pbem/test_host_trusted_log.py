"""The host checks a game's chain from the event it already checked (issue 28): it remembers that event
and its chain value per game, reads only the events its mails are made of, still refuses an edited
event it would send, keeps what it trusts across a restart, and an edited event outside every mail is
still caught by `export` and `audit`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.bots import Bot
from domain.errors import TamperedLog
from domain.events import next_chain
from event_store.app.replay_file import audit_replay, export_game
from event_store.app.service import GameService
from event_store.pbem import club_host
from event_store.pbem.hosting import Host
from event_store.pbem.replica import Replica
from event_store.pbem.trusted_log import trusted_head
from tests import store_rows
from tests.pbem_helpers import seed_randomness
from tests.pbem_table import NewStore, Table, seat_table

SEATS: list[tuple[str, str | None]] = [("Ann", None), ("Bo", None)]


def hosted(new_store: NewStore, tmp: Path, monkeypatch: pytest.MonkeyPatch, turns: int) -> Table:
    """A dungeon-short game of Ann and Bo with keys, both joined, `turns` turns played through packets."""
    seed_randomness(monkeypatch, 28)
    table = seat_table(new_store, tmp, monkeypatch, "dungeon-short", SEATS)
    table.join_all()
    for turn in range(turns):
        table.play_turn(Bot(str(turn)))
    return table


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    made = hosted(lambda name: str(tmp_path / f"{name}.sqlite"), tmp_path, monkeypatch, turns=4)
    yield made
    made.close()


def head_of(table: Table) -> tuple[int, bytes]:
    last = table.host.service.recorded_events(table.game)[-1]
    return last.version, last.chain


def edit_roll(service: GameService, game: UUID, version: int, rechain: bool = False) -> None:
    """Turns the faces of the DieRolled stored at `version` over (as a forger would), and with `rechain`
    recomputes the chain value of that event and of every one after it, as a careful forger would."""
    transcoder = service.mapper.transcoder
    envelope = transcoder.decode(store_rows.event_state(service, game, version))
    assert envelope["type"] == "DieRolled"
    envelope["fields"]["values"] = [7 - v for v in envelope["fields"]["values"]]
    if not rechain:
        store_rows.set_event_state(service, game, version, transcoder.encode(envelope))
        return
    chain = service.recorded_events(game, gt=version - 2, lte=version - 1)[0].chain
    head = len(service.chain_values(game))
    for at in range(version, head + 1):
        if at != version:
            envelope = transcoder.decode(store_rows.event_state(service, game, at))
        chain = next_chain(chain, envelope["type"], envelope["v"], envelope["fields"])
        envelope["chain"] = chain
        store_rows.set_event_state(service, game, at, transcoder.encode(envelope))


def first_roll(table: Table, after: int = 0, upto: int | None = None) -> int:
    """Returns the version of the first DieRolled after event `after` (up to `upto`)."""
    recorded = table.host.service.recorded_events(table.game, gt=after, lte=upto)
    return next(r.version for r in recorded if r.type_name == "DieRolled")


def replicas_hold_what_the_host_exports(table: Table) -> None:
    for player in table.replicas:
        table.read_mail(player)
        assert table.copy_of(player) == export_game(table.host.service, table.game, player)


def test_the_host_trusts_the_head_it_mailed_and_keeps_it_across_a_restart(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = hosted(new_store, tmp_path, monkeypatch, turns=3)
    assert trusted_head(table.host.db, table.game) == head_of(table)

    table.host.service.close()  # the host process ends; a new one opens the same store
    table.host = Host(GameService(new_store("host")), table.host.key)
    assert trusted_head(table.host.db, table.game) == head_of(table)
    reads: list[tuple[Any, Any]] = []
    envelopes = table.host.service._envelopes

    def spied(game_id: UUID, gt: int | None, lte: int | None) -> Any:
        reads.append((gt, lte))
        return envelopes(game_id, gt, lte)

    monkeypatch.setattr(table.host.service, "_envelopes", spied)
    table.play_turn(Bot("after the restart"))

    # The packet's check reads the events at its version; the mails, those a seat has not acknowledged.
    assert reads and all(gt is not None and gt > 0 for gt, _ in reads), reads
    assert trusted_head(table.host.db, table.game) == head_of(table)
    replicas_hold_what_the_host_exports(table)
    table.close()


def test_an_edited_event_after_the_trusted_head_stops_the_mail_that_would_carry_it(table: Table) -> None:
    trusted = trusted_head(table.host.db, table.game)
    player = table.to_act()[0]
    table.read_mail(player)
    replica, member = table.replicas[player]
    packet = replica.action_packet(member, "roll")
    assert table.host.handle_text(packet)[0].ok
    edited = first_roll(table, after=trusted[0])

    edit_roll(table.host.service, table.game, edited)

    with pytest.raises(TamperedLog, match=f"the chain breaks at event {edited} "):
        table.host.follow()
    assert table.host.due() == []  # no mail of the forged event, and nothing more trusted
    assert trusted_head(table.host.db, table.game) == trusted


def test_a_checked_event_edited_with_its_chain_recomputed_is_caught_when_a_mail_would_carry_it(
    table: Table,
) -> None:
    trusted, _ = trusted_head(table.host.db, table.game)
    unacknowledged = min(seat.acked for seat in table.host.seats(table.game).values())
    edited = first_roll(table, after=unacknowledged, upto=trusted)

    edit_roll(table.host.service, table.game, edited, rechain=True)

    with pytest.raises(TamperedLog, match=f"no longer reaches the value the host checked at event {trusted}"):
        table.host.owed(table.game, force=True)


def test_an_early_event_in_no_mail_passes_the_host_but_not_export_or_audit(table: Table) -> None:
    unacknowledged = min(seat.acked for seat in table.host.seats(table.game).values())
    edited = first_roll(table, upto=unacknowledged)

    edit_roll(table.host.service, table.game, edited)

    assert table.host.owed(table.game, force=True) == []  # every seat has been sent every event
    with pytest.raises(TamperedLog, match=f"the chain breaks at event {edited} "):
        export_game(table.host.service, table.game)
    assert any(str(edited) in finding for finding in map(str, table.host.service.audit(table.game).findings))


def test_a_trusted_row_past_the_log_or_off_its_chain_is_refused(table: Table) -> None:
    version, chain = trusted_head(table.host.db, table.game)
    row = "UPDATE nightkeep_pbem_verified SET version=?, chain=? WHERE game_id=?"

    store_rows.update(table.host.service, row, [version + 5, chain, str(table.game)])
    with pytest.raises(TamperedLog, match=f"the log ends at event {version}, before event {version + 5}"):
        table.host.owed(table.game)

    store_rows.update(table.host.service, row, [version, bytes(32), str(table.game)])
    with pytest.raises(TamperedLog, match="no longer reaches"):
        table.host.owed(table.game)


def test_after_a_rollback_a_reveal_and_a_fork_every_seat_holds_what_the_host_exports(table: Table) -> None:
    host, game = table.host, table.game
    point = len(host.service.chain_values(game))
    player = table.to_act()[0]
    table.read_mail(player)
    replica, member = table.replicas[player]
    assert host.handle_text(replica.action_packet(member, replica.legal_actions(member)[0].id))[0].ok
    club_host.propose_rollback(host, game, point, "misread")
    table.deliver()
    table.read_mail(player)
    assert (
        "went back"
        in host.handle_text(Replica.words_packet(replica, member, "answer", agreed=True))[0].detail
    )
    table.deliver()
    table.play_turn(Bot("after the rollback"))
    host.service.fork_game(game, point)  # another game in the host's store: this one's mail is unchanged
    table.play_turn(Bot("after the fork"))
    host.service.reveal_seed(game)
    table.deliver()

    replicas_hold_what_the_host_exports(table)
    assert trusted_head(host.db, game) == head_of(table)
    for player in table.replicas:
        assert not audit_replay(table.copy_of(player)).findings
