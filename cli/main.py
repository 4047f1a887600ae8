"""The `nightkeep` console script: the command group and its shared options."""

from __future__ import annotations

import sys

import click

from cli import host_run_command  # noqa: F401  (adds `host run` to the host group)
from cli.completion import completion
from cli.demo_command import demo
from cli.errors import FriendlyGroup
from cli.evidence_commands import audit, fork, import_command, reveal
from cli.export_command import export
from cli.game_commands import act, actions, log_command, new, play, show
from cli.games_command import games
from cli.logging_setup import configure_logging
from cli.pbem_commands import host, join, key, receive
from cli.replay_command import replay
from cli.rulesets_command import rulesets
from cli.setup_commands import entropy, start


class OneLineErrorGroup(FriendlyGroup):
    """A command group whose errors are one line on stderr (JSON with --json) and whose bare run is help."""


@click.group(cls=OneLineErrorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    metavar="PATH",
    envvar="NIGHTKEEP_DB",
    help="Store to use: a SQLite file, or :memory:. Default: nightkeep.sqlite in your data directory.",
)
@click.option(
    "--log-format",
    type=click.Choice(["console", "json"]),
    default=None,
    help="How diagnostics on stderr look (default: console on a terminal, json otherwise).",
)
@click.option("-v", "--verbose", is_flag=True, help="Log every stored action on stderr.")
@click.version_option(package_name="nightkeep")
@click.pass_context
def cli(ctx: click.Context, db: str | None, log_format: str | None, verbose: bool) -> None:
    """Plays, records, replays and audits board games as tamper-evident event logs.

    Rulesets: dungeon-short and keep-run (Talisman's Dungeon and Keep) and vampire-empire;
    `nightkeep rulesets` lists their players, options and characters. Games are played at one
    terminal, by bots, or by e-mail.

    \b
    Example:
        nightkeep new dungeon-short --player Ann --player Bo:warrior
        nightkeep demo
    """
    configure_logging(log_format, verbose)
    ctx.ensure_object(dict)["db"] = db


for command in (
    new,
    entropy,
    start,
    actions,
    act,
    play,
    show,
    log_command,
    replay,
    fork,
    reveal,
    export,
    import_command,
    audit,
    games,
    demo,
    key,
    join,
    receive,
    host,
    rulesets,
    completion,
):
    cli.add_command(command)


def main() -> None:
    """Runs the CLI (the console script's entry point)."""
    cli.main(args=sys.argv[1:], prog_name="nightkeep")


if __name__ == "__main__":
    main()
