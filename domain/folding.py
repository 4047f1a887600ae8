"""Folding stored envelopes in bulk: the fold step of `domain.game`, with the per-event lookups made
once per fold (a long rebuild, the tail after a snapshot)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.events import Event, Sealed
from domain.game import _GAME_EVENTS, advance_draws, apply_event, decode_event
from domain.rulesets import get_ruleset


def fold_envelopes(fold: Any, envelopes: Iterable[tuple[int, dict[str, Any]]]) -> None:
    """Folds stored envelopes (type, v, fields, chain) in order into a GameFold or a Game (anything
    with `ruleset_name`, `meta`, `state`, `chain` and `version`): `apply_event`'s steps, with each
    event type's class and the ruleset's `evolve` looked up once per fold instead of once per event."""
    classes: dict[tuple[str, int], type[Event]] = {}
    evolve: Callable[[dict[str, Any], Event], dict[str, Any]] | None = None
    if fold.ruleset_name:
        evolve = get_ruleset(fold.ruleset_name).evolve
    meta = fold.meta
    for _, envelope in envelopes:
        key, fields, chain = (envelope["type"], envelope["v"]), envelope["fields"], envelope["chain"]
        cls = classes.get(key)
        event = None
        if cls is not None:
            try:
                event = cls(**fields)
            except TypeError:
                pass  # decode_event says what is wrong with them
        if event is None:
            event = decode_event(key[0], key[1], fields)
            if not event.private and type(event) is not Sealed and event.class_version == key[1]:
                classes[key] = type(event)  # a plain event of its current shape: built directly next time
        if evolve is None or type(event) in _GAME_EVENTS or type(event) is Sealed:
            apply_event(fold, event, chain)
            meta = fold.meta
            evolve = get_ruleset(fold.ruleset_name).evolve if fold.ruleset_name else None
        else:
            advance_draws(meta, event)
            fold.state = evolve(fold.state, event)
            fold.chain = chain
        fold.version += 1
