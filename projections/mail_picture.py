"""The board picture for mail: the PNG of a viewer's copy of a game, sized for a phone and small to send.

The picture is the one `show --png` draws (`projections.pictures`), rendered at twice a phone's width and
cut down to a palette of a few dozen colours: a board is drawn in flat colours, so a palette keeps it
sharp at a quarter of the bytes. Drawing and packing are deterministic, so a mail sent again carries the
same bytes.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

from domain.game import STOPPED, game_status
from event_store.recorded import RecordedEvent, fold_recorded, redacted

PICTURE_WIDTH = 720  # pixels: twice the 360 CSS pixels of a small phone, so its text stays sharp there
COLOURS = 32  # the palette: the seat colours and smooth text edges; 64 cost a fifth more bytes


def mail_picture(recorded: list[RecordedEvent], viewer: str) -> bytes:
    """Returns the PNG of the board as `viewer` (a seat, or "" for the public) may see it, at most
    PICTURE_WIDTH pixels wide."""
    from projections.pictures import draw_board
    from projections.pictures.kit import to_png

    fold = fold_recorded(redacted(recorded, viewer))  # again: a host's full log handed in leaks nothing
    svg = draw_board(fold, game_status(fold)["status"] == STOPPED)
    return fewer_colours(to_png(svg, min(1.0, PICTURE_WIDTH / _width(svg))))


def _width(svg: str) -> float:
    """Returns the width of an SVG picture's page, in its own units."""
    _, _, width, _ = ET.fromstring(svg.encode("utf-8")).attrib["viewBox"].split()
    return float(width)


def fewer_colours(png: bytes) -> bytes:
    """Returns a PNG redrawn with a palette of COLOURS colours (Pillow, installed with cairosvg)."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as picture:
        packed = picture.quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    packed.save(out, format="PNG", optimize=True)
    return out.getvalue()
