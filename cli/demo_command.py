"""`nightkeep demo`: a whole short Dungeon game played by bots on the default store, shown as it goes."""

from __future__ import annotations

import click

from cli.common import get_service, handle_errors
from cli.rendering import console, print_board, print_timeline
from domain.events import TurnEnded
from domain.game import Game
from event_store.config import default_db_path
from event_store.recorded import RecordedEvent
from event_store.service import play_with_bots

DEMO_PLAYERS = [("Ann", None), ("Bo", None), ("Cy", None)]


@click.command()
@click.option("--seed", metavar="S", help="Seed for the bots' choices (the dice stay fair).")
@click.pass_context
@handle_errors
def demo(ctx: click.Context, seed: str | None) -> None:
    """Plays a whole Dungeon short game with three bots and says how to replay it.

    \b
    Example:
        nightkeep demo
    """
    service = get_service(ctx, create=True)
    out = console()
    game_id = service.create_game("dungeon-short", DEMO_PLAYERS)
    out.print(f"New dungeon-short game {game_id}: three bots race for the Treasure Chamber.\n")
    print_timeline("dungeon-short", service.recorded_events(game_id))
    turns = 0

    def show_progress(game: Game, recorded: list[RecordedEvent]) -> None:
        nonlocal turns
        print_timeline(game.ruleset_name, recorded)
        if not any(isinstance(r.event, TurnEnded) for r in recorded):
            return
        turns += 1
        if turns % len(DEMO_PLAYERS) == 0:
            out.print()
            print_board(str(game_id), game)  # every round, from the game in hand: no re-read
            out.print()

    play_with_bots(service, game_id, seed, on_action=show_progress)
    game = service.get_game(game_id)
    out.print()
    print_board(str(game_id), game)
    winner = game.status["winner"]
    out.print(f"\n{winner + ' wins' if winner else 'Nobody wins'} after {game.version} events.", markup=False)
    db = ctx.obj.get("db_resolved")
    db_flag = "" if db == str(default_db_path()) else f"--db {db} "
    out.print("Replay it with:", markup=False)
    out.print(f"  nightkeep {db_flag}replay {game_id}", markup=False)
    out.print(f"  nightkeep {db_flag}show {game_id} --at 10", markup=False)
