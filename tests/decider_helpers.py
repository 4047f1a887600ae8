"""What every ruleset's rule tests share: deciding an action with scripted dice (checking that `decide`
leaves its input alone and that the script is used up), folding events, and picking events out."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from domain.dice import ScriptedDice
from domain.events import Event
from domain.rulesets import Ruleset


def fold(ruleset: Ruleset, state: dict[str, Any], events: Iterable[Event]) -> dict[str, Any]:
    """Applies events to the state in place and returns it."""
    for event in events:
        ruleset.evolve(state, event)
    return state


def decided(
    ruleset: Ruleset, state: dict[str, Any], action: str, player: str, dice: ScriptedDice
) -> tuple[list[Event], dict[str, Any]]:
    """Decides an action; checks the state is untouched and the dice script used up; returns the events
    and the state after folding them."""
    before = copy.deepcopy(state)
    events = ruleset.decide(state, action, player, dice)
    assert state == before, "decide must not mutate its input"
    assert dice.unused == ([], []), f"script not used up: {dice.unused}"
    return events, fold(ruleset, copy.deepcopy(state), events)


def of(events: list[Event], cls: type) -> list[Any]:
    """Returns the events of one class."""
    return [e for e in events if isinstance(e, cls)]


def names(events: list[Event]) -> list[str]:
    """Returns the events' type names."""
    return [e.type_name for e in events]
