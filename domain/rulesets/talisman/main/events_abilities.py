"""The events of the characters' abilities, Spells and character-against-character encounters
(house rules H1, H5.14). Fields msgpack-native; a Spell cast goes to `discard:spells` (a pile the ledger
does not follow, docs/replay-format.md)."""

from __future__ import annotations

from domain.events import Event, Move, event_type


@event_type
class SpellInvoked(Event):
    """A character cast one of its Spells (at `target`, "" for itself); the Spell is discarded."""

    player: str
    spell: str
    target: str


@event_type
class SpellCountered(Event):
    """A Spell just cast was cancelled by the target's Counterspell: it has no effect."""

    player: str
    spell: str


@event_type
class EffectReadied(Event):
    """An effect waits for the character's next fight of kind `when` (a Spell cast ahead, an ability)."""

    player: str
    name: str
    effect: str
    amount: int
    when: str
    lasting: bool


@event_type
class EffectSpent(Event):
    """A readied effect was used up in a fight."""

    player: str
    name: str
    effect: str


@event_type
class EffectWasted(Event):
    """A readied effect was used up without acting (`reason`: why, in words a player reads)."""

    player: str
    name: str
    effect: str
    reason: str


@event_type
class AbilityUsed(Event):
    """A character's ability acted (its id), when nothing else records it (evading, passing a space)."""

    player: str
    ability: str
    detail: str


@event_type
class EnemyEvaded(Event):
    """A character evaded an enemy lying on its space: it stays face up and blocks nothing this turn."""

    player: str
    card: str


@event_type
class EnemyDestroyed(Event):
    """A Spell destroyed an enemy lying on the character's space; it gives no trophy (discarded)."""

    player: str
    card: str
    space: int


@event_type
class CharacterAttacked(Event):
    """A character attacked another on its space, in Combat or Psychic Combat (`kind`)."""

    player: str
    victim: str
    kind: str


@event_type
class SpoilsTaken(Event):
    """The winner of a fight between characters took its spoils from the loser: `life`, `gold` or an
    Object (its card id, carried over to the winner)."""

    player: str
    loser: str
    spoils: str


@event_type
class GoldStolen(Event):
    """A character took Gold from another (the Thief's Light Fingers, Thieving Hands)."""

    player: str
    victim: str
    amount: int
    reason: str


@event_type
class FollowerTaken(Event):
    """A character took a Follower from another (the Sorceress's Beguile)."""

    player: str
    victim: str
    card: str


@event_type
class SpellTaken(Event):
    """A character took one of another's Spells (`face` of a die with as many sides as it held, in
    sorted order)."""

    player: str
    victim: str
    spell: str
    face: int


@event_type
class CardDestroyed(Event):
    """A card lying face up on a space was destroyed (Destruction, the Earthquake): to `deck`'s discards."""

    player: str
    card: str
    deck: str
    board: str
    space: int


@event_type
class CardDisplaced(Event):
    """A card lying face up on a space moved to another space of the same board (Displacement)."""

    player: str
    card: str
    board: str
    from_space: int
    to_space: int


@event_type
class CardReturned(Event):
    """A card lying face up on a space went back into its deck (Metamorph): the space draws anew."""

    moves = (Move("card", target="{deck}"),)
    player: str
    card: str
    deck: str
    board: str
    space: int


@event_type
class SpellLaid(Event):
    """A Spell just cast was laid face up on a space (Hex, Barrier), out of the Spell discards."""

    player: str
    spell: str
    board: str
    space: int
