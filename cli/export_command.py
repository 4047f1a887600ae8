"""`nightkeep export`: writes a stored game as a replay file (`.nkr`)."""

from __future__ import annotations

from pathlib import Path

import click

from cli.common import get_service, handle_errors
from domain.errors import UsageError
from event_store.replay_file import export_game


@click.command()
@click.argument("game")
@click.option(
    "-o", "--output", "output", required=True, type=click.Path(dir_okay=False), help="File to write."
)
@click.pass_context
@handle_errors
def export(ctx: click.Context, game: str, output: str) -> None:
    """Writes a game and its whole hash-chained log to a replay file.

    \b
    Example:
        nightkeep export 1b4e28ba-2fa1-11d2-883f-0016d3cca427 -o game.nkr
    """
    service = get_service(ctx)
    data = export_game(service, service.resolve_game_id(game))
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from None
    click.echo(f"wrote {output} ({len(data)} bytes)")
