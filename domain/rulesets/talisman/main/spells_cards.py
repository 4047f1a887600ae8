"""Spells and Events that act on the cards and spaces of a region (house rule H5.14, Dungeon 4.2, 10.1-10.2).

Destruction, Displacement and Metamorph pick a card lying face up on a space of the caster's board
(`destroy:<board>`, `displace:<board>`, `metamorph:<board>` choices, options `<space>:<card>`);
Displacement then picks the space of that board it goes to (`displace-to:<board>:<space>:<card>`). Hex
and Barrier are laid face up on a space of the caster's board (`lay:<board>:<spell>`, options `<space>`)
and act on the next character to land there (`meet_laid`). The Earthquake destroys every card lying on
the spaces of its region. The Dungeon counts as a region (Dungeon 10, 11); a Doorway (the Dungeon's
Place of effect `doorway`) is never destroyed, moved or changed (Dungeon 4.2). House ruling (Spells reach
the Dungeon): cast from the main board, these Spells also reach the cards and spaces of the boards an
expansion opens to them (the Dungeon, Dungeon 10.1-10.2); such an option names its board in front
(`<board>:<space>:<card>`, `<board>:<space>`, `spell_labels.located`).
"""

from __future__ import annotations

from typing import Any

from domain.resolution import Resolution
from domain.rulesets.talisman.events import CardDiscarded
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.ending import in_play, lose_lives
from domain.rulesets.talisman.main.events_abilities import (
    CardDestroyed,
    CardDisplaced,
    CardReturned,
    SpellLaid,
)
from domain.rulesets.talisman.main.spell_labels import located
from domain.rulesets.talisman.main.state import ADVENTURE, SPELLS, deck_of

HEX, BARRIER = "hex-space", "barrier-space"
DOORWAY = "doorway"  # the Doorways' effect (adventure-dungeon.toml)
ON_SPACES = (HEX, BARRIER)
# The choice each card Spell leaves, by its effect.
PICKS = {"destroy-card": "destroy", "move-card": "displace", "change-card": "metamorph"}


def immune(ctx: MainContext, card: str) -> bool:
    """Tells whether a card is never destroyed, moved or changed: a Doorway (Dungeon 4.2)."""
    return ctx.effects.get(card) == DOORWAY


def card_deck(ctx: MainContext, board: str, card: str) -> str:
    """Returns the deck a card lying on a board belongs to (an expansion's board: its own deck)."""
    if card in ctx.cards or deck_of(card) != ADVENTURE:
        return deck_of(card)
    expansion = ctx.expansion_on(board)
    if expansion is None:
        return ADVENTURE
    return next(pile for pile in expansion.content().piles if not pile.startswith("discard:"))


def face_up(ctx: MainContext, state: Any, board: str) -> list[str]:
    """Returns the cards lying face up on a board that a card Spell may pick, as `<space>:<card>`: the
    Adventure deck's (or the board's own deck's), not a dropped Purchase item, Talisman or laid Spell."""
    return [
        f"{space}:{card}"
        for space, cards in enumerate(state["cards"].get(board, []))
        for card in cards
        if not immune(ctx, card) and deck_of(card) == ADVENTURE  # house: no dropped item, Talisman, Spell
    ]


def spaces_of(state: Any, board: str) -> list[int]:
    """Returns the space indices of a board (the Keep's index 0 is unused, house rule H3.1)."""
    count = len(state["cards"].get(board, []))
    return list(range(1 if board == "keep" else 0, count))


def reached(ctx: MainContext, board: str) -> list[str]:
    """Returns the boards whose cards and spaces a card or space Spell cast on `board` reaches: its own
    (its region) and, from the main board, the expansions' boards open to them (house rule H2.11: Spells
    reach the Dungeon, Dungeon 10.1-10.2)."""
    if ctx.expansion_on(board) is not None:
        return [board]
    return [board, *sorted(b for content in ctx.expansion_contents for b in content.reached)]


def pickable(ctx: MainContext, state: Any, board: str) -> list[str]:
    """Returns the options of a card Spell cast on `board`: its cards face up, then (board named in
    front) those of each board it reaches from there."""
    own, *others = reached(ctx, board)
    return face_up(ctx, state, own) + [f"{b}:{o}" for b in others for o in face_up(ctx, state, b)]


def layable(ctx: MainContext, state: Any, board: str) -> list[str]:
    """Returns the options of a Hex or Barrier cast on `board`: its spaces, then (board named in front)
    those of each board it reaches from there."""
    own, *others = reached(ctx, board)
    return [str(s) for s in spaces_of(state, own)] + [f"{b}:{s}" for b in others for s in spaces_of(state, b)]


def pick_card(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    """Offers the caster the cards its card Spell may act on (its region's, and those it reaches)."""
    board = sheet_of(res, player)["board"]
    offer(res, player, f"{PICKS[spell.effect]}:{board}", pickable(ctx, state_of(res), board))


def lay_spell(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    """Offers the caster the spaces to lay its Hex or Barrier on (its region's, and those it reaches)."""
    board = sheet_of(res, player)["board"]
    offer(res, player, f"lay:{board}:{spell.id}", layable(ctx, state_of(res), board))


def destroy(ctx: MainContext, res: Resolution, player: str, board: str, space: int, card: str) -> None:
    """Destroys a card lying face up on (board, space): it goes to its deck's discards."""
    deck = card_deck(ctx, board, card)
    res.emit(CardDestroyed(player=player, card=card, deck=deck, board=board, space=space))


def _destroyed(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    board, space, card = located(option, arg)
    destroy(ctx, res, player, board, space, card)


def _displaced(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    board, space, card = located(option, arg)
    others = [str(s) for s in spaces_of(state_of(res), board) if s != space]  # on the card's own board
    offer(res, player, f"displace-to:{board}:{space}:{card}", others)


def _placed(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    board, space, card = arg.split(":", 2)
    moved = CardDisplaced(player=player, card=card, board=board, from_space=int(space), to_space=int(option))
    res.emit(moved)


def _changed(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    board, space, card = located(option, arg)
    deck = card_deck(ctx, board, card)
    res.emit(CardReturned(player=player, card=card, deck=deck, board=board, space=space))


def _laid(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    cast_on, _, spell = arg.partition(":")
    board, space, _ = located(option, cast_on)
    res.emit(SpellLaid(player=player, spell=spell, board=board, space=space))


def earthquake(ctx: MainContext, res: Resolution, player: str, card_id: str) -> None:
    """Destroys every card lying face up on the spaces of the drawer's region but the Earthquake itself."""
    board = sheet_of(res, player)["board"]
    for option in face_up(ctx, state_of(res), board):
        space, _, card = option.partition(":")
        if card != card_id:
            destroy(ctx, res, player, board, int(space), card)


def laid_here(ctx: MainContext, res: Resolution, player: str) -> list[str]:
    """Returns the Spells laid on the player's space (Hex, Barrier)."""
    sheet = sheet_of(res, player)
    return [c for c in state_of(res)["cards"][sheet["board"]][sheet["space"]] if deck_of(c) == SPELLS]


def meet_laid(ctx: MainContext, res: Resolution, player: str) -> bool:
    """Meets the Spells laid on the player's space (each is then discarded); False when a Barrier stops
    the player meeting anything else there this turn, or a Hex killed it."""
    sheet = sheet_of(res, player)
    goes_on, space, who = True, sheet["space"], sheet["character"]
    for spell_id in laid_here(ctx, res, player):
        spell = next(s for s in ctx.spells.spells if s.id == spell_id)
        res.emit(CardDiscarded(player=player, card=spell_id, space=space))
        if spell.effect == HEX:
            lose_lives(ctx, res, player, max(1, spell.amount), spell.name)
        goes_on = goes_on and spell.effect != BARRIER
    return goes_on and in_play(res, player) and sheet_of(res, player)["character"] == who


CARD_DECISIONS = {
    "destroy": _destroyed,
    "displace": _displaced,
    "displace-to": _placed,
    "metamorph": _changed,
    "lay": _laid,
}
