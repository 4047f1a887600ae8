"""The castle game's typed state (`castle/shapes.py`) is the state the rules really build: in seeded bot
games, after every event, every key, nested part and value has the shape the TypedDicts declare (so the
projections, which mypy checks against them, read what is there)."""

from __future__ import annotations

import hashlib
import types
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

from domain.actions import HOST, START
from domain.bots import Bot
from domain.dice import HmacDice
from domain.events import GameCreated
from domain.rulesets.castle.empire import VampireEmpire
from domain.rulesets.castle.shapes import CastleState
from domain.rulesets.castle.state import HUMAN, VAMPIRE, new_state

empire = VampireEmpire()
MAX_ACTIONS = 2_000


def problems(value: Any, hint: Any, where: str = "state") -> list[str]:
    """Returns where `value` differs from the type `hint` (TypedDicts, dicts, lists, unions, scalars)."""
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: expected a {hint.__name__} dict, got {type(value).__name__}"]
        fields = get_type_hints(hint)
        found = [f"{where}: key {k!r} is not declared" for k in value if k not in fields]
        found += [f"{where}: key {k!r} is missing" for k in fields if k not in value]
        for key, field in fields.items():
            if key in value:
                found += problems(value[key], field, f"{where}[{key!r}]")
        return found
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        options = [problems(value, arg, where) for arg in args]
        return [] if any(not p for p in options) else options[0]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: expected a dict, got {type(value).__name__}"]
        return [p for k, v in value.items() for p in problems(v, args[1], f"{where}[{k!r}]")]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: expected a list, got {type(value).__name__}"]
        return [p for i, v in enumerate(value) for p in problems(v, args[0], f"{where}[{i}]")]
    if hint is type(None):
        return [] if value is None else [f"{where}: expected None, got {value!r}"]
    if type(value) is not hint:  # bool is no int here, nor an int a bool
        return [f"{where}: expected {hint.__name__}, got {type(value).__name__} {value!r}"]
    return []


def created(index: int) -> GameCreated:
    """Returns a GameCreated for a bot game (seat order alternating)."""
    seats = [{"name": "Hana", "character": HUMAN}, {"name": "Vlad", "character": VAMPIRE}]
    return GameCreated(
        ruleset=empire.name,
        players=seats if index % 2 else seats[::-1],
        options={},
        content_hash=empire.content_hash(),
        scripted=False,
        dice_script=[],
        nightkeep_version="test",
    )


def test_a_new_state_has_the_declared_shape() -> None:
    assert problems(new_state(created(0)), CastleState) == []


def test_the_checker_names_an_undeclared_key_and_a_wrong_value() -> None:
    state: Any = new_state(created(0))
    state["marker"] = {}
    state["unmasked"] = 0
    assert problems(state, CastleState) == [
        "state: key 'marker' is not declared",
        "state['unmasked']: expected bool, got int 0",
    ]


def test_every_state_of_a_bot_game_has_the_declared_shape() -> None:
    seen = {"fight": 0, "holy": 0}  # the optional parts were checked too
    for index in range(12):
        dice = HmacDice(hashlib.sha256(f"castle-state-{index}".encode()).digest())
        state, bot = empire.initial_state(created(index)), Bot(index)
        player, action = HOST, START
        for _ in range(MAX_ACTIONS):
            for event in empire.decide(state, action, player, dice):
                empire.evolve(state, event)
                assert problems(state, CastleState) == [], f"game {index}, after {event.type_name}"
                seen = {part: n + bool(state[part]) for part, n in seen.items()}
            if empire.status(state)["status"] == "finished":
                break
            choice = bot.choose(empire, state, empire.legal_actions(state))
            player, action = choice.player, choice.id
        assert state["phase"] == "over"
    assert all(seen.values()), seen
