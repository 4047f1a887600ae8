"""`nightkeep simulate`: seeded bot games, played in parallel if asked, summed up for statistics and
benchmarks, and stored or written as replay files if asked."""

from __future__ import annotations

import itertools
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cli.common import echo_json, get_service, handle_errors, json_option
from cli.output_files import write_output
from domain.errors import UsageError

if TYPE_CHECKING:
    from event_store.app.service import GameService
    from projections.report_rows import GameRecord, Report
    from simulation.bot_games import BotGames, PlayedGame, Simulation

# A seed that names replay files stays a plain file name on every system.
FILE_SEED = re.compile(r"[A-Za-z0-9._-]{1,64}")


class JobsType(click.ParamType[int]):
    """A number of processes: a whole number, 0 or `auto` for one per core."""

    name = "J"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        text = str(value).strip().lower()
        if text == "auto":
            return 0
        if text.isdecimal() and int(text) <= 256:
            return int(text)
        self.fail(f"{value!r} is not a number of processes (0 to 256, or auto)", param, ctx)


@click.command()
@click.argument("ruleset")
@click.option(
    "--games", type=click.IntRange(1, 100_000), default=10, show_default=True, help="Games to play."
)
@click.option("--seed", default="0", show_default=True, help="Seed the games are derived from.")
@click.option(
    "--players", type=click.IntRange(1, 32), default=None, help="Seats per game (default: up to 4)."
)
@click.option("--option", "options", multiple=True, metavar="K=V", help="A ruleset option; repeatable.")
@click.option(
    "--jobs",
    type=JobsType(),
    default="1",
    show_default=True,
    help="Processes playing (0 or auto: one per core).",
)
@click.option("--store", "keep", is_flag=True, help="Store the games in the store (--db), as any game.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Write each game as DIR/<ruleset>-<seed>-<n>.nkr (never over an existing file).",
)
@click.option(
    "--html",
    "html_out",
    metavar="FILE",
    help="Write the report as a tournament's is written: one self-contained page (- for stdout).",
)
@click.option("--force", is_flag=True, help="Overwrite the --html file if it exists.")
@json_option
@click.pass_context
@handle_errors
def simulate(
    ctx: click.Context,
    ruleset: str,
    games: int,
    seed: str,
    players: int | None,
    options: tuple[str, ...],
    jobs: int,
    keep: bool,
    out: str | None,
    html_out: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Plays seeded bot games, audits them and reports how they went, as a tournament report does.

    It tells who won how often, how long the games were and how the characters left them. Game n
    depends only on the seed and n, so any --jobs gives the same games. Nothing is stored unless
    --store or --out asks. Every game is audited as it is played, and the games are reported as a
    tournament's files are (`tournament report`): --json carries that report under "report", --html
    writes its page, with the chi-square test of the dice per purpose and per player.
    Exit 1 if any game fails its audit (a fault in nightkeep: please report it). A ruleset with a bot
    round cap (talisman) plays with it on unless --option sets it (house rule H6.1 of docs/house-rules.md; the
    log says so).

    \b
    Example:
        nightkeep simulate dungeon-short --games 100 --seed 7
        nightkeep simulate keep-run --games 200 --jobs auto --json
        nightkeep simulate talisman --option dungeon=true --games 5 --store --out games/
        nightkeep simulate dungeon-short --games 500 --jobs auto --html dungeon.html
    """
    from cli.game_commands import parse_option
    from simulation.bot_games import BotGames, check_not_stored, play_games

    if as_json and html_out == "-":
        raise UsageError("--json and --html - would both print on stdout: give --html a file")
    if html_out == "":  # else taken for no --html at all, and no page written without a word
        raise UsageError("--html needs a file name (or - for stdout)")
    if html_out and html_out != "-" and Path(html_out).exists() and not force:
        raise UsageError(f"{html_out} exists: nothing written (--force overwrites it)")
    if html_out and html_out != "-" and not Path(html_out).parent.is_dir():  # before any game is stored
        raise UsageError(f"cannot write {html_out}: no directory {Path(html_out).parent}: nothing played")
    planned = BotGames.of(ruleset, games, seed, players, dict(parse_option(o) for o in options))
    out_dir = check_out_dir(out, planned) if out is not None else None
    service = get_service(ctx, create=True) if keep else None  # created, as `new` does
    if service is not None:
        check_not_stored(service, planned)
    if out_dir is not None:
        make_dir(out_dir)
    root = ctx.find_root().params
    setup = partial(worker_logging, root.get("log_format"), bool(root.get("verbose")))
    records: list[GameRecord] = []
    with progress(games, sys.stderr.isatty(), as_json) as advance:
        played = play_games(planned, jobs, setup)
        summary = keep_and_sum(planned, played, service, out_dir, advance, records)
    from projections.reports import build_report, render_html

    report = build_report(records)
    if html_out:
        title = f"Simulation: {planned.games} {ruleset} games, seed {planned.seed}"
        write_output(html_out, render_html(report, title).encode("utf-8"), force)
    if as_json:
        kept = kept_json(planned, keep, out_dir, records)
        echo_json({**summary.to_json(), **kept, "report": report.to_json()})
    elif html_out != "-":
        click.echo("\n".join(summary_lines(summary) + report_lines(report)))
        if keep:
            click.echo(f"stored {len(kept_games(records))} games in the store ({ctx.obj['db_resolved']})")
        if out_dir is not None:
            click.echo(f"wrote {len(kept_games(records))} replay files to {out_dir}")
    if flagged := len(report.flagged):
        click.echo(f"{flagged} of {planned.games} games failed their audit: a fault in nightkeep", err=True)
        ctx.exit(1)


def worker_logging(log_format: str | None, verbose: bool) -> None:
    """Sets a worker process's logging as the command's (stderr, same format and level)."""
    from cli.logging_setup import configure_logging

    configure_logging(log_format, verbose)


def check_out_dir(out: str, planned: BotGames) -> Path:
    """Returns the directory the replay files go to, refusing one that holds a file of this simulation
    already (then nothing is written)."""
    if not FILE_SEED.fullmatch(planned.seed):
        raise UsageError(
            f"--seed {planned.seed[:40]!r} names the replay files: use letters, digits, '.', '_' and '-'"
        )
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--out {out} is a file, not a directory")
    names = (folder / planned.file_name(n) for n in range(planned.games))
    there = [path for path in names if path.exists()]
    if there:
        more = f" and {len(there) - 1} more" if len(there) > 1 else ""
        raise UsageError(f"{there[0]}{more} exist: nothing written (choose another --seed or --out)")
    return folder


def make_dir(folder: Path) -> None:
    """Makes the directory the replay files go to, if missing."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the directory {folder}: {exc.strerror or exc}") from None


def keep_and_sum(
    planned: BotGames,
    played: Iterator[PlayedGame],
    service: GameService | None,
    out_dir: Path | None,
    advance: Callable[[GameRecord], None],
    records: list[GameRecord],
) -> Simulation:
    """Stores and writes each game as asked while summing them up, and adds its report record to
    `records`, in game order. A game that fails its audit is reported, never stored or written: no door
    into a store (or a file meant for one) takes what `nightkeep audit` refuses."""
    from projections.reports import record_of
    from simulation.bot_games import Simulation, replay_bytes, store_game

    summary = Simulation(planned.ruleset)
    for index, (game_id, recorded, audit, findings) in enumerate(played):
        records.append(record_of(game_id, recorded, audit, findings))
        clean = not records[-1].is_flagged
        if service is not None and clean:
            store_game(service, planned, index, recorded)
        if out_dir is not None and clean:
            write_output(str(out_dir / planned.file_name(index)), replay_bytes(game_id, recorded))
        summary.add(recorded)
        advance(records[-1])
    return summary


@contextmanager
def progress(total: int, on_terminal: bool, as_json: bool) -> Iterator[Callable[[GameRecord], None]]:
    """Tells on stderr how the games go, so a long run is never silent: a progress bar on a terminal,
    else a line per finished game (with --json, a JSON line); yields what tells one game done."""
    if as_json or not on_terminal:
        finished = itertools.count(1)

        def tell(record: GameRecord) -> None:
            number = next(finished)
            if as_json:
                said = {"game": number, "games": total, "winners": record.winners, "turns": record.turns}
                click.echo(json.dumps({**said, "ending": record.ending, "audit": record.audit}), err=True)
            else:
                click.echo(f"game {number}/{total} finished: {result_words(record)}", err=True)

        yield tell
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(file=sys.stderr), transient=True) as bar:
        task = bar.add_task("games", total=total)
        yield lambda record: bar.advance(task)


def result_words(record: GameRecord) -> str:
    """Says how one game ended: who won in how many turns, or that nobody did and why."""
    if record.winners:
        said = f"{' and '.join(record.winners)} won in {record.turns} turns"
    else:
        said = f"nobody won in {record.turns} turns" + (f" ({record.ending})" if record.ending else "")
    return said + ("; its audit failed" if record.is_flagged else "")


def kept_games(records: list[GameRecord]) -> list[int]:
    """Returns the indexes of the games kept: every game but one that failed its audit."""
    return [n for n, record in enumerate(records) if not record.is_flagged]


def kept_json(
    planned: BotGames, keep: bool, out_dir: Path | None, records: list[GameRecord]
) -> dict[str, Any]:
    """Returns what the JSON summary says about the games kept: their ids, the files written."""
    kept: dict[str, Any] = {}
    if keep:
        kept["stored"] = [str(planned.game_id(n)) for n in kept_games(records)]
    if out_dir is not None:
        kept["files"] = [str(out_dir / planned.file_name(n)) for n in kept_games(records)]
    return kept


def summary_lines(summary: Simulation) -> list[str]:
    """Returns the summary in plain lines: what the games gave, then lengths, exits and win rates."""
    facts = summary.to_json()
    lines = [f"{summary.games} {summary.ruleset} games, {summary.actions} actions, {summary.events} events"]
    lines += [f"  won by {winner or 'nobody'}: {count}" for winner, count in summary.winners.most_common()]
    lines += [f"  ended: {reason}: {count}" for reason, count in summary.endings.most_common()]
    nobody = facts["nobody_won"]
    lines.append(f"  nobody won: {nobody['games']} of {summary.games} ({nobody['share']:.1%})")
    for what, spread in facts["lengths"].items():
        lines.append(
            f"  {what} per game: min {spread['min']}, median {spread['median']}, max {spread['max']}"
        )
    lines.append("  exits: " + ", ".join(f"{how} {count}" for how, count in facts["exits"].items()))
    if facts["killed_at"]:
        places = ", ".join(f"{where} {count}" for where, count in facts["killed_at"].items())
        lines.append(f"  killed most at: {places}")
    lines.append("  seats: " + rate_words(facts["seats"]))
    lines.append("  characters: " + rate_words(facts["characters"]))
    return lines


def report_lines(report: Report) -> list[str]:
    """Returns what the report adds to the summary: the audits, and the dice tests that stand out."""
    audits = ", ".join(f"{status} {count}" for status, count in sorted(report.by_audit.items()))
    lines = [f"  audits: {audits}"]
    tested = [test for test in report.dice if test.tested]
    flagged = [test for test in tested if test.flagged]
    lines.append(
        f"  dice: {len(tested)} chi-square tests (per purpose and per player), {len(flagged)} with p < 0.01"
    )
    lines += [f"    {test.label}: p = {test.p_value or 0:.4g}" for test in flagged]
    return lines


def rate_words(rates: dict[str, dict[str, float]]) -> str:
    """Says win rates as `P1 30.0% (6 of 20)`, highest first; characters by name, not id (as the
    report names them: "martial artist")."""
    from projections.reports import character_name

    ordered = sorted(rates.items(), key=lambda item: (-item[1]["rate"], item[0]))
    return ", ".join(
        f"{character_name(name)} {r['rate']:.1%} ({r['won']:g} of {r['played']:g})" for name, r in ordered
    )
