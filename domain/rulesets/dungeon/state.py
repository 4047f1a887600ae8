"""The Dungeon short game's state and `evolve`: one cheap handler per event type, no validation.

State (a plain dict, msgpack-native, str keys):
- `order` seat names; `requested` name → character asked for ("" = deal one); `last` Treasure Chamber index;
- `players` name → sheet (Talisman sheet plus `space`, `status` playing/out/winner, `fleeing`,
  `defeated` (must move back next turn, Dungeon 7.3), `skips` (turns still to miss));
- `turn` whose turn it is; `phase` setup/turn/over; `moved` whether the player has rolled this turn
  (a moved player still on turn is choosing whom to encounter);
- `spaces` face-up cards per space index; `space_gold` gold lying on each space;
- `deck` the cards left to draw (kept sorted, a lazy shuffle); `discard`; `winner`.
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
from domain.rulesets.talisman.character import PLAYING, new_sheet
from domain.rulesets.talisman.characters import character_or_stand_in
from domain.rulesets.talisman.events import FleeingDeclared, PlayOpened
from domain.rulesets.talisman.state import SHARED_EVOLVERS, Evolver, State, sheet_set


def new_state(created: GameCreated, spaces: int, deck: list[str]) -> State:
    """Returns the state right after GameCreated: everyone waiting on the Entrance, the deck unshuffled."""
    return {
        "order": [p["name"] for p in created.players],
        "requested": {p["name"]: p.get("character", "") or "" for p in created.players},
        "last": spaces - 1,
        "players": {},
        "turn": "",
        "phase": "setup",
        "moved": False,
        "spaces": [[] for _ in range(spaces)],
        "space_gold": [0] * spaces,
        "deck": sorted(deck),
        "discard": [],
        "winner": "",
    }


def _dealt(state: State, e: CharacterDealt) -> None:
    sheet = new_sheet(character_or_stand_in(e.character))
    sheet.update(space=0, status=PLAYING, fleeing=False, defeated=False, skips=0)
    state["players"][e.player] = sheet


def _opened(state: State, e: PlayOpened) -> None:
    state["turn"] = e.player
    state["phase"] = "turn"
    state["moved"] = False


def _rolled(state: State, e: DieRolled) -> None:
    if e.purpose == "movement":
        # Dungeon 7.3: the move back after a defeat is made on the next turn only.
        state["players"][e.player]["defeated"] = False
        state["moved"] = True


def _combat(state: State, e: CombatResolved) -> None:
    players = state["players"]
    # Dungeon 7.3: whoever loses a combat (character or enemy's victim) is defeated.
    if e.outcome == "lost" and e.player in players:
        players[e.player]["defeated"] = True
    elif e.outcome == "won" and e.opponent in players:
        players[e.opponent]["defeated"] = True


def _turn_ended(state: State, e: TurnEnded) -> None:
    state["turn"] = e.next_player
    state["moved"] = False


# What `evolve` looks up; a Resolution is handed it too (see domain.resolution).
EVOLVERS: dict[type[Event], Evolver] = {
    **SHARED_EVOLVERS,
    CharacterDealt: _dealt,
    PlayOpened: _opened,
    DieRolled: _rolled,
    FleeingDeclared: sheet_set("fleeing", True),
    CombatResolved: _combat,
    TurnEnded: _turn_ended,
}


def evolve(state: State, event: Event) -> State:
    """Applies one recorded event to the state in place and returns it; other events are facts only."""
    # One lookup, no helper call: every fold and every re-decided consequence comes here.
    apply = EVOLVERS.get(type(event))
    if apply is not None:
        apply(state, event)
    return state
