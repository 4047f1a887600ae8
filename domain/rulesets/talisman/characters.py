"""The Talisman characters (`characters.toml`): stats, alignment and name resolution."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.content import Section, content_path, load_model, unique_ids
from domain.errors import BadSetup, UnknownCharacter
from domain.field_types import Seat
from domain.suggest import did_you_mean

DIR = "talisman"
FILE = "characters.toml"
PREFIX = "talisman/character/"
ALIGNMENTS = ("good", "neutral", "evil")


@dataclass(frozen=True, slots=True)
class Character:
    """One character card: its stable id, name, starting Strength and Craft, alignment and start."""

    id: str
    name: str
    strength: int
    craft: int
    alignment: str
    start: str
    source: str

    @property
    def short_name(self) -> str:
        """Returns the short lowercase name players type (`warrior`, `martial-artist`)."""
        return self.id.removeprefix(PREFIX)


def _build(data: dict[str, Any], filename: str) -> dict[str, Character]:
    top = Section(data, filename)
    top.check_keys(["source", "characters"])
    top.text("source")
    entries = top.tables("characters")
    if not entries:
        top.fail("characters", "expected at least one character")
    unique_ids(entries, prefix=PREFIX)
    characters: dict[str, Character] = {}
    for entry in entries:
        entry.check_keys(["id", "name", "strength", "craft", "alignment", "start", "source"])
        character = Character(
            id=entry.text("id"),
            name=entry.text("name"),
            strength=entry.integer("strength", low=1, high=12),
            craft=entry.integer("craft", low=1, high=12),
            alignment=entry.text("alignment", choices=ALIGNMENTS),
            start=entry.text("start", default="-"),
            source=entry.text("source", default="house"),
        )
        characters[character.id] = character
    return characters


def load_characters() -> dict[str, Character]:
    """Returns every character by id, validated (cached per file version)."""
    return load_model(DIR, FILE, _build)


def characters_path() -> Any:
    """Returns the path of the characters file in use (for content hashes)."""
    return content_path(DIR, FILE)


def character_choices() -> list[tuple[str, str]]:
    """Returns the characters a player may name, as (short id, name), from the content in use."""
    return sorted((c.short_name, c.name) for c in load_characters().values())


def resolve_character(name: str) -> str:
    """Returns the id of the character a player named (`warrior`, `Martial Artist` or a full id)."""
    characters = load_characters()
    wanted = name.strip().lower().replace(" ", "-").replace("_", "-")
    for character in characters.values():
        if wanted in (character.id, character.short_name):
            return character.id
    names = sorted(c.short_name for c in characters.values())
    hint = did_you_mean(wanted, names)
    raise UnknownCharacter(f"unknown character {name!r} (known: {', '.join(names)}){hint}")


def canonical_seats(players: list[Seat]) -> list[Seat]:
    """Returns the seats with each character asked for written as its full id (`Bo:warrior` →
    `talisman/character/warrior`; "" stays "": dealt at random)."""
    return [
        {"name": seat["name"], "character": resolve_character(seat["character"]) if seat["character"] else ""}
        for seat in players
    ]


def character_or_stand_in(character_id: str) -> Character:
    """Returns a character's card, or middling stats for one missing from swapped content (a replay
    must never fail on a character the content in use does not have)."""
    found = load_characters().get(character_id)
    return found or Character(character_id, character_id.rsplit("/", 1)[-1], 3, 3, "neutral", "-", "unknown")


def check_seats(ruleset: str, players: list[dict[str, Any]], low: int, high: int) -> None:
    """Raises BadSetup (or UnknownCharacter) unless there are low-high seats with distinct names and
    distinct characters among those asked for."""
    if not low <= len(players) <= high:
        raise BadSetup(f"{ruleset} takes {low}-{high} players, got {len(players)}")
    names: set[str] = set()
    characters: set[str] = set()
    for seat in players:
        name = str(seat.get("name") or "")
        if not name.strip():
            raise BadSetup("every player needs a non-empty name")
        if name.casefold() in names:
            raise BadSetup(f"player name {name!r} is used twice")
        names.add(name.casefold())
        wanted = seat.get("character") or ""
        if wanted:
            character = resolve_character(str(wanted))
            if character in characters:
                raise BadSetup(f"character {character.rsplit('/', 1)[-1]} is chosen twice")
            characters.add(character)
