"""Replies from players who install nothing: the first line of their own text plays a move, asks for
something, or is a club command (press, vacation, an answer to a proposed rollback).

Every mail the host sends a mail-only seat ends with a `Game-Key:` line (game, event number, one-time
key: an HMAC of the host's secret over the game, the seat and the event) and, on the seat's turn, lists
its moves, numbered. A reply quoting the key plays a move only while the game is still at that event, so
a forwarded or re-sent reply cannot act again. A reply whose key its mail program lost or mangled is
taken from the seat's own address while the game has not moved since the host's last mail to the seat.
A refusal is returned with its seat when the seat is known, so that it goes to the seat's own address
with a fresh key and the seat's moves (`Outbox.refusal`). How a reply is read: `reply_parsing`.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, replace
from email.message import Message
from typing import Protocol
from uuid import UUID

from domain.actions import Action
from domain.errors import BadPacket, NightkeepError, UnknownGame
from domain.events import ActionTaken
from event_store.app.seats import actions_named, open_actions, who_acts
from event_store.pbem.club_replies import handle_club_command
from event_store.pbem.host_parts import Handled, HostLike
from event_store.pbem.mail_reading import safe_address
from event_store.pbem.reply_parsing import (
    Ask,
    ClubCommand,
    GameKey,
    Move,
    NoCommand,
    Press,
    answered_mails,
    find_game_key,
    html_part,
    html_text,
    parse_command,
    shown,
)

HELP = """nightkeep by mail: write one of these as the first line
of your reply to the host's mail (capitals do not matter).
  5 (or 5. or #5)     plays move 5 of your list
  draw (or dr)        plays the move with that id
  status              the board and who is to act
  history N           what happened after event N
  press all: TEXT     sends TEXT to every player
  press Bo, Cy: TEXT  sends TEXT to the seats named
  vacation 3d         you are away 3 days (or 12h, 90m)
  agree (or refuse)   answers the host's rollback
  help                this list
An id may be cut short while only one move starts so.
Quoted text, signatures and your mail program's
"On ... wrote:" line are skipped. Keep the Game-Key
line below quoted, or reply from your own address.
"""

LIST_BELOW = "reply with the number of your move from the list below"


class ReplyHost(HostLike, Protocol):
    """The host as a reply uses it (event_store.pbem.hosting.Host is one): named here, not imported, since
    the host calls this module."""

    def is_hosted(self, game_id: UUID) -> bool: ...
    def mail_key(self, game_id: UUID, player: str, version: int) -> str: ...
    def reply(self, to: str, subject: str, body: str, game_id: UUID, once: str = "") -> bool: ...
    def take_mail_action(
        self, game_id: UUID, player: str, version: int, action: Action, nonce: bytes
    ) -> int: ...


@dataclass(frozen=True)
class Reader:
    """Whose reply it is: the game, the seat, and the event of the Game-Key it quotes (None: lost)."""

    game: UUID
    player: str
    version: int | None


def handle_reply(host: ReplyHost, text: str, sender: str, message: Message | None = None) -> Handled:
    """Plays or answers one mail-only reply; a refusal is returned (with its seat when known), not raised."""
    html = html_part(message) if message is not None and not text.strip() else ""
    reading = html_text(html) if html else text
    key = find_game_key(reading)
    try:
        if key is not None:
            reader = _reader_of_key(host, key)
        else:
            reader = _reader_of_sender(host, sender, answered_mails(message) if message else [])
    except NightkeepError as exc:
        game = key.game if key is not None and host.is_hosted(key.game) else None
        return Handled(False, game, "", str(exc))
    try:
        return _answer(host, reader, reading, digest_of(html or text))
    except NightkeepError as exc:
        return Handled(False, reader.game, reader.player, str(exc), to_seat=True)


def digest_of(text: str) -> bytes:
    """Returns the nonce of a mail action: the sha256 of the reply as it came. The host receives that
    reply, so it could pick among replies or make one up: a mail-only seat's rolls rest on the
    host's word (docs/play-by-email.md, threat model); it only ties the nonce to the mail on record."""
    return hashlib.sha256(text.encode("utf-8", "replace")).digest()


def _reader_of_key(host: ReplyHost, key: GameKey) -> Reader:
    try:
        seats = host.seats(key.game)
    except UnknownGame:
        raise BadPacket(
            f"the Game-Key names game {key.game}, which this host does not run; "
            "reply to the mail of the host that runs your game"
        ) from None
    for seat in seats.values():
        if (
            not seat.pubkey
            and seat.mail
            and hmac.compare_digest(host.mail_key(key.game, seat.player, key.version), key.key)
        ):
            return Reader(key.game, seat.player, key.version)
    raise BadPacket(
        "the Game-Key of the mail is not one this host gave: refused as forged; "
        "reply to the host's latest mail, keeping its Game-Key line as it is"
    )


def _reader_of_sender(host: ReplyHost, sender: str, answers: list[tuple[int, UUID]]) -> Reader:
    """Returns the one mail-only seat whose address sent a reply that lost its Game-Key; when the
    address plays several, the one whose mail the reply answers (In-Reply-To, References)."""
    address = safe_address(sender)
    seats = _mail_only_seats(host, address) if address else []
    several = len(seats) > 1
    if several:
        answered = _seats_answered(host, answers, address, seats)
        seats = [seat for seat in seats if seat in answered]
    if len(seats) == 1:
        return Reader(*seats[0], None)
    if several:
        raise BadPacket(
            "your reply has no Game-Key line, and your address plays more than one seat here by mail; "
            "reply to the host's latest mail for the seat you mean, keeping its Game-Key line"
        )
    raise BadPacket(
        "your mail holds no packet and no Game-Key line, and its sender plays no seat here by mail; "
        "reply to the host's mail, keeping its Game-Key line"
    )


def _mail_only_seats(host: ReplyHost, address: str) -> list[tuple[UUID, str]]:
    """Returns (game, seat) of every mail-only seat, over all hosted games, whose address is this one."""
    with host.db.transaction(commit=False) as c:
        c.execute(
            "SELECT game_id, player, pubkey FROM nightkeep_pbem_seats WHERE lower(mail)=? "
            "ORDER BY game_id, player",
            [address],
        )
        rows = c.fetchall()
    return [(UUID(r[0]), r[1]) for r in rows if not bytes(r[2])]


def _seats_answered(
    host: ReplyHost, answers: list[tuple[int, UUID]], address: str, seats: list[tuple[UUID, str]]
) -> set[tuple[UUID, str]]:
    """Returns which of `seats` the host's mails a reply answers went to (an answer to a question names
    no seat: then every seat of its game at that address)."""
    sent: list[tuple[UUID, str]] = []
    with host.db.transaction(commit=False) as c:
        for row, game in answers:
            c.execute(
                "SELECT player, to_addr FROM nightkeep_pbem_outbox WHERE id=? AND game_id=?", [row, str(game)]
            )
            found = c.fetchone()
            if found is not None and str(found[1]).lower() == address:
                sent.append((game, found[0]))
    return {(g, p) for g, p in seats for game, player in sent if g == game and player in ("", p)}


def _answer(host: ReplyHost, reader: Reader, reading: str, nonce: bytes) -> Handled:
    """Does what a reply's command asks, for the seat it comes from."""
    match parse_command(reading):
        case Move() as move:
            return _take_move(host, reader, move, nonce)
        case Ask() as ask:
            return _ask(host, reader, ask, nonce)
        case NoCommand():
            raise BadPacket(
                "your reply has no command above the quoted mail; "
                "write the number of your move, or `help`, as its first line"
            )
        case club:
            return _club(host, reader, club, nonce)


def _ask(host: ReplyHost, reader: Reader, ask: Ask, nonce: bytes) -> Handled:
    """Answers `status`, `history` or `help` at the seat's own address, with a fresh key, once for each
    request: the same reply read again (after a kill) finds its key and is not answered twice; asked
    again once the game has moved, it is a new request."""
    game, player = reader.game, reader.player
    head = host.service.get_game(game).version  # (not the whole log's chain, read for its length)
    if ask.what == "help":
        body = HELP
    else:
        since = head if ask.what == "status" else ask.since
        body = host.told(game, player, min(since, head), head)
    to_act = host.service.get_game(game).status.get("to_act", [])
    body += host.mail_only_part(game, player, head, to_act)
    once = f"answer:{game}:{player}:{head}:{nonce.hex()}"
    to = host.seats(game)[player].mail
    if not host.reply(to, f"nightkeep {ask.what}: game {game}", body, game, once=once):
        return Handled(True, game, player, f"already answered {ask.what}")
    return Handled(True, game, player, f"answered {ask.what}")


def _take_move(host: ReplyHost, reader: Reader, move: Move, nonce: bytes) -> Handled:
    """Plays a move at the event of the reply's Game-Key (or, with the key lost, at the event of the
    host's last mail to the seat, if the game is still there)."""
    game, player = reader.game, reader.player
    head = host.service.get_game(game).version
    version = head if reader.version is None else reader.version
    if version != head or reader.version is None:
        applied = _applied_at(host, reader, nonce)
        if applied:
            detail = f"already applied at event {applied} (your reply was taken once); nothing more to send"
            return Handled(True, game, player, detail, duplicate=True)
    if reader.version is None and host.seats(game)[player].sent != head:
        raise BadPacket(
            "your reply has no Game-Key line, and the game has moved on since the host's last mail to you; "
            f"{_what_to_send(host, game, player)}"
        )
    if version != head:
        raise BadPacket(
            f"your reply was for event {version}, but the game has moved on to event {head}; "
            f"{_what_to_send(host, game, player)}"
        )
    loaded = host.service.playable_game(game)
    actions = open_actions(loaded, player)
    if not actions:
        raise BadPacket(f"{who_acts(loaded, player)}; {_what_to_send(host, game, player)}")
    chosen = _chosen(actions, move)
    new_version = host.take_mail_action(game, player, version, chosen, nonce)
    return Handled(
        True, game, player, f"{player} took {chosen.id} by mail; the game is at event {new_version}"
    )


def _applied_at(host: ReplyHost, reader: Reader, nonce: bytes) -> int:
    """Returns the event at which this very reply was applied already (a copy, or a pass killed before
    it moved the mail), 0 if none: the event after its key's, or with the key lost any event."""
    at = reader.version
    recorded = (
        host.service.recorded_events(reader.game)
        if at is None
        else host.service.recorded_events(reader.game, gt=at, lte=at + 1)
    )
    for r in recorded:
        event = r.event
        if (
            isinstance(event, ActionTaken)
            and event.player == reader.player
            and event.auth == "mail"
            and event.nonce == nonce
        ):
            return r.version
    return 0


def _chosen(actions: list[Action], move: Move) -> Action:
    """Returns the move a reply names, as the CLI reads it but in any case; refuses one that names no
    move or several, naming them."""
    named = actions_named(actions, move.typed, any_case=True)
    if len(named) == 1:
        return named[0]
    if not named:
        have = f"you have 1 to {len(actions)}" if len(actions) > 1 else "you have only 1"
        raise BadPacket(f"`{shown(move.written)}` is not one of your moves now ({have}); {LIST_BELOW}")
    ids = ", ".join(a.id for a in named[:5]) + (" …" if len(named) > 5 else "")
    raise BadPacket(f"`{shown(move.written)}` could be {ids}; {LIST_BELOW}")


def _what_to_send(host: ReplyHost, game: UUID, player: str) -> str:
    """Says what the seat can send now: a move from the list, or nothing until its turn."""
    status = host.service.get_game(game).status
    if status["status"] != "running":
        return "there is nothing more to send"
    if player in status.get("to_act", []):
        return LIST_BELOW
    return "wait for the host's mail of your turn, or reply `status` for the board"


def _club(host: ReplyHost, reader: Reader, command: ClubCommand, nonce: bytes) -> Handled:
    """Hands press, vacation and rollback answers to the club's service, press names made seat names."""
    if isinstance(command, Press) and command.to:
        seats = {name.casefold(): name for name in host.seats(reader.game)}
        unknown = [name for name in command.to if name.casefold() not in seats]
        if unknown:
            raise BadPacket(
                f"`press` names no seat `{shown(unknown[0])}` (the seats are {', '.join(seats.values())}); "
                "write `press all: TEXT` or name seats of this game"
            )
        command = replace(command, to=tuple(seats[name.casefold()] for name in command.to))
    return handle_club_command(host, reader.game, reader.player, command, nonce, reader.version)
