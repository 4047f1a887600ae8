"""Vampire Empire's events told in plain words (the timeline's ruleset wording, house rules H4).

Private events (identity tokens, cards into a hand) are worded for their owner: the timeline is given them
only in a copy of the log that may show them; other copies hold a `Sealed` stand-in, which the shared
timeline words. No line prints a salt or a commitment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.events import Event, GameEnded
from domain.rulesets.castle.events import (
    CardPlayed,
    CardsDrawn,
    CardsReceived,
    CardTaken,
    CastleFilled,
    CharacterHidden,
    CharacterKilled,
    CityShuffled,
    FightCardPlayed,
    FightCardsDone,
    FightEnded,
    FightRoundEnded,
    FightStarted,
    HolyWaterAsked,
    IdentitiesCommitted,
    IdentityRevealed,
    IdentityTokensDrawn,
    MarkerPlaced,
    PlayBegan,
    ScoresCounted,
    TurnPassed,
)
from domain.rulesets.castle.options import card_id_of, character_id_of
from domain.rulesets.castle.state import SIDES, VAMPIRE
from projections.castle_view import REASONS, card_label, card_name, character_name, find_card


def _names(characters: list[str]) -> str:
    return ", ".join(character_name(c) for c in characters)


def _is(identity: str) -> str:
    return "a vampire" if identity == VAMPIRE else "human"


def _tokens(e: IdentityTokensDrawn) -> str:
    if e.identity == VAMPIRE:
        return f"{e.owner} drew the vampire tokens: {_names(e.characters)}."
    return f"{e.owner} drew the human tokens: {_names(e.characters)} (known humans)."


def _drawn(e: CardsDrawn) -> str:
    count = e.count  # the commitments are to the whole hand, not to the cards drawn
    if count == 0:
        return f"{e.player} drew no cards (hand full or deck empty)."
    return f"{e.player} drew {count} card{'s' if count != 1 else ''}."


def _filled(e: CastleFilled) -> str:
    if e.draw < 0:
        return f"{character_name(e.character)} came back into the castle from the bottom of the city."
    return f"{character_name(e.character)} entered the castle from the city."


_USES = {
    "discard": "discarded {card} to the moat",
    "attack": "played {card} from hand for the attack",
    "defence": "played {card} from hand for the defence",
    "hide": "played {card} to hide a character",
    "holy-water": "played {card} to ask an identity",
    "support": "played the support card {card}",
}


def _played(e: CardPlayed) -> str:
    done = _USES.get(e.use, "played {card} (" + e.use + ")").format(card=card_label(e.card))
    return f"{e.player} {done}."


_REVEALS = {
    "holy-water": "Holy water tells: {who} is {what}.",
    "death": "{who} was {what} (revealed at death).",
    "unmasked": "{who} is {what} (unmasked).",
    "game-end": "{who} was {what} (revealed at the end of the game).",
}


def _revealed(e: IdentityRevealed) -> str:
    wording = _REVEALS.get(e.reason, "{who} is {what} (" + e.reason + ").")
    return wording.format(who=character_name(e.character), what=_is(e.identity))


def _fight_started(e: FightStarted) -> str:
    fight = f"{e.player} starts a fight: {character_name(e.attacker)} attacks {character_name(e.defender)}"
    if e.holy_water:
        return f"{fight}, with {card_label(e.holy_water)} already counting."
    return f"{fight}."


def _fight_ended(e: FightEnded) -> str:
    if e.killed:
        return f"The fight is over: {character_name(e.defender)} died."
    return f"The fight is over: {character_name(e.defender)} held out against {character_name(e.attacker)}."


_PASSES = {
    "chose to": "{player} passed.",
    "out of cards": "{player} has no cards left and passes.",
    "declined": "{player} declined to attack the unmasked character.",
}


def _ended(e: GameEnded) -> str:
    reason = REASONS.get(e.reason, e.reason)
    return (
        f"The game ended: {e.winner} won ({reason})." if e.winner else f"The game ended in a tie ({reason})."
    )


_DESCRIBERS: dict[type[Event], Callable[[Any], str]] = {
    CityShuffled: lambda e: f"The {len(e.characters)} characters were shuffled face down into the city.",
    CastleFilled: _filled,
    IdentityTokensDrawn: _tokens,
    IdentitiesCommitted: lambda e: (
        f"The host committed to the identity of each of the {len(e.commitments)} characters."
    ),
    CardsDrawn: _drawn,
    CardsReceived: lambda e: (
        f"Into {e.owner}'s hand: {', '.join(card_label(c) for c in e.cards)}."
        if e.cards
        else f"No card came into {e.owner}'s hand."
    ),
    CardTaken: lambda e: f"{e.player} took {card_label(e.card)} from the {e.pile} into hand.",
    CardPlayed: _played,
    IdentityRevealed: _revealed,
    CharacterHidden: lambda e: f"{e.player} hid {character_name(e.character)} at the bottom of the city.",
    HolyWaterAsked: lambda e: (
        f"{e.player} used holy water to ask about {character_name(e.character)} "
        f"({card_label(e.card)} would count in an attack on it)."
    ),
    MarkerPlaced: lambda e: f"{e.player} placed a +1 {e.kind} marker on {character_name(e.character)}.",
    FightStarted: _fight_started,
    FightCardPlayed: lambda e: f"{e.player}'s {card_name(e.card)} adds {e.value} to the {e.side}.",
    FightCardsDone: lambda e: f"{e.player} plays no more {e.side} cards this round.",
    FightRoundEnded: lambda e: f"Round {e.round} ended: attack {e.attack} against defence {e.defence}.",
    CharacterKilled: lambda e: (
        f"{character_name(e.character)} was killed by {character_name(e.attacker)} in round {e.round}."
    ),
    FightEnded: _fight_ended,
    TurnPassed: lambda e: _PASSES.get(e.reason, "{player} passed (" + e.reason + ").").format(
        player=e.player
    ),
    PlayBegan: lambda e: f"Cards and identity tokens are dealt; {e.player} (the vampire player) begins.",
    ScoresCounted: lambda e: f"Both players are out of cards: humans score {e.human}, vampires {e.vampire}.",
    GameEnded: _ended,
}


def describe(event: Event) -> str | None:
    """Tells a Vampire Empire event in plain English, or returns None to leave it to the shared timeline."""
    describer = _DESCRIBERS.get(type(event))
    return describer(event) if describer else None


# An action told without the state it was chosen in (a viewer's copy that cannot list another player's
# options): worded from the ids and the content, as near the label `actions` showed as the ids allow.
_PLAIN_ACTIONS = {
    "draw": "Draw back up to 8 cards",
    "pass": "End the turn without an action",
    "decline": "Let the unmasked vampire be",
    "done": "Play no more cards this round",
}
_ON_CHARACTER = {
    "reveal": "Unmask {c}, a vampire",
    "hide": "Hide {c} under the city (3 red cards)",
    "holy-water": "Ask {c}'s identity with holy water",
}


def action_label(action_id: str, side: str) -> str | None:
    """Words a Vampire Empire action id for a player of `side` ("" when unknown), or None."""
    kind, _, rest = action_id.partition(":")
    parts = rest.split(":") if rest else []

    def card(short: str) -> str:
        return card_label(card_id_of(side, short)) if side else _either_side(card_label, short)

    if not parts:
        return _PLAIN_ACTIONS.get(kind)
    if kind in _ON_CHARACTER:
        return _ON_CHARACTER[kind].format(c=character_name(character_id_of(parts[0])))
    if kind == "discard":
        return f"Discard {card(parts[0])}"
    if kind == "play":
        return f"Play {card(parts[0])}"
    if kind == "attack" and len(parts) == 2:
        return (
            f"{character_name(character_id_of(parts[0]))} attacks {character_name(character_id_of(parts[1]))}"
        )
    if kind == "support":
        short = parts[0]
        unknown = "A support card"
        name = card_name(card_id_of(side, short)) if side else _either_side(card_name, short, unknown)
        return _support_label(name, parts[1:], card)
    return None


def _either_side(words: Callable[[str], str], short: str, unknown: str = "a card") -> str:
    """Names a card by its short id when the side that holds it is unknown: as the one deck that has
    it calls it, or `a card` when both decks have one of that id (never the id itself)."""
    named = {words(card_id_of(side, short)) for side in SIDES if find_card(card_id_of(side, short))}
    return named.pop() if len(named) == 1 else unknown


def _support_label(name: str, target: list[str], card: Callable[[str], str]) -> str:
    if not target:
        return f"{name}: draw 2 cards"
    character = character_id_of(target[0])
    if character_name(character) != target[0]:  # a known character: a marker is placed on it
        return f"{name}: a marker on {character_name(character)}"
    return f"{name}: take {card(target[0])}"
