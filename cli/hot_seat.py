"""`nightkeep play GAME` without --bots: players take turns at one terminal (hot seat), bots in chosen seats.

The loop reads one line per choice from a `read` function (stdin at a terminal, a list in tests): a
number from the list, an action id, a unique prefix of one, `?` to show the board again, or `q` (or the
end of input) to stop. Every action is stored as it is taken, so stopping loses nothing. In a game with
secrets the screen is cleared whenever another player is to sit down, and the loop asks who is at the
keyboard before showing anything that player's rivals may not see.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from uuid import UUID

from rich.table import Table

from cli.rendering import console, plain_cells, print_board, print_timeline, terminal_size
from domain.actions import Action
from domain.bots import Bot
from domain.errors import NightkeepError
from domain.hidden import PUBLIC
from event_store.app.seats import match_action, players_to_act, who_acts
from event_store.app.service import GameService
from event_store.recorded import redacted

QUIT = frozenset({"q", "quit", "exit"})
HELP = frozenset({"?", "help", ""})
# Clears the screen and the terminal's scrollback, so the previous player's secrets cannot be scrolled to.
CLEAR = "\033[H\033[2J\033[3J"

Reader = Callable[[str], str | None]


def read_stdin(prompt: str) -> str | None:
    """Reads one line typed at the terminal (None at the end of input or on Ctrl-C)."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    try:
        line = sys.stdin.readline()
    except KeyboardInterrupt:  # Ctrl-C at the prompt stops like q: nothing is lost
        sys.stdout.write("\n")
        return None
    if not sys.stdin.isatty():  # piped choices are not echoed by a terminal: show them in the transcript
        sys.stdout.write(line if line.endswith("\n") else line + "\n")
    return None if line == "" else line.rstrip("\n")


def clear_terminal() -> None:
    """Clears a terminal screen; output that is not a terminal gets a visible divider instead."""
    if sys.stdout.isatty():
        sys.stdout.write(CLEAR)
        sys.stdout.flush()
    else:
        console().print("-" * 40 + " (screen cleared) " + "-" * 20, markup=False)


@dataclass
class HotSeat:
    """One sitting at the terminal: the game, who the bots are, and what each player has seen."""

    service: GameService
    game_id: UUID
    bots: dict[str, Bot]
    read: Reader = read_stdin
    clear: Callable[[], None] = clear_terminal
    secret: bool = False
    at_keyboard: str = ""
    seen: dict[str, int] = field(default_factory=dict)
    started_at: int = 0
    ruleset: str = ""

    def run(self) -> None:
        """Plays until the game ends or the player stops; every action is stored as it is taken."""
        game = self.service.get_game(self.game_id)
        self.secret = game.ruleset.hidden_information
        self.started_at, self.ruleset = game.version, game.ruleset_name
        out = console()
        while True:
            waiting = players_to_act(self.service.get_game(self.game_id))
            if not waiting:
                self._show(self.at_keyboard if self.secret else PUBLIC, choices=0)
                out.print(f"No more play: {who_acts(self.service.get_game(self.game_id))}.", markup=False)
                return
            humans = [p for p in waiting if p not in self.bots]
            if not humans:
                self._bot_turn(waiting)
                continue
            if not self._human_turn(humans):
                out.print(
                    f"Stopped; every action so far is stored (nightkeep play {self.game_id} goes on).",
                    markup=False,
                )
                return

    def _bot_turn(self, waiting: list[str]) -> None:
        player = waiting[0]
        game = self.service.get_game(self.game_id)
        legal = game.ruleset.legal_actions(game.state, player)
        choice = self.bots[player].choose(game.ruleset, game.state, legal)
        _, recorded = self.service.take_action(self.game_id, player, choice.id)
        if not self.secret:  # in a secret game each player is told on sitting down
            print_timeline(game.ruleset_name, recorded, {recorded[0].version: choice.label})

    def _human_turn(self, humans: list[str]) -> bool:
        """Lets a human choose one action; returns False when the player stops."""
        viewer = self._sit_down(humans) if self.secret else PUBLIC
        if viewer is None:
            return False
        if self.secret:
            self._catch_up(viewer)
        actors = [viewer] if self.secret else humans
        legal = [a for p in actors for a in self.service.legal_actions(self.game_id, p)]
        self._show(viewer, len(legal))
        print_numbered(legal)
        while True:
            typed = self.read(f"{' / '.join(actors)}, your choice (number or id; ? board; q quits): ")
            if typed is None or typed.strip().lower() in QUIT:
                return False
            if typed.strip() in HELP:
                self._show(viewer, len(legal))
                print_numbered(legal)
                continue
            try:
                self._take(match_action(legal, typed), viewer)
            except NightkeepError as exc:
                console().print(f"Error: {exc}", markup=False)
                continue
            return True

    def _take(self, action: Action, viewer: str) -> None:
        _, recorded = self.service.take_action(self.game_id, action.player, action.id)
        shown = redacted(recorded, viewer if self.secret else PUBLIC)
        print_timeline(self.ruleset, shown, {recorded[0].version: action.label})
        self.seen[action.player] = recorded[-1].version if recorded else self.seen.get(action.player, 0)

    def _sit_down(self, humans: list[str]) -> str | None:
        """Asks who is at the keyboard when another player is to act (clearing the screen first)."""
        if self.at_keyboard in humans:
            return self.at_keyboard
        self.clear()
        while True:
            typed = self.read(f"{' or '.join(humans)} to act. Who is at the keyboard? ")
            if typed is None or typed.strip().lower() in QUIT:
                return None
            name = next((h for h in humans if h.lower() == typed.strip().lower()), None)
            if name is not None:
                break
            console().print(f"It is {' or '.join(humans)} to act, not {typed.strip()!r}.", markup=False)
        self.at_keyboard = name
        return name

    def _catch_up(self, name: str) -> None:
        """Tells a player of a secret game what happened since their last action, as they may see it."""
        since = self.seen.get(name, self.started_at)  # at first, what bots did since the sitting began
        recorded = self.service.recorded_events(self.game_id, gt=since)
        if recorded:
            console().print(f"Since your last turn, {name}:", markup=False)
            print_timeline(self.ruleset, redacted(recorded, name))
        if recorded:
            self.seen[name] = recorded[-1].version

    def _show(self, viewer: str, choices: int) -> None:
        fold = self.service.fold_as(self.game_id, viewer or None)  # from the viewer's snapshot on
        # On a terminal the board and the numbered choices (their rules and header, and the prompt) share
        # the screen, so the board does not scroll away; the story of the last action may scroll above.
        _, lines = terminal_size()
        height = lines - (choices + 5) if sys.stdout.isatty() else None
        print_board(str(self.game_id), fold, height=height)


def print_numbered(actions: list[Action]) -> None:
    """Prints the open actions numbered from 1, with who may take each when more than one player may."""
    several = len({a.player for a in actions}) > 1
    table = Table("#", "id", *(["player"] if several else []), "action")
    for number, action in enumerate(actions, start=1):
        who = [action.player] if several else []
        table.add_row(*plain_cells(str(number), action.id, *who, action.label))
    console().print(table)
