"""A tiny race game used to test the core (aggregate, store, chain) apart from any real ruleset."""

from __future__ import annotations

from typing import Any

from domain.actions import HOST, START, Action
from domain.dice import Dice
from domain.errors import BadSetup
from domain.events import CharacterDealt, DieRolled, Event, GameCreated, GameWon, Moved, TurnEnded

NAME = "toy-race"
CHARACTER_SLOT = "character"
MIN_PLAYERS = 1
MAX_PLAYERS = 4
GOAL = 10


def content_hash() -> str:
    return "toy"


def canonical_setup(players: list[Any], options: dict[str, str]) -> tuple[list[Any], dict[str, str]]:
    """Returns the setup as given: this ruleset names nothing two ways."""
    return list(players), dict(options)


def validate_setup(players: list[dict[str, Any]], options: dict[str, Any]) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise BadSetup("toy-race takes 1-4 players")
    if set(options) - {"goal"}:
        raise BadSetup(f"unknown option {sorted(set(options) - {'goal'})[0]!r}")


def initial_state(created: GameCreated) -> dict[str, Any]:
    names = [p["name"] for p in created.players]
    goal = int(created.options.get("goal", GOAL))
    return {
        "order": names,
        "turn": 0,
        "pos": {n: 0 for n in names},
        "winner": "",
        "started": False,
        "goal": goal,
    }


def legal_actions(state: dict[str, Any], player: str | None = None) -> list[Action]:
    if not state["started"] or state["winner"]:
        return []
    current = state["order"][state["turn"]]
    if player not in (None, current):
        return []
    return [Action("roll", current, "Roll and move")]


def decide(state: dict[str, Any], action_id: str, player: str, dice: Dice) -> list[Event]:
    if action_id == START and player == HOST:
        return [CharacterDealt(player=n, character="toy", draw=-1) for n in state["order"]]
    (value,), draws = dice.roll(6)
    here = state["pos"][player]
    there = min(state["goal"], here + value)
    events: list[Event] = [
        DieRolled(player=player, purpose="movement", sides=6, values=[value], draws=draws),
        Moved(piece=player, board="track", from_space=here, to_space=there, reason="roll"),
    ]
    if there == state["goal"]:
        events.append(GameWon(player=player, reason="reached the goal"))
    else:
        nxt = state["order"][(state["turn"] + 1) % len(state["order"])]
        events.append(TurnEnded(player=player, next_player=nxt))
    return events


def evolve(state: dict[str, Any], event: Event) -> dict[str, Any]:
    if isinstance(event, CharacterDealt):
        state["started"] = True
    elif isinstance(event, Moved):
        state["pos"][event.piece] = event.to_space
    elif isinstance(event, TurnEnded):
        state["turn"] = state["order"].index(event.next_player)
    elif isinstance(event, GameWon):
        state["winner"] = event.player
    return state


def status(state: dict[str, Any]) -> dict[str, Any]:
    if state["winner"]:
        return {"status": "finished", "winner": state["winner"], "to_act": []}
    return {"status": "running", "winner": "", "to_act": [state["order"][state["turn"]]]}
