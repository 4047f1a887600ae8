"""Draws the README's board pictures: one per ruleset, from a committed replay file at a chosen event.

Run it with nightkeep installed (`pip install -e .`) after a picture changes, and commit what it writes:

    python docs/pictures/draw.py

Each picture is the public view (what every player may see) of a game in replays/, so the same
nightkeep draws the same bytes; tests/pictures/test_readme_pictures.py checks that the committed files are
what this script draws now.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from domain.game import STOPPED
from event_store.app.replay_file import read_replay
from event_store.app.seats import seen_by
from event_store.log_reader import read_file
from event_store.recorded import fold_recorded
from projections.pictures import draw_board

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


class Picture(NamedTuple):
    """One README picture: the file it is written to, the replay it is drawn from and at which event."""

    name: str  # docs/pictures/<name>.svg
    replay: str  # a file in replays/
    event: int
    alt: str  # the README's alt text


PICTURES = (
    Picture(
        "dungeon-short", "dungeon-short-3p-001.nkr", 100, "The Dungeon board mid-game, three adventurers"
    ),
    Picture("keep-run", "keep-run-3p-001.nkr", 90, "Vampire's Keep mid-game, three adventurers"),
    Picture(
        "talisman",
        "talisman-dungeon-keep-3p-001.nkr",
        2000,
        "The Talisman main board with the Dungeon and the Keep, three characters",
    ),
    Picture(
        "vampire-empire",
        "vampire-empire-001-public.nkr",
        200,
        "A Vampire Empire castle, as the public sees it",
    ),
)


def draw_picture(picture: Picture) -> bytes:
    """Returns the SVG bytes of one picture: the public view of its replay after its event."""
    path = ROOT / "replays" / picture.replay
    replay = read_replay(read_file(path), path.name)
    fold = fold_recorded(seen_by(replay.events[: picture.event], None))
    stopped = fold.ruleset.status(fold.state)["status"] == STOPPED
    return draw_board(fold, stopped).encode("utf-8")


def draw_pictures(folder: Path = HERE) -> list[Path]:
    """Writes every README picture into `folder`; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for picture in PICTURES:
        target = folder / f"{picture.name}.svg"
        target.write_bytes(draw_picture(picture))
        written.append(target)
    return written


if __name__ == "__main__":
    for written in draw_pictures():
        print(f"wrote {written.relative_to(ROOT)} ({written.stat().st_size} bytes)")
