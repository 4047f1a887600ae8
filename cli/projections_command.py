"""`nightkeep projections`: the read side as a process (`run`), its views (`show`) and a check that they
equal a fold of the events from zero (`check`)."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import TYPE_CHECKING, Any
from uuid import UUID

import click

from cli.common import echo_json, get_service, handle_errors, json_option
from cli.lazy_group import SuggestingGroup
from event_store.lazy_log import get_logger

if TYPE_CHECKING:
    from event_store.follower_positions import Progress

log = get_logger("nightkeep.read_side")


@click.group(cls=SuggestingGroup)
def projections() -> None:
    """Keeps the read side's views (game list, boards, results, dice statistics) and shows them.

    \b
    Example:
        nightkeep projections run --once
        nightkeep projections show --json
    """


@projections.command(name="run")
@click.option(
    "--batch",
    "batch",
    type=click.IntRange(min=1),
    default=200,
    metavar="N",
    show_default=True,
    help="Events of one game folded and written per transaction.",
)
@click.option("--once", is_flag=True, help="Stop when caught up with the store (for cron and tests).")
@click.option(
    "--rebuild", is_flag=True, help="Clear every view and the position first, then rebuild from zero."
)
@click.option(
    "--poll",
    type=click.FloatRange(min=0.01),
    default=1.0,
    metavar="SECONDS",
    show_default=True,
    help="How long to wait for new events before looking again (PostgreSQL is woken sooner).",
)
@json_option
@click.pass_context
@handle_errors
def run(ctx: click.Context, batch: int, once: bool, rebuild: bool, poll: float, as_json: bool) -> None:
    """Follows the store's events into the read side's views, exactly once, until stopped.

    SIGTERM or Ctrl-C finishes the batch in hand and exits 0; a run killed at any moment is resumed
    by the next from each game's position as its last written batch stored.

    \b
    Example:
        nightkeep projections run --batch 500
        nightkeep projections run --rebuild --once
    """
    from projections.read_side import ReadSide

    side = ReadSide(get_service(ctx), batch_size=batch)
    with _stop_on_signals() as stop:
        if rebuild:
            side.rebuild()
        start = side.position()
        taken = side.catch_up(stop.is_set) if once else side.follow(poll, stop.is_set)
    progress = side.progress()
    summary = {
        "events": taken,
        "from": start,
        "folded": progress.events,
        "games": progress.games,
        "behind": progress.behind,
        "stopped": stop.reason,
    }
    log.info("read_side_stopped", **summary)
    if as_json:
        echo_json(summary)
    else:
        ended = f"stopped by {stop.reason}" if stop.reason else "caught up"
        click.echo(f"{_progress_line(progress)}: {taken:,} events taken, {ended}")


def _progress_line(progress: Progress) -> str:
    return (
        f"read side: {progress.games:,} games, {progress.events:,} events folded; "
        f"{progress.behind:,} games behind"
    )


class _Stop:
    """Set by a signal: the runner finishes the batch in hand, then stops."""

    def __init__(self) -> None:
        self.reason = ""

    def is_set(self) -> bool:
        return bool(self.reason)

    def __call__(self, signum: int, _frame: Any) -> None:
        self.reason = signal.Signals(signum).name


@contextmanager
def _stop_on_signals() -> Iterator[_Stop]:
    stop = _Stop()
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@projections.command(name="show")
@click.argument("game", required=False)
@json_option
@click.pass_context
@handle_errors
def show(ctx: click.Context, game: str | None, as_json: bool) -> None:
    """Shows the read side's views as the last run left them: every game, or one game's board.

    \b
    Example:
        nightkeep projections show
        nightkeep projections show 760b6a61 --json
    """
    from projections.read_side import ReadSide

    service = get_service(ctx, reads_only=True)
    side = ReadSide(service)
    game_id = _game_id(service, game) if game else None
    _, views = side.views_at(game_id)
    progress = side.progress()
    if as_json:
        echo_json({"progress": asdict(progress), **views})
        return
    click.echo(_progress_line(progress))
    if game_id is not None:
        click.echo("\n".join(_game_lines(game_id, views)))
        return
    for gid, entry in sorted(views["games"].items(), key=lambda item: item[1]["updated"], reverse=True):
        winner = f" won by {entry['winner']}" if entry["winner"] else ""
        click.echo(
            f"{gid[:8]}  {entry['ruleset']:<16} {entry['status']}{winner}  {', '.join(entry['players'])}"
            f"  {entry['events']} events  {entry['updated']}"
        )
    for player, tally in sorted(_tallies(views["results"]).items()):
        click.echo(f"{player}: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(tally.items())))


def _game_id(service: Any, text: str) -> str:
    """Returns a game's whole id: given whole, as it is; else looked up by its prefix."""
    try:
        return str(UUID(text))
    except ValueError:
        return str(service.resolve_game_id(text))


def _game_lines(game_id: str, views: dict[str, Any]) -> Iterator[str]:
    entry = views["games"].get(game_id)
    if entry is None:
        yield f"{game_id}: not in the views yet (nightkeep projections run)"
        return
    yield f"{game_id}  {entry['ruleset']}  {entry['status']}  {entry['events']} events"
    yield views["boards"][game_id]["board"]
    for player, purposes in views["dice"].get(game_id, {}).items():
        for purpose, faces in purposes.items():
            yield f"dice {player} {purpose}: " + json.dumps(faces, sort_keys=True)


def _tallies(results: dict[str, dict[str, str]]) -> dict[str, dict[str, int]]:
    """Counts each player's outcomes over every finished game."""
    tallies: dict[str, dict[str, int]] = {}
    for outcomes in results.values():
        for player, outcome in outcomes.items():
            tally = tallies.setdefault(player, {})
            tally[outcome] = tally.get(outcome, 0) + 1
    return tallies


@projections.command(name="check")
@json_option
@click.pass_context
@handle_errors
def check(ctx: click.Context, as_json: bool) -> None:
    """Compares the views with a fold of every game's events from zero: exit 0 equal, 1 not.

    The fold takes each game's events up to the views' position in it, so it may run while games are
    played and while `projections run` runs (a batch written meanwhile can make it report a difference:
    run it again).

    \b
    Example:
        nightkeep projections run --once && nightkeep projections check
    """
    from projections.read_side import ReadSide, differences, fold_views

    service = get_service(ctx)
    side = ReadSide(service)
    positions, views = side.views_at()
    found = differences(views, fold_views(service, upto=positions))
    games, events = len(positions), sum(positions.values())
    if as_json:
        echo_json({"games": games, "events": events, "equal": not found, "differences": found})
    elif found:
        click.echo("\n".join(found))
    else:
        click.echo(f"the views of {games:,} games ({events:,} events) equal a fold of the events")
    if found:
        ctx.exit(1)
