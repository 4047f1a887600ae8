"""What the host owes its players: the outbox of a play-by-e-mail host (a part of `hosting.Host`).

`follow` finds the games stored past its position in them (`event_store.follower_positions`: per game,
no global order of all games' events) and, for every hosted one, writes the mail each seat is owed — a
signed event packet of what that seat has not acknowledged, redacted for it, or for a mail-only seat the
board and its numbered actions — in the same transaction as the game's new position and the seats'
`sent` marks. `due` and `mark_sent` drain it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from domain.actions import HOST
from domain.errors import StaleVersion
from domain.hidden import PUBLIC
from domain.signing import history_fingerprint
from event_store import clock
from event_store.app.game_ids import short_id
from event_store.follower_positions import Behind, GamePositions
from event_store.log_reader import FileEntry
from event_store.pbem.deadlines import Wait, current_waits, earliest_wait, stored_waits
from event_store.pbem.digest import (
    Observer,
    Situation,
    command,
    deadline_line,
    invitation_part,
    is_owed,
    keyed_moves,
    receive_hint,
    rollback_part,
    title_of,
    welcome_part,
    wrap,
)
from event_store.pbem.digest import subject as digest_subject
from event_store.pbem.host_parts import Outgoing
from event_store.pbem.mail_reading import safe_address
from event_store.pbem.packets import make_packet
from event_store.pbem.trusted_log import CheckedTail, checked_tail
from event_store.recorded import RecordedEvent, redacted
from event_store.sql import Cursor, SqlStore, Statement

if TYPE_CHECKING:
    from event_store.pbem.host_parts import HostLike, Seat

TRACKING = "outbox"
# What the host's own words in a mail are known by (mail_replies.MAIL_KEY, packets.BEGIN), in any case.
_HOSTS_WORDS = re.compile(r"game-key|nightkeep packet", re.IGNORECASE)


class Outbox:
    """The outbox half of a host; `Host` gives it `service`, `db`, `describe`, `seats`, `key_for`…"""

    if TYPE_CHECKING:
        from event_store.app.service import GameService
        from event_store.pbem.host_parts import Describe
        from event_store.pbem.keys import KeyPair

        service: GameService
        db: SqlStore
        describe: Describe

        def seats(self, game_id: UUID) -> dict[str, Seat]: ...
        def key_for(self, game_id: UUID) -> KeyPair: ...
        def is_hosted(self, game_id: UUID) -> bool: ...
        def _game_row(self, game_id: UUID) -> tuple[str, bytes, int, int]: ...
        def mail_key(self, game_id: UUID, player: str, version: int) -> str: ...
        def host_mail(self, game_id: UUID) -> str: ...

    def follow(self) -> int:
        """Writes the mail owed for every game stored past the outbox's position in it into the outbox,
        with the game's new position, in one transaction per hosted game; returns how many mails it
        wrote. Two hosts following at once cannot both write a game's mail: its position is compared
        before it is moved, and the host that finds it moved leaves the game to the other."""
        positions = GamePositions(self.db, TRACKING)
        written = 0
        while behind := positions.behind():
            hosted = [game for game in behind if self.is_hosted(game.game_id)]
            self._pass_over(positions, [game for game in behind if game not in hosted])
            for game in hosted:
                mails = self.owed(game.game_id)
                if self._write(positions, mails, game.game_id, game.position, game.head):
                    written += len(mails)
        return written

    def queue_owed(self, game_id: UUID, seen: str = "") -> int:
        """Writes what one game owes its seats now (after a join asked for it again), and records the
        packet that asked as handled in the same transaction."""
        positions = GamePositions(self.db, TRACKING)
        for _ in range(3):  # another host process may move the game's position meanwhile: look again
            position = positions.of(game_id)
            mails = self.owed(game_id)
            if self._write(positions, mails, game_id, position, position, seen):
                return len(mails)
        raise StaleVersion("the outbox kept moving under this join: send it again")

    def _pass_over(self, positions: GamePositions, games: list[Behind]) -> None:
        """Moves the position of games this host does not run by e-mail to their heads, in one
        transaction (one another host moved meanwhile is left where that host put it)."""
        if not games:
            return
        with self.db.transaction(commit=True) as c:
            for game in games:
                positions.move(c, game.game_id, game.position, game.head)

    def _write(
        self,
        positions: GamePositions,
        mails: list[Outgoing],
        game_id: UUID,
        expected: int,
        position: int,
        seen: str = "",
    ) -> bool:
        """Stores mails, the seats' `sent` marks and the game's new position in one transaction, if the
        position is still `expected`; returns whether it was."""
        with self.db.transaction(commit=True) as c:
            # Compared and moved in one statement: a second host process waits on the row (PostgreSQL)
            # or the file (SQLite) and then finds it moved, so two cannot both write the same mail.
            if not positions.move(c, game_id, expected, position):
                return False
            _queue_all(c, mails)
            if seen:
                c.execute(
                    "INSERT INTO nightkeep_pbem_seen VALUES (?, 'handled') ON CONFLICT (digest) DO NOTHING",
                    [seen],
                )
        return True

    def owed(self, game_id: UUID, force: bool = False) -> list[Outgoing]:
        """Returns the mails a game owes its seats and observers now (not yet in the outbox): to each
        that has not seen every event and is owed mail by the digest rule (`force`: every such seat,
        as a join asks)."""
        seats, watchers = self.seats(game_id), self._observers(game_id)
        # Every mail is made of the events a reader has not been sent (a packet: not acknowledged), so
        # the log is read and checked from the earliest of those on, not from its start.
        marks = [seat.sent for seat in seats.values() if seat.pubkey or seat.mail]
        marks += [seat.acked for seat in seats.values() if seat.pubkey]
        marks += [watcher.sent for watcher in watchers]
        situation, waits, tail = self.situation(game_id, marks)
        mailed = self._mailed(game_id)
        out: list[Outgoing] = []
        for seat in seats.values():
            if seat.sent >= situation.head or not (seat.pubkey or seat.mail):
                continue
            seen = redacted(tail.after(seat.sent), seat.player)
            if force or seat.sent == 0 or is_owed(seen, seat.player, situation, mailed.get(seat.player)):
                out.append(self._seat_mail(situation, seat, tail))
        for watcher in watchers:
            if watcher.sent < situation.head and (
                watcher.sent == 0
                or is_owed(
                    redacted(tail.after(watcher.sent), PUBLIC),
                    PUBLIC,
                    situation,
                    mailed.get(f"observer:{watcher.name}"),
                )
            ):
                out.append(self._observer_mail(situation, watcher))
        if out:  # a seat's wait starts when its first mail to move is written; the checked events with it
            rows = (*(w.row(game_id) for w in waits.values() if w.is_new), tail.trusted_row())
            out[0] = replace(out[0], rows=rows)
        return out

    def situation(
        self, game_id: UUID, marks: Sequence[int] = ()
    ) -> tuple[Situation, dict[str, Wait], CheckedTail]:
        """Returns the game as its mail sees it now, the waits of the seats to move, and its events after
        the earliest of `marks` and of the waits' starts, their chain checked (trusted_log)."""
        host = cast("HostLike", self)
        game = self.service.get_game(game_id)
        status = game.status
        running = status["status"] == "running"
        to_act = [p for p in status.get("to_act", []) if p != HOST] if running else []
        stored = stored_waits(host, game_id)
        since = min([*marks, earliest_wait(stored, to_act, game.version)])
        tail = checked_tail(self.service, self.db, game_id, since)
        waits = current_waits(stored, tail.after(since), to_act, clock.epoch(), since)
        due = {p: d for p, w in waits.items() if (d := w.due(game.meta))}
        title = title_of(host, game_id)
        return Situation(game_id, title, tail.head, status, to_act, game.meta, due), waits, tail

    def _seat_mail(self, situation: Situation, seat: Seat, tail: CheckedTail) -> Outgoing:
        host = cast("HostLike", self)
        game_id, head, player = situation.game, situation.head, seat.player
        invite = seat.sent == 0
        parts = []
        if invite and seat.pubkey:
            parts.append(invitation_part(host, situation, seat))
        elif invite:
            parts.append(welcome_part(situation, player))
        parts.append(self.told(game_id, player, seat.sent, head))
        if player in situation.waiting_on:
            parts.append(rollback_part(host, situation, seat))
            if not seat.pubkey:
                parts.append(self.key_line(game_id, player, head))
        elif player in situation.to_act:
            parts.append(deadline_line(situation, player))
            if seat.pubkey:
                parts.append(keyed_moves(host, situation, seat))
        elif seat.pubkey and not invite:
            parts.append(receive_hint())
        if not seat.pubkey and player not in situation.waiting_on:
            parts.append(self.mail_only_part(game_id, player, head, situation.to_act).strip("\n"))
        packet = ""
        if seat.pubkey:
            host_mail = host.host_mail(game_id)
            packet = self.event_packet(game_id, seat, tail.events, situation.to_act, host_mail, tail.start)
        body = wrap("\n\n".join(p.strip("\n") for p in parts if p.strip())) + "\n"
        subject = digest_subject(situation, player, invite)
        return Outgoing(0, game_id, player, seat.mail, subject, body, packet, head, situation.acting)

    def _observer_mail(self, situation: Situation, watcher: Observer) -> Outgoing:
        game_id, head = situation.game, situation.head
        told = self.told(game_id, PUBLIC, watcher.sent, head).strip("\n")
        if watcher.sent == 0:
            told = welcome_part(situation, "") + "\n\n" + told
        body = wrap(told) + "\n"
        subject = digest_subject(situation, "", watcher.sent == 0)
        return Outgoing(0, game_id, "", watcher.mail, subject, body, "", head, situation.acting, watcher.name)

    def _mailed(self, game_id: UUID) -> dict[str, str]:
        """Returns who was to move when each seat (and observer) of a game last got mail."""
        with self.db.transaction(commit=False) as c:
            c.execute("SELECT player, to_act FROM nightkeep_pbem_mailed WHERE game_id=?", [str(game_id)])
            return {row[0]: row[1] for row in c.fetchall()}

    def _observers(self, game_id: UUID) -> list[Observer]:
        with self.db.transaction(commit=False) as c:
            c.execute(
                "SELECT name, mail, sent FROM nightkeep_pbem_observers WHERE game_id=? ORDER BY name",
                [str(game_id)],
            )
            return [Observer(*row) for row in c.fetchall()]

    def event_packet(
        self,
        game_id: UUID,
        seat: Seat,
        recorded: list[RecordedEvent],
        to_act: list[str],
        host_mail: str,
        start: int = 0,
    ) -> str:
        """Returns the signed packet of what a seat has not acknowledged (an invitation before it has
        seen anything), redacted for that seat; `recorded` holds the game's events after event `start`
        (all of them by default), which must not be after the seat's acknowledgement."""
        invite = seat.sent == 0 and seat.acked == 0
        since = 0 if invite else seat.acked
        if since < start:
            raise ValueError(
                f"{seat.player}'s packet starts after event {since}, but the events read after {start}"
            )
        entries = [_entry(r) for r in redacted(recorded[since - start :], seat.player)]
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

    def history_line(self, game_id: UUID, version: int = 0) -> str:
        """Returns the line every mail about a hosted game ends with: the fingerprint of its history at
        event `version` (its last event when 0), the same in every seat's copy, so that players can
        compare it in press ("" for a mail about no game of this host's)."""
        if not self.is_hosted(game_id):
            return ""
        if version > 0:  # a mail's own event: one chain value read, not the whole log's
            at_version = self.service.recorded_events(game_id, gt=version - 1, lte=version)
            if at_version:
                return "History: " + history_fingerprint(version, at_version[0].chain)
        chains = self.service.chain_values(game_id)
        at = version if 0 < version <= len(chains) else len(chains)
        return "History: " + history_fingerprint(at, chains[at - 1])

    def told(self, game_id: UUID, player: str, old: int, new: int) -> str:
        """Returns what a mail tells a reader of events old+1..new (`describe`), with the words a reader
        of the mail would take for the host's own defused: a Game-Key line or an armoured packet in a
        seat's press would be read from any reply that quotes the mail (a made-up key refuses the reply;
        a damaged packet refuses it, and makes a signing seat's `receive` of the mail fail)."""
        return defused(self.describe(game_id, player, old, new))

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

    def refusal(self, to: str, detail: str, game_id: UUID | None, once: str = "", player: str = "") -> None:
        """Queues a mail saying why a packet or reply was refused: for a mail-only seat's reply (`player`)
        to the seat's own address with a fresh Game-Key and its moves, so that `help` or a number answers
        it; else to the sender, if `to` is one address (`once`: a key that makes it once only, recorded
        in the same transaction, for a message read again after a kill)."""
        body = f"Refused: {detail}\n"
        seat = None
        if game_id is not None and player and self.is_hosted(game_id):
            seat = self.seats(game_id).get(player)
        if game_id is not None and seat is not None and not seat.pubkey and seat.mail:
            to = seat.mail
            game = self.service.get_game(game_id)
            head, to_act = game.version, list(game.status.get("to_act", []))
            body += "\n" + self.mail_only_part(game_id, player, head, to_act).lstrip("\n")
        else:
            to = safe_address(to)  # a stranger's From goes into a header only as one plain address
        if not to:
            return
        with self.db.transaction(commit=True) as c:
            if once and not _first_time(c, once):
                return
            # A mail that names no game is kept under the nil id (a game-id column is a uuid on Citus).
            _queue(c, str(game_id or UUID(int=0)), "", to, "nightkeep: your message was refused", body)

    def reply(self, to: str, subject: str, body: str, game_id: UUID, once: str = "") -> bool:
        """Queues an answer to a mail-only command (status, history, help) unless its request's key
        (`once`, recorded with it) was answered already; returns whether it queued it."""
        with self.db.transaction(commit=True) as c:
            if once and not _first_time(c, once):
                return False
            _queue(c, str(game_id), "", to, subject, body)
        return True

    def hosted_games(self) -> list[UUID]:
        """Returns every game this store hosts by e-mail."""
        with self.db.transaction(commit=False) as c:
            c.execute("SELECT game_id FROM nightkeep_pbem_games ORDER BY game_id")
            return [UUID(row[0]) for row in c.fetchall()]

    def reminder(self, game_id: UUID, player: str, due: int) -> Outgoing:
        """Returns a reminder to a seat that its move is due (or overdue), with its moves."""
        host = cast("HostLike", self)
        situation, _, _ = self.situation(game_id)
        seat = self.seats(game_id)[player]
        situation = replace(situation, due={**situation.due, player: due})
        parts = [
            f"Reminder: {situation.title} waits on your move, {player}.",
            deadline_line(situation, player),
        ]
        if seat.pubkey:
            parts.append(keyed_moves(host, situation, seat))
        else:
            parts.append(self.mail_only_part(game_id, player, situation.head, situation.to_act))
        body = wrap("\n\n".join(p.strip("\n") for p in parts if p.strip())) + "\n"
        subject = f"{situation.title} — reminder: your turn, {player} — reply by {clock.short_when(due)}"
        return Outgoing(0, game_id, player, seat.mail, subject, body, "", 0)

    def lapse_notice(self, game_id: UUID, player: str, rule: str) -> Statement | None:
        """Returns the mail that tells the host a turn lapsed and what follows (None: no host address)."""
        to = self.host_mail(game_id)
        if not to:
            return None
        title = title_of(cast("HostLike", self), game_id)
        follows = {
            "wait": "The game waits for them; they are reminded every deadline.",
            "default": "The host's bot moves for them once the grace period is over.",
            "replace": (
                "Hand the seat to a replacement player:\n"
                + command("nightkeep", "host", "replace", short_id(game_id), player, "--mail", "ADDRESS")
            ),
        }[rule]
        body = wrap(f"{player}'s turn in {title} lapsed. {follows}") + "\n"
        subject = f"{title} — {player}'s turn lapsed"
        return (_INSERT, [str(game_id), "", to, subject, body, "", 0])

    def queue_with(self, mails: list[Outgoing], rows: list[Statement]) -> None:
        """Queues mails together with other statements, in one transaction."""
        with self.db.transaction(commit=True) as c:
            for m in mails:
                _queue(c, str(m.game), m.player, m.to, m.subject, m.body, m.packet, m.version)
            for sql, params in rows:
                c.execute(sql, params)

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


_INSERT = (
    "INSERT INTO nightkeep_pbem_outbox (game_id, player, to_addr, subject, body, packet, version) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def _queue_all(c: Cursor, mails: list[Outgoing]) -> None:
    """Adds mails to the outbox with the seats' `sent` marks and the rows they carry, inside the
    caller's transaction."""
    for m in mails:
        _queue(c, str(m.game), m.player, m.to, m.subject, m.body, m.packet, m.version)
        _mark_sent(c, m)
        for sql, params in m.rows:
            c.execute(sql, params)


def _queue(
    c: Any, game: str, player: str, to: str, subject: str, body: str, packet: str = "", version: int = 0
) -> None:
    """Adds one mail to the outbox inside the caller's transaction."""
    c.execute(_INSERT, [game, player, to, subject, body, packet, version])


def _first_time(c: Any, key: str) -> bool:
    """Records a once-only key inside the caller's transaction; returns whether it was new. One statement:
    a second host process waits on the first's row and then finds it there."""
    c.execute(
        "INSERT INTO nightkeep_pbem_seen VALUES (?, 'answered') "
        "ON CONFLICT (digest) DO NOTHING RETURNING digest",
        [key],
    )
    return c.fetchone() is not None


def _mark_sent(c: Any, mail: Outgoing) -> None:
    """Records, in the caller's transaction, that a seat or observer was mailed up to an event, and who
    was to move then (the digest rule compares it)."""
    game = str(mail.game)
    if mail.observer:
        c.execute(
            "UPDATE nightkeep_pbem_observers SET sent=? WHERE game_id=? AND name=? AND sent<?",
            [mail.version, game, mail.observer, mail.version],
        )
        reader = f"observer:{mail.observer}"  # no seat's name holds a colon
    else:
        c.execute(
            "UPDATE nightkeep_pbem_seats SET sent=? WHERE game_id=? AND player=? AND sent<?",
            [mail.version, game, mail.player, mail.version],
        )
        reader = mail.player
    c.execute(
        "INSERT INTO nightkeep_pbem_mailed VALUES (?, ?, ?) ON CONFLICT (game_id, player) "
        "DO UPDATE SET to_act = excluded.to_act",
        [game, reader, mail.acting],
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


def defused(text: str) -> str:
    """Returns words for a mail with every "Game-Key" and "NIGHTKEEP PACKET" in them respelt ("Game Key",
    "NIGHTKEEP-PACKET"): no reader then takes them for the Game-Key line or a packet the host put there."""
    return _HOSTS_WORDS.sub(_respelt, text)


def _respelt(found: re.Match[str]) -> str:
    word = found.group(0)
    return word.replace("-", " ") if "-" in word else word.replace(" ", "-")
