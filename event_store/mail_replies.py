"""Replies from players who install nothing: the first line plays an action or asks for something.

Every mail the host sends a mail-only player on their turn lists their legal actions, numbered, and
ends with a `Game-Key:` line (game, event number, one-time key). A reply that quotes it and whose
first line is a number or an action id plays that action, once: the key is an HMAC of the host's
secret over the game, the seat and the event number, and that event is past as soon as the action is
taken, so a forwarded or re-sent reply cannot act again. `status`, `history [N]` and `help` are
answered with a key of any earlier mail of that seat (they change nothing).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from uuid import UUID

from domain.errors import BadPacket, NightkeepError
from domain.events import ActionTaken
from event_store.hosting import Handled, Host  # hosting imports this module only when a reply comes

MAIL_KEY = re.compile(
    r"Game-Key:\s*([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\s+([0-9]{1,7})\s+([A-Z2-7]{16})"
)

HELP = """nightkeep by mail: reply to the host's mail, keeping its Game-Key line quoted.
First line of your reply:
  a number or an action id  plays that action (on your turn)
  status                    the board and who is to act
  history [N]               what happened since event N (default: the start)
  help                      this text
"""


def first_line(text: str) -> str:
    """Returns the first line of a reply that is not blank and not quoted."""
    for line in text.replace("\r", "").split("\n"):
        stripped = line.strip()
        if stripped and not stripped.startswith(">"):
            return stripped
    return ""


def handle_reply(host: Host, text: str, sender: str) -> Handled:
    """Plays or answers one mail-only reply; a refusal is returned, not raised."""
    match = MAIL_KEY.search(text.replace("\r", ""))
    if match is None:
        return Handled(
            False, None, "", "the mail holds no packet and no Game-Key line (reply to the host's mail)"
        )
    try:
        game_id = UUID(match.group(1))  # the pattern admits only canonical ids and short numbers
        version, key = int(match.group(2)), match.group(3)
        player = _seat_of_key(host, game_id, version, key)
        reply_to = host.seats(game_id)[player].mail  # answers go to the seat, never to whoever wrote
        return _do(host, game_id, player, version, first_line(text)[:200], reply_to, digest_of(text))
    except NightkeepError as exc:
        return Handled(False, None, "", str(exc))


def digest_of(text: str) -> bytes:
    """Returns the nonce of a mail action: the sha256 of the reply as it came. The host receives that
    reply, so it could pick among replies or make one up: a mail-only seat's rolls rest on the
    host's word (docs/play-by-email.md, threat model); it only ties the nonce to the mail on record."""
    return hashlib.sha256(text.encode("utf-8", "replace")).digest()


def _seat_of_key(host: Host, game_id: UUID, version: int, key: str) -> str:
    for seat in host.seats(game_id).values():
        if (
            not seat.pubkey
            and seat.mail
            and hmac.compare_digest(host.mail_key(game_id, seat.player, version), key)
        ):
            return seat.player
    raise BadPacket("the Game-Key of the mail is not one this host gave: refused as forged")


def _do(
    host: Host, game_id: UUID, player: str, version: int, command: str, sender: str, nonce: bytes
) -> Handled:
    word = command.split()[0].lower() if command else ""
    head = len(host.service.chain_values(game_id))
    if word in ("status", "history", "help"):
        if word == "help":
            body = HELP
        else:
            since = head if word == "status" else _number(command, 0)
            body = host.describe(game_id, player, min(since, head), head)
        to_act = host.service.get_game(game_id).status.get("to_act", [])
        body += host.mail_only_part(game_id, player, head, to_act)
        # One answer per request: the same reply read again (after a kill) finds its key and is not
        # answered twice; asked again once the game has moved, it is a new request.
        once = f"answer:{game_id}:{player}:{head}:{nonce.hex()}"
        if not host.reply(sender, f"nightkeep {word}: game {game_id}", body, game_id, once=once):
            return Handled(True, game_id, player, f"already answered {word}")
        return Handled(True, game_id, player, f"answered {word}")
    if version != head and _already_taken(host, game_id, player, version, nonce):
        return Handled(True, game_id, player, f"already applied at event {version + 1}", duplicate=True)
    if version != head:
        raise BadPacket(
            f"that mail's Game-Key was for event {version}; the game is at event {head}: it was used"
        )
    actions = host.service.legal_actions(game_id, player)
    chosen = next((a for a in actions if a.id == command), None)
    if chosen is None and command.isascii() and command.isdecimal() and 1 <= int(command) <= len(actions):
        chosen = actions[int(command) - 1]
    if chosen is None:
        raise BadPacket(f"{command[:40]!r} is not one of your actions now (reply `help`)")
    new_version = host.take_mail_action(game_id, player, version, chosen, nonce)
    return Handled(
        True, game_id, player, f"{player} took {chosen.id} by mail; the game is at event {new_version}"
    )


def _number(command: str, default: int) -> int:
    parts = command.split()
    number = parts[1] if len(parts) > 1 else ""
    return int(number) if number.isascii() and number.isdecimal() and len(number) <= 7 else default


def _already_taken(host: Host, game_id: UUID, player: str, version: int, nonce: bytes) -> bool:
    """Tells whether this very reply was applied already (a pass killed before it moved the mail)."""
    following = host.service.recorded_events(game_id, gt=version, lte=version + 1)
    event = following[0].event if following else None
    return (
        isinstance(event, ActionTaken)
        and event.player == player
        and event.auth == "mail"
        and event.nonce == nonce
    )
