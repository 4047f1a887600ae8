"""Talisman facts shared by the Talisman-based rulesets (Dungeon, Keep); fields msgpack-native."""

from __future__ import annotations

from typing import Any

from domain.events import Event, Move, event_type


@event_type
class PlayOpened(Event):
    """Characters are dealt and play opens with this player's turn."""

    player: str


@event_type
class FleeingDeclared(Event):
    """A character declared it is fleeing (irrevocable; every move now goes toward the entrance)."""

    player: str


@event_type
class CardEncountered(Event):
    """A character encountered a face-up card lying on its space."""

    player: str
    card: str
    space: int


@event_type
class CardDiscarded(Event):
    """A card left its space for the discard pile of its deck."""

    player: str
    card: str
    space: int


@event_type
class ObjectTaken(Event):
    """A character picked up an Object (or Magic Object) lying on its space."""

    player: str
    card: str
    space: int


@event_type
class FollowerJoined(Event):
    """A Follower lying on a character's space joined it."""

    player: str
    card: str
    space: int


@event_type
class TrophyTaken(Event):
    """A character killed an enemy card and kept it as a trophy; value is its Strength or Craft."""

    player: str
    card: str
    space: int
    kind: str
    value: int


@event_type
class TrophiesTraded(Event):
    """Trophies worth 7 or more were handed in (to the discard pile) for +amount of a stat."""

    player: str
    cards: list[str]
    stat: str
    amount: int


@event_type
class StatChanged(Event):
    """A character's Strength or Craft changed by amount (negative for a loss)."""

    player: str
    stat: str
    amount: int
    reason: str


@event_type
class GoldChanged(Event):
    """A character's gold changed by amount (negative for a loss)."""

    player: str
    amount: int
    reason: str


@event_type
class GoldTaken(Event):
    """A character picked up the gold lying on its space."""

    player: str
    space: int
    amount: int


@event_type
class LifeSaved(Event):
    """An item (Armour, Shield, Helmet…) saved a character from losing a life."""

    player: str
    item: str


@event_type
class TurnLost(Event):
    """A character will miss its next turn."""

    player: str
    reason: str


@event_type
class TurnSkipped(Event):
    """A character missed a turn it had lost."""

    player: str


@event_type
class DeckReshuffled(Event):
    """A deck ran out; its discard pile (`count` cards: `cards`, sorted) became the deck again (v1 did
    not list the cards)."""

    class_version = 2
    moves = (Move("cards", target="{deck}"),)
    added_in = {"cards": 2}
    deck: str
    count: int
    cards: list[str]

    @staticmethod
    def upcast_v1_v2(fields: dict[str, Any]) -> None:
        """v1 gave only the count: the cards are not known from the event itself."""
        fields["cards"] = []


@event_type
class ChoiceOffered(Event):
    """A space asks the player to choose (the Sentry's toll, the Tome's gift); the turn waits for it."""

    player: str
    kind: str
    options: list[str]


@event_type
class ChoiceMade(Event):
    """The player made the choice a space asked for; its effect follows."""

    player: str
    kind: str
    option: str


@event_type
class FollowerLeft(Event):
    """A Follower left a character (the Tome of the Undead)."""

    player: str
    card: str


@event_type
class ItemGivenUp(Event):
    """A character handed a Follower or a Magic Object to the Sentry (it is discarded)."""

    player: str
    card: str
