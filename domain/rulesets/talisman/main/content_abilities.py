"""Schema of the characters' abilities (`abilities.toml`), with the seeds' limits (Dungeon 12, Keep 13)."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Literal, get_args

import msgspec

from domain.rulesets.talisman.main.content_base import Source, check_ids, fail

ABILITIES_FILE = "abilities.toml"
ABILITY_PREFIX = "talisman/ability/"

# The rules hold one hook per name (abilities.toml's header says each in words).
Hook = Literal[
    "assassinate",
    "spell-on-space",
    "extra-strength-on-space",
    "ignore-space-table",
    "woodland-move",
    "evade-enemies",
    "raise-dead",
    "charm-animals",
    "add-craft-to-strength",
    "extra-strength-vs-spirits",
    "heal-at-start",
    "extra-card",
    "spell-at-start",
    "psychic-combat-choice",
    "beguile",
    "steal-gold",
    "regenerate",
    "two-dice-combat",
    "extra-movement",
    "imprison",
    "teleport-self",
    "find-gold",
    "skip-encounters",
    "wolf-ride",
    "extra-strength-vs-characters",
    "killer-blow",
    "peek-next-card",
    "rout",
]
HOOKS: tuple[str, ...] = get_args(Hook)
# The hooks whose `target` is a space name of board.toml, a space kind, a card family.
SPACE_NAME_HOOKS = frozenset(
    {
        "spell-on-space",
        "extra-strength-on-space",
        "woodland-move",
        "evade-enemies",
        "heal-at-start",
        "teleport-self",
    }
)
Where = Literal["dungeon", "keep"]
# off: the ability does not work there; not-against: not against `target` (a space or card id);
# amount: its amount there is `amount`; either-direction: a move it makes may go either way there.
LimitKind = Literal["off", "not-against", "amount", "either-direction"]
RULE = re.compile(r"(Dungeon|Keep) \d+(\.\d+)?")
# Keep 5.4 and 13: nothing may alter movement in the Keep; these are the rule numbers that say so.
KEEP_MOVEMENT_RULES = ("Keep 5.4", "Keep 7.2", "Keep 13")


class Limit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where an expansion's rule restricts an ability, and how; `rule` cites the seed's number."""

    where: Where
    limit: LimitKind
    rule: str
    target: str = ""
    amount: int = 0


class Ability(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One ability: its hook, amount, space or card it names, whether it alters movement, its limits."""

    id: str
    name: str
    hook: Hook
    text: str
    amount: int = 0
    target: str = ""
    movement: bool = False
    limits: tuple[Limit, ...] = ()
    source: Source = "house"


class CharacterAbilities(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A character's abilities, keyed by the character's id (talisman/characters.toml)."""

    id: str
    abilities: tuple[Ability, ...]


class AbilitiesFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every character's abilities."""

    source: Source
    characters: tuple[CharacterAbilities, ...]

    def of(self, character_id: str) -> tuple[Ability, ...]:
        """Returns the abilities of a character (none for a character the file does not list)."""
        return next((c.abilities for c in self.characters if c.id == character_id), ())


def check_abilities(model: AbilitiesFile, filename: str) -> AbilitiesFile:
    """Checks what the schema cannot say: ids, 1-3 abilities each, limits citing a seed rule."""
    check_ids(
        filename, [(f"characters[{i}]", c.id) for i, c in enumerate(model.characters)], "talisman/character/"
    )
    found = [
        (f"characters[{i}].abilities[{j}]", a.id)
        for i, c in enumerate(model.characters)
        for j, a in enumerate(c.abilities)
    ]
    check_ids(filename, found, ABILITY_PREFIX)
    for i, character in enumerate(model.characters):
        if not 1 <= len(character.abilities) <= 3:
            fail(
                filename,
                f"characters[{i}].abilities",
                f"expected 1-3 abilities, got {len(character.abilities)}",
            )
        for j, ability in enumerate(character.abilities):
            _check_ability(ability, filename, f"characters[{i}].abilities[{j}]")
    return model


def _check_ability(ability: Ability, filename: str, key: str) -> None:
    if not 0 <= ability.amount <= 12:
        fail(filename, f"{key}.amount", f"expected 0-12, got {ability.amount}")
    for k, limit in enumerate(ability.limits):
        where = f"{key}.limits[{k}]"
        if not RULE.fullmatch(limit.rule):
            fail(filename, f"{where}.rule", f"expected a seed rule like 'Dungeon 12.1', got {limit.rule!r}")
        if (limit.limit == "not-against") != bool(limit.target):
            fail(filename, f"{where}.target", "expected a target exactly for a not-against limit")
    # Keep 5.4 and 13: an ability that alters movement does not work in the Keep; the data says so.
    keep_off = any(lim.where == "keep" and lim.limit == "off" for lim in ability.limits)
    if ability.movement and not keep_off:
        fail(
            filename,
            f"{key}.limits",
            f"an ability altering movement needs a keep 'off' limit ({KEEP_MOVEMENT_RULES[0]})",
        )


def check_limit_targets(abilities: AbilitiesFile, where: str, foes: Collection[str]) -> None:
    """Checks that every `not-against` limit on an expansion's board (`where`) names one of its foes (the
    Guard, Dungeon 12.2, 12.7): each expansion in play asks it of the abilities in its `check_content`."""
    for i, entry in enumerate(abilities.characters):
        for j, ability in enumerate(entry.abilities):
            for k, limit in enumerate(ability.limits):
                if limit.where == where and limit.limit == "not-against" and limit.target not in foes:
                    key = f"characters[{i}].abilities[{j}].limits[{k}].target"
                    fail(ABILITIES_FILE, key, f"no {where} foe has the id {limit.target!r}")
