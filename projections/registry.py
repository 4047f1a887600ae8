"""The read side's own registry: for each ruleset (by the name `domain.rulesets` registers it under) the
projections modules that show its games. The domain names none of them; a ruleset registered without
read-side modules (a test's or a benchmark's toy) is shown by nothing here and says so where asked.

`view` is the module with `render_board` and `players_summary`; `timeline` the module whose
`describe(event)` words its events ("" = the view's); `picture` the module whose `draw(fold, stopped)`
draws its board as SVG ("" = its text board, set as a picture: projections/pictures). How each character
left a game is in projections/exits.py (`EXIT_READERS`), keyed the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.rulesets import check_ruleset_name


@dataclass(frozen=True, slots=True)
class ShownBy:
    """The read-side modules of one ruleset (each a dotted module path, "" for none)."""

    view: str = ""
    timeline: str = ""
    picture: str = ""


NOTHING = ShownBy()

_SHOWN: dict[str, ShownBy] = {
    "dungeon-short": ShownBy(view="projections.dungeon_view", picture="projections.pictures.dungeon"),
    "keep-run": ShownBy(
        view="projections.keep_view",
        timeline="projections.keep_timeline",
        picture="projections.pictures.keep",
    ),
    "talisman": ShownBy(
        view="projections.talisman_view",
        timeline="projections.talisman_timeline",
        picture="projections.pictures.talisman",
    ),
    "vampire-empire": ShownBy(
        view="projections.castle_view",
        timeline="projections.castle_timeline",
        picture="projections.pictures.castle",
    ),
}


def register_views(ruleset: str, shown: ShownBy) -> None:
    """Registers the read-side modules of a ruleset (tests and benchmarks add their own this way)."""
    _SHOWN[ruleset] = shown


def shown_by(ruleset: str) -> ShownBy:
    """Returns the read-side modules of a registered ruleset (NOTHING when it has none); raises
    UnknownRuleset, with the closest name, for a name no ruleset is registered under."""
    check_ruleset_name(ruleset)
    return _SHOWN.get(ruleset, NOTHING)
