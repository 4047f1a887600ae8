"""The house cards the seeds name that the main board's decks lacked (spells.toml, adventure.toml): each
is in its deck in nightkeep's own words, and the mounts carry the mark the expansions read."""

from __future__ import annotations

from domain.rulesets.talisman.main.places_elsewhere import horses
from tests.main_helpers import ANN, new_game, put

HORSE, WARHORSE, CART = "talisman/card/horse", "talisman/card/warhorse", "talisman/card/horse-and-cart"


def test_the_spells_the_dungeon_names_are_in_the_spell_deck():
    # Dungeon 10.1-10.3: Destruction, Displacement, Metamorph, Divination, Hex, Barrier and Misdirection.
    game, _ = new_game()
    spells = {s.name: s for s in game.ctx.spells.spells}
    for name in ("Destruction", "Displacement", "Metamorph", "Divination", "Hex", "Barrier", "Misdirection"):
        assert spells[name].source == "house", name
    assert spells["Misdirection"].target == "other"


def test_the_events_the_seeds_name_are_in_the_adventure_deck():
    # Dungeon 4.2 (the Earthquake), Keep 12 (Divine Intervention): house Events of the Adventure deck.
    game, state = new_game()
    quake, divine = (
        game.ctx.cards["talisman/card/earthquake"],
        game.ctx.cards["talisman/card/divine-intervention"],
    )
    assert (quake.type, quake.effect, quake.scope) == ("event", "destroy-cards", "region")
    assert (divine.type, divine.effect, divine.scope) == ("event", "heal", "all-boards")
    assert {quake.id, divine.id} <= set(state["piles"]["adventure"])


def test_every_mount_is_marked_a_horse_and_stays_outside_the_dungeon_and_the_keep():
    # Dungeon 5.3, Keep 5.5: the Horse, the Warhorse and the Horse and Cart (`family = "horse"`); not a Mule.
    game, state = new_game()
    marked = sorted(c.id for c in game.ctx.adventure.cards if c.family == "horse")
    assert marked == sorted([HORSE, WARHORSE, CART])
    put(
        state,
        ANN,
        "outer",
        3,
        objects=[CART, "talisman/purchase/mule"],
        followers=[WARHORSE, "talisman/card/wolf"],
    )
    assert horses(game.ctx, state["players"][ANN]) == [CART, WARHORSE]
