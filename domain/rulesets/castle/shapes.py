"""The typed shape of a Vampire Empire game's state (house rules H4): read by the rules and type-checked in
the projections (`mypy --strict`).

The state is plain msgpack-native data (a TypedDict is a dict), so snapshots and stored games hold it as
they always did; these TypedDicts name every key the rules and the views read, so a renamed key is a
type error. `state.evolve` is the only code that changes a state.
"""

from __future__ import annotations

from typing import TypedDict


class Player(TypedDict):
    """One player's public piles: the side, the commitments to the hand, the cellar and the moat (every
    other card of the side is in the deck, see `deck_count`)."""

    side: str
    hand: list[bytes]
    cellar: list[str]
    moat: list[str]


class Token(TypedDict):
    """An identity token a player drew (or, the vampire player's, the answer for a character)."""

    identity: str
    salt: bytes


class Markers(TypedDict):
    """The +1 markers on a character."""

    attack: int
    defence: int


class Holy(TypedDict):
    """After holy water: the lower holy water card and the character asked about."""

    card: str
    character: str


class FightCards(TypedDict):
    """The cards counted in a fight, by side."""

    attack: list[str]
    defence: list[str]


class Fight(TypedDict):
    """The fight under way (see FightStarted): totals include markers; `stage` is attack, defence or
    over (both sides done, the round being counted)."""

    attacker: str
    defender: str
    attacking: str  # the player of the attacker
    defending: str
    round: int
    stage: str
    attack: int
    defence: int
    cards: FightCards


class CastleState(TypedDict):
    """A Vampire Empire game's state; `hands` and `tokens` hold only what this copy's private events show."""

    phase: str  # setup | turn | over
    sides: dict[str, str]  # side -> player name
    turn: str  # whose turn it is
    step: str  # discard | act | holy-attack | fight | done (the action is over)
    unmasked: bool  # the vampire player revealed a vampire this turn
    city: list[str]  # the shuffled city, sorted (its order is never known)
    bottom: list[str]  # the hidden characters under it, in the order they went there
    castle: list[str]
    dead: list[str]  # the killed, in order
    known: dict[str, str]  # character -> identity made public
    commitments: dict[str, bytes]  # character -> sha256 of its identity
    markers: dict[str, Markers]
    players: dict[str, Player]
    hands: dict[str, dict[str, bytes]]  # player -> {card: salt}, for the hands this copy may see
    tokens: dict[str, dict[str, Token]]  # player -> {character: token}, for the players this copy may see
    holy: Holy | None
    fight: Fight | None
    winner: str
    reason: str
    scores: dict[str, int]  # side -> points, once counted
