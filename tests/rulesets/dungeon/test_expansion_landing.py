"""Only a character who lands on a way in or out may take it (an outside referee's finding): the Doorway
(Dungeon 5.1: you must first land on one) and the Tunnel (8.3: the space where it lies is landed on),
not a character who stood there already when another drew the card."""

from __future__ import annotations

from tests.main_helpers import ANN, BO, act, land, lay, new_game, put
from tests.rulesets.dungeon.test_expansion_exits import TUNNEL, in_dungeon

DUNGEON = {"dungeon": "true"}
DOORWAY = "talisman/card/doorway-1"
FIELDS = 1


def _ids(game, state, player):
    return [a.id for a in game.legal_actions(state, player)]


def _meet_the_space(game, state, cards):
    """Chooses the space over the character standing there (house rule H5.16), drawing `cards` onto it."""
    options = state["choice"]["options"]
    space = next(o for o in options if o in ("space", "dungeon:space"))
    return act(game, state, f"choose:{space}", cards=cards)[1]


def test_dungeon_5_1_a_doorway_drawn_beside_a_character_is_not_its_way_down():
    """Dungeon 5.1: Bo stood on the Fields when Ann landed there and drew a Doorway: only Ann may go down."""
    game, state = new_game(DUNGEON)
    put(state, BO, "outer", FIELDS)
    _, landed = land(game, state, "outer", FIELDS)
    after = _meet_the_space(game, landed, [DOORWAY])
    assert after["cards"]["outer"][FIELDS] == [DOORWAY] and after["turn"] == BO
    assert "dungeon:enter" not in _ids(game, after, BO)
    after.update(turn=ANN, step="start")
    assert "dungeon:enter" in _ids(game, after, ANN)


def test_dungeon_5_1_landing_on_a_doorway_already_laid_opens_the_way_down():
    """Dungeon 5.1: a character who moves onto a space where a Doorway lies may go down on its next turn."""
    game, state = new_game(DUNGEON)
    lay(state, "outer", FIELDS, DOORWAY)
    state["turn"] = BO
    _, after = land(game, state, "outer", FIELDS, player=BO)
    after.update(turn=BO, step="start")
    assert "dungeon:enter" in _ids(game, after, BO)


def test_dungeon_8_3_a_tunnel_drawn_beside_a_character_is_not_its_way_out():
    """Dungeon 8.3: the Tunnel leads out of the Dungeon only for one who landed where it lies."""
    game, state = in_dungeon(10)
    put(state, BO, "dungeon", 13)
    _, landed = act(game, state, "roll", values=[3])
    after = act(game, landed, "dungeon:space", cards=[TUNNEL])[1]
    assert after["cards"]["dungeon"][13] == [TUNNEL] and after["turn"] == BO
    assert not [i for i in _ids(game, after, BO) if i.startswith("dungeon:door:")]
    after.update(turn=ANN, step="start")
    assert [i for i in _ids(game, after, ANN) if i.startswith("dungeon:door:")]
