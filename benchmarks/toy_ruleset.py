"""A tiny race game that tests the core (aggregate, store, chain) apart from any real ruleset, and that
the benchmarks' long-game ruleset (`marathon_ruleset.py`) grows from.

It lives here, shipped nowhere, so that tests (tests/conftest.py registers it as `toy-race`) and
benchmarks import one copy and no benchmark imports the tests."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domain.actions import Action
from domain.errors import BadSetup
from domain.events import CharacterDealt, DieRolled, Event, GameCreated, GameWon, Moved, TurnEnded
from domain.resolution import Resolution
from domain.rulesets.base import Ruleset

GOAL = 10


class ToyRace(Ruleset):
    """A race to the goal space on a track, one die a turn."""

    name = "toy-race"
    character = "toy"  # what every player is dealt at the start
    min_players = 1
    max_players = 4
    # tests/domain/test_hidden.py records a private event beside these rules: a sealed copy cannot be
    # re-decided.
    redecides_sealed = False

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """Takes only `goal`, any whole number of spaces."""
        if set(options) - {"goal"}:
            raise BadSetup(f"unknown option {sorted(set(options) - {'goal'})[0]!r}")

    def content_paths(self) -> list[Path]:
        return []

    def content_hash(self) -> str:
        return "toy"

    def validate_setup(self, players: list[dict[str, Any]], options: Mapping[str, Any]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise BadSetup(f"{self.name} takes {self.min_players}-{self.max_players} players")
        self.check_options(options)

    def initial_state(self, created: GameCreated) -> dict[str, Any]:
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

    def is_in_setup(self, state: dict[str, Any]) -> bool:
        return not state["started"]

    def legal_actions(self, state: dict[str, Any], player: str | None = None) -> list[Action]:
        if not state["started"] or state["winner"]:
            return []
        current = state["order"][state["turn"]]
        if player not in (None, current):
            return []
        return [Action("roll", current, "Roll and move")]

    def start(self, res: Resolution) -> None:
        res.emit(*(CharacterDealt(player=n, character=self.character, draw=-1) for n in res.state["order"]))

    def resolve(self, res: Resolution, action_id: str, player: str) -> None:
        state = res.state
        (value,), draws = res.dice.roll(6)
        here = state["pos"][player]
        there = min(state["goal"], here + value)
        res.emit(
            DieRolled(player=player, purpose="movement", sides=6, values=[value], draws=draws),
            Moved(piece=player, board="track", from_space=here, to_space=there, reason="roll"),
        )
        if there == state["goal"]:
            res.emit(GameWon(player=player, reason="reached the goal"))
        else:
            nxt = state["order"][(state["turn"] + 1) % len(state["order"])]
            res.emit(TurnEnded(player=player, next_player=nxt))

    def evolve(self, state: dict[str, Any], event: Event) -> dict[str, Any]:
        if isinstance(event, CharacterDealt):
            state["started"] = True
        elif isinstance(event, Moved):
            state["pos"][event.piece] = event.to_space
        elif isinstance(event, TurnEnded):
            state["turn"] = state["order"].index(event.next_player)
        elif isinstance(event, GameWon):
            state["winner"] = event.player
        return state

    def status(self, state: dict[str, Any]) -> dict[str, Any]:
        if state["winner"]:
            return {"status": "finished", "winner": state["winner"], "to_act": []}
        return {"status": "running", "winner": "", "to_act": [state["order"][state["turn"]]]}
