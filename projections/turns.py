"""Turn numbering for replays: the event at which each turn of a game starts.

A turn's start is the event after which that turn's board shows, before any of its moves:
- turn 1 starts once the host's start action has played out (characters dealt, play opened): at the
  last event before the first player's action, or at the last event if nobody has acted yet;
- turn T (T >= 2) starts at the (T-1)th TurnEnded event, just before whatever follows it.
Events are numbered from 1 in log order, as versions are. A game the host has not started has no turns.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from domain.actions import HOST, START
from domain.events import ActionTaken, Event, TurnEnded


def turn_starts(events: Sequence[Event]) -> list[int]:
    """Returns the event number at which each turn starts: item 0 is turn 1's."""
    opening = _opening(events)
    if opening is None:
        return []
    ended = [number for number, event in enumerate(events, start=1) if isinstance(event, TurnEnded)]
    return [opening, *(number for number in ended if number > opening)]


def _opening(events: Sequence[Event]) -> int | None:
    started = next(
        (
            index
            for index, event in enumerate(events)
            if isinstance(event, ActionTaken) and event.player == HOST and event.action == START
        ),
        None,
    )
    if started is None:
        return None
    last = started
    # The start action's consequences run up to the next action; entropy sent with a player's packet
    # (a host event) already belongs to that player's turn.
    for event in events[started + 1 :]:
        if isinstance(event, ActionTaken | TurnEnded) or event.is_host_event:
            break
        last += 1
    return last + 1


def turn_at(starts: Sequence[int], number: int) -> int:
    """Returns the turn event `number` falls in (0 before the game starts), given turn_starts()."""
    return bisect_right(starts, number)


def next_turn_start(starts: Sequence[int], number: int) -> int | None:
    """Returns the first turn start after event `number`, or None if no turn starts after it."""
    index = bisect_right(starts, number)
    return starts[index] if index < len(starts) else None


def previous_turn_start(starts: Sequence[int], number: int) -> int | None:
    """Returns the last turn start before event `number`, or None if no turn starts before it."""
    index = bisect_left(starts, number)
    return starts[index - 1] if index > 0 else None
