"""`nightkeep demo [RULESET]`: a whole bot game on the default store, told one turn at a time on a terminal.

On a terminal each turn is printed with a short pause after it (`--fast` skips the pauses); piped, the
story is printed at once. The demo ends with the outcome in words and the commands that replay, audit and
fork the very game it played. The dice are fair (a fresh secret seed), so no demo seed can promise a
winner: the outcome is said as it fell.
"""

from __future__ import annotations

import shlex
import sys
import time
from uuid import UUID

import click

from cli.common import get_service, handle_errors
from cli.rendering import console, print_board, print_timeline
from domain.actions import Action
from domain.errors import UnknownRuleset
from domain.events import GameEnded, GameWon, TurnEnded
from domain.game import Game
from domain.hidden import PUBLIC
from domain.rulesets import has_hidden_information, ruleset_names
from domain.suggest import did_you_mean
from event_store.app.forks import action_boundaries
from event_store.app.service import GameService, play_with_bots
from event_store.config import default_db_path, describe
from event_store.recorded import RecordedEvent, fold_recorded, redacted
from projections.timeline import describe_event
from simulation.bot_games import bot_game_options

DEFAULT_RULESET = "dungeon-short"
SEATS: dict[str, list[tuple[str, str | None]]] = {
    "dungeon-short": [("Ann", None), ("Bo", None), ("Cy", None)],
    "keep-run": [("Ann", None), ("Bo", None)],
    "talisman": [("Ann", None), ("Bo", None), ("Cy", None)],
    "vampire-empire": [("Hana", "human"), ("Vlad", "vampire")],
}
BLURBS = {
    "dungeon-short": "three bots race for the Treasure Chamber",
    "keep-run": "two bots storm the Vampire's Keep",
    "talisman": "three bots quest for the Crown of Command (a house cap of 400 rounds for bots)",
    "vampire-empire": "a human bot and a vampire bot fight for the castle (shown as the public sees it)",
}
PAUSE_SECONDS = 0.6
# A bot game always ends; this bounds a ruleset bug that would let one run forever.
MAX_ACTIONS = 20_000


@click.command()
@click.argument("ruleset", default=DEFAULT_RULESET, metavar="[RULESET]")
@click.option("--seed", metavar="S", help="Seed for the bots' choices (the dice stay fair).")
@click.option("--fast", is_flag=True, help="No pauses between turns on a terminal.")
@click.pass_context
@handle_errors
def demo(ctx: click.Context, ruleset: str, seed: str | None, fast: bool) -> None:
    """Plays a whole game with bots (default: dungeon-short), a turn at a time; says how to replay it.

    \b
    Example:
        nightkeep demo
        nightkeep demo vampire-empire --fast
    """
    if ruleset not in SEATS:
        known = ", ".join(name for name in ruleset_names() if name in SEATS)
        raise UnknownRuleset(f"no demo for {ruleset!r} (rulesets: {known}){did_you_mean(ruleset, SEATS)}")
    service = get_service(ctx, create=True)
    out = console()
    game_id = service.create_game(ruleset, SEATS[ruleset], bot_game_options(ruleset))
    out.print(f"New {ruleset} game {game_id}: {BLURBS[ruleset]}.\n", markup=False)
    viewer = PUBLIC if has_hidden_information(ruleset) else "host"
    print_timeline(ruleset, redacted(service.recorded_events(game_id), viewer))
    pause = 0.0 if fast or not stdout_is_terminal() else PAUSE_SECONDS
    _play_turn_by_turn(service, game_id, seed, viewer, pause)
    recorded = service.recorded_events(game_id)
    out.print()
    print_board(str(game_id), fold_recorded(redacted(recorded, viewer)))
    out.print(f"\n{outcome(ruleset, recorded)}", markup=False)
    _print_next_steps(ctx, game_id, recorded)


def stdout_is_terminal() -> bool:
    """Tells whether a person watches the output (so the demo is paced), rather than a pipe or file."""
    return sys.stdout.isatty()


def _play_turn_by_turn(
    service: GameService, game_id: UUID, seed: str | None, viewer: str, pause: float
) -> None:
    """Lets bots play to the end, printing each action's events and pausing after each turn."""

    def tell(game: Game, choice: Action, recorded: list[RecordedEvent]) -> None:
        print_timeline(game.ruleset_name, redacted(recorded, viewer), {recorded[0].version: choice.label})
        if pause and any(isinstance(r.event, TurnEnded) for r in recorded):
            sys.stdout.flush()
            time.sleep(pause)  # one turn at a time, so a person can read it as it is played

    play_with_bots(service, game_id, seed, MAX_ACTIONS, on_action=tell)


def outcome(ruleset: str, recorded: list[RecordedEvent]) -> str:
    """Says how the game ended: who won and why, or why nobody did."""
    ending = next((r.event for r in reversed(recorded) if isinstance(r.event, GameWon | GameEnded)), None)
    events = len(recorded)
    if isinstance(ending, GameWon) or (isinstance(ending, GameEnded) and ending.winner):
        winner = ending.player if isinstance(ending, GameWon) else ending.winner
        return f"{winner} won after {events} events. {describe_event(ruleset, ending)}"
    if ending is not None:
        return f"Nobody won this time, after {events} events: {describe_event(ruleset, ending)}"
    return f"The game stopped unfinished after {events} events."


def _print_next_steps(ctx: click.Context, game_id: UUID, recorded: list[RecordedEvent]) -> None:
    """Prints the commands that replay, audit and fork the game just played (with this store's --db)."""
    db = ctx.obj.get("db_resolved")
    # A URL is shown without its password (POSTGRES_PASSWORD gives it) and quoted for the shell (`?`).
    db_flag = "" if db == str(default_db_path()) else f"--db {shlex.quote(describe(db))} "
    boundaries = action_boundaries(recorded)
    at = boundaries[len(boundaries) // 2]
    out = console()
    out.print(
        f"Step through it again, check every roll and rule, or play on from event {at} (a player was "
        "about to act there) with new dice:",
        markup=False,
    )
    for command in (f"replay {game_id}", f"audit {game_id}", f"fork {game_id} --at {at}"):
        out.print(f"  nightkeep {db_flag}{command}", markup=False)
