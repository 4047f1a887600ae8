"""The expansions' events in a `talisman` game told in plain words (house rules H5: the Dungeon and the Keep
beside the main board).

Each expansion may tell its own new events in a module of its own (`talisman_dungeon_words`,
`talisman_keep_words`, each with `describe(event) -> str | None`), asked first when it exists (but for
a flight, which either expansion records, and a teleport, whose spaces are named here board and all:
`the Sentry (Keep 4)`); the events the short games already have keep the short games' words (the Keep
run's timeline). Anything else is left to the main board's timeline, whose wording names the
expansions' boards, decks and cards through `talisman_names`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from domain import events as core_events
from domain.events import CardDrawn, DieRolled, Event, Moved
from domain.rulesets.dungeon.state import DECK as DUNGEON_DECK
from domain.rulesets.keep.events import KEEP_EVENTS, TeleportCounterDrawn, Teleported
from domain.rulesets.keep.state import BOARD as KEEP
from domain.rulesets.keep.state import KEEP_DECK, VAULT_DECK
from domain.rulesets.talisman.events import ChoiceMade, ChoiceOffered, FleeingDeclared, ItemGivenUp
from domain.rulesets.talisman.main.events import RegionCrossed
from projections import keep_timeline
from projections.talisman_names import EXPANSION_BOARDS, name_of, where

if TYPE_CHECKING:  # the timeline hands its runs of stored events over
    from event_store.recorded import RecordedEvent

Describer = Callable[[Event], "str | None"]

# The expansions' own wording modules, by the expansion whose events they tell (asked in this order).
WORDS_MODULES = ("projections.talisman_dungeon_words", "projections.talisman_keep_words")

# The expansions' decks, as a sentence names them (the main board's timeline adds them to its own).
DECKS = {DUNGEON_DECK: "Dungeon deck", KEEP_DECK: "Keep deck", VAULT_DECK: "Vault deck"}

# What a die is rolled for on the expansions' boards (Keep 5-9), after the main board's purposes.
DIE_PURPOSES = {
    **keep_timeline.SPACE_PURPOSES,
    "keep-movement": "to move through the Keep",
    "warlock-keep": "at the Warlock's door to the Keep",
    "keep-exit": "on the Keep's Exit Table",
    "treasure-chamber": "on the Treasure Chamber's table",  # the way out of the Dungeon
}

# How a character moves on the expansions' boards (Dungeon 7.3, 9; Keep 8.2, 10), by the move's reason.
MOVES = {
    "roll": "moved",
    "retreat": "fell back",
    "flight": "fled",
    "card": "was sent back",
    "sentry": "was driven back by the Sentry",
}

# The Keep's choices (Keep 8.2-8.4), told as the Keep run tells them; the Ethereal Portal's (Keep 4.1)
# by talisman_keep_words.
KEEP_CHOICES = frozenset({"sentry-toll", "tome-gift", "wizard-target", "keep-portal"})


@cache
def words_describers() -> tuple[Describer, ...]:
    """Returns the `describe` of each expansion wording module that exists, in `WORDS_MODULES` order."""
    found: list[Describer] = []
    for name in WORDS_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise  # the module is there but something it imports is not: a real error
            continue
        describer = getattr(module, "describe", None)
        if describer is not None:
            found.append(describer)
    return tuple(found)


def _keep_kind(kind: str) -> str:
    """Returns a Keep choice's kind as the Keep run names it (`keep:sentry-toll` → `sentry-toll`), or ""."""
    return next((part for part in kind.split(":") if part in KEEP_CHOICES), "")  # (`wizard-target:<spell>`)


def _keep_choice(event: Event) -> bool:
    return isinstance(event, ChoiceOffered | ChoiceMade) and bool(_keep_kind(event.kind))


def concerns_expansion(event: Event, main_types: frozenset[type[Event]]) -> bool:
    """Tells whether an event is an expansion's: a type the main board does not tell, or one of its own
    types on an expansion's board, deck or choice."""
    if type(event) not in main_types:
        # The game's own facts (GameCreated, SeedCommitted…) are the generic timeline's, in every game.
        return type(event).__module__ != core_events.__name__
    if _keep_choice(event):
        return True
    fields = event.to_fields()
    boards = {fields.get(key) for key in ("board", "from_board", "to_board")}
    return bool(boards & set(EXPANSION_BOARDS)) or fields.get("deck") in DECKS


def _choice(e: ChoiceOffered | ChoiceMade) -> str | None:
    kind = _keep_kind(e.kind)
    return keep_timeline.choice_words(e, kind, name_of) if kind else None


def _drawn(e: CardDrawn) -> str | None:
    if e.deck == VAULT_DECK:
        return keep_timeline.describe(e)
    return None  # the main board's sentence, with the deck's name


_OWN: dict[type[Event], Callable[[Any], str | None]] = {
    # The Keep run's sentences, with the main board's cards named too (a Spell, an Object from outside)
    # and the Keep's spaces named board and all.
    **keep_timeline.keep_sentences(name_of, lambda number: where(KEEP, number)),
    FleeingDeclared: lambda e: f"{e.player} is fleeing, back the way they came in.",
    CardDrawn: _drawn,
    ChoiceOffered: _choice,
    ChoiceMade: _choice,
}
# Told here before any wording module: a flight is either expansion's (the run tells whose, describe_at),
# and a teleport's spaces are named board and all, as every other position in a main-board game.
_TOLD_HERE = (FleeingDeclared, Teleported, TeleportCounterDrawn)
# Told as the Keep run tells them: the Keep's own events, and an item given up to the Sentry (the main
# board has its own sentences for the other shared facts the Keep records: a Follower leaving, its choices).
_KEEP_RUN_WORDED = frozenset({*KEEP_EVENTS, ItemGivenUp})


def _short_game_words(event: Event) -> str | None:
    """Tells an event the Keep run has, in its words (positions named board and all)."""
    own = _OWN.get(type(event))
    if own is not None:
        return own(event)
    return keep_timeline.describe(event) if type(event) in _KEEP_RUN_WORDED else None


# How a flight is told once the run says which board it is on (Dungeon 9.1, Keep 10).
_FLIGHTS = {
    "dungeon": "is fleeing the Dungeon, back to its Entrance",
    "keep": "is fleeing the Vampire's Keep, back to its door",
}


def _board_of(events: Sequence[RecordedEvent], index: int, player: str) -> str:
    """Returns the board the run last put a player on (a move or a crossing before `index`), or ""."""
    for earlier in (events[i].event for i in range(index - 1, -1, -1)):
        if isinstance(earlier, Moved) and earlier.piece == player:
            return earlier.board
        if isinstance(earlier, RegionCrossed) and earlier.player == player:
            return earlier.to_board
    return ""


def _flight_at(events: Sequence[RecordedEvent], index: int, e: FleeingDeclared) -> str | None:
    flight = _FLIGHTS.get(_board_of(events, index, e.player))
    return f"{e.player} {flight}." if flight else None


def describe_at(events: Sequence[RecordedEvent], index: int) -> str | None:
    """Tells what only the run around an event makes clear: whose board a flight leaves (Dungeon 9.1, Keep
    10), the spell the Vampire Wizard's offer or aim is about (Keep 8.4); None for anything else."""
    event = events[index].event
    if isinstance(event, FleeingDeclared):
        return _flight_at(events, index, event)
    if isinstance(event, ChoiceOffered | ChoiceMade) and _keep_kind(event.kind) == "wizard-target":
        spell = keep_timeline.spell_drawn_before(events, index)
        return keep_timeline.choice_words(event, "wizard-target", name_of, spell) if spell else None
    return None


def describe_expansion(event: Event) -> str | None:
    """Tells an expansion's event: by its own wording module first, then as its short game does; None
    to leave it to the main board's timeline."""
    if isinstance(event, _TOLD_HERE):
        return _short_game_words(event)
    for describer in words_describers():
        told = describer(event)
        if told:
            return told
    return _short_game_words(event)


def moved_on(e: Moved) -> str | None:
    """Returns how a character moved on an expansion's board (None on the main board's regions)."""
    return MOVES.get(e.reason, "moved") if e.board in EXPANSION_BOARDS else None


def crossing(e: RegionCrossed) -> str | None:
    """Returns how a character went into or out of an expansion's board (None between the regions)."""
    if e.to_board in EXPANSION_BOARDS:
        return f"went into {EXPANSION_BOARDS[e.to_board]}"
    if e.from_board in EXPANSION_BOARDS:
        return f"came out of {EXPANSION_BOARDS[e.from_board]}"
    return None


def die_purpose(e: DieRolled) -> str | None:
    """Returns what a die was rolled for on an expansion's board, or None."""
    return DIE_PURPOSES.get(e.purpose)
