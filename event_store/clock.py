"""The host's one clock: deadlines, reminders, lapses, vacations and the Date of every mail read it.

Tests set it: in the process with `set_now` (or `frozen`), and in a `nightkeep` subprocess with the
environment variable NIGHTKEEP_NOW (an ISO 8601 time with its zone, e.g. 2026-12-08T20:00:00+00:00, or
seconds since the epoch). Nothing else in the host asks the operating system for the time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from domain.errors import UsageError

NOW_ENV = "NIGHTKEEP_NOW"

_set: datetime | None = None


def now() -> datetime:
    """Returns the time now, in UTC: the time a test set, else the system's."""
    if _set is not None:
        return _set
    text = os.environ.get(NOW_ENV)
    if text:
        return parse_time(text, NOW_ENV)
    return datetime.now(UTC)


def epoch(moment: datetime | None = None) -> int:
    """Returns a time (default: now) as whole seconds since the epoch, as club events record it."""
    return int((moment or now()).timestamp())


def from_epoch(seconds: int) -> datetime:
    """Returns seconds since the epoch as a UTC time."""
    return datetime.fromtimestamp(seconds, UTC)


def set_now(moment: datetime | None) -> None:
    """Sets the clock to a fixed time (None: back to the system's)."""
    global _set
    if moment is not None and moment.tzinfo is None:
        raise ValueError("the clock is set to a time with its zone")
    _set = moment.astimezone(UTC) if moment is not None else None


@contextmanager
def frozen(moment: datetime) -> Iterator[None]:
    """Holds the clock at a time for the duration of a block."""
    before = _set
    set_now(moment)
    try:
        yield
    finally:
        set_now(before)


def parse_time(text: str, what: str) -> datetime:
    """Reads an ISO 8601 time with its zone, or seconds since the epoch, as UTC."""
    text = text.strip()
    try:
        if text.isdecimal():
            return from_epoch(int(text))
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (ValueError, OverflowError, OSError):
        raise UsageError(f"{what} {text[:40]!r} is not a time (2026-12-08T20:00:00+00:00)") from None
    if moment.tzinfo is None:
        raise UsageError(f"{what} {text[:40]!r} has no time zone (add +00:00 or Z)")
    return moment.astimezone(UTC)


def when(seconds: int) -> str:
    """Says a time (seconds since the epoch) as people read it: `Tue 8 Dec 2026 20:00 UTC`."""
    moment = from_epoch(seconds)
    return f"{moment:%a} {moment.day} {moment:%b %Y %H:%M} UTC"


def short_when(seconds: int) -> str:
    """Says a time briefly, for a subject line: `Tue 8 Dec 20:00 UTC`."""
    moment = from_epoch(seconds)
    return f"{moment:%a} {moment.day} {moment:%b %H:%M} UTC"


def span(seconds: int) -> str:
    """Says a duration in the two largest units that matter: `2 days 3 hours`, `45 minutes`."""
    seconds = max(seconds, 0)
    units = (("day", 86400), ("hour", 3600), ("minute", 60))
    parts = []
    for name, size in units:
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {name}{'s' * (count != 1)}")
    return " ".join(parts[:2]) or "less than a minute"
