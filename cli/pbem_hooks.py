"""Play by e-mail inside the ordinary commands: `new` with seat keys, and `act`, `actions` and
`entropy` on a player's replica, which write signed packets instead of applying anything."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

import click

from cli.common import HOST_KEY, echo_json
from domain.errors import UsageError
from event_store.app.service import GameService

if TYPE_CHECKING:
    from event_store.pbem.replica import Membership, Replica

# The e-mail machinery (cli.pbem_commands, keys, packets, mail) is imported only by the functions that use
# it, so `show` and `act` on an ordinary game never load it.


def hosting_options(func: Any) -> Any:
    """Adds the options of a hosted game to `new`: seat keys and addresses, the host's key and address."""
    options = [
        click.option(
            "--key",
            "seat_keys",
            multiple=True,
            metavar="NAME=PUBKEY",
            help="Bind a seat to a player's public key (nightkeep key export); repeatable.",
        ),
        click.option(
            "--mail",
            "seat_mail",
            multiple=True,
            metavar="NAME=ADDR",
            help="A seat's e-mail address; a seat with an address and no key plays by mail only.",
        ),
        click.option(
            "--host-key",
            "host_key_name",
            default=HOST_KEY,
            metavar="NAME",
            help="Your key that signs for the game (default: host).",
        ),
        click.option("--host-mail", "host_mail", default="", metavar="ADDR", help="Where players send mail."),
        click.option(
            "--start-now",
            is_flag=True,
            help="Deal at once from the host's seed alone (default with --key: wait for every signing seat's "
            "entropy packet, so the host cannot pick the deal).",
        ),
        click.option("--out", "invites", metavar="DIR", help="Write the invitations (.nkp and .eml) here."),
        click.option(
            "--title", "title", default="", metavar="TEXT", help="The game's name in every mail's subject."
        ),
        click.option("--deadline", "deadline", metavar="3d", help="Turn deadline (3d, 12h, 90m)."),
        click.option(
            "--reminders",
            "reminders",
            default="",
            metavar="1d,2h",
            help="Remind the seat to move this long before its deadline.",
        ),
        click.option(
            "--missed",
            "missed",
            default="wait",
            type=click.Choice(["wait", "default", "replace"]),
            help="What a missed turn does: wait, the host's bot moves (default), or the seat is replaced.",
        ),
        click.option(
            "--grace", "grace", default="0", metavar="12h", help="With --missed default: wait this long more."
        ),
        click.option(
            "--vacation", "vacation", default="0", metavar="7d", help="How long each seat may be away in all."
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def is_hosted(hosting: dict[str, Any]) -> bool:
    """Tells whether `new` was asked for a game played by e-mail."""
    return bool(hosting.get("seat_keys") or hosting.get("seat_mail"))


def _pairs(values: tuple[str, ...], what: str) -> dict[str, str]:
    out = {}
    for text in values:
        name, sep, value = text.partition("=")
        if not sep or not name or not value:
            raise UsageError(f"malformed {what} {text[:60]!r}: expected NAME=VALUE")
        out[name] = value
    return out


def create_hosted(
    ctx: click.Context,
    ruleset: str,
    seats: list[tuple[str, str | None]],
    options: dict[str, str],
    wait_for_entropy: bool,
    hosting: dict[str, Any],
) -> UUID:
    """Starts a game played by e-mail and writes (or queues) its invitations."""
    from cli.pbem_commands import open_host, write_outbox
    from event_store.pbem import keys as keystore
    from event_store.pbem.club_host import deadline_event, parse_rules

    keys = {name: keystore.parse_public(text) for name, text in _pairs(hosting["seat_keys"], "--key").items()}
    mail = _pairs(hosting["seat_mail"], "--mail")
    club = []
    if hosting.get("deadline"):
        rules = parse_rules(
            hosting["deadline"],
            hosting["reminders"],
            hosting["missed"],
            hosting["grace"],
            hosting["vacation"],
        )
        club.append(deadline_event(rules))
    elif hosting.get("reminders") or hosting.get("missed", "wait") != "wait":
        raise UsageError("--reminders and --missed go with --deadline")
    if keys and not hosting["host_mail"]:
        raise UsageError("say where players send their packets with --host-mail ADDR")
    host_obj = open_host(ctx, hosting["host_key_name"], create=True)
    # Without the signing players' entropy the deal would come from the host's seed alone, which the host
    # could draw again and again until it liked the deal.
    wait_for_entropy = wait_for_entropy or (bool(keys) and not hosting.get("start_now"))
    game_id = host_obj.create(
        ruleset, seats, keys, mail, hosting["host_mail"], options, wait_for_entropy, club, hosting["title"]
    )
    host_obj.follow()
    if hosting.get("invites"):
        written = write_outbox(host_obj, Path(hosting["invites"]), hosting["host_mail"])
        click.echo(f"{len(written)} invitations written to {hosting['invites']}", err=True)
    else:
        click.echo("invitations queued: nightkeep host send --out DIR, or nightkeep host run", err=True)
    return game_id


def _replica_seat(
    service: GameService, game_id: UUID, as_player: str | None
) -> tuple[Replica, Membership] | None:
    """Returns the replica and its seat when the store is a player's replica of the game (None if not);
    `--as` may name only that seat."""
    from cli.pbem_commands import replica_of

    found = replica_of(service, game_id)
    if found is not None and as_player not in (None, found[1].player):
        raise UsageError(f"this replica is {found[1].player}'s: it acts and lists actions only for that seat")
    return found


def replica_actions(service: GameService, game_id: UUID, as_player: str | None, as_json: bool) -> bool:
    """Lists a replica's own legal actions; returns False when the store is no replica of the game."""
    found = _replica_seat(service, game_id, as_player)
    if found is None:
        return False
    replica, member = found
    legal = replica.legal_actions(member)
    if as_json:
        echo_json([a.to_dict() for a in legal])
        return True
    if legal:
        from cli.rendering import print_actions

        print_actions(legal)
    else:
        click.echo(f"No legal actions for {member.player} now (as far as this replica has heard).")
    for line in waiting_lines(replica, member):
        click.echo(line)
    return True


def waiting_lines(replica: Replica, member: Membership) -> list[str]:
    """Says, one line each, which packets the replica wrote that the host's events do not hold yet."""
    lines = []
    for waiting in replica.waiting(member):
        again = (
            f"nightkeep act {member.game} {waiting.what} -o FILE"
            if waiting.kind == "action"
            else "the same command"
        )
        lines.append(
            f"waiting for the host: {waiting.describe()}, not yet in the host's events — resend with "
            f"{again} (it makes the same packet again)"
        )
    return lines


def replica_waiting(service: GameService, game_id: UUID) -> tuple[list[str], list[dict[str, Any]]]:
    """Returns what a replica waits on the host for, as lines and for --json (none when it is no replica)."""
    from cli.pbem_commands import replica_of

    found = replica_of(service, game_id)
    if found is None:
        return [], []
    replica, member = found
    return waiting_lines(replica, member), [
        vars(w) | {"words": w.describe()} for w in replica.waiting(member)
    ]


def replica_act(
    service: GameService, game_id: UUID, action_id: str, as_player: str | None, output: str | None
) -> bool:
    """Writes a signed action packet on a replica; returns False when the store is no replica of the game."""
    found = _replica_seat(service, game_id, as_player)
    if found is None:
        return False
    from cli.pbem_commands import write_packet

    replica, member = found
    write_packet(replica.action_packet(member, action_id), output, f"{member.player}'s action packet")
    return True


def replica_entropy(service: GameService, game_id: UUID, text: str, output: str | None) -> bool:
    """Writes a signed entropy packet on a replica; returns False when the store is no replica of the game."""
    from cli.pbem_commands import replica_of, write_packet

    found = replica_of(service, game_id)
    if found is None:
        return False
    replica, member = found
    value = None if text == "-" else text.encode("utf-8", "surrogateescape")
    write_packet(replica.entropy_packet(member, value), output, f"{member.player}'s entropy packet")
    return True
