"""Every pending choice of the main board is labelled with what it does (house rules H5: the choices the
rules give a player are the player's decisions, so the player must be able to read them)."""

from __future__ import annotations

import pytest

from domain.rulesets.talisman.main.choices import option_label
from domain.rulesets.talisman.main.ruleset import TalismanGame

CTX = TalismanGame().ctx


@pytest.mark.parametrize(
    ("kind", "option", "label"),
    [
        ("landing:encounter", "space", "Meet the space"),
        ("landing:encounter", "attack:Bo", "Attack Bo in Combat"),
        ("landing:encounter", "psychic:Bo", "Attack Bo in Psychic Combat"),
        ("landing:encounter", "steal:Bo", "Steal from Bo"),
        ("landing:encounter", "pass", "Pass the space by"),
        ("landing:table", "roll", "Roll on the table"),
        ("landing:table", "pass", "Do not roll"),
        ("landing:evade", "fight", "Fight"),
        ("spoils:Bo:combat", "life", "Take a life from Bo"),
        ("spoils:Bo:combat", "gold", "Take 1 Gold from Bo"),
        ("spoils:Bo:combat", "talisman/purchase/helmet", "Take the Helmet from Bo"),
        ("counter:talisman/spell/curse", "counterspell", "Cast Counterspell on it"),
        ("counter:talisman/spell/curse", "allow", "Let the spell work"),
        ("life-or-follower:1", "life", "Lose a life"),
        ("buy", "talisman/purchase/helmet", "Buy the Helmet"),
        ("buy", "leave", "Leave"),
        ("black-knight", "pay", "Pay the Black Knight's toll"),
        ("alignment", "good", "Become good"),
    ],
)
def test_each_choice_option_says_what_it_does(kind: str, option: str, label: str) -> None:
    assert option_label(CTX, kind, option) == label


def test_a_space_a_character_is_sent_to_is_named_with_its_region() -> None:
    assert (
        option_label(CTX, "rout:Bo", "talisman/space/outer/village")
        == "Drive Bo back to the Village (Outer 0)"
    )
    assert option_label(CTX, "teleport", "talisman/space/outer/village") == "Go to the Village (Outer 0)"


def test_a_winner_is_never_told_it_loses_or_gives_up() -> None:
    for option in ("life", "gold", "talisman/purchase/helmet"):
        label = option_label(CTX, "spoils:Bo:combat", option)
        assert not label.startswith(("Lose", "Give up")), label


def test_a_card_to_discard_is_offered_with_what_it_is_and_does() -> None:
    """house rules H1 (the extra cards drawn: which one goes back): the option names the card and what it
    does, in the card's own data (its type and the words after its text's colon, an enemy's stat)."""
    assert option_label(CTX, "landing:draw:1", "talisman/card/imp") == (
        "Discard the Imp (Follower: +1 Craft in Psychic Combat)"
    )
    for card in CTX.adventure.cards:
        label = option_label(CTX, "landing:draw:1", card.id)
        assert label.startswith(f"Discard the {card.name} ("), label
        if card.type == "monster":
            assert label.endswith(f"(Monster, Strength {card.strength})"), label
        elif card.type == "spirit":
            assert label.endswith(f"(Spirit, Craft {card.craft})"), label
        else:
            does = card.text.partition(": ")[2] or card.text
            assert label.endswith(f": {does.rstrip('.')})"), label
