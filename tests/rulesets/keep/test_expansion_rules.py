"""More of the Vampire's Keep inside a main-board game (`keep=true`): two tiles on a draw-2 space (6.2), the
Tome, the Coffin, the Obelisk and the Fountain (8.3, 8.5-8.7), a character killed in the Keep (7.1), the
turn outside after a flight (10), a barred Portal (4.1) and the Keep's events in plain words."""

from __future__ import annotations

from domain.events import CardDrawn, CombatResolved, DieRolled, GameWon, LifeGained, LifeLost
from domain.rulesets.keep.events import ObeliskTested, SpellCast, TeleportCounterDrawn, Teleported
from domain.rulesets.talisman.events import (
    CardDiscarded,
    ChoiceOffered,
    FollowerLeft,
    GoldChanged,
    ObjectTaken,
    StatChanged,
)
from domain.rulesets.talisman.main.events import CharacterDied, CharacterRestarted
from projections.talisman_expansion_timeline import describe_expansion as expansion_words
from projections.talisman_keep_words import describe
from tests.decider_helpers import names, of
from tests.main_helpers import ANN, BO, act, land, lay, new_game, put
from tests.rulesets.keep.test_expansion_spaces import TILE1, TILE2, counter, inside

KEEP = {"keep": "true"}
PORTAL = "talisman/card/ethereal-portal-2"


def test_keep_6_2_of_two_tiles_drawn_on_a_draw_2_space_one_is_discarded():
    """Keep 6.2: two Teleport Tiles drawn on a draw-2 space: one is discarded; one tile to a space."""
    game, state = new_game(KEEP)
    inside(state, 7)
    events, after = act(game, state, "roll", values=[3], cards=[TILE1, TILE2, counter(4)])
    assert of(events, CardDiscarded) == [CardDiscarded(player=ANN, card=TILE2, space=9)]
    assert after["cards"]["keep"][9] == [TILE1] and after["piles"]["discard:keep"] == [TILE2]
    assert len(of(events, TeleportCounterDrawn)) == 1 and of(events, Teleported)[0].to_space == 4


def test_keep_8_3_the_tome_of_the_undead_must_be_read():
    """Keep 8.3 (house rule H3.5): 2 dice on the Tome: 10-11 +1 Craft; 5 a die of Followers leave."""
    game, state = new_game(KEEP)
    inside(state, 9)
    events, _ = act(game, state, "roll", values=[1, 5, 6])
    assert of(events, StatChanged)[0].stat == "craft" and of(events, StatChanged)[0].amount == 1
    inside(state, 9, followers=["keep/card/torchbearer"])
    events, after = act(game, state, "roll", values=[1, 2, 3, 1])
    assert of(events, FollowerLeft) and after["players"][ANN]["followers"] == []
    assert after["piles"]["discard:keep"] == ["keep/card/torchbearer"]  # back to the Keep's discards


def test_keep_8_5_the_ancient_coffin_holds_treasure_or_a_trap():
    """Keep 8.5 (house rule H3.7): 1 die: 1-2 lose a life, 5 an Object of the Keep deck, 6 gain 3 Gold."""
    game, state = new_game(KEEP)
    inside(state, 16)
    events, _ = act(game, state, "roll", values=[1, 2])
    assert of(events, LifeLost)[0].amount == 1
    events, rich = act(game, state, "roll", values=[1, 6])
    assert of(events, GoldChanged)[0].amount == 3
    events, armed = act(game, state, "roll", values=[1, 5], cards=["keep/card/sword"])
    assert (
        of(events, ObjectTaken)[0].card == "keep/card/sword"
        and "keep/card/sword" in armed["players"][ANN]["objects"]
    )


def test_keep_8_6_the_sacred_obelisk_bars_the_way_until_its_test_is_passed():
    """Keep 8.6 (H3.8): a roll stops on the Obelisk; 2 dice at most Strength + Craft pass, else lose
    a life and try again next turn instead of moving."""
    game, state = new_game(KEEP)
    inside(state, 18)
    events, held = act(game, state, "roll", values=[6, 6, 6])
    assert held["players"][ANN]["space"] == 19 and not of(events, ObeliskTested)[0].passed
    assert held["players"][ANN]["obelisk"] and of(events, LifeLost)
    held["turn"] = ANN
    events, passed = act(game, held, "roll", values=[3, 4])
    assert of(events, ObeliskTested)[0].passed and not passed["players"][ANN]["obelisk"]


def test_keep_8_7_the_fountain_of_blood_guards_the_vault():
    """Keep 8.7 (house rule H3.9): 1 die: 1-2 lose a life, 3-5 nothing, 6 heal a life."""
    game, state = new_game(KEEP)
    inside(state, 19, lives=3)
    events, _ = act(game, state, "roll", values=[1, 6])
    assert of(events, LifeGained)[0].amount == 1
    events, _ = act(game, state, "roll", values=[2, 1])
    assert of(events, LifeLost)[0].amount == 1


def test_keep_7_1_a_character_killed_in_the_keep_is_replaced_by_the_main_boards_rule():
    """Keep 7.1 (house rule H5.17): a character killed in the Keep leaves its things on its Keep space and its
    player is dealt a new character on the main board; the game goes on."""
    game, state = new_game(KEEP)
    inside(state, 16, lives=1, objects=["talisman/card/sword"])
    events, after = act(game, state, "roll", values=[1, 1], cards=["talisman/character/dwarf"])
    assert of(events, CharacterDied)[0].board == "keep" and of(events, CharacterRestarted)
    assert after["cards"]["keep"][17] == ["talisman/card/sword"] and after["players"][ANN]["board"] != "keep"
    assert not of(events, GameWon) and after["players"][ANN]["entered"] is False


def test_keep_10_after_a_flight_the_turn_outside_comes_before_any_way_back_in():
    """Keep 10: a character that fled must take at least 1 turn on the main board before re-entering."""
    game, state = new_game(KEEP)
    put(state, ANN, "keep", 1, keep_from=["outer", 1], keep_wait=1)
    _, out = act(game, state, "leave")
    lay(out, "outer", 3, PORTAL)  # the Woods: it draws 1 card
    events, after = act(game, {**out, "step": "rolled", "rolled": 2}, "go:outer:3")
    assert not after["choice"] and of(events, CardDiscarded)  # the Portal does nothing: it closes
    assert after["players"][ANN]["keep_wait"] == 0  # that was its turn outside
    after["turn"] = ANN
    lay(after, "outer", 5, "talisman/card/ethereal-portal-3")  # the Hills
    _, open_again = land(game, after, "outer", 5)
    assert open_again["choice"]["options"] == ["go", "stay"]


def test_keep_8_4_a_spell_the_wizard_casts_can_kill_and_casting_stops():
    """Keep 8.4: the Wizard's Spells stop once the victim is killed (the main board deals it anew)."""
    game, state = new_game({**KEEP, "keep.wizard": "auto"})
    inside(state, 13, lives=1)
    lightning = "talisman/spell/lightning"
    events, after = act(game, state, "roll", values=[1], cards=[lightning, "talisman/character/dwarf"])
    assert of(events, SpellCast) == [SpellCast(player=ANN, spell=lightning)] and of(events, CharacterDied)
    assert len([e for e in of(events, CardDrawn) if e.deck == "spells"]) == 1
    assert lightning in after["piles"]["discard:spells"]


def test_rules_3_the_keeps_own_facts_read_in_plain_words_beside_the_main_board():
    """house rule H3.19, Keep 4.1: the Portal's choice and the Keep's own dice are told in words; the Wizard's
    aim is told with its Spell (the main board's timeline)."""
    offered = ChoiceOffered(player=ANN, kind=f"keep-portal:{PORTAL}", options=["go", "stay"])
    assert describe(offered) == "Ann found an Ethereal Portal and may step through it to the Keep Entrance."
    rolled = DieRolled(player=ANN, purpose="keep-exit", sides=6, values=[4], draws=[0])
    assert describe(rolled) == "Ann rolled 4 on the Keep's Exit Table."
    assert describe(GoldChanged(player=ANN, amount=1, reason="x")) is None
    aim = ChoiceOffered(player=ANN, kind="wizard-target:talisman/spell/lightning", options=[ANN, "discard"])
    assert "Vampire Wizard" in (expansion_words(aim) or "")


def test_keep_8_2_losing_both_rounds_to_the_sentry_sends_the_character_back_to_hallway_3():
    """Keep 8.2, 5.3 (house rule H3.4): 2-3 on the Sentry's die is two rounds of Combat against Strength 5;
    losing both sends the character back (a space's instruction), to Hallway 3."""
    game, state = new_game(KEEP)
    inside(state, 3)
    events, after = act(game, state, "roll", values=[1, 2, 1, 6, 1, 6])
    assert [e.outcome for e in of(events, CombatResolved)] == ["lost", "lost"]
    assert after["players"][ANN]["space"] == 3 and after["players"][ANN]["lives"] == 2
    events, won = act(game, state, "roll", values=[1, 2, 6, 1, 1, 6])
    assert won["players"][ANN]["space"] == 4  # one round won: it goes on next turn


def test_keep_5_3_the_wizards_push_moves_its_victim_back_and_his_casting_ends():
    """Keep 5.3, 8.4: a Spell the Wizard casts may move a character back toward the Entrance (the Push: 1
    space); once moved off his space, its victim meets no more of his Spells (house)."""
    game, state = new_game({**KEEP, "keep.wizard": "auto"})
    inside(state, 13)
    events, after = act(game, state, "roll", values=[1], cards=["talisman/spell/push"])
    assert of(events, SpellCast) and after["players"][ANN]["space"] == 13
    assert len([e for e in of(events, CardDrawn) if e.deck == "spells"]) == 1


def test_keep_8_3_a_12_on_the_tome_gives_the_reader_its_choice_of_gift():
    """Keep 8.3 (house rule H3.5): a 12 on the Tome gives +2 Strength, Craft or lives, the reader's choice."""
    game, state = new_game(KEEP)
    inside(state, 9)
    _, asked = act(game, state, "roll", values=[1, 6, 6])
    assert [a.label for a in game.legal_actions(asked)] == [
        "Take +2 Strength from the Tome",
        "Take +2 Craft from the Tome",
        "Take +2 Lives from the Tome",
    ]
    events, after = act(game, asked, "choose:craft")
    assert after["players"][ANN]["craft"] == 5 and names(events)[-1] == "TurnEnded"


def test_keep_7_1_a_character_landing_where_another_stands_may_attack_it_instead():
    """Keep 7.1 (house rule H5.16): encounters in the Keep are as on the main board: landing where another
    character stands, the player may attack it in place of meeting the space, or meet the space."""
    game, state = new_game(KEEP)
    inside(state, 6, player=BO)
    inside(state, 5)
    _, asked = act(game, state, "roll", values=[1])
    assert [a.id for a in game.legal_actions(asked)] == ["choose:space", f"choose:attack:{BO}"]
    assert game.legal_actions(asked)[1].label == f"Attack {BO} in Combat"
    events, fought = act(game, asked, f"choose:attack:{BO}", values=[6, 1])
    assert of(events, CombatResolved)[0].outcome == "won" and fought["choice"]["kind"].startswith("spoils")
    events, met = act(game, asked, "choose:space", cards=["keep/card/sword"])
    assert "keep/card/sword" in met["players"][ANN]["objects"]
