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
from datetime import datetime
from email.message import EmailMessage
from uuid import UUID

from event_store import clock
from event_store.hosting import Host, Outgoing
from event_store.lazy_log import get_logger
from event_store.mail import (
    Inbox,
    MailError,
    UnreadableMail,
    compose,
    headers_of,
    is_automatic,
    read_mail_text,
    sender_of,
)

log = get_logger("nightkeep.host")

Sender = Callable[[EmailMessage], None]
STARTED = "started"  # a mail being handled ("started:N" the Nth time); a pass killed meanwhile leaves it so
# A mail whose reading kills the process (out of memory…) would stop every pass after it: read this many
# times without an end, it is set aside unread. A kill now and then costs a mail one start.
MAX_STARTS = 3


@dataclass
class Pass:
    """What one pass did."""

    handled: int = 0
    refused: int = 0
    sent: int = 0
    reminded: int = 0
    failed: int = 0
    set_aside: int = 0  # mails that could not be handled, moved out of the inbox all the same
    details: list[str] = field(default_factory=list)


def message_for(mail: Outgoing, sender: str) -> EmailMessage:
    """Returns the mail for an outbox row; its Message-ID is stable, so a resent mail is the same one."""
    to = mail.to or f"{mail.player or 'player'}@nightkeep.invalid"
    return compose(
        sender or "host@nightkeep.invalid",
        to,
        mail.subject,
        mail.body,
        mail.packet or None,
        message_id=f"<outbox-{mail.id}.{mail.game}@nightkeep>",
    )


def run_once(host: Host, inbox: Inbox, send: Sender, sender: str = "") -> Pass:
    """Handles every pending message, then writes and sends the mail owed."""
    done = Pass()
    for key, raw in inbox.pending():
        _handle_message(host, raw, done)
        inbox.mark_done(key)
    done.reminded = remind_overdue(host)
    host.follow()
    for mail in host.due():
        try:
            send(message_for(mail, sender or host.host_mail(mail.game)))
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
    starts = _start(host, digest)
    if starts is None:
        return  # handled by a pass that was killed before moving it
    # Read again after a kill (`started`), a packet found applied is the same mail, not a replay.
    resumed = starts > 1
    if starts > MAX_STARTS:
        _set_aside(host, raw, digest, UnreadableMail(f"reading it stopped the host {MAX_STARTS} times"), done)
        return
    try:
        # Read inside the guard: the email package's parse, walk and decoding meet whatever was sent.
        mail = read_mail_text(raw)
        outcomes = host.handle_text(mail.text, mail.sender)
    except Exception as exc:  # noqa: BLE001  (whatever a stranger's mail trips over must not stop the host)
        _set_aside(host, raw, digest, exc, done)
        return
    refusals: list[tuple[str, UUID | None]] = []
    for outcome in outcomes:
        done.handled += 1
        replayed = outcome.duplicate and not resumed  # a new mail carrying what was already applied
        detail = f"not applied again: {outcome.detail}" if replayed else outcome.detail
        done.details.append(f"refused: {detail}" if not outcome.ok or replayed else detail)
        if not outcome.ok or replayed:
            done.refused += 1
            refusals.append((detail, outcome.game))
    if refusals and mail.sender and not mail.automatic:
        host.refusal(mail.sender, _in_one(refusals), refusals[0][1], once=f"{digest}#refused")
    host.remember(digest, "handled", final=True)


def _in_one(refusals: list[tuple[str, UUID | None]]) -> str:
    """Says why a mail's packets were refused in one refusal: a mail of a thousand forged packets gets
    one answer, not a thousand."""
    reasons = list(dict.fromkeys(detail for detail, _ in refusals))
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


def _set_aside(host: Host, raw: bytes, digest: str, exc: Exception, done: Pass) -> None:
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
    sender = "" if is_automatic(headers) else sender_of(headers)
    if sender:  # the sentence and the failed mark are apart: once= keeps a kill between from telling twice
        host.refusal(sender, why, None, once=f"{digest}#failed")
    host.remember(digest, f"failed: {exc!r:.200}", final=True)
    done.set_aside += 1
    done.details.append(f"set aside: {why}" if sender else f"set aside: {exc!s:.200}")


def remind_overdue(host: Host, now: datetime | None = None) -> int:
    """Queues a reminder to each player who has not acted within their game's deadline (once per turn)."""
    now = now or clock.now()
    queued = 0
    for game_id, deadline, reminded in host.deadlines():
        recorded = host.service.recorded_events(game_id)
        head = len(recorded)
        if reminded >= head or (now - recorded[-1].timestamp).total_seconds() < deadline:
            continue
        status = host.service.get_game(game_id).status
        if status["status"] != "running":
            continue
        seats = host.seats(game_id)
        for player in status.get("to_act", []):
            seat = seats.get(player)
            if seat is not None and seat.mail:
                body = f"Reminder: game {game_id} has waited on you since event {head}.\n"
                if not seat.pubkey:
                    body += host.mail_only_part(game_id, player, head, status.get("to_act", []))
                host.reply(seat.mail, f"nightkeep reminder: game {game_id}, your turn", body, game_id)
                queued += 1
        host.set_reminded(game_id, head)
    return queued


def run_forever(
    host: Host,
    inbox_factory: Callable[[], Inbox],
    send: Sender,
    sender: str,
    interval: float,
    report: Callable[[Pass], None] = lambda done: None,
) -> None:
    """Runs a pass every `interval` seconds until interrupted, reporting each; a mail server's outage is
    logged, not fatal."""
    while True:
        inbox = inbox_factory()
        try:
            report(run_once(host, inbox, send, sender))
        except MailError as exc:
            log.warning("host_pass_failed", error=str(exc))
        finally:
            inbox.close()
        time.sleep(interval)
