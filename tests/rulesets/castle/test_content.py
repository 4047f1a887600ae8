"""Vampire Empire's house content (house rules H4): shipped files load, and errors name file and key."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from domain.errors import ContentError
from domain.rulesets.castle import content as castle
from domain.rulesets.castle.content import (
    CastleCard,
    CastleDeck,
    load_characters,
    load_human_deck,
    load_vampire_deck,
)

Edit = Callable[[str], str]


@pytest.fixture
def override(content_override: Callable[[str, str, Edit], None]) -> Callable[[str, Edit], None]:
    """Copies a shipped castle file into its own NIGHTKEEP_CONTENT_DIR with an edit applied (see conftest)."""
    return lambda filename, edit: content_override("castle", filename, edit)


def replace(old: str, new: str) -> Edit:
    def edit(text: str) -> str:
        assert old in text, f"{old!r} is not in the shipped file"
        line_start = text.rfind("\n", 0, text.index(old)) + 1
        assert not text[line_start:].startswith("#"), f"{old!r} first appears in a comment"
        return text.replace(old, new, 1)

    return edit


def append(extra: str) -> Edit:
    return lambda text: text + extra


def by_kind(deck: CastleDeck, kind: str) -> list[CastleCard]:
    return [card for card in deck.cards.values() if card.kind == kind]


# --- shipped characters -------------------------------------------------------------------------------------


def test_nine_characters_three_of_each_profession_with_the_rules_names():
    characters = load_characters()
    assert len(characters) == 9 and all(cid.startswith("castle/character/") for cid in characters)
    names: dict[str, set[str]] = {}
    for character in characters.values():
        names.setdefault(character.profession, set()).add(character.name)
    assert names == {
        "noble": {"Lady", "Lord", "Officer"},
        "clergy": {"Monk", "Nun", "Bishop"},
        "servant": {"Maid", "Cook", "Butler"},
    }


def test_every_character_has_a_starting_defence_of_1_to_3():
    characters = load_characters()
    assert all(1 <= c.defence <= 3 for c in characters.values())
    lady = characters["castle/character/lady"]
    assert (lady.name, lady.profession, lady.defence) == ("Lady", "noble", 2)


# --- shipped decks ------------------------------------------------------------------------------------------


def test_human_deck_is_40_cards_with_exactly_8_holy_water_and_no_vampire_cards():
    deck = load_human_deck()
    assert (deck.side, deck.source, len(deck.cards)) == ("human", "house", 40)
    assert all(cid.startswith("castle/human/") for cid in deck.cards)
    assert Counter(c.kind for c in deck.cards.values()) == {"combat": 24, "holy-water": 8, "support": 8}


def test_vampire_deck_is_40_cards_with_exactly_12_red_cards_and_no_holy_water():
    deck = load_vampire_deck()
    assert (deck.side, deck.source, len(deck.cards)) == ("vampire", "house", 40)
    assert all(cid.startswith("castle/vampire/") for cid in deck.cards)
    assert Counter(c.kind for c in deck.cards.values()) == {"combat": 21, "vampire": 12, "support": 7}


@pytest.mark.parametrize(
    ("load", "kinds"),
    [(load_human_deck, ("combat", "holy-water")), (load_vampire_deck, ("combat", "vampire"))],
    ids=["human", "vampire"],
)
def test_each_deck_has_some_two_coloured_cards_of_every_kind_that_may_have_them(load, kinds):
    deck = load()
    combat_pairs = {frozenset(c.professions) for c in by_kind(deck, "combat") if len(c.professions) == 2}
    assert combat_pairs == {
        frozenset({"noble", "clergy"}),
        frozenset({"clergy", "servant"}),
        frozenset({"servant", "noble"}),
    }
    own = by_kind(deck, kinds[1])
    assert {c.professions for c in own if c.professions} == {("noble",), ("clergy",), ("servant",)}
    assert any(not c.professions for c in own), f"every {kinds[1]} card is two-coloured"


@pytest.mark.parametrize("load", [load_human_deck, load_vampire_deck], ids=["human", "vampire"])
def test_each_profession_has_plain_combat_cards_of_every_value_1_to_3(load):
    deck = load()
    for profession in castle.PROFESSIONS:
        values = {c.value for c in by_kind(deck, "combat") if c.professions == (profession,)}
        assert values == {1, 2, 3}, profession


@pytest.mark.parametrize("load", [load_human_deck, load_vampire_deck], ids=["human", "vampire"])
def test_values_are_1_to_3_and_only_support_cards_have_an_effect(load):
    for card in load().cards.values():
        if card.kind == "support":
            assert (card.value, card.professions) == (0, ())
            assert card.effect in castle.EFFECTS
        else:
            assert 1 <= card.value <= 3 and card.effect == ""


@pytest.mark.parametrize("load", [load_human_deck, load_vampire_deck], ids=["human", "vampire"])
def test_support_cards_cover_every_effect(load):
    effects = {c.effect for c in by_kind(load(), "support")}
    assert effects == {
        "draw-2",
        "take-from-deck",
        "take-from-cellar",
        "take-from-moat",
        "attack-marker",
        "defence-marker",
    }


def test_no_card_id_is_shared_between_the_decks_or_with_a_character():
    ids = [*load_human_deck().cards, *load_vampire_deck().cards, *load_characters()]
    assert len(ids) == len(set(ids)) == 89


# --- which characters a card supports -----------------------------------------------------------------------

HUMAN = "castle/human/"
VAMPIRE = "castle/vampire/"


@pytest.mark.parametrize(
    ("card_id", "supported"),
    [
        (HUMAN + "noble-1-a", {"noble"}),
        (HUMAN + "clergy-3-b", {"clergy"}),
        (HUMAN + "noble-clergy-2", {"noble", "clergy"}),
        (HUMAN + "servant-noble-1", {"servant", "noble"}),
        (HUMAN + "holy-water-2-a", set()),
        (HUMAN + "holy-water-clergy-2", {"clergy"}),
        (HUMAN + "draw-2-a", set()),
        (VAMPIRE + "servant-2-a", {"servant"}),
        (VAMPIRE + "clergy-servant-2", {"clergy", "servant"}),
        (VAMPIRE + "vampire-3-a", set()),
        (VAMPIRE + "vampire-servant-3", {"servant"}),
        (VAMPIRE + "defence-marker", set()),
    ],
)
def test_a_card_supports_its_professions_and_both_colours_of_a_two_coloured_card(card_id, supported):
    cards = {**load_human_deck().cards, **load_vampire_deck().cards}
    card = cards[card_id]
    assert {p for p in castle.PROFESSIONS if card.supports(p)} == supported
    assert not card.supports("vampire") and not card.supports("")


def test_seed_combat_example_can_be_played_from_the_house_decks():
    # Seed 003 combat example: the Bishop attacks with clergy cards 2 and 1 (attack 3); the Lady, a
    # revealed vampire, is defended with a noble card 2 and a red vampire card 2 (defence 4).
    human = load_human_deck().cards.values()
    vampire = load_vampire_deck().cards.values()
    clergy = sorted(c.value for c in human if c.kind == "combat" and c.supports("clergy"))
    noble = sorted(c.value for c in vampire if c.kind == "combat" and c.supports("noble"))
    red = sorted(c.value for c in vampire if c.kind == "vampire")
    assert {1, 2} <= set(clergy) and 2 in noble and 2 in red


def test_every_castle_file_is_house_content_in_its_own_words():
    paths = castle.content_paths()
    assert [p.name for p in paths] == ["characters.toml", "human_deck.toml", "vampire_deck.toml"]
    for path in paths:
        text = path.read_text()
        assert text.startswith("# nightkeep") and 'source = "house"' in text


# --- content errors: one line naming file and key -----------------------------------------------------------

EXTRA_CARD = (
    '\n[[cards]]\nid = "castle/human/noble-1-c"\nname = "Signet Ring"\nkind = "combat"\n'
    'professions = ["noble"]\nvalue = 1\ntext = "One ring too many."\n'
)
EXTRA_CHARACTER = (
    '\n[[characters]]\nid = "castle/character/gardener"\nname = "Gardener"\nprofession = "servant"\n'
    "defence = 1\n"
)
EFFECT_LIST = ", ".join(sorted(castle.EFFECTS))

MALFORMED = [
    pytest.param(
        "human_deck.toml",
        append(EXTRA_CARD),
        load_human_deck,
        "human_deck.toml: cards: expected 40 cards, got 41",
        id="41st-card",
    ),
    pytest.param(
        "vampire_deck.toml",
        lambda t: t[: t.rindex("[[cards]]")],
        load_vampire_deck,
        "vampire_deck.toml: cards: expected 40 cards, got 39",
        id="39-cards",
    ),
    pytest.param(
        "human_deck.toml",
        replace('kind = "combat"\nprofessions = ["noble"]\nvalue = 1', 'kind = "holy-water"\nvalue = 1'),
        load_human_deck,
        "human_deck.toml: cards: expected 8 holy-water cards, got 9",
        id="9th-holy-water",
    ),
    pytest.param(
        "vampire_deck.toml",
        replace('kind = "combat"\nprofessions = ["noble"]\nvalue = 1', 'kind = "vampire"\nvalue = 1'),
        load_vampire_deck,
        "vampire_deck.toml: cards: expected 12 vampire cards, got 13",
        id="13th-vampire-card",
    ),
    pytest.param(
        "human_deck.toml",
        replace('name = "Rapier"\nkind = "combat"', 'name = "Rapier"\nkind = "vampire"'),
        load_human_deck,
        "human_deck.toml: cards[2].kind: a human deck holds no vampire cards "
        "(allowed: combat, holy-water, support)",
        id="vampire-card-in-human-deck",
    ),
    pytest.param(
        "vampire_deck.toml",
        replace('name = "Claws"\nkind = "vampire"', 'name = "Claws"\nkind = "holy-water"'),
        load_vampire_deck,
        "vampire_deck.toml: cards[21].kind: a vampire deck holds no holy-water cards "
        "(allowed: combat, vampire, support)",
        id="holy-water-in-vampire-deck",
    ),
    pytest.param(
        "human_deck.toml",
        replace('kind = "combat"\nprofessions = ["noble"]', 'kind = "curse"\nprofessions = ["noble"]'),
        load_human_deck,
        "human_deck.toml: cards[0].kind: invalid enum value 'curse' "
        "(known: combat, holy-water, support, vampire)",
        id="unknown-kind",
    ),
    pytest.param(
        "human_deck.toml",
        replace('professions = ["clergy", "servant"]', 'professions = ["clergy", "knight"]'),
        load_human_deck,
        "human_deck.toml: cards[20].professions[1]: invalid enum value 'knight' "
        "(known: clergy, noble, servant)",
        id="unknown-profession-on-card",
    ),
    pytest.param(
        "characters.toml",
        replace('profession = "noble"', 'profession = "knight"'),
        load_characters,
        "characters.toml: characters[0].profession: invalid enum value 'knight' "
        "(known: clergy, noble, servant)",
        id="unknown-profession-of-character",
    ),
    pytest.param(
        "human_deck.toml",
        replace('professions = ["noble", "clergy"]', 'professions = ["noble", "clergy", "servant"]'),
        load_human_deck,
        "human_deck.toml: cards[18].professions: expected 1-2 professions for a combat card, got 3",
        id="combat-card-with-3-professions",
    ),
    pytest.param(
        "human_deck.toml",
        replace('professions = ["noble", "clergy"]', 'professions = ["noble", "noble"]'),
        load_human_deck,
        "human_deck.toml: cards[18].professions[1]: 'noble' is listed twice",
        id="profession-twice",
    ),
    pytest.param(
        "human_deck.toml",
        replace('kind = "combat"\nprofessions = ["noble"]\n', 'kind = "combat"\n'),
        load_human_deck,
        "human_deck.toml: cards[0].professions: expected 1-2 professions for a combat card, got 0",
        id="combat-card-without-profession",
    ),
    pytest.param(
        "vampire_deck.toml",
        replace(
            'professions = ["noble"]\nvalue = 2\ntext = "A sweep',
            'professions = ["noble", "clergy"]\nvalue = 2\ntext = "A sweep',
        ),
        load_vampire_deck,
        "vampire_deck.toml: cards[30].professions: expected 0-1 professions for a vampire card, got 2",
        id="red-card-with-2-professions",
    ),
    pytest.param(
        "human_deck.toml",
        replace(
            'kind = "support"\neffect = "draw-2"',
            'kind = "support"\nprofessions = ["noble"]\neffect = "draw-2"',
        ),
        load_human_deck,
        "human_deck.toml: cards[32].professions: expected 0 professions for a support card, got 1",
        id="support-card-with-profession",
    ),
    pytest.param(
        "vampire_deck.toml",
        replace(
            'name = "Blood Frenzy"\nkind = "vampire"\nprofessions = []\nvalue = 3',
            'name = "Blood Frenzy"\nkind = "vampire"\nprofessions = []\nvalue = 4',
        ),
        load_vampire_deck,
        "vampire_deck.toml: cards[27].value: expected `int` <= 3",
        id="value-4",
    ),
    pytest.param(
        "human_deck.toml",
        replace('professions = ["noble"]\nvalue = 1', 'professions = ["noble"]\nvalue = 0'),
        load_human_deck,
        "human_deck.toml: cards[0].value: expected `int` >= 1",
        id="value-0",
    ),
    pytest.param(
        "human_deck.toml",
        replace('kind = "support"\neffect = "draw-2"', 'kind = "support"\nvalue = 2\neffect = "draw-2"'),
        load_human_deck,
        "human_deck.toml: cards[32].value: a support card has no value",
        id="support-card-with-value",
    ),
    pytest.param(
        "human_deck.toml",
        replace('kind = "support"\neffect = "draw-2"', 'kind = "support"'),
        load_human_deck,
        "human_deck.toml: cards[32].effect: missing",
        id="support-card-without-effect",
    ),
    pytest.param(
        "human_deck.toml",
        replace('professions = ["noble"]\nvalue = 1\n', 'professions = ["noble"]\n'),
        load_human_deck,
        "human_deck.toml: cards[0].value: missing",
        id="combat-card-without-value",
    ),
    pytest.param(
        "human_deck.toml",
        replace('effect = "take-from-moat"', 'effect = "heal"'),
        load_human_deck,
        f"human_deck.toml: cards[36].effect: invalid enum value 'heal' (known: {EFFECT_LIST})",
        id="unknown-support-effect",
    ),
    pytest.param(
        "vampire_deck.toml",
        replace(
            'name = "Claws"\nkind = "vampire"\nprofessions = []\nvalue = 1',
            'name = "Claws"\nkind = "vampire"\nprofessions = []\nvalue = 1\neffect = "draw-2"',
        ),
        load_vampire_deck,
        "vampire_deck.toml: cards[21].effect: only a support card has an effect, not a vampire card",
        id="red-card-with-effect",
    ),
    pytest.param(
        "human_deck.toml",
        replace('id = "castle/human/noble-1-b"', 'id = "castle/human/noble-1-a"'),
        load_human_deck,
        "human_deck.toml: cards[1].id: duplicate id 'castle/human/noble-1-a'",
        id="duplicate-id",
    ),
    pytest.param(
        "vampire_deck.toml",
        replace('id = "castle/vampire/noble-1-a"', 'id = "castle/human/noble-1-a"'),
        load_vampire_deck,
        "vampire_deck.toml: cards[0].id: expected an id starting with 'castle/vampire/', "
        "got 'castle/human/noble-1-a'",
        id="id-of-the-other-deck",
    ),
    pytest.param(
        "human_deck.toml",
        replace('value = 1\ntext = "A flash', 'value = 1\nflavour = "shiny"\ntext = "A flash'),
        load_human_deck,
        "human_deck.toml: cards[0].flavour: unknown field",
        id="unknown-card-key",
    ),
    pytest.param(
        "characters.toml",
        append(EXTRA_CHARACTER),
        load_characters,
        "characters.toml: characters: expected 9 characters, got 10",
        id="10th-character",
    ),
    pytest.param(
        "characters.toml",
        replace('name = "Maid"\nprofession = "servant"', 'name = "Maid"\nprofession = "clergy"'),
        load_characters,
        "characters.toml: characters: expected 3 clergy characters, got 4",
        id="4-clergy",
    ),
    pytest.param(
        "characters.toml",
        replace(
            'name = "Lord"\nprofession = "noble"\ndefence = 3',
            'name = "Lord"\nprofession = "noble"\ndefence = 4',
        ),
        load_characters,
        "characters.toml: characters[1].defence: expected `int` <= 3",
        id="defence-4",
    ),
    pytest.param(
        "characters.toml",
        replace('id = "castle/character/nun"', 'id = "castle/character/monk"'),
        load_characters,
        "characters.toml: characters[4].id: duplicate id 'castle/character/monk'",
        id="duplicate-character-id",
    ),
]


@pytest.mark.parametrize(("filename", "edit", "load", "message"), MALFORMED)
def test_malformed_castle_content_gives_one_line_naming_file_and_key(override, filename, edit, load, message):
    override(filename, edit)
    with pytest.raises(ContentError) as err:
        load()
    assert str(err.value) == message
    assert "\n" not in str(err.value)


def test_override_replaces_the_shipped_characters(override, tmp_path):
    override("characters.toml", replace('name = "Officer"', 'name = "Captain"'))
    assert load_characters()["castle/character/officer"].name == "Captain"
    assert castle.content_paths()[0] == (tmp_path / "castle" / "characters.toml").resolve()
