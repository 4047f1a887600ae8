"""The Talisman events' sentences, once: every board (the main board, the Dungeon, the Keep and their short
games) tells the shared facts with this table, passing its own names; a board adds its own events'
rows, and replaces a shared row only where its fact is told with more (a deck of its own, a die's place).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.events import (
    CardDrawn,
    CharacterDealt,
    CombatResolved,
    DieRolled,
    Event,
    GameWon,
    LifeGained,
    LifeLost,
    Moved,
    PlayerOut,
)
from domain.rulesets.talisman.events import (
    CardDiscarded,
    CardEncountered,
    DeckReshuffled,
    FleeingDeclared,
    FollowerJoined,
    GoldChanged,
    GoldTaken,
    LifeSaved,
    ObjectTaken,
    PlayOpened,
    StatChanged,
    TrophiesTraded,
    TrophyTaken,
    TurnLost,
    TurnSkipped,
)
from projections.talisman_sheet import combat_sentence, lives

Sentences = dict[type[Event], Callable[[Any], str]]


def _nothing(_: int) -> str:
    return ""


@dataclass(frozen=True)
class BoardWords:
    """How one board names things in the shared sentences."""

    card: Callable[[str], str]  # a card's id → its name (`Goblin`)
    cause: Callable[[str], str]  # what caused a change or fought: `the Goblin`, a player, or the rules' words
    deck: Callable[[str], str]  # a deck's id → its name (`Dungeon deck`)
    where: Callable[[str, int], str]  # a space of a board, as a move names it (`the Sentry (3)`)
    how_moved: Callable[[Moved], str]  # how a piece moved (`fled back`), by the move
    combat_kind: Callable[[str], str]  # a combat's kind, in words (`psychic combat`)
    contest: str  # what a player drops out of: the `race`, the `run`, the `game`
    won: str  # what the winner won: the `Keep run`, the `game`
    character: Callable[[str], str] | None = None  # a character's id → its name (the card's name if None)
    place: Callable[[int], str] = _nothing  # where a card was met or gold found, ending a sentence (` on …`)
    goes_first: str = ""  # where the first player goes, ending a sentence (` to the Keep's door`)
    met: str = "encountered"  # the verb for meeting a card
    causes_in_brackets: bool = False  # a life lost `(the Goblin)` rather than `to the Goblin`
    killed_out: bool = True  # a killed player's belongings stay where they fell (the short games)
    fled: str = ""  # the board a flight leaves (`Dungeon`); none: a flight is not this board's
    die_purposes: Mapping[str, str] = field(default_factory=dict)  # what a die was rolled for, by purpose


def talisman_sentences(words: BoardWords) -> Sentences:
    """Returns the sentences for the events every Talisman board shares, in one board's names."""
    card, cause = words.card, words.cause
    character = words.character or card

    def dealt(e: CharacterDealt) -> str:
        return f"{e.player} {'was dealt' if e.draw >= 0 else 'chose'} the {character(e.character)}."

    def rolled(e: DieRolled) -> str:
        if e.purpose in ("combat", "psychic-combat") and len(e.values) == 2:
            # Told alone (no later result to name the opponent by); the timeline names both when it can.
            kind = e.purpose.replace("-", " ")
            return f"{e.player} rolled {e.values[0]} and their opponent rolled {e.values[1]} in {kind}."
        faces = ", ".join(map(str, e.values))
        return f"{e.player} rolled {faces} {words.die_purposes.get(e.purpose, 'for ' + e.purpose)}."

    def moved(e: Moved) -> str:
        start, end = words.where(e.board, e.from_space), words.where(e.board, e.to_space)
        return f"{e.piece} {words.how_moved(e)} from {start} to {end}."

    def life(e: LifeLost | LifeGained) -> str:
        change, link = ("lost", "to") if isinstance(e, LifeLost) else ("gained", "from")
        why = f"({cause(e.reason)})" if words.causes_in_brackets else f"{link} {cause(e.reason)}"
        return f"{e.player} {change} {lives(e.amount)} {why}."

    def change(player: str, amount: int, what: str, reason: str) -> str:
        return f"{player} {'gained' if amount > 0 else 'lost'} {abs(amount)} {what} ({cause(reason)})."

    def out(e: PlayerOut) -> str:
        if e.reason == "killed" and words.killed_out:
            stay = "their belongings stay where they fell"
            return f"{e.player} was killed and is out of the {words.contest}; {stay}."
        return f"{e.player} is out of the {words.contest} ({e.reason})."

    sentences: Sentences = {
        CharacterDealt: dealt,
        PlayOpened: lambda e: f"Play opened; {e.player} goes first{words.goes_first}.",
        DieRolled: rolled,
        CardDrawn: lambda e: f"{e.player} drew the {card(e.card)} from the {words.deck(e.deck)}.",
        Moved: moved,
        CombatResolved: lambda e: combat_sentence(e, cause(e.opponent), words.combat_kind(e.kind)),
        LifeLost: life,
        LifeGained: life,
        CardEncountered: lambda e: f"{e.player} {words.met} the {card(e.card)}{words.place(e.space)}.",
        CardDiscarded: lambda e: f"The {card(e.card)} was discarded.",
        LifeSaved: lambda e: f"{e.player}'s {card(e.item)} saved a life.",
        ObjectTaken: lambda e: f"{e.player} took the {card(e.card)}.",
        FollowerJoined: lambda e: f"The {card(e.card)} joined {e.player}.",
        TrophyTaken: lambda e: f"{e.player} killed the {card(e.card)} and kept it as a trophy.",
        TrophiesTraded: lambda e: (
            f"{e.player} traded in {', '.join(card(c) for c in e.cards)} for +{e.amount} {e.stat.title()}."
        ),
        StatChanged: lambda e: change(e.player, e.amount, e.stat.title(), e.reason),
        GoldChanged: lambda e: change(e.player, e.amount, "gold", e.reason),
        GoldTaken: lambda e: f"{e.player} picked up {e.amount} gold{words.place(e.space)}.",
        TurnLost: lambda e: f"{e.player} will miss a turn ({cause(e.reason)}).",
        TurnSkipped: lambda e: f"{e.player} missed a turn.",
        DeckReshuffled: lambda e: (
            f"The {words.deck(e.deck)} ran out; {e.count} discarded cards were shuffled back in."
        ),
        PlayerOut: out,
        GameWon: lambda e: f"{e.player} won the {words.won}: {e.reason}!",
    }
    if words.fled:
        sentences[FleeingDeclared] = lambda e: f"{e.player} is fleeing the {words.fled}."
    return sentences


def faces_words(values: list[int]) -> str:
    """Returns the faces a roll showed as the main board tells them: `3`, `3 and 5`, `1, 4 and 6`."""
    faces = [str(v) for v in values]
    return faces[0] if len(faces) == 1 else f"{', '.join(faces[:-1])} and {faces[-1]}"


def short_combat_kind(kind: str) -> str:
    """Names a combat's kind as the short games record it (`psychic` or else combat)."""
    return "psychic combat" if kind == "psychic" else "combat"
