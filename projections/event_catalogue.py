"""The event catalogue (docs/events.md): every registered event type, its class version and fields.

Generated from the event registry so the document cannot drift from the code; a test compares the
file with `catalogue_markdown()`. Regenerate with `python -m projections.event_catalogue`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from domain.club import CLUB_EVENTS
from domain.events import Event, field_types, registered_event_types
from domain.rulesets import load_all_rulesets

DOC = Path(__file__).resolve().parent.parent / "docs" / "events.md"


def _fields(cls: type[Event]) -> list[tuple[str, str]]:
    return [(name, kind.grammar) for name, kind in field_types(cls)]


HEADER = """# Event catalogue

Generated from the code by `python -m projections.event_catalogue`; do not edit by hand.
Every event in a log or replay file is `[type, v, fields]` with these field names (see
replay-format.md for the encoding). Field types are written in one grammar:

    type := str | int | bool | bin            int: signed 64-bit; a bool is never an int
          | array of TYPE                     every item holds TYPE
          | map of str to TYPE                string keys, every value holds TYPE
          | {KEY: TYPE, KEY: TYPE, ...}       a map with exactly these string keys

The notes say what an event is beyond its fields, each in one of these forms:

    host                                  recorded by the host, not decided by a rule
    private                               seen only by its `owner` (sealed for everyone else)
    draws `OUT` ← `DRAW`                  OUT holds what numbered draws gave, DRAW their numbers (a
                                          value and its number, or two arrays of the same length)
    … from pile `PILE`                    a pick: uniform over the pile's cards in sorted order; what
                                          it picked (draw >= 0) leaves the pile
    … of kinds `FIELD`                    only the pile's cards whose kind FIELD lists (empty: all)
    … as dice of `FIELD` faces            a die: FIELD gives its number of faces (its outcomes)
    … as a salt                           a salt: 32 secret bytes, no number of outcomes
                                          (every `draws` note is exactly one of these three kinds)
    moves `FIELD` from pile `A` to pile `B`   the card(s) FIELD names leave A and join B (either may
                                          be missing: a pile the ledger does not follow)
    `FIELD` since vN                      a field class version N added (older events lack it)

`PILE` is a template: `{field}` stands for that field's value (`deck:{owner}` is `deck:Hana`). The
piles each ruleset starts with are listed in replay-format.md ("Piles").
"""


def _notes(cls: type[Event]) -> list[str]:
    notes = []
    if cls.is_host_event:
        notes.append("host")
    if cls.private:
        notes.append("private")
    for outcomes, draws in cls.drawn:
        note = f"draws `{outcomes}` ← `{draws}`"
        if outcomes in cls.piles:
            note += f" from pile `{cls.piles[outcomes]}`"
        if outcomes in cls.restricted_by:
            note += f" of kinds `{cls.restricted_by[outcomes]}`"
        if outcomes in cls.faces:
            note += f" as dice of `{cls.faces[outcomes]}` faces"
        elif outcomes not in cls.piles:
            note += " as a salt"
        notes.append(note)
    for move in cls.moves:
        note = f"moves `{move.field}`"
        note += f" from pile `{move.source}`" if move.source else ""
        note += f" to pile `{move.target}`" if move.target else ""
        notes.append(note)
    notes += [f"`{name}` since v{version}" for name, version in cls.added_in.items()]
    return notes


def catalogue_markdown() -> str:
    """Returns docs/events.md as it should read for the event types registered now."""
    load_all_rulesets()
    assert CLUB_EVENTS  # the club's game-level events are registered with domain.club
    lines = HEADER.splitlines()
    lines.append("")
    by_module: dict[str, list[type[Event]]] = {}
    for cls in registered_event_types().values():
        if cls.__module__.startswith("domain."):  # tests may register their own event types
            by_module.setdefault(cls.__module__, []).append(cls)
    for module in sorted(by_module, key=lambda m: (m != "domain.events", m)):
        lines += [f"## `{module}`", "", "| type | v | fields | notes | meaning |", "|---|---|---|---|---|"]
        for cls in by_module[module]:
            fields = ", ".join(f"`{name}` {kind}" for name, kind in _fields(cls))
            doc = " ".join((cls.__doc__ or "").split())
            if "|" in doc:
                raise ValueError(f"{cls.__name__}'s docstring has a '|', which would split its table row")
            notes = "; ".join(_notes(cls))
            lines.append(f"| `{cls.__name__}` | {cls.class_version} | {fields} | {notes} | {doc} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    DOC.write_text(catalogue_markdown(), encoding="utf-8")
    sys.exit(0)
