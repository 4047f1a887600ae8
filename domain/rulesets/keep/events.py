"""The Vampire's Keep's own events (house rules H3); everything else uses the shared Talisman vocabulary
(`domain.rulesets.talisman.events`: its choices, a Follower leaving, an item given up)."""

from __future__ import annotations

from domain.events import Event, event_type


@event_type
class EntryTested(Event):
    """A character tried the Keep Entrance: three dice against Strength + Craft + Lives (must be less)."""

    player: str
    total: int
    target: int
    passed: bool


@event_type
class FlightEnded(Event):
    """A fleeing character reached the Keep Entrance and is outside the Keep again (Keep 10)."""

    player: str


@event_type
class TeleportCounterDrawn(Event):
    """A Teleport Tile was laid on a space and a counter drawn for it: the tile sends to `destination`."""

    picked_field = "counter"
    piles = {"counter": "counters"}
    player: str
    space: int
    counter: str
    destination: int
    draw: int


@event_type
class Teleported(Event):
    """A character was sent by the tile on `tile_space` from one space to another (Keep 6.1)."""

    piece: str
    from_space: int
    to_space: int
    tile_space: int


@event_type
class LoopFailed(Event):
    """A character on a teleport loop rolled above its Craft and is teleported again (Keep 6.3)."""

    player: str


@event_type
class LoopEscaped(Event):
    """A character broke free of a teleport loop, by its roll or automatically after 3 failed turns."""

    player: str
    automatic: bool


@event_type
class ObeliskTested(Event):
    """A character tried to pass the Sacred Obelisk: two dice against Strength + Craft (at most)."""

    player: str
    total: int
    target: int
    passed: bool


@event_type
class SpellCast(Event):
    """The Vampire Wizard cast a spell at a character; its effect events follow."""

    player: str
    spell: str


@event_type
class SpellDiscarded(Event):
    """A spell drawn by the Vampire Wizard was discarded unused (it would do nothing or help the victim)."""

    player: str
    spell: str
    reason: str


@event_type
class TalismanTaken(Event):
    """A character took a Talisman in the Vault: a new one, or one a killed character left there."""

    player: str
    from_vault: bool


@event_type
class ItemGained(Event):
    """A character gained an Object from the Treasure Hoard (Keep 15)."""

    player: str
    item: str


@event_type
class SpellGained(Event):
    """A character gained a spell from the Treasure Hoard (drawn from the Spell deck), or one a killed
    character left in the Vault (Keep 15)."""

    player: str
    spell: str
    from_vault: bool


@event_type
class VaultCardMet(Event):
    """A Vault card was encountered (Keep 9.1) and goes to the Vault discard pile."""

    player: str
    card: str
    outcome: str


# The Keep's own event types, those above: the read side tells them as the Keep run does. (The shared
# Talisman facts the Keep also records, its choices and what it takes away, are in `talisman.events`.)
KEEP_EVENTS: tuple[type[Event], ...] = (
    EntryTested,
    FlightEnded,
    TeleportCounterDrawn,
    Teleported,
    LoopFailed,
    LoopEscaped,
    ObeliskTested,
    SpellCast,
    SpellDiscarded,
    TalismanTaken,
    ItemGained,
    SpellGained,
    VaultCardMet,
)
