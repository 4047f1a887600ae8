"""Turn order in every short Talisman game: who plays next, lost turns, and the end with nobody left."""

from __future__ import annotations

from domain.events import GameEnded, TurnEnded
from domain.rulesets.talisman.character import PLAYING
from domain.rulesets.talisman.effects import is_over, sheet_of
from domain.rulesets.talisman.events import TurnSkipped
from domain.rulesets.talisman.resolution import Resolution
from domain.rulesets.talisman.state import State


def next_in_play(state: State, player: str) -> str:
    """Returns the next player in seating order still in the race (possibly `player` itself)."""
    order: list[str] = state["order"]
    start = order.index(player)
    for step in range(1, len(order) + 1):
        name = order[(start + step) % len(order)]
        if state["players"][name]["status"] == PLAYING:
            return name
    return ""


def end_turn(res: Resolution, player: str) -> None:
    """Passes the turn on, skipping lost turns; ends the game with no winner when everyone is out."""
    if is_over(res):
        return
    following = next_in_play(res.state, player)
    if not following:
        res.emit(GameEnded(winner="", reason="every character is out"))
        return
    res.emit(TurnEnded(player=player, next_player=following))
    while sheet_of(res, following)["skips"] > 0:
        res.emit(TurnSkipped(player=following))
        after = next_in_play(res.state, following)
        res.emit(TurnEnded(player=following, next_player=after))
        following = after
