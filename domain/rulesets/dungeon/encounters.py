"""Encountering a Dungeon space (Dungeon 7.1, RULES.md §1–2): the Guard, cards drawn or lying face up.

House decisions, in nightkeep's words:
- A space that already holds face-up cards is encountered again instead of drawing new ones; an empty
  space draws as many cards as the board says (the Guard Room, Entrance and Treasure Chamber draw none).
- Cards are met in encounter-number order (1 Event, 2 Enemy, 3 Stranger, 4 Object, 5 Follower, 6 Place);
  cards with the same number keep the order they were laid in.
- Several enemies are fought one at a time in that order. A defeat ends the encounter at once (the
  character is defeated, Dungeon 7.3); a stand-off leaves that enemy face up and the next one is fought.
- Events are discarded after their table is rolled; Strangers and Places stay face up and are met again
  by whoever lands there. Killed enemies become trophies; enemies not killed stay face up.
- Objects, Followers and gold lying on the space are taken only when no enemy is left on it (and the
  Guard, on the Guard Room, was beaten); Objects beyond the carrying limit of 4 stay on the space.
- A table effect that moves or kills the character ends its encounter.
- The Guard is part of its space, not a card: beating it gives no trophy, and it is there for everyone.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.events import CardDrawn, DieRolled
from domain.rulesets.dungeon.content import Card, load_board, load_deck
from domain.rulesets.dungeon.effects import GUARD, apply_outcome, check_killed, sheet_of, still_on
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
from domain.rulesets.talisman.events import (
    CardDiscarded,
    CardEncountered,
    DeckReshuffled,
    FollowerJoined,
    GoldTaken,
    ObjectTaken,
)
from domain.rulesets.talisman.resolution import Resolution

DECK = "dungeon"


def draw_cards(res: Resolution, player: str, count: int) -> None:
    """Draws cards onto the player's space, one numbered pick among the cards left each (a lazy shuffle)."""
    for _ in range(count):
        if not res.state["deck"]:
            if not res.state["discard"]:
                return
            res.emit(DeckReshuffled(deck=DECK, count=len(res.state["discard"])))
        card, draw = res.dice.pick(list(res.state["deck"]))
        res.emit(CardDrawn(player=player, deck=DECK, card=card, draw=draw))


def fight(res: Resolution, player: str, opponent: str, value: int, kind: str) -> str:
    """Fights one enemy (combat or psychic combat); on a loss takes the life (armour may save it)."""
    cards = load_deck().cards
    sheet = sheet_of(res, player)
    mine = effective_strength(sheet, cards) if kind == COMBAT else effective_craft(sheet, cards)
    outcome, events = resolve_combat(player, mine, opponent, value, kind, res.dice)
    res.emit(*events)
    if outcome == LOST:
        res.emit(*lose_combat_life(player, sheet_of(res, player), kind, cards, res.dice, opponent))
        check_killed(res, player)
    return outcome


def _roll_table(res: Resolution, player: str, card: Card, space: int) -> None:
    res.emit(CardEncountered(player=player, card=card.id, space=space))
    if not card.table:
        return
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="table", sides=6, values=[face], draws=draws))
    apply_outcome(res, player, card.id, card.outcome(face))


def _event(res: Resolution, player: str, card: Card, space: int) -> bool:
    _roll_table(res, player, card, space)
    res.emit(CardDiscarded(player=player, card=card.id, space=space))
    return True


def _lasting(res: Resolution, player: str, card: Card, space: int) -> bool:
    _roll_table(res, player, card, space)
    return True


def _enemy(res: Resolution, player: str, card: Card, space: int) -> bool:
    res.emit(CardEncountered(player=player, card=card.id, space=space))
    kind = COMBAT if card.kind == "monster" else PSYCHIC
    outcome = fight(res, player, card.id, card.trophy_value, kind)
    if outcome == WON:
        res.emit(*take_trophy(player, sheet_of(res, player), card.id, space, load_deck().cards))
    return outcome != LOST


def _enemies_left(res: Resolution, space: int) -> bool:
    cards = load_deck().cards
    return any(c in cards and cards[c].is_enemy for c in res.state["spaces"][space])


def _object(res: Resolution, player: str, card: Card, space: int) -> bool:
    if not _enemies_left(res, space) and room_to_carry(sheet_of(res, player)):
        res.emit(ObjectTaken(player=player, card=card.id, space=space))
    return True


def _follower(res: Resolution, player: str, card: Card, space: int) -> bool:
    if not _enemies_left(res, space):
        res.emit(FollowerJoined(player=player, card=card.id, space=space))
    return True


_BY_KIND: dict[str, Callable[[Resolution, str, Card, int], bool]] = {
    "event": _event,
    "monster": _enemy,
    "spirit": _enemy,
    "stranger": _lasting,
    "object": _object,
    "magic-object": _object,
    "follower": _follower,
    "place": _lasting,
}


def encounter_space(res: Resolution, player: str) -> None:
    """Encounters the player's space: the Guard first on the Guard Room, then the cards in order."""
    index = sheet_of(res, player)["space"]
    space = load_board().spaces[index]
    deck = load_deck()
    if space.kind == "guard-room":
        # RULES.md §2: every character who lands on the Guard Room fights the Guard (a defeat counts, 7.3).
        if fight(res, player, GUARD, space.guard_strength, COMBAT) != WON:
            return
    elif not res.state["spaces"][index]:
        draw_cards(res, player, space.draws)
    for card_id in in_encounter_order(list(res.state["spaces"][index]), deck.numbers):
        card = deck.cards.get(card_id)
        if card is None or card_id not in res.state["spaces"][index]:
            continue
        if not _BY_KIND[card.kind](res, player, card, index) or not still_on(res, player, index):
            return
    gold = res.state["space_gold"][index]
    if gold and not _enemies_left(res, index):
        res.emit(GoldTaken(player=player, space=index, amount=gold))
