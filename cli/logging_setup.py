"""structlog set-up: key-value events on stderr, rendered for people on a terminal and as JSON otherwise."""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

import structlog


def wants_colour(stream: TextIO) -> bool:
    """Says whether to colour what goes to `stream`: on a terminal, unless NO_COLOR is set (no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def configure_logging(log_format: str | None = None, verbose: bool = False) -> None:
    """Sends structlog events to stderr; `console` on a terminal, `json` elsewhere unless told."""
    if log_format is None:
        log_format = "console" if sys.stderr.isatty() else "json"
    renderer: structlog.types.Processor
    if log_format == "json":
        renderer = structlog.processors.JSONRenderer()
    else:
        renderer = structlog.dev.ConsoleRenderer(colors=wants_colour(sys.stderr))
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO if verbose else logging.WARNING),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
