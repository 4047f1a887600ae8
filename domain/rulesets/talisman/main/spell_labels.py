"""What the choices of the Spells on cards and spaces (`spells_cards`) say, in words a player follows."""

from __future__ import annotations

from domain.rulesets.talisman.main.context import MainContext

KINDS = frozenset({"destroy", "displace", "displace-to", "metamorph", "lay"})


def located(option: str, board: str) -> tuple[str, int, str]:
    """Returns (board, space, card) of a card or space Spell's option: `<space>[:<card>]` on the choice's
    `board`, or `<board>:<space>[:<card>]` on a board reached from there (house rule H2.11, Spells reach the
    Dungeon); card "" for a space alone."""
    head, _, rest = option.partition(":")
    if not head.isdigit():
        board, (head, _, rest) = head, rest.partition(":")
    return board, int(head), rest


def _where(ctx: MainContext, board: str, space: int) -> str:
    return ctx.place_words(board, space)


def _spell_name(ctx: MainContext, spell_id: str) -> str:
    return next((s.name for s in ctx.spells.spells if s.id == spell_id), spell_id)


def card_spell_label(ctx: MainContext, head: str, arg: str, option: str) -> str:
    """Returns one option of a card or space Spell's choice in words (`head` its kind's first part)."""
    if head == "lay":
        cast_on, _, spell = arg.partition(":")
        board, space, _ = located(option, cast_on)
        return f"Lay the {_spell_name(ctx, spell)} on {_where(ctx, board, space)}"
    if head == "displace-to":
        board, _, card = arg.split(":", 2)
        return f"Move the {ctx.card_name(card)} to {_where(ctx, board, int(option))}"
    board, space, card = located(option, arg)
    what = f"the {ctx.card_name(card)} on {_where(ctx, board, space)}"
    if head == "metamorph":
        return f"Send {what} back into its deck"
    return f"{'Destroy' if head == 'destroy' else 'Move'} {what}"
