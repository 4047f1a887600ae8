"""Pending choices: a decision the rules give a player is offered in state, and the turn waits on it
(`choose:<option>` actions; bots pick among them like any action)."""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.talisman.events import ChoiceOffered
from domain.rulesets.talisman.main import spell_labels
from domain.rulesets.talisman.main.context import MainContext, state_of
from domain.rulesets.talisman.main.places_elsewhere import place_of
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


# What a choice's option does, in words, by the kind's first part (a player must be able to follow them).
_LANDING = {
    "space": "Meet the space",
    "pass": "Pass the space by",
    "fight": "Fight",
    "roll": "Roll on the table",
}
_AGAINST = {
    "attack": "Attack {} in Combat",
    "psychic": "Attack {} in Psychic Combat",
    "steal": "Steal from {}",
    "beguile": "Beguile {}",
}
_SENT = {"rout": "Drive {} back to", "push": "Push {} to", "banish": "Banish {} to", "teleport": "Go to"}


def option_label(ctx: MainContext, kind: str, option: str) -> str:
    """Returns a choice's option in words (a service's or a card's name, a space's name…)."""
    head, _, arg = kind.partition(":")
    if option == "leave":
        return "Leave"
    if head == "service":
        table = ctx.table(arg)
        service = next((s for s in table.services if s.id == option), None)
        return f"Go to the {service.name}" if service else f"Roll on the {table.name} table"
    if head in spell_labels.KINDS:
        return spell_labels.card_spell_label(ctx, head, arg, option)
    if head in _SENT:
        board, space = place_of(ctx, option)  # a Rout in the Dungeon names a Dungeon space (Dungeon 12.10)
        who = arg.partition(":")[0]
        sent = _SENT[head]
        if head == "rout" and board == "dungeon":
            sent = "Drive {} to"  # Dungeon 12.10: a Rout there may go either way, toward the centre too
        return f"{sent.format(who)} {ctx.place_words(board, space)}"
    if head == "black-knight":
        return "Pay the Black Knight's toll" if option == "pay" else "Fight the Black Knight"
    if head == "alignment":
        return f"Become {option}"
    if head == "landing":
        return _landing_label(ctx, arg, option)
    if head == "spoils":
        loser = arg.partition(":")[0]
        if option in ("life", "gold"):
            return f"Take {'a life' if option == 'life' else '1 Gold'} from {loser}"
        return f"Take the {ctx.card_name(option)} from {loser}"
    if head == "counter":
        return "Cast Counterspell on it" if option == "counterspell" else "Let the spell work"
    if head == "beguile":
        return f"Take the {ctx.card_name(option)} from {arg}"
    if option == "life":
        return "Lose a life"
    verb = {"buy": "Buy", "sell": "Sell"}.get(head, "Give up")
    return f"{verb} the {ctx.card_name(option)}"


def _landing_label(ctx: MainContext, step: str, option: str) -> str:
    verb, _, who = option.partition(":")
    if who and verb in _AGAINST:
        return _AGAINST[verb].format(who)
    if step.startswith("table"):
        return "Roll on the table" if option == "roll" else "Do not roll"
    if option in _LANDING:
        return _LANDING[option]
    if step.startswith("evade"):
        return f"Evade the {ctx.card_name(option)}"
    return f"Discard the {ctx.card_words(option)}"  # the extra cards drawn: which one goes back
