"""The ruleset registry: one `RulesetEntry` per name says where the ruleset's class lives (the read side
registers how it shows each ruleset's games itself, by the same name: projections.registry).

A ruleset is a `Ruleset` subclass (`domain.rulesets.base`): its class attributes say what a new game may
be (players, options, characters), an instance built from a game's options decides and folds that
game. `build_ruleset(name, options)` builds (once per name and options) the object a game is played
with; `get_ruleset(name)` is the one with default options, for callers that have no game. Classes are
imported only when first built, so the CLI starts without importing any ruleset.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from domain.errors import UnknownRuleset
from domain.events import set_type_loader
from domain.rulesets.base import Ruleset, RulesetEntry
from domain.suggest import did_you_mean

__all__ = [
    "Ruleset",
    "RulesetEntry",
    "build_ruleset",
    "check_ruleset_name",
    "get_ruleset",
    "has_hidden_information",
    "load_all_rulesets",
    "load_ruleset_named",
    "register",
    "ruleset_class",
    "state_version",
    "ruleset_entry",
    "ruleset_names",
]

_ENTRIES: dict[str, RulesetEntry] = {
    entry.name: entry
    for entry in (
        RulesetEntry("dungeon-short", "domain.rulesets.dungeon.short_game:DungeonShort"),
        RulesetEntry("keep-run", "domain.rulesets.keep.run:KeepRun"),
        RulesetEntry("talisman", "domain.rulesets.talisman.main.ruleset:TalismanGame"),
        RulesetEntry("vampire-empire", "domain.rulesets.castle.empire:VampireEmpire"),
    )
}
_classes: dict[str, type[Ruleset[Any]]] = {}
# Built rulesets by (name, options in key order): a game, its folds and its audits share one object.
_built: dict[tuple[str, tuple[tuple[str, str], ...]], Ruleset[Any]] = {}


def register(entry: RulesetEntry) -> None:
    """Registers a ruleset under its entry's name (tests and benchmarks add their own this way)."""
    _ENTRIES[entry.name] = entry


def ruleset_names() -> list[str]:
    """Returns the names of every registered ruleset."""
    return sorted(_ENTRIES)


def ruleset_entry(name: str) -> RulesetEntry:
    """Returns the entry registered under `name` (raises UnknownRuleset, with the closest name, otherwise)."""
    entry = _ENTRIES.get(name)
    if entry is None:
        known = ", ".join(ruleset_names())
        raise UnknownRuleset(f"unknown ruleset {name!r} (known: {known}){did_you_mean(name, _ENTRIES)}")
    return entry


def check_ruleset_name(name: str) -> None:
    """Raises UnknownRuleset (with the closest name) unless a ruleset is registered under `name`."""
    ruleset_entry(name)


def ruleset_class(name: str) -> type[Ruleset[Any]]:
    """Returns the class registered under `name`, importing its module the first time."""
    found = _classes.get(name)
    if found is None:
        module_name, _, class_name = ruleset_entry(name).ruleset.partition(":")
        found = getattr(importlib.import_module(module_name), class_name)
        if not (isinstance(found, type) and issubclass(found, Ruleset)):
            raise TypeError(f"{name}: {module_name}:{class_name} is not a Ruleset class")
        _classes[name] = found
    return found


def state_version(name: str) -> int:
    """Returns the shape of the state a ruleset folds now (1 for a ruleset that never changed it; 0 for
    a name no ruleset has, whose saved states, snapshots or audit points, are of no current shape)."""
    try:
        return ruleset_class(name).state_version
    except UnknownRuleset:
        return 0


def build_ruleset(name: str, options: Mapping[str, str] | None = None) -> Ruleset[Any]:
    """Returns the ruleset `name` built from a game's options (BadSetup for an option it does not take);
    the same options, in any order or case, give the same object."""
    given = options or {}
    key = (name, tuple(sorted((k, str(v).lower()) for k, v in given.items())))
    built = _built.get(key)
    if built is None:
        built = _built[key] = ruleset_class(name)(given)
    return built


def get_ruleset(name: str) -> Ruleset[Any]:
    """Returns the ruleset registered under `name` with its default options (for callers with no game)."""
    return build_ruleset(name)


def has_hidden_information(name: str) -> bool:
    """Tells whether a ruleset keeps players' secrets, so a player's options are theirs alone to see."""
    return ruleset_class(name).hidden_information


def load_ruleset_named(name: object) -> None:
    """Imports the ruleset a game's log names, if registered (an unknown name is for the reader to refuse)."""
    if isinstance(name, str) and name in _ENTRIES:
        ruleset_class(name)


def load_all_rulesets() -> None:
    """Imports every registered ruleset, so all their event types are registered."""
    for name in ruleset_names():
        ruleset_class(name)


set_type_loader(load_all_rulesets)
