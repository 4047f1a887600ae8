"""`nightkeep games`: every game in the store, from the incrementally maintained game index."""

from __future__ import annotations

from uuid import UUID

import click
from rich.table import Table

from cli.common import echo_json, get_service, handle_errors, json_option
from cli.rendering import console, plain_cells, provenance
from projections.game_index import GameIndex


@click.command()
@click.option("--rebuild", is_flag=True, help="Rebuild the index from the first event before listing.")
@json_option
@click.pass_context
@handle_errors
def games(ctx: click.Context, rebuild: bool, as_json: bool) -> None:
    """Lists the games in the store, most recently played first.

    \b
    Example:
        nightkeep games --json
    """
    service = get_service(ctx)
    index = GameIndex(service)
    if rebuild:
        index.rebuild()
    entries = [
        {**e, **provenance(service, UUID(e["game"]), revealed=e["status"] != "running")}
        for e in index.games()
    ]
    if as_json:
        echo_json(entries)
        return
    if not entries:
        console().print("No games in this store yet; try `nightkeep demo`.", markup=False)
        return
    table = Table("ruleset", "players", "events", "status", "winner", "last played")
    table.add_column("game", no_wrap=True, min_width=36)
    for e in entries:
        notes = [f"fork of {e['forked_from']}"] if e.get("forked_from") else []
        if "copy_of" in e:
            notes.append(f"{e['viewer']}'s copy" if e["viewer"] else "public copy")
        if e["seed"] == "secret":
            notes.append("dice not verified yet")
        row = plain_cells(
            e["ruleset"],
            ", ".join(e["players"]),
            str(e["version"]),
            e["status"],
            e["winner"],
            e["updated"][:19].replace("T", " "),
            "\n".join([e["game"], *notes]),
        )
        table.add_row(*row)
    console().print(table)
