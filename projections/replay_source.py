"""A game's recorded events with the board after any of them: the checkpointed reader every replay uses.

Stop points (`N`, `turn:T`) name the board after an event: event N is the board once the game's Nth
event has happened; turn:T is the board when turn T starts (see projections/turns.py). The moves
(next, back, next turn, …) say where a viewer stepping through the game goes next, so the terminal
replay, the e-mail host and a web viewer step alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from domain.errors import UsageError
from domain.events import GameCreated
from domain.game import MAX_EVENTS, GameFold, Rewinds
from domain.plain import copy_plain
from event_store.recorded import RecordedEvent
from projections.timeline import describe_events
from projections.turns import next_turn_start, previous_turn_start, turn_starts

# A stop point's number has at most as many digits as the largest event number.
DIGITS = len(str(MAX_EVENTS))
# "Back" folds forward from the nearest checkpoint, so a step costs at most this many events.
CHECKPOINT_EVERY = 32


def _copy_fold(fold: GameFold) -> GameFold:
    meta, state = copy_plain(fold.meta), copy_plain(fold.state)
    return GameFold(
        fold.ruleset_name, meta, state, fold.chain, fold.version, fold.ruleset, fold.rewind_source
    )


@dataclass
class ReplaySource:
    """A game's recorded events with the board after any of them, folded from the nearest checkpoint."""

    game: str
    events: list[RecordedEvent]
    label: str = ""  # how errors name it: the file, or the game
    ruleset: str = field(init=False)
    turns: list[int] = field(init=False)
    _checkpoints: list[GameFold] = field(init=False, repr=False)
    _cursor: GameFold = field(init=False, repr=False)
    _told: list[str] = field(init=False, repr=False, default_factory=list)

    def __post_init__(self) -> None:
        self.label = self.label or f"game {self.game}"
        if not self.events:
            raise UsageError(f"{self.label} has no events")
        self.ruleset = next((r.event.ruleset for r in self.events if isinstance(r.event, GameCreated)), "")
        self.turns = turn_starts([r.event for r in self.events])
        pairs = [(r.event, r.chain) for r in self.events]
        rewind = Rewinds.of(pairs)  # a rollback returns to its target
        self._checkpoints = [GameFold(rewind_source=rewind)]
        self._cursor = GameFold(rewind_source=rewind)

    @property
    def last(self) -> int:
        """Returns the number of the game's last event."""
        return len(self.events)

    def told(self, number: int) -> str:
        """Returns event `number` in the timeline's words (actions by their labels, every roll's owner);
        a choice told with the action that made it is told by that action's line."""
        while number > 1 and self.is_told_above(number):
            number -= 1
        return self._lines()[number - 1]

    def is_told_above(self, number: int) -> bool:
        """Tells whether event `number` was told with the event before it (a choice with its action)."""
        return not self._lines()[number - 1]

    def _lines(self) -> list[str]:
        if not self._told:  # worded once, for the whole log: labels need the log from its start
            self._told = describe_events(self.ruleset, self.events)
        return self._told

    def fold_at(self, number: int) -> GameFold:
        """Returns the game state after event `number`; it is reused, so read it before asking again."""
        nearest = min(number // CHECKPOINT_EVERY, len(self._checkpoints) - 1)
        base = self._checkpoints[nearest]
        if not base.version <= self._cursor.version <= number:
            self._cursor = _copy_fold(base)
        cursor = self._cursor
        for recorded in self.events[cursor.version : number]:
            cursor.apply(recorded.event, recorded.chain)
            if cursor.version == len(self._checkpoints) * CHECKPOINT_EVERY:
                self._checkpoints.append(_copy_fold(cursor))
        return cursor

    def stop_point(self, spec: str) -> int:
        """Returns the event number a stop point names: `N` (event N) or `turn:T` (where turn T starts)."""
        text = spec.strip()
        if re.fullmatch(r"[0-9]+", text):
            if len(text) > DIGITS:  # longer than any game (and int() refuses very long digit strings)
                raise UsageError(f"{self.label} has events 1 to {self.last}; there is no event {text[:16]}…")
            return self.check_event(int(text))
        turn = re.fullmatch(r"turn:([0-9]+)", text, flags=re.IGNORECASE)
        if turn is None:
            raise UsageError(f"{spec[:40]!r} is not a stop point: give an event number N or turn:T")
        digits = turn.group(1)
        number = int(digits) if len(digits) <= DIGITS else len(self.turns) + 1
        if not self.turns:
            raise UsageError(f"{self.label} has not started, so it has no turns")
        if not 1 <= number <= len(self.turns):
            raise UsageError(f"{self.label} has turns 1 to {len(self.turns)}; there is no turn {number}")
        return self.turns[number - 1]

    def check_event(self, number: int) -> int:
        """Returns `number` if the game has such an event; raises UsageError saying how many it has."""
        if not 1 <= number <= self.last:
            raise UsageError(f"{self.label} has events 1 to {self.last}; there is no event {number}")
        return number


Move = Callable[[ReplaySource, int], int | None]

# Each move gives the event to show next, or None with the reason it cannot move.
MOVES: dict[str, tuple[Move, str]] = {
    "next": (lambda s, n: n + 1 if n < s.last else None, "this is the last event"),
    "back": (lambda s, n: n - 1 if n > 1 else None, "this is the first event"),
    "next-turn": (lambda s, n: next_turn_start(s.turns, n), "no turn starts after this event"),
    "previous-turn": (lambda s, n: previous_turn_start(s.turns, n), "no turn starts before this event"),
    "start": (lambda s, n: 1, ""),
    "end": (lambda s, n: s.last, ""),
}


def move(source: ReplaySource, number: int, name: str) -> tuple[int, str]:
    """Returns the event a move goes to from event `number`, with "" or the reason it stayed put."""
    step, refusal = MOVES[name]
    target = step(source, number)
    return (number, refusal) if target is None else (target, "")
