"""The choice screen laid out by priority: the decision whole, then what happened, then the board."""

from __future__ import annotations

import re

from cli.decision_screen import Decision, Story, compose
from projections.text_layout import cut_note

COLUMNS = ["#", "id", "action"]
PROMPT_LINE = 1


def options(count: int) -> list[list[str]]:
    return [[str(n), f"go:{n}", f"Go to space {n}"] for n in range(1, count + 1)]


def board(lines: int):
    """A board of `lines` numbered lines that, given a height, is cut to it as the views cut theirs."""

    def drawn(height: int | None) -> list[str]:
        whole = [f"board line {n}" for n in range(1, lines + 1)]
        if height is None or lines <= height:
            return whole
        return [*whole[: height - 1], cut_note(lines - height + 1)]

    return drawn


STORY = Story("Since your last choice, Ann", [[f"  {n}  event {n}"] for n in range(1, 11)])
CONTEXT = ["Fight: attack 4, defence 0.", "Your hand: Censer (clergy 2)."]


def test_the_decision_stays_whole_and_the_board_is_cut_first():
    screen = compose(["header"], Decision(CONTEXT, COLUMNS, options(3)), STORY, board(30), (80, 24))
    lines = screen.lines
    assert len(lines) + PROMPT_LINE <= 24 and screen.pages == 1
    assert lines[0] == "header" and lines[-7:-5] == CONTEXT  # then the table's header, rule, three rows
    assert [line.split()[1] for line in lines[-3:]] == ["go:1", "go:2", "go:3"]
    assert "  10  event 10" in lines  # the latest event stays
    assert any(re.fullmatch(r"… \d+ more lines? of the board \(board shows it all\)", line) for line in lines)


def test_a_long_list_pages_and_every_option_is_on_some_page():
    decision = Decision(CONTEXT, COLUMNS, options(30))
    first = compose(["header"], decision, STORY, board(30), (80, 16))
    assert first.pages > 1
    seen = []
    for page in range(first.pages):
        lines = compose(["header"], decision, STORY, board(30), (80, 16), page).lines
        assert len(lines) + PROMPT_LINE <= 16 and lines[-1].startswith("Choices ")
        assert f"page {page + 1} of {first.pages}" in lines[-1] and all(line in lines for line in CONTEXT)
        seen += [line.split()[1] for line in lines if re.match(r"\d+ +go:", line)]
    assert seen == [f"go:{n}" for n in range(1, 31)]
    # What happened keeps some room beside a list that pages anyway.
    assert "  10  event 10" in first.lines


def test_what_happened_gives_way_after_the_board_and_says_how_much_is_left_out():
    lines = compose(["header"], Decision(CONTEXT, COLUMNS, options(3)), STORY, board(30), (80, 14)).lines
    titles = [line for line in lines if line.startswith("Since your last choice")]
    assert titles and re.search(r"the last \d+ of 10 events; log shows them all", titles[0])
    assert "(The board needs more room: board shows it.)" in lines


def test_piped_output_shows_every_part_whole():
    screen = compose(["header"], Decision(CONTEXT, COLUMNS, options(30)), STORY, board(30), (80, None))
    assert screen.pages == 1 and len(screen.lines) == 1 + 30 + 11 + 2 + 2 + 30


def test_a_tiny_terminal_cuts_the_context_saying_so_and_keeps_an_option_and_how_to_page():
    context = [f"context line {n}" for n in range(1, 9)]
    lines = compose(["header"], Decision(context, COLUMNS, options(3)), STORY, board(30), (80, 8)).lines
    assert len(lines) + PROMPT_LINE <= 8
    assert any("of this choice on a taller terminal" in line for line in lines)
    assert any(re.match(r"1 +go:1 ", line) for line in lines) and lines[-1].startswith("Choices 1-")
