"""Drawing and meeting Adventure cards on a space (house rules H1, H5.16).

- A space that draws cards is filled from the Adventure deck until it holds its `draws` face up.
- The cards lying there are met in encounter-number order (1 Event … 6 Place; a card of no deck, such
  as a dropped Talisman or Purchase item, counts as an Object).
- Events apply their effect and are discarded; enemies are fought (monsters in Combat, spirits in
  Psychic Combat: a killed one is a trophy, one not killed stays face up, a defeat ends the
  encounter); Strangers and Places apply their effect and stay if the card says so.
- Objects, Followers and Gold lying there are taken only once no enemy is left (Objects within the
  carrying limit of 4). House: an effect that moves the character, kills it or asks it to choose ends
  its encounter; the cards left are met by whoever lands there.
- Spells laid on the space (Hex, Barrier) are met first (`spells_cards.meet_laid`).
- Across the boards (`struck`, `spirit_bonus`): the Dungeon is a region like any other (Dungeon 11), the
  Blizzard spares it (11.2, its `spares`), its Spirits have the Astral Conjunction's Craft too (11.3);
  no Event reaches the Keep but one striking `all-boards`, Divine Intervention (Keep 12).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.talisman.character import in_encounter_order
from domain.rulesets.talisman.combat import COMBAT, LOST, PSYCHIC, WON, take_trophy
from domain.rulesets.talisman.events import (
    CardDiscarded,
    CardEncountered,
    FollowerJoined,
    GoldTaken,
    ObjectTaken,
)
from domain.rulesets.talisman.main.choices import waiting
from domain.rulesets.talisman.main.content_decks import HELD_EFFECTS
from domain.rulesets.talisman.main.context import MainContext, is_over, lying_here, sheet_of, state_of
from domain.rulesets.talisman.main.ending import in_play
from domain.rulesets.talisman.main.events import SpiritsEmpowered
from domain.rulesets.talisman.main.fights import fight
from domain.rulesets.talisman.main.items import may_hold, room_to_carry
from domain.rulesets.talisman.main.outcomes import apply_outcome
from domain.rulesets.talisman.main.piles import fill_space
from domain.rulesets.talisman.main.spells_cards import earthquake, laid_here, meet_laid

OBJECT_NUMBER = 4
KEEP, ALL_BOARDS, EARTHQUAKE = "keep", "all-boards", "destroy-cards"
# A card's meeting: returns False when the encounter stops there.
Meeting = Callable[[MainContext, Resolution, str, Any, int], bool]


def enemies_left(ctx: MainContext, res: Resolution, player: str) -> bool:
    """Tells whether an enemy still lies on the player's space."""
    evaded = sheet_of(res, player)["evaded"]  # house rule H1.8: an evaded enemy blocks nothing
    return any(card in ctx.trophies and card not in evaded for card in lying_here(res, player))


class Here:
    """Where a meeting began, to tell whether the character is still there to go on (not moved, not
    killed and dealt a new character, no choice pending, the game running)."""

    def __init__(self, res: Resolution, player: str) -> None:
        sheet = sheet_of(res, player)
        self.where = (sheet["character"], sheet["board"], sheet["space"])

    def still(self, res: Resolution, player: str) -> bool:
        """Tells whether the meeting goes on."""
        sheet = sheet_of(res, player)
        here = (sheet["character"], sheet["board"], sheet["space"])
        return here == self.where and in_play(res, player) and not is_over(res) and not waiting(res)


def struck(res: Resolution, player: str, scope: str, spares: tuple[str, ...] = ()) -> list[str]:
    """Returns whom an Event strikes: the player, everyone on its region (board), or everyone in play;
    never those on a board it spares, nor in the Keep unless it strikes `all-boards` (Keep 12). The
    Dungeon is a region (Dungeon 11: an Event drawn there strikes those in it)."""
    board = sheet_of(res, player)["board"]
    spared = set(spares) | (set() if scope == ALL_BOARDS else {KEEP})
    if scope == "you":
        return [player] if board not in spared else []
    names = [player, *(n for n in state_of(res)["order"] if n != player and in_play(res, n))]
    wide = scope in ("everyone", ALL_BOARDS)
    return [
        n
        for n in names
        if (wide or sheet_of(res, n)["board"] == board) and sheet_of(res, n)["board"] not in spared
    ]


def spirit_bonus(state: Any, board: str) -> int:
    """Returns the Craft every Spirit on a board has more: the Astral Conjunction's, in the Dungeon too
    (Dungeon 11.3), never in the Keep (Keep 12)."""
    return 0 if board == KEEP else int(state["spirit_bonus"])


def _apply_card(ctx: MainContext, res: Resolution, player: str, card: Any) -> None:
    if card.effect == EARTHQUAKE:
        if sheet_of(res, player)["board"] != KEEP:  # Keep 12
            earthquake(ctx, res, player, card.id)
        return
    if card.effect != "roll-table":
        for name in struck(res, player, card.scope, getattr(card, "spares", ())):
            if not is_over(res):
                apply_outcome(ctx, res, name, card.effect, card.amount, card.target, card.id)
        return
    values, draws = res.dice.roll(6, card.dice)
    res.emit(DieRolled(player=player, purpose="table", sides=6, values=values, draws=draws))
    total = sum(values)
    row = next((r for r in card.rows if r.low <= total <= r.high), card.rows[-1])
    apply_outcome(ctx, res, player, row.outcome, row.amount, row.target, card.id)


def _event(ctx: MainContext, res: Resolution, player: str, card: Any, space: int) -> bool:
    res.emit(CardEncountered(player=player, card=card.id, space=space))
    if state_of(res)["spirit_bonus"] and card.type == "event":
        # Dungeon 11.1: the Astral Conjunction's power lasts until the next Event.
        res.emit(SpiritsEmpowered(player=player, card=card.id, amount=0))
    _apply_card(ctx, res, player, card)
    # A card whose effect ended the game stays where it lies: nothing happens after the end.
    if card.id in lying_here(res, player) and not is_over(res):
        res.emit(CardDiscarded(player=player, card=card.id, space=space))
    return True


def _lasting(ctx: MainContext, res: Resolution, player: str, card: Any, space: int) -> bool:
    res.emit(CardEncountered(player=player, card=card.id, space=space))
    here = Here(res, player)
    _apply_card(ctx, res, player, card)
    if not card.stays and here.still(res, player) and not is_over(res):
        res.emit(CardDiscarded(player=player, card=card.id, space=space))
    return True


def _enemy(ctx: MainContext, res: Resolution, player: str, card: Any, space: int) -> bool:
    res.emit(CardEncountered(player=player, card=card.id, space=space))
    kind = COMBAT if card.type == "monster" else PSYCHIC
    value = (
        card.strength
        if kind == COMBAT
        else card.craft + spirit_bonus(state_of(res), sheet_of(res, player)["board"])
    )
    outcome = fight(ctx, res, player, card.id, value, kind)
    if outcome == WON:
        res.emit(*take_trophy(player, sheet_of(res, player), card.id, space, ctx.trophies))
    return outcome != LOST


def _object(ctx: MainContext, res: Resolution, player: str, card: Any, space: int) -> bool:
    if enemies_left(ctx, res, player) or not may_hold(ctx, sheet_of(res, player), card.id):
        return True
    if ctx.effects.get(card.id, "nothing") not in HELD_EFFECTS:
        return _event(ctx, res, player, card, space)  # a find used at once (a Bag of Gold)
    if room_to_carry(ctx, sheet_of(res, player)):
        res.emit(ObjectTaken(player=player, card=card.id, space=space))
    return True


def _follower(ctx: MainContext, res: Resolution, player: str, card: Any, space: int) -> bool:
    if not enemies_left(ctx, res, player) and may_hold(ctx, sheet_of(res, player), card.id):
        res.emit(FollowerJoined(player=player, card=card.id, space=space))
    return True


_BY_TYPE: dict[str, Meeting] = {
    "event": _event,
    "monster": _enemy,
    "spirit": _enemy,
    "stranger": _lasting,
    "object": _object,
    "magic-object": _object,
    "follower": _follower,
    "place": _lasting,
}


class _Loose:
    """A card of no Adventure entry lying on a space (a dropped Talisman or Purchase item)."""

    def __init__(self, card: str) -> None:
        self.id = card


def meet_cards(ctx: MainContext, res: Resolution, player: str) -> None:
    """Meets the cards lying on the player's space in order, then takes the Gold if no enemy is left."""
    here = Here(res, player)
    space = sheet_of(res, player)["space"]
    if laid_here(ctx, res, player) and (not meet_laid(ctx, res, player) or not here.still(res, player)):
        return  # a Barrier (or a Hex that killed): nothing else is met (spells_cards)
    numbers = {c: ctx.cards[c].number if c in ctx.cards else OBJECT_NUMBER for c in lying_here(res, player)}
    for card_id in in_encounter_order(list(lying_here(res, player)), numbers):
        if card_id not in lying_here(res, player) or card_id in sheet_of(res, player)["evaded"]:
            continue
        card = ctx.cards.get(card_id)
        meeting = _BY_TYPE[card.type] if card is not None else _object
        if not meeting(ctx, res, player, card or _Loose(card_id), space) or not here.still(res, player):
            return
    sheet = sheet_of(res, player)
    gold = state_of(res)["gold"][sheet["board"]][space]
    if gold and not enemies_left(ctx, res, player):
        res.emit(GoldTaken(player=player, space=space, amount=gold))


def draw_and_meet(ctx: MainContext, res: Resolution, player: str, draws: int) -> None:
    """Fills the player's space with Adventure cards and meets what lies there."""
    fill_space(ctx, res, player, draws)
    meet_cards(ctx, res, player)
