"""Play by e-mail at the command line: keys, the host's commands, and a player's replica.

    key new|list|export          a person's signing keys
    join INVITE · receive PACKET…  a player's replica (its own --db store)
    host apply FILE… · host send · host run   the host (the store that holds the seeds)
`new … --key NAME=PUBKEY` starts a hosted game; `act`, `actions` and `entropy` on a replica write
signed packets instead of applying anything (see cli/game_commands.py).
"""

from __future__ import annotations

import sys
import urllib.parse
from pathlib import Path
from typing import Any
from uuid import UUID

import click

from cli.common import HOST_KEY, echo_json, get_service, handle_errors, json_option
from cli.lazy_group import SuggestingGroup
from cli.rendering import print_board
from domain.errors import BadPacket, UsageError
from domain.signing import fingerprint
from event_store.app.service import GameService
from event_store.log_reader import LIMITS, read_file
from event_store.pbem import keys as keystore
from event_store.pbem.host_runner import host_message
from event_store.pbem.hosting import Handled, Host, Outgoing
from event_store.pbem.mail import UnreadableMail, read_mail_text, write_eml
from event_store.pbem.replica import Membership, Replica, membership_in
from event_store.recorded import fold_recorded, redacted

# --- keys ------------------------------------------------------------------------------------------------


@click.group(cls=SuggestingGroup)
def key() -> None:
    """Makes and shows your Ed25519 keys for play by e-mail (kept owner-only in your config folder).

    \b
    Example:
        nightkeep key new ann
        nightkeep key export ann
    """


@key.command(name="new")
@click.argument("name")
@json_option
@handle_errors
def key_new(name: str, as_json: bool) -> None:
    """Makes a new key pair and prints its public key and fingerprint.

    \b
    Example:
        nightkeep key new ann
    """
    pair = keystore.new_key(name)
    _print_key(pair.name, pair.public, as_json)


@key.command(name="list")
@json_option
@handle_errors
def key_list(as_json: bool) -> None:
    """Lists your keys with their fingerprints.

    \b
    Example:
        nightkeep key list
    """
    pairs = keystore.list_keys()
    if as_json:
        echo_json([_key_json(p.name, p.public) for p in pairs])
        return
    if not pairs:
        click.echo(f"No keys in {keystore.key_dir()} (nightkeep key new NAME makes one).")
    for pair in pairs:
        click.echo(f"{pair.name:<20} {fingerprint(pair.public)}")


@key.command(name="export")
@click.argument("name")
@json_option
@handle_errors
def key_export(name: str, as_json: bool) -> None:
    """Prints a key's public half as one line to send to the host, and its fingerprint.

    \b
    Example:
        nightkeep key export ann
    """
    pair = keystore.load_key(name)
    _print_key(pair.name, pair.public, as_json)


def _key_json(name: str, public: bytes) -> dict[str, str]:
    return {"name": name, "public": keystore.public_text(public, name), "fingerprint": fingerprint(public)}


def _print_key(name: str, public: bytes, as_json: bool) -> None:
    if as_json:
        echo_json(_key_json(name, public))
        return
    click.echo(keystore.public_text(public, name))
    click.echo(f"fingerprint: {fingerprint(public)}", err=True)


# --- shared ----------------------------------------------------------------------------------------------


def read_texts(paths: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """Reads packet files, .eml files or stdin (`-`): (source, text, sender) for each text to search."""
    out = []
    for path in paths:
        data = _stdin() if path == "-" else read_file(path)
        if path.endswith(".eml") or data.startswith((b"From:", b"Return-Path:", b"Received:", b"Date:")):
            try:
                mail = read_mail_text(data)
            except UnreadableMail as exc:  # unreadable input, exit 2: nothing was read, nothing changed
                raise UnreadableMail(
                    f"cannot read {'standard input' if path == '-' else path}: {exc}"
                ) from None
            out.append((path, mail.text, mail.sender))
        else:
            out.append((path, data.decode("utf-8", "replace"), ""))
    return out


def _stdin() -> bytes:
    data = sys.stdin.buffer.read(LIMITS.max_bytes + 1)  # no more than a log may hold, as read_file
    if len(data) > LIMITS.max_bytes:
        raise UsageError(
            f"standard input is larger than a packet or mail may be ({LIMITS.max_bytes:,} bytes)"
        )
    return data


def mail_text(
    service: GameService, game_id: UUID, player: str, old: int, new: int, shown: UUID | None = None
) -> str:
    """Says in lines a phone shows whole whose turn it is, what a player may see of events old+1..new and
    where everyone stands (`shown`: the game id to name, for a replica's copy stored under an id of its
    own)."""
    from projections.mail_words import mail_words  # every ruleset's words: only when a mail is written

    recorded = service.recorded_events(game_id, lte=new)
    return f"Game {shown or game_id}\n\n" + mail_words(redacted(recorded, player), player, old, new)


def board_png(service: GameService, game_id: UUID, player: str, version: int) -> bytes:
    """Draws the board of a game at an event, as a player may see it, as a PNG for their mail."""
    from projections.mail_picture import mail_picture

    return mail_picture(service.recorded_events(game_id, lte=version), player)


def open_host(
    ctx: click.Context, key_name: str = HOST_KEY, create: bool = False, viewer_url: str = ""
) -> Host:
    """Returns the host of the store chosen by --db, signing with the named key; its mails link to the
    public viewer at `viewer_url`, if given."""
    service = get_service(ctx, create=create)
    return Host(
        service,
        keystore.load_key(key_name),
        lambda g, p, a, b: mail_text(service, g, p, a, b),
        picture=lambda g, p, v: board_png(service, g, p, v),
        viewer_url=viewer_url,
    )


def viewer_url_option(func: Any) -> Any:
    """Adds --viewer-url URL: the public `nightkeep serve` each mail links to, at the mail's event."""
    return click.option(
        "--viewer-url",
        default="",
        metavar="URL",
        callback=_viewer_url,
        help="Link each mail to its game on this public `nightkeep serve` (https://…).",
    )(func)


def _viewer_url(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Checks a viewer's base address: http(s), a host, no query or fragment (a game's path follows it)."""
    if not value:
        return ""
    parts = urllib.parse.urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise click.BadParameter(
            f"{value!r} is not a viewer's address, e.g. https://club.example.org/nightkeep"
        )
    if any(ch.isspace() or ch in '"<>' for ch in value):
        raise click.BadParameter(f"{value!r} holds a space or a quote: a mail's link cannot carry it")
    return value.rstrip("/")


def replica_of(service: GameService, game_id: UUID) -> tuple[Replica, Membership] | None:
    """Returns the replica and its membership when this store is a player's replica of the game."""
    member = membership_in(service, game_id)
    return (Replica(service), member) if member is not None else None


def write_packet(text: str, output: str | None, what: str) -> None:
    """Writes a packet to a file (or stdout) and says so on stderr; a file holding another packet (one
    perhaps not sent yet) is refused, the same packet again is not."""
    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    check_packet_output(output, text)
    try:
        Path(output).write_text(text)
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from None
    click.echo(f"{what} written to {output}: send it to the host", err=True)


def check_packet_output(output: str | None, text: str | None = None) -> None:
    """Refuses an -o file that exists and holds anything but `text` (None: any existing file)."""
    if output is None or output == "-" or not Path(output).exists():
        return
    try:
        same = text is not None and Path(output).read_text() == text
    except (OSError, UnicodeDecodeError):
        same = False
    if not same:
        raise UsageError(f"{output} exists: nothing written (remove it or choose another -o)")


def write_outbox(host: Host, out: Path, sender: str = "") -> list[Outgoing]:
    """Writes every mail the host owes as an .eml file (and its packet as .nkp) into a folder."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for mail in host.due():
        stem = f"{mail.id:06d}-{mail.player or 'reply'}"
        message = host_message(host, mail, sender)
        write_eml(message, out / f"{stem}.eml")
        if mail.packet:
            (out / f"{stem}.nkp").write_text(mail.packet)
        host.mark_sent(mail)
        written.append(mail)
    return written


def report(handled: list[Handled], as_json: bool) -> int:
    """Prints what the host did with each packet; returns the exit code (1 if any was refused)."""
    if as_json:
        echo_json(
            [{"ok": h.ok, "game": str(h.game or ""), "player": h.player, "detail": h.detail} for h in handled]
        )
    for h in handled:
        if not as_json:
            click.echo(h.detail if h.ok else f"refused: {h.detail}", err=not h.ok)
    return 0 if all(h.ok for h in handled) else 1


# --- a player's replica ----------------------------------------------------------------------------------


@click.command()
@click.argument("invite")
@click.option(
    "--host-key", "expected", metavar="FINGERPRINT", help="Refuse unless the host key has this print."
)
@click.option("-o", "--output", metavar="FILE", help="Where to write the join packet (default: stdout).")
@json_option
@click.pass_context
@handle_errors
def join(ctx: click.Context, invite: str, expected: str | None, output: str | None, as_json: bool) -> None:
    """Makes your replica of a game from the host's invitation and writes the join packet to send back.

    The replica (--db) holds only what your seat may see. Compare the host key's fingerprint with
    the one your host reads out to you (--host-key).

    \b
    Example:
        nightkeep --db ann.sqlite join invite-ann.nkp -o join.nkp
    """
    (_, text, _), *_ = read_texts((invite,))
    check_packet_output(output)  # before joining: a join cannot be made twice to write it again
    service = get_service(ctx, create=True)
    member, packet = Replica(service).join(text, expected or "")
    if as_json:
        echo_json(
            {"game": str(member.game), "player": member.player, "host_key": fingerprint(member.host_key)}
        )
    else:
        click.echo(f"joined game {member.game} as {member.player}; host key {fingerprint(member.host_key)}")
    write_packet(packet, output, "the join packet")


@click.command()
@click.argument("packets", nargs=-1, required=True)
@json_option
@click.pass_context
@handle_errors
def receive(ctx: click.Context, packets: tuple[str, ...], as_json: bool) -> None:
    """Checks the host's event packets (files, .eml or - for stdin) and adds them to your replica.

    Shows what happened since you last heard, in plain words, and the board.

    \b
    Example:
        nightkeep --db ann.sqlite receive events-12.nkp
    """
    service = get_service(ctx)
    replica = Replica(service)
    results = []
    for source, text, _ in read_texts(packets):
        try:
            results += replica.receive(text)
        except BadPacket as exc:
            raise BadPacket(f"{source}: {exc}") from None
    if as_json:
        echo_json([vars(r) | {"game": str(r.game)} for r in results])
        return
    for r in results:
        if r.after > r.before:
            stored = copy_of(replica, r.game)
            click.echo(mail_text(service, stored, r.player, r.before, r.after, r.game), nl=False)
            if sys.stdout.isatty():  # a terminal is wide enough for the board itself too
                print_board(str(r.game), fold_recorded(redacted(service.recorded_events(stored), r.player)))
        else:
            click.echo(f"{r.detail}: nothing new in game {r.game}")


def copy_of(replica: Replica, game_id: UUID) -> UUID:
    """Returns the stored id of a replica's copy of a game."""
    member = replica.membership(game_id)
    assert member is not None
    return member.stored


# --- the host --------------------------------------------------------------------------------------------


@click.group(cls=SuggestingGroup)
def host() -> None:
    """The host of games played by e-mail: takes packets, sends every player their events.

    \b
    Example:
        nightkeep host apply join-ann.nkp action-bo.nkp --out outgoing/
        nightkeep host run --inbox maildir:Maildir --smtp mail.example.org:587 --starttls --once
    """


def key_option(func: Any) -> Any:
    """Adds --key NAME: the host key that signs (default `host`)."""
    return click.option(
        "--key", "key_name", default=HOST_KEY, metavar="NAME", help="The host key (default: host)."
    )(func)


@host.command(name="apply")
@click.argument("files", nargs=-1, required=True)
@click.option("--out", "out", metavar="DIR", required=True, help="Folder for the mails owed (.eml and .nkp).")
@click.option("--from", "sender", metavar="ADDR", default="", help="The host's address on the mails.")
@key_option
@viewer_url_option
@json_option
@click.pass_context
@handle_errors
def host_apply(
    ctx: click.Context,
    files: tuple[str, ...],
    out: str,
    sender: str,
    key_name: str,
    viewer_url: str,
    as_json: bool,
) -> None:
    """Takes players' packets (or mail replies) from files, then writes every mail owed into a folder.

    \b
    Example:
        nightkeep host apply action-bo.nkp --out outgoing/
    """
    hosting = open_host(ctx, key_name, viewer_url=viewer_url)
    handled = []
    for _, text, from_addr in read_texts(files):
        handled += hosting.handle_text(text, from_addr)
    hosting.follow()
    write_outbox(hosting, Path(out), sender)
    ctx.exit(report(handled, as_json))


@host.command(name="send")
@click.option("--out", "out", metavar="DIR", required=True, help="Folder for the mails owed (.eml and .nkp).")
@click.option("--from", "sender", metavar="ADDR", default="", help="The host's address on the mails.")
@key_option
@viewer_url_option
@click.pass_context
@handle_errors
def host_send(ctx: click.Context, out: str, sender: str, key_name: str, viewer_url: str) -> None:
    """Writes every mail the host owes (invitations, events) into a folder.

    \b
    Example:
        nightkeep host send --out outgoing/
    """
    hosting = open_host(ctx, key_name, viewer_url=viewer_url)
    hosting.follow()
    written = write_outbox(hosting, Path(out), sender)
    click.echo(f"{len(written)} mails written to {out}")
