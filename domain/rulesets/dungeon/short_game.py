"""The Short Play Dungeon Game (Dungeon 14), registered as `dungeon-short`: the `DungeonShort` ruleset.

2-6 characters start on the Entrance of the house Dungeon board; the first to reach the Treasure
Chamber wins; a killed character, or one who flees out of the Dungeon, is out; if everyone is out
nobody wins. The Tunnel (Dungeon 8.3) is removed from the deck. Turn rules are in `turns`, space
encounters in `encounters`, the state shape in `state`.

Action ids: `roll`, `flee`, `encounter-space`, `attack:<player>` (and the host's `start`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from domain.actions import Action
from domain.events import GameCreated
from domain.field_types import Seat
from domain.resolution import Resolution
from domain.rulesets.base import GameStatus
from domain.rulesets.dungeon import turns
from domain.rulesets.dungeon.content import content_paths, load_board, load_deck
from domain.rulesets.dungeon.effects import DungeonBoard, board_hooks
from domain.rulesets.dungeon.state import EVOLVERS, DungeonSheet, DungeonState, evolve, new_state, sheet_in
from domain.rulesets.talisman.characters import (
    canonical_seats,
    characters_path,
    load_characters,
)
from domain.rulesets.talisman.hooks import WinOnArrival
from domain.rulesets.talisman.state import STATE_VERSION
from domain.rulesets.talisman.turns import TalismanRace, deal_characters, race_status

FLEE_WEIGHT = 0.02  # bots flee rarely, so bot games usually end with a winner


def _roll_label(sheet: DungeonSheet) -> str:
    if sheet["fleeing"]:
        return "Roll and flee toward the Entrance"
    if sheet["defeated"]:
        return "Roll and move back toward the Entrance (defeated last turn)"
    return "Roll and move toward the Treasure Chamber"


def _legal_actions(state: DungeonState, player: str | None) -> list[Action]:
    if state["phase"] != "turn":
        return []
    current = state["turn"]
    if player not in (None, current):
        return []
    sheet = sheet_in(state, current)
    if state["moved"]:
        space_name = load_board().spaces[sheet["space"]].name
        actions = [Action("encounter-space", current, f"Encounter the {space_name}")]
        actions += [Action(f"attack:{o}", current, f"Attack {o}") for o in turns.others_here(state, current)]
        return actions
    actions = [Action("roll", current, _roll_label(sheet))]
    if sheet["space"] > 0 and not sheet["fleeing"]:
        # Dungeon 9.1: fleeing may be declared any time after leaving the Entrance.
        actions.append(Action("flee", current, "Flee the Dungeon (irrevocable)"))
    return actions


def _is_legal(state: DungeonState, player: str, action_id: str) -> bool:
    if state["phase"] != "turn" or player != state["turn"]:
        return False
    if state["moved"]:
        if action_id.startswith("attack:"):
            return action_id.removeprefix("attack:") in turns.others_here(state, player)
        return action_id == "encounter-space"
    if action_id == "flee":
        sheet = sheet_in(state, player)
        return sheet["space"] > 0 and not sheet["fleeing"]
    return action_id == "roll"


# The actions that move on or meet the board, by id (given the board's hooks).
_ON_BOARD: dict[str, Callable[[Resolution, str, DungeonBoard], None]] = {
    "roll": turns.roll,
    "encounter-space": turns.encounter,
}


class DungeonShort(TalismanRace[DungeonState]):
    """The short Dungeon game: a race from the Entrance to the Treasure Chamber (Dungeon 14)."""

    name = "dungeon-short"
    summary = "The short Dungeon game: the first character to reach the Treasure Chamber wins."
    min_players = 2
    max_players = 6
    handlers = EVOLVERS
    # Dungeon 14: reaching the Treasure Chamber first wins the short game.
    arrival: ClassVar[WinOnArrival] = WinOnArrival("reached the Treasure Chamber")
    state_version = STATE_VERSION
    evolve = staticmethod(evolve)

    def content_paths(self) -> list[Path]:
        """Returns the characters, the board and the deck this game is played with."""
        return [characters_path(), *content_paths()]

    def load_content(self) -> None:
        """Loads (and so checks) the characters, the board and the deck."""
        load_characters(), load_board(), load_deck()

    def canonical_setup(
        self, players: list[Seat], options: dict[str, str]
    ) -> tuple[list[Seat], dict[str, str]]:
        """Returns the setup as the game records it: each character asked for as its full id, every
        option (it takes none)."""
        return canonical_seats(players), self.record_options(options)

    def initial_state(self, created: GameCreated) -> DungeonState:
        """Returns the state right after GameCreated (nothing dealt, the Tunnel out of the deck)."""
        board = load_board()
        # Dungeon 14 plays without the main board, so the Tunnel (Dungeon 8.3) has nowhere to lead.
        deck = [c.id for c in load_deck().cards.values() if not c.leaves_board]
        return new_state(created, len(board.spaces), deck)

    def legal_actions(self, state: DungeonState, player: str | None = None) -> list[Action]:
        """Returns the actions open now: roll/flee before moving, or the encounter choice after landing."""
        return _legal_actions(state, player)

    def is_legal(self, state: DungeonState, player: str, action_id: str) -> bool:
        """Tells whether `action_id` is among legal_actions(state, player), without labelling any (an
        audit asks once per action); a game in its turn phase is not finished."""
        return _is_legal(state, player, action_id)

    def start(self, res: Resolution) -> None:
        """Deals characters (house rule H1.11) and opens play."""
        deal_characters(res)

    def resolve(self, res: Resolution, action_id: str, player: str) -> None:
        """Resolves a roll, a flight, an encounter or an attack on another character."""
        if action_id.startswith("attack:"):
            turns.attack(res, player, action_id.removeprefix("attack:"))
        elif action_id == "flee":
            turns.flee(res, player)
        else:
            _ON_BOARD[action_id](res, player, self.board())

    def board(self) -> DungeonBoard:
        """Returns the Dungeon board's hooks, with this game's ending installed on the Treasure Chamber."""
        return board_hooks(load_board(), self.arrival)

    def status(self, state: DungeonState) -> GameStatus:
        """Returns running/finished, the winner ("" for none) and who is to act."""
        return race_status(state)

    def bot_weight(self, state: DungeonState, action: Action) -> float:
        """Returns how likely a bot is to pick an action: fleeing is rare, attacks a little less likely."""
        if action.id == "flee":
            return FLEE_WEIGHT
        if action.id.startswith("attack:"):
            return 0.5
        return 1.0
