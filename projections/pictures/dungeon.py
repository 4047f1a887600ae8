"""The dungeon board picture (a placeholder: the text board set as a picture, until its drawing lands)."""

from __future__ import annotations

from typing import Any

import drawsvg

from projections.pictures import text_drawing


def draw(fold: Any, stopped: bool = False) -> drawsvg.Drawing:
    """Returns the board picture of a fold."""
    return text_drawing(fold, stopped)
