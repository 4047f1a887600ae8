"""The Dungeon expansion's state inside the main state, and its evolve steps (run after the main board's).

A sheet carries, flat, the short game's `fleeing` and `defeated` (Dungeon 9, 7.3) and the expansion's
`dungeon_fresh` (on the Entrance, not yet moved inside since coming down: Dungeon 8.2 forbids leaving
then), `dungeon_barred` (turns left before the character may go down a Doorway again: the turn it
came out and the next, Dungeon 8.2) and `dungeon_landed` (the character landed where a way in or out
lies: a Doorway on the main board, Dungeon 5.1, or the Tunnel in the Dungeon, 8.3 — it arrived on a space
where one lay, or drew one there; a character who was already standing there when another drew it did
not land on it). Inside, the main state's `step` is `rolled` once the player has
moved: a moved player still on turn chooses what to encounter. Coming in or going out clears the
Dungeon's flags. The main board's steps send every card discarded to the Adventure discards; a Dungeon
card there is moved on to the Dungeon's own (`discard:dungeon`), so a reshuffle turns each back into
its own deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, TypedDict, cast

from domain.events import CardDrawn, CombatResolved, DieRolled, Event, Moved, TurnEnded
from domain.rulesets.base import Evolver
from domain.rulesets.dungeon.content import CARD_PREFIX, load_deck
from domain.rulesets.dungeon.main.content import ADVENTURE_FILE
from domain.rulesets.dungeon.main.events import HorseDiscarded
from domain.rulesets.dungeon.state import BOARD, DECK
from domain.rulesets.talisman.events import CardDiscarded, FleeingDeclared, FollowerLeft, TrophiesTraded
from domain.rulesets.talisman.main.content import load_adventure_extra
from domain.rulesets.talisman.main.events import CharacterDied, ItemSold, RegionCrossed
from domain.rulesets.talisman.main.events_abilities import EnemyDestroyed
from domain.rulesets.talisman.main.state import ADVENTURE, MOVEMENT, PURCHASE, deck_of
from domain.rulesets.talisman.shapes import discard_pile

FLEEING, DEFEATED, FRESH, BARRED = "fleeing", "defeated", "dungeon_fresh", "dungeon_barred"
LANDED = "dungeon_landed"
BARRED_TURNS = 2  # the turn it comes out and the next one (Dungeon 8.2)
SHEET_KEYS: Mapping[str, Any] = {FLEEING: False, DEFEATED: False, FRESH: False, BARRED: 0, LANDED: False}


@lru_cache(maxsize=4)
def _ways(adventure_file: str) -> frozenset[str]:
    # The Doorways (this game's Adventure file) and the Dungeon's cards that lead out where they lie.
    doorways = {c.id for c in load_adventure_extra(adventure_file).cards if c.effect == "doorway"}
    return frozenset(doorways | {c.id for c in load_deck().cards.values() if c.leaves_board})


def ways() -> frozenset[str]:
    """Returns the cards a character must land on to use (the Doorways 5.1, the Tunnel 8.3)."""
    return _ways(ADVENTURE_FILE)


def _arrived(state: Any, player: str, board: str, space: int) -> None:
    sheet = state["players"].get(player)
    if sheet is not None:
        sheet[LANDED] = any(card in ways() for card in state["cards"][board][space])


def _moved(state: Any, e: Moved) -> None:
    _arrived(state, e.piece, e.board, e.to_space)


def _drawn(state: Any, e: CardDrawn) -> None:
    if e.card in ways() and e.player in state["players"]:
        state["players"][e.player][LANDED] = True  # drawn onto the drawer's own space: it landed there


class DungeonFlags(TypedDict):
    """The Dungeon's keys of every character's sheet (`SHEET_KEYS`), beside the main board's `MainSheet`."""

    fleeing: bool  # FLEEING (Dungeon 9)
    defeated: bool  # DEFEATED (Dungeon 7.3)
    dungeon_fresh: bool  # FRESH: on the Entrance, not yet moved inside since coming down
    dungeon_barred: int  # BARRED: turns left before it may go down a Doorway again
    dungeon_landed: bool  # LANDED: it landed where a way in or out lies (see above)


def flags(state: Mapping[str, Any], player: str) -> DungeonFlags:
    """Returns the Dungeon's keys of a player's sheet, typed (the same dict: writes go to the sheet)."""
    return cast(DungeonFlags, state["players"][player])


def in_dungeon(state: Any, player: str) -> bool:
    """Tells whether a player's character stands on the Dungeon board."""
    sheet = state["players"].get(player)
    return sheet is not None and sheet["board"] == BOARD


def _rolled(state: Any, e: DieRolled) -> None:
    if e.purpose == MOVEMENT and in_dungeon(state, e.player):
        sheet = state["players"][e.player]
        sheet[DEFEATED] = sheet[FRESH] = False  # Dungeon 7.3: the move back is on the next turn only


def _combat(state: Any, e: CombatResolved) -> None:
    # Dungeon 7.3: whoever loses a combat in the Dungeon (a character, or another character's victim)
    # moves back on its next turn.
    loser = e.player if e.outcome == "lost" else e.opponent if e.outcome == "won" else ""
    if in_dungeon(state, loser):
        state["players"][loser][DEFEATED] = True


def _fleeing(state: Any, e: FleeingDeclared) -> None:
    if in_dungeon(state, e.player):  # (the Keep's flight is the Keep's)
        state["players"][e.player][FLEEING] = True


def _crossed(state: Any, e: RegionCrossed) -> None:
    _arrived(state, e.player, e.to_board, e.to_space)
    if BOARD not in (e.from_board, e.to_board):
        return
    sheet = state["players"][e.player]
    sheet[FLEEING] = sheet[DEFEATED] = False
    sheet[FRESH] = e.to_board == BOARD
    if e.from_board == BOARD:
        sheet[BARRED] = BARRED_TURNS


def _turn_ended(state: Any, e: TurnEnded) -> None:
    sheet = state["players"].get(e.player)
    if sheet is not None and sheet.get(BARRED):
        sheet[BARRED] -= 1


def _sort_discards(state: Any, e: Event) -> None:
    # The main board's steps discard every card to the Adventure discards; a Dungeon card goes home.
    adventure = state["piles"][discard_pile(ADVENTURE)]
    ours = [card for card in adventure if card.startswith(CARD_PREFIX)]
    if ours:
        state["piles"][discard_pile(ADVENTURE)] = [c for c in adventure if not c.startswith(CARD_PREFIX)]
        state["piles"][discard_pile(DECK)].extend(ours)


def _discarded(state: Any, e: CardDiscarded) -> None:
    # The main board's step takes the card off the space the player stands on now; a Dungeon card's
    # encounter may have moved the player back (a table's move_back) or killed it: the card leaves its own.
    lying = state["cards"][BOARD][e.space] if 0 <= e.space < len(state["cards"][BOARD]) else []
    if e.card.startswith(CARD_PREFIX) and e.card in lying:
        lying.remove(e.card)
    _sort_discards(state, e)


def _horse(state: Any, e: HorseDiscarded) -> None:
    sheet = state["players"][e.player]
    held = sheet["objects"] if e.card in sheet["objects"] else sheet["followers"]
    if e.card in held:
        held.remove(e.card)
    if e.pile == PURCHASE:
        state["piles"][PURCHASE] = sorted([*state["piles"][PURCHASE], e.card])
    else:
        deck = DECK if e.card.startswith(CARD_PREFIX) else deck_of(e.card)
        state["piles"][discard_pile(deck)].append(e.card)


def handlers() -> dict[type[Event], Evolver]:
    """Returns the expansion's evolve steps by event type."""
    steps: dict[type[Event], Evolver] = {
        DieRolled: _rolled,
        Moved: _moved,
        CardDrawn: _drawn,
        CombatResolved: _combat,
        FleeingDeclared: _fleeing,
        RegionCrossed: _crossed,
        TurnEnded: _turn_ended,
        HorseDiscarded: _horse,
        CardDiscarded: _discarded,
    }
    for kind in (CharacterDied, TrophiesTraded, ItemSold, FollowerLeft, EnemyDestroyed):
        steps[kind] = _sort_discards
    return steps
