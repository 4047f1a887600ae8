"""Folding stored envelopes in bulk: the fold step of `domain.game`, with the per-event lookups made
once per fold (a long rebuild, the tail after a snapshot)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Any

from domain.events import ActionTaken, DieRolled, EntropyAdded, Event, ForkedFrom, Sealed, SeedRevealed
from domain.game import _GAME_EVENTS, _draw_fields, advance_draws, apply_event, decode_event
from domain.game_meta import GameHolder, GameMeta

Evolve = Callable[[dict[str, Any], Event], dict[str, Any]]
# Folds one stored event of its type's current shape: (envelope, state, meta, holder, evolve) -> state.
FoldStep = Callable[[dict[str, Any], dict[str, Any], GameMeta, GameHolder, Evolve], dict[str, Any]]
# Game-level events whose handler only changes `meta` in place; the others (GameCreated, SeedCommitted)
# change the ruleset, the state or need the chain, and go the general way.
_META_ONLY = frozenset({ActionTaken, EntropyAdded, ForkedFrom, SeedRevealed})
_STEPS: dict[type[Event], FoldStep] = {}


class NotItsShape(Exception):
    """Raised by a fold step, before it changes anything, for an envelope not of its type's current
    version and fields: the general path then folds it or says what is wrong with it."""


def fold_step(cls: type[Event]) -> FoldStep:
    """Returns `apply_event` made for one event type (a ruleset's, or a game-level event that only
    keeps `meta`): it checks the envelope's version and field names, builds the event and folds it,
    the type's draw field read directly. Made once per type and kept."""
    step = _STEPS.get(cls)
    if step is None:
        step = _STEPS[cls] = _make_step(cls)
    return step


def _make_step(cls: type[Event]) -> FoldStep:
    version, count = cls.class_version, len(cls._field_names)

    def build(envelope: dict[str, Any]) -> Event:
        if envelope["v"] != version:
            raise NotItsShape
        fields = envelope["fields"]
        try:
            if len(fields) != count:
                raise NotItsShape
            # As many fields but not the same names, or not a map: the constructor refuses them.
            return cls(**fields)
        except TypeError:
            raise NotItsShape from None

    if cls in _META_ONLY:
        handle = _GAME_EVENTS[cls]

        def step_meta(
            envelope: dict[str, Any],
            state: dict[str, Any],
            meta: GameMeta,
            holder: GameHolder,
            evolve: Evolve,
        ) -> dict[str, Any]:
            handle(holder, build(envelope))
            return state

        return step_meta
    fields = _draw_fields(cls)
    if not fields:

        def step(
            envelope: dict[str, Any],
            state: dict[str, Any],
            meta: GameMeta,
            holder: GameHolder,
            evolve: Evolve,
        ) -> dict[str, Any]:
            return evolve(state, build(envelope))

        return step
    rolled = issubclass(cls, DieRolled)
    if len(fields) > 1 or (rolled and fields != ("draws",)):

        def step_draws(
            envelope: dict[str, Any],
            state: dict[str, Any],
            meta: GameMeta,
            holder: GameHolder,
            evolve: Evolve,
        ) -> dict[str, Any]:
            event = build(envelope)
            advance_draws(meta, event)
            return evolve(state, event)

        return step_draws
    read_drawn = attrgetter(fields[0])

    def step_draw(
        envelope: dict[str, Any], state: dict[str, Any], meta: GameMeta, holder: GameHolder, evolve: Evolve
    ) -> dict[str, Any]:
        # `advance_draws` for one draw field: a draw below the counter (-1 is no draw) leaves it.
        event = build(envelope)
        drawn = read_drawn(event)
        last = (max(drawn) if drawn else -1) if type(drawn) is list else drawn
        if last >= meta["next_draw"]:
            meta["next_draw"] = last + 1
        if rolled:  # a scripted game's die faces come from its script first (HmacDice.roll)
            meta["script_pos"] = min(len(meta["script"]), meta["script_pos"] + len(drawn))
        return evolve(state, event)

    return step_draw


def fold_envelopes(fold: Any, envelopes: Iterable[dict[str, Any]]) -> None:
    """Folds stored envelopes (type, v, fields, chain) in order into a GameFold or a Game (anything
    with `ruleset`, `meta`, `state`, `chain` and `version`): `apply_event`'s steps, made once per
    event type the fold meets (`fold_step`), with the ruleset's `evolve` looked up once."""
    steps: dict[str, FoldStep] = {}
    evolve: Evolve = fold.ruleset.evolve  # before GameCreated, one that refuses: no step is learned yet
    meta, state, version = fold.meta, fold.state, fold.version
    envelope: dict[str, Any] | None = None
    for envelope in envelopes:
        step = steps.get(envelope["type"])
        # An event of its type's current shape (nearly every event): folded in one call.
        if step is not None:
            try:
                state = step(envelope, state, meta, fold, evolve)
            except NotItsShape:
                pass
            else:
                version += 1
                continue
        fold.state, fold.version = state, version
        _fold_one(fold, envelope, steps)
        meta, state, version = fold.meta, fold.state, fold.version
        evolve = fold.ruleset.evolve
    fold.state, fold.version = state, version
    if envelope is not None:
        fold.chain = envelope["chain"]


def _fold_one(fold: Any, envelope: dict[str, Any], steps: dict[str, FoldStep]) -> None:
    """Folds one envelope the general way (`apply_event`), and learns its type's step if it has one."""
    type_name, class_version = envelope["type"], envelope["v"]
    event = decode_event(type_name, class_version, envelope["fields"])
    cls = type(event)
    apply_event(fold, event, envelope["chain"])
    fold.version += 1
    if cls.class_version == class_version and cls is not Sealed and not event.private:
        if cls in _META_ONLY or cls not in _GAME_EVENTS:
            steps[type_name] = fold_step(cls)
