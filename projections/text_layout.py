"""Plain-text layout for board views: tables through rich, wrapping, and picking the layout that fits."""

from __future__ import annotations

import io
import re
import textwrap
from collections.abc import Callable, Sequence

# The width every board view's full layout fits in; narrower, a view picks a compact layout.
WIDE = 110
# The narrowest width the compact layouts are made for (an ordinary terminal).
NARROW = 80

Layout = Callable[[int], list[str]]


def wrap(text: str, width: int, indent: str = "    ") -> list[str]:
    """Wraps a paragraph to `width`, indenting the lines after the first."""
    return textwrap.wrap(text, width, subsequent_indent=indent) or [""]


def table_lines(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int,
    right: int = 0,
    wrapping: Sequence[str] = (),
) -> list[str]:
    """Renders rows under headers as plain text columns no wider than `width` (the last `right` columns
    right-aligned; only the columns named in `wrapping` may wrap, the others stay whole)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), safe_box=True)
    first_right = len(headers) - right
    for index, header in enumerate(headers):
        table.add_column(
            header,
            justify="right" if index >= first_right else "left",
            no_wrap=header not in wrapping,
            overflow="fold",
        )
    for row in rows:
        table.add_row(*row)
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, highlight=False, emoji=False)
    console.print(table, markup=False)
    # An ASCII rule under the header keeps the board plain text wherever it is printed or mailed.
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    return [line.replace("─", "-").replace("┼", "+") for line in lines]


def fit(layouts: Sequence[Layout], width: int | None, height: int | None = None) -> str:
    """Returns the first layout whose lines fit `width` (and `height`); failing that the last one, cut to
    the budget with a closing line that says how much more there is. With no width, the first (full)
    layout as it is, for text that is not shown on a terminal (mail, golden files)."""
    if width is None:
        return "\n".join(layouts[0](WIDE))
    lines: list[str] = []
    for layout in layouts:
        lines = layout(width)
        if max(map(len, lines), default=0) <= width and (height is None or len(lines) <= height):
            return "\n".join(lines)
    lines = [line[:width] for line in lines]
    if height is not None and len(lines) > height:
        cut = len(lines) - height + 1
        lines = [*lines[: height - 1], cut_note(cut)[:width]]
    return "\n".join(lines)


def cut_note(cut: int) -> str:
    """Returns the closing line of a layout cut to a height: how many more lines there are."""
    return f"… {cut} more line{'s' if cut > 1 else ''} on a taller terminal"


def lines_cut(line: str) -> int:
    """Returns how many lines a `cut_note` line says were cut (0 for any other line)."""
    found = re.fullmatch(r"… (\d+) more lines? on a taller terminal", line)
    return int(found.group(1)) if found else 0
