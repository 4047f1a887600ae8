"""The Vampire's Keep's events in a main-board game (`talisman` with `keep=true`), in plain words.

The Keep adds no event of its own to the main board: it records the Keep run's (`domain.rulesets.keep.events`)
and the main board's. This module tells the Keep run's events as they read beside the main board: the
Vampire Wizard casts the main board's Spells, and the rest read as in the Keep run's timeline. Its
dice and moves are told by the main board's timeline (`talisman_timeline`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from domain.events import Event
from domain.rulesets.keep.events import (
    EntryTested,
    FlightEnded,
    ItemGained,
    ItemGivenUp,
    LoopEscaped,
    LoopFailed,
    ObeliskTested,
    SpellCast,
    SpellDiscarded,
    TeleportCounterDrawn,
    Teleported,
    VaultCardMet,
)
from domain.rulesets.talisman.events import FleeingDeclared
from domain.rulesets.talisman.main.content import load_spells
from projections import keep_timeline
from projections.keep_view import name_of

# The Keep run's events the Keep expansion records, told as the Keep run tells them.
_AS_IN_THE_RUN = (
    EntryTested,
    FlightEnded,
    ItemGivenUp,
    LoopEscaped,
    LoopFailed,
    ObeliskTested,
    TeleportCounterDrawn,
    Teleported,
    VaultCardMet,
)


@cache
def _spell_names() -> dict[str, str]:
    return {spell.id: spell.name for spell in load_spells().spells}


def _spell(spell: str) -> str:
    return _spell_names().get(spell) or name_of(spell)


def _discarded(e: SpellDiscarded) -> str:
    if e.reason.startswith("taken by"):
        return f"The Vampire Wizard's Spell took {_spell(e.spell)} from {e.player}: it is discarded."
    return f"The Vampire Wizard discarded {_spell(e.spell)} unused (it {e.reason})."


_OWN: dict[type[Event], Callable[[Any], str]] = {
    SpellCast: lambda e: f"The Vampire Wizard cast {_spell(e.spell)} on {e.player}.",
    SpellDiscarded: _discarded,
    ItemGained: lambda e: f"{e.player} took the {name_of(e.item)} from the Treasure Hoard.",
    FleeingDeclared: lambda e: f"{e.player} is fleeing the Vampire's Keep, back to its door (Keep 10).",
}


def describe(event: Event) -> str | None:
    """Tells one of the Keep's events in a main-board game in plain words (None: not the Keep's)."""
    own = _OWN.get(type(event))
    if own is not None:
        return own(event)
    if isinstance(event, _AS_IN_THE_RUN):
        return keep_timeline.describe(event)
    return None
