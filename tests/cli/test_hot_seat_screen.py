"""Hot-seat play at a real 80x24 terminal: the board and the numbered choices fit one screen."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time

from event_store.app.service import GameService

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def read_until(fd: int, marker: bytes, seconds: float = 60.0) -> bytes:
    """Reads a terminal's output until `marker` has appeared (or the time is up)."""
    seen, deadline = b"", time.monotonic() + seconds
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
    return seen


def test_the_board_and_the_choices_fit_an_80_by_24_terminal(tmp_path):
    db = str(tmp_path / "g.sqlite")
    game = GameService(db).create_game("dungeon-short", [("Ann", "druid"), ("Bo", "warrior")])
    leader, follower = os.openpty()
    env = {**os.environ, "COLUMNS": "80", "LINES": "24", "NO_COLOR": "1"}
    child = subprocess.Popen(
        [sys.executable, "-m", "nightkeep", "--db", db, "play", str(game), "--bot", "Bo"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        close_fds=True,
    )
    os.close(follower)
    try:
        screen = read_until(leader, b"your choice")
        os.write(leader, b"q\n")
        read_until(leader, b"goes on")
        child.wait(timeout=30)
    finally:
        child.kill()
        os.close(leader)
    text = ANSI.sub("", screen.decode("utf-8", "replace")).replace("\r", "")
    lines = text.split("\n")
    start = max(i for i, line in enumerate(lines) if line.startswith("dungeon-short game "))
    shown = lines[start:]
    assert shown[-1].startswith("Ann, your choice"), shown
    assert len(shown) <= 24, "\n".join(shown)
    assert all(len(line) <= 80 for line in shown), "\n".join(shown)
    assert any(line.startswith("Ann ") for line in shown) and any(line.startswith("Bo ") for line in shown)
    assert "more lines on a taller terminal" not in text
