"""The host of games played by e-mail: it checks every incoming packet, applies it, and owes every
player the events since that player last acknowledged, signed and redacted for them.

The host is the dice server: it holds each game's seed (`GameService`). A player's action comes as a
packet signed by the seat's key; before anything is stored the host checks the signature, that the
packet chains onto the log as the player saw it, that it is new, and (through the game) that the
player is to act and the action legal. Mail-only players reply to a mail that lists their actions
with a one-time key bound to the game, the seat and the version. What the host owes is written by
`follow` into the outbox in the same transaction as its position in the game the mail reports, so a
crash never loses or doubles a mail it owes; `due`/`mark_sent` drain it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from email.message import Message
from uuid import UUID

from domain.actions import Action
from domain.errors import BadPacket, NightkeepError, StaleVersion, UnknownGame, UsageError
from domain.events import ActionTaken, EntropyAdded, Event
from domain.signing import AUTH_MAIL, AUTH_SIGNED, ENTROPY_POINT
from event_store.app.service import GameService
from event_store.lazy_log import get_logger
from event_store.pbem.club_host import take_words
from event_store.pbem.host_parts import Describe, Handled, Outgoing, Seat
from event_store.pbem.keys import KeyPair, load_key
from event_store.pbem.mail_reading import safe_address
from event_store.pbem.outbox import Outbox
from event_store.pbem.packets import PLAYER_KINDS, WORD_KINDS, Packet, packets_in
from event_store.pbem.pbem_tables import store_of
from event_store.sql import Statement

log = get_logger("nightkeep.host")

# Called with (game, player, version) when a mail is sent, to draw the board that player may see as a PNG
# (None: no picture); the CLI passes the projections' pictures, so the outbox never stores one.
Draw = Callable[[UUID, str, int], bytes | None]


class Host(Outbox):
    """Runs play-by-e-mail games over a GameService (SQLite or PostgreSQL) with the host's signing key."""

    def __init__(
        self,
        service: GameService,
        key: KeyPair,
        describe: Describe | None = None,
        picture: Draw | None = None,
        viewer_url: str = "",
    ) -> None:
        self.service = service
        self.key = key
        self.db = store_of(service.recorder)
        self.describe = describe or (lambda game, player, old, new: "")
        self.picture = picture
        self.viewer_url = viewer_url  # the public `nightkeep serve` each mail links to ("": no link)

    # --- games ----------------------------------------------------------------------------------------

    def create(
        self,
        ruleset: str,
        players: Sequence[tuple[str, str | None]],
        keys: dict[str, bytes],
        mail: dict[str, str],
        host_mail: str,
        options: dict[str, str] | None = None,
        wait_for_entropy: bool = False,
        club: Sequence[Event] = (),
        title: str = "",
    ) -> UUID:
        """Starts a hosted game: seats bound to keys or addresses, its first club events (the deadline)
        and its title; the invitations go to the outbox."""
        names = [name for name, _ in players]
        stray = sorted((set(keys) | set(mail)) - set(names))
        if stray:
            raise UsageError(f"--key/--mail name no seat: {', '.join(stray)}")
        secret = secrets.token_bytes(32)

        def hosted(game_id: UUID) -> list[Statement]:
            # (The deadline column is kept for stores made before deadlines were events: 0 now.)
            game = [str(game_id), self.key.name, host_mail, secret, 0]
            seat = "INSERT INTO nightkeep_pbem_seats VALUES (?, ?, ?, ?, 0, 0)"
            named = (
                [("INSERT INTO nightkeep_pbem_settings VALUES (?, ?)", [str(game_id), title])]
                if title
                else []
            )
            return [
                ("INSERT INTO nightkeep_pbem_games VALUES (?, ?, ?, ?, ?, 0)", game),
                *((seat, [str(game_id), name, keys.get(name, b""), mail.get(name, "")]) for name in names),
                *named,
            ]

        # The game, its seed, its host's row and its seats are one transaction: no game half hosted.
        game_id = self.service.create_game(
            ruleset,
            players,
            options,
            keys=keys,
            host_key=self.key.public,
            wait_for_entropy=wait_for_entropy,
            rows=hosted,
            club=club,
        )
        log.info("game_hosted", game=str(game_id), seats=len(names), signing=len(keys))
        return game_id

    def key_for(self, game_id: UUID) -> KeyPair:
        """Returns the key that signs for a game (the one it was created with)."""
        with self.db.transaction(commit=False) as c:
            c.execute("SELECT key_name FROM nightkeep_pbem_games WHERE game_id=?", [str(game_id)])
            row = c.fetchone()
        if row is None or row[0] == self.key.name:
            return self.key
        return load_key(row[0])

    def is_hosted(self, game_id: UUID) -> bool:
        """Tells whether this host runs a game by e-mail."""
        with self.db.transaction(commit=False) as c:
            c.execute("SELECT 1 FROM nightkeep_pbem_games WHERE game_id=?", [str(game_id)])
            return c.fetchone() is not None

    def seats(self, game_id: UUID) -> dict[str, Seat]:
        """Returns a hosted game's seats by name."""
        with self.db.transaction(commit=False) as c:
            c.execute(
                "SELECT player, pubkey, mail, acked, sent FROM nightkeep_pbem_seats WHERE game_id=?",
                [str(game_id)],
            )
            rows = c.fetchall()
        if not rows:
            raise UnknownGame(f"this host runs no game {game_id} by e-mail")
        return {r[0]: Seat(r[0], bytes(r[1]), r[2], r[3], r[4]) for r in rows}

    def host_mail(self, game_id: UUID) -> str:
        """Returns the host's address for a game ("" when it has none, or for no game)."""
        try:
            return self._game_row(game_id)[0]
        except UnknownGame:
            return ""

    def _game_row(self, game_id: UUID) -> tuple[str, bytes, int, int]:
        with self.db.transaction(commit=False) as c:
            c.execute(
                "SELECT host_mail, mail_secret, deadline, reminded FROM nightkeep_pbem_games WHERE game_id=?",
                [str(game_id)],
            )
            row = c.fetchone()
        if row is None:
            raise UnknownGame(f"this host runs no game {game_id} by e-mail")
        return row[0], bytes(row[1]), row[2], row[3]

    # --- incoming ---------------------------------------------------------------------------------------

    def handle_text(self, text: str, sender: str = "", message: Message | None = None) -> list[Handled]:
        """Handles every packet in a text (a file or a mail); a text without one is a mail-only reply
        (`message`: the mail it came in, whose HTML part and In-Reply-To such a reply may need)."""
        try:
            packets = packets_in(text, "the message")
        except BadPacket as exc:
            return [Handled(False, None, "", str(exc))]
        if not packets:
            return [self.handle_mail_reply(text, sender, message)]
        return [self.handle_packet(p, sender) for p in packets]

    def handle_packet(self, packet: Packet, sender: str = "") -> Handled:
        """Checks one player packet and applies it; returns what happened (refusals are not raised)."""
        if self.seen(packet.digest) is not None:
            return Handled(True, packet.game, packet.player, "already handled", duplicate=True)
        try:
            handled = self._apply(packet, sender)
        except NightkeepError as exc:
            handled = Handled(False, packet.game, packet.player, str(exc))
        if handled.ok:
            self.remember(packet.digest, handled.detail)
        log.info("packet_handled", kind=packet.kind, ok=handled.ok, detail=handled.detail)
        return handled

    def _apply(self, packet: Packet, sender: str) -> Handled:
        if packet.kind not in PLAYER_KINDS:
            raise BadPacket(
                f"{packet.kind!r} packets come from the host: players send "
                "action, entropy, join, press, vacation or answer"
            )
        game_id, player = packet.game, packet.player
        seat = self.seats(game_id).get(player)
        if seat is None:
            raise BadPacket(f"game {game_id} has no seat {player!r:.40}")
        if not seat.pubkey:
            raise BadPacket(f"{player} plays by mail, not by signed packets, in game {game_id}")
        if not packet.is_signed_by(seat.pubkey):
            raise BadPacket(f"the packet is not signed by {player}'s key: refused as forged")
        duplicate = self._check_chains_on(packet)
        if duplicate:  # whoever sends a copy again does not become the seat's address
            self._ack(game_id, player, packet.body["version"], "")
            return Handled(True, game_id, player, duplicate, duplicate=True)
        body = packet.body
        if packet.kind == "join":
            self._ack(game_id, player, body["version"], sender, rewind=True)
            # A join asks for what it lacks now, not at the next event; the mail and the join's digest go
            # in one transaction, so a join read again after a kill is not answered twice.
            self.queue_owed(game_id, seen=packet.digest)
            return Handled(True, game_id, player, f"{player} joined at event {body['version']}")
        # The seat's acknowledgement and the packet's digest are written with the events it causes: a
        # host killed at any point has applied the packet and remembered it, or done neither.
        rows = [*_ack_rows(game_id, player, body["version"], sender), _seen_row(packet.digest, "applied")]
        try:
            detail = self._take(packet, rows)
        except StaleVersion:
            # Another host process applied something meanwhile: perhaps this very packet.
            again = self._check_chains_on(packet)
            if not again:
                raise
            return Handled(True, game_id, player, again, duplicate=True)
        return Handled(True, game_id, player, detail)

    def _take(self, packet: Packet, rows: Sequence[Statement]) -> str:
        """Applies a checked action or entropy packet, writing `rows` with its events; returns what
        happened in words."""
        body, game_id, player = packet.body, packet.game, packet.player
        if packet.kind == "action":
            version, _ = self.service.take_action(
                game_id,
                player,
                body["action"],
                body["nonce"],
                body["version"],
                auth=AUTH_SIGNED,
                signature=packet.signature,
                rows=rows,
            )
            return f"{player} took {body['action']}; the game is at event {version}"
        if packet.kind in WORD_KINDS:
            return take_words(self, packet, rows)
        self.service.add_entropy(game_id, player, body["value"], packet.signature, rows=rows)
        self._start_if_everyone_gave_entropy(game_id)
        return f"{player}'s entropy was mixed in"

    def _check_chains_on(self, packet: Packet) -> str:
        """Raises unless the packet follows the host's log as it stands; returns a reason when it is one
        already applied (a replayed or re-sent packet), "" when it is new."""
        body, game_id = packet.body, packet.game
        version = body["version"]
        # The event the packet was made at and the one after it: the whole log's chain is not read.
        near = self.service.recorded_events(game_id, gt=version - 1, lte=version + 1) if version >= 1 else []
        if not near or near[0].version != version:
            head = self.service.get_game(game_id).version
            raise BadPacket(f"the packet follows event {version}, but game {game_id} has {head} events")
        if near[0].chain != body["chain"]:
            raise BadPacket(
                f"the packet does not chain onto game {game_id} at event {version}: another history"
            )
        if packet.kind == "entropy":
            return self._entropy_is_new(packet)
        if packet.kind in ("join", *WORD_KINDS) or len(near) == 1:
            return ""  # (words are signed holding any event; a copy is known by its digest)
        nxt = near[1].event
        if isinstance(nxt, ActionTaken | EntropyAdded) and nxt.signature == packet.signature:
            return f"already applied at event {version + 1}"
        head = self.service.get_game(game_id).version
        raise StaleVersion(f"game {game_id} moved on to event {head} since that packet was made: act again")

    def _entropy_is_new(self, packet: Packet) -> str:
        """Checks an entropy packet: signed at the seed's commitment, before the deal, once per seat;
        returns a reason when it is one already applied."""
        if packet.body["version"] != ENTROPY_POINT:
            raise BadPacket(f"entropy is signed at event {ENTROPY_POINT} (the seed's commitment), not later")
        recorded = self.service.recorded_events(packet.game)
        given = [r.event for r in recorded if isinstance(r.event, EntropyAdded)]
        if any(e.signature == packet.signature for e in given):
            return "already applied"
        if any(e.player == packet.player for e in given):
            raise BadPacket(f"{packet.player} has already given entropy to game {packet.game}")
        return ""

    def _start_if_everyone_gave_entropy(self, game_id: UUID) -> None:
        fold = self.service.fold(game_id)
        if fold.meta["actions"]:
            return
        given = {
            r.event.player for r in self.service.recorded_events(game_id) if isinstance(r.event, EntropyAdded)
        }
        if set(fold.meta["keys"]) <= given:
            self.service.start_game(game_id)

    def _ack(self, game_id: UUID, player: str, version: int, sender: str, rewind: bool = False) -> None:
        with self.db.transaction(commit=True) as c:
            for sql, params in _ack_rows(game_id, player, version, sender, rewind):
                c.execute(sql, params)

    def seen(self, digest: str) -> str | None:
        """Returns the outcome of a packet or mail already handled (None if it is new)."""
        with self.db.transaction(commit=False) as c:
            c.execute("SELECT outcome FROM nightkeep_pbem_seen WHERE digest=?", [digest])
            row = c.fetchone()
        return None if row is None else str(row[0])

    def remember(self, digest: str, outcome: str, final: bool = False) -> None:
        """Records that a packet or mail was handled (`final`: replacing what was recorded before)."""
        with self.db.transaction(commit=True) as c:
            c.execute(*_seen_row(digest, outcome, final))

    # --- players who install nothing --------------------------------------------------------------------

    def mail_key(self, game_id: UUID, player: str, version: int) -> str:
        """Returns the one-time key a mail to a mail-only player carries (bound to game, seat, version)."""
        _, secret, _, _ = self._game_row(game_id)
        digest = hmac.new(secret, f"{game_id}\0{player}\0{version}".encode(), hashlib.sha256).digest()
        return base64.b32encode(digest[:10]).decode()

    def handle_mail_reply(self, text: str, sender: str, message: Message | None = None) -> Handled:
        """Plays or answers a reply from a mail-only player: its first line is a move, a question or a
        club command; the quoted mail carries the one-time key (see mail_replies)."""
        from event_store.pbem.mail_replies import handle_reply

        return handle_reply(self, text, sender, message)

    def take_mail_action(self, game_id: UUID, player: str, version: int, action: Action, nonce: bytes) -> int:
        """Takes a mail-only player's action, recorded as mail-authenticated."""
        new_version, _ = self.service.take_action(
            game_id, player, action.id, nonce, expected_version=version, auth=AUTH_MAIL
        )
        return new_version


def _ack_rows(game_id: UUID, player: str, version: int, sender: str, rewind: bool = False) -> list[Statement]:
    """Returns the statements that record a seat's acknowledgement of an event (and bind its address
    when it has none yet)."""
    # A join says what the replica holds now (it may have lost some): the rest is sent again.
    if rewind:
        update = "acked=?, sent=CASE WHEN sent < ? THEN sent ELSE ? END"
        params: list[object] = [version, version, version]
    else:
        update, params = "acked=CASE WHEN acked > ? THEN acked ELSE ? END", [version, version]
    sql = f"UPDATE nightkeep_pbem_seats SET {update} WHERE game_id=? AND player=?"
    rows: list[Statement] = [(sql, [*params, str(game_id), player])]
    if sender := safe_address(sender):  # a seat's address is only ever one usable address
        rows.append(
            (
                "UPDATE nightkeep_pbem_seats SET mail=? WHERE game_id=? AND player=? AND mail=''",
                [sender, str(game_id), player],
            )
        )
    return rows


def _seen_row(digest: str, outcome: str, final: bool = False) -> Statement:
    """Returns the statement that records a packet or mail as handled (`final`: replacing the outcome
    recorded before, else keeping it)."""
    conflict = "DO UPDATE SET outcome = excluded.outcome" if final else "DO NOTHING"
    return f"INSERT INTO nightkeep_pbem_seen VALUES (?, ?) ON CONFLICT (digest) {conflict}", [digest, outcome]


def describe_nothing(game: UUID, player: str, old: int, new: int) -> str:
    """A Describe that says nothing (tests, and hosts with no board view)."""
    return ""


__all__ = ["Handled", "Host", "Outgoing", "Seat", "describe_nothing"]
