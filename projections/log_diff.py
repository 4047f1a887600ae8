"""Two copies of one game's log compared: the first event where they part, found by bisection on the
hash chain, and whether both chains hold together well enough for the bisection to be trusted.

An event's chain value covers every event up to it (domain/events.py: sha256 of the previous value and
the event's public form), so two copies whose chains are both linked from the genesis value have equal
values at event n exactly when their public histories agree on events 1..n: "equal at n" is true up to
the first difference and false from there on, and a bisection finds that event in O(log n) comparisons.
A copy whose chain does not link (a forger kept the original's values but changed an event) breaks that
prefix property, so then the copies are compared event by event, chain value and public form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.events import GENESIS_CHAIN, ForkedFrom, GameCreated, next_chain, public_form
from event_store.recorded import RecordedEvent

IDENTICAL = "identical"  # the same game, the same events
PREFIX = "prefix"  # one copy holds every event of the other and more
DIVERGED = "diverged"  # the same game, parted at an event
DIFFERENT_GAMES = "different-games"  # they part at or before their GameCreated

BISECTION = "bisection"
EVENT_BY_EVENT = "event by event"


@dataclass(frozen=True)
class LogDiff:
    """What comparing copies A and B found; event numbers count from 1."""

    verdict: str
    first_difference: int | None  # the first event they hold differently (None: none they both hold)
    shared: int  # how many leading events the two copies hold alike
    events: tuple[int, int]  # how many events A and B hold
    breaks: tuple[int | None, int | None]  # the first event whose chain value does not link, per copy
    method: str  # BISECTION, or EVENT_BY_EVENT when a chain does not link
    comparisons: int  # chain comparisons the bisection made (events compared, event by event)

    @property
    def chains_link(self) -> bool:
        """Tells whether both chains link from the genesis value (so equal values prove equal histories)."""
        return self.breaks == (None, None)

    @property
    def longer(self) -> str | None:
        """Returns which copy ("a" or "b") holds more events, or None when they hold as many."""
        a, b = self.events
        return None if a == b else "a" if a > b else "b"


def first_broken_link(events: Sequence[RecordedEvent]) -> int | None:
    """Returns the number of the first event whose chain value does not follow from the one before."""
    previous = GENESIS_CHAIN
    for number, recorded in enumerate(events, start=1):
        if (
            next_chain(previous, recorded.type_name, recorded.class_version, recorded.fields)
            != recorded.chain
        ):
            return number
        previous = recorded.chain
    return None


class ChainComparer:
    """Compares two copies' chain values at an event and counts how often it was asked."""

    def __init__(self, a: Sequence[bytes], b: Sequence[bytes]) -> None:
        self.a, self.b = a, b
        self.count = 0

    def equal_at(self, index: int) -> bool:
        """Tells whether both copies have the same chain value at the event with this 0-based index."""
        self.count += 1
        return self.a[index] == self.b[index]


def bisect_first_difference(compare: ChainComparer, length: int) -> int:
    """Returns the 0-based index of the first of `length` events whose chain values differ (`length`
    when none does), assuming "equal at i" holds for a prefix of the indexes and fails after it."""
    low, high = 0, length
    while low < high:
        middle = (low + high) // 2
        if compare.equal_at(middle):
            low = middle + 1
        else:
            high = middle
    return low


def _public(recorded: RecordedEvent) -> list[Any]:
    return public_form(recorded.type_name, recorded.class_version, recorded.fields)


def scan_first_difference(a: Sequence[RecordedEvent], b: Sequence[RecordedEvent]) -> tuple[int, int]:
    """Returns the 0-based index of the first event the copies hold differently, chain value or public
    form (the length of the shorter when none), and how many events it compared."""
    compared = 0
    for index, (left, right) in enumerate(zip(a, b, strict=False)):
        compared += 1
        if left.chain != right.chain or _public(left) != _public(right):
            return index, compared
    return min(len(a), len(b)), compared


def _created_index(events: Sequence[RecordedEvent]) -> int:
    """Returns the 0-based index of the GameCreated event (after a fork's ForkedFrom), or 0."""
    return next((i for i, r in enumerate(events) if isinstance(r.event, GameCreated)), 0)


def compare_logs(a: Sequence[RecordedEvent], b: Sequence[RecordedEvent]) -> LogDiff:
    """Finds where copies A and B of a game's log part: by bisection on the chain when both chains link,
    else event by event."""
    breaks = (first_broken_link(a), first_broken_link(b))
    length = min(len(a), len(b))
    if breaks == (None, None):
        compare = ChainComparer([r.chain for r in a], [r.chain for r in b])
        index, comparisons, method = bisect_first_difference(compare, length), compare.count, BISECTION
    else:
        (index, comparisons), method = scan_first_difference(a, b), EVENT_BY_EVENT
    sizes = (len(a), len(b))
    if index < length:
        # Everything before the difference is alike, so both copies' GameCreated sit at the same place.
        verdict = DIFFERENT_GAMES if index <= _created_index(a) else DIVERGED
        return LogDiff(verdict, index + 1, index, sizes, breaks, method, comparisons)
    if length == 0 or (length <= _created_index(a if len(a) else b)):
        return LogDiff(DIFFERENT_GAMES, length + 1, length, sizes, breaks, method, comparisons)
    verdict = IDENTICAL if len(a) == len(b) else PREFIX
    return LogDiff(verdict, None, length, sizes, breaks, method, comparisons)


def fork_origin(events: Sequence[RecordedEvent]) -> ForkedFrom | None:
    """Returns the ForkedFrom a forked game's log opens with, or None for a game of its own."""
    first = events[0].event if events else None
    return first if isinstance(first, ForkedFrom) else None
