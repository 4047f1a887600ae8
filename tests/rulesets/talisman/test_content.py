"""The main board's content (house rules H5): each file loads, and its counts and the seeds' limits hold."""

from __future__ import annotations

import pytest

from domain.rulesets.talisman.characters import load_characters
from domain.rulesets.talisman.main.build import content_paths
from domain.rulesets.talisman.main.content import (
    HOOKS,
    KINDS,
    MAIN_FILES,
    load_abilities,
    load_adventure,
    load_board,
    load_places,
    load_purchase,
    load_spells,
    load_talismans,
)

# --- the board --------------------------------------------------------------------------------------------


def test_board_has_the_four_boards_of_section_5():
    # house rule H5.1: 24 Outer spaces, 16 Middle, 8 Inner, then the Crown.
    board = load_board()
    assert [(b.id, len(b.spaces)) for b in board.boards] == [
        ("outer", 24),
        ("middle", 16),
        ("inner", 8),
        ("crown", 1),
    ]


def test_outer_region_runs_clockwise_from_the_village():
    # house rule H5.1: the Outer Region's order, index 0 = Village.
    names = [s.name for s in load_board().board("outer").spaces]
    assert names[:7] == ["Village", "Fields", "Graveyard", "Woods", "Sentinel", "Hills", "Chapel"]
    assert names[12] == "City" and names[18] == "Tavern" and names[22] == "Forest"


def test_inner_region_leads_from_the_plain_of_peril_to_the_crypt():
    inner = [s.kind for s in load_board().board("inner").spaces]
    assert inner[0] == "plain-of-peril" and inner[4] == "valley-of-fire" and inner[-1] == "crypt"
    assert load_board().space("crown", 0).kind == "crown"


def test_sentinel_crossing_lands_on_the_middle_hills():
    # house rule H5.4: defeat the Sentinel (Strength 9) to cross to the Middle Region's Hills.
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
    # house rules H5: the content hash covers exactly the content in play.
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
        "talisman/adventure-keep.toml",  # the Keep's 16 house Adventure cards (Keep 3.3)
        "talisman/adventure-dungeon.toml",  # Dungeon 3.1: the Doorways
        "talisman/dungeon-exits.toml",  # Dungeon 8.1, 8.3, 5.3 (house)
    }
    assert {p.parent.name for p in content_paths({"dungeon": "false"})} == {"talisman"}


def test_every_main_file_says_where_it_comes_from():
    for path in content_paths({}):
        if path.name != "characters.toml":
            assert path.read_text().count('\nsource = "house"\n') == 1, path.name


# --- the places -------------------------------------------------------------------------------------------


def test_crypt_is_three_dice_less_strength_with_open_ends():
    # house rule H5.11: Crypt, 3 dice − Strength: 0 stay, 1 Plain of Peril, 2–3 Portal, 4–5 Warlock, 6+ City.
    crypt = load_places().table("crypt")
    assert (crypt.dice, crypt.minus) == (3, "strength")
    assert [(r.low, r.high, r.target.rsplit("/", 1)[-1]) for r in crypt.rows][1:] == [
        (1, 1, "plain-of-peril"),
        (2, 3, "portal-of-power"),
        (4, 5, "warlocks-cave"),
        (6, 6, "city"),
    ]


def test_chapel_heals_the_good_and_hurts_the_evil_and_the_neutral_roll():
    # house rule H5.9: Chapel: good heal, evil lose a life, neutral roll.
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
    # house rule H5.13: ~100 Adventure cards; house rule H1.8: encounter numbers 1-6 by type.
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
    assert deck.card("talisman/card/armour").save == 4  # house rule H1.4: Armour saves on 4-6
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
    assert (items["Shield"].save, items["Helmet"].save) == (5, 6)  # house rule H1.4


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
    assert limits(character, hook)["dungeon"] == ("not-against", rule, "dungeon/guard")


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
