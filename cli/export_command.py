"""`nightkeep export`: writes a stored game as a replay file (`.nkr`) or as a web replay page (`--html`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cli.common import get_service, handle_errors, looks_like_path, resolve_viewer, viewer_option
from cli.completion import complete_game_or_file
from cli.output_files import refuse_binary_to_terminal, write_output
from domain.actions import HOST
from domain.errors import UsageError
from domain.hidden import PUBLIC
from event_store.app.replay_file import encode_replay, export_game, read_replay
from event_store.log_reader import read_file, read_log

if TYPE_CHECKING:
    from projections.html_replay import Progress as StepsDone


@click.command()
@click.argument("game", metavar="GAME|FILE", shell_complete=complete_game_or_file)
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Replay file to write; - writes the bytes to stdout.",
)
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Write a self-contained web page that steps through the game instead; - is stdout.",
)
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@viewer_option
@click.pass_context
@handle_errors
def export(
    ctx: click.Context, game: str, output: str | None, html_file: str | None, force: bool, viewer: str | None
) -> None:
    """Writes a game and its hash-chained log to a replay file, as a player may see it.

    Without --as the file holds what every player may see (private events sealed; the chain still
    verifies); --as PLAYER adds that player's own private events; --as host writes the full log.
    Every copy can be imported elsewhere; only the full log can be played on. A stored viewer's copy
    is written as that copy (or, without --as, as the public copy). An existing file is left
    untouched unless --force; `-o -` writes the file's bytes to stdout (piped or redirected: they are
    binary, so a terminal is refused).

    --html FILE writes that same copy as one web page instead: the board and the timeline after every
    event, with buttons, a slider, turn jumps and keys, the audit's verdict on the copy and its final
    chain value; it needs no network to view. GAME may then also be a replay file.

    \b
    Example:
        nightkeep export 1b4e28ba-2fa1-11d2-883f-0016d3cca427 -o game.nkr --as host
        nightkeep export 1b4e28ba-2fa1-11d2-883f-0016d3cca427 -o - | gzip > game.nkr.gz
        nightkeep export 1b4e28ba --html game.html --as Hana
    """
    if (output is None) == (html_file is None):
        raise UsageError("give -o FILE (a replay file) or --html FILE (a web page), one of them")
    if html_file is not None:
        _export_html(ctx, game, html_file, force, viewer)
        return
    assert output is not None
    if not output:  # Path("") is the current directory, which would be reported as a file that exists
        raise UsageError("-o needs a file name (or - for stdout)")
    refuse_binary_to_terminal(output, "a replay file", "-o")
    service = get_service(ctx, reads_only=True)
    game_id = service.resolve_game_id(game)
    seen_as = resolve_viewer(viewer, service.get_game(game_id).meta["players"])
    data = export_game(service, game_id, seen_as)
    copy = service.copies.get(game_id)
    if copy is not None and seen_as == HOST:  # a copy holds no more than its viewer saw: say so
        whose = f"{copy.viewer}'s copy" if copy.viewer else "the public copy"
        click.echo(f"note: this store holds {whose} of game {copy.game}; that copy is written", err=True)
    if output != "-" and force and _is_the_store(ctx, output):
        raise UsageError(f"{output} is the store this game is read from: nothing written")
    write_output(output, data, force)
    if output == "-":
        return
    click.echo(f"wrote {output} ({len(data)} bytes)")


def copy_bytes(ctx: click.Context, game: str, viewer: str | None) -> tuple[bytes, str]:
    """Returns the replay-file bytes of the copy `viewer` may see, and whose copy it is: of a stored game
    exactly as `export -o` writes them, or of a replay file (a file is already someone's copy: --as can
    only seal more of it)."""
    path = Path(game)
    if path.is_file():
        replay = read_replay(read_file(path), path.name)
        players = [seat["name"] for seat in replay.header["players"]]
        seen_as = resolve_viewer(viewer, players)
        copy_of = replay.header.get("viewer")  # a copy names its viewer ("": the public); a full log not
        if copy_of is not None and seen_as != PUBLIC:
            if seen_as not in (HOST, copy_of):
                whose = f"{copy_of}'s copy" if copy_of else "the public copy"
                raise UsageError(
                    f"{path.name} is {whose} of its game: only that or the public copy can be shown"
                )
            seen_as = copy_of  # the host's full log is not in it: the page is that copy, and says so
        from event_store.recorded import redacted

        return encode_replay(str(replay.header["game"]), redacted(replay.events, seen_as), seen_as), seen_as
    if looks_like_path(game):
        raise UsageError(f"no replay file {game}")
    service = get_service(ctx, reads_only=True)
    game_id = service.resolve_game_id(game)
    seen_as = resolve_viewer(viewer, service.get_game(game_id).meta["players"])
    return export_game(service, game_id, seen_as), seen_as


def html_page(
    data: bytes,
    source: str,
    seen_as: str,
    links: list[tuple[str, str]] | None = None,
    progress: StepsDone | None = None,
    jobs: int = 1,
) -> str:
    """Returns the web replay page of a copy's replay-file bytes (made for `seen_as`), with the verdict
    of the audit that `nightkeep audit` runs on that file; a long game's boards are drawn in `jobs`
    worker processes."""
    from cli.evidence_commands import _verdict
    from projections.html_replay import ReplayFacts, replay_page

    checked = read_log(data, source)
    report = checked.report
    recorded = checked.recorded()
    header = checked.header
    summary = (
        f"{_verdict(report, '')} ({report.events} events, {report.actions} actions, "
        f"{report.draws_verified}/{report.draws} draws verified)"
    )
    facts = ReplayFacts(
        game=str(header["game"]),
        ruleset=str(header["ruleset"]),
        players=[str(seat["name"]) for seat in header["players"]],
        seen_as=seen_as if checked.viewer is None else checked.viewer,  # a stored copy is its viewer's
        verdict=summary,
        findings=[f"event {f.version}: {f.kind}: {f.detail}" for f in report.findings],
        notes=list(report.notes),
        chain=recorded[-1].chain.hex(),
        links=links or [],
    )
    return replay_page(facts, recorded, progress, jobs)


def _export_html(ctx: click.Context, game: str, html_file: str, force: bool, viewer: str | None) -> None:
    if not html_file:
        raise UsageError("--html needs a file name (or - for stdout)")
    if html_file != "-" and not force and Path(html_file).exists():  # before the drawing, which takes long
        raise UsageError(f"{html_file} exists: nothing written (--force overwrites it)")
    if html_file != "-" and force and _same_file(html_file, game):  # the replay file read would be lost
        raise UsageError(f"{html_file} is the replay file the page is made from: nothing written")
    data, seen_as = copy_bytes(ctx, game, viewer)
    if html_file != "-" and force and _is_the_store(ctx, html_file):
        raise UsageError(f"{html_file} is the store this game is read from: nothing written")
    from rich.console import Console
    from rich.progress import Progress  # only a page takes long enough to show progress

    from simulation.bot_games import job_count

    shown = Console(stderr=True)  # stdout may be carrying the page
    with Progress(console=shown, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("drawing the board after every event", total=None)
        page = html_page(
            data,
            game,
            seen_as,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
            jobs=job_count(0),  # every core this process may use: a long game's drawing is most of it
        ).encode("utf-8")
    write_output(html_file, page, force)
    if html_file != "-":
        click.echo(f"wrote {html_file} ({len(page)} bytes)")


def _same_file(output: str, source: str) -> bool:
    """Tells whether the file --force would overwrite is the replay file given as GAME (by any name)."""
    try:
        return Path(source).is_file() and Path(output).exists() and os.path.samefile(output, source)
    except OSError:
        return False


def _is_the_store(ctx: click.Context, output: str) -> bool:
    """Tells whether a file --force would overwrite is the open store itself (by any name or link):
    overwriting it would lose every game in it."""
    db = ctx.ensure_object(dict).get("db_resolved", "")
    try:
        return bool(db) and Path(output).exists() and os.path.samefile(output, Path(db).expanduser())
    except OSError:
        return False
