"""The Talisman characters (`characters.toml`): stats, alignment and name resolution."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from msgspec import Meta, Struct

from domain.content import check_ids, content_path, load_schema
from domain.errors import BadSetup, UnknownCharacter
from domain.field_types import Seat
from domain.rulesets.talisman.cards import Text
from domain.suggest import did_you_mean

DIR = "talisman"
FILE = "characters.toml"
PREFIX = "talisman/character/"
Alignment = Literal["good", "neutral", "evil"]
ALIGNMENTS: tuple[str, ...] = get_args(Alignment)
StartingStat = Annotated[int, Meta(ge=1, le=12)]


class Character(Struct, frozen=True, forbid_unknown_fields=True):
    """One character card: its stable id, name, starting Strength and Craft, alignment and start."""

    id: Text
    name: Text
    strength: StartingStat
    craft: StartingStat
    alignment: Alignment
    start: Text = "-"
    source: Text = "house"

    @property
    def short_name(self) -> str:
        """Returns the short lowercase name players type (`warrior`, `martial-artist`)."""
        return self.id.removeprefix(PREFIX)


class CharactersFile(Struct, frozen=True, forbid_unknown_fields=True):
    """The characters file: where it comes from and at least one character."""

    source: Text
    characters: Annotated[tuple[Character, ...], Meta(min_length=1)]


def check_characters(content: CharactersFile, filename: str) -> dict[str, Character]:
    """Returns the characters by id, in file order, once each id is unique and well prefixed."""
    check_ids((c.id for c in content.characters), filename, "characters", PREFIX)
    return {character.id: character for character in content.characters}


def load_characters() -> dict[str, Character]:
    """Returns every character by id, validated (cached per file version)."""
    return load_schema(DIR, FILE, CharactersFile, check_characters)


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
