"""The main board's content (RULES.md §5): each file loads, counts hold, bad content fails in one line."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from domain.errors import ContentError
from domain.rulesets.talisman.characters import load_characters
from domain.rulesets.talisman.main.content import KINDS, content_paths, load_board, load_places


@pytest.fixture
def override(content_override: Callable[[str, str, Callable[[str], str]], None]):
    """Copies a shipped content file into NIGHTKEEP_CONTENT_DIR with an edit applied (see conftest)."""
    return content_override


def replace_once(old: str, new: str) -> Callable[[str], str]:
    """Returns an edit replacing the first `old` of a file with `new`."""
    return lambda text: text.replace(old, new, 1)


# --- the board --------------------------------------------------------------------------------------------


def test_board_has_the_four_boards_of_section_5():
    # RULES.md §5: 24 Outer spaces, 16 Middle, 8 Inner, then the Crown.
    board = load_board()
    assert [(b.id, len(b.spaces)) for b in board.boards] == [
        ("outer", 24),
        ("middle", 16),
        ("inner", 8),
        ("crown", 1),
    ]


def test_outer_region_runs_clockwise_from_the_village():
    # RULES.md §5: the Outer Region's order, index 0 = Village.
    names = [s.name for s in load_board().board("outer").spaces]
    assert names[:7] == ["Village", "Fields", "Graveyard", "Woods", "Sentinel", "Hills", "Chapel"]
    assert names[12] == "City" and names[18] == "Tavern" and names[22] == "Forest"


def test_inner_region_leads_from_the_plain_of_peril_to_the_crypt():
    inner = [s.kind for s in load_board().board("inner").spaces]
    assert inner[0] == "plain-of-peril" and inner[4] == "valley-of-fire" and inner[-1] == "crypt"
    assert load_board().space("crown", 0).kind == "crown"


def test_sentinel_crossing_lands_on_the_middle_hills():
    # RULES.md §5: defeat the Sentinel (Strength 9) to cross to the Middle Region's Hills.
    board = load_board()
    sentinel = board.space("outer", 4)
    assert (sentinel.kind, sentinel.guard) == ("sentinel", 9)
    assert board.position("talisman/space/middle/hills") == ("middle", 15)


@pytest.mark.parametrize(
    ("space_id", "draws"),
    [
        ("talisman/space/outer/fields-1", 1),
        ("talisman/space/outer/crags", 1),
        ("talisman/space/outer/ruins", 2),
        ("talisman/space/middle/oasis", 2),
        ("talisman/space/middle/hidden-valley", 3),
        ("talisman/space/middle/black-knight", 1),
        ("talisman/space/outer/village", 0),
    ],
)
def test_spaces_hold_the_cards_section_5_says(space_id, draws):
    board = load_board()
    region, index = board.position(space_id)
    assert board.space(region, index).draws == draws


def test_every_space_kind_has_a_known_handler_and_every_table_exists():
    board = load_board()
    tables = {t.id for t in load_places().tables}
    for region in board.boards:
        for space in region.spaces:
            assert space.kind in KINDS
            assert not space.table or space.table in tables


def test_every_character_start_names_an_outer_space():
    board = load_board()
    for character in load_characters().values():
        assert board.position(board.starts[character.start])[0] == "outer"


def test_content_paths_name_the_main_files_and_the_characters():
    names = {p.name for p in content_paths({})}
    assert {"characters.toml", "board.toml", "places.toml"} <= names


# --- the places -------------------------------------------------------------------------------------------


def test_crypt_is_three_dice_less_strength_with_open_ends():
    # RULES.md §5: Crypt, 3 dice − Strength: 0 stay, 1 Plain of Peril, 2–3 Portal, 4–5 Warlock, 6+ City.
    crypt = load_places().table("crypt")
    assert (crypt.dice, crypt.minus) == (3, "strength")
    assert [(r.low, r.high, r.target.rsplit("/", 1)[-1]) for r in crypt.rows][1:] == [
        (1, 1, "plain-of-peril"),
        (2, 3, "portal-of-power"),
        (4, 5, "warlocks-cave"),
        (6, 6, "city"),
    ]


def test_chapel_heals_the_good_and_hurts_the_evil_and_the_neutral_roll():
    # RULES.md §5: Chapel: good heal, evil lose a life, neutral roll.
    chapel = load_places().table("chapel")
    assert {(f.alignment, f.outcome) for f in chapel.fixed} == {("good", "heal"), ("evil", "lose-life")}
    assert chapel.dice == 1 and chapel.rows


def test_village_offers_healer_blacksmith_and_mystic():
    services = {s.id: s for s in load_places().table("village").services}
    assert {"healer", "blacksmith", "mystic"} <= set(services)
    assert services["healer"].cost == 1 and services["mystic"].table == "mystic"
    assert services["mystic-keep"].option == "keep"  # Keep 4: the Mystic for 5 Gold


def test_warlocks_quests_all_exist():
    places = load_places()
    quests = {q.id for q in places.quests}
    assert {r.target for r in places.table("warlocks-cave").rows} <= quests


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
            "board.toml: boards[1].spaces[2]: object contains unknown field `colour`",
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
