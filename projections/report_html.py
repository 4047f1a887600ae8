"""A report as one self-contained HTML page: inline CSS, tables, and for each dice test an inline SVG
bar plot (drawsvg) of the faces seen against a fair die's, labelled in text and readable on a phone.

Nothing on the page is fetched: no script, no stylesheet or picture from elsewhere, no font but the
reader's own. Every name comes from the files and is escaped where it is written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape

import drawsvg as draw

from projections.pictures.kit import FONT, INK, MIN_FONT, PAPER, label
from projections.report_dice import DiceTest
from projections.report_rows import GameRow, Report, Spread, Tally

PLOT_WIDTH = 480
PLOT_HEIGHT = 350
BAR_FILL = "#0072B2"
NUMBERS = frozenset(range(1, 5))  # a tally's or a length's columns after its name
STYLE = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 1rem; color: #1b1b1b;
       background: #fbf8f1; max-width: 60rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #999; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
td.n { text-align: right; }
caption { font-weight: bold; text-align: left; padding: 0.2rem 0; }
.scroll { overflow-x: auto; }
.warning { border: 3px solid #D55E00; background: #fff0e0; padding: 0.5rem 1rem; }
.warning h2::before { content: "\\26A0  "; }
.plots { display: flex; flex-wrap: wrap; gap: 1rem; }
figure { margin: 0; width: 100%; max-width: 480px; }
figure svg { width: 100%; height: auto; }
.flag { font-weight: bold; color: #A33A00; }
"""


def html_of(report: Report, title: str = "Tournament report") -> str:
    """Returns the report as a whole HTML page."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{_summary(report)}</p>",
        _flagged_section(report.flagged),
        _results_section(report),
        _dice_section(report),
        _games_section(report.games),
        "</body></html>",
    ]
    return "\n".join(part for part in parts if part) + "\n"


def _summary(report: Report) -> str:
    audit = ", ".join(f"{count} {status}" for status, count in sorted(report.by_audit.items()))
    return escape(
        f"{len(report.games)} games ({audit}); {report.counted} counted, {report.finished} finished; "
        f"nobody won {report.nobody_won} ({report.nobody_won_share:.0%} of finished games)."
    )


def _table(
    caption: str, head: Sequence[str], rows: Iterable[Sequence[str]], numeric: frozenset[int] = NUMBERS
) -> str:
    """Returns a table; the columns numbered in `numeric` (numbers) are right-aligned."""
    header = "".join(f'<th scope="col">{escape(h)}</th>' for h in head)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{escape(cell)}</td>' if i in numeric else f"<td>{escape(cell)}</td>"
            for i, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return (
        f'<div class="scroll"><table><caption>{escape(caption)}</caption>'
        f"<thead><tr>{header}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def _flagged_section(flagged: list[GameRow]) -> str:
    if not flagged:
        return ""
    items = "".join(
        f"<li><strong>{escape(row.source)}</strong> ({escape(row.audit)})"
        f"{' game ' + escape(row.game) if row.game else ''}<ul>"
        + "".join(f"<li>{escape(finding)}</li>" for finding in row.findings)
        + "</ul></li>"
        for row in flagged
    )
    count = len(flagged)
    return (
        '<section class="warning" role="alert" id="flagged">'
        f"<h2>{count} flagged game{'s' if count != 1 else ''}</h2>"
        "<p>These games did not audit clean or could not be read. They are not counted in the results, "
        f"the lengths or the dice below.</p><ul>{items}</ul></section>"
    )


def _tally_rows(tallies: list[Tally]) -> list[list[str]]:
    return [[t.name, str(t.games), str(t.wins), f"{t.rate:.0%}"] for t in tallies]


def _number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


def _spread_rows(lengths: dict[str, Spread]) -> list[list[str]]:
    return [[name, *(_number(v) for v in (s.least, s.median, s.mean, s.most))] for name, s in lengths.items()]


def _results_section(report: Report) -> str:
    head = ("name", "games", "wins", "win rate")
    parts = ["<section><h2>Results</h2>"]
    for caption, tallies in (
        ("By player", report.players),
        ("By character", report.characters),
        ("By seat", report.seats),
    ):
        if tallies:
            parts.append(_table(caption, head, _tally_rows(tallies)))
    if report.lengths:
        parts.append(
            _table(
                "Game lengths (finished games)",
                ("per game", "min", "median", "mean", "max"),
                _spread_rows(report.lengths),
            )
        )
    if report.exits:
        rows = [[e.character, e.how, e.where, str(e.count)] for e in report.exits]
        parts.append(
            _table("How characters left", ("character", "how", "where", "count"), rows, frozenset({3}))
        )
    parts.append("</section>")
    return "".join(parts)


def _dice_rows(tests: list[DiceTest]) -> list[list[str]]:
    rows = []
    for t in tests:
        tested = t.tested and t.statistic is not None and t.p_value is not None
        rows.append(
            [
                t.label,
                str(t.rolls),
                " ".join(str(count) for count in t.observed),
                f"{t.expected:.1f}",
                f"{t.statistic:.2f}" if tested and t.statistic is not None else "-",
                str(t.dof) if tested else "-",
                f"{t.p_value:.3g}" if tested and t.p_value is not None else "not tested",
                "FLAGGED" if t.flagged else "",
            ]
        )
    return rows


def _dice_section(report: Report) -> str:
    notes = "".join(f"<li>{escape(note)}</li>" for note in report.notes())
    parts = ["<section><h2>Dice fairness</h2>", f"<ul>{notes}</ul>" if notes else ""]
    if not report.dice:
        parts.append("<p>No dice to test.</p></section>")
        return "".join(parts)
    head = ("dice", "rolls", "faces 1..n", "expected", "chi-square", "dof", "p", "")
    parts.append(_table("Chi-square tests against a fair die", head, _dice_rows(report.dice)))
    parts.append('<div class="plots">')
    parts.extend(_figure(test) for test in report.dice)
    parts.append("</div></section>")
    return "".join(parts)


def _figure(test: DiceTest) -> str:
    flag = ' <span class="flag">FLAGGED</span>' if test.flagged else ""
    p = f"p = {test.p_value:.3g}" if test.p_value is not None else "not tested"
    return (
        f"<figure>{faces_plot(test)}<figcaption>{escape(test.label)}: {test.rolls} rolls, "
        f"{escape(p)}{flag}</figcaption></figure>"
    )


# An SVG's namespace declarations name URLs (never fetched); inline SVG in HTML needs none.
_NAMESPACES = re.compile(r'\s+xmlns(:\w+)?="[^"]*"')


def faces_plot(test: DiceTest) -> str:
    """Returns an inline SVG bar plot of a test's faces seen, with a fair die's count as a dashed line."""
    page = draw.Drawing(PLOT_WIDTH, PLOT_HEIGHT, font_family=FONT, role="img")
    p = f"p = {test.p_value:.3g}" if test.p_value is not None else "not tested"
    page.append_title(f"{test.label}: faces seen against a fair die's ({test.rolls} rolls, {p})")
    page.append(draw.Rectangle(0, 0, PLOT_WIDTH, PLOT_HEIGHT, fill=PAPER))
    # Title, then the legend, then the bars (their counts above them), then the faces.
    left, right, top, bottom = 20, PLOT_WIDTH - 20, 110, PLOT_HEIGHT - 40
    page.append(label(_short(test.label, 34), PLOT_WIDTH / 2, 28, MIN_FONT + 2, font_weight="bold"))
    most = max([*test.observed, test.expected, 1])
    scale = (bottom - top) / most
    slot = (right - left) / test.sides
    counts = []  # drawn last, over the fair line, their paper halo keeping them readable where it crosses
    for face, count in enumerate(test.observed, start=1):
        x = left + (face - 1) * slot
        height = count * scale
        page.append(draw.Rectangle(x + slot * 0.15, bottom - height, slot * 0.7, height, fill=BAR_FILL))
        counts.append(
            label(
                str(count),
                x + slot / 2,
                bottom - height - 8,
                font_size_of(test.sides),
                stroke=PAPER,
                stroke_width=5,
                paint_order="stroke",
            )
        )
        page.append(label(str(face), x + slot / 2, bottom + 26, font_size_of(test.sides)))
    expected_y = bottom - test.expected * scale
    page.append(
        draw.Line(left, expected_y, right, expected_y, stroke=INK, stroke_width=3, stroke_dasharray="10,6")
    )
    for count_label in counts:
        page.append(count_label)
    page.append(draw.Line(left + 60, 64, left + 120, 64, stroke=INK, stroke_width=3, stroke_dasharray="10,6"))
    page.append(label(f"a fair die: {test.expected:.1f} each", left + 130, 71, MIN_FONT, text_anchor="start"))
    page.append(draw.Line(left, bottom, right, bottom, stroke=INK, stroke_width=2))
    return _NAMESPACES.sub("", page.as_svg(header=""))


def font_size_of(sides: int) -> float:
    """Returns the size of the face labels: the smallest readable size for many faces."""
    return MIN_FONT if sides > 8 else MIN_FONT + 2


def _short(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _games_section(rows: list[GameRow]) -> str:
    table = _table(
        "The audit status of every game",
        ("source", "game", "ruleset", "audit", "counted", "winner", "events", "note"),
        (
            [
                row.source,
                row.game,
                row.ruleset,
                row.audit,
                "yes" if row.counted else "no",
                ", ".join(row.winners) or "-",
                str(row.events),
                row.note,
            ]
            for row in rows
        ),
        numeric=frozenset({6}),
    )
    return f"<section><h2>Every game</h2>{table}</section>"
