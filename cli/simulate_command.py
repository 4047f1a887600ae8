"""`nightkeep simulate`: seeded bot games in a store in memory, summed up for statistics and benchmarks."""

from __future__ import annotations

import click

from cli.common import echo_json, handle_errors, json_option


@click.command()
@click.argument("ruleset")
@click.option(
    "--games", type=click.IntRange(1, 100_000), default=10, show_default=True, help="Games to play."
)
@click.option("--seed", default="0", show_default=True, help="Seed for the bots' choices.")
@click.option(
    "--players", type=click.IntRange(1, 32), default=None, help="Seats per game (default: up to 4)."
)
@click.option("--option", "options", multiple=True, metavar="K=V", help="A ruleset option; repeatable.")
@json_option
@handle_errors
def simulate(
    ruleset: str, games: int, seed: str, players: int | None, options: tuple[str, ...], as_json: bool
) -> None:
    """Plays bot games and tells who won how often; nothing is stored. A ruleset with a bot round cap
    (talisman) plays with it on unless --option sets it (house, RULES.md §5; the log says so).

    \b
    Example:
        nightkeep simulate dungeon-short --games 100 --seed 7
        nightkeep simulate talisman --games 5 --players 4
    """
    from cli.game_commands import parse_option
    from event_store.bot_games import simulate as run

    summary = run(ruleset, games, seed, players, dict(parse_option(o) for o in options))
    if as_json:
        echo_json(summary.to_json())
        return
    click.echo(f"{summary.games} {ruleset} games, {summary.actions} actions, {summary.events} events")
    for winner, count in summary.winners.most_common():
        click.echo(f"  won by {winner or 'nobody'}: {count}")
    for reason, count in summary.endings.most_common():
        click.echo(f"  ended: {reason}: {count}")
