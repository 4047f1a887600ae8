"""The `talisman` main board's events told in plain words (the timeline's ruleset wording, house rules H5)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from domain.events import (
    CardDrawn,
    DieRolled,
    Event,
    GameEnded,
    Moved,
    TurnEnded,
)
from domain.rulesets.talisman.events import ChoiceMade, ChoiceOffered, FollowerLeft
from domain.rulesets.talisman.main.content import load_places
from domain.rulesets.talisman.main.events import (
    AlignmentChanged,
    CharacterDied,
    CharacterRestarted,
    CommandSpellCast,
    ItemBought,
    ItemDropped,
    ItemSold,
    QuestCompleted,
    QuestGiven,
    RegionCrossed,
    SpiritsEmpowered,
)
from domain.rulesets.talisman.main.events_abilities import (
    AbilityUsed,
    CardDestroyed,
    CardDisplaced,
    CardReturned,
    CharacterAttacked,
    EffectReadied,
    EffectSpent,
    EffectWasted,
    EnemyDestroyed,
    EnemyEvaded,
    FollowerTaken,
    GoldStolen,
    SpellCountered,
    SpellInvoked,
    SpellLaid,
    SpellTaken,
    SpoilsTaken,
)
from projections.talisman_choices import action_words, choice_words, option_label
from projections.talisman_expansion_timeline import DECKS as EXPANSION_DECKS
from projections.talisman_expansion_timeline import (
    concerns_expansion,
    crossing,
    describe_expansion,
    die_purpose,
    moved_on,
)
from projections.talisman_expansion_timeline import describe_at as expansion_describe_at
from projections.talisman_names import name_of, where
from projections.talisman_sentences import BoardWords, faces_words, talisman_sentences
from projections.timeline import is_echo

if TYPE_CHECKING:
    from event_store.recorded import RecordedEvent

DECKS = {
    "adventure": "Adventure deck",
    "spells": "Spell deck",
    "talismans": "Talismans",
    "purchase": "Purchase deck",
    **EXPANSION_DECKS,
}
_DIE_PURPOSES = {
    "movement": "to move",
    "combat": "in combat",
    "psychic-combat": "in psychic combat",
    "enemy-strength": "for the enemy's Strength",
    "armour": "to save a life",
    "command-spell": "for the Command Spell",
    "portal-strength": "at the Portal of Power (Strength)",
    "portal-craft": "at the Portal of Power (Craft)",
    "duel": "in a duel",
    "table": "on the card's table",
    "regenerate": "to regenerate",
    "take-spell": "for the Spell to take",
    "enemies": "for how many enemies",
    "find-gold": "to find gold",
}
_MOVES = {"movement": "moved", "advance": "went on", "retreat": "went back", "teleport": "was teleported"}
_CROSSINGS = {
    "sentinel": "got past the Sentinel",
    "raft": "crossed the river on a Raft",
    "portal of power": "passed the Portal of Power",
    "advance": "went on",
    "retreat": "went back",
}
_QUESTS = {
    "bring-follower": "bring back a Follower",
    "kill-monster": "kill a Monster",
    "kill-spirit": "kill a Spirit",
    "lose-life": "lose a life",
    "pay-gold": "pay gold",
    "visit-space": "visit a space",
}


def _reason(ref: str) -> str:
    """Names what caused a change: a card or space by its id, or the words the rules gave."""
    return f"the {name_of(ref)}" if "/" in ref else ref


@cache
def _places() -> dict[str, str]:
    return {t.id: t.name.removeprefix("The ") for t in load_places().tables}


def _die(e: DieRolled) -> str:
    place = _places().get(e.purpose)
    purpose = _DIE_PURPOSES.get(e.purpose) or (
        f"at the {place}" if place else die_purpose(e) or f"for {e.purpose.replace('-', ' ')}"
    )
    if e.purpose in ("combat", "psychic-combat") and len(e.values) == 2:
        return f"{e.player} rolled {e.values[0]} and their opponent {e.values[1]} {purpose}."
    return f"{e.player} rolled {faces_words(e.values)} {purpose}."


def _drawn(e: CardDrawn) -> str:
    if e.deck == "spells":
        return f"{e.player} drew a spell: {name_of(e.card)}."
    if e.deck == "talismans":
        return f"{e.player} was given a Talisman ({name_of(e.card)})."
    return f"{e.player} drew the {name_of(e.card)} from the {DECKS.get(e.deck, e.deck)}."


def _crossed(e: RegionCrossed) -> str:
    how = crossing(e) or _CROSSINGS.get(e.reason) or f"was sent by {_reason(e.reason)}"
    start, end = where(e.from_board, e.from_space), where(e.to_board, e.to_space)
    return f"{e.player} {how}: from {start} to {end}."


def _offered(e: ChoiceOffered) -> str:
    return f"{e.player} {choice_words(e.kind, e.options)}."


def _made(e: ChoiceMade) -> str:
    # Told alone (the run tells it with the action that made it): the option as the choice listed it.
    return f"{e.player} chose: {option_label(e.kind, e.option)}."


def _command(e: CommandSpellCast) -> str:
    hit = "every other character loses a life" if e.hit else "nothing happens"
    return f"{e.player} cast the Command Spell from the Crown of Command ({e.face}): {hit}."


def _quest(e: QuestGiven) -> str:
    goal = _QUESTS.get(e.goal, e.goal.replace("-", " "))
    target = f" ({_reason(e.target)})" if e.target else ""
    return (
        f"The Warlock set {e.player} a quest: {goal}{target}, {e.amount} time(s); the reward is a Talisman."
    )


def _sold(e: ItemSold) -> str:
    back = "back to the Purchase deck" if e.pile == "purchase" else "to the discards"
    return f"{e.player} sold the {name_of(e.card)} for {e.gold} gold ({back})."


def _kind(kind: str) -> str:
    return "psychic combat" if kind in ("psychic", "psychic-combat") else kind.replace("-", " ")


def _cast(e: SpellInvoked) -> str:
    at = f" at {e.target}" if e.target and e.target != e.player else ""
    return f"{e.player} cast {name_of(e.spell)}{at}."


_WHEN = {
    "combat": "their next Combat",
    "psychic-combat": "their next Psychic Combat",
    "any-combat": "their next fight",
    "own-turn": "this turn",
    "movement": "their next move",
}


# What a readied effect will do, by its effect id (`{n}`: its amount).
_EFFECTS = {
    "strength-bonus": "+{n} Strength",
    "craft-bonus": "+{n} Craft",
    "evade": "evading the enemy",
    "destroy-enemy": "destroying the enemy",
    "armour": "a life lost saved on {n} or more",
    "misdirect": "a misdirected move",
    "skip-encounter": "not meeting the space",
    "extra-card": "{n} more card drawn",
}


def _readied(e: EffectReadied) -> str:
    when = _WHEN.get(e.when, e.when.replace("-", " "))
    effect = _EFFECTS.get(e.effect)
    does = (
        effect.format(n=e.amount)
        if effect
        else e.effect.replace("-", " ") + (f" ({e.amount})" if e.amount else "")
    )
    return f"{e.player}'s {e.name} waits for {when}: {does}."


def _spoils(e: SpoilsTaken) -> str:
    if e.spoils in ("life", "gold"):
        what = "a life" if e.spoils == "life" else "1 gold"
        return f"{e.player} beat {e.loser} and took {what}."
    return f"{e.player} beat {e.loser} and took the {name_of(e.spoils)}."


def _ability(e: AbilityUsed) -> str:
    if e.ability == "skip-encounters":  # the option to pass a space by, which some abilities give
        return f"{e.player} passed the {e.detail or 'space'} by without meeting it."
    what = name_of(e.ability) if "/" in e.ability else e.ability.replace("-", " ")
    detail = f" ({_reason(e.detail)})" if e.detail else ""
    return f"{e.player}'s ability acted: {what}{detail}."


def _ended(e: GameEnded) -> str:
    return f"The game ended{' with ' + e.winner + ' winning' if e.winner else ' drawn'}: {e.reason}."


def _how_moved(e: Moved) -> str:
    return moved_on(e) or _MOVES.get(e.reason) or f"was sent by {_reason(e.reason)}"


WORDS = BoardWords(
    card=name_of,
    cause=_reason,
    deck=lambda deck: DECKS.get(deck, deck),
    where=where,
    how_moved=_how_moved,
    combat_kind=_kind,
    contest="game",
    won="game",
    met="met",
    causes_in_brackets=True,
    killed_out=False,
)

_DESCRIBERS: dict[type[Event], Callable[[Any], str]] = {
    **talisman_sentences(WORDS),
    # The main board's own events.
    RegionCrossed: _crossed,
    CharacterDied: lambda e: (
        f"{e.player}'s {name_of(e.character)} was killed on {where(e.board, e.space)}; "
        "what it carried lies there."
    ),
    CharacterRestarted: lambda e: (
        f"{e.player} starts anew as the {name_of(e.character)} on {where(e.board, e.space)}."
    ),
    CommandSpellCast: _command,
    ItemBought: lambda e: f"{e.player} bought the {name_of(e.card)} for {e.price} gold.",
    ItemDropped: lambda e: f"{e.player} left the {name_of(e.card)} on {where(e.board, e.space)}.",
    ItemSold: _sold,
    QuestGiven: _quest,
    QuestCompleted: lambda e: f"{e.player} completed the Warlock's quest.",
    AlignmentChanged: lambda e: f"{e.player} became {e.alignment} ({_reason(e.reason)}).",
    SpiritsEmpowered: lambda e: (
        f"Every Spirit has +{e.amount} Craft until the next Event ({_reason(e.card)})."
        if e.amount
        else f"The Spirits' extra Craft is over ({_reason(e.card)})."
    ),
    # The abilities', Spells' and characters' own events.
    SpellInvoked: _cast,
    SpellCountered: lambda e: f"{e.player}'s {name_of(e.spell)} was countered: it has no effect.",
    EffectReadied: _readied,
    EffectSpent: lambda e: f"{e.player}'s {e.name} was used up.",
    EffectWasted: lambda e: f"{e.player}'s {e.name} was used up and did nothing: {e.reason}.",
    AbilityUsed: _ability,
    EnemyEvaded: lambda e: f"{e.player} evaded the {name_of(e.card)}; it stays face up.",
    EnemyDestroyed: lambda e: f"{e.player} destroyed the {name_of(e.card)} with a Spell (no trophy).",
    CardDestroyed: lambda e: f"The {name_of(e.card)} on {where(e.board, e.space)} was destroyed.",
    CardDisplaced: lambda e: (
        f"The {name_of(e.card)} moved from {where(e.board, e.from_space)} to {where(e.board, e.to_space)}."
    ),
    CardReturned: lambda e: (
        f"The {name_of(e.card)} on {where(e.board, e.space)} went back into its deck; the space draws anew."
    ),
    SpellLaid: lambda e: f"{e.player} laid the {name_of(e.spell)} on {where(e.board, e.space)}.",
    CharacterAttacked: lambda e: f"{e.player} attacked {e.victim} in {_kind(e.kind)}.",
    SpoilsTaken: _spoils,
    GoldStolen: lambda e: f"{e.player} took {e.amount} gold from {e.victim} ({_reason(e.reason)}).",
    FollowerTaken: lambda e: f"{e.player} took the {name_of(e.card)} from {e.victim}.",
    SpellTaken: lambda e: f"{e.player} took {e.victim}'s spell {name_of(e.spell)} (die {e.face}).",
    ChoiceOffered: _offered,
    ChoiceMade: _made,
    # Shared events the main board tells with more.
    DieRolled: _die,
    CardDrawn: _drawn,
    FollowerLeft: lambda e: f"The {name_of(e.card)} left {e.player}.",
    TurnEnded: lambda e: f"{e.player}'s turn ended; {e.next_player} is next.",
    GameEnded: _ended,
}


def action_label(action_id: str, side: str = "") -> str:
    """Words a main-board action id no label is known for (the timeline's hook)."""
    return action_words(action_id)


def describe_at(events: Sequence[RecordedEvent], index: int) -> str | None:
    """Tells what the run around an event makes clear (the expansions': Keep 8.4, a flight's board), and
    leaves untold ("") a space passed by right after the choice that passed it: the action said so."""
    event = events[index].event
    if isinstance(event, AbilityUsed) and event.ability == "skip-encounters" and index >= 2:
        if is_echo(events, index - 1):
            return ""
    return expansion_describe_at(events, index)


def opponent_name(ref: str) -> str:
    """Names a combat opponent as the main board's timeline does (a card or place, or a player as is)."""
    return _reason(ref) if "/" in ref else ref


_MAIN_TYPES = frozenset(_DESCRIBERS)


def describe(event: Event) -> str | None:
    """Tells a main-board event in plain words (an expansion's in its own words first), or returns None
    to leave it to the generic timeline."""
    if concerns_expansion(event, _MAIN_TYPES) and (told := describe_expansion(event)):
        return told
    describer = _DESCRIBERS.get(type(event))
    return describer(event) if describer else None
