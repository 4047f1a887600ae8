"""Seeded random playouts of the short Dungeon game: every game ends; invariants hold throughout."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from domain.actions import HOST, START
from domain.dice import HmacDice
from domain.events import Event, canonical_bytes
from domain.rulesets.dungeon.short_game import DungeonShort
from tests.rulesets.dungeon.test_short_game_rules import created, fold

pytestmark = pytest.mark.slow  # a playout: seeded random games

dungeon = DungeonShort()

ALL_CARDS = Counter(c for c in dungeon.initial_state(created(("A", ""), ("B", "")))["piles"]["dungeon"])


def cards_in_play(state: dict[str, Any]) -> Counter[str]:
    found = Counter(state["piles"]["dungeon"]) + Counter(state["piles"]["discard:dungeon"])
    for cards in state["cards"]["dungeon"]:
        found.update(cards)
    for sheet in state["players"].values():
        found.update(sheet["objects"] + sheet["followers"] + sheet["trophies"])
    return found


def check_native(value: Any) -> None:
    assert not isinstance(value, tuple | float) and value is not None
    if isinstance(value, list):
        for item in value:
            check_native(item)
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str)
            check_native(item)


def play(seed: int) -> tuple[dict[str, Any], list[Event], dict[str, Any]]:
    rng = random.Random(seed)
    count = rng.randint(2, 6)
    seats = [(f"P{i}", "warrior" if i == 1 and seed % 2 else "") for i in range(count)]
    initial = dungeon.initial_state(created(*seats))
    dice = HmacDice(seed.to_bytes(32, "big"))
    log = dungeon.decide(initial, START, HOST, dice)
    state = fold(copy.deepcopy(initial), log)
    for _ in range(2000):
        if dungeon.status(state)["status"] == "finished":
            break
        actions = dungeon.legal_actions(state)
        assert actions and all(a.player == state["turn"] for a in actions)
        action = rng.choices(actions, [dungeon.bot_weight(state, a) for a in actions])[0]
        events = dungeon.decide(state, action.id, action.player, dice)
        log += events
        fold(state, events)
        assert cards_in_play(state) == ALL_CARDS
        for sheet in state["players"].values():
            assert len(sheet["objects"]) <= 4
            assert sheet["status"] != "playing" or sheet["lives"] > 0
    return initial, log, state


@pytest.mark.parametrize("seed", range(40))
def test_random_playout_ends_and_replays_to_the_same_state(seed):
    initial, log, state = play(seed)
    assert dungeon.status(state)["status"] == "finished"
    if state["winner"]:
        assert state["players"][state["winner"]]["space"] == 24 and type(log[-1]).__name__ == "GameWon"
    rebuilt = fold(copy.deepcopy(initial), log)
    assert rebuilt == state
    for event in log:
        check_native(event.to_fields())
        canonical_bytes(event.to_fields())
    check_native(state)
    # evolve copies what it takes from events: wrecking the events afterwards leaves the state alone.
    snapshot = copy.deepcopy(rebuilt)
    for event in log:
        for value in event.to_fields().values():
            if isinstance(value, list | dict):
                value.clear()
    assert rebuilt == snapshot


def test_most_bot_games_have_a_winner():
    winners = sum(bool(play(seed)[2]["winner"]) for seed in range(100, 130))
    assert winners >= 24


@pytest.mark.parametrize("seed", range(12))
def test_is_legal_says_what_legal_actions_list_in_every_state_of_a_playout(seed):
    initial, log, final = play(seed)
    state = copy.deepcopy(initial)
    players = list(final["players"])  # (dealt at the start: the state before it has none)
    assert len(players) >= 2
    candidates = ["roll", "flee", "encounter-space", START, "attack:", "attack:nobody"]
    candidates += [f"attack:{p}" for p in players]
    for event in [None, *log]:
        if event is not None:
            fold(state, [event])
        running = dungeon.status(state)["status"] != "finished"
        for player in [*players, HOST, "nobody"]:
            legal = {a.id for a in dungeon.legal_actions(state, player)}
            assert legal <= set(candidates), legal - set(candidates)  # every kind of action is tried
            for action_id in candidates:
                assert dungeon.is_legal(state, player, action_id) == (running and action_id in legal)
