"""Vampire Empire's chance, resolved in `decide` and recorded as results: the city's castle cards, the
identity tokens and their commitments, and the cards drawn into hands (with their commitments).

Every pick and salt is a numbered draw (see `domain.dice`), so an audit recomputes each of them once the
seed is revealed, even in a copy where the private events are sealed.
"""

from __future__ import annotations

from domain.events import Event
from domain.hidden import commit
from domain.resolution import Resolution
from domain.rulesets.base import DrawCheck
from domain.rulesets.castle.content import load_characters
from domain.rulesets.castle.events import (
    CardsDrawn,
    CardsReceived,
    CastleFilled,
    CityShuffled,
    IdentitiesCommitted,
    IdentityTokensDrawn,
    PlayBegan,
)
from domain.rulesets.castle.options import CASTLE_SIZE
from domain.rulesets.castle.shapes import CastleState
from domain.rulesets.castle.state import (
    HAND_SIZE,
    HUMAN,
    VAMPIRE,
    deck_cards,
    deck_count,
    hand_commitments,
    identity_salt,
    player_of,
)

VAMPIRES = 3  # house rule H4.3: the vampire player draws 3 identity tokens
KNOWN_HUMANS = 2  # and the human player 2


def picks(
    res: Resolution[CastleState], left: list[str], count: int, owner: str
) -> tuple[list[str], list[int]]:
    """Picks `count` of the options one draw each, without putting any back (removed from `left`), for
    `owner`'s private event (drawn with the secret seed, not the turn's public key); returns the picks
    and their draw numbers."""
    picked: list[str] = []
    draws: list[int] = []
    for _ in range(count):
        option, draw = res.dice.pick(left, owner)
        left.remove(option)
        picked.append(option)
        draws.append(draw)
    return picked, draws


def draw_cards(res: Resolution[CastleState], player: str, count: int) -> None:
    """Draws `count` cards (or what the deck holds): a private pick per card; the whole hand is then
    committed to afresh."""
    state = res.state
    count = min(count, deck_count(state, player))
    cards, draws = picks(res, deck_cards(state, player), count, player)
    commitments = receive_cards(res, player, cards, draws) if cards else state["players"][player]["hand"]
    res.emit(CardsDrawn(player=player, count=count, commitments=list(commitments)))


def receive_cards(
    res: Resolution[CastleState], player: str, cards: list[str], draws: list[int]
) -> list[bytes]:
    """Records privately the cards coming into a hand and returns the new commitments to the hand."""
    hand = sorted([*res.state["hands"].get(player, {}), *cards])
    salt, salt_draw = res.dice.salt(player)
    res.emit(CardsReceived(owner=player, cards=cards, draws=draws, hand=hand, salt=salt, salt_draw=salt_draw))
    return hand_commitments(salt, hand)


def refill_castle(res: Resolution[CastleState]) -> None:
    """Fills the castle up to 3 from the city: the shuffled cards first, then the bottom."""
    # house rule H4.1: the castle always holds 3 while the city has cards.
    state = res.state
    while len(state["castle"]) < CASTLE_SIZE and (state["city"] or state["bottom"]):
        if state["city"]:
            character, draw = res.dice.pick(list(state["city"]))
        else:
            character, draw = state["bottom"][0], -1
        res.emit(CastleFilled(character=character, draw=draw))


def deal(res: Resolution[CastleState]) -> None:
    """Deals the host's start: the city and the castle, the identity tokens and their commitments, both
    hands of 8; the vampire player begins."""
    # house rule H4.3: the shuffled characters form the city, its top 3 the castle; 3 and 2 identity tokens.
    state = res.state
    characters = sorted(load_characters())
    res.emit(CityShuffled(characters=characters))
    refill_castle(res)
    vampire, human = player_of(state, VAMPIRE), player_of(state, HUMAN)
    left = list(characters)
    vampires, draws = picks(res, left, VAMPIRES, vampire)
    secret, secret_draw = res.dice.salt(vampire)
    salts = {c: identity_salt(secret, c) for c in characters}
    res.emit(
        IdentityTokensDrawn(
            owner=vampire,
            identity=VAMPIRE,
            characters=vampires,
            draws=draws,
            salt=secret,
            salt_draw=secret_draw,
            salts=salts,
        )
    )
    identities = {c: VAMPIRE if c in vampires else HUMAN for c in characters}
    res.emit(IdentitiesCommitted(commitments={c: commit(identities[c], salts[c]) for c in characters}))
    known, draws = picks(res, left, KNOWN_HUMANS, human)  # among the 6 humans left
    own, own_draw = res.dice.salt(human)
    res.emit(
        IdentityTokensDrawn(
            owner=human,
            identity=HUMAN,
            characters=known,
            draws=draws,
            salt=own,
            salt_draw=own_draw,
            salts={c: salts[c] for c in known},
        )
    )
    for player in (vampire, human):
        draw_cards(res, player, HAND_SIZE)
    res.emit(PlayBegan(player=vampire))  # house rule H4.4: the vampire player begins


def draw_checks(state: CastleState, event: Event) -> list[DrawCheck]:
    """Returns the draws of a recorded event that a player's copy recomputes the turn they are made: the
    castle's picks from the city, and the copy's own private picks and salts (a hand from the seat's own
    deck; the vampire player's tokens from all nine). The human player's known humans are picked among
    what the vampire player's secret tokens left, which only the host's log shows."""
    if isinstance(event, CastleFilled):
        return [DrawCheck(event.draw, list(state["city"]), event.character, "")] if event.draw >= 0 else []
    checks: list[DrawCheck] = []
    if isinstance(event, CardsReceived):
        left = deck_cards(state, event.owner)
        for card, draw in zip(event.cards, event.draws, strict=False):
            if draw >= 0 and card in left:
                checks.append(DrawCheck(draw, list(left), card, event.owner))
                left.remove(card)
    elif isinstance(event, IdentityTokensDrawn) and event.identity == VAMPIRE:
        left = sorted(load_characters())
        for character, draw in zip(event.characters, event.draws, strict=False):
            if character in left:
                checks.append(DrawCheck(draw, list(left), character, event.owner))
                left.remove(character)
    if isinstance(event, CardsReceived | IdentityTokensDrawn):
        checks.append(DrawCheck(event.salt_draw, None, event.salt, event.owner))
    return checks
