"""`nightkeep tournament report`: a tournament's replay files audited and summed up in one report."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from cli.common import echo_json, handle_errors, json_option
from cli.lazy_group import SuggestingGroup
from domain.errors import NightkeepError, UsageError
from event_store.log_reader import parse_replay, read_file, recorded_of
from event_store.pbem.audit_files import MAX_JOBS, AuditResult, audit_files
from projections.report_records import audit_status, flagged_record, unreadable_record
from projections.report_rows import AUDIT_FINDINGS, GameRecord
from projections.reports import record_of


@click.group(cls=SuggestingGroup)
def tournament() -> None:
    """Reports on a tournament's replay files: results, every game's audit and dice fairness.

    \b
    Example:
        nightkeep tournament report games/*.nkr --html report.html
    """


@tournament.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE…", type=click.Path(dir_okay=False))
@click.option(
    "--html", "html_out", metavar="OUT", help="Also write the report as one HTML page (- for stdout)."
)
@click.option(
    "--jobs",
    type=click.IntRange(1, MAX_JOBS),
    default=None,
    metavar="N",
    help=f"Worker processes auditing the files, 1-{MAX_JOBS} (default: one per core for many files).",
)
@click.option("--force", is_flag=True, help="Overwrite the --html file if it exists.")
@json_option
@click.pass_context
@handle_errors
def report(
    ctx: click.Context,
    files: tuple[str, ...],
    html_out: str | None,
    jobs: int | None,
    force: bool,
    as_json: bool,
) -> None:
    """Audits replay files and reports on them: results by player, character and seat, game lengths,
    how characters left, and dice fairness (a chi-square test per die purpose and per player).

    Every file is audited as `nightkeep audit` would. A game that does not audit clean, or a file that
    cannot be read, is flagged and listed with its first findings, and is not counted in the results or
    the dice; further copies of one game (a player's, the public's) are counted once. Dice of a game
    whose seed is not revealed yet cannot be verified: they are left out of the fairness tests, and
    the report says how many. Exit 0 when every game audits clean, 1 when any is flagged (the --html
    page is written either way), 2 when a file is missing.

    \b
    Example:
        nightkeep tournament report replays/*.nkr
        nightkeep tournament report games/*.nkr --html report.html --json
    """
    if as_json and html_out == "-":
        raise UsageError("--json and --html - would both print on stdout: give --html a file")
    if html_out == "":  # else taken for no --html at all, and no page written without a word
        raise UsageError("--html needs a file name (or - for stdout)")
    paths = list(dict.fromkeys(files))
    for path in paths:
        if not Path(path).is_file():
            raise UsageError(f"no replay file {path}")
    if html_out and html_out != "-" and Path(html_out).exists() and not force:
        raise UsageError(f"{html_out} exists: nothing written (--force overwrites it)")
    records = audited_records(paths, jobs)

    from cli.output_files import write_output
    from projections.reports import build_report, render_html, render_text

    summary = build_report(records)
    if html_out:
        write_output(html_out, render_html(summary).encode("utf-8"), force)
    if as_json:
        echo_json(summary.to_json())
    elif html_out != "-":
        click.echo(render_text(summary), nl=False)
    if flagged := len(summary.flagged):
        click.echo(
            f"{flagged} of {len(summary.games)} games flagged (not counted): the report lists their findings",
            err=as_json or html_out == "-",
        )
        ctx.exit(1)


def audited_records(paths: list[str], jobs: int | None) -> list[GameRecord]:
    """Audits the files (in worker processes when there are many), a progress bar on a terminal's
    stderr, and returns a record of each, in order."""
    from rich.console import Console
    from rich.progress import Progress

    shown = sys.stderr.isatty()
    records = []
    with Progress(console=Console(stderr=True), transient=True, disable=not shown) as progress:
        task = progress.add_task("auditing", total=len(paths))
        for result in audit_files(paths, jobs):
            records.append(record_of_result(result))
            progress.advance(task)
    return records


def record_of_result(result: AuditResult) -> GameRecord:
    """Returns the record of one audited file: flagged when its audit found faults or it is unreadable,
    else read from its events (decoded again here: a worker sends back only the audit's report)."""
    path, audit, unreadable = result
    if audit is None:
        return unreadable_record(path, unreadable)
    status, findings = audit_status(audit)
    if status == AUDIT_FINDINGS:
        return flagged_record(path, audit)
    try:
        header, entries = parse_replay(read_file(path), path)
        recorded = recorded_of(entries)
    except NightkeepError as exc:
        return unreadable_record(path, f"changed after its audit: {exc}")
    if len(recorded) != audit.events or str(header["game"]) != audit.game:
        return unreadable_record(path, "changed after its audit: read again, it is another log")
    return record_of(path, recorded, status, findings, game=audit.game)
