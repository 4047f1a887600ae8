"""A club's game by e-mail at the command line: press, absences and rollback answers (on a player's
replica they write signed packets; on the host's store they are recorded at once), and the host's
deadlines, observers, hand-overs, titles and rollbacks.

    press GAME [--to SEAT]… TEXT · vacation GAME SPAN · rollback agree|refuse GAME
    host deadline · host observer add|remove|list · host replace · host title · host rollback
"""

from __future__ import annotations

from email.utils import getaddresses
from typing import Any
from uuid import UUID

import click

from cli.common import echo_json, get_service, handle_errors, json_option
from cli.lazy_group import SuggestingGroup
from cli.pbem_commands import host, key_option, open_host, replica_of, write_packet
from domain.actions import HOST
from domain.club import MISSED_RULES, PUBLIC_TO, deadline_of
from domain.errors import UsageError
from event_store.pbem import club_host
from event_store.pbem import keys as keystore
from event_store.pbem.club_host import parse_rules, parse_span
from event_store.pbem.digest import title_row
from event_store.pbem.host_parts import HostLike

OUTPUT = click.option(
    "-o", "--output", metavar="FILE", help="On a replica: where to write the signed packet."
)
AS_SEAT = click.option(
    "--as", "seat", metavar="SEAT", help="On the host's store: a mail-only seat whose words the host types."
)


def _said(ctx: click.Context, game: str, seat: str | None, output: str | None) -> tuple[Any, UUID]:
    """Returns the replica and its membership (a player's store), or None and the hosted game."""
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    found = replica_of(service, game_id)
    if found is not None:
        if seat not in (None, found[1].player):
            raise UsageError(f"this replica is {found[1].player}'s: it speaks only for that seat")
        return found, game_id
    if output is not None:
        raise UsageError("-o writes a packet on a player's replica; this store hosts the game")
    return None, game_id


@click.command()
@click.argument("game")
@click.argument("text")
@click.option("--to", "to", multiple=True, metavar="SEAT", help="Write privately to a seat (repeatable).")
@AS_SEAT
@OUTPUT
@key_option
@json_option
@click.pass_context
@handle_errors
def press(
    ctx: click.Context,
    game: str,
    text: str,
    to: tuple[str, ...],
    seat: str | None,
    output: str | None,
    key_name: str,
    as_json: bool,
) -> None:
    """Writes to the other players through the host: to everyone, or privately with --to.

    The host relays it and records it in the game's log (private press sealed for everyone else).

    \b
    Example:
        nightkeep --db ann.sqlite press GAME --to Bo "Shall we share the Vault?" -o press.nkp
        nightkeep --db host.sqlite press GAME "The deadline moves to Friday."
    """
    found, game_id = _said(ctx, game, seat, output)
    named = [name for name in to if name.casefold() != PUBLIC_TO]
    if found is not None:
        replica, member = found
        seats = replica.seats(member)
        exact = sorted({_seat(name, seats) for name in named})
        write_packet(replica.words_packet(member, "press", to=exact, text=text), output, "your press packet")
        return
    hosting = open_host(ctx, key_name)
    sender = seat or HOST
    version = club_host.send_press(hosting, game_id, sender, named or [PUBLIC_TO], text, auth="")
    _done(as_json, game_id, version, f"press from {sender} recorded at event {version}: host run mails it")


def _seat(name: str, seats: list[str]) -> str:
    found = [s for s in seats if s.casefold() == name.casefold()]
    if not found:
        raise UsageError(f"no seat {name!r:.40} in this game (seats: {', '.join(seats)})")
    return found[0]


def _done(as_json: bool, game_id: UUID, version: int, said: str) -> None:
    if as_json:
        echo_json({"game": str(game_id), "version": version})
    else:
        click.echo(said)


@click.command()
@click.argument("game")
@click.argument("span", metavar="SPAN")
@AS_SEAT
@OUTPUT
@key_option
@json_option
@click.pass_context
@handle_errors
def vacation(
    ctx: click.Context,
    game: str,
    span: str,
    seat: str | None,
    output: str | None,
    key_name: str,
    as_json: bool,
) -> None:
    """Declares you away for SPAN (3d, 12h): no deadline of yours lapses meanwhile.

    The host sets how long each seat may be away over the whole game.

    \b
    Example:
        nightkeep --db ann.sqlite vacation GAME 3d -o away.nkp
    """
    seconds = parse_span(span, "SPAN")
    if not seconds:
        raise UsageError("an absence lasts at least a minute (3d, 12h, 90m)")
    found, game_id = _said(ctx, game, seat, output)
    if found is not None:
        replica, member = found
        write_packet(replica.words_packet(member, "vacation", seconds=seconds), output, "your absence packet")
        return
    if seat is None:
        raise UsageError("on the host's store, say whose absence with --as SEAT")
    version = club_host.declare_vacation(open_host(ctx, key_name), game_id, seat, seconds)
    _done(as_json, game_id, version, f"{seat} is away for {span}: recorded at event {version}")


@click.group(cls=SuggestingGroup)
def rollback() -> None:
    """Answers the host's proposal to take a game back to an earlier event.

    \b
    Example:
        nightkeep --db ann.sqlite rollback agree GAME -o answer.nkp
    """


def _answer(
    ctx: click.Context, game: str, agreed: bool, seat: str | None, output: str | None, key_name: str
) -> None:
    found, game_id = _said(ctx, game, seat, output)
    if found is not None:
        replica, member = found
        write_packet(replica.words_packet(member, "answer", agreed=agreed), output, "your answer packet")
        return
    if seat is None:
        raise UsageError("on the host's store, say whose answer with --as SEAT")
    _, back = club_host.answer_rollback(open_host(ctx, key_name), game_id, seat, agreed)
    click.echo("the game went back" if back else f"{seat}'s answer is recorded")


@rollback.command(name="agree")
@click.argument("game")
@AS_SEAT
@OUTPUT
@key_option
@click.pass_context
@handle_errors
def rollback_agree(
    ctx: click.Context, game: str, seat: str | None, output: str | None, key_name: str
) -> None:
    """Agrees to the rollback the host proposed (it voids your moves after its event).

    \b
    Example:
        nightkeep --db ann.sqlite rollback agree GAME -o answer.nkp
    """
    _answer(ctx, game, True, seat, output, key_name)


@rollback.command(name="refuse")
@click.argument("game")
@AS_SEAT
@OUTPUT
@key_option
@click.pass_context
@handle_errors
def rollback_refuse(
    ctx: click.Context, game: str, seat: str | None, output: str | None, key_name: str
) -> None:
    """Refuses the rollback the host proposed: it ends, and play goes on.

    \b
    Example:
        nightkeep --db ann.sqlite rollback refuse GAME -o answer.nkp
    """
    _answer(ctx, game, False, seat, output, key_name)


# --- the host ------------------------------------------------------------------------------------------


def _hosted(ctx: click.Context, game: str, key_name: str) -> tuple[HostLike, UUID]:
    hosting = open_host(ctx, key_name)
    game_id = hosting.service.resolve_game_id(game)
    hosting.seats(game_id)  # refuses a game this store does not host
    return hosting, game_id


@host.command(name="deadline")
@click.argument("game")
@click.argument("span", metavar="SPAN")
@click.option("--reminders", metavar="1d,2h", help="Remind the seat to move this long before (0: none).")
@click.option("--missed", type=click.Choice(MISSED_RULES), help="What a missed turn does.")
@click.option("--grace", metavar="12h", help="With --missed default: wait this long more.")
@click.option("--vacation", "away", metavar="7d", help="How long each seat may be away in all.")
@key_option
@json_option
@click.pass_context
@handle_errors
def host_deadline(
    ctx: click.Context,
    game: str,
    span: str,
    reminders: str | None,
    missed: str | None,
    grace: str | None,
    away: str | None,
    key_name: str,
    as_json: bool,
) -> None:
    """Sets or changes a game's turn deadline (0: none), recorded in its log for every player to see;
    what is not given stays as it was.

    \b
    Example:
        nightkeep --db host.sqlite host deadline GAME 3d --reminders 1d,2h --missed default --grace 12h
    """
    hosting, game_id = _hosted(ctx, game, key_name)
    was = deadline_of(hosting.service.fold(game_id).meta)
    rules = parse_rules(
        span,
        reminders if reminders is not None else ",".join(f"{r // 60}m" for r in was["reminders"]),
        missed or was["missed"],
        grace if grace is not None else f"{was['grace'] // 60}m" if was["grace"] else "0",
        away if away is not None else f"{was['vacation'] // 60}m" if was["vacation"] else "0",
    )
    version = club_host.set_deadline(hosting, game_id, rules)
    _done(as_json, game_id, version, f"deadline {span} recorded at event {version}")


@host.group(name="observer")
def observer() -> None:
    """Lets someone watch a game by mail: the public copy's mails and public press, never a move.

    \b
    Example:
        nightkeep --db host.sqlite host observer add GAME zoe@example.org
    """


@observer.command(name="add")
@click.argument("game")
@click.argument("address")
@click.option(
    "--name", default="", metavar="NAME", help="How the log names them (default: the address's name)."
)
@key_option
@json_option
@click.pass_context
@handle_errors
def observer_add(
    ctx: click.Context, game: str, address: str, name: str, key_name: str, as_json: bool
) -> None:
    """Adds an observer by address.

    \b
    Example:
        nightkeep --db host.sqlite host observer add GAME zoe@example.org --name Zoe
    """
    hosting, game_id = _hosted(ctx, game, key_name)
    version = club_host.add_observer(hosting, game_id, _address(address), name)
    _done(as_json, game_id, version, f"{name or address} watches the game (event {version})")


@observer.command(name="remove")
@click.argument("game")
@click.argument("name")
@key_option
@click.pass_context
@handle_errors
def observer_remove(ctx: click.Context, game: str, name: str, key_name: str) -> None:
    """Stops an observer's mail.

    \b
    Example:
        nightkeep --db host.sqlite host observer remove GAME Zoe
    """
    hosting, game_id = _hosted(ctx, game, key_name)
    version = club_host.remove_observer(hosting, game_id, name)
    click.echo(f"{name} no longer watches the game (event {version})")


@host.command(name="replace")
@click.argument("game")
@click.argument("seat")
@click.option("--mail", "address", required=True, metavar="ADDR", help="The replacement player's address.")
@click.option("--key", "public", metavar="PUBKEY", help="Their public key, if they play with nightkeep.")
@click.option("--name", default="", metavar="NAME", help="Their name (default: the address's name).")
@key_option
@click.pass_context
@handle_errors
def host_replace(
    ctx: click.Context, game: str, seat: str, address: str, public: str | None, name: str, key_name: str
) -> None:
    """Hands a seat whose turn lapsed (under --missed replace) to a replacement player.

    \b
    Example:
        nightkeep --db host.sqlite host replace GAME Bo --mail dee@example.org --name Dee
    """
    hosting, game_id = _hosted(ctx, game, key_name)
    key = keystore.parse_public(public) if public else b""
    version = club_host.hand_over(hosting, game_id, seat, _address(address), key, name)
    click.echo(f"{seat}'s seat went to {name or address} (event {version}): host run mails them")


@host.command(name="title")
@click.argument("game")
@click.argument("title")
@key_option
@click.pass_context
@handle_errors
def host_title(ctx: click.Context, game: str, title: str, key_name: str) -> None:
    """Names a game in the subject of every mail about it.

    \b
    Example:
        nightkeep --db host.sqlite host title GAME "Crypt run"
    """
    hosting, game_id = _hosted(ctx, game, key_name)
    if not title.strip() or len(title) > 80 or not title.isprintable():
        raise UsageError("a title is 1-80 printable characters")
    with hosting.db.transaction(commit=True) as c:
        c.execute(*title_row(game_id, title.strip()))
    click.echo(f"game {game_id} is called {title.strip()!r} in its mails")


@host.command(name="rollback")
@click.argument("game")
@click.option("--to", "to", type=int, metavar="N", help="Take the game back to event N (before a move).")
@click.option("--reason", default="", metavar="TEXT", help="Why, in a sentence every player sees.")
@click.option("--withdraw", is_flag=True, help="Withdraw the rollback proposed.")
@key_option
@click.pass_context
@handle_errors
def host_rollback(
    ctx: click.Context, game: str, to: int | None, reason: str, withdraw: bool, key_name: str
) -> None:
    """Proposes to take a game back to event N for a real mistake (a misread reply).

    It takes effect only when every seat whose moves it voids agrees; the first move after it draws
    what the voided move drew, so no die is rolled again. `fork` is for "what if", not for this.

    \b
    Example:
        nightkeep --db host.sqlite host rollback GAME --to 14 --reason "Ann wrote 2, I read 1"
    """
    hosting, game_id = _hosted(ctx, game, key_name)
    if withdraw:
        club_host.withdraw_rollback(hosting, game_id)
        click.echo("the rollback is withdrawn")
        return
    if to is None or not reason.strip():
        raise UsageError("say where to go back to and why: --to N --reason TEXT")
    version = club_host.propose_rollback(hosting, game_id, to, reason.strip())
    click.echo(f"rollback to event {to} proposed (event {version}): host run asks the seats it voids")


def _address(text: str) -> str:
    """Returns an address given on the command line, or refuses one that is not exactly one address."""
    found = getaddresses([text])
    address = found[0][1] if len(found) == 1 else ""
    if not address or "@" not in address or not address.isprintable() or len(address) > 254:
        raise UsageError(f"{text[:60]!r} is not one e-mail address")
    return address.lower()
