"""`nightkeep games`: every game in the store, from the incrementally maintained game index."""

from __future__ import annotations

import json
import shutil
import sys
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import click

from cli.common import get_service, handle_errors, json_option
from domain.rulesets import check_ruleset_name
from event_store.config import resolve_db, store_exists
from projections.game_index import NOT_BUILT, GameIndex, select_games, short_ids

# The table lists the most recently played games only, unless --all or --limit says otherwise (a script
# wanting every game reads --json, which lists all).
DEFAULT_LIMIT = 20
NARROWEST = 80
GAP = "  "
HEADER = ("game", "ruleset", "status", "to act", "players", "events", "played")
ALIGN = ("left", "left", "left", "left", "left", "right", "left")
# The widest a status and a list of who is to act are shown, so that the players keep some room.
STATUS_WIDTH, TO_ACT_WIDTH = 10, 12
# When a game was last played, as an age: (below this many seconds, counted in units of, unit).
AGES = ((60, 1, "s"), (3600, 60, "m"), (86400, 3600, "h"), (7 * 86400, 86400, "d"))


@click.command()
@click.option("--running", is_flag=True, help="Only games still to be played on here.")
@click.option("--ruleset", metavar="NAME", help="Only games of this ruleset.")
@click.option("--limit", type=click.IntRange(min=1), metavar="N", help="List at most N games.")
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help=f"List every game (the table's default is the {DEFAULT_LIMIT} most recent; --json lists all).",
)
@click.option(
    "--rebuild", is_flag=True, help="Build the index again from the events before listing (a write)."
)
@json_option
@click.pass_context
@handle_errors
def games(
    ctx: click.Context,
    running: bool,
    ruleset: str | None,
    limit: int | None,
    show_all: bool,
    rebuild: bool,
    as_json: bool,
) -> None:
    """Lists the games in the store, most recently played first.

    Ids are shown short (git-style): any unique prefix names a game in other commands.

    \b
    Example:
        nightkeep games --running
        nightkeep games --ruleset keep-run --all
        nightkeep games --json
    """
    if ruleset is not None:
        check_ruleset_name(ruleset)
    index, entries, shorts = _listed_games(ctx, rebuild)
    if index is not None and not index.built:
        click.echo(f"note: {NOT_BUILT}", err=True)
    chosen = select_games(entries, running, ruleset)
    if limit is None and not show_all and not as_json:
        limit = DEFAULT_LIMIT
    shown = chosen if show_all or limit is None else chosen[:limit]
    if as_json:
        # One game a line: json's indenting encoder is pure Python, ten times slower over a big store.
        click.echo("[\n" + ",\n".join(json.dumps(e) for e in shown) + "\n]" if shown else "[]")
        return
    width = max(NARROWEST, shutil.get_terminal_size().columns) if on_terminal() else NARROWEST
    click.echo("\n".join(games_table(shown, shorts, width, len(chosen) - len(shown), bool(entries))))


def on_terminal() -> bool:
    """Tells whether the listing goes to a person's terminal (then it is as wide as the terminal)."""
    return sys.stdout.isatty()


def _listed_games(
    ctx: click.Context, rebuild: bool
) -> tuple[GameIndex | None, list[dict[str, Any]], dict[str, str]]:
    """Returns the store's game index, every game's entry with where its record stands, and each
    game's short id (no index and no games on a new machine)."""
    from cli.rendering import provenance  # rich, for the rare copy: the table is drawn without it

    if ctx.ensure_object(dict).get("db") is None and not store_exists(resolve_db(None)):
        return None, [], {}  # a new machine: nothing stored yet, and listing must not create the store
    # Listing only reads (the writer keeps the index): on a standby when the store offers one; a rebuild
    # writes, on the primary.
    service = get_service(ctx, reads_only=not rebuild)
    index = GameIndex(service)
    if rebuild:
        index.rebuild()
    entries = index.games()
    # Two queries for the whole store, not two per game: a listing of 10,000 games stays instant.
    held = {game_id.hex for game_id in service.secrets.held()}
    copies = {stored.hex for stored in service.copies.all()}
    for e in entries:
        key = e["game"].replace("-", "")
        revealed = e["status"] != "running"
        if key in copies:
            e.update(provenance(service, UUID(e["game"]), revealed=revealed))
        else:  # what provenance() says of a game that is no copy
            e["seed"] = "revealed" if revealed else "held" if key in held else "secret"
    return index, entries, short_ids([e["game"] for e in entries])


def games_table(
    entries: list[dict[str, Any]], shorts: dict[str, str], width: int, more: int, any_stored: bool
) -> list[str]:
    """Returns the lines of the games table, `width` columns wide at most."""
    if not entries:
        return ["No games match." if any_stored else "No games in this store yet; try `nightkeep demo`."]
    now = datetime.now(UTC)
    rows = [
        (
            shorts.get(e["game"], e["game"]),
            e["ruleset"],
            _status(e),
            ", ".join(e["to_act"]),
            ", ".join(e["players"]),
            str(e["version"]),
            _age(e["updated"], now),
        )
        for e in entries
    ]
    widths = [max(len(HEADER[i]), *(len(row[i]) for row in rows)) for i in range(len(HEADER))]
    widths[2], widths[3] = min(widths[2], STATUS_WIDTH), min(widths[3], TO_ACT_WIDTH)
    fixed = sum(widths) - widths[4] + len(GAP) * (len(HEADER) - 1)
    widths[4] = max(len(HEADER[4]), min(widths[4], width - fixed))
    # Only the columns of names can be wider than their column; the others set its width.
    cut = [(i, widths[i]) for i in (2, 3, 4)]
    cells = [list(row) for row in rows]
    for row_cells in cells:
        for i, w in cut:
            row_cells[i] = _fit(row_cells[i], w)
    from tabulate import tabulate  # only `games` lays out a table this long

    # The header goes in as the first row: tabulate pads a header row's names, which costs the players room.
    laid = tabulate([HEADER, *cells], tablefmt="plain", disable_numparse=True, colalign=ALIGN).splitlines()
    lines = [laid[0].rstrip()]
    indent = " " * (widths[0] + len(GAP))
    for e, line in zip(entries, laid[1:], strict=True):
        lines.append(line.rstrip())
        if note := _note(e, shorts):
            lines.append(_fit(indent + note, width))
    if more:
        lines.append(f"… and {more} more (--all lists every game, --limit N the N most recent)")
    return lines


def _fit(text: str, width: int) -> str:
    """Cuts a text to `width` characters, marking the cut with an ellipsis."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _status(entry: dict[str, Any]) -> str:
    """Says where a game stands in a few words: running, stopped, who won."""
    if entry["status"] == "finished":
        return f"{entry['winner']} won" if entry["winner"] else "no winner"
    return str(entry["status"])


def _note(entry: dict[str, Any], shorts: dict[str, str]) -> str:
    """Says what else is worth knowing about a game: a fork, a copy, a seed still secret."""
    notes = []
    if entry.get("forked_from"):
        game, _, version = entry["forked_from"].partition("@")
        notes.append(f"fork of {shorts.get(game, game)} at {version}")
    if "copy_of" in entry:
        copied = shorts.get(entry["copy_of"], entry["copy_of"])
        notes.append(
            f"{entry['viewer']}'s copy of {copied}" if entry["viewer"] else f"public copy of {copied}"
        )
    if entry.get("seed") == "secret":
        notes.append("seed still secret")
    return "; ".join(notes)


def _age(stamp: str, now: datetime) -> str:
    """Says how long ago a time was, as people read it at a glance (a week or more: the day or year)."""
    then = datetime.fromisoformat(stamp)
    seconds = (now - then).total_seconds()
    for below, size, unit in AGES:
        if seconds < below:
            return f"{max(0, int(seconds // size))}{unit} ago"
    return then.strftime("%b %d") if seconds < 300 * 86400 else str(then.year)
