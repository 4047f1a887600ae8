"""Vampire Empire's events (house rules H4).

Secrets follow DESIGN.md's hidden-information scheme. A private event (`private = True`) holds what only
its owner may see: the identity tokens a player drew, the cards that came into a hand. Its picks and its
salt are numbered draws named in `drawn`, so the host's full log re-decides draw by draw. The public log
holds commitments: one per character to its identity, one per card in a hand. A reveal carries the value
and the salt, and folding it checks the pair against the commitment (`checks.verify`), so a forged reveal
cannot enter a game, and an audit reports one in any copy of a log.
"""

from __future__ import annotations

from domain.events import Event, Move, event_type


@event_type
class CityShuffled(Event):
    """The 9 character cards were shuffled face down into the city (its order is never recorded: each
    card taken from it is a numbered pick among the cards left)."""

    moves = (Move("characters", target="city"),)
    characters: list[str]


@event_type
class CastleFilled(Event):
    """A character was drawn from the city into the castle: by a pick among the shuffled cards, or from
    the bottom of the city (draw -1) once only hidden characters are left there."""

    picked_field = "character"
    piles = {"character": "city"}  # a character from the bottom (draw -1) was not in the shuffled city
    character: str
    draw: int


@event_type
class IdentityTokensDrawn(Event):
    """A player secretly drew identity tokens: the vampire player the 3 vampires, the human player 2
    known humans. `salt` is the secret from which the salts of the identity commitments derive; the
    vampire player holds it (it answers for every character), the human player's own is unrelated."""

    private = True
    drawn = (("characters", "draws"), ("salt", "salt_draw"))
    piles = {"characters": "tokens"}
    owner: str
    identity: str
    characters: list[str]
    draws: list[int]
    salt: bytes
    salt_draw: int
    salts: dict[str, bytes]


@event_type
class IdentitiesCommitted(Event):
    """The public commitment to every character's identity: sha256(canonical [identity, salt])."""

    commitments: dict[str, bytes]


@event_type
class CardsDrawn(Event):
    """A player drew `count` cards from their deck. `commitments` commit afresh to the whole hand, with
    new salts and sorted by value, so a card shown later cannot be traced to the draw it came from."""

    player: str
    count: int
    commitments: list[bytes]


@event_type
class CardsReceived(Event):
    """The owner's private record of the cards that came into their hand (`cards`, picked by `draws`;
    `draws` is -1 for a card taken by choice) and of the whole hand they now hold (`hand`, sorted),
    committed to with salts derived from `salt` (replay-format.md, Vampire Empire)."""

    private = True
    drawn = (("cards", "draws"), ("salt", "salt_draw"))
    piles = {"cards": "deck:{owner}"}  # a card taken by choice (draw -1) leaves its pile by CardTaken
    moves = (Move("cards", target="hand:{owner}"),)
    owner: str
    cards: list[str]
    draws: list[int]
    hand: list[str]
    salt: bytes
    salt_draw: int


@event_type
class CardTaken(Event):
    """A player took a chosen card into their hand from their deck, cellar or moat (shown to both);
    `commitments` commit afresh to the whole hand, as for a draw."""

    moves = (Move("card", source="{pile}:{player}"),)  # into the hand by the CardsReceived before it
    player: str
    card: str
    pile: str
    commitments: list[bytes]


@event_type
class CardPlayed(Event):
    """A card left a hand, shown with its salt: played (to the cellar) or discarded (to the moat).
    `use` says why: discard, attack, defence, hide, holy-water or support."""

    moves = (Move("card", source="hand:{player}", target="{pile}:{player}"),)
    player: str
    card: str
    salt: bytes
    use: str
    pile: str


@event_type
class IdentityRevealed(Event):
    """A character's identity was made public with its salt: a holy-water answer, a death, an unmasking
    or the end of the game (`reason`)."""

    character: str
    identity: str
    salt: bytes
    reason: str


@event_type
class CharacterHidden(Event):
    """The vampire player hid a castle character at the bottom of the city."""

    player: str
    character: str


@event_type
class HolyWaterAsked(Event):
    """The human player used holy water to ask a character's identity; `card` is the lower of the two
    holy water cards, which counts in an attack on the character if it proves a vampire of the castle."""

    player: str
    character: str
    card: str


@event_type
class MarkerPlaced(Event):
    """A +1 attack or defence marker was placed on a character (`kind`: attack or defence)."""

    player: str
    character: str
    kind: str


@event_type
class FightStarted(Event):
    """A fight began: `attacker` against `defender`; `holy_water` is the holy water card already counted
    in the first round (the attack that follows a holy-water answer), else empty."""

    player: str
    attacker: str
    defender: str
    holy_water: str


@event_type
class FightCardPlayed(Event):
    """A card counted in the fight for one side (`side`: attack or defence) with its value."""

    player: str
    side: str
    card: str
    value: int


@event_type
class FightRoundEnded(Event):
    """A round of the fight ended with these totals (markers included)."""

    round: int
    attack: int
    defence: int


@event_type
class CharacterKilled(Event):
    """A character died in a fight and left the game."""

    character: str
    attacker: str
    round: int


@event_type
class FightEnded(Event):
    """A fight ended: `killed` says whether the defender died."""

    attacker: str
    defender: str
    killed: bool


@event_type
class TurnPassed(Event):
    """A player let their turn go without an action (`reason`: chose to, out of cards or declined)."""

    player: str
    reason: str


@event_type
class PlayBegan(Event):
    """Cards and tokens are dealt; play begins with this player's turn (the vampire player's)."""

    player: str


@event_type
class FightCardsDone(Event):
    """One side finished playing cards in this round of the fight (`side`: attack or defence)."""

    player: str
    side: str


@event_type
class ScoresCounted(Event):
    """Both players ran out of cards: 1 point per surviving human, 2 per surviving vampire."""

    human: int
    vampire: int
