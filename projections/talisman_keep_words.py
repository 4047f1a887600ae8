"""The Vampire's Keep's own facts in a main-board game (`talisman` with `keep=true`), in plain words.

The Keep adds no event class to the main board: it records the Keep run's events (told by
`talisman_expansion_timeline` in the Keep run's words) and the main board's. What only the Keep
expansion records is told here: the Ethereal Portal's choice (Keep 4.1) and the dice it rolls for the
Warlock's door (4.2), for moving by the Keep's chart (5.2) and on the Exit Table (9.1).
"""

from __future__ import annotations

from domain.events import DieRolled, Event
from domain.rulesets.talisman.events import ChoiceMade, ChoiceOffered
from projections.talisman_sentences import faces_words

PORTAL = "keep-portal"
ROLLED_FOR = {
    "warlock-keep": "at the Warlock's door to the Keep (at most Strength + Craft opens it)",
    "keep-movement": "to move through the Keep (1-2: 1 space, 3-4: 2, 5-6: 3)",
    "keep-exit": "on the Keep's Exit Table",
}


def _portal(event: ChoiceOffered | ChoiceMade) -> str:
    if isinstance(event, ChoiceOffered):
        return f"{event.player} found an Ethereal Portal and may step through it to the Keep Entrance."
    if event.option == "go":
        return f"{event.player} steps through the Ethereal Portal; it closes behind."
    return f"{event.player} leaves the Ethereal Portal be; it fades away."


def describe(event: Event) -> str | None:
    """Tells one of the Keep expansion's own facts in plain words (None: another module's to tell)."""
    if isinstance(event, ChoiceOffered | ChoiceMade) and event.kind.partition(":")[0] == PORTAL:
        return _portal(event)
    if isinstance(event, DieRolled) and event.purpose in ROLLED_FOR:
        return f"{event.player} rolled {faces_words(event.values)} {ROLLED_FOR[event.purpose]}."
    return None
