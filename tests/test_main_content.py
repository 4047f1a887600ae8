"""The main board's content (RULES.md §5): each file loads, counts hold, bad content fails in one line."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from domain.errors import ContentError
from domain.rulesets.talisman.characters import load_characters
from domain.rulesets.talisman.main.content import (
    HOOKS,
    KINDS,
    MAIN_FILES,
    content_paths,
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
    names = [p.name for p in content_paths({})]
    assert sorted(names) == sorted(["characters.toml", *MAIN_FILES])
    assert all(p.parent.name == "talisman" for p in content_paths({}))


def test_content_paths_add_each_expansion_turned_on():
    # RULES.md §5: the content hash covers exactly the content in play.
    base = {f"{p.parent.name}/{p.name}" for p in content_paths({})}
    both = {f"{p.parent.name}/{p.name}" for p in content_paths({"dungeon": "true", "keep": "true"})}
    assert both - base == {
        "dungeon/board.toml",
        "dungeon/deck.toml",
        "keep/board.toml",
        "keep/deck.toml",
        "keep/spells.toml",
        "keep/tables.toml",
        "keep/vault.toml",
    }
    assert {p.parent.name for p in content_paths({"dungeon": "false"})} == {"talisman"}


def test_every_main_file_says_where_it_comes_from():
    for path in content_paths({}):
        if path.name != "characters.toml":
            assert path.read_text().count('\nsource = "house"\n') == 1, path.name


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


# --- the decks -------------------------------------------------------------------------------------------


def test_adventure_deck_has_about_100_cards_with_every_encounter_number():
    # RULES.md §5: ~100 Adventure cards; RULES.md §1: encounter numbers 1-6 by type.
    cards = load_adventure().cards
    base = [c for c in cards if not c.option]
    assert 95 <= len(base) <= 110
    assert {c.number for c in base} == {1, 2, 3, 4, 5, 6}
    assert {c.type for c in base} >= {
        "event",
        "monster",
        "spirit",
        "stranger",
        "object",
        "magic-object",
        "follower",
    }


def test_enemies_carry_strength_or_craft_and_objects_their_bonus():
    deck = load_adventure()
    dragon = deck.card("talisman/card/dragon")
    assert (dragon.number, dragon.strength, dragon.craft) == (2, 7, 0)
    ghost = deck.card("talisman/card/ghost-1")
    assert (ghost.type, ghost.craft) == ("spirit", 4)
    assert deck.card("talisman/card/armour").save == 4  # RULES.md §1: Armour saves on 4-6
    assert deck.card("talisman/card/holy-lance").alignment == "good"


def test_dungeon_11_1_events_and_the_orcs_wolf_are_in_the_deck():
    deck = load_adventure()
    assert deck.card("talisman/card/blizzard-1").type == "event"
    assert deck.card("talisman/card/astral-conjunction").effect == "spirits-stronger"
    assert deck.card("talisman/card/wolf").type == "follower"  # Dungeon 12.6 names the Orc's Wolf


def test_ethereal_portals_are_in_the_deck_only_with_the_keep():
    # Keep 4: 8 Ethereal Portal cards lead from the main board to the Keep.
    portals = [c for c in load_adventure().cards if c.effect == "ethereal-portal"]
    assert len(portals) == 8 and {c.option for c in portals} == {"keep"}


def test_stranger_tables_cover_their_dice():
    tables = [c for c in load_adventure().cards if c.rows]
    assert tables
    for card in tables:
        assert card.rows[0].low == card.dice and card.rows[-1].high == 6 * card.dice


def test_purchase_deck_sells_the_eight_items_of_section_5():
    items = {i.name: i for i in load_purchase().items}
    assert set(items) == {"Mule", "Armour", "Axe", "Sword", "Water Bottle", "Helmet", "Shield", "Raft"}
    assert all(i.price > 0 and i.copies > 0 for i in items.values())
    assert (items["Shield"].save, items["Helmet"].save) == (5, 6)  # RULES.md §1


def test_spell_deck_has_at_least_24_spells_each_saying_when():
    spells = load_spells().spells
    assert len(spells) >= 24
    assert {s.when for s in spells} == {"own-turn", "combat", "psychic-combat", "any-combat", "any-time"}


def test_four_talismans():
    assert [t.id for t in load_talismans().talismans] == [f"talisman/talisman/{n}" for n in range(1, 5)]


# --- the abilities ----------------------------------------------------------------------------------------


def test_every_character_has_one_to_three_abilities_with_known_hooks():
    abilities = load_abilities()
    assert {c.id for c in abilities.characters} == set(load_characters())
    for character in abilities.characters:
        assert 1 <= len(character.abilities) <= 3
        assert all(a.hook in HOOKS and a.id.startswith("talisman/ability/") for a in character.abilities)


def limits(character: str, hook: str) -> dict[str, tuple[str, str, str]]:
    ability = next(a for a in load_abilities().of(f"talisman/character/{character}") if a.hook == hook)
    return {lim.where: (lim.limit, lim.rule, lim.target) for lim in ability.limits}


@pytest.mark.parametrize(
    ("character", "hook", "rule"),
    [
        ("amazon", "extra-movement", "Dungeon 12.1"),
        ("centaur", "extra-movement", "Dungeon 12.1"),
        ("inquisitor", "imprison", "Dungeon 12.3"),
        ("leprechaun", "teleport-self", "Dungeon 12.4"),
        ("ninja", "evade-enemies", "Dungeon 12.5"),
        ("ninja", "skip-encounters", "Dungeon 12.5"),
        ("orc", "wolf-ride", "Dungeon 12.6"),
        ("prophetess", "extra-card", "Dungeon 12.9"),
    ],
)
def test_dungeon_12_turns_these_abilities_off_in_the_dungeon(character, hook, rule):
    assert limits(character, hook)["dungeon"][:2] == ("off", rule)


@pytest.mark.parametrize(
    ("character", "hook", "rule"),
    [("assassin", "assassinate", "Dungeon 12.2"), ("martial-artist", "killer-blow", "Dungeon 12.7")],
)
def test_dungeon_12_spares_the_guard(character, hook, rule):
    assert limits(character, hook)["dungeon"] == ("not-against", rule, "dungeon/space/guard-room")


def test_philosopher_sees_one_card_and_zulu_routs_either_way():
    assert limits("philosopher", "peek-next-card")["dungeon"][:2] == ("amount", "Dungeon 12.8")
    assert limits("zulu", "rout")["dungeon"][:2] == ("either-direction", "Dungeon 12.10")


def test_every_ability_altering_movement_is_off_in_the_keep():
    # Keep 5.4, 7.2, 13: nothing alters movement in the Keep; every other ability still works there.
    for character in load_abilities().characters:
        for ability in character.abilities:
            keep = [lim for lim in ability.limits if lim.where == "keep"]
            assert bool(keep) == ability.movement, ability.id
    assert limits("amazon", "extra-movement")["keep"][:2] == ("off", "Keep 5.4")


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
            "adventure.toml: cards[66]: object contains unknown field `sharpness`",
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
        (
            "abilities.toml",
            'target = "dungeon/space/guard-room"',
            'target = "dungeon/space/guard-house"',
            "abilities.toml: characters[0].abilities[0].limits[0].target: no dungeon space has the id",
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
