"""Alignment (RULES.md §1, §5): good, neutral or evil. A character whose alignment changes drops the
alignment-bound Objects of another alignment on its space (the Holy Lance, the Runesword)."""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.talisman.main.context import MainContext, sheet_of
from domain.rulesets.talisman.main.events import AlignmentChanged, ItemDropped

ALIGNMENTS = ("good", "neutral", "evil")


def bound_to(ctx: MainContext, card: str) -> str:
    """Returns the alignment an Object is bound to ("" for none)."""
    found = ctx.cards.get(card)
    return found.alignment if found is not None else ""


def change_alignment(ctx: MainContext, res: Resolution, player: str, alignment: str, reason: str) -> None:
    """Changes a character's alignment, then drops the Objects bound to another (RULES.md §5)."""
    sheet = sheet_of(res, player)
    if sheet["alignment"] == alignment:
        return
    res.emit(AlignmentChanged(player=player, alignment=alignment, reason=reason))
    for card in list(sheet_of(res, player)["objects"]):
        bound = bound_to(ctx, card)
        if bound and bound != alignment:
            sheet = sheet_of(res, player)
            res.emit(ItemDropped(player=player, card=card, board=sheet["board"], space=sheet["space"]))
