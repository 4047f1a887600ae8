"""What the choices of the Spells on cards and spaces (`spells_cards`) say, in words a player follows."""

from __future__ import annotations

from domain.rulesets.talisman.main.context import MainContext

KINDS = frozenset({"destroy", "displace", "displace-to", "metamorph", "lay"})


def _where(ctx: MainContext, board: str, space: int) -> str:
    return ctx.place_words(board, space)


def _spell_name(ctx: MainContext, spell_id: str) -> str:
    return next((s.name for s in ctx.spells.spells if s.id == spell_id), spell_id)


def card_spell_label(ctx: MainContext, head: str, arg: str, option: str) -> str:
    """Returns one option of a card or space Spell's choice in words (`head` its kind's first part)."""
    if head == "lay":
        board, _, spell = arg.partition(":")
        return f"Lay the {_spell_name(ctx, spell)} on {_where(ctx, board, int(option))}"
    if head == "displace-to":
        board, space, card = arg.split(":", 2)
        return f"Move the {ctx.card_name(card)} to {_where(ctx, board, int(option))}"
    space, _, card = option.partition(":")
    what = f"the {ctx.card_name(card)} on {_where(ctx, arg, int(space))}"
    if head == "metamorph":
        return f"Send {what} back into its deck"
    return f"{'Destroy' if head == 'destroy' else 'Move'} {what}"
