"""The Vampire's Keep's house content (house rules H3): shipped files load, and errors name file and key."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from domain.errors import ContentError
from domain.rulesets.keep import content as keep
from domain.rulesets.keep.content import (
    load_board,
    load_deck,
    load_spells,
    load_tables,
    load_vault,
)

Edit = Callable[[str], str]


@pytest.fixture
def override(content_override: Callable[[str, str, Edit], None]) -> Callable[[str, Edit], None]:
    """Copies a shipped keep file into its own NIGHTKEEP_CONTENT_DIR with an edit applied (see conftest)."""
    return lambda filename, edit: content_override("keep", filename, edit)


def replace(old: str, new: str, count: int = 1) -> Edit:
    def edit(text: str) -> str:
        assert old in text, f"{old!r} is not in the shipped file"
        line_start = text.rfind("\n", 0, text.index(old)) + 1
        assert not text[line_start:].startswith("#"), f"{old!r} first appears in a comment"
        return text.replace(old, new, count)

    return edit


def append(extra: str) -> Edit:
    return lambda text: text + extra


# --- shipped board ------------------------------------------------------------------------------------------


def test_board_has_21_spaces_on_three_levels_of_seven():
    board = load_board()
    assert board.source == "house" and len(board.spaces) == 21 and board.last == 21
    assert [s.number for s in board.spaces] == list(range(1, 22))
    assert Counter(s.level for s in board.spaces) == {1: 7, 2: 7, 3: 7}
    assert (board.space(7).level, board.space(8).level, board.space(14).level, board.space(15).level) == (
        1,
        2,
        2,
        3,
    )
    assert len({s.id for s in board.spaces}) == 21
    assert all(s.id.startswith("keep/space/") for s in board.spaces)


def test_board_known_spaces_sit_at_their_numbers():
    board = load_board()
    known = {
        1: ("Keep Entrance", "entrance"),
        2: ("Hallway", "hall"),
        3: ("Hallway", "hall"),
        4: ("Sentry", "sentry"),
        6: ("Hallway", "hall"),
        9: ("Torchlit Corridor", "hall"),
        10: ("Tome of the Undead", "tome"),
        11: ("Corridor", "hall"),
        14: ("Vampire Wizard", "vampire-wizard"),
        17: ("Ancient Coffin", "coffin"),
        19: ("Sacred Obelisk", "obelisk"),
        20: ("Fountain of Blood", "fountain"),
        21: ("Talisman Vault", "vault"),
    }
    for number, (name, kind) in known.items():
        assert (board.space(number).name, board.space(number).kind) == (name, kind)
    house = [s for s in board.spaces if s.number not in known]
    assert [s.number for s in house] == [5, 7, 8, 12, 13, 15, 16, 18]
    assert all(s.kind == "hall" for s in house)
    assert len({s.name for s in house}) == 8 and not {s.name for s in house} & {n for n, _ in known.values()}


def test_board_spaces_5_9_13_16_draw_two_other_halls_one_special_spaces_none():
    board = load_board()
    assert [s.number for s in board.spaces if s.draws == 2] == [5, 9, 13, 16]
    assert all(s.draws == 1 for s in board.spaces if s.kind == "hall" and s.number not in (5, 9, 13, 16))
    assert all(s.draws == 0 for s in board.spaces if s.kind != "hall")


def test_board_sentry_is_5_5_and_40_counters_number_1_to_20_twice():
    board = load_board()
    assert (board.sentry_strength, board.sentry_craft) == (5, 5)
    assert len(board.counters) == 40
    assert Counter(board.counters) == {n: 2 for n in range(1, 21)}


@pytest.mark.parametrize("number", [0, 22])
def test_board_space_outside_1_to_21_is_refused(number):
    with pytest.raises(ValueError, match=f"no Keep space {number}"):
        load_board().space(number)


# --- shipped decks ------------------------------------------------------------------------------------------


def test_deck_48_cards_with_exactly_6_plain_teleport_tiles():
    deck = load_deck()
    assert deck.source == "house" and len(deck.cards) == 48
    tiles = [c for c in deck.cards.values() if c.kind == keep.TILE]
    assert len(tiles) == 6
    assert all(c.encounter == 6 and not c.table and not c.is_enemy for c in tiles)
    assert keep.KEEP_KINDS["teleport-tile"] == 6 and keep.KEEP_KINDS["monster"] == 2
    assert all(cid.startswith("keep/card/") for cid in deck.cards)


def test_deck_house_mix_of_enemies_items_and_table_cards():
    cards = list(load_deck().cards.values())
    kinds = Counter(c.kind for c in cards)
    assert kinds == {
        "teleport-tile": 6,
        "monster": 13,
        "spirit": 5,
        "event": 6,
        "stranger": 4,
        "object": 6,
        "magic-object": 3,
        "follower": 4,
        "place": 1,
    }
    monsters = Counter((c.name, c.strength) for c in cards if c.kind == "monster")
    assert monsters == {
        ("Vampire Warrior", 4): 4,
        ("Vampire Bat", 2): 3,
        ("Ghoul", 3): 3,
        ("Skeleton Guard", 3): 2,
        ("Vampire Lord", 6): 1,
    }
    spirits = Counter((c.name, c.craft) for c in cards if c.kind == "spirit")
    assert spirits == {("Wraith", 4): 2, ("Banshee", 3): 2, ("Shade", 5): 1}
    deck = load_deck()
    assert deck.cards["keep/card/vampire-warrior-4"].strength == 4
    assert deck.cards["keep/card/sword"].strength_bonus == 1
    saves = {c.name: c.armour_save for c in cards if c.armour_save}
    assert saves == {"Armour": 4, "Shield": 5, "Helmet": 6}
    assert all(len(c.table) >= 2 for c in cards if c.kind in ("event", "stranger", "place"))


def test_vault_12_cards_four_each_of_strength_craft_and_luck():
    vault = load_vault()
    assert len(vault) == 12 and all(cid.startswith("keep/vault/") for cid in vault)
    assert Counter(c.test for c in vault.values()) == {"strength": 4, "craft": 4, "luck": 4}
    assert all(1 <= c.value <= 5 and 1 <= c.lives <= 3 for c in vault.values() if c.test == "luck")
    assert all(c.lives == 0 and 1 <= c.value <= 12 for c in vault.values() if c.test != "luck")
    assert (vault["keep/vault/stone-guardian"].test, vault["keep/vault/stone-guardian"].value) == (
        "strength",
        5,
    )


def test_spells_mostly_harm_but_some_help_or_do_nothing():
    # Keep 8.4: spells that would help the victim or do nothing are discarded, so the deck must hold some.
    spells = load_spells()
    assert 12 <= len(spells) <= 16 and all(sid.startswith("keep/spell/") for sid in spells)
    effects = Counter(s.effect for s in spells.values())
    helpful = effects["gain_life"] + effects["gain_gold"]
    assert helpful >= 1 and effects["nothing"] >= 1
    assert len(spells) - helpful - effects["nothing"] > len(spells) // 2
    assert all(s.amount == 0 for s in spells.values() if s.effect == "nothing")
    assert all(1 <= s.amount <= 6 for s in spells.values() if s.effect != "nothing")
    assert (spells["keep/spell/hex"].effect, spells["keep/spell/hex"].amount) == ("lose_life", 1)


# --- shipped tables -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "faces"),
    [
        ("tome", range(2, 13)),
        ("hoard", range(2, 13)),
        ("sentry", range(1, 7)),
        ("coffin", range(1, 7)),
        ("fountain", range(1, 7)),
        ("exit", range(1, 7)),
    ],
)
def test_each_table_covers_exactly_its_faces_once(table, faces):
    lines = getattr(load_tables(), table)
    covered = [face for line in lines for face in line.rolls]
    assert sorted(covered) == list(faces)


def effects_by_total(table: str, totals: range) -> list[tuple[str, int]]:
    tables = load_tables()
    return [(tables.line(table, t).effect, tables.line(table, t).amount) for t in totals]


def test_tome_of_the_undead_table_follows_keep_8_3():
    assert effects_by_total("tome", range(2, 13)) == [
        ("lose_life", 2),
        ("lose_strength", 1),
        ("lose_craft", 1),
        ("followers_leave", 2),
        ("heal", 0),
        ("heal", 0),
        ("gain_strength", 1),
        ("gain_strength", 1),
        ("gain_craft", 1),
        ("gain_craft", 1),
        ("gain_choice", 2),
    ]


def test_sentry_coffin_and_fountain_tables_follow_rules_section_3():
    assert effects_by_total("sentry", range(1, 7)) == [
        ("slip_past", 0),
        ("combat_rounds", 2),
        ("combat_rounds", 2),
        ("psychic_rounds", 2),
        ("psychic_rounds", 2),
        ("give_up", 1),
    ]
    assert [e for e, _ in effects_by_total("coffin", range(1, 7))] == [
        "lose_life",
        "lose_life",
        "nothing",
        "nothing",
        "take_object",
        "gain_gold",
    ]
    assert load_tables().line("coffin", 6).amount == 3
    assert effects_by_total("fountain", range(1, 7)) == [
        ("lose_life", 1),
        ("lose_life", 1),
        ("nothing", 0),
        ("nothing", 0),
        ("nothing", 0),
        ("gain_life", 1),
    ]


def test_exit_table_sends_survivors_to_the_six_house_destinations():
    tables = load_tables()
    assert [
        (tables.line("exit", face).effect, tables.line("exit", face).destination) for face in range(1, 7)
    ] == [
        ("go_to", "the space you entered from"),
        ("go_to", "Village"),
        ("go_to", "City"),
        ("go_to", "Warlock's Cave"),
        ("go_to", "Portal of Power"),
        ("go_to", "Plain of Peril"),
    ]


def test_treasure_hoard_rows_follow_keep_15():
    tables = load_tables()
    sword, shield, armour, helmet = (f"keep/item/{name}" for name in ("sword", "shield", "armour", "helmet"))
    expected = {
        2: (10, 0, set()),
        3: (9, 0, set()),
        4: (8, 0, set()),
        5: (7, 1, set()),
        6: (6, 2, set()),
        7: (6, 2, set()),
        8: (6, 0, {armour, sword}),
        9: (6, 0, {armour, sword}),
        10: (7, 0, {sword}),
        11: (0, 0, {sword, shield, armour}),
        12: (0, 0, {sword, shield, helmet, armour}),
    }
    for total, (gold, spells, items) in expected.items():
        line = tables.line("hoard", total)
        assert (line.effect, line.gold, line.spells, set(line.items)) == ("treasure", gold, spells, items)
        assert len(line.items) == len(items)


def test_hoard_items_are_objects_with_the_rules_bonuses_and_saves():
    items = load_tables().items
    assert set(items) == {"keep/item/sword", "keep/item/shield", "keep/item/armour", "keep/item/helmet"}
    assert all(c.kind == "object" and c.encounter == 4 for c in items.values())
    assert items["keep/item/sword"].strength_bonus == 1
    assert [items[f"keep/item/{n}"].armour_save for n in ("armour", "shield", "helmet")] == [4, 5, 6]


def test_table_line_refuses_an_unknown_table_or_total():
    tables = load_tables()
    with pytest.raises(ValueError, match="unknown Keep table 'items'"):
        tables.line("items", 1)
    with pytest.raises(ValueError, match="no line of the tome table covers 1"):
        tables.line("tome", 1)


def test_every_keep_file_is_house_content_in_its_own_words():
    paths = keep.content_paths()
    assert [p.name for p in paths] == ["board.toml", "deck.toml", "vault.toml", "spells.toml", "tables.toml"]
    for path in paths:
        text = path.read_text()
        assert text.startswith("# nightkeep") and 'source = "house"' in text
    assert load_tables().source == "house"


# --- content errors: one line naming file and key -----------------------------------------------------------

EXTRA_SPACE = '\n[[spaces]]\nnumber = 22\nid = "keep/space/attic"\nname = "Attic"\nkind = "hall"\ndraws = 1\n'
HOARD_12 = '"keep/item/sword", "keep/item/shield", "keep/item/helmet", "keep/item/armour"]'

MALFORMED = [
    pytest.param(
        "board.toml",
        append(EXTRA_SPACE),
        load_board,
        "board.toml: spaces: expected 21 spaces, got 22",
        id="22-spaces",
    ),
    pytest.param(
        "board.toml",
        replace(
            'name = "Bone Gallery"\nkind = "hall"\ndraws = 2',
            'name = "Bone Gallery"\nkind = "hall"\ndraws = 3',
        ),
        load_board,
        "board.toml: spaces[4].draws: a hall draws 1 or 2 cards, got 3",
        id="hall-draws-3",
    ),
    pytest.param(
        "board.toml",
        replace('name = "Sentry"\nkind = "sentry"\ndraws = 0', 'name = "Sentry"\nkind = "hall"\ndraws = 1'),
        load_board,
        "board.toml: spaces[3].kind: expected 'sentry' for space 4, got 'hall'",
        id="sentry-moved",
    ),
    pytest.param(
        "board.toml",
        replace('kind = "sentry"\ndraws = 0', 'kind = "sentry"\ndraws = 1'),
        load_board,
        "board.toml: spaces[3].draws: a sentry space draws no cards, got 1",
        id="sentry-draws",
    ),
    pytest.param(
        "board.toml",
        replace("number = 8\n", "number = 9\n"),
        load_board,
        "board.toml: spaces[7].number: expected 8 (numbers must run 1, 2, 3, … in order), got 9",
        id="number-gap",
    ),
    pytest.param(
        "board.toml",
        replace("19, 19, 20, 20,", "19, 19, 20, 22,"),
        load_board,
        "board.toml: counters[39]: expected `int` <= 21",
        id="counter-22",
    ),
    pytest.param(
        "board.toml",
        replace("19, 19, 20, 20,", "19, 19, 20,"),
        load_board,
        "board.toml: counters: expected 40 Teleport counters, got 39",
        id="39-counters",
    ),
    pytest.param(
        "deck.toml",
        replace(
            'name = "Lantern"\nkind = "object"\nencounter = 4',
            'name = "Lantern"\nkind = "teleport-tile"\nencounter = 6',
        ),
        load_deck,
        "deck.toml: cards: expected 6 teleport-tile cards, got 7",
        id="7th-tile",
    ),
    pytest.param(
        "deck.toml",
        replace(
            'kind = "teleport-tile"\nencounter = 6', 'kind = "teleport-tile"\nencounter = 6\ncraft_bonus = 1'
        ),
        load_deck,
        "deck.toml: cards[0].craft_bonus: a teleport-tile has no stats or table",
        id="tile-with-stats",
    ),
    pytest.param(
        "deck.toml",
        replace('kind = "teleport-tile"\nencounter = 6', 'kind = "teleport-tile"\nencounter = 2'),
        load_deck,
        "deck.toml: cards[0].encounter: a teleport-tile has encounter number 6, got 2",
        id="tile-encounter",
    ),
    pytest.param(
        "deck.toml",
        lambda t: t[: t.rindex("[[cards]]")],
        load_deck,
        "deck.toml: cards: expected 48 cards, got 47",
        id="47-cards",
    ),
    pytest.param(
        "vault.toml",
        lambda t: t[: t.rindex("[[cards]]")],
        load_vault,
        "vault.toml: cards: expected 12 cards, got 11",
        id="11-vault-cards",
    ),
    pytest.param(
        "vault.toml",
        replace('test = "luck"\nvalue = 2', 'test = "luck"\nvalue = 6'),
        load_vault,
        "vault.toml: cards[8].value: expected at most 5, got 6",
        id="luck-value-6",
    ),
    pytest.param(
        "vault.toml",
        replace('test = "strength"\nvalue = 5', 'test = "strength"\nvalue = 5\nlives = 1'),
        load_vault,
        "vault.toml: cards[0].lives: only a luck test costs a set number of lives, not a strength test",
        id="lives-on-strength",
    ),
    pytest.param(
        "vault.toml",
        replace('test = "luck"\nvalue = 2\nlives = 1', 'test = "luck"\nvalue = 2'),
        load_vault,
        "vault.toml: cards[8].lives: a luck test costs 1-3 lives, got 0",
        id="luck-without-lives",
    ),
    pytest.param(
        "deck.toml",
        replace(
            'kind = "teleport-tile"\nencounter = 6',
            'kind = "teleport-tile"\nencounter = 6\nleaves_dungeon = true',
        ),
        load_deck,
        "deck.toml: cards[0].leaves_dungeon: unknown field",
        id="dungeon-flag-in-the-keep",
    ),
    pytest.param(
        "vault.toml",
        replace('name = "Stone Guardian"\ntest = "strength"', 'name = "Stone Guardian"\ntest = "charm"'),
        load_vault,
        "vault.toml: cards[0].test: invalid enum value 'charm' (known: craft, luck, strength)",
        id="unknown-test",
    ),
    pytest.param(
        "spells.toml",
        replace('effect = "lose_life"', 'effect = "explode"'),
        load_spells,
        "spells.toml: spells[0].effect: invalid enum value 'explode' (known: "
        + ", ".join(sorted(keep.SPELL_EFFECTS))
        + ")",
        id="spell-unknown-effect",
    ),
    pytest.param(
        "spells.toml",
        replace('effect = "nothing"\namount = 0', 'effect = "nothing"\namount = 2'),
        load_spells,
        "spells.toml: spells[13].amount: expected 0 for nothing, got 2",
        id="nothing-with-amount",
    ),
    pytest.param(
        "tables.toml",
        replace('rolls = [3, 4, 5], effect = "nothing"', 'rolls = [3, 4], effect = "nothing"'),
        load_tables,
        "tables.toml: fountain: faces [5] are not covered",
        id="fountain-missing-face",
    ),
    pytest.param(
        "tables.toml",
        replace('rolls = [6, 7], effect = "heal"', 'rolls = [6], effect = "heal"'),
        load_tables,
        "tables.toml: tome: faces [7] are not covered",
        id="tome-missing-total",
    ),
    pytest.param(
        "tables.toml",
        replace('rolls = [2, 3], effect = "combat_rounds"', 'rolls = [1, 3], effect = "combat_rounds"'),
        load_tables,
        "tables.toml: sentry[1].rolls: total 1 is already covered",
        id="sentry-overlap",
    ),
    pytest.param(
        "tables.toml",
        replace('rolls = [12], effect = "gain_choice"', 'rolls = [13], effect = "gain_choice"'),
        load_tables,
        "tables.toml: tome[7].rolls[0]: expected `int` <= 12",
        id="tome-total-13",
    ),
    pytest.param(
        "tables.toml",
        replace('effect = "take_object"', 'effect = "explode"'),
        load_tables,
        "tables.toml: coffin[2].effect: invalid enum value 'explode' "
        "(known: gain_gold, lose_life, nothing, take_object)",
        id="coffin-unknown-effect",
    ),
    pytest.param(
        "tables.toml",
        replace('effect = "slip_past"', 'effect = "gain_gold"'),
        load_tables,
        "tables.toml: sentry[0].effect: invalid enum value 'gain_gold' "
        "(known: combat_rounds, give_up, psychic_rounds, slip_past)",
        id="effect-of-another-table",
    ),
    pytest.param(
        "tables.toml",
        replace(HOARD_12, HOARD_12.replace("keep/item/helmet", "keep/card/lantern")),
        load_tables,
        "tables.toml: hoard[8].items[2]: unknown item 'keep/card/lantern' "
        "(known: keep/item/sword, keep/item/shield, keep/item/armour, keep/item/helmet)",
        id="hoard-item-not-an-item",
    ),
    pytest.param(
        "tables.toml",
        replace('effect = "go_to", destination = "City"', 'effect = "go_to", amount = 3'),
        load_tables,
        "tables.toml: exit[2].amount: unknown field",
        id="exit-amount-instead-of-destination",
    ),
    pytest.param(
        "tables.toml",
        replace('effect = "go_to", destination = "City", ', 'effect = "go_to", '),
        load_tables,
        "tables.toml: exit[2].destination: missing",
        id="exit-without-destination",
    ),
    pytest.param(
        "tables.toml",
        replace(
            'kind = "object"\nencounter = 4\narmour_save = 6',
            'kind = "follower"\nencounter = 5\narmour_save = 6',
        ),
        load_tables,
        "tables.toml: items[3].kind: expected one of object, got 'follower'",
        id="item-not-an-object",
    ),
]


@pytest.mark.parametrize(("filename", "edit", "load", "message"), MALFORMED)
def test_malformed_keep_content_gives_one_line_naming_file_and_key(override, filename, edit, load, message):
    override(filename, edit)
    with pytest.raises(ContentError) as err:
        load()
    assert str(err.value) == message
    assert "\n" not in str(err.value)


def test_override_replaces_the_shipped_board(override, tmp_path):
    override("board.toml", replace('name = "Bone Gallery"', 'name = "Ossuary"'))
    assert load_board().space(5).name == "Ossuary"
    assert keep.content_paths()[0] == (tmp_path / "keep" / "board.toml").resolve()
