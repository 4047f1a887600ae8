"""What each registered ruleset offers a new game: its players, options and characters, read from the
ruleset class and the content it plays with (so `nightkeep rulesets` and completion never drift)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.rulesets import get_ruleset, ruleset_names


@dataclass(frozen=True)
class RulesetOption:
    """One `--option KEY=VALUE` a ruleset takes: its allowed values and the value when it is not given."""

    key: str
    values: tuple[str, ...]
    default: str
    help: str


@dataclass(frozen=True)
class RulesetInfo:
    """A ruleset as a player choosing one sees it."""

    name: str
    summary: str
    min_players: int
    max_players: int
    character_slot: str  # what `--player NAME:X` names: a character, a side…
    options: tuple[RulesetOption, ...]
    characters: tuple[tuple[str, str], ...]  # (id to type, name)

    def to_json(self) -> dict[str, object]:
        """Returns the ruleset as `nightkeep rulesets --json` prints it."""
        return {
            "name": self.name,
            "summary": self.summary,
            "players": {"min": self.min_players, "max": self.max_players},
            "character_slot": self.character_slot,
            "options": [
                {"key": o.key, "values": list(o.values), "default": o.default, "help": o.help}
                for o in self.options
            ],
            "characters": [{"id": cid, "name": name} for cid, name in self.characters],
        }


def describe_ruleset(name: str) -> RulesetInfo:
    """Returns what the ruleset registered under `name` offers (raises UnknownRuleset otherwise)."""
    ruleset = get_ruleset(name)
    options = tuple(
        RulesetOption(key, spec.values, spec.default, spec.help) for key, spec in ruleset.option_specs.items()
    )
    return RulesetInfo(
        name=ruleset.name,
        summary=ruleset.summary,
        min_players=ruleset.min_players,
        max_players=ruleset.max_players,
        character_slot=ruleset.character_slot,
        options=options,
        characters=tuple(ruleset.character_choices()),
    )


def describe_rulesets() -> list[RulesetInfo]:
    """Returns every registered ruleset's description, by name."""
    return [describe_ruleset(name) for name in ruleset_names()]
