"""The types an event field may hold, in one grammar, each with an exact checker.

    type   := "str" | "int" | "bool" | "bin"
            | "array of " type                 an array whose items all hold `type`
            | "map of str to " type            a map with string keys whose values all hold `type`
            | "{" key ": " type (", " key ": " type)* "}"   a map with exactly these string keys
    int    is a signed 64-bit integer; a bool is never an int (they encode apart in msgpack)

docs/events.md writes every field in this grammar, generated from the events' annotations; the audit
(and so every reader of a log) checks every value against it, items and nesting included.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Any, TypedDict, get_type_hints

INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1

Check = Callable[[Any], bool]


@dataclass(frozen=True)
class FieldType:
    """One field type: how docs/events.md writes it, and its exact check."""

    grammar: str
    check: Check


def _int(value: Any) -> bool:
    return type(value) is int and INT_MIN <= value <= INT_MAX


_SCALARS: dict[str, FieldType] = {
    "str": FieldType("str", lambda v: type(v) is str),
    "int": FieldType("int", _int),
    "bool": FieldType("bool", lambda v: type(v) is bool),
    "bytes": FieldType("bin", lambda v: type(v) is bytes),
}

# Records: maps with a fixed set of keys, named in annotations (e.g. `list[Seat]`).
_RECORDS: dict[str, type] = {}


def record_type(cls: type) -> type:
    """Registers a TypedDict as a record type fields may be annotated with."""
    _RECORDS[cls.__name__] = cls
    return cls


class Seat(TypedDict):
    """A seat as set up in GameCreated: the player's name and the character (or side) asked for."""

    character: str
    name: str


record_type(Seat)


def field_type(annotation: str) -> FieldType:
    """Returns the type an annotation (as written in an event class, e.g. `list[str]`) stands for."""
    text = annotation.replace(" ", "")
    if text in _SCALARS:
        return _SCALARS[text]
    if text.startswith("list[") and text.endswith("]"):
        return _array(field_type(text[5:-1]))
    if text.startswith("dict[str,") and text.endswith("]"):
        return _map(field_type(text[9:-1]))
    if text in _RECORDS:
        return _record(_RECORDS[text])
    raise TypeError(f"event fields cannot be annotated {annotation!r} (see domain/field_types.py)")


# Scalar item types checked in one C pass over a container (every audit checks every event's lists).
_EXACT = {"str": str, "bool": bool, "bin": bytes, "int": int}


def _items_hold(kind: FieldType) -> Check:
    """Returns a check that every item of an iterable holds `kind`."""
    exact = _EXACT.get(kind.grammar)
    if exact is None:
        check = kind.check
        return lambda items: all(map(check, items))
    if exact is int:
        return lambda items: (
            not items or (set(map(type, items)) == {int} and INT_MIN <= min(items) and max(items) <= INT_MAX)
        )
    return lambda items: not items or set(map(type, items)) == {exact}


def _array(item: FieldType) -> FieldType:
    hold = _items_hold(item)

    def check_array(value: Any) -> bool:
        return type(value) is list and hold(value)

    return FieldType(f"array of {item.grammar}", check_array)


def _map(item: FieldType) -> FieldType:
    hold = _items_hold(item)

    def check_map(value: Any) -> bool:
        return (
            type(value) is dict
            and (not value or set(map(type, value)) == {str})
            and hold(list(value.values()))
        )

    return FieldType(f"map of str to {item.grammar}", check_map)


def _record(cls: type) -> FieldType:
    hints = get_type_hints(cls)
    fields = {name: field_type(_annotation_text(hint)) for name, hint in sorted(hints.items())}
    keys = fields.keys()

    def check_record(value: Any) -> bool:
        return (
            type(value) is dict
            and value.keys() == keys
            and all(kind.check(value[name]) for name, kind in fields.items())
        )

    grammar = "{" + ", ".join(f"{name}: {kind.grammar}" for name, kind in fields.items()) + "}"
    return FieldType(grammar, check_record)


def fields_checker(spec: list[tuple[str, FieldType]]) -> Check:
    """Returns one function that tells whether an object's attributes all hold their types (named in
    `spec`), arranged once per event type: the audit checks every event, so all fields are read in one
    call and their types compared as one list, the integers bounded together, and only what lists,
    maps and records hold is checked a field at a time."""
    for name, _ in spec:
        if not name.isidentifier():
            raise TypeError(f"a field cannot be named {name!r}")
    read = _attributes([name for name, _ in spec])
    types = [_outer_type(kind) for _, kind in spec]
    bounded = _bounds([index for index, (_, kind) in enumerate(spec) if kind.grammar == "int"])
    # Lists, maps and records: their own check (its outer type test again, then what they hold).
    inner = tuple((index, kind.check) for index, (_, kind) in enumerate(spec) if kind.grammar not in _EXACT)

    def check(event: Any) -> bool:
        values = read(event)
        if [*map(type, values)] != types or not bounded(values):
            return False
        for index, holds in inner:
            if not holds(values[index]):
                return False
        return True

    return check


def _attributes(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """Returns a function reading these attributes of an object as one tuple (one C call)."""
    if len(names) > 1:
        return attrgetter(*names)
    if not names:
        return lambda obj: ()
    read_one = attrgetter(names[0])
    return lambda obj: (read_one(obj),)


def _outer_type(kind: FieldType) -> type:
    """The exact Python type a value of this field type has (its items aside)."""
    if kind.grammar in _EXACT:
        return _EXACT[kind.grammar]
    return list if kind.grammar.startswith("array of ") else dict


def _bounds(positions: list[int]) -> Check:
    """Returns a check that the integers at these positions of a tuple are 64-bit."""
    if not positions:
        return lambda values: True
    if len(positions) == 1:
        (position,) = positions
        return lambda values: INT_MIN <= values[position] <= INT_MAX
    pick = itemgetter(*positions)

    def in_range(values: Any) -> bool:
        ints: tuple[int, ...] = pick(values)
        return INT_MIN <= min(ints) and max(ints) <= INT_MAX

    return in_range


def _annotation_text(hint: Any) -> str:
    return hint.__name__ if isinstance(hint, type) else str(hint).replace("typing.", "")
