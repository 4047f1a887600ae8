"""The `nightkeep` console script: the command group and its shared options."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from cli.errors import FriendlyGroup
from cli.lazy_group import LazyCommand, LazyGroup
from event_store.lazy_log import LEVELS, defer_configuration

# Every command: the module that defines it, its attribute there and its one-line help. `--help` reads
# this table and imports no command module; a command's module is imported only when it runs.
# A test checks each one-line help against the command's own. Adding a command is one line here.
COMMANDS = {
    "new": LazyCommand(
        "cli.game_commands",
        "new",
        "Starts a new game and prints its id; with --key or --mail, a game played by e-mail.",
    ),
    "entropy": LazyCommand(
        "cli.setup_commands",
        "entropy",
        "Mixes a player's own entropy into every later draw (before the game starts).",
    ),
    "start": LazyCommand(
        "cli.setup_commands",
        "start",
        "Starts a game that waited for entropy: deals the characters and opens play.",
    ),
    "actions": LazyCommand("cli.game_commands", "actions", "Lists the legal actions now."),
    "act": LazyCommand(
        "cli.game_commands",
        "act",
        "Takes one action and prints what happened; the action may be a unique prefix of its id.",
    ),
    "play": LazyCommand(
        "cli.game_commands",
        "play",
        "Plays a game at this terminal (--bot NAME seats a bot), or lets --bots play it to its end.",
    ),
    "show": LazyCommand("cli.game_commands", "show", "Shows the board now, or at event N."),
    "log": LazyCommand("cli.game_commands", "log_command", "Tells every event of a game in plain words."),
    "replay": LazyCommand(
        "cli.replay_command",
        "replay",
        "Replays a stored game or a replay file: steps through it on a terminal, "
        "else tells it up to a point.",
    ),
    "fork": LazyCommand(
        "cli.evidence_commands",
        "fork",
        "Starts a new game from a game's history up to event N, where a player was about to act.",
    ),
    "reveal": LazyCommand(
        "cli.evidence_commands",
        "reveal",
        "Reveals a game's dice seed now, so anyone can check every roll; the game then takes no actions.",
    ),
    "export": LazyCommand(
        "cli.export_command",
        "export",
        "Writes a game and its hash-chained log to a replay file, as a player may see it.",
    ),
    "import": LazyCommand(
        "cli.evidence_commands",
        "import_command",
        "Stores the game a replay file holds once it passes the whole audit "
        "(export gives the same bytes back).",
    ),
    "audit": LazyCommand(
        "cli.evidence_commands", "audit", "Verifies games and replay files: chain, dice, rules and content."
    ),
    "proofs": LazyCommand(
        "cli.proof_commands",
        "proofs",
        "Writes each proof your replica keeps against a game's host as one self-contained file.",
    ),
    "verify": LazyCommand(
        "cli.proof_commands",
        "verify",
        "Checks proof files against a host: exit 1 when a proof holds, 0 when none does, 2 unreadable.",
    ),
    "games": LazyCommand(
        "cli.games_command", "games", "Lists the games in the store, most recently played first."
    ),
    "serve": LazyCommand(
        "cli.serve_command",
        "serve",
        "Shows the store's games in a web browser, read-only, each stepping like export --html.",
    ),
    "demo": LazyCommand(
        "cli.demo_command",
        "demo",
        "Plays a whole game with bots (default: dungeon-short), a turn at a time; says how to replay it.",
    ),
    "key": LazyCommand(
        "cli.pbem_commands",
        "key",
        "Makes and shows your Ed25519 keys for play by e-mail (kept owner-only in your config folder).",
    ),
    "join": LazyCommand(
        "cli.pbem_commands",
        "join",
        "Makes your replica of a game from the host's invitation and writes the join packet to send back.",
    ),
    "receive": LazyCommand(
        "cli.pbem_commands",
        "receive",
        "Checks the host's event packets (files, .eml or - for stdin) and adds them to your replica.",
    ),
    "press": LazyCommand(
        "cli.club_commands",
        "press",
        "Writes to the other players through the host: to everyone, or privately with --to.",
    ),
    "vacation": LazyCommand(
        "cli.club_commands",
        "vacation",
        "Declares you away for SPAN (3d, 12h): no deadline of yours lapses meanwhile.",
    ),
    "rollback": LazyCommand(
        "cli.club_commands",
        "rollback",
        "Answers the host's proposal to take a game back to an earlier event.",
    ),
    # `host run` is added to the host group by its own module, the club's host commands by theirs.
    "host": LazyCommand(
        "cli.host_run_command",
        "host",
        "The host of games played by e-mail: takes packets, sends every player their events.",
    ),
    "projections": LazyCommand(
        "cli.projections_command",
        "projections",
        "Keeps the read side's views (game list, boards, results, dice statistics) and shows them.",
    ),
    "rulesets": LazyCommand(
        "cli.rulesets_command",
        "rulesets",
        "Lists every ruleset with its players, options (values and default) and characters.",
    ),
    "house-rules": LazyCommand(
        "cli.rulesets_command",
        "house_rules",
        "Prints nightkeep's house rules (docs/house-rules.md), or one numbered item or section of them.",
    ),
    "simulate": LazyCommand(
        "cli.simulate_command",
        "simulate",
        "Plays seeded bot games, audits them and reports how they went, as a tournament report does.",
    ),
    "tournament": LazyCommand(
        "cli.tournament_command",
        "tournament",
        "Reports on a tournament's replay files: results, every game's audit and dice fairness.",
    ),
    "store": LazyCommand(
        "cli.store_command",
        "store",
        "Makes the key that encrypts a store at rest (its events, snapshots and seeds).",
    ),
    "completion": LazyCommand(
        "cli.completion", "completion", "Prints the shell completion script for bash, zsh or fish."
    ),
}


# Where a shell's completion request arrives (click's own name for it, from the program name).
COMPLETE_VAR = "_NIGHTKEEP_COMPLETE"


class OneLineErrorGroup(FriendlyGroup, LazyGroup):
    """The command group: errors are one line on stderr (JSON with --json), a bare run is help, and
    commands load lazily from COMMANDS."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if os.environ.get(complete_var or COMPLETE_VAR):
            # The shell asks for completions: click picks its completion class before any command module
            # loads, so the one that joins bash's split NAME:CHARACTER and KEY=VALUE must be registered now.
            import cli.completion  # noqa: F401
        return super().main(args, prog_name, complete_var, standalone_mode, **extra)


@click.group(
    cls=OneLineErrorGroup, lazy_commands=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.option(
    "--db",
    metavar="STORE",
    envvar="NIGHTKEEP_DB",
    help="Store to use: a SQLite file, a postgresql://USER@HOST/DBNAME URL (password: POSTGRES_PASSWORD), "
    "a citus://USER@HOST/DBNAME coordinator, or :memory:. Default: nightkeep.sqlite in your data directory.",
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

    Rulesets: talisman (the main board), dungeon-short and keep-run (Talisman's Dungeon and Keep)
    and vampire-empire; `nightkeep rulesets` lists their players, options and characters. Games
    are played at one terminal, by bots, or by e-mail.

    \b
    Example:
        nightkeep new dungeon-short --player Ann --player Bo:warrior
        nightkeep demo
    """
    defer_logging(log_format, verbose)
    ctx.ensure_object(dict)["db"] = db


def defer_logging(log_format: str | None, verbose: bool) -> None:
    """Configures logging at the first event shown, so a command that logs nothing never loads structlog."""

    def configure() -> None:
        from cli.logging_setup import configure_logging

        configure_logging(log_format, verbose)

    defer_configuration(configure, LEVELS["info"] if verbose else LEVELS["warning"])


def main() -> None:
    """Runs the CLI (the console script's entry point)."""
    cli.main(args=sys.argv[1:], prog_name="nightkeep")


if __name__ == "__main__":
    main()
