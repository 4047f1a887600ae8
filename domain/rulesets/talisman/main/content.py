"""The Talisman main board's content (house rules H5), declared as msgspec schemas and loaded once.

Files (in `domain/rulesets/talisman/`, each replaceable under `NIGHTKEEP_CONTENT_DIR`): `board.toml`
(regions as boards), `places.toml` (the places' die tables and quests), `adventure.toml`,
`purchase.toml`, `spells.toml`, `talismans.toml` (the decks) and `abilities.toml` (the characters'
abilities); `characters.toml` is shared with the short games. Errors name the file and the key.
"""

from __future__ import annotations

from domain.content import load_schema
from domain.rulesets.talisman.characters import FILE as CHARACTERS_FILE
from domain.rulesets.talisman.characters import load_characters
from domain.rulesets.talisman.main.content_abilities import (
    ABILITIES_FILE,
    HOOKS,
    SPACE_NAME_HOOKS,
    AbilitiesFile,
    check_abilities,
)
from domain.rulesets.talisman.main.content_base import DIR, fail
from domain.rulesets.talisman.main.content_board import (
    BOARD_FILE,
    KINDS,
    OUTCOMES,
    PLACES_FILE,
    BoardFile,
    PlacesFile,
    check_board,
    check_places,
)
from domain.rulesets.talisman.main.content_decks import (
    ADVENTURE_FILE,
    CARD_EFFECTS,
    PURCHASE_FILE,
    SPELL_EFFECTS,
    SPELLS_FILE,
    TALISMANS_FILE,
    AdventureFile,
    PurchaseFile,
    SpellsFile,
    TalismansFile,
    check_adventure,
    check_purchase,
    check_spells,
    check_talismans,
)

__all__ = [
    "CARD_EFFECTS",
    "HOOKS",
    "KINDS",
    "MAIN_FILES",
    "OUTCOMES",
    "SPELL_EFFECTS",
    "AbilitiesFile",
    "AdventureFile",
    "BoardFile",
    "PlacesFile",
    "PurchaseFile",
    "SpellsFile",
    "TalismansFile",
    "load_abilities",
    "load_adventure",
    "load_adventure_extra",
    "load_board",
    "load_places",
    "load_purchase",
    "load_spells",
    "load_talismans",
]

MAIN_FILES = (
    BOARD_FILE,
    PLACES_FILE,
    ADVENTURE_FILE,
    PURCHASE_FILE,
    SPELLS_FILE,
    TALISMANS_FILE,
    ABILITIES_FILE,
)


def load_places() -> PlacesFile:
    """Returns the places' die tables and the Warlock's quests in use, validated."""
    return load_schema(DIR, PLACES_FILE, PlacesFile, _check_places)


def _check_places(places: PlacesFile, filename: str) -> PlacesFile:
    # The spaces places.toml names must be on the board in use (checked alone, without its tables).
    check_places(places, filename)
    _check_targets(load_schema(DIR, BOARD_FILE, BoardFile, check_board), places)
    return places


def load_board() -> BoardFile:
    """Returns the main board in use, validated, its tables found in places.toml and starts known."""
    return load_schema(DIR, BOARD_FILE, BoardFile, _check_board)


def _check_board(board: BoardFile, filename: str) -> BoardFile:
    # Cross-file checks run once, when the board is built: rules ask for the board on every action.
    check_board(board, filename)
    places = load_places()
    tables = {t.id for t in places.tables}
    _check_targets(board, places)
    for i, region in enumerate(board.boards):
        for j, space in enumerate(region.spaces):
            if space.table and space.table not in tables:
                key = f"boards[{i}].spaces[{j}].table"
                fail(filename, key, f"no table of {PLACES_FILE} has the id {space.table!r}")
    for character in load_characters().values():
        if character.start not in board.starts:
            fail(filename, "starts", f"no space for the start {character.start!r} of {character.id}")
    return board


def _check_targets(board: BoardFile, places: PlacesFile) -> None:
    spaces = {s.id for region in board.boards for s in region.spaces}
    for key, target in _space_targets(places):
        if target not in spaces:
            fail(PLACES_FILE, key, f"no space of {BOARD_FILE} has the id {target!r}")


def _space_targets(places: PlacesFile) -> list[tuple[str, str]]:
    # The space ids places.toml names, by key: where its rows teleport to, where its quests send you.
    found = [
        (f"tables[{i}].rows[{j}].target", row.target)
        for i, table in enumerate(places.tables)
        for j, row in enumerate(table.rows)
        if row.outcome == "teleport" and row.target
    ]
    found += [
        (f"quests[{i}].target", q.target) for i, q in enumerate(places.quests) if q.goal == "visit-space"
    ]
    return found


def load_adventure() -> AdventureFile:
    """Returns the Adventure deck in use, validated."""
    return load_schema(DIR, ADVENTURE_FILE, AdventureFile, check_adventure)


def load_adventure_extra(filename: str) -> AdventureFile:
    """Returns the Adventure cards an expansion shuffles into the deck (its own file), validated."""
    return load_schema(DIR, filename, AdventureFile, check_adventure)


def load_purchase() -> PurchaseFile:
    """Returns the Purchase deck in use, validated."""
    return load_schema(DIR, PURCHASE_FILE, PurchaseFile, check_purchase)


def load_spells() -> SpellsFile:
    """Returns the Spell deck in use, validated."""
    return load_schema(DIR, SPELLS_FILE, SpellsFile, check_spells)


def load_talismans() -> TalismansFile:
    """Returns the Talisman deck in use, validated."""
    return load_schema(DIR, TALISMANS_FILE, TalismansFile, check_talismans)


def load_abilities() -> AbilitiesFile:
    """Returns every character's abilities in use, validated, each character of characters.toml listed."""
    return load_schema(DIR, ABILITIES_FILE, AbilitiesFile, _check_abilities)


def _check_abilities(abilities: AbilitiesFile, filename: str) -> AbilitiesFile:
    # Every character has an entry, every entry a character, and targets name what exists.
    check_abilities(abilities, filename)
    characters = load_characters()
    listed = {c.id for c in abilities.characters}
    for character_id in characters:
        if character_id not in listed:
            fail(filename, "characters", f"no abilities for {character_id}")
    names = {s.name for region in load_board().boards for s in region.spaces}
    for i, entry in enumerate(abilities.characters):
        if entry.id not in characters:
            fail(filename, f"characters[{i}].id", f"no character of {CHARACTERS_FILE} has it ({entry.id!r})")
        for j, ability in enumerate(entry.abilities):
            key = f"characters[{i}].abilities[{j}].target"
            if ability.hook in SPACE_NAME_HOOKS and ability.target and ability.target not in names:
                fail(filename, key, f"no space of {BOARD_FILE} is named {ability.target!r}")
            if ability.hook == "ignore-space-table" and ability.target not in KINDS:
                fail(filename, key, f"expected a space kind, got {ability.target!r}")
    return abilities
