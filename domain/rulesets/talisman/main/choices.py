"""Pending choices: a decision the rules give a player is offered in state, and the turn waits on it
(`choose:<option>` actions; bots pick among them like any action)."""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.keep.events import ChoiceOffered
from domain.rulesets.talisman.main.context import MainContext, state_of
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


def option_label(ctx: MainContext, kind: str, option: str) -> str:
    """Returns a choice's option in words (a service's or a card's name, a space's name…)."""
    head, _, arg = kind.partition(":")
    if option == "leave":
        return "Leave"
    if head == "service":
        table = ctx.table(arg)
        service = next((s for s in table.services if s.id == option), None)
        return f"Go to the {service.name}" if service else f"Roll on the {table.name} table"
    if head == "teleport":
        board, space = ctx.position(option)
        return f"Go to the {ctx.space(board, space).name} ({board} {space})"
    if head == "black-knight":
        return "Pay the Black Knight's toll" if option == "pay" else "Fight the Black Knight"
    if head == "alignment":
        return f"Become {option}"
    if option == "life":
        return "Lose a life"
    verb = {"buy": "Buy", "sell": "Sell"}.get(head, "Give up")
    return f"{verb} the {ctx.card_name(option)}"
