"""A report as a terminal summary: rich tables of the audit, the results, the lengths and the dice."""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from projections.report_rows import Report, Tally

WIDTH = 110


def text_of(report: Report) -> str:
    """Returns the report in plain text (no colour), tables laid out by rich."""
    out = io.StringIO()
    console = Console(file=out, width=WIDTH, color_system=None, highlight=False, emoji=False)
    audit = ", ".join(f"{count} {status}" for status, count in sorted(report.by_audit.items()))
    console.print(
        Text(f"{len(report.games)} games ({audit}); {report.counted} counted, {report.finished} finished")
    )
    if report.flagged:
        console.print(_flagged_table(report))
    for title, tallies in (
        ("by player", report.players),
        ("by character", report.characters),
        ("by seat", report.seats),
    ):
        if tallies:
            console.print(_tally_table(f"Results {title}", tallies))
    if report.finished:
        share = f"{report.nobody_won_share:.0%}"
        console.print(Text(f"Nobody won {report.nobody_won} of {report.finished} finished games ({share})"))
    if report.lengths:
        console.print(_lengths_table(report))
    if report.exits:
        exits = Table("character", "how", "where", "count", title="How characters left")
        for e in report.exits:
            exits.add_row(*_cells(e.character, e.how, e.where, str(e.count)))
        console.print(exits)
    if report.dice:
        console.print(_dice_table(report))
    for note in report.notes():
        console.print(Text(f"note: {note}"))
    return out.getvalue()


def _cells(*cells: str) -> list[Text]:
    # Text cells print as written: a player named `[bold]Ann` is not read as markup.
    return [Text(cell) for cell in cells]


def _flagged_table(report: Report) -> Table:
    table = Table(title="FLAGGED games (not counted)")
    table.add_column("source", overflow="fold")  # a long path folds: it is never cut short
    for name in ("game", "audit", "first findings"):
        table.add_column(name)
    for row in report.flagged:
        # The game's first 8 digits name it here (the page and --json give it whole).
        table.add_row(*_cells(row.source, row.game[:8], row.audit, "\n".join(row.findings)))
    return table


def _tally_table(title: str, tallies: Sequence[Tally]) -> Table:
    table = Table("name", "games", "wins", "win rate", title=title)
    for tally in tallies:
        table.add_row(*_cells(tally.name, str(tally.games), str(tally.wins), f"{tally.rate:.0%}"))
    return table


def _lengths_table(report: Report) -> Table:
    table = Table("per game", "min", "median", "mean", "max", title="Game lengths (finished games)")
    for name, spread in report.lengths.items():
        values = (spread.least, spread.median, spread.mean, spread.most)
        table.add_row(
            *_cells(name, *(f"{value:g}" if value == int(value) else f"{value:.1f}" for value in values))
        )
    return table


def _dice_table(report: Report) -> Table:
    table = Table(
        "dice", "rolls", "faces 1..n", "expected", "chi-square", "dof", "p", "p < 0.01", title="Dice fairness"
    )
    for test in report.dice:
        faces = " ".join(str(count) for count in test.observed)
        if test.tested:
            statistic, dof, p = f"{test.statistic:.2f}", str(test.dof), f"{test.p_value:.3g}"
        else:
            statistic, dof, p = "-", "-", "not tested"
        flag = "FLAGGED" if test.flagged else ""
        table.add_row(
            *_cells(test.label, str(test.rolls), faces, f"{test.expected:.1f}", statistic, dof, p, flag)
        )
    return table
