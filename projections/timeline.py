"""The timeline: every event told in plain words, with ruleset-specific wording where it knows better."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.events import (
    ActionTaken,
    CardDrawn,
    CharacterDealt,
    CombatResolved,
    DieRolled,
    EntropyAdded,
    Event,
    ForkedFrom,
    GameCreated,
    GameEnded,
    GameWon,
    LifeGained,
    LifeLost,
    Moved,
    PlayerOut,
    Sealed,
    SeedCommitted,
    SeedRevealed,
    TurnEnded,
)
from projections.views import ruleset_describer


def _created(e: GameCreated) -> str:
    seats = ", ".join(p["name"] + (f" ({p['character']})" if p["character"] else "") for p in e.players)
    scripted = " with scripted dice" if e.scripted else ""
    return f"A game of {e.ruleset} was set up for {seats}{scripted}."


def _die(e: DieRolled) -> str:
    faces = ", ".join(str(v) for v in e.values)
    dice = "a die" if len(e.values) == 1 else f"{len(e.values)} dice"
    return f"{e.player} rolled {dice} for {e.purpose}: {faces}."


def _dealt(e: CharacterDealt) -> str:
    how = "was dealt" if e.draw >= 0 else "chose"
    return f"{e.player} {how} the {e.character.rsplit('/', 1)[-1]}."


def _forked(e: ForkedFrom) -> str:
    dice = "the same dice" if e.same_dice else "a new seed"
    seed = "revealed" if e.seed else "still secret"
    return (
        f"This game continues game {e.game} from its event {e.version} (chain {e.chain.hex()[:12]}…), "
        f"with {dice}; the original's seed was {seed} then."
    )


# How the host knew the player chose an action (ActionTaken.auth), said after it in the timeline.
AUTH_WORDS = {"signed": " (signed by their key)", "mail": " (by mail, on the host's word)"}

_GENERIC: dict[type[Event], Callable[[Any], str]] = {
    Sealed: lambda e: (
        f"Something only {'the host' if e.owner in ('', 'host') else e.owner} may see happened "
        f"({e.type}, sealed)."
    ),
    ForkedFrom: _forked,
    GameCreated: _created,
    SeedCommitted: lambda e: f"The host committed to a secret dice seed ({e.commitment.hex()[:12]}…).",
    EntropyAdded: lambda e: f"{e.player} added entropy to the dice.",
    ActionTaken: lambda e: (
        "The host started the game."
        if e.action == "start"
        else f"{e.player} chose to {e.action}{AUTH_WORDS.get(e.auth, '')}."
    ),
    SeedRevealed: lambda e: (
        f"The host revealed the dice seed ({e.seed.hex()[:12]}…); every roll can be checked."
    ),
    CharacterDealt: _dealt,
    DieRolled: _die,
    CardDrawn: lambda e: f"{e.player} drew {e.card.rsplit('/', 1)[-1]} from the {e.deck} deck.",
    Moved: lambda e: f"{e.piece} moved from space {e.from_space} to space {e.to_space} ({e.reason}).",
    CombatResolved: lambda e: (
        f"{e.player} ({e.player_total}) fought {e.opponent} ({e.opponent_total}) in {e.kind}: {e.outcome}."
    ),
    LifeLost: lambda e: f"{e.player} lost {e.amount} {'life' if e.amount == 1 else 'lives'} ({e.reason}).",
    LifeGained: lambda e: (
        f"{e.player} gained {e.amount} {'life' if e.amount == 1 else 'lives'} ({e.reason})."
    ),
    TurnEnded: lambda e: f"{e.player}'s turn ended; {e.next_player} is next.",
    PlayerOut: lambda e: f"{e.player} is out of the game ({e.reason}).",
    GameWon: lambda e: f"{e.player} won the game ({e.reason}).",
    GameEnded: lambda e: (
        f"The game ended{' with ' + e.winner + ' winning' if e.winner else ' with no winner'} ({e.reason})."
    ),
}


def describe_event(ruleset: str, event: Event) -> str:
    """Tells one event in plain words, preferring the ruleset's own wording."""
    specific = ruleset_describer(ruleset)
    if specific is not None:
        text = specific(event)
        if text:
            return text
    generic = _GENERIC.get(type(event))
    if generic is not None:
        return generic(event)
    fields = ", ".join(f"{k}={v}" for k, v in event.to_fields().items())
    return f"{event.type_name}: {fields}."
