"""The main board's own events (house rules H5); the shared vocabulary comes from `domain/events.py`,
`talisman/events.py` and the Keep's choices (`ChoiceOffered`/`ChoiceMade`). Fields msgpack-native."""

from __future__ import annotations

from domain.events import Event, Move, event_type


@event_type
class RegionCrossed(Event):
    """A character crossed from one region (board) to another; `Moved` stays within one board."""

    player: str
    from_board: str
    from_space: int
    to_board: str
    to_space: int
    reason: str


@event_type
class CharacterDied(Event):
    """A character lost its last life; what it carried stays on its space (house rule H1.7)."""

    player: str
    character: str
    board: str
    space: int


@event_type
class CharacterRestarted(Event):
    """A killed character's player was dealt a new character at random on its starting space; the
    killed character's card goes back among those to deal (house rule H5.17)."""

    picked_field = "character"
    piles = {"character": "characters"}
    moves = (Move("killed", target="characters"),)
    player: str
    character: str
    draw: int
    killed: str
    board: str
    space: int


@event_type
class CommandSpellCast(Event):
    """The character on the Crown of Command cast the Command Spell (house rule H5.19); `hit` tells whether
    every other character loses a life."""

    player: str
    face: int
    hit: bool


@event_type
class ItemBought(Event):
    """A character paid gold for an item of the Purchase deck (the Blacksmith, the Alchemist)."""

    moves = (Move("card", source="purchase"),)
    player: str
    card: str
    price: int


@event_type
class ItemDropped(Event):
    """A character put an Object or a Follower down on its space (paid to the Enchantress, or bound to
    an alignment it no longer has)."""

    player: str
    card: str
    board: str
    space: int


@event_type
class QuestGiven(Event):
    """The Warlock set a character a quest (its goal, how much, which space); its reward is a Talisman."""

    player: str
    quest: str
    goal: str
    amount: int
    target: str


@event_type
class QuestCompleted(Event):
    """A character completed its Warlock's quest."""

    player: str
    quest: str


@event_type
class AlignmentChanged(Event):
    """A character's alignment became good, neutral or evil."""

    player: str
    alignment: str
    reason: str


@event_type
class ItemSold(Event):
    """A character sold an Object for gold: a Purchase item back to its pile (`pile` = "purchase"), an
    Adventure Object to the Adventure discards (`pile` = "": a pile the ledger does not follow)."""

    moves = (Move("card", target="{pile}"),)
    player: str
    card: str
    gold: int
    pile: str


@event_type
class SpiritsEmpowered(Event):
    """Every Spirit has +amount Craft until the next Event is met (0: the Event's power ended)."""

    player: str
    card: str
    amount: int
