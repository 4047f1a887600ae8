"""The working copy a ruleset's `decide` evolves while resolving one action, collecting the events."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic

from typing_extensions import TypeVar

from domain.dice import Dice
from domain.events import Event
from domain.plain import copy_plain

# The state type of the ruleset resolving (`Resolution[CastleState]`); a bare `Resolution` is one of a
# ruleset whose steps do not say theirs (Any), so those steps type-check as they did before.
S = TypeVar("S", default=Any)


class Resolution(Generic[S]):
    """Deep-copies the state once, then applies each emitted event so later steps see earlier ones.

    With `in_place` the caller hands over the state itself (an audit that will adopt the result), so
    no copy is made and the given state ends as the state after the emitted events.

    A ruleset whose `evolve` is only a lookup of one handler per event type may pass that table as
    `handlers` (the same `evolve` still given): emit then calls the handler itself, one call less per event.
    """

    def __init__(
        self,
        state: S,
        dice: Dice,
        evolve: Callable[[S, Event], object],
        in_place: bool = False,
        handlers: Mapping[type, Callable[[S, Any], object]] | None = None,
    ) -> None:
        self.state: S = state if in_place else copy_plain(state)
        self.dice = dice
        self.events: list[Event] = []
        self._evolve = evolve
        self._handlers = handlers

    def emit(self, *events: Event) -> None:
        """Records events and applies each to the working state in order."""
        # Every consequence of every decide passes here (mostly one event a call: no locals set up).
        for event in events:
            if self._handlers is None:
                self._evolve(self.state, event)
            elif (apply := self._handlers.get(type(event))) is not None:
                apply(self.state, event)
            self.events.append(event)
