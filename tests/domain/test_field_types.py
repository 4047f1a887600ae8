"""Every event field holds exactly its type in the one grammar of domain/field_types.py."""

from __future__ import annotations

import pytest

from domain.events import GameCreated, field_type_problem
from domain.field_types import INT_MAX, INT_MIN, field_type


@pytest.mark.parametrize(
    ("annotation", "grammar"),
    [
        ("str", "str"),
        ("bytes", "bin"),
        ("list[int]", "array of int"),
        ("dict[str, bytes]", "map of str to bin"),
        ("list[Seat]", "array of {character: str, name: str}"),
        ("dict[str, list[str]]", "map of str to array of str"),
    ],
)
def test_each_annotation_is_written_in_the_one_grammar(annotation, grammar):
    assert field_type(annotation).grammar == grammar


@pytest.mark.parametrize(
    ("annotation", "good", "bad"),
    [
        ("int", [0, -1, INT_MIN, INT_MAX], [True, INT_MAX + 1, INT_MIN - 1, "1", 1.0]),
        ("bool", [True, False], [1, 0, "true"]),
        ("bytes", [b"", b"\x00"], ["", bytearray(b"x")]),
        ("list[int]", [[], [1, 2]], [[1, True], (1, 2), [[1]]]),
        ("dict[str, bytes]", [{}, {"a": b""}], [{1: b""}, {"a": "b"}, [("a", b"")], 5, None, "ab"]),
        ("list[str]", [[], ["a"]], [5, None, "ab", ["a", 1], {"a": "b"}]),
        (
            "list[Seat]",
            [[], [{"name": "Ann", "character": ""}]],
            [[{"name": "Ann"}], [{"name": "Ann", "character": "", "x": ""}], [{"name": 1, "character": ""}]],
        ),
    ],
)
def test_values_are_checked_exactly_items_and_keys_included(annotation, good, bad):
    check = field_type(annotation).check
    assert all(check(value) for value in good)
    assert not any(check(value) for value in bad)


def test_an_annotation_outside_the_grammar_is_refused_when_the_event_type_is_made():
    from typing import Any

    from domain.events import Event, event_type

    with pytest.raises(TypeError, match="cannot be annotated"):
        field_type("dict[str, Any]")
    with pytest.raises(TypeError, match="cannot be annotated"):

        @event_type
        class LooselyTyped(Event):  # a field that could hold anything would be checked by nothing
            details: dict[str, Any]


def test_a_seat_with_an_extra_key_is_a_type_problem():
    created = GameCreated(
        ruleset="dungeon-short",
        players=[{"name": "Ann", "character": "", "admin": "yes"}],  # type: ignore[typeddict-unknown-key]
        options={},
        content_hash="",
        scripted=False,
        dice_script=[],
        nightkeep_version="0.1.0",
    )
    assert "GameCreated.players" in field_type_problem(created)
