"""The event catalogue (docs/events.md): every registered event type, its class version and fields.

Generated from the event registry so the document cannot drift from the code; a test compares the
file with `catalogue_markdown()`. Regenerate with `python -m projections.event_catalogue`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from domain.events import Event, field_types, registered_event_types
from domain.rulesets import load_all_rulesets

DOC = Path(__file__).resolve().parent.parent / "docs" / "events.md"

def _fields(cls: type[Event]) -> list[tuple[str, str]]:
    return [(name, kind.grammar) for name, kind in field_types(cls)]


def catalogue_markdown() -> str:
    """Returns docs/events.md as it should read for the event types registered now."""
    load_all_rulesets()
    lines = [
        "# Event catalogue",
        "",
        "Generated from the code by `python -m projections.event_catalogue`; do not edit by hand.",
        "Every event in a log or replay file is `[type, v, fields]` with these field names (see",
        "replay-format.md for the encoding). `picks` names the field that holds what a one-draw pick",
        "chose; `draws` pairs each field of outcomes with the field of their draw numbers (a value and",
        "its number, or two lists of the same length); `host` marks events the host records (not",
        "consequences of an action); `private` marks events only their `owner` may see (sealed for",
        "everyone else, see replay-format.md).",
        "",
    ]
    by_module: dict[str, list[type[Event]]] = {}
    for cls in registered_event_types().values():
        if cls.__module__.startswith("domain."):  # tests may register their own event types
            by_module.setdefault(cls.__module__, []).append(cls)
    for module in sorted(by_module, key=lambda m: (m != "domain.events", m)):
        lines += [f"## `{module}`", "", "| type | v | fields | notes |", "|---|---|---|---|"]
        for cls in by_module[module]:
            fields = ", ".join(f"`{name}` {kind}" for name, kind in _fields(cls))
            notes = []
            if cls.is_host_event:
                notes.append("host")
            if cls.private:
                notes.append("private")
            if cls.picked_field:
                notes.append(f"picks `{cls.picked_field}`")
            for outcomes, draws in cls.drawn:
                if (outcomes, draws) != (cls.picked_field, "draw"):
                    notes.append(f"draws `{outcomes}` ← `{draws}`")
            doc = " ".join((cls.__doc__ or "").split())
            lines.append(
                f"| `{cls.__name__}` | {cls.class_version} | {fields} | {'; '.join(notes + [doc])} |"
            )
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    DOC.write_text(catalogue_markdown(), encoding="utf-8")
    sys.exit(0)
