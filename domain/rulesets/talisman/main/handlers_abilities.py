"""Evolve steps of the abilities', Spells' and character-against-character events (merged into the
main board's `handlers`); one cheap step per event type, no checks."""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import Any

from domain.events import Event
from domain.rulesets.talisman.main.events_abilities import (
    CardDestroyed,
    CardDisplaced,
    CardReturned,
    EffectReadied,
    EffectSpent,
    EffectWasted,
    EnemyDestroyed,
    EnemyEvaded,
    FollowerTaken,
    GoldStolen,
    SpellInvoked,
    SpellLaid,
    SpellTaken,
    SpoilsTaken,
)
from domain.rulesets.talisman.main.state import BEGUN, SPELLS, START, MainSheet, MainState, Ready
from domain.rulesets.talisman.shapes import discard_pile


def _take(cards: list[str], card: str) -> None:
    if card in cards:
        cards.remove(card)


def _cast(state: MainState, e: SpellInvoked) -> None:
    _take(state["players"][e.player]["spells"], e.spell)
    state["piles"][discard_pile(SPELLS)].append(e.spell)
    if state["step"] == START:
        state["step"] = BEGUN  # the start-of-turn abilities have run; the turn goes on


def _readied(state: MainState, e: EffectReadied) -> None:
    ready: Ready = {
        "name": e.name,
        "effect": e.effect,
        "amount": e.amount,
        "when": e.when,
        "lasting": e.lasting,
    }
    state["players"][e.player]["ready"].append(ready)


def _spent(state: MainState, e: EffectSpent | EffectWasted) -> None:
    ready = state["players"][e.player]["ready"]
    found = next((r for r in ready if r["name"] == e.name and r["effect"] == e.effect), None)
    if found is not None:
        ready.remove(found)


def _evaded(state: MainState, e: EnemyEvaded) -> None:
    state["players"][e.player]["evaded"].append(e.card)


def _destroyed(state: MainState, e: EnemyDestroyed) -> None:
    sheet = state["players"][e.player]
    _take(state["cards"][sheet["board"]][e.space], e.card)
    state["piles"][discard_pile("adventure")].append(e.card)


def _spoils(state: MainState, e: SpoilsTaken) -> None:
    winner, loser = state["players"][e.player], state["players"][e.loser]
    if e.spoils == "gold":
        loser["gold"] -= 1
        winner["gold"] += 1
    elif e.spoils != "life":  # a life taken is the LifeLost that follows
        _take(loser["objects"], e.spoils)
        winner["objects"].append(e.spoils)


def _stolen(state: MainState, e: GoldStolen) -> None:
    state["players"][e.victim]["gold"] -= e.amount
    state["players"][e.player]["gold"] += e.amount


def _follower(state: MainState, e: FollowerTaken) -> None:
    _take(state["players"][e.victim]["followers"], e.card)
    state["players"][e.player]["followers"].append(e.card)


def _spell_taken(state: MainState, e: SpellTaken) -> None:
    _take(state["players"][e.victim]["spells"], e.spell)
    state["players"][e.player]["spells"].append(e.spell)


def _card_destroyed(state: MainState, e: CardDestroyed) -> None:
    _take(state["cards"][e.board][e.space], e.card)
    state["piles"][discard_pile(e.deck)].append(e.card)


def _card_displaced(state: MainState, e: CardDisplaced) -> None:
    _take(state["cards"][e.board][e.from_space], e.card)
    state["cards"][e.board][e.to_space].append(e.card)


def _card_returned(state: MainState, e: CardReturned) -> None:
    _take(state["cards"][e.board][e.space], e.card)
    insort(state["piles"][e.deck], e.card)  # a pile stays sorted (a lazy shuffle)


def _spell_laid(state: MainState, e: SpellLaid) -> None:
    _take(state["piles"][discard_pile(SPELLS)], e.spell)
    state["cards"][e.board][e.space].append(e.spell)


def end_of_turn(sheet: MainSheet) -> None:
    """Clears what lasts only for the turn: evaded enemies and effects readied for this turn."""
    sheet["evaded"] = []
    sheet["ready"] = [r for r in sheet["ready"] if r["lasting"]]


ABILITY_HANDLERS: dict[type[Event], Callable[[MainState, Any], None]] = {
    SpellInvoked: _cast,
    EffectReadied: _readied,
    EffectSpent: _spent,
    EffectWasted: _spent,
    EnemyEvaded: _evaded,
    EnemyDestroyed: _destroyed,
    SpoilsTaken: _spoils,
    GoldStolen: _stolen,
    FollowerTaken: _follower,
    SpellTaken: _spell_taken,
    CardDestroyed: _card_destroyed,
    CardDisplaced: _card_displaced,
    CardReturned: _card_returned,
    SpellLaid: _spell_laid,
}
