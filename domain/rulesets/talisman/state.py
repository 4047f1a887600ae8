"""Evolving the parts of a Talisman board game's state that every board shares (RULES.md §1).

The state is a plain dict with `players` (name → sheet with `space`, `status`, `skips`, stats and
possessions), `spaces` (the face-up cards per space), `space_gold`, `deck` (cards left, sorted: a lazy
shuffle), `discard`, `phase` and `winner`. A board's own `evolve` adds its handlers to these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.events import (
    CardDrawn,
    Event,
    GameEnded,
    GameWon,
    LifeGained,
    LifeLost,
    Moved,
    PlayerOut,
)
from domain.rulesets.talisman.character import OUT, WINNER
from domain.rulesets.talisman.events import (
    CardDiscarded,
    DeckReshuffled,
    FollowerJoined,
    GoldChanged,
    GoldTaken,
    ObjectTaken,
    StatChanged,
    TrophiesTraded,
    TrophyTaken,
    TurnLost,
    TurnSkipped,
)

State = dict[str, Any]
Evolver = Callable[[State, Any], None]


def _drawn(state: State, e: CardDrawn) -> None:
    if e.card in state["deck"]:
        state["deck"].remove(e.card)
    state["spaces"][state["players"][e.player]["space"]].append(e.card)


def _reshuffled(state: State, e: DeckReshuffled) -> None:
    state["deck"] = sorted(state["deck"] + state["discard"])
    state["discard"] = []


def _off_space(state: State, space: int, card: str) -> None:
    cards = state["spaces"][space]
    if card in cards:
        cards.remove(card)


def _discarded(state: State, e: CardDiscarded) -> None:
    _off_space(state, e.space, e.card)
    state["discard"].append(e.card)


def _object_taken(state: State, e: ObjectTaken) -> None:
    _off_space(state, e.space, e.card)
    state["players"][e.player]["objects"].append(e.card)


def _follower_joined(state: State, e: FollowerJoined) -> None:
    _off_space(state, e.space, e.card)
    state["players"][e.player]["followers"].append(e.card)


def _trophy(state: State, e: TrophyTaken) -> None:
    _off_space(state, e.space, e.card)
    state["players"][e.player]["trophies"].append(e.card)


def _traded(state: State, e: TrophiesTraded) -> None:
    sheet = state["players"][e.player]
    for card in e.cards:
        if card in sheet["trophies"]:
            sheet["trophies"].remove(card)
    state["discard"].extend(e.cards)
    sheet[e.stat] += e.amount


def _out(state: State, e: PlayerOut) -> None:
    sheet = state["players"][e.player]
    sheet["status"] = OUT
    if sheet["lives"] <= 0:
        # RULES.md §1: a killed character's Objects, Followers and Gold stay on its space.
        space = sheet["space"]
        state["spaces"][space].extend(sheet["objects"] + sheet["followers"])
        state["space_gold"][space] += sheet["gold"]
        state["discard"].extend(sheet["trophies"])
        sheet.update(objects=[], followers=[], trophies=[], gold=0)


def _won(state: State, e: GameWon) -> None:
    state["winner"] = e.player
    state["phase"] = "over"
    state["players"][e.player]["status"] = WINNER


def _ended(state: State, e: GameEnded) -> None:
    state["winner"] = e.winner
    state["phase"] = "over"


def _gold_taken(state: State, e: GoldTaken) -> None:
    state["space_gold"][e.space] -= e.amount
    state["players"][e.player]["gold"] += e.amount


def _sheet_add(key: str) -> Callable[[State, Any], None]:
    def apply(state: State, e: Any) -> None:
        state["players"][e.player][key] += e.amount

    return apply


def sheet_set(key: str, value: Any) -> Callable[[State, Any], None]:
    def apply(state: State, e: Any) -> None:
        state["players"][e.player][key] = value

    return apply


def _moved(state: State, e: Moved) -> None:
    state["players"][e.piece]["space"] = e.to_space


def _lost(state: State, e: LifeLost) -> None:
    state["players"][e.player]["lives"] -= e.amount


def _stat(state: State, e: StatChanged) -> None:
    state["players"][e.player][e.stat] += e.amount


def _skipped(state: State, e: TurnSkipped) -> None:
    sheet = state["players"][e.player]
    sheet["skips"] = max(0, sheet["skips"] - 1)


def _turn_lost(state: State, e: TurnLost) -> None:
    state["players"][e.player]["skips"] += 1


SHARED_EVOLVERS: dict[type[Event], Evolver] = {
    CardDrawn: _drawn,
    DeckReshuffled: _reshuffled,
    Moved: _moved,
    CardDiscarded: _discarded,
    ObjectTaken: _object_taken,
    FollowerJoined: _follower_joined,
    TrophyTaken: _trophy,
    TrophiesTraded: _traded,
    StatChanged: _stat,
    GoldChanged: _sheet_add("gold"),
    GoldTaken: _gold_taken,
    LifeLost: _lost,
    LifeGained: _sheet_add("lives"),
    TurnLost: _turn_lost,
    TurnSkipped: _skipped,
    PlayerOut: _out,
    GameWon: _won,
    GameEnded: _ended,
}
