"""Lines for a plain-text mail read on a phone: sentences wrapped at spaces to a width, names kept whole."""

from __future__ import annotations

import textwrap

WIDTH = 60  # what a phone shows of a plain-text mail without wrapping it again
INDENT = "  "
# textwrap breaks lines only at ASCII white space, so a no-break space keeps a name on one line.
KEEP_TOGETHER = "\xa0"


def wrap_words(text: str, width: int = WIDTH, first: str = "", rest: str = INDENT) -> list[str]:
    """Wraps a sentence at spaces to `width` (`first` before its first line, `rest` before the others),
    cutting only a word wider than a whole line."""
    lines = textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False)
    return [line.replace(KEEP_TOGETHER, " ") for line in lines] or [first.rstrip()]


def whole(name: str) -> str:
    """Returns a name (or `2 trophies`) that `wrap_words` keeps on one line wherever it fits."""
    return name.replace(" ", KEEP_TOGETHER)


def listed(head: str, items: list[str], width: int = WIDTH, first: str = "") -> list[str]:
    """Returns `head: a, b, c.` wrapped to `width`, each item whole on one line where it fits."""
    return wrap_words(f"{head}: {', '.join(map(whole, items))}.", width, first)
