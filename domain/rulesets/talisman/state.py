"""Evolving the parts of a Talisman board game's state that every board shares (house rules H1).

The state has the typed shape of `talisman.shapes`: sheets stand on (board, space), face-up cards and
gold lie per board and space, and every deck and pile is named in `piles` as the replay format's pile
ledger names it. `board_evolvers(deck)` gives the handlers of a board whose face-up cards come from
`deck`; a board's own `evolve` adds its handlers to these.
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
from domain.rulesets.talisman.shapes import Sheet, TalismanState, discard_pile

# The shapes a recorded state has had: a snapshot of another shape is passed over (event_store.loading).
STATE_VERSION = 2  # 2: positions (board, space), cards and gold per board, named piles

Evolver = Callable[[TalismanState, Any], None]


def lying(state: TalismanState, sheet: Sheet) -> list[str]:
    """Returns the face-up cards of the space a sheet stands on."""
    return state["cards"][sheet["board"]][sheet["space"]]


def _drawn(state: TalismanState, e: CardDrawn) -> None:
    pile = state["piles"][e.deck]
    if e.card in pile:
        pile.remove(e.card)
    lying(state, state["players"][e.player]).append(e.card)


def _reshuffled(state: TalismanState, e: DeckReshuffled) -> None:
    piles, discard = state["piles"], discard_pile(e.deck)
    piles[e.deck] = sorted(piles[e.deck] + piles[discard])
    piles[discard] = []


def _off_space(state: TalismanState, player: str, space: int, card: str) -> None:
    cards = state["cards"][state["players"][player]["board"]][space]
    if card in cards:
        cards.remove(card)


def _moved(state: TalismanState, e: Moved) -> None:
    sheet = state["players"][e.piece]
    sheet["board"] = e.board
    sheet["space"] = e.to_space


def _won(state: TalismanState, e: GameWon) -> None:
    state["winner"] = e.player
    state["phase"] = "over"
    state["players"][e.player]["status"] = WINNER


def _ended(state: TalismanState, e: GameEnded) -> None:
    state["winner"] = e.winner
    state["phase"] = "over"


def _gold_taken(state: TalismanState, e: GoldTaken) -> None:
    sheet = state["players"][e.player]
    state["gold"][sheet["board"]][e.space] -= e.amount
    sheet["gold"] += e.amount


def _gold_changed(state: TalismanState, e: GoldChanged) -> None:
    state["players"][e.player]["gold"] += e.amount


def _life_lost(state: TalismanState, e: LifeLost) -> None:
    state["players"][e.player]["lives"] -= e.amount


def _life_gained(state: TalismanState, e: LifeGained) -> None:
    state["players"][e.player]["lives"] += e.amount


def _turn_lost(state: TalismanState, e: TurnLost) -> None:
    state["players"][e.player]["skips"] += 1


def add_to_stat(sheet: Sheet, stat: str, amount: int) -> None:
    """Adds to a sheet's Strength or Craft (the two stats events change)."""
    if stat == "strength":
        sheet["strength"] += amount
    elif stat == "craft":
        sheet["craft"] += amount
    else:
        raise KeyError(stat)


def _stat(state: TalismanState, e: StatChanged) -> None:
    add_to_stat(state["players"][e.player], e.stat, e.amount)


def _skipped(state: TalismanState, e: TurnSkipped) -> None:
    sheet = state["players"][e.player]
    sheet["skips"] = max(0, sheet["skips"] - 1)


def _object_taken(state: TalismanState, e: ObjectTaken) -> None:
    _off_space(state, e.player, e.space, e.card)
    state["players"][e.player]["objects"].append(e.card)


def _follower_joined(state: TalismanState, e: FollowerJoined) -> None:
    _off_space(state, e.player, e.space, e.card)
    state["players"][e.player]["followers"].append(e.card)


def _trophy(state: TalismanState, e: TrophyTaken) -> None:
    _off_space(state, e.player, e.space, e.card)
    state["players"][e.player]["trophies"].append(e.card)


def board_evolvers(deck: str) -> dict[type[Event], Evolver]:
    """Returns the shared handlers for a board whose face-up cards come from `deck` (and are discarded
    to its discard pile)."""
    discard = discard_pile(deck)

    def discarded(state: TalismanState, e: CardDiscarded) -> None:
        _off_space(state, e.player, e.space, e.card)
        state["piles"][discard].append(e.card)

    def traded(state: TalismanState, e: TrophiesTraded) -> None:
        sheet = state["players"][e.player]
        for card in e.cards:
            if card in sheet["trophies"]:
                sheet["trophies"].remove(card)
        state["piles"][discard].extend(e.cards)
        add_to_stat(sheet, e.stat, e.amount)

    def out(state: TalismanState, e: PlayerOut) -> None:
        sheet = state["players"][e.player]
        sheet["status"] = OUT
        if sheet["lives"] <= 0:
            # house rule H1.7: a killed character's Objects, Followers and Gold stay on its space.
            lying(state, sheet).extend(sheet["objects"] + sheet["followers"])
            state["gold"][sheet["board"]][sheet["space"]] += sheet["gold"]
            state["piles"][discard].extend(sheet["trophies"])
            sheet["objects"], sheet["followers"], sheet["trophies"], sheet["gold"] = [], [], [], 0

    return {
        CardDrawn: _drawn,
        DeckReshuffled: _reshuffled,
        Moved: _moved,
        CardDiscarded: discarded,
        ObjectTaken: _object_taken,
        FollowerJoined: _follower_joined,
        TrophyTaken: _trophy,
        TrophiesTraded: traded,
        StatChanged: _stat,
        GoldChanged: _gold_changed,
        GoldTaken: _gold_taken,
        LifeLost: _life_lost,
        LifeGained: _life_gained,
        TurnLost: _turn_lost,
        TurnSkipped: _skipped,
        PlayerOut: out,
        GameWon: _won,
        GameEnded: _ended,
    }
