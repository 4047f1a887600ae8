"""Pending choices: a decision the rules give a player is offered in state, and the turn waits on it
(`choose:<option>` actions; bots pick among them like any action)."""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.keep.events import ChoiceOffered
from domain.rulesets.talisman.main.context import state_of
from domain.rulesets.talisman.main.state import MainState

CHOOSE = "choose:"


def offer(res: Resolution, player: str, kind: str, options: list[str]) -> None:
    """Offers the player a choice among `options` (a kind such as `buy` or `service:village`)."""
    if options:
        res.emit(ChoiceOffered(player=player, kind=kind, options=list(options)))


def pending(state: MainState) -> bool:
    """Tells whether a choice waits to be made."""
    return state["choice"] is not None


def waiting(res: Resolution) -> bool:
    """Tells whether the working state waits on a choice."""
    return pending(state_of(res))
