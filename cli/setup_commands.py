"""Commands for a game that waits for its players' entropy: entropy, start."""

from __future__ import annotations

import click

from cli.common import (
    echo_json,
    entropy_bytes,
    event_json,
    get_service,
    handle_errors,
    is_replica,
    json_option,
    resolve_viewer,
    viewer_option,
)
from cli.completion import complete_game, complete_seat
from cli.pbem_hooks import replica_entropy
from cli.rendering import print_timeline
from domain.errors import UsageError
from event_store.recorded import redacted


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.argument("text")
@click.option(
    "--as",
    "as_player",
    metavar="PLAYER",
    help="Whose entropy this is (not on a replica).",
    shell_complete=complete_seat,
)
@click.option("-o", "--output", metavar="FILE", help="On a replica: where to write the entropy packet.")
@json_option
@click.pass_context
@handle_errors
def entropy(
    ctx: click.Context, game: str, text: str, as_player: str | None, output: str | None, as_json: bool
) -> None:
    """Mixes a player's own entropy into every later draw (before the game starts).

    The seed is already committed, so the host cannot choose a seed to suit this text.

    \b
    Example:
        nightkeep new dungeon-short --player Ann --player Bo --wait-for-entropy
        nightkeep entropy 1b4e28ba-2fa1-11d2-883f-0016d3cca427 "my lucky words" --as Ann
        nightkeep --db ann.sqlite entropy 1b4e28ba-2fa1-11d2-883f-0016d3cca427 - -o entropy.nkp

    On a player's replica it writes a signed entropy packet for the host (TEXT `-`: bytes derived
    from your own key's signature of this point of the game, which nobody else can predict).
    """
    if not text:
        raise UsageError("entropy text must not be empty")
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    if is_replica(ctx) and replica_entropy(service, game_id, text, output):
        return
    if not as_player:
        raise UsageError("say whose entropy this is with --as PLAYER")
    version = service.add_entropy(game_id, as_player, entropy_bytes(text))
    if as_json:
        echo_json({"version": version})
    else:
        click.echo(f"entropy from {as_player} recorded at event {version}")


@click.command()
@click.argument("game", shell_complete=complete_game)
@viewer_option
@json_option
@click.pass_context
@handle_errors
def start(ctx: click.Context, game: str, viewer: str | None, as_json: bool) -> None:
    """Starts a game that waited for entropy: deals the characters and opens play.

    \b
    Example:
        nightkeep start 1b4e28ba-2fa1-11d2-883f-0016d3cca427
    """
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    version, recorded = service.start_game(game_id)
    # The deal may hand out secrets: show them only as the viewer may see them (default: public).
    recorded = redacted(recorded, resolve_viewer(viewer, service.get_game(game_id).meta["players"]))
    if as_json:
        echo_json({"version": version, "events": [event_json(r) for r in recorded]})
    else:
        print_timeline(service.get_game(game_id).ruleset_name, recorded)
