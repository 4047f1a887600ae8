"""Dungeon setup validation and content loading: errors name the file and the key (house rules H2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.content import ENV_VAR, load_content
from domain.errors import BadSetup, ContentError, UnknownCharacter
from domain.rulesets.dungeon.content import load_board, load_deck
from domain.rulesets.dungeon.short_game import DungeonShort
from domain.rulesets.talisman.characters import load_characters, resolve_character

dungeon = DungeonShort()


def seats(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"name": n, "character": c} for n, c in pairs]


@pytest.fixture
def override(content_override: Callable[[str, str, Callable[[str], str]], None]):
    """Copies a shipped content file into NIGHTKEEP_CONTENT_DIR with an edit applied (see conftest)."""
    return content_override


# --- setup --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 7])
def test_setup_takes_2_to_6_players(count):
    with pytest.raises(BadSetup, match="2-6 players"):
        dungeon.validate_setup(seats(*[(f"P{i}", "") for i in range(count)]), {})


def test_setup_refuses_duplicate_or_empty_names():
    with pytest.raises(BadSetup, match="used twice"):
        dungeon.validate_setup(seats(("Ann", ""), ("ann", "")), {})
    with pytest.raises(BadSetup, match="name"):
        dungeon.validate_setup(seats(("Ann", ""), (" ", "")), {})


def test_setup_refuses_unknown_or_doubled_characters():
    with pytest.raises(UnknownCharacter, match="unknown character 'paladin'"):
        dungeon.validate_setup(seats(("Ann", "paladin"), ("Bo", "")), {})
    with pytest.raises(BadSetup, match="warrior is chosen twice"):
        dungeon.validate_setup(seats(("Ann", "warrior"), ("Bo", "Warrior")), {})


def test_setup_accepts_no_options_yet():
    with pytest.raises(BadSetup, match="no options"):
        dungeon.validate_setup(seats(("Ann", ""), ("Bo", "")), {"speed": 2})
    dungeon.validate_setup(seats(("Ann", ""), ("Bo", "warrior")), {})


def test_characters_14_rulebook_and_house_ones_with_short_names():
    characters = load_characters()
    assert sum(c.source == "rulebook" for c in characters.values()) == 14
    warrior = characters["talisman/character/warrior"]
    assert (warrior.strength, warrior.craft, warrior.alignment) == (4, 3, "neutral")
    assert {"amazon", "centaur", "ninja"} <= {c.short_name for c in characters.values()}
    assert resolve_character("Martial Artist") == "talisman/character/martial-artist"
    assert resolve_character("talisman/character/troll") == "talisman/character/troll"


# --- shipped content ----------------------------------------------------------------------------------------


def test_house_board_25_spaces_guard_room_and_draw_two_spaces():
    board = load_board()
    assert board.source == "house" and len(board.spaces) == 25
    assert board.spaces[0].name == "Entrance" and board.spaces[24].name == "Treasure Chamber"
    assert (board.spaces[6].name, board.spaces[6].guard_strength, board.spaces[6].draws) == (
        "Guard Room",
        4,
        0,
    )
    draws = {s.index: s.draws for s in board.spaces[1:24] if s.index != 6}
    assert {i for i, d in draws.items() if d == 2} == {3, 9, 15, 21}
    assert all(d == 1 for i, d in draws.items() if i not in (3, 9, 15, 21))
    assert len({s.name for s in board.spaces}) == 25


def test_house_deck_36_cards_with_monsters_1_to_6_and_spirits_2_to_5():
    deck = load_deck()
    cards = list(deck.cards.values())
    assert deck.source == "house" and len(cards) == 36
    assert {c.strength for c in cards if c.kind == "monster"} == {1, 2, 3, 4, 5, 6}
    assert {c.craft for c in cards if c.kind == "spirit"} == {2, 3, 4, 5}
    assert deck.cards["dungeon/card/bronze-dragon"].strength == 6
    assert [c.armour_save for c in cards if c.armour_save] == [4, 5, 6]
    assert [c.id for c in cards if c.leaves_board] == ["dungeon/card/tunnel"]


# --- content errors name file and key -----------------------------------------------------------------------


def test_board_non_integer_draws_names_file_and_key(override):
    override(
        "dungeon",
        "board.toml",
        lambda t: t.replace(
            'name = "Guard Room"\nkind = "guard-room"\ndraws = 0',
            'name = "Guard Room"\nkind = "guard-room"\ndraws = "x"',
        ),
    )
    with pytest.raises(ContentError) as err:
        load_board()
    assert str(err.value) == "board.toml: spaces[6].draws: expected `int`, got `str`"


def test_board_indexes_must_be_contiguous(override):
    override("dungeon", "board.toml", lambda t: t.replace("index = 7\n", "index = 8\n"))
    with pytest.raises(ContentError, match=r"^board.toml: spaces\[7\].index: expected 7"):
        load_board()


def test_malformed_toml_names_the_file(override):
    override("dungeon", "deck.toml", lambda t: t.replace('source = "house"', 'source = "house'))
    with pytest.raises(ContentError, match="^deck.toml: malformed TOML"):
        load_deck()


def test_deck_unknown_effect_names_card_and_line(override):
    override("dungeon", "deck.toml", lambda t: t.replace('effect = "lose_turn"', 'effect = "explode"', 1))
    with pytest.raises(
        ContentError,
        match=r"^deck.toml: cards\[\d+\]\.table\[\d\]\.effect: invalid enum value 'explode' \(known: ",
    ):
        load_deck()


def test_deck_must_hold_36_cards(override):
    override("dungeon", "deck.toml", lambda t: t[: t.rindex("[[cards]]")])
    with pytest.raises(ContentError, match="^deck.toml: cards: expected 36 cards, got 35$"):
        load_deck()


def test_deck_ids_must_be_unique(override):
    override(
        "dungeon",
        "deck.toml",
        lambda t: t.replace('id = "dungeon/card/kobold"', 'id = "dungeon/card/goblin"'),
    )
    with pytest.raises(ContentError, match=r"^deck.toml: cards\[2\]\.id: duplicate id 'dungeon/card/goblin'"):
        load_deck()


def test_deck_encounter_number_must_match_kind(override):
    override(
        "dungeon",
        "deck.toml",
        lambda t: t.replace('kind = "monster"\nencounter = 2', 'kind = "monster"\nencounter = 7', 1),
    )
    with pytest.raises(ContentError, match=r"^deck.toml: cards\[0\]\.encounter: expected `int` <= 6$"):
        load_deck()


def test_deck_table_must_cover_every_face(override):
    override("dungeon", "deck.toml", lambda t: t.replace("rolls = [3, 4, 5, 6]", "rolls = [3, 4, 5]"))
    with pytest.raises(ContentError, match=r"table: faces \[6\] are not covered"):
        load_deck()


def test_table_line_amount_and_text_default_by_effect(override):
    # The content format: a line without an amount has 1 (0 for "nothing", "lose_turn"), its text the effect.
    override(
        "dungeon",
        "deck.toml",
        lambda t: t.replace(
            'effect = "nothing", amount = 0, text = "The healer is busy with someone else." }',
            'effect = "nothing" }',
        ).replace(
            '{ rolls = [3, 4, 5], effect = "gain_life", amount = 1, text = "Gain 1 life." }',
            '{ rolls = [3, 4, 5], effect = "gain_life" }',
        ),
    )
    healer = load_deck().cards["dungeon/card/wandering-healer"]
    assert (healer.outcome(1).amount, healer.outcome(1).text) == (0, "nothing")
    assert (healer.outcome(4).amount, healer.outcome(4).text) == (1, "gain_life")
    assert healer.outcome(6).amount == 2


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            'name = "Giant Rat"\n',
            'name = "Giant Rat"\nflavour = "grey"\n',
            "cards[0].flavour: unknown field",
            id="unknown-key",
        ),
        pytest.param('name = "Giant Rat"\n', "", "cards[0].name: missing", id="missing-key"),
        pytest.param(
            "encounter = 2\nstrength = 1\n",
            "encounter = 2\n",
            "cards[0].strength: a monster needs a strength of 1-20, got 0",
            id="monster-without-strength",
        ),
        pytest.param(
            'kind = "spirit"\nencounter = 2\ncraft = 2\n',
            'kind = "spirit"\nencounter = 2\ncraft = 2\nstrength = 3\n',
            "cards[10].strength: only a monster has a strength, got 3",
            id="spirit-with-strength",
        ),
        pytest.param(
            "encounter = 2\nstrength = 1\n",
            'encounter = 2\nstrength = 1\ntable = [{ rolls = [1, 2, 3, 4, 5, 6], effect = "nothing" }]\n',
            "cards[0].table: a monster rolls no table",
            id="monster-with-table",
        ),
        pytest.param(
            'kind = "monster"',
            'kind = "teleport-tile"',
            "cards[0].kind: expected one of event, monster, spirit, stranger, object, magic-object, "
            "follower, place, got 'teleport-tile'",
            id="kind-of-another-board",
        ),
    ],
)
def test_deck_card_errors_name_the_card_and_the_key(override, old, new, message):
    override("dungeon", "deck.toml", lambda t: t.replace(old, new, 1))
    with pytest.raises(ContentError) as err:
        load_deck()
    assert str(err.value) == f"deck.toml: {message}"


def test_characters_bad_strength_names_file_and_key(override):
    override("talisman", "characters.toml", lambda t: t.replace("strength = 3", 'strength = "x"', 1))
    with pytest.raises(
        ContentError, match=r"^characters.toml: characters\[0\]\.strength: expected `int`, got `str`$"
    ):
        load_characters()


def test_setup_reports_broken_content(override):
    override("dungeon", "board.toml", lambda t: t.replace('kind = "entrance"', 'kind = "hall"'))
    with pytest.raises(ContentError, match=r"^board.toml: spaces\[0\]\.kind"):
        dungeon.validate_setup(seats(("Ann", ""), ("Bo", "")), {})


def test_override_is_used_and_changes_the_content_hash(override):
    shipped = dungeon.content_hash()
    override("dungeon", "board.toml", lambda t: t.replace('name = "Crypt"', 'name = "Ossuary"'))
    assert load_board().spaces[3].name == "Ossuary"
    assert load_content("dungeon", "board.toml")["spaces"][3]["name"] == "Ossuary"
    assert dungeon.content_hash() != shipped


def test_missing_override_file_falls_back_to_shipped(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert load_board().spaces[3].name == "Crypt"
