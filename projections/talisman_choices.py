"""A `talisman` choice in the words a player reads: what is being decided and each option by the label
the rules give it (`Discard the Imp (Follower: +1 Craft in Psychic Combat)`), never the choice's kind
or its options' ids (`landing:draw-1`, `service:village`), which only the JSON output and action ids
show. The rules label an option the same with or without the expansions, so one ruleset with both
labels every log."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from domain.rulesets.talisman.main.ruleset import TalismanGame
from projections.talisman_names import name_of, option_words, where

LISTED = 8  # more options than this are counted, not listed, in a sentence

# What a choice decides, by its kind's first part (and, for a landing choice, its step).
_SUBJECTS = {
    "buy": "what to buy",
    "sell": "what to sell",
    "teleport": "where to go",
    "banish": "where to banish them",
    "rout": "where to drive them",
    "push": "where to push them",
    "alignment": "an alignment",
    "black-knight": "how to get past the Black Knight",
    "spoils": "the spoils of the fight",
    "counter": "whether to counter the Spell",
    "lose-follower": "which Follower to lose",
    "life-or-follower": "a life or a Follower to lose",
    "beguile": "which Follower to take",
    "dungeon-door": "the Doorway to come out at",
    "keep-portal": "whether to step through the Ethereal Portal",
    "keep-meet": "what to do here",
}
_LANDING_STEPS = {
    "encounter": "what to do here",
    "evade": "whether to evade an enemy",
    "table": "whether to roll on the table",
}


@cache
def _labeller() -> TalismanGame:
    return TalismanGame({"dungeon": "true", "keep": "true"})


def option_label(kind: str, option: str) -> str:
    """Returns one option of a choice in the words the rules list it with (its id in words if the rules
    no longer know the kind: a log of an older nightkeep)."""
    try:
        return _labeller().choice_label(kind, option)
    except (LookupError, StopIteration, ValueError, AttributeError):
        return option_words(option)


def choice_subject(kind: str) -> str:
    """Returns what a choice decides (`which card to discard`), or "" when its options say enough."""
    head, _, rest = kind.partition(":")
    if head == "service":
        return f"what to do at the {name_of(rest) if '/' in rest else _place(rest)}"
    if head.endswith("landing"):
        step = rest.partition(":")[0]
        return "which card to discard" if step.startswith("draw") else _LANDING_STEPS.get(step, "")
    return _SUBJECTS.get(head, "")


def _place(table: str) -> str:
    try:
        return _labeller().ctx.table(table).name.removeprefix("The ")
    except (LookupError, StopIteration, ValueError):
        return table.replace("-", " ").title()


def listed(words: Sequence[str]) -> str:
    """Returns `A`, `A or B`, `A, B or C`."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def choice_words(kind: str, options: Sequence[str]) -> str:
    """Returns a pending choice after its chooser's name: `chooses what to do here: Meet the space or
    Pass the space by` (a long list only counted: the legal actions list it)."""
    subject = choice_subject(kind)
    about = f" {subject}" if subject else ""
    if len(options) > LISTED:
        return f"chooses{about}, among {len(options)} options"
    return f"chooses{about}: {listed([option_label(kind, o) for o in options])}"


def action_words(action_id: str) -> str:
    """Words for a main-board action id when no label is known for it (a part of a log, told alone):
    `go:outer:10` as `Move to the Woods (Outer 10)`, `cast:talisman/spell/hex:Bo` as `Cast Hex at Bo`,
    content ids by their names, never the id itself."""
    head, _, rest = action_id.partition(":")
    parts = rest.split(":") if rest else []
    if head == "go" and len(parts) == 2 and parts[1].isdigit():
        return f"Move to {where(parts[0], int(parts[1]))}"
    if head == "cast" and parts:
        at = f" at {parts[1]}" if len(parts) > 1 else ""
        return f"Cast {name_of(parts[0])}{at}"
    if head == "choose" and parts:
        return f"Choose {option_words(rest)}"
    words = " ".join(name_of(p) if "/" in p else p.replace("-", " ") for p in [head, *parts])
    return words[:1].upper() + words[1:]
