"""`nightkeep host run`: one pass (or a polling loop) of the host over an inbox and an outbox.

A pass handles every pending message once — action, entropy, join or words packets, or a mail-only
reply — queues one refusal to the sender of what it refused (never to a program's mail or the host's
own address, so two programs cannot answer each other for ever), moves the message out of the inbox,
then tends the deadlines (reminders, lapses, default moves), writes the mail owed for the new events
(`Host.follow`: one mail per reader when the turn passes, news or a question reaches it) and sends the
outbox. A mail that cannot be read within the bounds (size, depth, parts), or that stopped a pass
before, is set aside, told once and never read again. It can be killed at any point:
- killed before a message is marked handled, the next pass reads it again, and an action already
  applied is recognised by its signature (or a mail action by its nonce) and not applied twice;
- the outbox is written with its position in the game it reports, so no owed mail is lost;
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

from event_store.lazy_log import get_logger
from event_store.pbem.deadlines import tend
from event_store.pbem.hosting import Draw, Handled, Host, Outgoing
from event_store.pbem.mail import (
    Inbox,
    Link,
    MailError,
    Picture,
    UnreadableMail,
    compose,
    headers_of,
    is_automatic,
    read_mail_text,
    safe_address,
    sender_of,
)
from event_store.pbem.packets import BEGIN
from event_store.pbem.witness import queue_heads

log = get_logger("nightkeep.host")

Sender = Callable[[EmailMessage], None]
STARTED = "started"  # a mail being handled ("started:N" the Nth time); a pass killed meanwhile leaves it so
# A mail whose reading kills the process (out of memory…) would stop every pass after it: read this many
# times without an end, it is set aside unread. A kill now and then costs a mail one start.
MAX_STARTS = 3
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
    set_aside: int = 0  # mails that could not be handled, moved out of the inbox all the same
    details: list[str] = field(default_factory=list)


def host_message(host: Host, mail: Outgoing, sender: str = "") -> EmailMessage:
    """Returns the mail a host sends for an outbox row: from `sender` (else the game's host address), with
    the host's board picture and viewer link, ending with the fingerprint of the game's history."""
    return message_for(
        mail,
        sender or host.host_mail(mail.game),
        host.picture,
        host.viewer_url,
        host.history_line(mail.game, mail.version) if mail.game != NO_GAME else "",
    )


def message_for(
    mail: Outgoing, sender: str, picture: Draw | None = None, viewer_url: str = "", history: str = ""
) -> EmailMessage:
    """Returns the mail for an outbox row, with the board its reader may see drawn now (`picture`), a
    link to the game in the public viewer at `viewer_url` and the history's fingerprint last; its
    Message-ID is stable and the drawing deterministic, so a resent mail is the same one (its Date
    aside)."""
    to = mail.to or f"{mail.player or 'player'}@nightkeep.invalid"
    about_game = mail.game != NO_GAME
    message = compose(
        sender or "host@nightkeep.invalid",
        to,
        mail.subject,
        mail.body,
        mail.packet or None,
        message_id=f"<outbox-{mail.id}.{mail.game}@nightkeep>",
        picture=_board(mail, picture) if about_game and (mail.player or mail.observer) else None,
        link=viewer_link(viewer_url, mail.game, mail.version) if about_game and viewer_url else None,
        last_line=history,
    )
    # RFC 3834: a program's mail says so, and a vacation responder or another host does not answer it.
    message["Auto-Submitted"] = "auto-generated"
    if about_game:  # for a club's mail filters, and for a reader that sorts the host's mail by game
        message["X-Nightkeep-Game"] = str(mail.game)
        message["X-Nightkeep-Event"] = str(mail.version)
    return message


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


def run_once(host: Host, inbox: Inbox, send: Sender, sender: str = "", witness: str = "") -> Pass:
    """Handles every pending message, then writes and sends the mail owed (and to a `witness` address,
    the signed head of every game that moved on)."""
    done = Pass()
    own = safe_address(sender)
    for key, raw in inbox.pending():
        _handle_message(host, raw, done, own)
        inbox.mark_done(key)
    tended = tend(host)
    done.reminded, done.lapsed, done.default_moves = tended.reminders, tended.lapses, tended.default_moves
    done.details += tended.details
    host.follow()
    if witness:
        queue_heads(host, witness)
    for mail in host.due():
        try:
            send(host_message(host, mail, sender))
        except MailError as exc:  # one refused recipient must not hold back everybody else's mail
            done.failed += 1
            done.details.append(f"not sent to {mail.to}: {exc} (tried again next pass)")
            continue
        host.mark_sent(mail)
        done.sent += 1
    log.info("host_pass", handled=done.handled, refused=done.refused, sent=done.sent)
    return done


def _handle_message(host: Host, raw: bytes, done: Pass, own: str = "") -> None:
    """Handles one mail of the inbox once (`own`: the host's own address, which it never answers)."""
    digest = "mail:" + hashlib.sha256(raw).hexdigest()
    starts = _start(host, digest)
    if starts is None:
        return  # handled by a pass that was killed before moving it
    # Read again after a kill (`started`), a packet found applied is the same mail, not a replay.
    resumed = starts > 1
    if starts > MAX_STARTS:
        _set_aside(
            host, raw, digest, UnreadableMail(f"reading it stopped the host {MAX_STARTS} times"), done, own
        )
        return
    try:
        # Read inside the guard: the email package's parse, walk and decoding meet whatever was sent.
        mail = read_mail_text(raw)
        if mail.automatic and BEGIN not in mail.text:  # an answering machine's words are no move
            outcomes = [Handled(False, None, "", "a program sent it (an automatic reply, a report, a list)")]
        else:
            outcomes = host.handle_text(mail.text, mail.sender, mail.message)
    except Exception as exc:  # noqa: BLE001  (whatever a stranger's mail trips over must not stop the host)
        _set_aside(host, raw, digest, exc, done, own)
        return
    refusals: list[tuple[str, UUID | None, str]] = []
    for outcome in outcomes:
        done.handled += 1
        replayed = outcome.duplicate and not resumed  # a new mail carrying what was already applied
        detail = f"not applied again: {outcome.detail}" if replayed else outcome.detail
        done.details.append(f"refused: {detail}" if not outcome.ok or replayed else detail)
        if not outcome.ok or replayed:
            done.refused += 1
            refusals.append((detail, outcome.game, outcome.player if outcome.to_seat else ""))
    if refusals and _answerable(mail.sender, mail.automatic, own):
        # A mail-only seat's refused reply is answered at the seat's address, with its moves and a key.
        seats = {(game, player) for _, game, player in refusals}
        game, player = next(iter(seats)) if len(seats) == 1 else (refusals[0][1], "")
        host.refusal(mail.sender, _in_one(refusals), game, once=f"{digest}#refused", player=player)
    host.remember(digest, "handled", final=True)


def _in_one(refusals: list[tuple[str, UUID | None, str]]) -> str:
    """Says why a mail's packets were refused in one refusal: a mail of a thousand forged packets gets
    one answer, not a thousand."""
    reasons = list(dict.fromkeys(detail for detail, _, _ in refusals))
    more = f" (and {len(reasons) - 3} more reasons)" if len(reasons) > 3 else ""
    return "; ".join(reasons[:3]) + more


def _start(host: Host, digest: str) -> int | None:
    """Records that a mail is being handled once more; returns how many times it was started, or None
    when it was handled (or set aside) before."""
    state = host.seen(digest)
    if state is not None and not state.startswith(STARTED):
        return None
    starts = 1 if state is None else int(state.partition(":")[2] or 1) + 1
    host.remember(digest, f"{STARTED}:{starts}", final=True)
    return starts


def _answerable(sender: str, automatic: bool, own: str) -> bool:
    """Tells whether the host may answer a mail: from one usable address, not a program's and not the
    host's own (a mail it sent that came back would be answered for ever)."""
    return bool(sender) and not automatic and sender != own


def _set_aside(host: Host, raw: bytes, digest: str, exc: Exception, done: Pass, own: str = "") -> None:
    """Remembers a mail the host could not handle as failed, so that it is moved out of the inbox like
    a handled one, and tells its sender once, in one sentence, when the From is one usable address."""
    if isinstance(exc, UnreadableMail):
        log.warning("message_unreadable", reason=str(exc))
        why = f"the host could not read your message ({exc}): send it again as a plain mail"
    else:
        # No traceback: its locals could hold the game's secrets, and a host's log may be shown to others.
        log.error("message_failed", error=repr(exc)[:200])
        why = "the host could not handle your message: send it again, or ask the host what went wrong"
    headers = headers_of(raw)
    sender = sender_of(headers)
    sender = sender if _answerable(sender, is_automatic(headers), own) else ""
    if sender:  # the sentence and the failed mark are apart: once= keeps a kill between from telling twice
        host.refusal(sender, why, None, once=f"{digest}#failed")
    host.remember(digest, f"failed: {exc!r:.200}", final=True)
    done.set_aside += 1
    done.details.append(f"set aside: {why}" if sender else f"set aside: {exc!s:.200}")


def run_forever(
    host: Host,
    inbox_factory: Callable[[], Inbox],
    send: Sender,
    sender: str,
    interval: float,
    report: Callable[[Pass], None] = lambda done: None,
    witness: str = "",
) -> None:
    """Runs a pass every `interval` seconds until interrupted, reporting each; a mail server's outage is
    logged, not fatal."""
    while True:
        inbox = inbox_factory()
        try:
            report(run_once(host, inbox, send, sender, witness))
        except MailError as exc:
            log.warning("host_pass_failed", error=str(exc))
        finally:
            inbox.close()
        time.sleep(interval)
