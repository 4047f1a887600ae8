"""`nightkeep host run`: the host as a service over a Maildir, an mbox or an IMAP folder."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

import cli.club_commands  # noqa: F401  (adds host deadline, observer, replace, title and rollback)
from cli.common import echo_json, handle_errors, json_option, stdin_is_terminal
from cli.pbem_commands import host, key_option, open_host, viewer_url_option
from domain.errors import UsageError
from event_store.pbem.host_runner import Pass, Sender, run_forever, run_once
from event_store.pbem.mail import SmtpSettings, open_inbox, safe_address, send, write_eml

SMTP_PASSWORD_ENV = "NIGHTKEEP_SMTP_PASSWORD"


@host.command(name="run")
@click.option(
    "--inbox",
    "inbox_spec",
    required=True,
    metavar="SPEC",
    help="maildir:PATH, mbox:PATH or imaps://USER@HOST:PORT/FOLDER (password: NIGHTKEEP_IMAP_PASSWORD).",
)
@click.option("--done-folder", default="processed", metavar="NAME", help="Where handled mail is moved.")
@click.option("--imap-ca", metavar="FILE", help="CA certificate to verify the IMAP server with.")
@click.option("--smtp", "smtp", metavar="HOST:PORT", help="Send the mail owed through this SMTP server.")
@click.option("--starttls", is_flag=True, help="Upgrade the SMTP connection with STARTTLS.")
@click.option("--smtp-ssl", is_flag=True, help="Connect to the SMTP server over TLS from the start.")
@click.option(
    "--smtp-user",
    metavar="USER",
    help=f"Log in to the SMTP server (password: {SMTP_PASSWORD_ENV} or a prompt).",
)
@click.option("--smtp-ca", metavar="FILE", help="CA certificate to verify the SMTP server with.")
@click.option("--out", "out", metavar="DIR", help="Instead of SMTP, write the mail owed here as .eml files.")
@click.option("--from", "sender", default="", metavar="ADDR", help="The host's address on its mails.")
@click.option(
    "--witness",
    default="",
    metavar="ADDR",
    callback=lambda ctx, param, value: _witness(value),
    help="After each pass, mail the signed head of every game that moved on to this address.",
)
@click.option("--once", is_flag=True, help="One pass, then exit (for cron).")
@click.option(
    "--interval", default=60.0, type=click.FloatRange(0.1), metavar="SECONDS", help="Polling interval."
)
@key_option
@viewer_url_option
@json_option
@click.pass_context
@handle_errors
def host_run(
    ctx: click.Context,
    inbox_spec: str,
    done_folder: str,
    imap_ca: str | None,
    smtp: str | None,
    starttls: bool,
    smtp_ssl: bool,
    smtp_user: str | None,
    smtp_ca: str | None,
    out: str | None,
    sender: str,
    witness: str,
    once: bool,
    interval: float,
    key_name: str,
    viewer_url: str,
    as_json: bool,
) -> None:
    """Handles every packet and mail-only reply in the inbox, then sends each player their events.

    Refused packets are answered with a mail to their sender saying why. Safe to kill at any moment:
    the next run picks up where this one stopped.

    \b
    Example:
        NIGHTKEEP_IMAP_PASSWORD=… nightkeep host run --inbox imaps://host@mail.example.org:993/INBOX \\
            --smtp mail.example.org:587 --starttls --smtp-user host --from host@example.org --once
    """
    deliver = _sender(smtp, starttls, smtp_ssl, smtp_user, smtp_ca, out)
    hosting = open_host(ctx, key_name, viewer_url=viewer_url)
    kw: dict[str, Any] = {"done_folder": done_folder} if not inbox_spec.startswith("mbox:") else {}
    if imap_ca and inbox_spec.startswith(("imap://", "imaps://")):
        kw["ca_file"] = imap_ca

    def inbox_factory() -> Any:
        return open_inbox(inbox_spec, **kw)

    if not once:
        report = lambda done: _report(done, as_json)  # noqa: E731
        run_forever(hosting, inbox_factory, deliver, sender, interval, report, witness)
    inbox = inbox_factory()
    try:
        done = run_once(hosting, inbox, deliver, sender, witness)
    finally:
        inbox.close()
    _report(done, as_json)


def _witness(value: str) -> str:
    """Checks a witness's address: one plain address, as a mail's To carries it."""
    if value and safe_address(value) != value.strip().lower():
        raise click.BadParameter(f"{value!r:.60} is not one plain e-mail address")
    return value.strip().lower()


def _report(done: Pass, as_json: bool) -> None:
    """Prints what one pass did and flushes it at once: a pipe or file would hold it back, and a host
    killed later would lose it."""
    if as_json:
        echo_json(vars(done))
    else:
        for line in done.details:
            click.echo(line)
        click.echo(
            f"{done.handled} handled ({done.refused} refused, answered by mail), {done.sent} mails sent"
            + (f", {done.failed} not sent" if done.failed else "")
            + (f", {done.set_aside} set aside" if done.set_aside else ""),
            err=True,
        )
    sys.stdout.flush()
    sys.stderr.flush()


def _sender(
    smtp: str | None, starttls: bool, smtp_ssl: bool, user: str | None, ca: str | None, out: str | None
) -> Sender:
    if bool(smtp) == bool(out):
        raise UsageError("say where the mail owed goes: --smtp HOST:PORT or --out DIR (one of them)")
    if out:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        return lambda message: write_eml(message, folder / f"{_stem(str(message['Message-ID']))}.eml")
    password = None
    if user:
        password = os.environ.get(SMTP_PASSWORD_ENV)
        if password is None and not stdin_is_terminal():
            raise UsageError(
                f"no SMTP password: set {SMTP_PASSWORD_ENV} (nobody is at a terminal to type it)"
            )
        if password is None:
            password = click.prompt("SMTP password", hide_input=True)
    settings = SmtpSettings.parse(
        smtp or "", starttls=starttls, ssl=smtp_ssl, user=user, password=password, ca_file=ca
    )
    return lambda message: send(settings, [message])


def _stem(message_id: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-." else "_" for ch in message_id.strip("<>"))
