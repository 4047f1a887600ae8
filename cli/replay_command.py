"""`nightkeep replay`: steps through a stored game or a replay file with the board view.

Stop points (`--to N`, `--at N|turn:T` and the jump key) are read by projections/replay_source.py: event N
is the board once the game's Nth event has happened; turn:T is the board when turn T starts.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click
from rich.text import Text

from cli.common import (
    EVENT_NUMBER,
    echo_json,
    get_service,
    handle_errors,
    json_option,
    looks_like_path,
    refuse_another_viewer,
    refuse_another_viewer_of_copy,
    seen_by,
    viewer_option,
)
from cli.completion import complete_game_or_file
from cli.picture_files import picture_options, write_pictures
from cli.rendering import board_header, console, game_summary, print_board, print_timeline, terminal_size
from cli.replay_keys import KEY_GUIDE, KEY_HELP, Keys, TerminalKeys, command_for, piped_keys, read_line
from domain.errors import UsageError
from domain.events import ActionTaken
from domain.game import STOPPED
from event_store.app.replay_file import read_replay
from event_store.log_reader import read_file
from projections.replay_source import ReplaySource, move
from projections.text_layout import wrap
from projections.turns import turn_at
from projections.views import render_board

# One colour per seat, in seat order, so a player keeps a colour through the whole replay.
PALETTE = ("cyan", "magenta", "green", "yellow", "blue", "red", "bright_cyan", "bright_magenta")
# A frame leaves the terminal's last line free for the cursor and the jump prompt.
PROMPT_LINES = 1


def load_source(ctx: click.Context, game: str, viewer: str | None = None) -> ReplaySource:
    """Reads a replay file if `game` is one (without opening the store), else the stored game, as
    `viewer` may see it (a file is already someone's copy; --as can only seal more of it)."""
    path = Path(game)
    if path.is_file():
        replay = read_replay(read_file(path), path.name)
        events = seen_by(replay.events, viewer)
        copy_of = replay.header.get("viewer")  # a copy names its viewer ("": the public); a full log not
        if copy_of is not None:
            whose = f"{copy_of}'s copy" if copy_of else "the public copy"
            refuse_another_viewer(viewer, copy_of, f"{path.name} is {whose} of its game")
        return ReplaySource(str(replay.header.get("game") or path.name), events, game)
    if looks_like_path(game):
        raise UsageError(f"no replay file {game}")
    service = get_service(ctx, reads_only=True)
    game_id = service.resolve_game_id(game)
    events = seen_by(service.recorded_events(game_id), viewer)
    refuse_another_viewer_of_copy(service, game_id, viewer)
    return ReplaySource(str(game_id), events)


# --- Interactive stepping ------------------------------------------------------------------------------


def player_styles(source: ReplaySource) -> dict[str, str]:
    """Returns a colour for each player of the game, in seat order (the same in every frame)."""
    state = source.fold_at(source.last).state
    seats = state.get("order") or list(state.get("players") or [])
    return {str(name): PALETTE[index % len(PALETTE)] for index, name in enumerate(seats)}


def actor_at(source: ReplaySource, number: int) -> str:
    """Returns who acted to bring event `number` about: the player of the latest action up to it."""
    for recorded in reversed(source.events[:number]):
        if isinstance(recorded.event, ActionTaken):
            return str(recorded.event.player)
    return ""


def _coloured(lines: list[str], styles: dict[str, str], bold: str = "") -> Text:
    text = Text("\n".join(lines))
    for name, style in styles.items():
        weight = "bold " if name == bold else ""
        text.highlight_regex(rf"(?<!\w){re.escape(name)}(?!\w)", weight + style)
    return text


def compose_frame(
    source: ReplaySource, number: int, message: str, width: int, height: int, styles: dict[str, str]
) -> Text:
    """Returns one frame no wider than `width` and `height - 1` lines: the header, the board after event
    `number` (compact when space is short), the event in words, a message and the keys; names in colour."""
    fold = source.fold_at(number)
    summary = game_summary(source.game, fold)
    header = wrap(board_header(source.game, summary), width)
    if len(header) > 1:  # a line saved for the board: the id's first part names the game well enough here
        header = wrap(board_header(source.game[:8], summary), width)
    turn = turn_at(source.turns, number)
    where = f"turn {turn}/{len(source.turns)}" if turn else "before turn 1"
    described = source.told(number)
    told = wrap(f"Event {number}/{source.last} ({where}): {described}", width)
    notes = [line for part in message.splitlines() for line in wrap(part, width)] if message else []
    budget = height - PROMPT_LINES - len(header) - len(told) - len(notes) - 1
    stopped = summary["status"] == STOPPED
    board = render_board(fold.ruleset_name, fold.state, stopped, width=width, height=max(budget, 1))
    parts = [
        _coloured([*header, *board.split("\n")], styles),
        _coloured(told, styles, bold=actor_at(source, number)),  # who acted stands out
        Text("\n".join([*notes, KEY_HELP[:width]])),
    ]
    return Text("\n").join(parts)


def show_frame(source: ReplaySource, number: int, message: str, styles: dict[str, str]) -> None:
    """Clears the terminal and draws one frame that fits it (piped output: frames follow each other)."""
    out = console()
    width, height = terminal_size()
    out.clear()  # does nothing off a terminal
    out.print(compose_frame(source, number, message, width, height, styles), markup=False)


def ask_jump(source: ReplaySource, number: int, keys: Keys, echo: bool) -> tuple[int, str] | None:
    """Prompts for a stop point; returns (event, message), or None when the input has ended."""
    prompt = "Jump to (N or turn:T, Esc cancels): "
    click.echo(prompt, nl=False)

    def shown(text: str) -> None:
        if echo:
            click.echo(f"\r\x1b[K{prompt}{text}", nl=False)

    how, spec = read_line(keys, shown)
    click.echo()
    if how == "end" and not spec:
        return None
    if how == "escape":
        return number, "jump cancelled"
    if not spec.strip():
        return number, ""
    try:
        return source.stop_point(spec), ""
    except UsageError as exc:
        return number, str(exc)


def step_through(source: ReplaySource, number: int, keys: Keys, echo: bool = False) -> None:
    """Shows frames and moves on key presses until q or the end of the input."""
    styles = player_styles(source)
    message = ""
    while True:
        show_frame(source, number, message, styles)
        key = keys()
        command = command_for(key)
        message = ""
        if command == "quit":
            return
        if command == "jump":
            jumped = ask_jump(source, number, keys, echo)
            if jumped is None:
                return
            number, message = jumped
        elif command == "help":
            message = "\n".join(KEY_GUIDE)
        elif command is None:
            message = f"unknown key {key!r}: ? shows the keys"
        elif command != "stay":
            number, message = move(source, number, command)


# --- The command ---------------------------------------------------------------------------------------


@click.command()
@click.argument("game", metavar="GAME|FILE", shell_complete=complete_game_or_file)
@click.option("--to", "to", type=EVENT_NUMBER, metavar="N", help="Stop at event N (default: the end).")
@click.option(
    "--at",
    "at",
    metavar="N|turn:T",
    help="Stop at event N, or where turn T starts: turn 1 just before the first player's action, "
    "turn T >= 2 right after the (T-1)th TurnEnded event.",
)
@click.option(
    "--interactive/--no-interactive",
    default=None,
    help="Step with keys (default: on a terminal) or print the story and the board.",
)
@viewer_option
@picture_options
@json_option
@click.pass_context
@handle_errors
def replay(
    ctx: click.Context,
    game: str,
    to: int | None,
    at: str | None,
    interactive: bool | None,
    viewer: str | None,
    svg_file: str | None,
    png_file: str | None,
    force_picture: bool,
    as_json: bool,
) -> None:
    """Replays a stored game or a replay file: steps through it on a terminal, else tells it up to a point.

    Off a terminal (or with --no-interactive) it prints every event in words up to the stop point,
    then the board there. On a terminal it shows the board at one event at a time, starting at the
    stop point (default: the first event), each frame sized to the terminal: n/space/enter/→ next
    event, b/← back, ]/N/PgDn next turn, [/B/PgUp previous turn, Home/g first event, End/G last
    event, j jump to N or turn:T (Esc cancels), ? the keys, q quit.
    A FILE is read on its own: the store is not opened. --as PLAYER tells and shows only what that
    player could know (other players' private events sealed); --svg/--png also draw the board at the
    stop point, as that player sees it (then it does not step with keys).

    \b
    Example:
        nightkeep replay 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --to 60
        nightkeep replay game.nkr --at turn:5 --no-interactive
        nightkeep replay game.nkr --as Hana --at 40 --svg hana-40.svg
    """
    if to is not None and at is not None:
        raise UsageError("give --to or --at, not both")
    pictures = svg_file is not None or png_file is not None
    if interactive is None:
        interactive = not as_json and not pictures and sys.stdin.isatty() and sys.stdout.isatty()
    elif interactive and as_json:
        raise UsageError("--json prints one summary, so it cannot be --interactive")
    elif interactive and pictures:
        raise UsageError("--svg and --png draw the stop point, so they cannot be --interactive")
    source = load_source(ctx, game, viewer)
    stop = source.check_event(to) if to is not None else source.stop_point(at) if at is not None else None
    if interactive:
        if sys.stdin.isatty():
            with TerminalKeys() as keys:
                step_through(source, stop or 1, keys, echo=True)
        else:  # keys typed ahead into a pipe, read by the same parser
            step_through(source, stop or 1, piped_keys(sys.stdin.read()))
        return
    stop = stop or source.last
    fold = source.fold_at(stop)
    stopped = game_summary(source.game, fold)["status"] == STOPPED
    if write_pictures(fold, stopped, svg_file, png_file, force_picture, as_json):
        return  # the picture went to stdout: nothing else may
    if as_json:
        echo_json(game_summary(source.game, fold))
        return
    print_timeline(source.ruleset, source.events[:stop])
    click.echo()
    print_board(source.game, fold)
