"""Board pictures by ruleset: `draw_board(fold)` returns the SVG of a game's board as its fold shows it.

Each ruleset's picture module is named in the read side's registry (`projections.registry`); the module's
`draw(fold, stopped)` returns a drawsvg Drawing laid out from the game's own content (its ruleset
object's boards and decks), so a group's own content gets a correct picture. A fold made for a viewer
(`seen_by`) holds only what that viewer may see, so a picture of it shows no more. A ruleset with no
picture module gets its text board set in a monospace block, so every game has a picture.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import drawsvg as draw

from domain.errors import UnknownRuleset
from projections.pictures.kit import INK, MIN_FONT, escape, new_drawing
from projections.registry import shown_by

_found: dict[str, ModuleType | None] = {}


def _module(ruleset: str) -> ModuleType | None:
    if ruleset not in _found:
        try:
            name = shown_by(ruleset).picture
        except UnknownRuleset:
            name = ""
        _found[ruleset] = importlib.import_module(name) if name else None
    return _found[ruleset]


def head_line(fold: Any, stopped: bool = False) -> str:
    """Returns a picture's first line: the ruleset, the event it shows, its status and its players."""
    players = ", ".join(fold.meta.get("players") or []) or "no players yet"
    if stopped:
        status = "stopped"
    elif not fold.version or fold.ruleset.name != fold.ruleset_name:
        status = ""  # an empty fold, or a ruleset this nightkeep does not have
    else:
        from domain.game import game_status

        found = game_status(fold)
        status = found["status"] + (f", won by {found['winner']}" if found.get("winner") else "")
    return f"{fold.ruleset_name} at event {fold.version}{f' ({status})' if status else ''}: {players}"


def has_picture(ruleset: str) -> bool:
    """Says whether the ruleset draws its own picture (else its text board is set as one)."""
    return _module(ruleset) is not None


def draw_board(fold: Any, stopped: bool = False) -> str:
    """Returns the SVG text of the board of a fold (a GameFold or Game): `stopped` when it takes no more
    actions."""
    module = _module(fold.ruleset_name)
    if module is None:
        return text_picture(fold, stopped)
    return str(module.draw(fold, stopped).as_svg())


def text_picture(fold: Any, stopped: bool = False) -> str:
    """Returns the text board of a fold set in monospace as an SVG (the picture of a ruleset that draws
    none of its own)."""
    return str(text_drawing(fold, stopped).as_svg())


def text_drawing(fold: Any, stopped: bool = False) -> draw.Drawing:
    """Returns the drawing `text_picture` writes."""
    from projections.views import render_board

    lines = [head_line(fold, stopped), ""]
    lines += render_board(fold.ruleset_name, fold.state, stopped, width=72).splitlines()
    size, step = MIN_FONT, MIN_FONT * 1.25
    width = min(max(len(line) for line in lines) * size * 0.6 + 2 * size, 960)
    page = new_drawing(width, step * (len(lines) + 1) + size, f"{fold.ruleset_name} board")
    body = "".join(
        f'<tspan x="{size}" y="{step * (n + 1):g}">{escape(line) or " "}</tspan>'
        for n, line in enumerate(lines)
    )
    page.append(
        draw.Raw(
            f'<text font-family="DejaVu Sans Mono, monospace" font-size="{size}" fill="{INK}" '
            f'xml:space="preserve">{body}</text>'
        )
    )
    return page
