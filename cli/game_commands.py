"""Commands that start and play games: new, actions, act, play, show, log."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import click

from cli.common import (
    EVENT_NUMBER,
    echo_json,
    entropy_bytes,
    event_json,
    get_service,
    handle_errors,
    is_replica,
    json_option,
    log_entries_json,
    parse_nonce,
    refuse_another_viewer_of_copy,
    seen_by,
    stdin_is_terminal,
    viewer_option,
)
from cli.completion import (
    complete_action,
    complete_game,
    complete_option,
    complete_player,
    complete_ruleset,
    complete_seat,
)
from cli.pbem_hooks import (
    create_hosted,
    hosting_options,
    is_hosted,
    replica_act,
    replica_actions,
    replica_waiting,
)
from cli.picture_files import picture_options, write_pictures
from cli.rendering import (
    game_summary,
    print_actions,
    print_board,
    print_timeline,
    provenance,
    provenance_note,
)
from domain.actions import HOST
from domain.errors import UsageError
from domain.game import STOPPED, game_status
from domain.signing import history_fingerprint
from event_store.app.seats import AS_ENV, open_actions, refuse_if_secret, who_acts
from event_store.app.service import GameService, bound_for_bots, play_with_bots
from event_store.recorded import created_of, redacted


def parse_player(text: str) -> tuple[str, str | None]:
    """Parses `NAME` or `NAME:CHARACTER` from --player."""
    name, sep, character = text.partition(":")
    name = name.strip()
    character = character.strip()
    if not name or (sep and not character) or ":" in character:
        raise UsageError(f"malformed --player {text!r}: expected NAME or NAME:CHARACTER")
    return name, character or None


def parse_option(text: str) -> tuple[str, str]:
    """Parses `KEY=VALUE` from --option."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise UsageError(f"malformed --option {text!r}: expected KEY=VALUE")
    return key.strip(), value.strip()


def parse_entropy(text: str) -> tuple[str, bytes]:
    """Parses `NAME=TEXT` from --entropy; the text is used byte for byte, unstripped."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value:
        raise UsageError(f"malformed --entropy {text[:40]!r}: expected NAME=TEXT with some text")
    return name.strip(), entropy_bytes(value)


# A dice script longer than this would outlast any game.
MAX_SCRIPTED_FACES = 10_000


def parse_dice(text: str) -> list[int]:
    """Parses a `--dice 3,5,1` script."""
    parts = text.split(",")
    if len(parts) > MAX_SCRIPTED_FACES:
        raise UsageError(f"--dice scripts at most {MAX_SCRIPTED_FACES} faces")
    try:
        values = [int(part) for part in parts]
    except ValueError:
        raise UsageError(f"malformed --dice {text[:40]!r}: expected faces such as 3,5,1") from None
    if not values or any(not 1 <= v <= 6 for v in values):
        raise UsageError(f"malformed --dice {text[:40]!r}: faces must be 1 to 6")
    return values


@click.command()
@click.argument("ruleset", shell_complete=complete_ruleset)
@click.option(
    "--player",
    "players",
    multiple=True,
    metavar="NAME[:CHARACTER]",
    help="A seat; repeat per player.",
    shell_complete=complete_player,
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="K=V",
    help="A ruleset option; repeatable.",
    shell_complete=complete_option,
)
@click.option("--dice", "dice", metavar="3,5,1", help="Script the die faces (the game is marked scripted).")
@click.option("--entropy", "entropy", multiple=True, metavar="NAME=TEXT", help="A player's own entropy.")
@click.option(
    "--wait-for-entropy",
    is_flag=True,
    help="Commit to the seed but do not start: players add entropy, then `nightkeep start`.",
)
@hosting_options
@json_option
@click.pass_context
@handle_errors
def new(
    ctx: click.Context,
    /,
    ruleset: str,
    players: tuple[str, ...],
    options: tuple[str, ...],
    dice: str | None,
    entropy: tuple[str, ...],
    wait_for_entropy: bool,
    as_json: bool,
    **hosting: Any,
) -> None:
    """Starts a new game and prints its id; with --key or --mail, a game played by e-mail.

    RULESET: talisman, dungeon-short, keep-run or vampire-empire.

    `nightkeep rulesets` lists each one's players, options and characters.

    \b
    Example:
        nightkeep new dungeon-short --player Ann --player Bo:warrior
        nightkeep new talisman --player Ann:wizard --player Bo --option ending=first
        nightkeep new vampire-empire --player Ann:human --player Vlad:vampire \\
            --key Ann="$(cat ann.pub)" --mail Vlad=vlad@example.org --host-mail host@example.org \\
            --out invites/
    """
    seats = [parse_player(p) for p in players]
    opts = dict(parse_option(o) for o in options)
    from simulation.bot_games import refuse_bot_only_options  # the bots' module: loaded by `new` alone

    refuse_bot_only_options(ruleset, opts)
    script = parse_dice(dice) if dice is not None else None
    mixed = [parse_entropy(e) for e in entropy]
    if is_hosted(hosting):
        if script is not None or mixed:
            raise UsageError(
                "a game played by e-mail takes no --dice or --entropy (players send entropy packets)"
            )
        game_id = create_hosted(ctx, ruleset, seats, opts, wait_for_entropy, hosting)
        if as_json:
            echo_json({"game": str(game_id)})
        else:
            click.echo(str(game_id))
        return
    service = get_service(ctx, create=True)
    game_id = service.create_game(ruleset, seats, opts, script, mixed, wait_for_entropy)
    if as_json:
        echo_json({"game": str(game_id)})
    else:
        click.echo(str(game_id))


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option(
    "--as",
    "as_player",
    metavar="PLAYER",
    envvar=AS_ENV,
    shell_complete=complete_seat,
    help=f"Only this player's actions (default: ${AS_ENV}; needed in a game with secrets).",
)
@json_option
@click.pass_context
@handle_errors
def actions(ctx: click.Context, game: str, as_player: str | None, as_json: bool) -> None:
    """Lists the legal actions now.

    \b
    Example:
        nightkeep actions 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --as Ann
    """
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    if is_replica(ctx) and replica_actions(service, game_id, as_player, as_json):
        return  # a player's replica lists its own seat's actions
    loaded = service.get_game(game_id)
    if as_player is None:
        refuse_if_secret(loaded, "whose actions to list")
    service.refuse_copy(game_id)
    legal = open_actions(loaded, as_player)
    if as_json:
        echo_json([a.to_dict() for a in legal])
    elif legal:
        print_actions(legal)
    else:
        click.echo(f"No legal actions now: {who_acts(loaded, as_player)}.")


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.argument("action_id", shell_complete=complete_action)
@click.option(
    "--as",
    "as_player",
    metavar="PLAYER",
    envvar=AS_ENV,
    shell_complete=complete_seat,
    help=f"Who acts (default: ${AS_ENV}; else the one player who can; needed in a game with secrets).",
)
@click.option(
    "--expect-version", type=EVENT_NUMBER, metavar="N", help="Refuse if the game is no longer at version N."
)
@click.option("--nonce", metavar="HEX", help="The acting player's nonce, mixed into this action's draws.")
@click.option("-o", "--output", metavar="FILE", help="On a replica: where to write the action packet.")
@json_option
@click.pass_context
@handle_errors
def act(
    ctx: click.Context,
    game: str,
    action_id: str,
    as_player: str | None,
    expect_version: int | None,
    nonce: str | None,
    output: str | None,
    as_json: bool,
) -> None:
    """Takes one action and prints what happened; the action may be a unique prefix of its id.

    Without --as, the player is the only one with that action open, or the one player to act; a game
    with secrets always needs --as. On a player's replica (nightkeep join) it writes a signed action
    packet for the host instead.

    \b
    Example:
        nightkeep act 1b4e28ba roll
        nightkeep act 1b4e28ba-2fa1-11d2-883f-0016d3cca427 roll --as Ann
        nightkeep --db ann.sqlite act 1b4e28ba-2fa1-11d2-883f-0016d3cca427 roll -o roll.nkp
    """
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    if is_replica(ctx) and replica_act(service, game_id, action_id, as_player, output):
        return
    if as_player == HOST:  # the host's one action is the start, which `start` shows as the public sees it
        raise UsageError("the host does not act in a game: it starts one with nightkeep start GAME")
    nonce_bytes = parse_nonce(nonce)
    acted = service.act(game_id, action_id, as_player or None, nonce_bytes, expect_version)
    recorded = redacted(acted.recorded, acted.player)  # the actor sees its own private events, no one else's
    if as_json:
        echo_json({"version": acted.version, "events": [event_json(r) for r in recorded]})
    else:
        labels = {recorded[0].version: acted.action.label} if acted.action and recorded else None
        print_timeline(acted.ruleset_name, recorded, labels)


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option("--bots", is_flag=True, help="Let bots take every remaining action.")
@click.option("--bot", "bot_seats", multiple=True, metavar="NAME", help="A seat a bot plays; repeatable.")
@click.option("--seed", metavar="S", help="Seed for the bots' choices (default: the game id).")
@click.option(
    "--stdin",
    "from_stdin",
    is_flag=True,
    help="Read the choices from standard input even when it is not a terminal (scripts, tests).",
)
@viewer_option
@json_option
@click.pass_context
@handle_errors
def play(
    ctx: click.Context,
    game: str,
    bots: bool,
    bot_seats: tuple[str, ...],
    seed: str | None,
    from_stdin: bool,
    viewer: str | None,
    as_json: bool,
) -> None:
    """Plays a game at this terminal (--bot NAME seats a bot), or lets --bots play it to its end.

    --bots bounds the game: a talisman game made without the house round cap for bot games gets it
    first, in its log, so it ends drawn after 400 rounds at the latest (house rule H6.1).

    Each choice is a number from the list, an action id or a unique prefix of one; q or Ctrl-D stops
    (every action is already stored). In a game with secrets it asks who is at the keyboard and clears
    the screen between players. Without a terminal it needs --bots, or --stdin to read piped choices.

    \b
    Example:
        nightkeep play 1b4e28ba --bot Bo
        nightkeep play 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --bots
    """
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    if not bots:
        _play_at_terminal(service, game_id, bot_seats, seed, from_stdin, as_json)
        return
    play_with_bots(service, game_id, seed)
    fold = service.fold_as(game_id, viewer)
    if as_json:
        echo_json(game_summary(str(game_id), fold))
    else:
        print_board(str(game_id), fold)


def _play_at_terminal(
    service: GameService,
    game_id: UUID,
    bot_seats: tuple[str, ...],
    seed: str | None,
    from_stdin: bool,
    as_json: bool,
) -> None:
    """Runs the hot-seat loop after checking there is someone to read choices from."""
    if as_json:
        raise UsageError("--json goes with --bots: playing at the terminal prints for people")
    if not from_stdin and not stdin_is_terminal():
        raise UsageError("nightkeep play needs a terminal: add --bots, or --stdin to read piped choices")
    game = service.playable_game(game_id)  # a viewer's copy is refused before any prompt
    players = game.meta["players"]
    unknown = [name for name in bot_seats if name not in players]
    if unknown:
        raise UsageError(f"no player {unknown[0]!r} in this game for --bot (players: {', '.join(players)})")
    from cli.hot_seat import HotSeat  # loaded only to play at the terminal
    from domain.bots import Bot

    if set(players) <= set(bot_seats):
        bound_for_bots(service, game)  # bots in every seat finish it: the cap bounds it (house rule H6.1)
    bots = {name: Bot(f"{seed if seed is not None else game_id}/{name}") for name in bot_seats}
    HotSeat(service, game_id, bots).run()


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option("--at", "at", type=EVENT_NUMBER, metavar="N", help="Show the board as it was at event N.")
@viewer_option
@picture_options
@json_option
@click.pass_context
@handle_errors
def show(
    ctx: click.Context,
    game: str,
    at: int | None,
    viewer: str | None,
    svg_file: str | None,
    png_file: str | None,
    force_picture: bool,
    as_json: bool,
) -> None:
    """Shows the board now, or at event N.

    --svg/--png draw it as a picture too (--as: as that player may see it); a picture written to
    stdout (`-`) is then all stdout carries.

    \b
    Example:
        nightkeep show 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --at 40
        nightkeep show 1b4e28ba --as Ann --svg board.svg --png board.png
    """
    service = get_service(ctx, reads_only=True)
    game_id = service.resolve_game_id(game)
    # Other players' private events are sealed for this viewer, so the board is folded without them:
    # from the viewer's own snapshot and the few events after it.
    fold = service.fold_as(game_id, viewer, at)
    refuse_another_viewer_of_copy(service, game_id, viewer)
    facts = provenance(service, game_id, revealed=None if at else bool(fold.meta["seed"]))
    stopped = game_status(fold)["status"] == STOPPED
    if write_pictures(fold, stopped, svg_file, png_file, force_picture, as_json):
        return
    history = {"version": fold.version, "chain": fold.chain.hex()}
    history["fingerprint"] = history_fingerprint(fold.version, fold.chain)
    replica = facts.get("replica") and at is None
    lines, waiting = replica_waiting(service, game_id) if replica else ([], [])
    if as_json:
        echo_json(
            {**game_summary(str(game_id), fold), **facts, "history": history}
            | ({"waiting": waiting} if replica else {})
        )
        return
    print_board(str(game_id), fold, provenance_note(facts))
    click.echo(f"History: {history['fingerprint']}")
    for line in lines:
        click.echo(line)


@click.command(name="log")
@click.argument("game", shell_complete=complete_game)
@viewer_option
@json_option
@click.pass_context
@handle_errors
def log_command(ctx: click.Context, game: str, viewer: str | None, as_json: bool) -> None:
    """Tells every event of a game in plain words.

    With --json each event has its version, type and fields, plus its chain value after it (hex),
    the time it was recorded (ISO 8601, UTC; an imported game keeps the times of its file) and the
    text the plain-words log shows.

    \b
    Example:
        nightkeep log 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --json
    """
    service = get_service(ctx, reads_only=True)
    game_id = service.resolve_game_id(game)
    recorded = service.recorded_events(game_id)
    ruleset = created_of(recorded).ruleset
    recorded = seen_by(recorded, viewer)
    refuse_another_viewer_of_copy(service, game_id, viewer)
    if as_json:
        echo_json(log_entries_json(ruleset, recorded))
    else:
        print_timeline(ruleset, recorded)
