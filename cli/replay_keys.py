"""Keys for `nightkeep replay`: what each key does, and reading keys through prompt_toolkit.

Keys are named as prompt_toolkit names them: a printable key is its character (`n`, `?`, ` `), the others
are names such as `right`, `pageup`, `home`, `escape`, `c-m` (Enter) or `c-c`. An empty name is the end
of the input. prompt_toolkit's own parser turns terminal escape sequences into these names, from a
terminal in raw mode or from piped text alike, so every terminal's Home or PgDn is understood.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Iterator
from types import TracebackType
from typing import Any

# The end of the input (a closed pipe): the replay ends as if q was pressed.
END = ""
ENTER = ("c-m", "c-j")

KEYS: dict[str, str] = {
    **dict.fromkeys(("n", " ", "right", *ENTER), "next"),
    **dict.fromkeys(("b", "left"), "back"),
    # PgDn and PgUp move a whole turn, as ] and [ do: a turn is the page of a game's story.
    **dict.fromkeys(("]", "N", "pagedown"), "next-turn"),
    **dict.fromkeys(("[", "B", "pageup"), "previous-turn"),
    **dict.fromkeys(("g", "home"), "start"),
    **dict.fromkeys(("G", "end"), "end"),
    "j": "jump",
    "?": "help",
    "escape": "stay",  # nothing to cancel outside the jump prompt
    **dict.fromkeys(("q", "c-c", "c-d", END), "quit"),
}

KEY_HELP = "→/n next  ←/b back  ]/[ turn  Home/End first/last  j jump  ? keys  q quit"

KEY_GUIDE = (
    "Keys:",
    "  → n space Enter   next event          ← b        previous event",
    "  ] N PgDn          next turn           [ B PgUp   previous turn",
    "  Home g            first event         End G      last event",
    "  j                 jump to N or turn:T (Enter jumps, Esc cancels)",
    "  ?                 these keys          q Ctrl-C   quit",
)

Keys = Callable[[], str]


def command_for(key: str) -> str | None:
    """Returns the replay command a key names (`next`, `jump`, `quit`…), or None for a key with no use."""
    return KEYS.get(key)


def _key_name(press: Any) -> str:
    key = press.key
    return str(getattr(key, "value", key))


def key_names(text: str) -> list[str]:
    """Returns the keys that typed `text` holds (escape sequences such as `\\x1b[6~` as one key each)."""
    from prompt_toolkit.input.vt100_parser import Vt100Parser

    presses: list[Any] = []
    parser = Vt100Parser(presses.append)
    parser.feed(text)
    parser.flush()  # a lone Esc at the end is the Escape key, not the start of a sequence
    return [_key_name(press) for press in presses if _key_name(press) != "<cpr-response>"]


def piped_keys(text: str) -> Keys:
    """Returns a key reader over typed text (input that is not a terminal), then END for ever."""
    keys: Iterator[str] = iter(key_names(text))
    return lambda: next(keys, END)


# How long to wait after a lone Esc for the rest of an escape sequence before taking it as Esc itself.
ESCAPE_WAIT = 0.05


class TerminalKeys:
    """Reads keys from the terminal in raw mode through prompt_toolkit, for as long as it is entered."""

    def __init__(self) -> None:
        from prompt_toolkit.input import create_input

        self._input = create_input(always_prefer_tty=True)
        self._raw: Any = None
        self._pending: list[str] = []

    def __enter__(self) -> TerminalKeys:
        self._raw = self._input.raw_mode()
        self._raw.__enter__()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._raw.__exit__(kind, value, trace)

    def _wait(self, timeout: float | None) -> bool:
        if sys.platform == "win32":  # the console's handle cannot be selected on, and its reads do not block
            import time

            time.sleep(ESCAPE_WAIT)
            return True
        import select

        return bool(select.select([self._input.fileno()], [], [], timeout)[0])

    def __call__(self) -> str:
        """Returns the next key press (`c-c` for Ctrl-C, as raw mode sends no signal)."""
        while not self._pending:
            if self._wait(ESCAPE_WAIT):
                presses = self._input.read_keys()
                if self._input.closed:
                    return END
            else:  # quiet: a lone Esc held back by the parser is the Escape key after all
                presses = self._input.flush_keys()
                if not presses:
                    self._wait(None)  # nothing held back: sleep until the next key
            self._pending += [_key_name(press) for press in presses]
        return self._pending.pop(0)


def read_line(
    next_key: Keys, shown: Callable[[str], None] = lambda text: None, ends: Collection[str] = ()
) -> tuple[str, str]:
    """Reads a line of keys and returns how it ended (`enter`, `escape`, `end` of the input, or the name of
    one of the keys in `ends`, which end it at once) with the text typed (`shown` is told the text after
    every key, to echo it)."""
    text = ""
    while True:
        key = next_key()
        if key in ends:
            return key, text
        if key in ENTER or (key == END and text):  # the input ending after some text submits it
            return "enter", text
        if key == END:
            return "end", text
        if key in ("escape", "c-c"):
            return "escape", text
        if key in ("c-h", "backspace"):
            text = text[:-1]
        elif len(key) == 1 and key.isprintable():
            text += key
        shown(text)
