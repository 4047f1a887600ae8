"""`nightkeep export`: writes a stored game as a replay file (`.nkr`)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from cli.common import get_service, handle_errors, resolve_viewer, viewer_option
from cli.completion import complete_game
from cli.output_files import write_output
from domain.actions import HOST
from domain.errors import UsageError
from event_store.replay_file import export_game


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option(
    "-o",
    "--output",
    "output",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="File to write; - writes the bytes to stdout.",
)
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@viewer_option
@click.pass_context
@handle_errors
def export(ctx: click.Context, game: str, output: str, force: bool, viewer: str | None) -> None:
    """Writes a game and its hash-chained log to a replay file, as a player may see it.

    Without --as the file holds what every player may see (private events sealed; the chain still
    verifies); --as PLAYER adds that player's own private events; --as host writes the full log.
    Every copy can be imported elsewhere; only the full log can be played on. A stored viewer's copy
    is written as that copy (or, without --as, as the public copy). An existing file is left
    untouched unless --force; `-o -` writes the file's bytes to stdout.

    \b
    Example:
        nightkeep export 1b4e28ba-2fa1-11d2-883f-0016d3cca427 -o game.nkr --as host
        nightkeep export 1b4e28ba-2fa1-11d2-883f-0016d3cca427 -o - | gzip > game.nkr.gz
    """
    if not output:  # Path("") is the current directory, which would be reported as a file that exists
        raise UsageError("-o needs a file name (or - for stdout)")
    service = get_service(ctx)
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


def _is_the_store(ctx: click.Context, output: str) -> bool:
    """Tells whether a file --force would overwrite is the open store itself (by any name or link):
    overwriting it would lose every game in it."""
    db = ctx.ensure_object(dict).get("db_resolved", "")
    try:
        return bool(db) and Path(output).exists() and os.path.samefile(output, Path(db).expanduser())
    except OSError:
        return False
