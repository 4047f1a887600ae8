"""Vampire Empire's checks of a recorded event against the state before it (the ruleset's `verify`).

`evolve` trusts what it is given; these checks are what catch a forged copy of a log when its actions
cannot be re-decided (a player's or the public copy while the seed is secret), and what a game checks
before it takes in a log from elsewhere. They use only what the copy holds: every copy can open the
public commitments that reveals claim to open; a player's copy can also check that the host committed
to exactly the hand and the tokens its own private events record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.events import Event
from domain.hidden import commit, reveal_matches
from domain.rulesets.castle.content import castle_content
from domain.rulesets.castle.events import (
    CardPlayed,
    CardsDrawn,
    CardTaken,
    CastleFilled,
    FightCardPlayed,
    IdentitiesCommitted,
    IdentityRevealed,
    IdentityTokensDrawn,
    ScoresCounted,
)
from domain.rulesets.castle.options import POINTS, valid_card
from domain.rulesets.castle.shapes import CastleState
from domain.rulesets.castle.state import (
    ATTACK,
    CELLAR,
    DECK,
    HUMAN,
    MOAT,
    VAMPIRE,
    alive,
    deck_count,
    pile,
    side_of,
)


def verify(state: CastleState, event: Event) -> str:
    """Returns what is wrong with an event given the state before it ("" when nothing is)."""
    check = _CHECKS.get(type(event))
    return check(state, event) if check is not None else ""


def _identity_revealed(state: CastleState, e: IdentityRevealed) -> str:
    commitment = state["commitments"].get(e.character)
    if commitment is None or not reveal_matches(commitment, e.identity, e.salt):
        return f"the {e.identity} revealed for {e.character} does not open its commitment"
    return ""


def _card_played(state: CastleState, e: CardPlayed) -> str:
    if commit(e.card, e.salt) not in state["players"][e.player]["hand"]:
        return f"{e.player} showed {e.card}, which opens no commitment to their hand"
    return ""


def _own_hand(state: CastleState, player: str, commitments: list[bytes]) -> str:
    """A copy holding the player's hand checks the public commitments are to exactly that hand."""
    hand = state["hands"].get(player)
    if hand is not None and commitments != sorted(commit(c, salt) for c, salt in hand.items()):
        return f"the commitments to {player}'s hand are not to the cards {player} received"
    return ""


def _cards_drawn(state: CastleState, e: CardsDrawn) -> str:
    me = state["players"][e.player]
    if not 0 <= e.count <= deck_count(state, e.player):
        return f"{e.player} drew {e.count} cards from a deck of {deck_count(state, e.player)}"
    if e.count == 0 and e.commitments != me["hand"]:
        return f"{e.player} drew nothing, yet the commitments to the hand changed"
    return _own_hand(state, e.player, e.commitments)


def _card_taken(state: CastleState, e: CardTaken) -> str:
    me = state["players"][e.player]
    if e.pile != DECK and (e.pile not in (CELLAR, MOAT) or e.card not in pile(me, e.pile)):
        return f"{e.player} took {e.card}, which is not in their {e.pile}"
    return _own_hand(state, e.player, e.commitments)


def _fight_card(state: CastleState, e: FightCardPlayed) -> str:
    fight = state["fight"]
    if fight is None:
        return f"{e.player} played {e.card} with no fight under way"
    side = side_of(state, e.player)
    cc = castle_content()
    printed = cc.decks[side][e.card].value if e.card in cc.decks[side] else None
    if printed != e.value:
        return f"{e.card} counts {e.value} in the fight, but the card's value is {printed}"
    supported, opposed = (
        (fight["attacker"], fight["defender"]) if e.side == ATTACK else (fight["defender"], fight["attacker"])
    )
    if not valid_card(state, side, cc.decks[side][e.card], supported, opposed, cc):
        return f"{e.card} may not be played for {supported} in this fight"
    return ""


def _identities_committed(state: CastleState, e: IdentitiesCommitted) -> str:
    for owner, tokens in state["tokens"].items():  # the vampire player's tokens, in a copy that has them
        for character, token in tokens.items():
            if e.commitments.get(character) != commit(token["identity"], token["salt"]):
                return f"the commitment to {character} is not to what {owner}'s token says"
    return ""


def _tokens_drawn(state: CastleState, e: IdentityTokensDrawn) -> str:
    if not state["commitments"]:
        return ""  # the vampire player's tokens come before the commitments (checked there)
    for character in e.characters:
        commitment = state["commitments"].get(character)
        if commitment is None or not reveal_matches(commitment, e.identity, e.salts.get(character, b"")):
            return f"{e.owner}'s token for {character} does not open its commitment"
    return ""


def _castle_filled(state: CastleState, e: CastleFilled) -> str:
    if e.draw >= 0 and e.character not in state["city"]:
        return f"{e.character} was drawn from the city, where it is not"
    if e.draw < 0 and (state["city"] or state["bottom"][:1] != [e.character]):
        return f"{e.character} came from under the city, but it is not the next card there"
    return ""


def _scores(state: CastleState, e: ScoresCounted) -> str:
    scores = {HUMAN: 0, VAMPIRE: 0}
    for character in alive(state):
        identity = state["known"].get(character)
        if identity is None:
            return f"the scores were counted before {character}'s identity was revealed"
        scores[identity] += POINTS[identity]
    if (e.human, e.vampire) != (scores[HUMAN], scores[VAMPIRE]):
        return f"the scores {e.human}/{e.vampire} are not the survivors' {scores[HUMAN]}/{scores[VAMPIRE]}"
    return ""


_CHECKS: dict[type, Callable[[CastleState, Any], str]] = {
    IdentityRevealed: _identity_revealed,
    CardPlayed: _card_played,
    CardsDrawn: _cards_drawn,
    CardTaken: _card_taken,
    FightCardPlayed: _fight_card,
    IdentitiesCommitted: _identities_committed,
    IdentityTokensDrawn: _tokens_drawn,
    CastleFilled: _castle_filled,
    ScoresCounted: _scores,
}
