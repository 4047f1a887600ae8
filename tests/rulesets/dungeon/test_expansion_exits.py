"""Leaving the Dungeon for the main board (Dungeon 8, 9.1, 13; house rule H2.14), and the Dungeon's cards once
carried out: each rule with scripted dice and picks, on the `talisman` ruleset with `dungeon=true`."""

from __future__ import annotations

from domain.events import CardDrawn, CombatResolved, DieRolled
from domain.rulesets.dungeon.main.content import load_exits
from domain.rulesets.dungeon.main.events import TreasureChamberRolled
from domain.rulesets.talisman.events import CardDiscarded, ChoiceOffered
from domain.rulesets.talisman.main.events import RegionCrossed
from tests.decider_helpers import names, of
from tests.main_helpers import ANN, BO, act, new_game, put

DUNGEON = {"dungeon": "true"}
DOOR_A, DOOR_B = "talisman/card/doorway-1", "talisman/card/doorway-2"
CHAMBER = 24
VILLAGE, CITY = ("outer", 0), ("outer", 12)
TUNNEL = "dungeon/card/tunnel"


def in_dungeon(space, options=DUNGEON, characters=("warrior", "wizard"), **sheet):
    """Returns a game with Ann on a Dungeon space on her turn (two Doorways lie on the Outer Region)."""
    game, state = new_game(options, characters)
    state["cards"]["outer"][3] = [DOOR_A]
    state["cards"]["outer"][9] = [DOOR_B]
    for card in (DOOR_A, DOOR_B):
        state["piles"]["adventure"].remove(card)
    put(state, ANN, "dungeon", space, **sheet)
    state.update(turn=ANN, step="start")
    return game, state


def crossed(events):
    (found,) = of(events, RegionCrossed)
    return found.to_board, found.to_space


def test_the_turn_after_reaching_the_treasure_chamber_the_table_is_the_only_way_on():
    """Dungeon 8.1: the character ends its move there and leaves by the table on its next turn."""
    game, state = in_dungeon(CHAMBER)
    assert [a.id for a in game.legal_actions(state, ANN)] == ["dungeon:chamber"]


def test_the_treasure_chamber_table_sends_the_character_out_and_that_is_its_move():
    """Dungeon 8.1, house rule H2.8: 1 die on the house table (2: the Village); leaving is the whole move."""
    game, state = in_dungeon(CHAMBER)
    events, after = act(game, state, "dungeon:chamber", values=[2])
    (read,) = of(events, TreasureChamberRolled)
    assert (read.face, read.bonus, read.total) == (2, 0, 2)
    assert crossed(events) == VILLAGE
    assert names(events)[-1] == "TurnEnded" and not of(events, ChoiceOffered)  # the Village is not met


def test_each_character_on_the_crown_adds_one_to_the_treasure_chamber_roll():
    """Dungeon 8.1: +1 per character on the Crown of Command (3 + 1: the Warlock's Cave)."""
    game, state = in_dungeon(CHAMBER)
    put(state, BO, "crown", 0)
    events, _ = act(game, state, "dungeon:chamber", values=[3])
    assert of(events, TreasureChamberRolled)[0].total == 4
    assert crossed(events) == game.ctx.position("talisman/space/middle/warlocks-cave")


def test_a_treasure_chamber_total_over_six_counts_as_six():
    """Dungeon 8.1: scores over 6 count as 6 (6 + 2: the Plain of Peril)."""
    game, state = in_dungeon(CHAMBER, characters=("warrior", "wizard", "elf"))
    put(state, BO, "crown", 0)
    put(state, "Cy", "crown", 0)
    events, _ = act(game, state, "dungeon:chamber", values=[6])
    read = of(events, TreasureChamberRolled)[0]
    assert (read.face, read.bonus, read.total) == (6, 2, 6)
    assert crossed(events) == ("inner", 0)


def test_the_treasure_chamber_table_is_data_covering_every_total():
    """House rule H2.8: the table (1 a Doorway, 2 Village, 3 City, 4 Warlock's Cave, 5 Portal, 6 Plain)."""
    rows = {face: row.to for row in load_exits().chamber for face in row.rolls}
    assert rows[1] == "doorway" and rows[2].endswith("village") and rows[3].endswith("city")
    assert rows[4].endswith("warlocks-cave") and rows[5].endswith("portal-of-power")
    assert rows[6].endswith("plain-of-peril")


def test_a_one_on_the_treasure_chamber_table_leads_to_the_doorway_of_the_players_choice():
    """house rule H2.8: a 1 comes out at a Doorway of the player's choice."""
    game, state = in_dungeon(CHAMBER)
    events, after = act(game, state, "dungeon:chamber", values=[1])
    (offered,) = of(events, ChoiceOffered)
    assert offered.kind == "dungeon-door" and len(offered.options) == 2
    assert after["turn"] == ANN
    labels = [a.label for a in game.legal_actions(after, ANN)]
    assert all(label.startswith("Come out at the Doorway") for label in labels)
    events, after = act(game, after, f"choose:{offered.options[1]}")
    assert crossed(events) == ("outer", 9) and after["turn"] == BO


def test_from_the_entrance_after_a_move_inside_the_character_may_leave_to_any_doorway():
    """Dungeon 8.2: back on the Entrance on a later turn, it may move to any Doorway: its whole move."""
    game, state = in_dungeon(0)
    ids = [a.id for a in game.legal_actions(state, ANN)]
    assert ids == ["roll", "dungeon:door:outer:3", "dungeon:door:outer:9"]
    events, after = act(game, state, "dungeon:door:outer:9")
    assert crossed(events) == ("outer", 9) and names(events)[-1] == "TurnEnded"
    assert after["cards"]["outer"][9] == [DOOR_B]  # the space is not met on coming out (house)


def test_after_coming_out_by_a_doorway_the_character_moves_on_the_main_board_first():
    """Dungeon 8.2: once out, it must move around the main board for at least the next turn."""
    game, state = in_dungeon(0)
    _, after = act(game, state, "dungeon:door:outer:3")
    after.update(turn=ANN, step="start")
    assert "dungeon:enter" not in [a.id for a in game.legal_actions(after, ANN)]
    after["players"][ANN]["dungeon_barred"] = 0  # the turn after that, on a Doorway again
    assert "dungeon:enter" in [a.id for a in game.legal_actions(after, ANN)]


def test_the_barred_turn_passes_with_the_characters_next_turn():
    """Dungeon 8.2: the bar lasts the turn of coming out and the next one."""
    game, state = in_dungeon(0)
    _, after = act(game, state, "dungeon:door:outer:3")
    assert after["players"][ANN]["dungeon_barred"] == 1
    after.update(turn=ANN, step="start")
    _, later = act(game, after, "roll", values=[2])
    later.update(step="rolled")
    _, later = act(game, later, "go:outer:5", cards=["talisman/card/sword-1"])
    assert later["players"][ANN]["dungeon_barred"] == 0


def test_a_character_who_fled_to_the_entrance_must_leave_by_a_doorway():
    """Dungeon 9.1, 8.2: fleeing goes all the way out: on the Entrance its only way is to a Doorway."""
    game, state = in_dungeon(0, fleeing=True)
    assert [a.id for a in game.legal_actions(state, ANN)] == ["dungeon:door:outer:3", "dungeon:door:outer:9"]
    events, after = act(game, state, "dungeon:door:outer:3")
    assert crossed(events) == ("outer", 3) and after["players"][ANN]["fleeing"] is False


def test_landing_where_the_tunnel_lies_lets_the_character_leave_by_it_next_turn():
    """Dungeon 8.3 (house: the Tunnel leads to a Doorway of the player's choice, as from the Entrance)."""
    game, state = in_dungeon(10)
    events, after = act(game, state, "roll", values=[3], cards=[TUNNEL])
    assert after["cards"]["dungeon"][13] == [TUNNEL]  # it stays face up
    after.update(turn=ANN, step="start")
    ids = [a.id for a in game.legal_actions(after, ANN)]
    assert ids == ["roll", "flee", "dungeon:door:outer:3", "dungeon:door:outer:9"]
    events, _ = act(game, after, "dungeon:door:outer:9")
    assert crossed(events) == ("outer", 9)


def test_the_tunnel_is_no_way_out_while_fleeing_or_the_turn_after_a_defeat():
    """Dungeon 9.1, 7.3 (house): a fleeing character goes on to the Entrance; a defeated one moves back."""
    for flags in ({"fleeing": True}, {"defeated": True}):
        game, state = in_dungeon(13, dungeon_landed=True, **flags)
        state["cards"]["dungeon"][13] = [TUNNEL]
        assert not [a for a in game.legal_actions(state, ANN) if a.id.startswith("dungeon:door:")]


def test_talisman_exit_gives_a_talisman_in_the_treasure_chamber_and_leads_to_the_portal():
    """Dungeon 13.1: reaching the Treasure Chamber gives a Talisman; next turn out at the Portal of Power."""
    options = {**DUNGEON, "dungeon.talisman_exit": "true"}
    game, state = in_dungeon(20, options)
    events, after = act(game, state, "roll", values=[4], cards=["talisman/talisman/1"])
    assert [e.deck for e in of(events, CardDrawn)] == ["talismans"]
    assert after["players"][ANN]["talismans"]
    after.update(turn=ANN, step="start")
    events, _ = act(game, after, "dungeon:chamber")
    assert not of(events, DieRolled) and crossed(events) == game.ctx.position(
        "talisman/space/middle/portal-of-power"
    )


def test_talisman_exit_gives_none_to_a_character_already_holding_one():
    """Dungeon 13.1: a character who has a Talisman may not pick one up in the Treasure Chamber."""
    options = {**DUNGEON, "dungeon.talisman_exit": "true"}
    game, state = in_dungeon(20, options, talismans=["talisman/talisman/1"])
    events, _ = act(game, state, "roll", values=[4])
    assert not of(events, CardDrawn)


def test_crown_exit_leads_to_the_crown_once_someone_reached_it():
    """Dungeon 13.2: the table as normal until one player reaches the Crown; then the Chamber leads there."""
    options = {**DUNGEON, "dungeon.crown_exit": "true"}
    game, state = in_dungeon(CHAMBER, options)
    events, _ = act(game, state, "dungeon:chamber", values=[3])
    assert crossed(events) == CITY
    state["crown_reached"] = True
    events, after = act(game, state, "dungeon:chamber")
    assert crossed(events) == ("crown", 0) and not of(events, DieRolled)
    assert after["players"][ANN]["board"] == "crown"


def test_a_dungeon_magic_object_keeps_working_on_the_main_board():
    """Dungeon 7.1: the Dungeon's cards carried out are Objects like any (a Rune Sword's +2 in Combat)."""
    game, state = new_game(DUNGEON)
    put(state, ANN, "outer", 3, objects=["dungeon/card/rune-sword"])
    state.update(turn=ANN, step="rolled", rolled=1)
    state["cards"]["outer"][4] = ["talisman/card/goblin-1"]
    events, _ = act(game, state, "go:outer:4", values=[1, 6])
    assert of(events, CombatResolved)[0].player_total == 4 + 2 + 1
    assert game.ctx.is_magic("dungeon/card/rune-sword")
    assert game.ctx.card_name("dungeon/card/rune-sword") == "Rune Sword"
    assert game.ctx.trophies["dungeon/card/ogre"].trophy_value == 4


def test_a_dungeon_card_discarded_goes_to_the_dungeon_discards():
    """Dungeon 3.3: the Dungeon deck keeps its own discards, so a reshuffle turns each card back home."""
    game, state = in_dungeon(1)
    events, after = act(game, state, "roll", values=[3, 5], cards=["dungeon/card/cave-in"])
    assert of(events, CardDiscarded)[0].card == "dungeon/card/cave-in"
    assert after["piles"]["discard:dungeon"] == ["dungeon/card/cave-in"]
    assert "dungeon/card/cave-in" not in after["piles"]["discard:adventure"]
