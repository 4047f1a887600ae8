"""Board views by ruleset: each ruleset's view module renders its state and summarises its players."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from domain.errors import UnknownRuleset
from domain.events import Event
from projections.registry import shown_by

# What every board view says of a game stopped by an early reveal, instead of who is to act.
STOPPED_HEAD = "Stopped: the dice seed was revealed before the end; nobody acts."


# The modules found so far, by (ruleset, timeline?): a view is asked per frame of a replay, so the
# registry and importlib are asked once per ruleset.
_found: dict[tuple[str, bool], ModuleType | None] = {}


def _module(ruleset: str, timeline: bool = False) -> ModuleType | None:
    """Returns the ruleset's view module (or its timeline module, the view's if it names none)."""
    key = (ruleset, timeline)
    if key in _found:
        return _found[key]
    try:
        entry = shown_by(ruleset)
    except UnknownRuleset:
        return None  # a log of a ruleset this nightkeep does not have (it may be registered later)
    name = (timeline and entry.timeline) or entry.view
    module = _found[key] = importlib.import_module(name) if name else None
    return module


def render_board(
    ruleset: str,
    state: dict[str, Any],
    stopped: bool = False,
    width: int | None = None,
    height: int | None = None,
    apart: bool = False,
) -> str:
    """Renders the board of a game state as plain text no wider than `width` (and, given a `height`, no
    taller): the full layout when it fits, else a compact one; with no width, the full layout as it is
    (`stopped`: the game takes no more actions; `apart`: without the `decision_lines`, shown elsewhere)."""
    module = _module(ruleset)
    if module is None:
        return f"({ruleset} has no board view)"
    if apart and hasattr(module, "decision_lines"):
        return str(module.render_board(state, stopped, width=width, height=height, apart=True))
    return str(module.render_board(state, stopped, width=width, height=height))


def decision_lines(ruleset: str, state: dict[str, Any], width: int) -> list[str]:
    """Returns the lines of a board a pending decision depends on (what is decided, the numbers and
    cards it turns on), for a screen that must keep them when the rest of the board is cut; [] when the
    ruleset's view names none."""
    module = _module(ruleset)
    found = getattr(module, "decision_lines", None) if module else None
    return list(found(state, width)) if found else []


def players_summary(ruleset: str, state: dict[str, Any]) -> list[dict[str, Any]]:
    """Returns one JSON-ready dict per player of a game state."""
    module = _module(ruleset)
    if module is None:
        return []
    return list(module.players_summary(state))


def ruleset_describer(ruleset: str) -> Callable[[Event], str | None] | None:
    """Returns the ruleset's own event describer, if it has one."""
    module = _module(ruleset, timeline=True)
    return getattr(module, "describe", None) if module else None
