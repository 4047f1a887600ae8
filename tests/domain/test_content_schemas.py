"""Content schemas (`domain.content`): msgspec's errors become one line naming the file and the key."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from msgspec import Meta, Struct

from domain.content import check_ids, convert_content
from domain.errors import ContentError


class Line(Struct, frozen=True, forbid_unknown_fields=True):
    rolls: tuple[Annotated[int, Meta(ge=1, le=6)], ...]
    effect: Literal["win", "lose"] | Literal[""] = ""


class Table(Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    lines: tuple[Line, ...]


def message(data: object) -> str:
    with pytest.raises(ContentError) as err:
        convert_content(data, Table, "table.toml")
    return str(err.value)


def test_a_valid_file_becomes_frozen_structs():
    table = convert_content({"source": "house", "lines": [{"rolls": [1, 2]}]}, Table, "table.toml")
    assert table == Table("house", (Line((1, 2)),))


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param({"source": 1, "lines": []}, "source: expected `str`, got `int`", id="type"),
        pytest.param(
            {"source": "s", "lines": [{"rolls": [7]}]}, "lines[0].rolls[0]: expected `int` <= 6", id="bound"
        ),
        pytest.param(
            {"source": "s", "lines": [{"rolls": [True]}]},
            "lines[0].rolls[0]: expected `int`, got `bool`",
            id="bool",
        ),
        pytest.param({"lines": []}, "source: missing", id="missing-top-level"),
        pytest.param({"source": "s", "lines": [{}]}, "lines[0].rolls: missing", id="missing-nested"),
        pytest.param({"source": "s", "lines": [], "x": 1}, "x: unknown field", id="unknown-top-level"),
        pytest.param(
            {"source": "s", "lines": [{"rolls": [], "odds": 2}]},
            "lines[0].odds: unknown field",
            id="unknown-nested",
        ),
        pytest.param(
            {"source": "s", "lines": [{"rolls": [1], "effect": "draw"}]},
            "lines[0].effect: invalid enum value 'draw' (known: lose, win)",
            id="choice-lists-the-known-values",
        ),
    ],
)
def test_errors_name_the_file_and_the_key(data, expected):
    assert message(data) == f"table.toml: {expected}"


def test_check_ids_refuses_a_foreign_prefix_or_a_repeat():
    check_ids(["a/1", "a/2"], "deck.toml", "cards", "a/")
    with pytest.raises(
        ContentError, match=r"^deck.toml: cards\[1\]\.id: expected an id starting with 'a/', got 'b/2'$"
    ):
        check_ids(["a/1", "b/2"], "deck.toml", "cards", "a/")
    with pytest.raises(ContentError, match=r"^deck.toml: cards\[2\]\.id: duplicate id 'a/1'$"):
        check_ids(["a/1", "a/2", "a/1"], "deck.toml", "cards", "a/")
