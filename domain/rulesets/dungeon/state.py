"""The Dungeon short game's state and `evolve`: one cheap handler per event type, no validation.

The state is the typed Talisman shape (`talisman.shapes`) on the one board `dungeon`: face-up cards
`cards["dungeon"][space]`, gold `gold["dungeon"][space]`, the deck `piles["dungeon"]` (kept sorted, a
lazy shuffle) and its discard pile `piles["discard:dungeon"]`. The Dungeon adds `last` (the Treasure
Chamber's index) and `moved` (whether the player on turn has rolled: a moved player still on turn is
choosing whom to encounter); a sheet adds `fleeing` and `defeated` (must move back next turn, Dungeon 7.3).
"""

from __future__ import annotations

from domain.events import (
    CharacterDealt,
    CombatResolved,
    DieRolled,
    Event,
    GameCreated,
    TurnEnded,
)
from domain.resolution import Resolution
from domain.rulesets.base import Evolver
from domain.rulesets.talisman.character import new_sheet
from domain.rulesets.talisman.characters import character_or_stand_in
from domain.rulesets.talisman.events import FleeingDeclared, PlayOpened
from domain.rulesets.talisman.shapes import Sheet, TalismanState, discard_pile
from domain.rulesets.talisman.state import board_evolvers

BOARD = DECK = "dungeon"


class DungeonSheet(Sheet):
    """A Dungeon character's sheet: the Talisman sheet, fleeing, and defeated (moves back next turn)."""

    fleeing: bool
    defeated: bool


class DungeonState(TalismanState):
    """The Dungeon short game's state: the Talisman state (its sheets are DungeonSheets: read them with
    `sheet_in`), the Treasure Chamber's index, whether the player on turn has moved."""

    last: int
    moved: bool


def new_state(created: GameCreated, spaces: int, deck: list[str]) -> DungeonState:
    """Returns the state right after GameCreated: everyone waiting on the Entrance, the deck unshuffled."""
    return {
        "order": [p["name"] for p in created.players],
        "requested": {p["name"]: p.get("character", "") or "" for p in created.players},
        "last": spaces - 1,
        "players": {},
        "turn": "",
        "phase": "setup",
        "moved": False,
        "cards": {BOARD: [[] for _ in range(spaces)]},
        "gold": {BOARD: [0] * spaces},
        "piles": {DECK: sorted(deck), discard_pile(DECK): []},
        "winner": "",
    }


def dungeon_state(res: Resolution) -> DungeonState:
    """Returns the working state of a Dungeon resolution, typed."""
    state: DungeonState = res.state  # annotated, not typing.cast: no call on every rule step
    return state


def sheet_in(state: TalismanState, player: str) -> DungeonSheet:
    """Returns a player's Dungeon sheet."""
    sheet: DungeonSheet = state["players"][player]  # type: ignore[assignment]  # (a Dungeon game's sheet)
    return sheet


def dungeon_sheet(res: Resolution, player: str) -> DungeonSheet:
    """Returns a player's Dungeon sheet in the working state."""
    sheet: DungeonSheet = res.state["players"][player]
    return sheet


def _dealt(state: DungeonState, e: CharacterDealt) -> None:
    sheet: DungeonSheet = {
        **new_sheet(character_or_stand_in(e.character), BOARD, 0),
        "fleeing": False,
        "defeated": False,
    }
    state["players"][e.player] = sheet


def _opened(state: DungeonState, e: PlayOpened) -> None:
    state["turn"] = e.player
    state["phase"] = "turn"
    state["moved"] = False


def _rolled(state: DungeonState, e: DieRolled) -> None:
    if e.purpose == "movement":
        # Dungeon 7.3: the move back after a defeat is made on the next turn only.
        sheet_in(state, e.player)["defeated"] = False
        state["moved"] = True


def _combat(state: DungeonState, e: CombatResolved) -> None:
    players = state["players"]
    # Dungeon 7.3: whoever loses a combat (character or enemy's victim) is defeated.
    if e.outcome == "lost" and e.player in players:
        sheet_in(state, e.player)["defeated"] = True
    elif e.outcome == "won" and e.opponent in players:
        sheet_in(state, e.opponent)["defeated"] = True


def _fleeing(state: DungeonState, e: FleeingDeclared) -> None:
    sheet_in(state, e.player)["fleeing"] = True


def _turn_ended(state: DungeonState, e: TurnEnded) -> None:
    state["turn"] = e.next_player
    state["moved"] = False


# What `evolve` looks up; a Resolution is handed it too (see domain.resolution).
EVOLVERS: dict[type[Event], Evolver] = {
    **board_evolvers(DECK),
    CharacterDealt: _dealt,
    PlayOpened: _opened,
    DieRolled: _rolled,
    FleeingDeclared: _fleeing,
    CombatResolved: _combat,
    TurnEnded: _turn_ended,
}


def evolve(state: DungeonState, event: Event) -> DungeonState:
    """Applies one recorded event to the state in place and returns it; other events are facts only."""
    # One lookup, no helper call: every fold and every re-decided consequence comes here.
    apply = EVOLVERS.get(type(event))
    if apply is not None:
        apply(state, event)
    return state
