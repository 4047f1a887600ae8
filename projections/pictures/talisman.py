"""The `talisman` board picture: the main board's regions round the Crown, the Dungeon and the Vampire's
Keep under it when the game plays with them, what lies face up, and each character's sheet.

Everything is laid out from the game's content (its ruleset's boards), so a group's own board gets a
correct picture; each character is a token in its seat's mark (fill, outline dash) carrying two letters
of its player's name, which the sheets' table pairs with the name. The page is 960 units wide and as
tall as it needs, every text at least `MIN_FONT`, so it reads on a phone.
"""

from __future__ import annotations

from typing import Any, cast

import drawsvg

from domain.rulesets.talisman.main.state import MainState
from projections.pictures.kit import MAX_WIDTH, new_drawing, seat_mark
from projections.pictures.talisman_board import main_board
from projections.pictures.talisman_cells import Block, Token, short_tags
from projections.pictures.talisman_expansions import expansion_blocks
from projections.pictures.talisman_sheets import face_up_block, heading, key_block, sheets_block
from projections.pictures.talisman_ways import ways_in
from projections.talisman_expansion_view import boards_in_play, title_words
from projections.talisman_names import board_name
from projections.talisman_view import TITLE

GAP = 12


def draw(fold: Any, stopped: bool = False) -> drawsvg.Drawing:
    """Returns the board picture of a fold."""
    state = cast(MainState, fold.state)
    ctx = fold.ruleset.ctx
    boards = ctx.board.boards
    spaces = {board.id: board.spaces for board in boards} | {
        board: found for board, found in ctx.spaces.items() if board not in {b.id for b in boards}
    }

    def named(board: str, index: int) -> str:
        found = spaces.get(board, ())
        return str(found[index].name) if 0 <= index < len(found) else f"space {index}"

    tokens = _tokens(state)
    names = {board.id: board.name for board in boards} | {
        board: board_name(board) for board in boards_in_play(state)
    }
    blocks = [
        heading(state, stopped),
        main_board(state, boards, tokens, ways_in(state, ctx, boards)),
        key_block(state, names),
        *expansion_blocks(state, spaces, tokens),
        face_up_block(state, list(names), named),
        sheets_block(state, tokens, named),
    ]
    height = sum(block.height for block in blocks) + GAP * len(blocks)
    who = ", ".join(state["order"])
    page = new_drawing(MAX_WIDTH, height, TITLE + title_words(state), f"Players: {who}.")
    top = 0.0
    for block in blocks:
        page.append(_placed(block, top))
        top += block.height + GAP
    return page


def _tokens(state: MainState) -> dict[str, Token]:
    tags = short_tags(state["order"])
    players = state["players"]
    return {
        name: Token(tags[name], seat_mark(i), name, out=name in players and players[name]["status"] == "out")
        for i, name in enumerate(state["order"])
    }


def _placed(block: Block, top: float) -> drawsvg.Group:
    group = drawsvg.Group(transform=f"translate(0,{top:g})")
    for part in block.parts:
        group.append(part)
    return group
