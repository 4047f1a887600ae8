"""`nightkeep play GAME` without --bots: players take turns at one terminal (hot seat), bots in chosen seats.

The loop reads one line per choice from a `read` function (the terminal's keys, piped stdin, a list in
tests): a number from the list, an action id, a unique prefix of one, `]`/`[` (PgDn/PgUp at a terminal)
to page a long list of choices, `log` or `board` to see in full what the screen cut, `?` for help, or
`q` (or the end of input) to stop. Each choice is asked on one screen laid out by `decision_screen`: at
a terminal what the choice needs is always on it, with what happened since the player's last choice.
Every action is stored as it is taken, so stopping loses nothing. In a game with secrets the screen is
cleared whenever another player is to sit down, and the loop asks who is at the keyboard before showing
anything that player's rivals may not see.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from uuid import UUID

import click

from cli.decision_screen import (
    NEXT_PAGE,
    PREVIOUS_PAGE,
    SHOW_BOARD,
    SHOW_LOG,
    Decision,
    Screen,
    Story,
    compose,
    help_lines,
)
from cli.rendering import (
    GameState,
    board_header,
    console,
    game_summary,
    print_plain,
    terminal_size,
    timeline_lines,
    wrapped,
)
from cli.replay_keys import TerminalKeys, read_line
from domain.actions import Action
from domain.bots import Bot
from domain.errors import NightkeepError
from domain.events import ActionTaken
from domain.game import STOPPED
from domain.hidden import PUBLIC
from event_store.app.seats import match_action, players_to_act, who_acts
from event_store.app.service import GameService
from event_store.recorded import RecordedEvent, redacted
from projections.views import decision_lines, render_board

QUIT = frozenset({"q", "quit", "exit"})
HELP = frozenset({"?", "help"})
# How far back the first screen of a sitting looks for the player's last choice, to tell what followed.
TURN_LOOKBACK = 60
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


# Keys that end a line at once at a terminal: paging, and Ctrl-C or Ctrl-D to stop.
PAGE_KEYS = {"pagedown": NEXT_PAGE, "pageup": PREVIOUS_PAGE}
STOP_KEYS = ("c-c", "c-d")


def read_terminal(prompt: str) -> str | None:
    """Reads one line typed at the terminal, key by key through prompt_toolkit, so PgDn and PgUp turn a
    page at once (as `]` and `[`); None when the player stops (Ctrl-C, Ctrl-D, the end of input)."""
    sys.stdout.write(prompt)
    sys.stdout.flush()

    def shown(text: str) -> None:
        sys.stdout.write(f"\r\x1b[K{prompt}{text}")
        sys.stdout.flush()

    with TerminalKeys() as keys:
        how, text = read_line(keys, shown, ends=(*PAGE_KEYS, *STOP_KEYS))
    sys.stdout.write("\n")
    if how in STOP_KEYS or (how == "end" and not text):
        return None
    if how == "escape":  # Esc drops what was typed: the screen is drawn again
        return ""
    return PAGE_KEYS.get(how, text)


def read_choices(prompt: str) -> str | None:
    """Reads one choice: key by key at a terminal, else a line of standard input."""
    reader = read_terminal if sys.stdin.isatty() and sys.stdout.isatty() else read_stdin
    return reader(prompt)


def clear_terminal() -> None:
    """Clears a terminal screen; output that is not a terminal gets a visible divider instead."""
    if sys.stdout.isatty():
        sys.stdout.write(CLEAR)
        sys.stdout.flush()
    else:
        console().print("-" * 40 + " (screen cleared) " + "-" * 20, markup=False)


@dataclass
class HotSeat:
    """One sitting at the terminal: the game, who the bots are, and when each player last chose."""

    service: GameService
    game_id: UUID
    bots: dict[str, Bot]
    read: Reader = read_choices
    clear: Callable[[], None] = clear_terminal
    secret: bool = False
    at_keyboard: str = ""
    seen: dict[str, int] = field(default_factory=dict)
    labels: dict[int, str] = field(default_factory=dict)
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
                self._show_end()
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
        if recorded:  # told on the next screen, with what else happened since the player's last choice
            self.labels[recorded[0].version] = choice.label

    def _human_turn(self, humans: list[str]) -> bool:
        """Lets a human choose one action; returns False when the player stops."""
        viewer = self._sit_down(humans) if self.secret else PUBLIC
        if viewer is None:
            return False
        actors = [viewer] if self.secret else humans
        legal = [a for p in actors for a in self.service.legal_actions(self.game_id, p)]
        page, message = 0, ""
        while True:
            screen = self._draw(viewer, actors, legal, page, message)
            typed = self.read(self._prompt(actors))
            if typed is None or typed.strip().lower() in QUIT:
                return False
            command, message = typed.strip(), ""
            if command in (NEXT_PAGE, PREVIOUS_PAGE):
                page = max(0, min(page + (1 if command == NEXT_PAGE else -1), screen.pages - 1))
            elif command in HELP:
                self._show_whole(help_lines(terminal_size()[0]))
            elif command.lower() == SHOW_BOARD:
                self._show_whole(self._board(self._fold(viewer), terminal_size()[0], apart=False)(None))
            elif command.lower() == SHOW_LOG:
                story = self._story(viewer, actors)
                self._show_whole([f"{story.title}:", *(line for told in story.events for line in told)])
            elif command:
                try:
                    self._take(match_action(legal, typed))
                except NightkeepError as exc:
                    message = f"Error: {exc}"
                    continue
                return True

    def _prompt(self, actors: list[str]) -> str:
        """The choice prompt, on one line of the screen."""
        prompt = f"{' / '.join(actors)}, your choice (number or id; ? help; q quits): "
        width = terminal_size()[0]
        return prompt if len(prompt) < width else f"{' / '.join(actors)}, your choice (? help): "[: width - 2]

    def _take(self, action: Action) -> None:
        _, recorded = self.service.take_action(self.game_id, action.player, action.id)
        if recorded:  # the player's next screen tells this choice and all that followed it
            self.labels[recorded[0].version] = action.label
            self.seen[action.player] = recorded[0].version - 1

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

    def _since(self, actors: list[str], recent: list[RecordedEvent]) -> int:
        """Returns the version after which the actors' story starts: just before their last choice (in
        this sitting, else the last the recent events hold, else the first of those)."""
        chosen = [self.seen[a] for a in actors if a in self.seen]
        if chosen:
            return min(chosen)
        taken = [r.version for r in recent if isinstance(r.event, ActionTaken) and r.event.player in actors]
        return taken[-1] - 1 if taken else recent[0].version - 1 if recent else 0

    def _story(self, viewer: str, actors: list[str]) -> Story:
        """Tells what happened since the actors' last choice, as the viewer may see it."""
        version = self.service.get_game(self.game_id).version
        recent = self.service.recorded_events(self.game_id, gt=max(version - TURN_LOOKBACK, 0))
        since = self._since(actors, recent)
        if since < version - TURN_LOOKBACK:
            recent = self.service.recorded_events(self.game_id, gt=since)
        shown = redacted([r for r in recent if r.version > since], viewer if self.secret else PUBLIC)
        width = terminal_size()[0]
        told = [line.split("\n") for line in timeline_lines(self.ruleset, shown, self.labels, width)]
        return Story(f"Since your last choice, {' / '.join(actors)}", told)

    def _fold(self, viewer: str) -> GameState:
        return self.service.fold_as(self.game_id, viewer or None)  # from the viewer's snapshot on

    def _board(self, fold: GameState, width: int, apart: bool) -> Callable[[int | None], list[str]]:
        """Returns the board as lines in at most a given height (`apart`: without its decision lines)."""
        stopped = game_summary(str(self.game_id), fold)["status"] == STOPPED

        def lines(height: int | None) -> list[str]:
            drawn = render_board(fold.ruleset_name, fold.state, stopped, width, height, apart=apart)
            return drawn.split("\n")

        return lines

    def _header(self, fold: GameState, width: int, on_terminal: bool) -> list[str]:
        summary = game_summary(str(self.game_id), fold)
        head = wrapped(board_header(str(self.game_id), summary), width)
        if on_terminal and "\n" in head:  # a line saved for the rest: the id's start names the game
            head = wrapped(board_header(str(self.game_id)[:8], summary), width)
        return head.split("\n")

    def _size(self) -> tuple[int, int | None]:
        """The screen's columns, and its lines at a terminal (None: piped, every part shown whole)."""
        width, lines = terminal_size()
        return width, lines if sys.stdout.isatty() else None

    def _draw(self, viewer: str, actors: list[str], legal: list[Action], page: int, message: str) -> Screen:
        """Prints the screen of a decision: header, board, what happened, the decision (see `compose`)."""
        width, height = size = self._size()
        several = len({a.player for a in legal}) > 1
        rows = [
            [str(n), a.id, *([a.player] if several else []), a.label] for n, a in enumerate(legal, start=1)
        ]
        columns = ["#", "id", *(["player"] if several else []), "action"]
        fold = self._fold(viewer)
        context = decision_lines(self.ruleset, fold.state, width)
        decision = Decision(context, columns, rows, message)
        board = self._board(fold, width, apart=bool(context))
        header = self._header(fold, width, height is not None)
        screen = compose(header, decision, self._story(viewer, actors), board, size, page)
        print_plain("\n".join(screen.lines))
        return screen

    def _show_end(self) -> None:
        """Prints the board as the game stopped, after what happened since the last choice."""
        viewer = self.at_keyboard if self.secret else PUBLIC
        width, height = size = self._size()
        last = max(self.seen.values(), default=self.started_at)
        recorded = redacted(self.service.recorded_events(self.game_id, gt=last), viewer)
        told = [line.split("\n") for line in timeline_lines(self.ruleset, recorded, self.labels, width)]
        story = Story("Since the last choice", told)
        fold = self._fold(viewer)
        header = self._header(fold, width, height is not None)
        screen = compose(header, None, story, self._board(fold, width, apart=False), size)
        print_plain("\n".join(screen.lines))

    def _show_whole(self, lines: list[str]) -> None:
        """Shows lines the choice screen cut: through the pager when they do not fit the terminal, else
        until Enter is pressed (piped, they are printed)."""
        _, height = self._size()
        if height is None:
            print_plain("\n".join(lines))
        elif len(lines) < height:
            print_plain("\n".join(lines))
            self.read("Press Enter to return to your choice. ")
        else:
            click.echo_via_pager("\n".join(lines) + "\n")
