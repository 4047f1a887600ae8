"""The typed seam holds what the folds keep: every key a game's meta holds is declared in GameMeta with
its type, new games keep meta's stored key order, and each ruleset names the TypedDict it folds."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest

from domain.game_meta import GameMeta, new_meta
from domain.rulesets import ruleset_class, ruleset_names
from domain.rulesets.base import Ruleset
from event_store.app.replay_file import read_replay

REPLAYS = sorted((Path(__file__).resolve().parents[2] / "replays").glob("*.nkr"))
DECLARED = typing.get_type_hints(GameMeta)


def _holds(value: object, hint: object) -> bool:
    if hint is typing.Any:
        return True
    return isinstance(value, typing.get_origin(hint) or hint)


def test_a_new_game_meta_keeps_the_key_order_snapshots_store() -> None:
    # A snapshot stores meta as a msgpack map in this order: a new order would change its bytes.
    assert list(new_meta()) == [
        "commitment", "pool", "next_draw", "script", "script_pos", "seed", "actions", "players",
        "forked_from", "keys", "options", "anchors", "link", "made_by", "private_keys", "dealt",
    ]  # fmt: skip
    assert set(new_meta()) == GameMeta.__required_keys__


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_every_key_a_folded_game_keeps_in_meta_is_declared_with_its_type(path: Path) -> None:
    fold = read_replay(path.read_bytes(), path.name).fold()
    undeclared = set(fold.meta) - set(DECLARED)
    assert not undeclared, f"meta keys GameMeta does not declare: {undeclared}"
    wrong = {
        key: type(value).__name__ for key, value in fold.meta.items() if not _holds(value, DECLARED[key])
    }
    assert not wrong, f"meta values of another type than declared: {wrong}"


def _state_type(cls: type[Ruleset[typing.Any]]) -> object:
    for klass in cls.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            origin = typing.get_origin(base)
            if isinstance(origin, type) and issubclass(origin, Ruleset):
                (argument,) = typing.get_args(base)
                if not isinstance(argument, typing.TypeVar):
                    return argument
    return None


SHIPPED = [name for name in ruleset_names() if ruleset_class(name).__module__.startswith("domain.")]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_names_the_typed_state_it_folds(name: str) -> None:
    state_type = _state_type(ruleset_class(name))
    assert typing.is_typeddict(state_type), f"{name} folds {state_type!r}, not a TypedDict"


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_a_folded_state_holds_every_key_its_ruleset_declares(path: Path) -> None:
    replay = read_replay(path.read_bytes(), path.name)
    fold = replay.fold()
    state_type = _state_type(ruleset_class(replay.header["ruleset"]))
    assert isinstance(state_type, type)
    missing = state_type.__required_keys__ - set(fold.state)
    assert not missing, f"{path.name}: the state lacks {missing}"
