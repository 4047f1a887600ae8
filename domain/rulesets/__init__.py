"""The ruleset registry: each ruleset is a decider module registered by name.

A ruleset module provides:
- `NAME`, `CHARACTER_SLOT` (what `--player NAME:X` names: a character, a side…), `MIN_PLAYERS`, `MAX_PLAYERS`;
- `content_hash()` — sha256 of the content files it plays with;
- `validate_setup(players, options)` — raises a `UsageError` subclass for a setup it cannot play;
- `canonical_setup(players, options)` — a valid setup (see `validate_setup`) as a game records it: each
  seat's character (or side) and each option's value written the one way the ruleset reads them;
- `initial_state(created)` — the state right after `GameCreated` (a plain, msgpack-encodable dict);
- `legal_actions(state, player)` — the `Action`s open now (to `player`, or to anyone if None);
- `decide(state, action_id, player, dice)` — the events an action causes (never mutates `state`);
- `evolve(state, event)` — applies one event to the state in place and returns it (the only mutation);
- `status(state)` — {"status": "running"|"finished", "winner": str, "to_act": [players]}.
The `start` action (taken by the host when a game is created) deals characters and opens play.
Optionally, for `nightkeep rulesets` and shell completion (see `catalogue`): `SUMMARY` (one line),
`OPTIONS` ({key: allowed values}), `OPTION_DEFAULTS`, `OPTION_HELP` and `character_choices()`
([(id to type, name)] of the characters or sides `--player NAME:X` may name).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Protocol

from domain.actions import Action
from domain.dice import Dice
from domain.errors import UnknownRuleset
from domain.events import Event, GameCreated, set_type_loader
from domain.field_types import Seat
from domain.suggest import did_you_mean

_MODULES = {
    "dungeon-short": "domain.rulesets.dungeon.short_game",
    "keep-run": "domain.rulesets.keep.run",
    "vampire-empire": "domain.rulesets.castle.empire",
}


class Ruleset(Protocol):
    """The decider interface every ruleset module implements."""

    NAME: str
    CHARACTER_SLOT: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int

    def content_hash(self) -> str: ...

    def validate_setup(self, players: list[dict[str, Any]], options: dict[str, Any]) -> None: ...

    def canonical_setup(
        self, players: list[Seat], options: dict[str, str]
    ) -> tuple[list[Seat], dict[str, str]]: ...

    def initial_state(self, created: GameCreated) -> dict[str, Any]: ...

    def legal_actions(self, state: dict[str, Any], player: str | None = None) -> list[Action]: ...

    def decide(self, state: dict[str, Any], action_id: str, player: str, dice: Dice) -> list[Event]: ...

    # Optional: `decide_in_place(state, action_id, player, dice)` does what decide does but evolves the
    # given state through the events it returns (no copy), for a caller that has checked the action is
    # legal (`game.check_legal`): audits use it when a ruleset offers it, and need it to re-decide a copy
    # whose private events are sealed.
    # Optional: `is_legal(state, player, action_id) -> bool` answers without building labelled actions;
    # True only if the game is not finished and `action_id` is among `legal_actions(state, player)`
    # (False may be conservative: `game.check_legal` then asks `legal_actions`, which also says why).
    # Optional: `verify(state, event) -> str` says what is wrong with a recorded event given the state
    # before it ("" when nothing is): the checks `evolve` (which trusts its events) does not make. The
    # audit of a copy it cannot re-decide, and import, call it.
    # Optional: `HIDDEN_INFORMATION = True` says a player's legal actions show their secrets, so the CLI
    # lists and takes them only for a player named with --as.

    def evolve(self, state: dict[str, Any], event: Event) -> dict[str, Any]: ...

    def status(self, state: dict[str, Any]) -> dict[str, Any]: ...


_loaded: dict[str, ModuleType] = {}


def ruleset_names() -> list[str]:
    """Returns the names of every registered ruleset."""
    return sorted(_MODULES)


def check_ruleset_name(name: str) -> None:
    """Raises UnknownRuleset (with the closest name) unless a ruleset is registered under `name`."""
    if name not in _MODULES:
        known = ", ".join(ruleset_names())
        raise UnknownRuleset(f"unknown ruleset {name!r} (known: {known}){did_you_mean(name, _MODULES)}")


def get_ruleset(name: str) -> Ruleset:
    """Returns the ruleset module registered under `name`."""
    check_ruleset_name(name)
    if name not in _loaded:
        _loaded[name] = importlib.import_module(_MODULES[name])
    ruleset: Ruleset = _loaded[name]
    return ruleset


def has_hidden_information(name: str) -> bool:
    """Tells whether a ruleset keeps players' secrets, so a player's options are theirs alone to see."""
    return bool(getattr(get_ruleset(name), "HIDDEN_INFORMATION", False))


def load_ruleset_named(name: object) -> None:
    """Imports the ruleset a game's log names, if registered (an unknown name is for the reader to refuse)."""
    if isinstance(name, str) and name in _MODULES:
        get_ruleset(name)


def load_all_rulesets() -> None:
    """Imports every registered ruleset, so all their event types are registered."""
    for name in ruleset_names():
        get_ruleset(name)


set_type_loader(load_all_rulesets)
