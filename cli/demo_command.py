"""`nightkeep demo`: a whole short Dungeon game played by bots on the default store, shown as it goes."""

from __future__ import annotations

import click

from cli.common import get_service, handle_errors
from cli.rendering import console, print_board
from domain.bots import Bot
from domain.events import TurnEnded
from event_store.config import default_db_path
from projections.timeline import describe_event

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
    service = get_service(ctx)
    out = console()
    game_id = service.create_game("dungeon-short", DEMO_PLAYERS)
    out.print(f"New dungeon-short game {game_id}: three bots race for the Treasure Chamber.\n")
    for item in service.recorded_events(game_id):
        out.print(f"{item.version:>5}  {describe_event('dungeon-short', item.event)}", markup=False)
    bot = Bot(seed if seed is not None else str(game_id))
    game = service.get_game(game_id)
    turns = 0
    while not game.is_finished:
        choice = bot.choose(game.ruleset, game.state, game.ruleset.legal_actions(game.state, None))
        _, recorded = service.take_action(game_id, choice.player, choice.id)
        for item in recorded:
            out.print(f"{item.version:>5}  {describe_event(game.ruleset_name, item.event)}", markup=False)
        game = service.get_game(game_id)
        if any(isinstance(r.event, TurnEnded) for r in recorded):
            turns += 1
            if turns % len(DEMO_PLAYERS) == 0:
                out.print()
                print_board(str(game_id), service.fold(game_id))
                out.print()
    out.print()
    print_board(str(game_id), service.fold(game_id))
    winner = game.status["winner"]
    out.print(f"\n{winner + ' wins' if winner else 'Nobody wins'} after {game.version} events.", markup=False)
    db = ctx.obj.get("db_resolved")
    db_flag = "" if db == str(default_db_path()) else f"--db {db} "
    out.print("Replay it with:", markup=False)
    out.print(f"  nightkeep {db_flag}replay {game_id}", markup=False)
    out.print(f"  nightkeep {db_flag}show {game_id} --at 10", markup=False)
