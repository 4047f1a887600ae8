"""Encountering the cards on a space (house rules H1, Dungeon 7.1, Keep 7.1): the same on every board.

House decisions, in nightkeep's words:
- Cards are met in encounter-number order (1 Event, 2 Enemy, 3 Stranger, 4 Object, 5 Follower, 6 Place);
  cards with the same number keep the order they were laid in.
- Several enemies are fought one at a time in that order. A defeat ends the encounter at once; a
  stand-off leaves that enemy face up and the next one is fought.
- Events are discarded after their table is rolled; Strangers and Places stay face up and are met again
  by whoever lands there. Killed enemies become trophies; enemies not killed stay face up.
- Objects, Followers and gold lying on the space are taken only when no enemy is left on it; Objects
  beyond the carrying limit of 4 stay on the space.
- A table effect that moves or kills the character ends its encounter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from domain.events import CardDrawn, DieRolled
from domain.resolution import Resolution
from domain.rulesets.talisman.cards import Card, Deck
from domain.rulesets.talisman.character import (
    effective_craft,
    effective_strength,
    in_encounter_order,
    room_to_carry,
)
from domain.rulesets.talisman.combat import (
    COMBAT,
    LOST,
    PSYCHIC,
    WON,
    lose_combat_life,
    resolve_combat,
    take_trophy,
)
from domain.rulesets.talisman.effects import (
    GAME_RULES,
    MoveBack,
    apply_outcome,
    cards_at,
    check_killed,
    gold_at,
    is_over,
    sheet_of,
    state_of,
    still_on,
)
from domain.rulesets.talisman.events import (
    CardDiscarded,
    CardEncountered,
    DeckReshuffled,
    FollowerJoined,
    GoldTaken,
    ObjectTaken,
)
from domain.rulesets.talisman.shapes import discard_pile

# A board's own card kinds (the Keep's Teleport Tiles) are met by handlers it passes in; a handler
# returns False when the encounter must stop there.
KindHandler = Callable[["Encounter", Resolution, str, Card, int], bool]


@dataclass(frozen=True)
class Encounter:
    """What the shared encounter rules need from a board: its deck, and how it moves characters back."""

    deck_name: str
    deck: Deck
    move_back: MoveBack
    handlers: Mapping[str, KindHandler] = field(default_factory=dict)


def draw_cards(res: Resolution, deck_name: str, player: str, count: int) -> None:
    """Draws cards onto the player's space, one numbered pick among the cards left each (a lazy shuffle)."""
    for _ in range(count):
        if not draw_card(res, deck_name, player):
            return


def draw_card(res: Resolution, deck_name: str, player: str) -> str:
    """Draws one card from a named deck: a numbered pick among the cards left, after reshuffling its
    discard pile in (listed, so the pile ledger follows) if the deck ran out. Returns the card, or ""
    when both piles are empty."""
    piles = state_of(res)["piles"]
    if not piles[deck_name]:
        discarded = piles[discard_pile(deck_name)]
        if not discarded:
            return ""
        cards = sorted(discarded)
        res.emit(DeckReshuffled(deck=deck_name, count=len(cards), cards=cards))
    card, draw = res.dice.pick(list(piles[deck_name]))
    res.emit(CardDrawn(player=player, deck=deck_name, card=card, draw=draw))
    return card


def draw_card_of_kinds(res: Resolution, deck_name: str, player: str, deck: Deck, kinds: list[str]) -> str:
    """Draws one card among those of the given kinds left in a named deck (no reshuffle): the
    restriction is recorded in the pick (`CardDrawn.kinds`). Returns the card, or "" when none is left."""
    options = sorted(c for c in state_of(res)["piles"][deck_name] if deck.cards[c].kind in kinds)
    if not options:
        return ""
    card, draw = res.dice.pick(options)
    res.emit(CardDrawn(player=player, deck=deck_name, card=card, draw=draw, kinds=sorted(kinds)))
    return card


def fight(res: Resolution, player: str, opponent: str, value: int, kind: str, deck: Deck) -> str:
    """Fights one enemy (combat or psychic combat); on a loss takes the life (armour may save it). A game
    that set `GAME_RULES` (the main board) fights by its own rules."""
    rules = GAME_RULES.get()
    if rules is not None:
        return rules.fight(res, player, opponent, value, kind)
    cards = deck.cards
    sheet = sheet_of(res, player)
    mine = effective_strength(sheet, cards) if kind == COMBAT else effective_craft(sheet, cards)
    outcome, events = resolve_combat(player, mine, opponent, value, kind, res.dice)
    res.emit(*events)
    if outcome == LOST:
        res.emit(*lose_combat_life(player, sheet_of(res, player), kind, cards, res.dice, opponent))
        check_killed(res, player)
    return outcome


def _roll_table(enc: Encounter, res: Resolution, player: str, card: Card, space: int) -> None:
    res.emit(CardEncountered(player=player, card=card.id, space=space))
    if not card.table:
        return
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="table", sides=6, values=[face], draws=draws))
    apply_outcome(res, player, card.id, card.outcome(face), enc.move_back)


def _event(enc: Encounter, res: Resolution, player: str, card: Card, space: int) -> bool:
    _roll_table(enc, res, player, card, space)
    if not is_over(res):  # a main-board game may end by it (the last rival killed): nothing follows
        res.emit(CardDiscarded(player=player, card=card.id, space=space))
    return True


def _lasting(enc: Encounter, res: Resolution, player: str, card: Card, space: int) -> bool:
    _roll_table(enc, res, player, card, space)
    return True


def _enemy(enc: Encounter, res: Resolution, player: str, card: Card, space: int) -> bool:
    res.emit(CardEncountered(player=player, card=card.id, space=space))
    kind = COMBAT if card.kind == "monster" else PSYCHIC
    outcome = fight(res, player, card.id, card.trophy_value, kind, enc.deck)
    if outcome == WON:
        res.emit(*take_trophy(player, sheet_of(res, player), card.id, space, enc.deck.cards))
    return outcome != LOST


def evaded(res: Resolution, player: str) -> list[str]:
    """Returns the enemies the player evaded this turn (a main-board game's sheet keeps them; the short
    games' sheets have none)."""
    sheet: dict[str, list[str]] = res.state["players"][player]
    return sheet.get("evaded", [])


def enemies_left(res: Resolution, deck: Deck, player: str, space: int) -> bool:
    """Tells whether an enemy card still lies on the space (of the board the player stands on), not one
    the player evaded (house rule H1.8: an evaded enemy blocks nothing)."""
    cards, gone = deck.cards, evaded(res, player)
    return any(c in cards and cards[c].is_enemy and c not in gone for c in cards_at(res, player, space))


def _object(enc: Encounter, res: Resolution, player: str, card: Card, space: int) -> bool:
    if not enemies_left(res, enc.deck, player, space) and room_to_carry(sheet_of(res, player)):
        res.emit(ObjectTaken(player=player, card=card.id, space=space))
    return True


def _follower(enc: Encounter, res: Resolution, player: str, card: Card, space: int) -> bool:
    if not enemies_left(res, enc.deck, player, space):
        res.emit(FollowerJoined(player=player, card=card.id, space=space))
    return True


_BY_KIND: dict[str, KindHandler] = {
    "event": _event,
    "monster": _enemy,
    "spirit": _enemy,
    "stranger": _lasting,
    "object": _object,
    "magic-object": _object,
    "follower": _follower,
    "place": _lasting,
}


def encounter_cards(enc: Encounter, res: Resolution, player: str, index: int) -> None:
    """Encounters the cards lying on space `index` in order, then picks up the gold if no enemy is left."""
    deck = enc.deck
    lying = cards_at(res, player, index)
    for card_id in in_encounter_order(list(lying), deck.numbers):
        card = deck.cards.get(card_id)
        if card is None or card_id not in lying or card_id in evaded(res, player):
            continue  # an evaded enemy stays face up, not fought (Dungeon 7.1, as on the main board)
        handler = enc.handlers.get(card.kind) or _BY_KIND[card.kind]
        if not handler(enc, res, player, card, index) or not still_on(res, player, index):
            return
    gold = gold_at(res, player, index)
    if gold and not enemies_left(res, deck, player, index):
        res.emit(GoldTaken(player=player, space=index, amount=gold))
