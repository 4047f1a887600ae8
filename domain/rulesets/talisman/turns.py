"""What every short Talisman game shares about turns: the deal, turn order, lost turns, the end with
nobody left, and the status the service asks for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.actions import HOST
from domain.events import CharacterDealt, GameEnded, TurnEnded
from domain.resolution import Resolution
from domain.rulesets.base import GameStatus, Ruleset, S
from domain.rulesets.talisman.character import PLAYING
from domain.rulesets.talisman.characters import (
    character_choices,
    check_seats,
    load_characters,
    resolve_character,
)
from domain.rulesets.talisman.effects import is_over, sheet_of, state_of
from domain.rulesets.talisman.events import PlayOpened, TurnSkipped
from domain.rulesets.talisman.shapes import TalismanState


def next_in_play(state: TalismanState, player: str, way: int = 1) -> str:
    """Returns the next player in seating order still in the race (possibly `player` itself); `way=-1`
    looks the other way round the table (the player on the right, turns passing to the left)."""
    order = state["order"]
    start = order.index(player)
    for step in range(1, len(order) + 1):
        name = order[(start + way * step) % len(order)]
        if state["players"][name]["status"] == PLAYING:
            return name
    return ""


def end_turn(res: Resolution, player: str, ended: Callable[[], bool] | None = None) -> None:
    """Passes the turn on, skipping lost turns; ends the game with no winner when everyone is out.
    `ended`, asked after each turn passed, ends the passing when it says the game is over."""
    if is_over(res):
        return
    following = next_in_play(state_of(res), player)
    if not following:
        res.emit(GameEnded(winner="", reason="every character is out"))
        return
    res.emit(TurnEnded(player=player, next_player=following))
    while sheet_of(res, following)["skips"] > 0 and not (ended is not None and ended()):
        res.emit(TurnSkipped(player=following))
        after = next_in_play(state_of(res), following)
        res.emit(TurnEnded(player=following, next_player=after))
        following = after


def deal_characters(res: Resolution) -> None:
    """Deals characters (named ones with draw -1, the others at random among those left) and opens play."""
    state = state_of(res)
    requested = {name: resolve_character(c) if c else "" for name, c in state["requested"].items()}
    taken = {c for c in requested.values() if c}
    for name in state["order"]:
        if requested[name]:
            res.emit(CharacterDealt(player=name, character=requested[name], draw=-1))
            continue
        # house rule H1.11: a player without a character is dealt one at random, as at the table.
        character, draw = res.dice.pick(sorted(set(load_characters()) - taken))
        taken.add(character)
        res.emit(CharacterDealt(player=name, character=character, draw=draw))
    res.emit(PlayOpened(player=state["order"][0]))


def race_status(state: TalismanState) -> GameStatus:
    """Returns running/finished, the winner ("" for none) and who is to act (the host before the deal)."""
    if state["phase"] == "over":
        return {"status": "finished", "winner": state["winner"], "to_act": []}
    if state["phase"] == "setup":
        return {"status": "running", "winner": "", "to_act": [HOST]}
    return {"status": "running", "winner": "", "to_act": [state["turn"]]}


class TalismanRace(Ruleset[S]):
    """A Talisman-family game: its seats name Talisman characters, checked before its content loads."""

    def character_choices(self) -> list[tuple[str, str]]:
        """Returns the characters `--player NAME:CHARACTER` may name."""
        return character_choices()

    def validate_setup(self, players: list[dict[str, Any]], options: Mapping[str, Any]) -> None:
        """Raises BadSetup/UnknownCharacter for an unplayable setup (ContentError for bad data)."""
        self.check_options(options)
        check_seats(self.name, players, self.min_players, self.max_players)
        self.load_content()

    def load_content(self) -> None:
        """Loads (and so checks) every content file the game is played with."""
        load_characters()
