"""Folding stored envelopes in bulk: the fold step of `domain.game`, with the per-event lookups made
once per fold (a long rebuild, the tail after a snapshot)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.events import ActionTaken, DieRolled, EntropyAdded, Event, ForkedFrom, Sealed, SeedRevealed
from domain.game import _GAME_EVENTS, _draw_fields, advance_draws, apply_event, decode_event

Evolve = Callable[[dict[str, Any], Event], dict[str, Any]]
# Folds one stored event of its type's current shape: (envelope, state, meta, holder, evolve) -> state.
FoldStep = Callable[[dict[str, Any], dict[str, Any], dict[str, Any], Any, Evolve], dict[str, Any]]
# Game-level events whose handler only changes `meta` in place; the others (GameCreated, SeedCommitted)
# change the ruleset, the state or need the chain, and go the general way.
_META_ONLY = frozenset({ActionTaken, EntropyAdded, ForkedFrom, SeedRevealed})
_STEPS: dict[type[Event], FoldStep] = {}


class NotItsShape(Exception):
    """Raised by a fold step, before it changes anything, for an envelope not of its type's current
    version and fields: the general path then folds it or says what is wrong with it."""


def fold_step(cls: type[Event]) -> FoldStep:
    """Returns `apply_event` made for one event type (a ruleset's, or a game-level event that only
    keeps `meta`): it checks the envelope's version and field names, builds the event without
    calling `__init__` and folds it, the type's draw fields read directly."""
    step = _STEPS.get(cls)
    if step is None:
        namespace: dict[str, Any] = {
            "new": object.__new__,
            "cls": cls,
            "shape": NotItsShape,
            "handle": _GAME_EVENTS.get(cls),
            "advance": advance_draws,
        }
        exec(_step_source(cls), namespace)  # noqa: S102  (generated from the class's own field names)
        step = _STEPS[cls] = namespace["step"]
    return step


def _step_source(cls: type[Event]) -> str:
    # A slotted dataclass's __init__ only assigns its fields: assigning them to a bare instance gives
    # the same object at half the cost, and one call per event does it all; every fold pays it.
    names = cls._field_names
    build = ["        event = new(cls)", *(f"        event.{name} = fields[{name!r}]" for name in names)]
    if hasattr(cls, "__post_init__") or not names:  # its __init__ does more than assign
        build = ["        event = cls(**fields)"]
    lines = [
        "def step(envelope, state, meta, holder, evolve):",
        "    fields = envelope['fields']",
        f"    if envelope['v'] != {cls.class_version}:",
        "        raise shape",
        "    try:",
        f"        if len(fields) != {len(names)}:",
        "            raise shape",
        *build,
        "    except (KeyError, TypeError):  # as many fields, not the same names; or not a map",
        "        raise shape from None",
    ]
    if cls in _META_ONLY:
        return "\n".join([*lines, "    handle(holder, event)", "    return state"])
    lines += _draw_lines(cls)
    return "\n".join([*lines, "    return evolve(state, event)"])


def _draw_lines(cls: type[Event]) -> list[str]:
    """`advance_draws` for one type: one draw field is read directly; a draw below the counter (-1
    is no draw) leaves it."""
    fields = _draw_fields(cls)
    rolled = issubclass(cls, DieRolled)
    if not fields:
        return []
    if len(fields) > 1 or (rolled and fields != ("draws",)):
        return ["    advance(meta, event)"]
    lines = [
        f"    drawn = event.{fields[0]}",
        "    last = (max(drawn) if drawn else -1) if type(drawn) is list else drawn",
        "    if last >= meta['next_draw']:",
        "        meta['next_draw'] = last + 1",
    ]
    if rolled:  # a scripted game's die faces come from its script first (HmacDice.roll)
        lines.append("    meta['script_pos'] = min(len(meta['script']), meta['script_pos'] + len(drawn))")
    return lines


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
