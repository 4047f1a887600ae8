"""Builds the main board's `MainContext` for a set of options: its content loaders, its outcome table,
the steps a lower rule hands back up (`MainSteps`) and the expansions the options turn on.

The expansions are found by name (`EXPANSIONS`: the option that brings each in → its class), imported
when first built, so no module of the main board imports an expansion that imports it back.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import cast

from domain.content import content_path
from domain.resolution import Resolution
from domain.rulesets.talisman.characters import FILE as CHARACTERS_FILE
from domain.rulesets.talisman.main import content
from domain.rulesets.talisman.main.abilities import ABILITIES
from domain.rulesets.talisman.main.content_base import DIR
from domain.rulesets.talisman.main.context import ContentLoaders, MainContext, MainSteps
from domain.rulesets.talisman.main.expansion import Expansion
from domain.rulesets.talisman.main.outcomes import OUTCOMES
from domain.rulesets.talisman.main.places import meet_space, run_table
from domain.rulesets.talisman.main.pvp import encounter_character
from domain.rulesets.talisman.main.regions import build_regions, go_to

# The expansions, by the option that brings each in (house rule H5.20), in the order they are asked.
EXPANSIONS: dict[str, str] = {
    "dungeon": "domain.rulesets.dungeon.main.expansion:DungeonExpansion",
    "keep": "domain.rulesets.keep.main.expansion:KeepExpansion",
}

LOADERS = ContentLoaders(
    board=content.load_board,
    places=content.load_places,
    adventure=content.load_adventure,
    adventure_extra=content.load_adventure_extra,
    purchase=content.load_purchase,
    spells=content.load_spells,
    talismans=content.load_talismans,
    abilities=content.load_abilities,
)


def _go_to(ctx: MainContext, res: Resolution, player: str, board: str, space: int, reason: str) -> None:
    go_to(build_regions(ctx), res, player, board, space, reason)


STEPS = MainSteps(
    meet_space=meet_space,
    run_table=run_table,
    encounter_character=encounter_character,
    combat_bonus=ABILITIES.combat_bonus,
    go_to=_go_to,
)


def expansion_class(name: str) -> type[Expansion[MainContext]]:
    """Returns the class of the expansion an option names (imported on first use)."""
    module, _, cls = EXPANSIONS[name].partition(":")
    return cast("type[Expansion[MainContext]]", getattr(importlib.import_module(module), cls))


def load_expansions() -> None:
    """Imports every expansion, so their own event types are registered (a log read back may name one
    before any game with that expansion is built)."""
    for name in EXPANSIONS:
        expansion_class(name)


def build_context(options: Mapping[str, str]) -> MainContext:
    """Returns the context the main board's rules read for these options, its expansions in the order of
    `EXPANSIONS`."""
    builders = tuple(expansion_class(name) for name in EXPANSIONS if options.get(name, "false") == "true")
    return MainContext(LOADERS, STEPS, OUTCOMES, builders, dict(options))


def content_paths(options: Mapping[str, str] | None = None) -> list[Path]:
    """Returns the content files a main-board game plays with: its own, and each expansion's it turns on."""
    given = options or {}
    paths = [content_path(DIR, name) for name in (CHARACTERS_FILE, *content.MAIN_FILES)]
    # house rule H5.20: `--option dungeon=true` / `keep=true` put that expansion's board and decks in play.
    for name in EXPANSIONS:
        if given.get(name, "false").lower() == "true":
            paths += [p for p in expansion_class(name).content_paths() if p not in paths]
    return paths
