"""`nightkeep audit diff A B`: where two copies of one game part, in words and on the board.

The comparison itself is projections/log_diff.py; this module reads the two copies (replay files or
stored games), tells the verdict and shows the boards on either side of the first difference.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from cli.common import echo_json, get_service, handle_errors, json_option, looks_like_path, viewer_option
from cli.completion import complete_game_or_file
from cli.output_files import write_output
from cli.rendering import board_header, game_summary, terminal_size
from domain.audit.chain import MAX_FIELD_DEPTH, nesting_within
from domain.errors import NightkeepError, UnreadableLog, UsageError
from domain.events import ActionTaken, GameCreated, Sealed
from domain.game import STOPPED, decode_event
from event_store.app.seats import resolve_viewer, seen_by
from event_store.log_reader import parse_replay, read_file
from event_store.recorded import RecordedEvent
from projections.log_diff import (
    DIFFERENT_GAMES,
    DIVERGED,
    IDENTICAL,
    PREFIX,
    LogDiff,
    compare_logs,
    fork_origin,
)
from projections.replay_source import ReplaySource
from projections.views import render_board


@dataclass(frozen=True)
class LogCopy:
    """One side of the comparison: where it was read from, the game id it names and its events."""

    source: str
    game: str
    events: list[RecordedEvent]

    @property
    def ruleset(self) -> str:
        """Returns the ruleset its GameCreated names ("" when it has none)."""
        return next(
            (str(r.fields.get("ruleset", "")) for r in self.events if r.type_name == "GameCreated"), ""
        )

    @property
    def players(self) -> list[str]:
        """Returns the seated players its GameCreated names."""
        created = next((r.event for r in self.events if isinstance(r.event, GameCreated)), None)
        return [str(seat["name"]) for seat in created.players] if created is not None else []

    @property
    def sealed(self) -> int:
        """Returns how many private events this copy holds sealed."""
        return sum(1 for r in self.events if isinstance(r.event, Sealed))


def _decoded(source: str, entries: list[Any]) -> list[RecordedEvent]:
    """Decodes a file's entries without auditing them: a forged copy must still be comparable."""
    events = []
    for e in entries:
        # Encoding a deeper value for the chain would recurse past Python's limit (the audit checks it too).
        if not nesting_within(e.fields, MAX_FIELD_DEPTH):
            raise UnreadableLog(
                f"{source}: event {e.version} ({e.type_name}) cannot be read: its fields nest deeper than "
                "any event's do"
            )
        try:
            event = decode_event(e.type_name, e.class_version, e.fields)
        except (NightkeepError, ValueError, TypeError, KeyError) as exc:  # a forger's fields of any shape
            raise UnreadableLog(
                f"{source}: event {e.version} ({e.type_name}) cannot be read: {exc}"
            ) from None
        events.append(
            RecordedEvent(e.version, event, e.type_name, e.class_version, e.fields, e.chain, e.time)
        )
    return events


def load_copy(ctx: click.Context, target: str) -> LogCopy:
    """Reads a replay file (structure only: the audit is not asked) or a stored game's events."""
    path = Path(target)
    if path.is_file():
        header, entries = parse_replay(read_file(path), target)
        return LogCopy(target, str(header.get("game") or path.name), _decoded(target, entries))
    if looks_like_path(target):
        raise UsageError(f"no replay file {target}")
    service = get_service(ctx)
    game_id = service.resolve_game_id(target)
    return LogCopy(target, str(game_id), service.recorded_events(game_id))


def _copy_line(name: str, copy: LogCopy) -> str:
    sealed = f"{copy.sealed} private events sealed" if copy.sealed else "nothing sealed"
    return f"{name}  {copy.source}: {copy.ruleset} game {copy.game}, {len(copy.events)} events, {sealed}"


def _how_found(diff: LogDiff) -> str:
    plural = "s" if diff.comparisons != 1 else ""
    return f"found by {diff.method} in {diff.comparisons} chain comparison{plural}"


def _chain_notes(diff: LogDiff) -> list[str]:
    """Says whether the chains could be trusted, and why the copies were compared event by event if not."""
    if diff.chains_link:
        return ["Both chains link from the start, so equal chain values mean equal histories."]
    notes = [
        f"{name}'s chain does not link at event {at}: it is forged or damaged, so its chain values prove "
        "nothing from there on and the copies were compared event by event."
        for name, at in zip("AB", diff.breaks, strict=True)
        if at is not None
    ]
    return notes


def _fork_notes(a: LogCopy, b: LogCopy) -> list[str]:
    """Says which copy is a fork of the other, and whether its ForkedFrom holds the other's chain there."""
    notes = []
    for name, copy, other in (("A", a, b), ("B", b, a)):
        origin = fork_origin(copy.events)
        if origin is None:
            continue
        note = f"{name} is a fork of game {origin.game} at event {origin.version}"
        if origin.game == other.game and origin.version <= len(other.events):
            matches = other.events[origin.version - 1].chain == origin.chain
            note += (
                f": its ForkedFrom holds the other copy's chain value there, so it copies events "
                f"1-{origin.version} of it"
                if matches
                else f", but its ForkedFrom's chain value is not the other copy's at event {origin.version}"
            )
        notes.append(note + ".")
    return notes


def _setup(copy: LogCopy) -> str:
    created = next((r.fields for r in copy.events if r.type_name == "GameCreated"), None)
    if created is None:
        return "no GameCreated"
    names = [str(seat.get("name")) for seat in created.get("players") or [] if isinstance(seat, dict)]
    return f"{copy.ruleset} for {', '.join(names)}"


def verdict_line(diff: LogDiff, a: LogCopy, b: LogCopy) -> str:
    """Returns the verdict in one sentence."""
    if diff.verdict == IDENTICAL:
        return f"Same game, identical: all {diff.shared} events alike ({_how_found(diff)})."
    if diff.verdict == PREFIX:
        short, long = ("B", "A") if diff.longer == "a" else ("A", "B")
        extra = abs(diff.events[0] - diff.events[1])
        return (
            f"Same game: {short} is a prefix of {long}, which holds {extra} more "
            f"event{'s' if extra != 1 else ''} "
            f"({short} ends at event {diff.shared}, {long} at {max(diff.events)}; {_how_found(diff)})."
        )
    if diff.verdict == DIFFERENT_GAMES:
        return (
            f"Different games: their logs differ at event {diff.first_difference}, where each is set up "
            f"(A: {_setup(a)}; B: {_setup(b)})."
        )
    alike = f"events 1-{diff.shared} are alike" if diff.shared else "they differ from the first event"
    return f"Same game, parted at event {diff.first_difference}: {alike} ({_how_found(diff)})."


@dataclass
class Boards:
    """The boards either side of the first difference, as a viewer of both copies sees them.

    A copy rechained around a forged event may hold an event that no state takes, or a state no view
    can lay out: each board and line is then replaced by a note saying so, and the verdict stands.
    """

    sources: tuple[ReplaySource, ReplaySource]
    number: int

    def told(self, side: int) -> str:
        """Returns the first differing event of one copy in the timeline's words."""
        try:
            return self.sources[side].told(self.number)
        except Exception as exc:  # noqa: BLE001 -- see the class docstring
            return _unshowable(f"event {self.number} of this copy", exc)

    def board(self, side: int, number: int, width: int | None = None) -> str:
        """Returns one copy's board after event `number` under its header line, as text."""
        source = self.sources[side]
        try:
            fold = source.fold_at(number)
            summary = game_summary(source.game, fold)
            board = render_board(fold.ruleset_name, fold.state, summary["status"] == STOPPED, width=width)
            return f"{board_header(source.game, summary)}\n{board}"
        except Exception as exc:  # noqa: BLE001 -- see the class docstring
            return _unshowable(f"the board after event {number} of this copy", exc)

    def shown_at(self, side: int) -> int:
        """Returns the event whose board shows one copy's side of the difference: the first differing
        event itself, or, when it is a choice (which alone changes no board), the last event before
        that copy's next choice, once what the choice set off has happened."""
        events = self.sources[side].events
        if not 0 < self.number <= len(events) or not isinstance(events[self.number - 1].event, ActionTaken):
            return self.number
        choices = range(self.number + 1, len(events) + 1)
        later = (k for k in choices if isinstance(events[k - 1].event, ActionTaken))
        return next(later, len(events) + 1) - 1

    def picture(self, side: int) -> bytes | str:
        """Returns one copy's board picture at the first difference, or why it cannot be drawn."""
        from projections.pictures import draw_board  # the drawing library loads only when asked

        try:
            fold = self.sources[side].fold_at(self.shown_at(side))
            stopped = game_summary("", fold)["status"] == STOPPED
            return draw_board(fold, stopped).encode("utf-8")
        except Exception as exc:  # noqa: BLE001 -- see the class docstring
            return _unshowable(f"the board after event {self.shown_at(side)} of this copy", exc)


def _unshowable(what: str, exc: Exception) -> str:
    return f"({what} cannot be shown: {type(exc).__name__})"


def _boards(a: LogCopy, b: LogCopy, diff: LogDiff, viewer: str | None) -> Boards:
    sources = (
        ReplaySource(a.game, seen_by(a.events, viewer), a.source),
        ReplaySource(b.game, seen_by(b.events, viewer), b.source),
    )
    return Boards(sources, diff.first_difference or 0)


def _frames(boards: Boards) -> list[tuple[str, int, int]]:
    """Returns the boards to show: (title, copy, event), the last shared one first when there is one."""
    n = boards.number
    shared = [(f"The last shared board (event {n - 1}):", 0, n - 1)] if n > 1 else []
    return [*shared, *(_frame(boards, side) for side in (0, 1))]


def _frame(boards: Boards, side: int) -> tuple[str, int, int]:
    name, n, at = "AB"[side], boards.number, boards.shown_at(side)
    title = f"{name} at event {n}:"
    if at != n:
        title = f"{name} at event {at}, once event {n}'s choice played out:"
    return title, side, at


def _print_boards(boards: Boards) -> None:
    n = boards.number
    click.echo(f"  A event {n}: {boards.told(0)}")
    click.echo(f"  B event {n}: {boards.told(1)}")
    width = terminal_size()[0]
    for title, side, number in _frames(boards):
        click.echo(f"\n{title}\n{boards.board(side, number, width)}")


def _boards_json(boards: Boards) -> dict[str, Any]:
    """Returns the first differing event in both copies' words and the boards around it, as text."""
    shown: dict[str, str | None] = {"shared": None}
    for _title, side, number in _frames(boards):
        shown["shared" if number < boards.number else "ab"[side]] = boards.board(side, number)
    return {"event": {"a": boards.told(0), "b": boards.told(1)}, "boards": shown}


def write_diff_pictures(boards: Boards, prefix: str, force: bool) -> list[str]:
    """Writes PREFIX-a.svg and PREFIX-b.svg, the two copies' boards at the first difference (a board
    that cannot be drawn is said on stderr and not written)."""
    there = [p for p in (f"{prefix}-a.svg", f"{prefix}-b.svg") if Path(p).exists() and not force]
    if there:  # checked before either is written, so a refusal leaves no picture half done
        raise UsageError(f"{there[0]} exists: nothing written (--force overwrites it)")
    written = []
    for side, name in ((0, "a"), (1, "b")):
        svg, path = boards.picture(side), f"{prefix}-{name}.svg"
        if isinstance(svg, str):
            click.echo(f"{path} not written: {svg}", err=True)
            continue
        write_output(path, svg, force)
        written.append(path)
    return written


def _copy_json(copy: LogCopy, broken: int | None) -> dict[str, Any]:
    return {
        "source": copy.source,
        "game": copy.game,
        "ruleset": copy.ruleset,
        "events": len(copy.events),
        "sealed": copy.sealed,
        "chain_breaks_at": broken,
    }


def diff_json(diff: LogDiff, a: LogCopy, b: LogCopy) -> dict[str, Any]:
    """Returns the `audit diff --json` shape (without the boards)."""
    return {
        "verdict": diff.verdict,
        "same_game": diff.verdict != DIFFERENT_GAMES,
        "first_difference": diff.first_difference,
        "shared": diff.shared,
        "longer": diff.longer,
        "extra_events": abs(diff.events[0] - diff.events[1]) if diff.verdict == PREFIX else 0,
        "chains_link": diff.chains_link,
        "method": diff.method,
        "comparisons": diff.comparisons,
        "a": _copy_json(a, diff.breaks[0]),
        "b": _copy_json(b, diff.breaks[1]),
        "notes": _fork_notes(a, b),
    }


def exit_code(diff: LogDiff) -> int:
    """Returns 0 when the copies agree on every event both hold (identical, or one a prefix) and both
    chains link, else 1: they part, are different games, or a chain is forged."""
    return 0 if diff.verdict in (IDENTICAL, PREFIX) and diff.chains_link else 1


@click.command("diff")
@click.argument("first", metavar="A", shell_complete=complete_game_or_file)
@click.argument("second", metavar="B", shell_complete=complete_game_or_file)
@click.option(
    "--svg",
    "svg_prefix",
    metavar="PREFIX",
    help="Draw both boards at the first difference: PREFIX-a.svg, PREFIX-b.svg.",
)
@click.option("--force", is_flag=True, help="Overwrite existing picture files.")
@viewer_option
@json_option
@click.pass_context
@handle_errors
def diff(
    ctx: click.Context,
    first: str,
    second: str,
    svg_prefix: str | None,
    force: bool,
    viewer: str | None,
    as_json: bool,
) -> None:
    """Compares two copies of a game (replay files or stored games) and finds the first event they part at.

    The chain values are compared by bisection (a hash chain differs at every event after the first
    difference), once both chains are checked to link from the start; a chain that does not link is
    named and the copies are compared event by event. A host's, a player's and the public copy of one
    game have the same chain (sealed events keep it), so they are the same game. Where the copies part,
    the event is told in both, with the last shared board and each copy's board there (as --as PLAYER
    sees them). Exit 0 when they agree on every event both hold (identical, or one is a prefix of the
    other: a copy that is behind), 1 when they part, are different games or a chain does not link,
    2 when a copy cannot be read. `diff` must come right after `audit` (audit a file named diff as
    ./diff).

    \b
    Example:
        nightkeep audit diff replays/vampire-empire-001.nkr replays/vampire-empire-001-public.nkr
        nightkeep audit diff hana.nkr 1b4e28ba --as Hana --svg dispute
    """
    a, b = load_copy(ctx, first), load_copy(ctx, second)
    if viewer is not None:  # a misspelt --as is refused even when no board is shown
        resolve_viewer(viewer, a.players)
    found = compare_logs(a.events, b.events)
    boards = _boards(a, b, found, viewer) if found.verdict == DIVERGED else None
    pictures: list[str] = []
    if svg_prefix is not None:
        if boards is None:
            click.echo("no pictures drawn: the copies do not part at an event of one game", err=True)
        else:
            pictures = write_diff_pictures(boards, svg_prefix, force)
    if as_json:
        extra = _boards_json(boards) if boards is not None else {"event": None, "boards": None}
        echo_json({**diff_json(found, a, b), **extra, "pictures": pictures})
    else:
        _print_diff(found, a, b, boards)
        for path in pictures:
            click.echo(f"wrote {path}", err=True)
    ctx.exit(exit_code(found))


def _print_diff(found: LogDiff, a: LogCopy, b: LogCopy, boards: Boards | None) -> None:
    click.echo(_copy_line("A", a))
    click.echo(_copy_line("B", b))
    click.echo(verdict_line(found, a, b))
    for note in _chain_notes(found):
        click.echo(note)
    for note in _fork_notes(a, b):
        click.echo(f"Note: {note}")
    if boards is not None:
        _print_boards(boards)
