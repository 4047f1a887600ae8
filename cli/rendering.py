"""Human output: board views, action tables and timelines, rendered with rich on stdout."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any
from uuid import UUID

from rich.console import Console
from rich.table import Table
from rich.text import Text

from domain.actions import Action
from domain.game import STOPPED, Game, GameFold, game_status
from event_store.recorded import RecordedEvent
from event_store.service import GameService
from projections.timeline import describe_events
from projections.views import players_summary, render_board


def console() -> Console:
    """Returns a console on stdout; piped output gets wide tables and no colour."""
    # Rich assumes 80 columns when stdout is not a terminal, which would cut game ids in tables.
    return Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)


# A live Game and a GameFold rebuilt from the store both carry ruleset_name, state and version.
GameState = Game | GameFold


def game_summary(game_id: str, fold: GameState) -> dict[str, Any]:
    """Returns the `show --json` shape of a game state."""
    status = game_status(fold)
    return {
        "game": game_id,
        "ruleset": fold.ruleset_name,
        "version": fold.version,
        "status": status["status"],
        "winner": status["winner"],
        "to_act": status.get("to_act", []),
        **({"reason": status["reason"]} if status["status"] == STOPPED else {}),
        "players": players_summary(fold.ruleset_name, fold.state),
    }


def provenance(service: GameService, game_id: UUID, revealed: bool | None = None) -> dict[str, Any]:
    """Returns where a stored game's record stands: `seed` is `revealed` (every draw can be checked),
    `held` (this store is its host) or `secret` (imported: its host holds the seed, so its dice are not
    verified yet); a viewer's copy also names the game it copies and its viewer."""
    if revealed is None:
        revealed = bool(service.get_game(game_id).meta["seed"])
    facts: dict[str, Any] = {
        "seed": "revealed" if revealed else "held" if service.holds_seed(game_id) else "secret"
    }
    copy = service.copies.get(game_id)
    if copy is not None:
        from event_store.replica import membership_in  # only a copy can be a replica: keep `show` light

        facts.update(copy_of=str(copy.game), viewer=copy.viewer)
        if membership_in(service, game_id) is not None:
            facts["replica"] = True
    return facts


def provenance_note(facts: dict[str, Any]) -> str:
    """Says in words what `provenance` found, when it is worth saying ("" when not)."""
    notes = []
    if facts.get("replica"):
        notes.append(
            f"{facts['viewer']}'s replica of game {facts['copy_of']}: act writes packets for its host"
        )
    elif "copy_of" in facts:
        whose = f"{facts['viewer']}'s copy" if facts["viewer"] else "the public copy"
        notes.append(f"{whose} of game {facts['copy_of']}: it cannot be continued")
    if facts.get("seed") == "secret":
        notes.append("its dice are not verified yet: its host holds the seed until the game ends")
    return "; ".join(notes)


def print_board(game_id: str, fold: GameState, note: str = "") -> None:
    """Prints the board view with a one-line header (and a line of provenance, when given)."""
    summary = game_summary(game_id, fold)
    out = console()
    header = f"{summary['ruleset']} game {game_id} at event {summary['version']} — {summary['status']}"
    if summary["status"] == STOPPED:
        header += f": {summary['reason']}"
    elif summary["winner"]:
        header += f", won by {summary['winner']}"
    elif summary["to_act"]:
        header += f", {', '.join(summary['to_act'])} to act"
    out.print(header, markup=False)
    if note:
        out.print(f"Note: {note}.", markup=False)
    out.print(render_board(fold.ruleset_name, fold.state, summary["status"] == STOPPED), markup=False)


def plain_cells(*cells: str) -> list[Text]:
    """Returns table cells that print as written: a player named `[bold]Ann` is not read as markup."""
    return [Text(cell) for cell in cells]


def print_actions(actions: list[Action]) -> None:
    """Prints legal actions as a table."""
    out = console()
    if not actions:
        out.print("No legal actions now.")
        return
    table = Table("id", "player", "action")
    for action in actions:
        table.add_row(*plain_cells(action.id, action.player, action.label))
    out.print(table)


def print_timeline(
    ruleset: str, events: list[RecordedEvent], labels: Mapping[int, str] | None = None
) -> None:
    """Prints each event in plain words, numbered by version (`labels`: known action labels by version)."""
    out = console()
    for recorded, line in zip(events, describe_events(ruleset, events, labels), strict=True):
        out.print(f"{recorded.version:>5}  {line}", markup=False)
