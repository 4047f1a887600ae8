"""Folding stored envelopes in bulk: the fold step of `domain.game`, with the per-event lookups made
once per fold (a long rebuild, the tail after a snapshot)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Any

from domain.events import ActionTaken, DieRolled, EntropyAdded, Event, ForkedFrom, Sealed, SeedRevealed
from domain.game import _GAME_EVENTS, _draw_fields, advance_draws, apply_event, decode_event
from domain.rulesets import get_ruleset

# Builds an event from stored fields of its current shape; raises KeyError when they are not exactly
# its fields (the general path then says what is wrong with them).
Builder = Callable[[dict[str, Any]], Event]
# Folds one event's bookkeeping into `meta`: a game-level handler, or `advance_draws` for one type.
MetaStep = Callable[[Any, Event], None]
# How a fold takes one event type, by type name: (builder, class version, kind, meta step), the kind
# being EVOLVE, DRAWS (the draw step on `meta`, then evolve) or META (the game-level handler alone).
Plan = tuple[Builder, int, int, MetaStep]
EVOLVE, DRAWS, META = 0, 1, 2
# Game-level events whose handler only changes `meta` in place; the others (GameCreated, SeedCommitted)
# change the ruleset, the state or need the chain, and go the general way.
_META_ONLY = frozenset({ActionTaken, EntropyAdded, ForkedFrom, SeedRevealed})
_BUILDERS: dict[type[Event], Builder] = {}


def trusted_builder(cls: type[Event]) -> Builder:
    """Returns a function that builds a `cls` from stored fields without calling its `__init__`."""
    builder = _BUILDERS.get(cls)
    if builder is not None:
        return builder
    names = cls._field_names
    if hasattr(cls, "__post_init__") or not names:
        builder = _checked_kwargs(cls, len(names))
    else:
        # A slotted dataclass's __init__ only assigns its fields; assigning them to a bare instance
        # gives the same object at half the cost, paid by every event of every fold.
        lines = ["def build(fields):", f"    if len(fields) != {len(names)}:", "        raise KeyError"]
        lines += ["    event = new(cls)"] + [f"    event.{name} = fields[{name!r}]" for name in names]
        namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
        exec("\n".join(lines + ["    return event"]), namespace)  # noqa: S102  (names are fields)
        builder = namespace["build"]
    _BUILDERS[cls] = builder
    return builder


def _checked_kwargs(cls: type[Event], count: int) -> Builder:
    def build(fields: dict[str, Any]) -> Event:
        if len(fields) != count:
            raise KeyError
        try:
            return cls(**fields)
        except TypeError:
            raise KeyError from None

    return build


def draw_step(cls: type[Event]) -> MetaStep | None:
    """Returns `advance_draws` as one event type takes it (None when it consumes no draw): a type
    with one draw field reads it directly, as a fold does for every such event."""
    fields = _draw_fields(cls)
    rolled = issubclass(cls, DieRolled)
    if not fields:
        return None
    if len(fields) > 1 or (rolled and fields != ("draws",)):
        return advance_draws
    read = attrgetter(fields[0])

    def step(meta: dict[str, Any], event: Event) -> None:
        # advance_draws's steps for one field; a draw below the counter (-1: no draw) leaves it.
        drawn = read(event)
        last = (max(drawn) if drawn else -1) if type(drawn) is list else drawn
        if last >= meta["next_draw"]:
            meta["next_draw"] = last + 1
        if rolled:
            meta["script_pos"] = min(len(meta["script"]), meta["script_pos"] + len(drawn))

    return step


def fold_envelopes(fold: Any, envelopes: Iterable[dict[str, Any]]) -> None:
    """Folds stored envelopes (type, v, fields, chain) in order into a GameFold or a Game (anything
    with `ruleset_name`, `meta`, `state`, `chain` and `version`): `apply_event`'s steps, with each
    event type's builder, its draw fields and the ruleset's `evolve` looked up once per fold."""
    plans: dict[str, Plan] = {}
    evolve: Callable[[dict[str, Any], Event], dict[str, Any]] | None = None
    if fold.ruleset_name:
        evolve = get_ruleset(fold.ruleset_name).evolve
    meta, state, version = fold.meta, fold.state, fold.version
    envelope: dict[str, Any] | None = None
    for envelope in envelopes:
        plan = plans.get(envelope["type"])
        # An event of its current shape (nearly every event): built and folded directly.
        if plan is not None and evolve is not None and envelope["v"] == plan[1]:
            build, _, kind, step = plan
            try:
                event = build(envelope["fields"])
            except KeyError:
                pass  # not its fields: decode_event below says what is wrong with them
            else:
                if kind == EVOLVE:
                    state = evolve(state, event)
                elif kind == DRAWS:
                    step(meta, event)
                    state = evolve(state, event)
                else:
                    step(fold, event)
                version += 1
                continue
        fold.state, fold.version = state, version
        _fold_one(fold, envelope, plans)
        meta, state, version = fold.meta, fold.state, fold.version
        evolve = get_ruleset(fold.ruleset_name).evolve if fold.ruleset_name else None
    fold.state, fold.version = state, version
    if envelope is not None:
        fold.chain = envelope["chain"]


def _no_step(holder: Any, event: Event) -> None:
    """Stands for the meta step of an event type that has none (an EVOLVE plan never calls it)."""


def _fold_one(fold: Any, envelope: dict[str, Any], plans: dict[str, Plan]) -> None:
    """Folds one envelope the general way (`apply_event`), and learns its type's plan if it has one."""
    type_name, class_version = envelope["type"], envelope["v"]
    event = decode_event(type_name, class_version, envelope["fields"])
    cls = type(event)
    if cls.class_version == class_version and cls is not Sealed and not event.private:
        if cls in _META_ONLY:
            plans[type_name] = (trusted_builder(cls), class_version, META, _GAME_EVENTS[cls])
        elif cls not in _GAME_EVENTS:
            step = draw_step(cls)
            kind = EVOLVE if step is None else DRAWS
            plans[type_name] = (trusted_builder(cls), class_version, kind, step or _no_step)
    apply_event(fold, event, envelope["chain"])
    fold.version += 1
