"""Pausing Python's cyclic garbage collector around work that allocates many small objects and makes no
reference cycles (a fold, an audit): its passes would walk every object made so far, again and again."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_collector() -> Iterator[None]:
    """Disables the cyclic collector while inside (reference counting still frees everything), and
    restores it as it was."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
