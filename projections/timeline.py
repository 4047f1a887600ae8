"""The timeline: every event told in plain words, with ruleset-specific wording where it knows better."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.actions import HOST
from domain.dice import CHAIN_LINKS
from domain.events import (
    ActionTaken,
    BotRoundCapSet,
    CardDrawn,
    CharacterDealt,
    CombatResolved,
    DiceChainCommitted,
    DiceKeyDealt,
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
from domain.game import GameFold, Rewinds
from domain.rulesets.talisman.events import ChoiceMade
from event_store.recorded import RecordedEvent
from projections.club_words import CLUB_WORDS
from projections.views import ruleset_describer

# The action id of a pending choice's option, `choose:<option>` (the main board's and the Keep run's).
CHOOSE = "choose:"
# Die purposes where a roll holds two dice: the player's, then the opponent's.
COMBAT_ROLLS = {"combat": "combat", "psychic-combat": "psychic combat"}


def _created(e: GameCreated) -> str:
    seats = ", ".join(
        p["name"] + (f" ({_character_words(e.ruleset, p['character'])})" if p["character"] else "")
        for p in e.players
    )
    scripted = " with scripted dice" if e.scripted else ""
    return f"A game of {e.ruleset} was set up for {seats}{scripted}."


def _die(e: DieRolled) -> str:
    faces = ", ".join(str(v) for v in e.values)
    dice = "a die" if len(e.values) == 1 else f"{len(e.values)} dice"
    return f"{e.player} rolled {dice} for {e.purpose}: {faces}."


def _character_words(ruleset: str, ref: str) -> str:
    """Names a character a seat asked for (`talisman/character/warrior`: Warrior; a side as it is)."""
    if "/" not in ref:
        return ref
    module = _describer_module(ruleset)
    for naming in ("character_name", "name_of"):
        words = getattr(module, naming, None)
        if words is not None and "/" not in (found := str(words(ref))):
            return found
    return ref.rsplit("/", 1)[-1].replace("-", " ").title()


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
AUTH_WORDS = {
    "signed": " (signed by their key)",
    "mail": " (by mail, on the host's word)",
    "default": " (the host's bot, as their turn lapsed)",
}

_GENERIC: dict[type[Event], Callable[[Any], str]] = {
    Sealed: lambda e: (
        f"A private message for {e.owner} (sealed)."
        if e.type == "PrivatePressSent"
        else f"The host dealt {e.owner} a private dice key (sealed)."
        if e.type == "DiceKeyDealt"
        else f"Something only {'the host' if e.owner in ('', 'host') else e.owner} may see happened "
        f"({e.type}, sealed)."
    ),
    ForkedFrom: _forked,
    GameCreated: _created,
    SeedCommitted: lambda e: f"The host committed to a secret dice seed ({e.commitment.hex()[:12]}…).",
    DiceChainCommitted: lambda e: (
        f"The host committed to the dice keys of actions {e.segment * CHAIN_LINKS + 1}–"
        f"{(e.segment + 1) * CHAIN_LINKS} ({e.anchor.hex()[:12]}…); each action's key comes with it, "
        "so its dice can be checked at once."
    ),
    DiceKeyDealt: lambda e: f"The host dealt {e.owner} a private dice key, for {e.owner}'s eyes only.",
    EntropyAdded: lambda e: f"{e.player} added entropy to the dice.",
    BotRoundCapSet: lambda e: (
        f"The host let bots finish the game and turned on the house round cap for bot games: if nobody has "
        f"won after {e.rounds} rounds, the game ends drawn (house rule H6.1)."
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
    **CLUB_WORDS,
}


def humanised_action(action_id: str, name: Callable[[str], str] | None = None) -> str:
    """Words an action id no label is known for: `support:draw-2-a` becomes `support draw 2 a`, and a
    content id in it its name (by `name`, else its last part): `choose:keep/card/bat` `choose Bat`."""
    words = [
        (name(part) if name else part.rsplit("/", 1)[-1]) if "/" in part else re.sub(r"-+", " ", part)
        for part in action_id.split(":")
    ]
    return " ".join(word for word in words if word).strip()


def describe_action(ruleset: str, event: ActionTaken, label: str | None = None, side: str = "") -> str:
    """Tells who chose which action, in the words `actions` listed it with (its label) when known."""
    if event.player == HOST and event.action == "start":
        return "The host started the game."
    if label is None:
        module = _describer_module(ruleset)
        words = getattr(module, "action_label", None)
        label = (words(event.action, side) if words else None) or humanised_action(
            event.action, getattr(module, "name_of", None)
        )
    return f"{event.player} chose: {label}{AUTH_WORDS.get(event.auth, '')}."


def _describer_module(ruleset: str) -> Any:
    """Returns the module holding the ruleset's wording (its optional `action_label`, `opponent_name`)."""
    describer = ruleset_describer(ruleset)
    return sys.modules[describer.__module__] if describer is not None else None


def describe_event(ruleset: str, event: Event, label: str | None = None) -> str:
    """Tells one event in plain words, preferring the ruleset's own wording (`label`: the label the
    action of an ActionTaken had when it was taken)."""
    if isinstance(event, ActionTaken):
        return describe_action(ruleset, event, label)
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


def describe_events(
    ruleset: str, events: Sequence[RecordedEvent], labels: Mapping[int, str] | None = None
) -> list[str]:
    """Tells a run of events, one line each: actions by their labels (folded from the start of the log,
    or given by version in `labels`), and each combat roll with the name of who rolled each die. A
    choice recorded just after the action that made it is told once, with the action: its own line is
    "" (`told_lines` leaves such lines out)."""
    known = {**action_labels(events), **(labels or {})}
    sides = _sides(events)
    # A ruleset's wording may need what came before an event (`describe_at(events, index)`, or None).
    in_run = getattr(_describer_module(ruleset), "describe_at", None)
    lines = []
    for index, recorded in enumerate(events):
        event = recorded.event
        if is_echo(events, index):
            lines.append("")  # the choice was told with the action that made it
        elif in_run is not None and (told := in_run(events, index)) is not None:
            lines.append(told)
        elif isinstance(event, ActionTaken):
            side = sides.get(event.player, "")
            lines.append(describe_action(ruleset, event, known.get(recorded.version), side))
        elif isinstance(event, DieRolled) and event.purpose in COMBAT_ROLLS and len(event.values) == 2:
            lines.append(_combat_roll(ruleset, event, events[index + 1 :]))
        else:
            lines.append(describe_event(ruleset, event))
    return lines


def is_echo(events: Sequence[RecordedEvent], index: int) -> bool:
    """Tells whether event `index` records the choice the action just before it made (ChoiceMade after
    `choose:<option>` by the same player): the action's label already said it."""
    event = events[index].event
    if not isinstance(event, ChoiceMade) or index == 0:
        return False
    before = events[index - 1].event
    return (
        isinstance(before, ActionTaken)
        and before.player == event.player
        and (before.action == f"{CHOOSE}{event.option}")
    )


def told_lines(events: Sequence[RecordedEvent], lines: Sequence[str]) -> list[tuple[RecordedEvent, str]]:
    """Pairs each event with its line, leaving out the events told with the line before (`is_echo`)."""
    return [(recorded, text) for recorded, text in zip(events, lines, strict=True) if text]


def action_labels(events: Sequence[RecordedEvent]) -> dict[int, str]:
    """Returns, by version, the label each action had among the legal actions when it was taken; only a
    log from its start can be folded, and a viewer's copy may not know another player's options."""
    if not events or events[0].version != 1:
        return {}
    pairs = [(r.event, r.chain) for r in events]
    fold = GameFold(rewind_source=Rewinds.of(pairs))
    labels: dict[int, str] = {}
    for recorded in events:
        event = recorded.event
        if isinstance(event, ActionTaken) and event.player != HOST and fold.ruleset_name:
            legal = fold.ruleset.legal_actions(fold.state, event.player)
            label = next((a.label for a in legal if a.id == event.action), None)
            if label is not None:
                labels[recorded.version] = label
        fold.apply(event, recorded.chain)
    return labels


def _sides(events: Sequence[RecordedEvent]) -> dict[str, str]:
    """Returns each seat's character slot (a side, in Vampire Empire) when the run holds GameCreated."""
    for recorded in events:
        if isinstance(recorded.event, GameCreated):
            return {seat["name"]: seat["character"] for seat in recorded.event.players}
    return {}


def _combat_roll(ruleset: str, roll: DieRolled, after: Sequence[RecordedEvent]) -> str:
    """Names both rollers of a combat roll: the opponent is the one the next combat result names."""
    kind = COMBAT_ROLLS[roll.purpose]
    mine, theirs = roll.values
    result = next(
        (r.event for r in after if isinstance(r.event, CombatResolved) and r.event.player == roll.player),
        None,
    )
    if result is None:
        return f"{roll.player} rolled {mine} and their opponent rolled {theirs} in {kind}."
    module = _describer_module(ruleset)
    naming = getattr(module, "opponent_name", None)
    foe = naming(result.opponent) if naming else result.opponent
    return f"{roll.player} rolled {mine} and {foe} rolled {theirs} in {kind}."
