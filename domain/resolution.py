"""The working copy a ruleset's `decide` evolves while resolving one action, collecting the events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.dice import Dice
from domain.events import Event
from domain.plain import copy_plain


class Resolution:
    """Deep-copies the state once, then applies each emitted event so later steps see earlier ones.

    With `in_place` the caller hands over the state itself (an audit that will adopt the result), so
    no copy is made and the given state ends as the state after the emitted events.
    """

    def __init__(
        self,
        state: dict[str, Any],
        dice: Dice,
        evolve: Callable[[dict[str, Any], Event], Any],
        in_place: bool = False,
    ) -> None:
        self.state = state if in_place else copy_plain(state)
        self.dice = dice
        self.events: list[Event] = []
        self._evolve = evolve

    def emit(self, *events: Event) -> None:
        """Records events and applies each to the working state in order."""
        # Every consequence of every decide passes here: the attributes are read once per call.
        evolve, state, append = self._evolve, self.state, self.events.append
        for event in events:
            evolve(state, event)
            append(event)
