"""The Short Play Dungeon Game (Dungeon 14), registered as `dungeon-short`: the decider module.

2-6 characters start on the Entrance of the house Dungeon board; the first to reach the Treasure
Chamber wins; a killed character, or one who flees out of the Dungeon, is out; if everyone is out
nobody wins. The Tunnel (Dungeon 8.3) is removed from the deck. Turn rules are in `turns`, space
encounters in `encounters`, the state shape in `state`.

Action ids: `roll`, `flee`, `encounter-space`, `attack:<player>` (and the host's `start`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from domain.actions import HOST, START, Action
from domain.content import content_hash as hash_files
from domain.dice import Dice
from domain.errors import BadSetup, IllegalAction
from domain.events import Event, GameCreated
from domain.field_types import Seat
from domain.resolution import Resolution
from domain.rulesets.base import State
from domain.rulesets.dungeon import turns
from domain.rulesets.dungeon.content import content_paths, load_board, load_deck
from domain.rulesets.dungeon.state import EVOLVERS, DungeonSheet, DungeonState, evolve, new_state, sheet_in
from domain.rulesets.talisman.characters import (
    canonical_seats,
    characters_path,
    check_seats,
    load_characters,
)
from domain.rulesets.talisman.characters import (
    character_choices as character_choices,
)
from domain.rulesets.talisman.state import STATE_VERSION
from domain.rulesets.talisman.turns import race_status

NAME = "dungeon-short"
CHARACTER_SLOT = "character"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
# `character_choices()` (imported above) lists what `--player NAME:CHARACTER` may name.
SUMMARY = "The short Dungeon game: the first character to reach the Treasure Chamber wins."
FLEE_WEIGHT = 0.02  # bots flee rarely, so bot games usually end with a winner
state_version = STATE_VERSION  # the shape of the state snapshots hold (event_store.loading)


def content_hash() -> str:
    """Returns the sha256 of the content this game is played with (characters, board, deck)."""
    return hash_files([characters_path(), *content_paths()])


def validate_setup(players: list[dict[str, Any]], options: dict[str, Any]) -> None:
    """Raises BadSetup/UnknownCharacter for an unplayable setup (ContentError for bad data)."""
    if options:
        raise BadSetup(f"{NAME} takes no options (got {', '.join(sorted(options))})")
    check_seats(NAME, players, MIN_PLAYERS, MAX_PLAYERS)
    load_characters(), load_board(), load_deck()


def canonical_setup(players: list[Seat], options: dict[str, str]) -> tuple[list[Seat], dict[str, str]]:
    """Returns the setup as the game records it: each character asked for as its full id (no options)."""
    return canonical_seats(players), dict(options)


def initial_state(created: GameCreated) -> State:
    """Returns the state right after GameCreated (characters not dealt yet, the Tunnel out of the deck)."""
    board = load_board()
    # Dungeon 14 plays without the main board, so the Tunnel (8.3) has nowhere to lead.
    deck = [c.id for c in load_deck().cards.values() if not c.leaves_board]
    return cast(State, new_state(created, len(board.spaces), deck))


def _roll_label(sheet: DungeonSheet) -> str:
    if sheet["fleeing"]:
        return "Roll and flee toward the Entrance"
    if sheet["defeated"]:
        return "Roll and move back toward the Entrance (defeated last turn)"
    return "Roll and move toward the Treasure Chamber"


def legal_actions(state: State, player: str | None = None) -> list[Action]:
    """Returns the actions open now: roll/flee before moving, or the encounter choice after landing."""
    return _legal_actions(cast(DungeonState, state), player)


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


def is_legal(state: State, player: str, action_id: str) -> bool:
    """Tells whether `action_id` is among legal_actions(state, player), without labelling any (an audit
    asks once per action); a game in its turn phase is not finished."""
    return _is_legal(cast(DungeonState, state), player, action_id)


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


_HANDLERS: dict[str, Callable[[Resolution, str], None]] = {
    "roll": turns.roll,
    "flee": turns.flee,
    "encounter-space": turns.encounter,
}


def decide(state: State, action_id: str, player: str, dice: Dice) -> list[Event]:
    """Returns the events an action causes; never mutates `state`."""
    return _decide(state, action_id, player, dice, in_place=False)


def decide_in_place(state: State, action_id: str, player: str, dice: Dice) -> list[Event]:
    """Like decide, for an auditor that has checked the action is legal: evolves `state` itself through
    the returned events (the audit adopts it)."""
    return _decide(state, action_id, player, dice, in_place=True)


def _decide(state: State, action_id: str, player: str, dice: Dice, in_place: bool) -> list[Event]:
    if action_id == START:
        if player != HOST or state["phase"] != "setup":
            raise IllegalAction("only the host starts a game, once")
        return turns.deal(state, dice, in_place)
    # In place, the auditor has checked legality (game.check_legal) already: once per action is enough.
    if not in_place and (
        player not in state["players"] or action_id not in {a.id for a in legal_actions(state, player)}
    ):
        raise IllegalAction(f"{action_id!r} is not a legal action for {player} now")
    res = Resolution(state, dice, evolve, in_place, EVOLVERS)
    if action_id.startswith("attack:"):
        turns.attack(res, player, action_id.removeprefix("attack:"))
    else:
        _HANDLERS[action_id](res, player)
    return res.events


def status(state: State) -> dict[str, Any]:
    """Returns running/finished, the winner ("" for none) and who is to act."""
    return race_status(cast(DungeonState, state))


def bot_weight(state: State, action: Action) -> float:
    """Returns how likely a bot is to pick an action: fleeing is rare, attacks a little less likely."""
    if action.id == "flee":
        return FLEE_WEIGHT
    if action.id.startswith("attack:"):
        return 0.5
    return 1.0
