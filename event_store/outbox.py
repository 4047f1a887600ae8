"""What the host owes its players: the outbox of a play-by-e-mail host (a part of `hosting.Host`).

`follow` reads the notification log from where it stopped and, for every hosted game it touched,
writes the mail each seat is owed — a signed event packet of what that seat has not acknowledged,
redacted for it, or for a mail-only seat the board and its numbered actions — in the same transaction
as the position it reached and the seats' `sent` marks. `due` and `mark_sent` drain it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.errors import StaleVersion
from event_store.log_reader import FileEntry
from event_store.packets import make_packet
from event_store.recorded import RecordedEvent, redacted
from event_store.sql import SqlStore

if TYPE_CHECKING:
    from event_store.hosting import Seat

TRACKING = "outbox"


@dataclass(frozen=True)
class Outgoing:
    """A mail the host owes: to whom, about what, and the packet it carries (if any)."""

    id: int
    game: UUID
    player: str
    to: str
    subject: str
    body: str
    packet: str
    version: int


class Outbox:
    """The outbox half of a host; `Host` gives it `service`, `db`, `describe`, `seats`, `key_for`…"""

    if TYPE_CHECKING:
        from event_store.hosting import Describe
        from event_store.keys import KeyPair
        from event_store.service import GameService

        service: GameService
        db: SqlStore
        describe: Describe

        def seats(self, game_id: UUID) -> dict[str, Seat]: ...
        def key_for(self, game_id: UUID) -> KeyPair: ...
        def is_hosted(self, game_id: UUID) -> bool: ...
        def _game_row(self, game_id: UUID) -> tuple[str, bytes, int, int]: ...
        def mail_key(self, game_id: UUID, player: str, version: int) -> str: ...

    def follow(self, batch: int = 500) -> int:
        """Writes the mail owed for every event stored since the last call into the outbox, with the
        notification position reached, in one transaction; returns how many mails it wrote. Two hosts
        following at once cannot both write a batch: the position is compared before it is moved."""
        position = self._position()
        written = 0
        while True:
            notes = self.service.recorder.select_notifications(position + 1, batch)
            if not notes:
                return written
            games = list(dict.fromkeys(n.originator_id for n in notes))
            mails = [m for g in games if isinstance(g, UUID) and self.is_hosted(g) for m in self.owed(g)]
            if not self._write(mails, position, notes[-1].id):
                return written  # another host process moved on meanwhile: its batch stands
            position = notes[-1].id
            written += len(mails)

    def queue_owed(self, game_id: UUID, seen: str = "") -> int:
        """Writes what one game owes its seats now (after a join asked for it again), and records the
        packet that asked as handled in the same transaction."""
        for _ in range(3):  # another host process may move the position meanwhile: look again
            position = self._position()
            mails = self.owed(game_id)
            if self._write(mails, position, position, seen):
                return len(mails)
        raise StaleVersion("the outbox kept moving under this join: send it again")

    def _position(self) -> int:
        with self.db.transaction(commit=False) as c:
            c.execute("SELECT position FROM nightkeep_pbem_tracking WHERE name=?", [TRACKING])
            row = c.fetchone()
        return int(row[0]) if row else 0

    def _write(self, mails: list[Outgoing], expected: int, position: int, seen: str = "") -> bool:
        """Stores mails, the seats' `sent` marks and the new position in one transaction, if the
        position is still `expected`; returns whether it was."""
        with self.db.transaction(commit=True) as c:
            c.execute(
                "INSERT INTO nightkeep_pbem_tracking VALUES (?, 0) ON CONFLICT (name) DO NOTHING",
                [TRACKING],
            )
            # Compared and moved in one statement: a second host process waits on the row (PostgreSQL)
            # or the file (SQLite) and then finds it moved, so two cannot both write the same batch.
            c.execute(
                "UPDATE nightkeep_pbem_tracking SET position=? WHERE name=? AND position=? RETURNING name",
                [position, TRACKING, expected],
            )
            if c.fetchone() is None:
                return False
            for m in mails:
                _queue(c, str(m.game), m.player, m.to, m.subject, m.body, m.packet, m.version)
                c.execute(
                    "UPDATE nightkeep_pbem_seats SET sent=? WHERE game_id=? AND player=? AND sent<?",
                    [m.version, str(m.game), m.player, m.version],
                )
            if seen:
                c.execute(
                    "INSERT INTO nightkeep_pbem_seen VALUES (?, 'handled') ON CONFLICT (digest) DO NOTHING",
                    [seen],
                )
        return True

    def owed(self, game_id: UUID) -> list[Outgoing]:
        """Returns the mails a game owes its seats now (not yet in the outbox)."""
        recorded = self.service.verified_events(game_id)
        head = len(recorded)
        to_act = list(self.service.get_game(game_id).status.get("to_act", []))
        host_mail, _, _, _ = self._game_row(game_id)
        out = []
        for seat in self.seats(game_id).values():
            if seat.sent >= head or not (seat.pubkey or seat.mail):
                continue
            if seat.pubkey:
                packet = self.event_packet(game_id, seat, recorded, to_act, host_mail)
                kind = "invitation" if seat.sent == 0 else "events"
            else:
                packet, kind = "", "mail"
            body = self.describe(game_id, seat.player, seat.sent, head)
            if not seat.pubkey:
                body += self.mail_only_part(game_id, seat.player, head, to_act)
            subject = f"nightkeep {kind}: game {game_id} event {head}" + (
                f", your turn, {seat.player}" if seat.player in to_act else ""
            )
            out.append(Outgoing(0, game_id, seat.player, seat.mail, subject, body, packet, head))
        return out

    def event_packet(
        self, game_id: UUID, seat: Seat, recorded: list[RecordedEvent], to_act: list[str], host_mail: str
    ) -> str:
        """Returns the signed packet of what a seat has not acknowledged (an invitation before it has
        seen anything), redacted for that seat."""
        invite = seat.sent == 0 and seat.acked == 0
        since = 0 if invite else seat.acked
        entries = [_entry(r) for r in redacted(recorded[since:], seat.player)]
        body: dict[str, Any]
        if invite:
            body = {
                "game": str(game_id),
                "player": seat.player,
                "host_key": self.key_for(game_id).public,
                "host_mail": host_mail,
                "events": entries,
            }
            return make_packet("invite", body, self.key_for(game_id).sign)
        body = {
            "game": str(game_id),
            "player": seat.player,
            "since": since,
            "events": entries,
            "to_act": to_act,
        }
        return make_packet("events", body, self.key_for(game_id).sign)

    def mail_only_part(self, game_id: UUID, player: str, head: int, to_act: list[str]) -> str:
        """Returns the end of a mail to a mail-only seat: its numbered actions on its turn, and the
        Game-Key line a reply must quote."""
        key_line = self.key_line(game_id, player, head)
        if player not in to_act:
            note = "It is not your turn. Reply `status`, `history` or `help`, quoting this line:"
            return f"\n\n{note}\n{key_line}"
        actions = self.service.legal_actions(game_id, player)
        lines = [f"  {n}. {a.id} — {a.label}" for n, a in enumerate(actions, start=1)]
        return (
            "\n\nYour turn. Reply with the number or the id of your action as the first line, keeping the "
            "line below quoted:\n" + "\n".join(lines) + f"\n\n{key_line}"
        )

    def key_line(self, game_id: UUID, player: str, version: int) -> str:
        """Returns the Game-Key line a mail to a mail-only seat ends with (see mail_replies)."""
        return f"Game-Key: {game_id} {version} {self.mail_key(game_id, player, version)}\n"

    def refusal(self, to: str, detail: str, game_id: UUID | None, once: str = "") -> None:
        """Queues a mail to the sender of a refused packet or reply, saying why (`once`: a key that
        makes it once only, recorded in the same transaction, for a message read again after a kill)."""
        with self.db.transaction(commit=True) as c:
            if once:
                c.execute("SELECT 1 FROM nightkeep_pbem_seen WHERE digest=?", [once])
                if c.fetchone() is not None:
                    return
                c.execute("INSERT INTO nightkeep_pbem_seen VALUES (?, 'answered')", [once])
            _queue(
                c, str(game_id or ""), "", to, "nightkeep: your message was refused", f"Refused: {detail}\n"
            )

    def reply(self, to: str, subject: str, body: str, game_id: UUID) -> None:
        """Queues an answer to a mail-only command (status, history, help)."""
        with self.db.transaction(commit=True) as c:
            _queue(c, str(game_id), "", to, subject, body)

    def due(self) -> list[Outgoing]:
        """Returns the outbox's unsent mails, oldest first."""
        with self.db.transaction(commit=False) as c:
            c.execute(
                "SELECT id, game_id, player, to_addr, subject, body, packet, version "
                "FROM nightkeep_pbem_outbox WHERE sent=0 ORDER BY id"
            )
            rows = c.fetchall()
        return [Outgoing(r[0], UUID(r[1]) if r[1] else UUID(int=0), *r[2:]) for r in rows]

    def mark_sent(self, outgoing: Outgoing) -> None:
        """Marks an outbox mail as sent."""
        with self.db.transaction(commit=True) as c:
            c.execute("UPDATE nightkeep_pbem_outbox SET sent=1 WHERE id=?", [outgoing.id])


def _queue(
    c: Any, game: str, player: str, to: str, subject: str, body: str, packet: str = "", version: int = 0
) -> None:
    """Adds one mail to the outbox inside the caller's transaction."""
    c.execute(
        "INSERT INTO nightkeep_pbem_outbox (game_id, player, to_addr, subject, body, packet, version) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [game, player, to, subject, body, packet, version],
    )


def _entry(recorded: RecordedEvent) -> FileEntry:
    return FileEntry(
        recorded.version,
        recorded.type_name,
        recorded.class_version,
        recorded.fields,
        recorded.chain,
        recorded.timestamp,
    )
