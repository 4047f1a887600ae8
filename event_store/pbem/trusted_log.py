"""What the host trusts of a game's log: the event up to which it has checked the hash chain and the
chain value there (`nightkeep_pbem_verified`, one row a game), so that the outbox checks only the
events it reads, from that value on, instead of the whole log at every packet.

What the host now trusts, and why that is enough:
- It reads a game's events from the earliest one a reader lacks (a seat's `sent` or `acked`, an
  observer's `sent`, the start of a wait) and checks them against the row: the chain is recomputed from
  the stored value at the first event read, must reach the trusted value at the trusted event, and
  must go on unbroken to the head. So every event it sends or decides on is checked, whether it lies
  before or after the trusted event: an event edited there breaks the chain or misses the value.
- It does not look at events before the first it reads: they go in no mail. An early event edited in
  the store is still caught where the whole log matters: `audit`, `export` and `fork` check the chain
  end to end (`GameService.verified_events`), and every replica checks each packet's overlap with the
  chain it holds.
- The row is only as safe as the store: whoever can edit it can edit the events and recompute their
  whole chain, which an end-to-end check does not see either (the chain has no key); what catches that
  is the players' copies and the signed heads (witness.py), not the host's own check. A row that points
  past the log's end, or whose value the log no longer reaches, is refused as tampering.
The row moves only forward, in the transaction that writes the mails of the events it covers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from uuid import UUID

from domain.errors import TamperedLog
from domain.events import GENESIS_CHAIN
from event_store.recorded import RecordedEvent, check_chain
from event_store.sql import SqlStore, Statement

if TYPE_CHECKING:
    from event_store.app.service import GameService


@dataclass(frozen=True)
class CheckedTail:
    """A game's events after event `start`, up to its head, with their chain checked from the trusted
    value; `start_chain` is the chain value at `start` (the genesis value when it is 0)."""

    game: UUID
    start: int
    start_chain: bytes
    events: list[RecordedEvent]

    @property
    def head(self) -> int:
        """Returns the version of the game's last event."""
        return self.start + len(self.events)

    def after(self, version: int) -> list[RecordedEvent]:
        """Returns the events after event `version`, which must not be before the tail's start."""
        if version < self.start:
            raise ValueError(
                f"the events of game {self.game} were read after event {self.start}, not {version}"
            )
        return self.events[version - self.start :]

    def trusted_row(self) -> Statement:
        """Returns the statement that moves the game's trusted event forward to this tail's head."""
        chain = self.events[-1].chain if self.events else self.start_chain
        return (
            "INSERT INTO nightkeep_pbem_verified VALUES (?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "version = excluded.version, chain = excluded.chain "
            "WHERE nightkeep_pbem_verified.version < excluded.version",
            [str(self.game), self.head, chain],
        )


def trusted_head(db: SqlStore, game_id: UUID) -> tuple[int, bytes]:
    """Returns the event up to which the host has checked a game's chain, and the chain value there
    (0 and the genesis value before its first check)."""
    with db.transaction(commit=False) as c:
        c.execute("SELECT version, chain FROM nightkeep_pbem_verified WHERE game_id=?", [str(game_id)])
        row = c.fetchone()
    return (0, GENESIS_CHAIN) if row is None else (int(row[0]), bytes(row[1]))


def checked_tail(service: GameService, db: SqlStore, game_id: UUID, since: int) -> CheckedTail:
    """Returns a game's events after event `since` (or after its trusted event, if that is earlier),
    their chain checked against the trusted value; raises TamperedLog where it breaks."""
    trusted, trusted_chain = trusted_head(db, game_id)
    start = max(0, min(since, trusted))
    if start == 0:
        events, start_chain = service.recorded_events(game_id), GENESIS_CHAIN
    else:  # the event at `start` is read for its chain value, which the trusted value then vouches for
        read = service.recorded_events(game_id, gt=start - 1)
        if not read or read[0].version != start:
            raise TamperedLog(f"game {game_id}: the log has lost event {start}, which the host had checked")
        events, start_chain = read[1:], read[0].chain
    tail = CheckedTail(game_id, start, start_chain, events)
    if tail.head < trusted:
        raise TamperedLog(
            f"game {game_id}: the log ends at event {tail.head}, before event {trusted} the host had checked"
        )
    check_chain(events, f"game {game_id}", start_chain)
    reached = start_chain if trusted == start else events[trusted - start - 1].chain
    if reached != trusted_chain:
        raise TamperedLog(
            f"game {game_id}: the chain no longer reaches the value the host checked at event {trusted}: "
            f"events {start} to {trusted} were changed"
        )
    return tail
