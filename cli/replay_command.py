"""`nightkeep replay`: tells a game event by event up to a point, then shows the board there."""

from __future__ import annotations

import click

from cli.common import get_service, handle_errors
from cli.rendering import print_board, print_timeline
from domain.errors import UsageError


@click.command()
@click.argument("game")
@click.option(
    "--to", "to", type=click.IntRange(min=1), metavar="N", help="Stop at event N (default: the end)."
)
@click.pass_context
@handle_errors
def replay(ctx: click.Context, game: str, to: int | None) -> None:
    """Replays a stored game: every event in words, then the board where it stops.

    \b
    Example:
        nightkeep replay 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --to 60
    """
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    recorded = service.recorded_events(game_id, lte=to)
    if to is not None and recorded[-1].version != to:
        raise UsageError(f"game {game_id} has only {recorded[-1].version} events")
    fold = service.fold(game_id, recorded[-1].version)
    print_timeline(fold.ruleset_name, recorded)
    click.echo()
    print_board(str(game_id), fold)
