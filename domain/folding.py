"""Folding stored envelopes in bulk: the fold step of `domain.game`, with the per-event lookups made
once per fold (a long rebuild, the tail after a snapshot)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.events import Event, Sealed
from domain.game import _GAME_EVENTS, _draw_fields, advance_draws, apply_event, decode_event
from domain.rulesets import get_ruleset

# How a fold takes one event type, by type name: (class, class version, whether it consumes draws).
Plan = tuple[type[Event], int, bool]


def fold_envelopes(fold: Any, envelopes: Iterable[tuple[int, dict[str, Any]]]) -> None:
    """Folds stored envelopes (type, v, fields, chain) in order into a GameFold or a Game (anything
    with `ruleset_name`, `meta`, `state`, `chain` and `version`): `apply_event`'s steps, with each
    event type's class, its draw fields and the ruleset's `evolve` looked up once per fold."""
    plans: dict[str, Plan] = {}
    evolve: Callable[[dict[str, Any], Event], dict[str, Any]] | None = None
    if fold.ruleset_name:
        evolve = get_ruleset(fold.ruleset_name).evolve
    meta, state, version = fold.meta, fold.state, fold.version
    envelope: dict[str, Any] | None = None
    for _, envelope in envelopes:
        plan = plans.get(envelope["type"])
        event = None
        # A ruleset event of its current shape (nearly every event): built and evolved directly.
        if plan is not None and evolve is not None and envelope["v"] == plan[1]:
            try:
                event = plan[0](**envelope["fields"])
            except TypeError:
                pass  # decode_event below says what is wrong with them
            else:
                if plan[2]:
                    advance_draws(meta, event)
                state = evolve(state, event)
                version += 1
                continue
        fold.state, fold.version = state, version
        _fold_one(fold, envelope, plans)
        meta, state, version = fold.meta, fold.state, fold.version
        evolve = get_ruleset(fold.ruleset_name).evolve if fold.ruleset_name else None
    fold.state, fold.version = state, version
    if envelope is not None:
        fold.chain = envelope["chain"]


def _fold_one(fold: Any, envelope: dict[str, Any], plans: dict[str, Plan]) -> None:
    """Folds one envelope the general way (`apply_event`), and learns its type's plan if it has one."""
    type_name, class_version = envelope["type"], envelope["v"]
    event = decode_event(type_name, class_version, envelope["fields"])
    cls = type(event)
    if cls not in _GAME_EVENTS and cls is not Sealed and not event.private:
        if cls.class_version == class_version:
            plans[type_name] = (cls, class_version, bool(_draw_fields(cls)))
    apply_event(fold, event, envelope["chain"])
    fold.version += 1
