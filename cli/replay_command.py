"""`nightkeep replay`: steps through a stored game or a replay file with the board view.

Stop points (`--to N`, `--at N|turn:T` and the jump key) name the board after an event: event N is the
board once the game's Nth event has happened; turn:T is the board when turn T starts (see
projections/turns.py): turn 1 once the host's start has played out, just before the first player's
action; turn T >= 2 right after the (T-1)th TurnEnded event.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import click

from cli.common import (
    EVENT_NUMBER,
    echo_json,
    get_service,
    handle_errors,
    json_option,
    looks_like_path,
    resolve_viewer,
    seen_by,
    viewer_option,
)
from cli.rendering import game_summary, print_board, print_timeline
from domain.errors import UsageError
from domain.events import GameCreated
from domain.game import MAX_EVENTS, GameFold
from domain.plain import copy_plain
from event_store.log_reader import read_file
from event_store.recorded import RecordedEvent, redacted
from event_store.replay_file import read_replay
from projections.timeline import describe_event
from projections.turns import next_turn_start, previous_turn_start, turn_at, turn_starts

# A stop point's number has at most as many digits as the largest event number.
DIGITS = len(str(MAX_EVENTS))
# "Back" folds forward from the nearest checkpoint, so a step costs at most this many events.
CHECKPOINT_EVERY = 32


def _copy_fold(fold: GameFold) -> GameFold:
    return GameFold(
        fold.ruleset_name, copy_plain(fold.meta), copy_plain(fold.state), fold.chain, fold.version
    )


@dataclass
class ReplaySource:
    """A game's recorded events with the board after any of them, folded from the nearest checkpoint."""

    game: str
    events: list[RecordedEvent]
    label: str = ""  # how errors name it: the file, or the game
    ruleset: str = field(init=False)
    turns: list[int] = field(init=False)
    _checkpoints: list[GameFold] = field(init=False, repr=False)
    _cursor: GameFold = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.label = self.label or f"game {self.game}"
        if not self.events:
            raise UsageError(f"{self.label} has no events")
        self.ruleset = next((r.event.ruleset for r in self.events if isinstance(r.event, GameCreated)), "")
        self.turns = turn_starts([r.event for r in self.events])
        self._checkpoints = [GameFold()]
        self._cursor = GameFold()

    @property
    def last(self) -> int:
        """Returns the number of the game's last event."""
        return len(self.events)

    def fold_at(self, number: int) -> GameFold:
        """Returns the game state after event `number`; it is reused, so read it before asking again."""
        nearest = min(number // CHECKPOINT_EVERY, len(self._checkpoints) - 1)
        base = self._checkpoints[nearest]
        if not base.version <= self._cursor.version <= number:
            self._cursor = _copy_fold(base)
        cursor = self._cursor
        for recorded in self.events[cursor.version : number]:
            cursor.apply(recorded.event, recorded.chain)
            if cursor.version == len(self._checkpoints) * CHECKPOINT_EVERY:
                self._checkpoints.append(_copy_fold(cursor))
        return cursor

    def stop_point(self, spec: str) -> int:
        """Returns the event number a stop point names: `N` (event N) or `turn:T` (where turn T starts)."""
        text = spec.strip()
        if re.fullmatch(r"[0-9]+", text):
            if len(text) > DIGITS:  # longer than any game (and int() refuses very long digit strings)
                raise UsageError(f"{self.label} has events 1 to {self.last}; there is no event {text[:16]}…")
            return self.check_event(int(text))
        turn = re.fullmatch(r"turn:([0-9]+)", text, flags=re.IGNORECASE)
        if turn is None:
            raise UsageError(f"{spec[:40]!r} is not a stop point: give an event number N or turn:T")
        digits = turn.group(1)
        number = int(digits) if len(digits) <= DIGITS else len(self.turns) + 1
        if not self.turns:
            raise UsageError(f"{self.label} has not started, so it has no turns")
        if not 1 <= number <= len(self.turns):
            raise UsageError(f"{self.label} has turns 1 to {len(self.turns)}; there is no turn {number}")
        return self.turns[number - 1]

    def check_event(self, number: int) -> int:
        """Returns `number` if the game has such an event; raises UsageError saying how many it has."""
        if not 1 <= number <= self.last:
            raise UsageError(f"{self.label} has events 1 to {self.last}; there is no event {number}")
        return number


def load_source(ctx: click.Context, game: str, viewer: str | None = None) -> ReplaySource:
    """Reads a replay file if `game` is one (without opening the store), else the stored game, as
    `viewer` may see it (a file is already someone's copy; --as can only seal more of it)."""
    path = Path(game)
    if path.is_file():
        replay = read_replay(read_file(path), path.name)
        players = [str(seat.get("name", "")) for seat in replay.header.get("players", [])]
        events = redacted(replay.events, resolve_viewer(viewer, players))
        return ReplaySource(str(replay.header.get("game") or path.name), events, game)
    if looks_like_path(game):
        raise UsageError(f"no replay file {game}")
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    return ReplaySource(str(game_id), seen_by(service.recorded_events(game_id), viewer))


# --- Interactive stepping ------------------------------------------------------------------------------

Move = Callable[[ReplaySource, int], int | None]

# Each move gives the event to show next, or None with the reason it cannot move.
MOVES: dict[str, tuple[Move, str]] = {
    "next": (lambda s, n: n + 1 if n < s.last else None, "this is the last event"),
    "back": (lambda s, n: n - 1 if n > 1 else None, "this is the first event"),
    "next-turn": (lambda s, n: next_turn_start(s.turns, n), "no turn starts after this event"),
    "previous-turn": (lambda s, n: previous_turn_start(s.turns, n), "no turn starts before this event"),
    "start": (lambda s, n: 1, ""),
    "end": (lambda s, n: s.last, ""),
}

# Arrow keys as terminals send them (ANSI, then the Windows console's two-character codes).
RIGHT, LEFT = ("\x1b[C", "\x1bOC", "\xe0M", "\x00M"), ("\x1b[D", "\x1bOD", "\xe0K", "\x00K")

KEYS: dict[str, str] = {
    **dict.fromkeys(("n", " ", "\r", "\n", *RIGHT), "next"),
    **dict.fromkeys(("b", *LEFT), "back"),
    **dict.fromkeys(("N", "]"), "next-turn"),
    **dict.fromkeys(("B", "["), "previous-turn"),
    "g": "start",
    "G": "end",
    "j": "jump",
    "q": "quit",
    "": "quit",  # the end of the input
}

KEY_HELP = (
    "n/space/→ next · b/← back · N/] next turn · B/[ previous turn · j jump · g first · G last · q quit"
)


def read_key() -> str:
    """Reads one key press; an escape sequence arriving a character at a time is read whole."""
    try:
        key = click.getchar()
        if key != "\x1b":
            return key
        # A real terminal delivers an arrow's whole sequence at once; piped input, one character at a time.
        follower = click.getchar()
        return key + follower + click.getchar() if follower in ("[", "O") else follower
    except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C on a terminal
        return ""


def ask_jump(source: ReplaySource, number: int) -> tuple[int, str] | None:
    """Prompts for a stop point; returns (event, message) or None when the input has ended."""
    try:
        spec = click.prompt("Jump to (N or turn:T)", default="", show_default=False)
    except click.Abort:  # end of input or Ctrl-C at the prompt
        return None
    if not spec.strip():
        return number, ""
    try:
        return source.stop_point(spec), ""
    except UsageError as exc:
        return number, str(exc)


def show_frame(source: ReplaySource, number: int, message: str) -> None:
    """Draws one frame: the board after event `number`, the event in words, then the keys."""
    click.clear()  # does nothing off a terminal, so piped frames follow each other
    print_board(source.game, source.fold_at(number))
    turn = turn_at(source.turns, number)
    where = f"turn {turn}/{len(source.turns)}" if turn else "before turn 1"
    described = describe_event(source.ruleset, source.events[number - 1].event)
    click.echo(f"Event {number}/{source.last} ({where}): {described}")
    if message:
        click.echo(message)
    click.echo(KEY_HELP)


def step_through(source: ReplaySource, number: int) -> None:
    """Shows frames and moves on key presses until q or the end of the input."""
    message = ""
    while True:
        show_frame(source, number, message)
        key = read_key()
        command = KEYS.get(key)
        message = ""
        if command == "quit":
            return
        if command == "jump":
            jumped = ask_jump(source, number)
            if jumped is None:
                return
            number, message = jumped
        elif command is None:
            message = f"unknown key {key!r}"
        else:
            move, refusal = MOVES[command]
            target = move(source, number)
            number, message = (number, refusal) if target is None else (target, "")


# --- The command ---------------------------------------------------------------------------------------


@click.command()
@click.argument("game", metavar="GAME|FILE")
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
    as_json: bool,
) -> None:
    """Replays a stored game or a replay file: steps through it on a terminal, else tells it up to a point.

    Off a terminal (or with --no-interactive) it prints every event in words up to the stop point,
    then the board there. On a terminal it shows the board at one event at a time, starting at the
    stop point (default: the first event): n/space/enter/→ next event, b/← back, N or ] next turn,
    B or [ previous turn, j jump to N or turn:T, g first event, G last event, q quit.
    A FILE is read on its own: the store is not opened.

    \b
    Example:
        nightkeep replay 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --to 60
        nightkeep replay game.nkr --at turn:5 --no-interactive
    """
    if to is not None and at is not None:
        raise UsageError("give --to or --at, not both")
    if interactive is None:
        interactive = not as_json and sys.stdin.isatty() and sys.stdout.isatty()
    elif interactive and as_json:
        raise UsageError("--json prints one summary, so it cannot be --interactive")
    source = load_source(ctx, game, viewer)
    stop = source.check_event(to) if to is not None else source.stop_point(at) if at is not None else None
    if interactive:
        step_through(source, stop or 1)
        return
    stop = stop or source.last
    fold = source.fold_at(stop)
    if as_json:
        echo_json(game_summary(source.game, fold))
        return
    print_timeline(source.ruleset, source.events[:stop])
    click.echo()
    print_board(source.game, fold)
