"""The Dungeon expansion's own events on the main board (Dungeon 5.3, 8.1); entering and leaving are
the main board's `RegionCrossed`, moves inside the shared `Moved`. Fields msgpack-native."""

from __future__ import annotations

from domain.events import Event, Move, event_type


@event_type
class HorseDiscarded(Event):
    """A character going down into the Dungeon discarded a horse it had (Dungeon 5.3): a Purchase item
    back to its pile (`pile` = "purchase"), any other card to its deck's discards (`pile` = "": a pile the
    ledger does not follow)."""

    moves = (Move("card", target="{pile}"),)
    player: str
    card: str
    pile: str


@event_type
class TreasureChamberRolled(Event):
    """A character leaving the Treasure Chamber read its table (Dungeon 8.1): the die's `face`, +1 for
    each character on the Crown of Command (`bonus`), `total` the row read (over 6 counts as 6)."""

    player: str
    face: int
    bonus: int
    total: int
    to_space: str
