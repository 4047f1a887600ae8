"""How each character left a game (won, killed where, fled, lost, still playing): the ruleset's own words,
read from a game's final fold and events for reports (projections/reports.py)."""

from __future__ import annotations

from typing import Any

from projections.reports import Exit


def exits_of(fold: Any, events: list[Any]) -> list[Exit]:
    """Returns how each seat's character left the game its fold and recorded events show (issue 16:
    filled in per ruleset)."""
    return []
