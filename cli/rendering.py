"""Human output: board views, action tables and timelines, rendered with rich on stdout."""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.actions import Action
from domain.game import STOPPED, Game, GameFold, game_status
from event_store.app.service import GameService
from event_store.recorded import RecordedEvent
from projections.views import players_summary, render_board

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

# Piped output is laid out for this many columns and lines unless COLUMNS and LINES say otherwise, so
# scripts and tests that compare output get the same text on every machine; every view's full layout fits.
PIPED_WIDTH = 120
PIPED_HEIGHT = 24


def _env_size(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.isdigit() and 20 <= int(value) <= 1000 else default


def terminal_size() -> tuple[int, int]:
    """Returns the columns and lines to lay output out for: the terminal's (COLUMNS and LINES override
    it), or a fixed size when stdout is not a terminal."""
    if sys.stdout.isatty():
        size = shutil.get_terminal_size()
        return max(size.columns, 20), max(size.lines, 5)
    return _env_size("COLUMNS", PIPED_WIDTH), _env_size("LINES", PIPED_HEIGHT)


def console() -> Console:
    """Returns a console on stdout sized by `terminal_size`; colour on a terminal unless NO_COLOR is set."""
    width, height = terminal_size()
    from rich.console import Console  # rich loads when something is printed, not with the module

    # No emoji codes: boards are plain text, and the emoji table costs start-up time.
    return Console(highlight=False, soft_wrap=True, width=width, height=height, emoji=False)


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
        from event_store.pbem.replica import membership_in  # only a copy can be a replica: keep `show` light

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
        notes.append(
            "its host holds the seed until the game ends: each turn's public dice are checked with that "
            "turn's key, private draws (and every draw of a game made before 0.4.0) at the reveal"
        )
    return "; ".join(notes)


def board_header(game_id: str, summary: dict[str, Any]) -> str:
    """Returns the line above a board: ruleset, game, event number and status."""
    header = f"{summary['ruleset']} game {game_id} at event {summary['version']} — {summary['status']}"
    if summary["status"] == STOPPED:
        header += f": {summary['reason']}"
    elif summary["winner"]:
        header += f", won by {summary['winner']}"
    elif summary["to_act"]:
        header += f", {', '.join(summary['to_act'])} to act"
    return header


def wrapped(text: str, width: int, indent: str = "    ") -> str:
    """Wraps one paragraph to `width` columns, indenting the lines after the first."""
    return "\n".join(textwrap.wrap(text, width, subsequent_indent=indent)) or text


def print_board(game_id: str, fold: GameState, note: str = "", height: int | None = None) -> None:
    """Prints the board view under a header (and a line of provenance, when given), to the console's width
    (and, given a `height`, in at most that many lines, header included, as far as a layout allows)."""
    summary = game_summary(game_id, fold)
    width, _ = terminal_size()
    head = wrapped(board_header(game_id, summary), width)
    if height is not None and "\n" in head:  # a line saved for the board: the id's start names the game
        head = wrapped(board_header(game_id[:8], summary), width)
    print_plain(head)
    if note:
        head += "\n" + wrapped(f"Note: {note}.", width)
        print_plain(wrapped(f"Note: {note}.", width))
    stopped = summary["status"] == STOPPED
    rest = None if height is None else max(height - len(head.splitlines()), 1)
    print_plain(render_board(fold.ruleset_name, fold.state, stopped, width=width, height=rest))


# The control codes rich drops from text it prints (rich.control.STRIP_CONTROL_CODES).
_DROPPED = dict.fromkeys([7, 8, 11, 12, 13])


def print_plain(text: str) -> None:
    """Prints plain text on stdout as the console prints it unstyled (those control codes dropped, tabs
    expanded), without loading rich: boards and timelines are plain text, and loading rich is about
    a tenth of `show`'s or `act`'s start-up."""
    sys.stdout.write("\n".join(line.expandtabs(8) for line in text.translate(_DROPPED).split("\n")) + "\n")


def plain_cells(*cells: str) -> list[Text]:
    """Returns table cells that print as written: a player named `[bold]Ann` is not read as markup."""
    from rich.text import Text

    return [Text(cell) for cell in cells]


def print_actions(actions: list[Action]) -> None:
    """Prints legal actions as a table."""
    out = console()
    if not actions:
        out.print("No legal actions now.")
        return
    from rich.table import Table

    table = Table(highlight=False)
    table.add_column("id", no_wrap=True)  # an id is typed back whole, so it never wraps
    table.add_column("player", no_wrap=True)
    table.add_column("action", overflow="fold")
    for action in actions:
        table.add_row(*plain_cells(action.id, action.player, action.label))
    out.print(table)


def print_timeline(
    ruleset: str, events: list[RecordedEvent], labels: Mapping[int, str] | None = None
) -> None:
    """Prints each event in plain words, numbered by version, wrapped to the terminal's width
    (`labels`: known action labels by version)."""
    # Piped with no COLUMNS, each event keeps one line of its own, for grep and the like.
    width = terminal_size()[0] if sys.stdout.isatty() or "COLUMNS" in os.environ else 0
    for told in timeline_lines(ruleset, events, labels, width):
        print_plain(told)


def timeline_lines(
    ruleset: str, events: list[RecordedEvent], labels: Mapping[int, str] | None, width: int
) -> list[str]:
    """Returns each event in plain words, numbered by version, as one paragraph wrapped to `width`
    columns (0: not wrapped)."""
    from projections.timeline import describe_events, told_lines  # only the commands that tell a story

    told = []
    for recorded, text in told_lines(events, describe_events(ruleset, events, labels)):
        line = f"{recorded.version:>5}  {text}"
        told.append(wrapped(line, width, " " * 7) if width else line)
    return told
