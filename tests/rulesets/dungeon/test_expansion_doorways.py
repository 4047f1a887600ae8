"""The Doorways and the way down into the Dungeon in a main-board game (Dungeon 3, 4, 5): each rule with
scripted dice and picks, on the `talisman` ruleset with `dungeon=true`."""

from __future__ import annotations

from domain.events import CardDrawn
from domain.rulesets.dungeon.content import load_deck
from domain.rulesets.dungeon.main.content import is_doorway
from domain.rulesets.dungeon.main.events import HorseDiscarded
from domain.rulesets.talisman.events import CardDiscarded, CardEncountered
from domain.rulesets.talisman.main.events import RegionCrossed
from tests.decider_helpers import names, of
from tests.main_helpers import ANN, BO, act, land, lay, new_game, put

DUNGEON = {"dungeon": "true"}
DOORWAYS = [f"talisman/card/doorway-{n}" for n in range(1, 5)]
FIELDS = 1  # the Outer Region's first Fields (draws 1 card)
SWORD = "talisman/card/sword-1"
HORSE = "talisman/card/horse"


def on_doorway(state, space=FIELDS, card=DOORWAYS[0], player=ANN):
    """Lays a Doorway on an Outer space and stands the player there on its turn, before moving, as one
    who landed on it (Dungeon 5.1)."""
    lay(state, "outer", space, card)
    put(state, player, "outer", space, dungeon_landed=True)
    state.update(turn=player, step="start")


def test_the_four_doorways_are_shuffled_into_the_adventure_deck_only_with_the_dungeon():
    """Dungeon 3.1: set-up shuffles the four Doorway cards into the Adventure deck."""
    _, with_dungeon = new_game(DUNGEON)
    _, without = new_game()
    assert [c for c in with_dungeon["piles"]["adventure"] if c in DOORWAYS] == DOORWAYS
    assert not [c for c in without["piles"]["adventure"] if "doorway" in c]


def test_the_dungeon_deck_lies_beside_its_board_with_the_tunnel_in_it():
    """Dungeon 3.3, 8.3: the Dungeon deck is set up whole; only the short game takes the Tunnel out."""
    _, state = new_game(DUNGEON)
    assert sorted(state["piles"]["dungeon"]) == sorted(load_deck().cards)
    assert "dungeon/card/tunnel" in state["piles"]["dungeon"]
    assert len(state["cards"]["dungeon"]) == 25


def test_the_dungeon_board_lies_beside_the_main_board_as_one_path_from_entrance_to_treasure_chamber():
    """Dungeon 3.2, 6.1, 6.3: a board of its own, a spiral path from the Entrance to the Treasure Chamber."""
    game, state = new_game(DUNGEON)
    spaces = game.ctx.spaces["dungeon"]
    assert spaces[0].kind == "entrance" and spaces[-1].kind == "treasure-chamber"
    assert [space.index for space in spaces] == list(range(len(spaces)))
    assert set(state["cards"]) == {"outer", "middle", "inner", "crown", "dungeon"}


def test_a_doorway_drawn_onto_a_space_is_laid_face_up_as_a_place_and_stays():
    """Dungeon 4.1: a Doorway drawn is treated as a Place card and stays face up where it was found."""
    game, state = new_game(DUNGEON)
    events, after = land(game, state, "outer", FIELDS, cards=[DOORWAYS[1]])
    assert of(events, CardDrawn)[0].card == DOORWAYS[1]
    assert of(events, CardEncountered)[0].card == DOORWAYS[1]
    assert not of(events, CardDiscarded)
    assert after["cards"]["outer"][FIELDS] == [DOORWAYS[1]]


def test_a_third_doorway_is_discarded_and_another_card_drawn_in_its_place():
    """Dungeon 4.1: with two Doorways on the board a later one goes to the discards; a new card is drawn."""
    game, state = new_game(DUNGEON)
    lay(state, "outer", 3, DOORWAYS[0])
    lay(state, "middle", 2, DOORWAYS[1])
    events, after = land(game, state, "outer", FIELDS, cards=[DOORWAYS[2], SWORD])
    assert [e.card for e in of(events, CardDrawn)] == [DOORWAYS[2], SWORD]
    assert of(events, CardDiscarded)[0].card == DOORWAYS[2]
    assert DOORWAYS[2] in after["piles"]["discard:adventure"]
    assert DOORWAYS[2] not in after["cards"]["outer"][FIELDS]
    assert SWORD in after["players"][ANN]["objects"]


def test_a_second_doorway_is_still_laid():
    """Dungeon 4.1: the board holds up to two Doorways."""
    game, state = new_game(DUNGEON)
    lay(state, "outer", 3, DOORWAYS[0])
    events, after = land(game, state, "outer", FIELDS, cards=[DOORWAYS[1]])
    assert not of(events, CardDiscarded)
    assert after["cards"]["outer"][FIELDS] == [DOORWAYS[1]]


def test_doorways_are_told_apart_for_the_spells_and_events_that_cannot_remove_them():
    """Dungeon 4.2: Destruction and Earthquake leave Doorways on the board (`is_doorway` tells them)."""
    game, _ = new_game(DUNGEON)
    assert all(is_doorway(game.ctx, card) for card in DOORWAYS)
    assert not is_doorway(game.ctx, SWORD)
    assert not is_doorway(game.ctx, "dungeon/card/tunnel")


def test_landing_on_a_doorway_offers_the_way_down_on_the_next_turn_only():
    """Dungeon 5.1-5.2: the way down is open to a character who landed on a Doorway, on its next turn."""
    game, state = new_game(DUNGEON)
    events, after = land(game, state, "outer", FIELDS, cards=[DOORWAYS[0]])
    assert not of(events, RegionCrossed)  # landing itself does not go down
    after.update(turn=ANN, step="start")
    ids = [a.id for a in game.legal_actions(after, ANN)]
    assert "dungeon:enter" in ids and "roll" in ids  # entering is optional (Dungeon 5.2)
    put(after, ANN, "outer", 5)
    assert "dungeon:enter" not in [a.id for a in game.legal_actions(after, ANN)]


def test_going_down_a_doorway_stops_on_the_entrance_and_ends_the_move():
    """Dungeon 5.2: the character moves onto the Entrance and must stop there; its turn ends."""
    game, state = new_game(DUNGEON)
    on_doorway(state)
    events, after = act(game, state, "dungeon:enter")
    (crossed,) = of(events, RegionCrossed)
    assert (crossed.from_board, crossed.to_board, crossed.to_space) == ("outer", "dungeon", 0)
    assert names(events)[-1] == "TurnEnded" and after["turn"] == BO
    assert after["cards"]["outer"][FIELDS] == [DOORWAYS[0]]  # the Doorway stays


def test_the_turn_after_going_down_the_character_carries_on_into_the_dungeon():
    """Dungeon 5.2, 8.2: on the next turn it rolls on into the Dungeon and may not leave yet."""
    game, state = new_game(DUNGEON)
    on_doorway(state)
    _, after = act(game, state, "dungeon:enter")
    after.update(turn=ANN)
    assert [a.id for a in game.legal_actions(after, ANN)] == ["roll"]


def test_the_horse_is_discarded_on_going_down():
    """Dungeon 5.3: the Horse may not be taken into the Dungeon; it is discarded on entering."""
    game, state = new_game(DUNGEON)
    on_doorway(state)
    state["players"][ANN]["followers"] = [HORSE]
    state["players"][ANN]["objects"] = [SWORD]
    events, after = act(game, state, "dungeon:enter")
    assert [(e.card, e.pile) for e in of(events, HorseDiscarded)] == [(HORSE, "")]
    assert after["players"][ANN]["followers"] == [] and after["players"][ANN]["objects"] == [SWORD]
    assert HORSE in after["piles"]["discard:adventure"]


def test_every_mount_of_the_horse_family_is_left_behind():
    """Dungeon 5.3: the Horse and Cart goes too (any card of the `horse` family); a Mule may go down."""
    game, state = new_game(DUNGEON)
    on_doorway(state)
    state["players"][ANN]["objects"] = ["talisman/card/horse-and-cart", "talisman/purchase/mule"]
    events, after = act(game, state, "dungeon:enter")
    assert [(e.card, e.pile) for e in of(events, HorseDiscarded)] == [("talisman/card/horse-and-cart", "")]
    assert after["players"][ANN]["objects"] == ["talisman/purchase/mule"]


def test_games_without_the_dungeon_offer_no_way_down():
    """Dungeon 3: without `dungeon=true` nothing of the Dungeon is in play."""
    game, state = new_game()
    put(state, ANN, "outer", FIELDS)
    state.update(turn=ANN)
    assert "dungeon:enter" not in [a.id for a in game.legal_actions(state, ANN)]
    assert "dungeon" not in state["cards"]
