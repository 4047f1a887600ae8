"""Bad main-board content (house rules H5) fails in one line naming the file and the key."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from domain.errors import ContentError
from domain.rulesets.talisman.main.build import build_context
from domain.rulesets.talisman.main.content import (
    load_abilities,
    load_adventure,
    load_board,
    load_places,
    load_purchase,
    load_spells,
    load_talismans,
)


@pytest.fixture
def override(content_override: Callable[[str, str, Callable[[str], str]], None]):
    """Copies a shipped content file into NIGHTKEEP_CONTENT_DIR with an edit applied (see conftest)."""
    return content_override


def replace_once(old: str, new: str) -> Callable[[str], str]:
    """Returns an edit replacing the first `old` of a file with `new`."""
    return lambda text: text.replace(old, new, 1)


# --- bad content ------------------------------------------------------------------------------------------


def one_line(exc: pytest.ExceptionInfo[ContentError]) -> str:
    message = str(exc.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("draws = 2", 'draws = "two"', "board.toml: boards[0].spaces[20].draws: expected `int`, got `str`"),
        (
            'kind = "tavern"',
            'kind = "pub"',
            "board.toml: boards[0].spaces[18].kind: invalid enum value 'pub'",
        ),
        (
            "draws = 3",
            "draws = 3\ncolour = 1",
            "board.toml: boards[1].spaces[2].colour: unknown field",
        ),
        (
            'id = "talisman/space/outer/fields-2"',
            'id = "talisman/space/outer/fields-1"',
            "board.toml: boards[0].spaces[7].id: duplicate id 'talisman/space/outer/fields-1'",
        ),
        (
            'table = "tavern"',
            'table = "inn"',
            "board.toml: boards[0].spaces[18].table: no table of places.toml",
        ),
        ('Woods = "', 'Wood = "', "board.toml: starts: no space for the start 'Woods'"),
    ],
)
def test_bad_board_fails_naming_file_and_key(override, old, new, expected):
    override("talisman", "board.toml", replace_once(old, new))
    with pytest.raises(ContentError) as exc:
        load_board()
    assert one_line(exc).startswith(expected)


def test_a_space_on_the_wrong_board_is_refused(override):
    override(
        "talisman", "board.toml", replace_once("talisman/space/middle/hills", "talisman/space/outer/hills-9")
    )
    with pytest.raises(
        ContentError, match=re.escape("boards[1].spaces[15].id: expected an id starting with")
    ):
        load_board()


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "low = 6\nhigh = 6",
            "low = 6\nhigh = 5",
            "places.toml: tables[1].rows[3]: expected a band starting at 6",
        ),
        (
            "low = 5\nhigh = 5",
            "low = 5\nhigh = 6",
            "places.toml: tables[1].rows[3]: expected a band starting at 7, got 6-6",
        ),
        (
            'outcome = "gain-craft"',
            'outcome = "gain-wisdom"',
            "places.toml: tables[1].rows[2].outcome: invalid enum",
        ),
        ('id = "pay-gold"', 'id = "lose-life"', "places.toml: quests[1].id: duplicate id 'lose-life'"),
        ('target = "pay-gold"', 'target = "pay-silver"', "places.toml: tables[11].rows[1].target: no quest"),
        (
            'table = "mystic"',
            'table = "seer"',
            "places.toml: tables[0].services[2].table: no table has the id",
        ),
    ],
)
def test_bad_places_fail_naming_file_and_key(override, old, new, expected):
    override("talisman", "places.toml", replace_once(old, new))
    with pytest.raises(ContentError) as exc:
        load_places()
    assert one_line(exc).startswith(expected)


def test_table_faces_missing_are_named(override):
    # The Mystic's last row (6) removed: 1 die must cover 1-6.
    def edit(text: str) -> str:
        start = text.index("[[tables.rows]]\nlow = 6\nhigh = 6")
        return text[:start] + text[text.index("[[tables]]", start) :]

    override("talisman", "places.toml", edit)
    with pytest.raises(ContentError, match=re.escape("places.toml: tables[1].rows: faces 6-6 are missing")):
        load_places()


def test_a_teleport_to_no_space_is_refused(override):
    override(
        "talisman",
        "places.toml",
        replace_once("talisman/space/middle/temple", "talisman/space/middle/shrine"),
    )
    with pytest.raises(
        ContentError, match=re.escape("places.toml: tables[6].rows[5].target: no space of board.toml")
    ):
        load_places()


@pytest.mark.parametrize(
    ("filename", "old", "new", "expected"),
    [
        (
            "adventure.toml",
            "strength = 1\nfamily",
            'strength = "one"\nfamily',
            "adventure.toml: cards[22].strength: expected `int`, got `str`",
        ),
        (
            "adventure.toml",
            'id = "talisman/card/giant-rat"\nname = "Giant Rat"\nnumber = 2',
            'id = "talisman/card/giant-rat"\nname = "Giant Rat"\nnumber = 3',
            "adventure.toml: cards[24].number: a monster has encounter number 2, got 3",
        ),
        (
            "adventure.toml",
            'id = "talisman/card/giant-rat"',
            'id = "talisman/card/wild-boar-2"',
            "adventure.toml: cards[24].id: duplicate id 'talisman/card/wild-boar-2'",
        ),
        (
            "adventure.toml",
            'effect = "strength-bonus"',
            'effect = "strength-bonus"\nsharpness = 2',
            "adventure.toml: cards[66].sharpness: unknown field",
        ),
        (
            "purchase.toml",
            "price = 4",
            "price = 0",
            "purchase.toml: items[0].price: expected 1-12 Gold, got 0",
        ),
        (
            "purchase.toml",
            'effect = "carry"',
            'effect = "haul"',
            "purchase.toml: items[0].effect: invalid enum value 'haul'",
        ),
        (
            "spells.toml",
            'when = "own-turn"',
            'when = "whenever"',
            "spells.toml: spells[0].when: invalid enum value 'whenever'",
        ),
        (
            "spells.toml",
            'id = "talisman/spell/mend"',
            'id = "talisman/spell/healing"',
            "spells.toml: spells[1].id: duplicate id 'talisman/spell/healing'",
        ),
        (
            "talismans.toml",
            'id = "talisman/talisman/2"',
            'id = "talisman/talisman/1"',
            "talismans.toml: talismans[1].id: duplicate",
        ),
        (
            "abilities.toml",
            'hook = "two-dice-combat"',
            'hook = "berserk"',
            "abilities.toml: characters[12].abilities[0].hook: invalid enum value 'berserk'",
        ),
        (
            "abilities.toml",
            'where = "keep"\nlimit = "off"\nrule = "Keep 5.4"',
            'where = "dungeon"\nlimit = "off"\nrule = "Keep 5.4"',
            "abilities.toml: characters[3].abilities[0].limits: an ability altering movement needs a keep",
        ),
        (
            "abilities.toml",
            'rule = "Dungeon 12.2"',
            'rule = "the Guard rule"',
            "abilities.toml: characters[0].abilities[0].limits[0].rule: expected a seed rule",
        ),
        (
            "abilities.toml",
            'id = "talisman/character/zulu"',
            'id = "talisman/character/zulu-king"',
            "abilities.toml: characters: no abilities for talisman/character/zulu",
        ),
        (
            "abilities.toml",
            'target = "Chapel"',
            'target = "Cathedral"',
            "abilities.toml: characters[7].abilities[1].target: no space of board.toml is named 'Cathedral'",
        ),
    ],
)
def test_bad_decks_and_abilities_fail_naming_file_and_key(override, filename, old, new, expected):
    loaders = {
        "adventure.toml": load_adventure,
        "purchase.toml": load_purchase,
        "spells.toml": load_spells,
        "talismans.toml": load_talismans,
        "abilities.toml": load_abilities,
    }
    override("talisman", filename, replace_once(old, new))
    with pytest.raises(ContentError) as exc:
        loaders[filename]()
    assert one_line(exc).startswith(expected)


@pytest.mark.parametrize(
    ("old", "new", "expansion", "expected"),
    [
        (
            'target = "dungeon/guard"',
            'target = "dungeon/guard-dog"',
            "dungeon",
            "abilities.toml: characters[0].abilities[0].limits[0].target: no dungeon foe has the id",
        ),
        (
            'where = "dungeon"\nlimit = "not-against"',
            'where = "keep"\nlimit = "not-against"',
            "keep",
            "abilities.toml: characters[0].abilities[0].limits[0].target: no keep foe has the id",
        ),
    ],
)
def test_a_limit_naming_no_foe_of_its_board_fails_once_that_expansion_is_in_play(
    override, old, new, expansion, expected
):
    """Dungeon 12.2, 12.7: a `not-against` limit names a foe of its board (the Guard); the expansion in
    play checks what the main board's abilities name on its board (the Keep has no foe to name)."""
    override("talisman", "abilities.toml", replace_once(old, new))
    build_context({}).load_all()  # the main board alone names nothing on the expansions' boards
    with pytest.raises(ContentError) as exc:
        build_context({expansion: "true"}).load_all()
    assert one_line(exc).startswith(expected)


def test_stranger_table_faces_missing_are_named(override):
    # The Witch rolls 1 die: a table ending at 5 leaves the 6 uncovered.
    override(
        "talisman",
        "adventure.toml",
        replace_once(
            'low = 6\nhigh = 6\noutcome = "gain-spell"', 'low = 6\nhigh = 5\noutcome = "gain-spell"'
        ),
    )
    with pytest.raises(
        ContentError, match=re.escape("adventure.toml: cards[60].rows[4]: expected a band starting at 6")
    ):
        load_adventure()
