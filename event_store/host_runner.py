"""`nightkeep host run`: one pass (or a polling loop) of the host over an inbox and an outbox.

A pass handles every pending message once — action, entropy or join packets, or a mail-only reply —
queues a refusal to the sender of anything refused, moves the message out of the inbox, then writes
the mail owed for the new events (`Host.follow`) and sends the outbox. It can be killed at any point:
- killed before a message is marked handled, the next pass reads it again, and an action already
  applied is recognised by its signature (or a mail action by its nonce) and not applied twice;
- the outbox is written with the notification position it reports, so no owed mail is lost;
- killed between sending a mail and marking it sent, that one mail goes again (with the same
  Message-ID); a replica takes an event packet it already holds as "already held".
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from uuid import UUID

from event_store.deadlines import tend
from event_store.hosting import Draw, Host, Outgoing
from event_store.lazy_log import get_logger
from event_store.mail import Inbox, Link, MailError, Picture, compose, packet_texts, read_eml, sender_of

log = get_logger("nightkeep.host")

Sender = Callable[[EmailMessage], None]
STARTED = "started"  # a mail being handled; a pass killed meanwhile leaves it so
NO_GAME = UUID(int=0)  # the game of an outbox row about none (a refusal of a mail that named no game)


@dataclass
class Pass:
    """What one pass did."""

    handled: int = 0
    refused: int = 0
    sent: int = 0
    reminded: int = 0
    lapsed: int = 0
    default_moves: int = 0
    failed: int = 0
    details: list[str] = field(default_factory=list)


def message_for(
    mail: Outgoing, sender: str, picture: Draw | None = None, viewer_url: str = ""
) -> EmailMessage:
    """Returns the mail for an outbox row, with the board its reader may see drawn now (`picture`) and a
    link to the game in the public viewer at `viewer_url`; its Message-ID is stable and the drawing
    deterministic, so a resent mail is the same one (its Date aside)."""
    to = mail.to or f"{mail.player or 'player'}@nightkeep.invalid"
    about_game = mail.game != NO_GAME
    return compose(
        sender or "host@nightkeep.invalid",
        to,
        mail.subject,
        mail.body,
        mail.packet or None,
        message_id=f"<outbox-{mail.id}.{mail.game}@nightkeep>",
        picture=_board(mail, picture) if about_game and (mail.player or mail.observer) else None,
        link=viewer_link(viewer_url, mail.game, mail.version) if about_game and viewer_url else None,
    )


def _board(mail: Outgoing, draw: Draw | None) -> Picture | None:
    """Returns the board picture of a seat's mail (an observer's: the public board), or None when there is
    none to draw."""
    if draw is None:
        return None
    try:
        png = draw(mail.game, mail.player, mail.version)  # an observer's mail has no player: the public
    except Exception as exc:  # noqa: BLE001  (a board that cannot be drawn must not hold back the mail)
        log.warning("picture_failed", game=str(mail.game), error=repr(exc)[:200])
        return None
    seen = f", as {mail.player} sees it" if mail.player else ""
    return None if png is None else Picture(png, f"The board at event {mail.version}{seen}")


def viewer_link(base: str, game: UUID, version: int) -> Link:
    """Returns the link to a game at an event (`?at=N`) in the public viewer (`nightkeep serve`) at `base`."""
    at = f"?at={version}" if version else ""
    words = f"The game at event {version} in a browser" if version else "The game in a browser"
    return Link(f"{base.rstrip('/')}/games/{game}{at}", f"{words} (the public view)")


def run_once(host: Host, inbox: Inbox, send: Sender, sender: str = "") -> Pass:
    """Handles every pending message, then writes and sends the mail owed."""
    done = Pass()
    for key, raw in inbox.pending():
        _handle_message(host, raw, done)
        inbox.mark_done(key)
    tended = tend(host)
    done.reminded, done.lapsed, done.default_moves = tended.reminders, tended.lapses, tended.default_moves
    done.details += tended.details
    host.follow()
    for mail in host.due():
        try:
            send(message_for(mail, sender or host.host_mail(mail.game), host.picture, host.viewer_url))
        except MailError as exc:  # one refused recipient must not hold back everybody else's mail
            done.failed += 1
            done.details.append(f"not sent to {mail.to}: {exc} (tried again next pass)")
            continue
        host.mark_sent(mail)
        done.sent += 1
    log.info("host_pass", handled=done.handled, refused=done.refused, sent=done.sent)
    return done


def _handle_message(host: Host, raw: bytes, done: Pass) -> None:
    digest = "mail:" + hashlib.sha256(raw).hexdigest()
    state = host.seen(digest)
    if state is not None and state != STARTED:
        return  # handled by a pass that was killed before moving it
    # Read again after a kill (`started`), a packet found applied is the same mail, not a replay.
    resumed = state == STARTED
    host.remember(digest, STARTED)
    try:
        message = read_eml(raw)
    except MailError as exc:
        host.remember(digest, f"unreadable: {exc}")
        return
    from_addr = sender_of(message)
    try:
        outcomes = host.handle_text("\n".join(packet_texts(message)), from_addr, message)
    except Exception as exc:  # whatever a stranger's mail trips over must not stop the host for good
        # No traceback: its locals could hold the game's secrets, and a host's log may be shown to others.
        log.error("message_failed", error=repr(exc)[:200])
        host.remember(digest, f"failed: {exc!r:.200}")
        done.details.append(f"a message could not be handled: {exc!r:.100}")
        return
    for index, outcome in enumerate(outcomes):
        done.handled += 1
        replayed = outcome.duplicate and not resumed  # a new mail carrying what was already applied
        refused = not outcome.ok or replayed
        detail = f"not applied again: {outcome.detail}" if replayed else outcome.detail
        done.details.append(f"refused: {detail}" if refused else detail)
        if refused:
            done.refused += 1
            if from_addr:
                host.refusal(from_addr, detail, outcome.game, once=f"{digest}#{index}", player=outcome.player)
    host.remember(digest, "handled", final=True)


def run_forever(
    host: Host, inbox_factory: Callable[[], Inbox], send: Sender, sender: str, interval: float
) -> None:
    """Runs a pass every `interval` seconds until interrupted; a mail server's outage is logged, not fatal."""
    while True:
        inbox = inbox_factory()
        try:
            run_once(host, inbox, send, sender)
        except MailError as exc:
            log.warning("host_pass_failed", error=str(exc))
        finally:
            inbox.close()
        time.sleep(interval)
