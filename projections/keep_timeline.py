"""The Keep run's events told in plain words (the timeline's ruleset wording, house rule H3.18)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from domain.events import (
    CardDrawn,
    Event,
)
from domain.rulesets.keep.events import (
    EntryTested,
    FlightEnded,
    ItemGained,
    LoopEscaped,
    LoopFailed,
    ObeliskTested,
    SpellCast,
    SpellDiscarded,
    SpellGained,
    TalismanTaken,
    TeleportCounterDrawn,
    Teleported,
    VaultCardMet,
)
from domain.rulesets.talisman.events import (
    CardDiscarded,
    ChoiceMade,
    ChoiceOffered,
    FollowerLeft,
    ItemGivenUp,
)
from projections.keep_view import DECK_NAMES, name_of, where, who
from projections.talisman_sentences import BoardWords, Sentences, short_combat_kind, talisman_sentences

if TYPE_CHECKING:  # the timeline hands its runs of stored events over
    from event_store.recorded import RecordedEvent


# What a die is rolled for on the Keep's spaces (Keep 5-9), in the Keep run and beside the main board.
SPACE_PURPOSES = {
    "entry": "at the Keep's door",
    "sentry": "against the Sentry",
    "tome": "at the Tome of the Undead",
    "tome-followers": "for how many Followers the Tome drives off",
    "obelisk": "at the Sacred Obelisk",
    "loop-escape": "to break free of the teleport loop",
    "hoard": "on the Treasure Hoard table",
    "vault-trap": "against a Vault trap",
    "coffin": "at the Ancient Coffin",
    "fountain": "at the Fountain of Blood",
}
_DIE_PURPOSES = {
    "movement": "to move",
    **SPACE_PURPOSES,
    "armour": "to save a life",
    "table": "on the card's table",
}


def _entry(e: EntryTested) -> str:
    if e.passed:
        return f"{e.player} opened the Keep's door ({e.total}, under {e.target}) and goes in next turn."
    return f"The Keep's door held against {e.player} ({e.total}, needed under {e.target})."


def _obelisk(e: ObeliskTested) -> str:
    if e.passed:
        return f"{e.player} passed the Sacred Obelisk ({e.total}, at most {e.target})."
    return f"The Sacred Obelisk held {e.player} back ({e.total}, needed at most {e.target})."


_VAULT_OUTCOMES = {
    "won": "overcame the {card}",
    "lost": "was beaten by the {card}",
    "standoff": "held the {card} to a stand-off",
    "escaped": "escaped the {card}'s trap",
}


def _vault_card(e: VaultCardMet) -> str:
    card = name_of(e.card)
    done = _VAULT_OUTCOMES.get(e.outcome, "met the {card} (" + e.outcome + ")").format(card=card)
    return f"In the Talisman Vault, {e.player} {done}."


def _listed(names: list[str]) -> str:
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else "".join(names)


def choice_words(
    choice: ChoiceOffered | ChoiceMade, kind: str, name: Callable[[str], str], spell: str = ""
) -> str:
    """Tells a Keep choice (Keep 8.2-8.4: `kind` is `sentry-toll`, `tome-gift` or `wizard-target`), in
    the Keep run and beside the main board alike: cards named with `name`, the Vampire Wizard's spell
    by name when the run around it tells which (`spell`)."""

    def option_words(option: str) -> str:
        return "a life" if option == "life" else name(option) if "/" in option else f"+2 {option.title()}"

    if isinstance(choice, ChoiceMade):
        if kind != "wizard-target":
            return f"{choice.player} chose {option_words(choice.option)}."
        if choice.option == "discard":
            return f"{choice.player} has the Vampire Wizard discard {name(spell) if spell else 'the spell'}."
        whose = f"Vampire Wizard's {name(spell)}" if spell else "Vampire Wizard's spell"
        return f"{choice.player} aims the {whose} at {choice.option}."
    options = [o for o in choice.options if o != "discard"]
    if kind == "wizard-target":
        # Keep 8.4 (house): the spell just drawn waits for its aim; the victim is the one it was drawn for.
        aim = f"must aim {name(spell) if spell else 'the spell'}: at {_listed(options)}, or discard it"
        return f"{choice.player} plays the Vampire Wizard and {aim}."
    asked = "what to give the Sentry" if kind == "sentry-toll" else "the Tome's gift"
    return f"{choice.player} must choose {asked}: {', '.join(option_words(o) for o in options)}."


def spell_drawn_before(events: Sequence[RecordedEvent], index: int) -> str:
    """Returns the spell drawn last before an event of a run (the Vampire Wizard's, Keep 8.4), or ""."""
    earlier = (events[i].event for i in range(index - 1, -1, -1))
    return next((e.card for e in earlier if isinstance(e, CardDrawn) and e.deck == "spells"), "")


def keep_sentences(name: Callable[[str], str], where: Callable[[int], str]) -> Sentences:
    """Returns the sentences of the Keep's own events that read the same in the Keep run and beside the
    main board, naming cards with `name` and the Keep's spaces with `where` (`the Sentry (3)`)."""

    def counter(e: TeleportCounterDrawn) -> str:
        tile = f"A Teleport Tile was laid on {where(e.space)}"
        if e.destination == e.space:
            return f"{tile}; its counter names that space: it does nothing."
        return f"{tile}; its counter sends to {where(e.destination)}."

    def teleported(e: Teleported) -> str:
        start = f" from {where(e.from_space)}" if e.from_space != e.tile_space else ""
        return f"The Teleport Tile on {where(e.tile_space)} sent {e.piece}{start} to {where(e.to_space)}."

    def discarded(e: SpellDiscarded) -> str:
        why = f"it {e.reason} {e.player}" if e.reason == "would help" else f"it {e.reason}"
        return f"The Vampire Wizard discarded {name(e.spell)} unused ({why})."

    return {
        TeleportCounterDrawn: counter,
        Teleported: teleported,
        ItemGivenUp: lambda e: f"{e.player} gave the {name(e.card)} up to the Sentry.",
        SpellCast: lambda e: f"The Vampire Wizard cast {name(e.spell)} on {e.player}.",
        SpellDiscarded: discarded,
        ItemGained: lambda e: f"{e.player} found the {name(e.item)} in the Treasure Hoard.",
        SpellGained: lambda e: f"{e.player} gained the spell {name(e.spell)} from the Treasure Hoard.",
    }


_MOVES = {"flight": "fled back", "sentry": "was driven back by the Sentry", "card": "was sent back"}

WORDS = BoardWords(
    card=name_of,
    cause=who,
    deck=lambda deck: DECK_NAMES.get(deck, deck + " deck"),
    where=lambda board, number: where(number),
    how_moved=lambda e: _MOVES.get(e.reason, "moved"),
    combat_kind=short_combat_kind,
    contest="run",
    won="Keep run",
    place=lambda number: f" on {where(number)}",
    goes_first=" to the Keep's door",
    fled="Keep",
    die_purposes=_DIE_PURPOSES,
)


def _drawn(e: CardDrawn) -> str:
    if e.deck == "vault":
        return f"{e.player} turned over the Vault card {name_of(e.card)}."
    if e.deck == "spells":
        return f"The spell {name_of(e.card)} was drawn from the Spell deck for {e.player}."
    return f"{e.player} drew the {name_of(e.card)} from the Keep deck."


_DESCRIBERS: dict[type[Event], Callable[[Any], str]] = {
    **talisman_sentences(WORDS),
    # The Keep's own events.
    **keep_sentences(name_of, where),
    EntryTested: _entry,
    FlightEnded: lambda e: f"{e.player} fled out of the Keep's door and is outside the Keep again.",
    LoopFailed: lambda e: f"{e.player} failed to break free of the teleport loop and is sent on again.",
    LoopEscaped: lambda e: (
        f"{e.player} broke free of the teleport loop after three failed turns."
        if e.automatic
        else f"{e.player} broke free of the teleport loop."
    ),
    FollowerLeft: lambda e: f"The {name_of(e.card)} fled from {e.player} at the Tome of the Undead.",
    ObeliskTested: _obelisk,
    TalismanTaken: lambda e: (
        f"{e.player} took a Talisman a fallen character left on the Vault."
        if e.from_vault
        else f"{e.player} took a Talisman in the Talisman Vault."
    ),
    VaultCardMet: _vault_card,
    ChoiceOffered: lambda e: choice_words(e, e.kind, name_of),
    ChoiceMade: lambda e: choice_words(e, e.kind, name_of),
    # Shared events the Keep tells with more.
    CardDrawn: _drawn,
    CardDiscarded: lambda e: f"The {name_of(e.card)} on {where(e.space)} was discarded.",
}


def describe_at(events: Sequence[RecordedEvent], index: int) -> str | None:
    """Tells the Vampire Wizard's offer or aim with the name of the spell drawn just before it (Keep
    8.4); None for any other event, or when the run does not hold that draw."""
    event = events[index].event
    if not isinstance(event, ChoiceOffered | ChoiceMade) or event.kind != "wizard-target":
        return None
    spell = spell_drawn_before(events, index)
    return choice_words(event, event.kind, name_of, spell) if spell else None


def opponent_name(ref: str) -> str:
    """Names a combat opponent as the Keep's timeline does (a card, or a player as is)."""
    return who(ref)


def describe(event: Event) -> str | None:
    """Tells a Keep event in plain English, or returns None to leave it to the generic timeline."""
    describer = _DESCRIBERS.get(type(event))
    return describer(event) if describer else None
