"""Loggers that import structlog only when an event is logged at a level that is shown.

`import structlog` costs more than half of a short command's start (its console renderer pulls in
`rich`), while most commands log nothing or only what the CLI filters out. A `LazyLogger` stands where a
structlog logger stood: a call below the CLI's threshold returns at once; any other call runs the CLI's
deferred configuration once, then goes to the real structlog logger (so `capture_logs()` still sees it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LEVELS = {"debug": 10, "info": 20, "msg": 20, "warning": 30, "warn": 30, "error": 40, "exception": 40}

_threshold = 0  # nothing is filtered until the CLI says what it shows
_pending: Callable[[], None] | None = None


def defer_configuration(configure: Callable[[], None], threshold: int) -> None:
    """Registers how to configure structlog, run before the first event at or above `threshold`."""
    global _threshold, _pending
    _threshold, _pending = threshold, configure


def reset() -> None:
    """Forgets any deferred configuration and threshold (library defaults, as in tests)."""
    defer_configuration(lambda: None, 0)


def _ignore(*args: Any, **kwargs: Any) -> None:
    """Drops an event below the threshold."""


class LazyLogger:
    """A named logger whose methods reach structlog only for events that will be shown."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, method: str) -> Any:
        global _pending
        if LEVELS.get(method, 100) < _threshold:
            return _ignore
        if _pending is not None:
            configure, _pending = _pending, None
            configure()
        import structlog

        return getattr(structlog.get_logger(self._name), method)


def get_logger(name: str) -> LazyLogger:
    """Returns the lazy logger of that name."""
    return LazyLogger(name)
