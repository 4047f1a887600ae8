"""Drawing from the main board's named piles (the replay format's ledger): a numbered pick among the
cards left (a lazy shuffle), the discard pile turned back in (listed) when a deck runs out."""

from __future__ import annotations

from domain.events import CardDrawn
from domain.resolution import Resolution
from domain.rulesets.talisman.events import DeckReshuffled
from domain.rulesets.talisman.main.context import MainContext, lying_here, state_of
from domain.rulesets.talisman.main.state import ADVENTURE
from domain.rulesets.talisman.shapes import discard_pile


def draw_from(res: Resolution, deck: str, player: str) -> str:
    """Draws one card of `deck` for the player; returns it, or "" when the deck and its discards are empty."""
    piles = state_of(res)["piles"]
    if not piles[deck]:
        discards = sorted(piles.get(discard_pile(deck), []))
        if not discards:
            return ""
        res.emit(DeckReshuffled(deck=deck, count=len(discards), cards=discards))
    card, draw = res.dice.pick(list(state_of(res)["piles"][deck]))
    res.emit(CardDrawn(player=player, deck=deck, card=card, draw=draw))
    return card


def fill_space(ctx: MainContext, res: Resolution, player: str, draws: int) -> None:
    """Draws Adventure cards onto the player's space until it holds `draws` cards (house rule H5.13)."""
    while len(lying_here(res, player)) < draws:
        card = draw_from(res, ADVENTURE, player)
        if not card:
            return
        for exp in ctx.expansions:  # an expansion may discard it (a third Doorway, Dungeon 4.1): draw again
            exp.card_drawn(res, player, card)
