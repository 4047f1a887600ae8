"""Hot-seat play at a real terminal: what a choice needs is always on one screen (80x24 and others).

Each test drives `nightkeep play` in a pseudo-terminal of a given size, as a player would, and reads the
screen each choice is asked on: from its header line down to the prompt.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.bots import Bot
from event_store.app.service import GameService
from simulation.bot_games import bot_game_options
from tests.fresh_games import seeded_seeds

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")
PAGE_DOWN, PAGE_UP = b"\x1b[6~", b"\x1b[5~"  # the keys a terminal sends for PgDn and PgUp


class Terminal:
    """`nightkeep play` running in a pseudo-terminal of `columns` x `lines`."""

    def __init__(self, db: str, game: UUID, columns: int, lines: int, *args: str) -> None:
        self.lines = lines
        self.leader, follower = os.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        env = {**os.environ, "COLUMNS": str(columns), "LINES": str(lines), "NO_COLOR": "1"}
        command = [sys.executable, "-m", "nightkeep", "--db", db, "play", str(game), *args]
        self.child = subprocess.Popen(
            command, stdin=follower, stdout=follower, stderr=follower, env=env, close_fds=True
        )
        os.close(follower)

    def read_until(self, marker: str, after: str = "", seconds: float = 60.0) -> str:
        """Returns the output, as plain text, up to the first `marker` that follows a line starting
        with `after` (or the time is up)."""
        seen, deadline = "", time.monotonic() + seconds
        pattern = re.compile(rf"(^|\n){re.escape(after)}.*{re.escape(marker)}", re.S)
        while not pattern.search(seen) and time.monotonic() < deadline:
            ready, _, _ = select.select([self.leader], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(self.leader, 65536).decode("utf-8", "replace")
                except OSError:  # the child closed the terminal
                    break
        return ANSI.sub("", seen).replace("\r", "")

    def screen(self, header: str, prompt: str = "your choice") -> list[str]:
        """Reads the next screen; returns it from its header line to its prompt."""
        text = self.read_until(prompt, after=header)
        lines = text.split("\n")
        starts = [i for i, line in enumerate(lines) if line.startswith(header)]
        assert starts, text
        return lines[starts[-1] :]

    def send(self, keys: bytes) -> None:
        os.write(self.leader, keys)

    def close(self) -> None:
        self.send(b"q\n")
        self.read_until("goes on", seconds=10)
        self.child.kill()
        self.child.wait(timeout=30)
        os.close(self.leader)


def fits(screen: list[str], columns: int, lines: int) -> None:
    assert len(screen) <= lines, "\n".join(screen)
    assert all(len(line) <= columns for line in screen), "\n".join(screen)
    assert "your choice" in screen[-1], "\n".join(screen)


def play_until(service: GameService, game: UUID, wanted: Callable[[dict[str, Any]], bool]) -> None:
    """Lets seeded bots act until the game's state is `wanted` (the first seeded game reaches it)."""
    bot = Bot("screen")
    for _ in range(3000):
        state = service.get_game(game).state
        if wanted(state):
            return
        service.take_bot_action(game, bot)
    raise AssertionError("the seeded game never reached the situation")


def castle_defence(db: str) -> tuple[UUID, dict[str, Any]]:
    """A Vampire Empire game where Hana, the human player, must play defence cards in a fight."""
    with seeded_seeds():
        service = GameService(db)
        game = service.create_game("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")])

    def defending(state: dict[str, Any]) -> bool:
        fight = state["fight"]
        return fight is not None and fight["stage"] == "defence" and fight["defending"] == "Hana"

    play_until(service, game, defending)
    return game, service.get_game(game).state


def talisman_teleport(db: str) -> tuple[UUID, list[str]]:
    """A talisman game where Bo must choose where to teleport to: returns it and the choice's action ids."""
    with seeded_seeds():
        service = GameService(db)
        game = service.create_game("talisman", [("Ann", None), ("Bo", None)], bot_game_options("talisman"))

    def teleporting(state: dict[str, Any]) -> bool:
        choice = state["choice"]
        return choice is not None and choice["kind"] == "teleport" and choice["player"] == "Bo"

    play_until(service, game, teleporting)
    return game, [action.id for action in service.legal_actions(game, "Bo")]


def test_the_castle_defence_screen_shows_the_fight_totals_the_hand_every_option_and_the_prompt(tmp_path):
    # Vampire Empire: the defending player plays cards against the attack total, from her hand.
    db = str(tmp_path / "g.sqlite")
    game, state = castle_defence(db)
    legal = GameService(db).legal_actions(game, "Hana")
    terminal = Terminal(db, game, 80, 24, "--bot", "Vlad")
    try:
        terminal.read_until("Who is at the keyboard?")
        terminal.send(b"Hana\n")
        screen = terminal.screen("vampire-empire game ")
        terminal.send(b"?\n")
        helped = terminal.screen("At the choice prompt", prompt="return to your choice")
        terminal.send(b"\r")
        again = terminal.screen("vampire-empire game ")
    finally:
        terminal.close()
    fits(screen, 80, 24)
    shown = "\n".join(screen)
    fight = state["fight"]
    assert f"Attack {fight['attack']} (markers included)" in shown
    assert f"Defence {fight['defence']} (markers included)" in shown
    assert f"Your hand (Hana, {len(state['hands']['Hana'])} cards)" in shown
    assert all(re.search(rf"^{n} +{re.escape(a.id)} ", shown, re.M) for n, a in enumerate(legal, start=1))
    assert "more lines on a taller terminal" not in shown
    # `?` shows help that fits the terminal, not the same cut screen.
    assert len(helped) <= 24 and all(len(line) <= 80 for line in helped)
    assert any("PgDn" in line for line in helped) and "vampire-empire game " not in "\n".join(helped)
    assert again[-1] == screen[-1] and len(again) == len(screen)  # Enter: back to the choice


def test_a_teleport_of_24_options_pages_under_its_header_and_paging_reaches_every_option(tmp_path):
    # Talisman: a teleport (Maze, spell) offers every space of the region, 24 on the Outer Region.
    db = str(tmp_path / "g.sqlite")
    game, ids = talisman_teleport(db)
    assert len(ids) == 24
    terminal = Terminal(db, game, 80, 24, "--bot", "Ann")
    screens = []
    try:
        screens.append(terminal.screen("talisman game "))
        pages = int(re.search(r"page 1 of (\d+)", "\n".join(screens[0]))[1])
        for _ in range(pages - 1):
            terminal.send(PAGE_DOWN)
            screens.append(terminal.screen("talisman game "))
        terminal.send(PAGE_UP)
        back = terminal.screen("talisman game ")
    finally:
        terminal.close()
    assert pages > 1
    for number, screen in enumerate(screens, start=1):
        fits(screen, 80, 24)
        shown = "\n".join(screen)
        assert screen[0].startswith("talisman game ") and "Bo to act" in screen[0]
        assert "Bo chooses where to go" in shown  # what is being decided
        assert f"page {number} of {pages}: PgDn/] next, PgUp/[ back" in shown
    listed = re.findall(r"^\d+ +(choose:\S+) ", "\n".join(line for s in screens for line in s), re.M)
    assert sorted(set(listed)) == sorted(ids)
    assert f"page {pages - 1} of {pages}" in "\n".join(back)


def test_the_turns_events_show_on_the_next_choice_screen(tmp_path):
    # Dungeon: after Ann's roll, the bot plays Bo's turn; Ann's next screen tells both.
    db = str(tmp_path / "g.sqlite")
    with seeded_seeds():
        game = GameService(db).create_game("dungeon-short", [("Ann", "druid"), ("Bo", "warrior")])
    terminal = Terminal(db, game, 80, 24, "--bot", "Bo")
    try:
        terminal.screen("dungeon-short game ")
        terminal.send(b"roll\n")
        screen = terminal.screen("dungeon-short game ")
    finally:
        terminal.close()
    fits(screen, 80, 24)
    service = GameService(db)
    ended = [r.version for r in service.recorded_events(game) if type(r.event).__name__ == "TurnEnded"]
    shown = "\n".join(screen)
    assert "Since your last choice, Ann" in shown
    assert re.search(rf"^ +{ended[-1]}  Bo's turn ended", shown, re.M), shown  # the bot's turn, just ended
    assert any(line.startswith("Ann ") for line in screen) and any(line.startswith("Bo ") for line in screen)


def test_a_taller_terminal_still_shows_the_board_and_a_tiny_one_keeps_the_options_and_prompt(tmp_path):
    db = str(tmp_path / "g.sqlite")
    game, _ = castle_defence(db)
    legal = GameService(db).legal_actions(game, "Hana")
    screens = {}
    for columns, lines in ((100, 40), (60, 12)):
        terminal = Terminal(db, game, columns, lines, "--bot", "Vlad")
        try:
            terminal.read_until("Who is at the keyboard?")
            terminal.send(b"Hana\n")
            screens[lines] = terminal.screen("vampire-empire game ")
        finally:
            terminal.close()
        fits(screens[lines], columns, lines)
    tall, tiny = ("\n".join(screens[n]) for n in (40, 12))
    assert "The castle:" in tall and "Your hand (Hana" in tall  # the board has room beside the decision
    assert "The castle:" not in tiny and "of this choice on a taller terminal" in tiny
    assert re.search(r"^1 +\S+ +\S", tiny, re.M) and f"of {len(legal)}" in tiny  # a page, and how to page
