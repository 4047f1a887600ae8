"""The screen a player decides on in `nightkeep play`: the decision whole, then what happened, then the board.

Given a height (a terminal), the screen is laid out by priority. The decision always shows whole: what is
decided and the numbers it turns on (the view's `decision_lines`), a page of the options and the prompt;
a list of options too long for the room left pages. What happened since the player's last choice comes
next, its latest events first to stay; the board takes whatever room is left, so it is cut first. Each
part that gives way says how to see the rest. With no height (piped output) every part shows whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from projections.text_layout import lines_cut, table_lines, wrap

# What the player types (or, at a terminal, presses) to turn the pages of the options.
NEXT_PAGE = "]"
PREVIOUS_PAGE = "["
# The words that show in full what the screen cut.
SHOW_BOARD = "board"
SHOW_LOG = "log"

# The fewest lines worth showing of a board: fewer, a line says how to see it.
SMALLEST_BOARD = 4
# The lines of what happened that a list of options which pages anyway leaves room for.
STORY_SPARED = 6
# A table's header and its rule take two lines above its rows; the options' ids are its second column.
ID_COLUMN = 1
TABLE_HEAD = 2

Board = Callable[[int | None], list[str]]


@dataclass(frozen=True)
class Decision:
    """What a player decides: the lines saying what and on what numbers, and the options as table rows."""

    context: list[str]
    columns: list[str]
    rows: list[list[str]]
    message: str = ""


@dataclass(frozen=True)
class Story:
    """What happened since the player's last choice: a title and each event's wrapped lines."""

    title: str
    events: list[list[str]]


@dataclass(frozen=True)
class Screen:
    """A laid-out screen: its lines above the prompt and how many pages the options take."""

    lines: list[str]
    pages: int


def _table(decision: Decision, start: int, count: int, width: int) -> list[str]:
    """The options from `start`, `count` of them, as a table whose last column (the label) may wrap;
    too narrow for the ids beside the labels, without the ids (a number or an id may still be typed)."""
    rows = decision.rows[start : start + count]
    label = decision.columns[-1]
    lines = table_lines(decision.columns, rows, width, wrapping=[label])
    if lines and lines[0].rstrip().endswith(label) and max(map(len, lines)) <= width:
        return lines
    columns = [c for index, c in enumerate(decision.columns) if index != ID_COLUMN]
    rows = [[cell for index, cell in enumerate(row) if index != ID_COLUMN] for row in rows]
    return table_lines(columns, rows, width, wrapping=[label])


@dataclass(frozen=True)
class Page:
    """A page of the options: the first option's index, how many, and their table's lines."""

    start: int
    count: int
    lines: list[str]


def _option_pages(decision: Decision, width: int, room: int | None) -> list[Page]:
    """Cuts the options into pages whose tables fit `room` lines (one page with no room given)."""
    total = len(decision.rows)
    whole = _table(decision, 0, total, width)
    if room is None or len(whole) <= room:
        return [Page(0, total, whole)]
    pages: list[Page] = []
    start, size = 0, max(room - TABLE_HEAD, 1)
    while start < total:
        count = min(size, total - start)
        table = _table(decision, start, count, width)
        while len(table) > room and count > 1:  # a label wrapped onto more lines: fewer rows this page
            count -= 1
            table = _table(decision, start, count, width)
        pages.append(Page(start, count, table))
        start += count
    return pages


def _page_hint(decision: Decision, pages: list[Page], page: int, width: int) -> list[str]:
    if len(pages) == 1:
        return []
    first, last = pages[page].start + 1, pages[page].start + pages[page].count
    hint = (
        f"Choices {first}-{last} of {len(decision.rows)}, page {page + 1} of {len(pages)}: "
        f"PgDn/{NEXT_PAGE} next, PgUp/{PREVIOUS_PAGE} back"
    )
    return [hint[:width]]


def _decision_lines(
    decision: Decision, width: int, room: int | None, page: int, spared: int = 0
) -> tuple[list[str], int]:
    """Lays out the decision in at most `room` lines (all of it with no room): its context (cut, saying
    so, on a terminal too small for it and a page of the options), a page of the options, a message.
    Options that page anyway leave `spared` lines, if they can, for what happened."""
    message = wrap(decision.message, width) if decision.message else []
    context = decision.context
    if room is None:
        return [*context, *_option_pages(decision, width, None)[0].lines, *message], 1
    fixed = len(message)
    smallest = TABLE_HEAD + 1 + (1 if len(decision.rows) > 1 else 0)  # a row, and a hint if it pages
    spare = room - fixed - smallest
    if len(context) > spare:  # a very small terminal: the context gives way, and says so
        kept = max(spare - 1, 0)
        hidden = len(context) - kept
        more = f"{hidden} more line{'s' if hidden > 1 else ''}"
        note = f"… {more} of this choice on a taller terminal ({SHOW_BOARD} shows all)"
        context = [*context[:kept], note[:width]] if spare > 0 else []
    left = room - fixed - len(context)
    whole = _option_pages(decision, width, left)
    if len(whole) > 1:  # paging: a hint line, and a few lines fewer a page buy the story its room
        left = max(left - 1 - spared, min(left - 1, TABLE_HEAD + 3))
    pages = whole if len(whole) == 1 else _option_pages(decision, width, left)
    page = min(max(page, 0), len(pages) - 1)
    lines = [*context, *pages[page].lines, *_page_hint(decision, pages, page, width), *message]
    return lines, len(pages)


def _story_lines(story: Story, room: int | None, width: int) -> list[str]:
    """Lays out what happened in at most `room` lines: its latest events whole, under a title that says
    how many there were and how to see them all when some were left out."""
    if not story.events:
        return []
    if room is None:
        return [f"{story.title}:", *(line for told in story.events for line in told)]
    if room < 1:
        return []
    kept: list[list[str]] = []
    used = 1
    for told in reversed(story.events):
        if used + len(told) > room:
            break
        kept.insert(0, told)
        used += len(told)
    total = len(story.events)
    title = f"{story.title}:"
    if len(kept) < total:
        title = f"{story.title} (the last {len(kept)} of {total} events; {SHOW_LOG} shows them all):"
    return [*wrap(title, width)[:1], *(line for told in kept for line in told)]


def _board_lines(board: Board, room: int, width: int) -> list[str]:
    """The board in at most `room` lines; when cut, its last line says how to see it whole."""
    if room < SMALLEST_BOARD:
        return [f"(The board needs more room: {SHOW_BOARD} shows it.)"[:width]] if room > 0 else []
    lines = board(room)
    cut = lines_cut(lines[-1]) if lines else 0
    if cut:
        more = f"{cut} more line{'s' if cut > 1 else ''}"
        lines[-1] = f"… {more} of the board ({SHOW_BOARD} shows it all)"[:width]
    return lines


def compose(
    header: list[str],
    decision: Decision | None,
    story: Story,
    board: Board,
    size: tuple[int, int | None],
    page: int = 0,
) -> Screen:
    """Lays out one screen above the prompt line in `size` (columns, lines; all of it with no lines): the
    header and the decision whole, then the latest of what happened, then the board in what room is
    left. Top to bottom: the header, the board, what happened, the decision."""
    width, height = size
    room = None if height is None else max(height - 1 - len(header), 0)  # the prompt has its own line
    spared = min(STORY_SPARED, 1 + sum(map(len, story.events))) if story.events else 0
    chosen, pages = _decision_lines(decision, width, room, page, spared) if decision else ([], 1)
    if room is None:
        return Screen([*header, *board(None), *_story_lines(story, None, width), *chosen], pages)
    left = room - len(chosen)
    # The story is bounded: it takes at most half of what is left (or a few lines), and leaves the
    # board a line at least, to say it is there; a board that would be too small to read leaves its
    # room to the story but for that line.
    told = _story_lines(story, max(left // 2, min(left - 1, STORY_SPARED)), width)
    if left - len(told) < SMALLEST_BOARD:
        told = _story_lines(story, left - 1, width)
    return Screen([*header, *_board_lines(board, left - len(told), width), *told, *chosen], pages)


def help_lines(width: int) -> list[str]:
    """Returns what may be typed at the choice prompt, wrapped to `width`."""
    keys = [
        "At the choice prompt type, then press Enter:",
        "  a number from the list, an action id or the start of one: take that action",
        f"  {NEXT_PAGE} or PgDn, {PREVIOUS_PAGE} or PgUp: the next or previous page of choices",
        f"  {SHOW_LOG}: all that happened since your last choice",
        f"  {SHOW_BOARD}: the whole board",
        "  ?: this help",
        "  q or Ctrl-D: stop (every action so far is stored)",
        "The choice, and what it turns on, always shows whole; on a small terminal what",
        "happened and the board give way, the board first.",
    ]
    return [line for text in keys for line in wrap(text, width, "    ")]
