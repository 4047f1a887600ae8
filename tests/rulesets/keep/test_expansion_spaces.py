"""The Keep's spaces inside a main-board game (`keep=true`): the seed's worked examples of Teleport Tiles
(6.1's, 6.3's, Examples 1 and 2), the Vampire Wizard with the main board's Spell deck (8.4), the Sentry's
toll (8.2) and the Keep's cards carried out onto the main board (Keep 14.1, 7.1), dice scripted."""

from __future__ import annotations

from typing import Any

from domain.events import CardDrawn, CombatResolved, LifeLost
from domain.rulesets.keep.events import (
    LoopEscaped,
    LoopFailed,
    SpellCast,
    SpellDiscarded,
    TeleportCounterDrawn,
    Teleported,
)
from domain.rulesets.keep.moves import counter_value
from domain.rulesets.talisman.events import ChoiceOffered, ItemGivenUp, TrophyTaken, TurnLost
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import fold, names, of
from tests.main_helpers import ANN, BO, act, new_game, put

KEEP = {"keep": "true"}
TILE1, TILE2 = "keep/card/teleport-tile-1", "keep/card/teleport-tile-2"
WARRIOR = "keep/card/vampire-warrior-1"
SWORD = "keep/card/sword"
LIGHTNING, HEALING, CURSE = "talisman/spell/lightning", "talisman/spell/healing", "talisman/spell/curse"


def counter(space: int) -> str:
    """Returns a Teleport counter naming `space`."""
    return next(f"keep/counter/{i:02d}" for i in range(40) if counter_value(f"keep/counter/{i:02d}") == space)


def inside(state: dict[str, Any], space: int, player: str = ANN, **sheet: Any) -> None:
    """Stands a character inside the Keep (past the entry test), come in from the Fields (outer 1)."""
    put(state, player, "keep", space, entered=True, keep_from=["outer", 1], **sheet)
    state["turn"] = player


def lay_tile(game: TalismanGame, state: dict[str, Any], space: int, tile: str, to: int) -> None:
    """Lays a Teleport Tile with its counter on a Keep space, as if drawn there earlier (Keep 6.1)."""
    state["piles"]["keep"].remove(tile)
    state["cards"]["keep"][space].append(tile)
    drawn = TeleportCounterDrawn(player=ANN, space=space, counter=counter(to), destination=to, draw=0)
    fold(game, state, [drawn])


def test_keep_6_1_seed_example_a_tile_drawn_on_corridor_11_with_counter_2_sends_to_hallway_2():
    """Keep 6.1's example: a Teleport Tile drawn on Corridor 11 gets counter 2; its finder and anyone who
    later lands on Corridor 11 moves at once to Hallway 2 (Keep 14.1: halls draw from the Keep deck)."""
    game, state = new_game(KEEP)
    inside(state, 9)
    events, after = act(game, state, "roll", values=[3], cards=[TILE1, counter(2)])
    assert of(events, TeleportCounterDrawn)[0].destination == 2 and after["tiles"][11] == 2
    assert of(events, Teleported) == [Teleported(piece=ANN, from_space=11, to_space=2, tile_space=11)]
    assert after["cards"]["keep"][11] == [TILE1] and after["cards"]["keep"][2] == []  # Hallway 2 unmet
    inside(after, 9, player=BO)
    events, _ = act(game, after, "roll", values=[4], player=BO)
    assert not of(events, CardDrawn) and of(events, Teleported)[0].to_space == 2


def test_keep_6_3_seed_example_a_tile_alone_on_torchlit_corridor_9_draws_a_vampire_warrior_first():
    """Keep 6.3's example: a tile (counter 2) alone on the draw-2 Torchlit Corridor 9: a second card is
    drawn, a Vampire Warrior, fought first; then the tile sends the character to Hallway 2."""
    game, state = new_game(KEEP)
    inside(state, 8)
    lay_tile(game, state, 9, TILE1, 2)
    events, after = act(game, state, "roll", values=[1, 5, 2], cards=[WARRIOR])
    assert [e.card for e in of(events, CardDrawn)] == [WARRIOR]
    assert of(events, CombatResolved)[0].outcome == "won" and of(events, TrophyTaken)[0].card == WARRIOR
    assert names(events).index("TrophyTaken") < names(events).index("Teleported")
    assert after["players"][ANN]["space"] == 2 and after["players"][ANN]["trophies"] == [WARRIOR]


def looped(game: TalismanGame, state: dict[str, Any]) -> dict[str, Any]:
    """Keep 6.3 (second), Examples 1 and 2: the Warrior (Craft 3) lands on the tile of Hallway 6
    (counter 2) and is sent to Hallway 2, whose tile has counter 6: its turn ends there, in a loop."""
    inside(state, 5)
    lay_tile(game, state, 6, TILE1, 2)
    lay_tile(game, state, 2, TILE2, 6)
    events, after = act(game, state, "roll", values=[1])
    assert of(events, Teleported)[0].to_space == 2 and after["players"][ANN]["looping"]
    after["turn"] = ANN
    return after


def test_keep_6_3_loop_example_1_a_roll_of_2_under_craft_3_frees_the_warrior_who_moves_from_hallway_2():
    """Keep 6.3 (second), Example 1: the Warrior rolls 2, at most its Craft of 3: free, it rolls for
    normal movement from Hallway 2."""
    game, state = new_game(KEEP)
    state = looped(game, state)
    events, after = act(game, state, "roll", values=[2, 1], cards=[SWORD])
    assert of(events, LoopEscaped) == [LoopEscaped(player=ANN, automatic=False)]
    assert after["players"][ANN]["space"] == 3 and not after["players"][ANN]["looping"]


def test_keep_6_3_loop_example_2_a_roll_of_5_teleports_the_warrior_back_to_hallway_6_to_try_again():
    """Keep 6.3 (second), Example 2: the Warrior rolls 5, over its Craft: it is teleported back to
    Hallway 6 and must try to break free on its next turn; after 3 failed turns it is freed."""
    game, state = new_game(KEEP)
    state = looped(game, state)
    events, after = act(game, state, "roll", values=[5])
    assert of(events, LoopFailed) and of(events, Teleported)[0].to_space == 6
    assert (after["players"][ANN]["space"], after["players"][ANN]["loop_fails"]) == (6, 1)
    for face in (6, 4):
        after["turn"] = ANN
        _, after = act(game, after, "roll", values=[face])
    after["turn"] = ANN
    events, free = act(game, after, "roll", values=[1], cards=[SWORD])
    assert of(events, LoopEscaped) == [LoopEscaped(player=ANN, automatic=True)]
    assert free["players"][ANN]["space"] == 7


def test_keep_8_4_the_wizard_casts_the_main_spell_deck_aimed_by_the_player_on_the_right():
    """Keep 8.4: the Vampire Wizard casts the top 3 Spells of the main board's Spell deck at the victim; the
    player on its right aims each that would hurt; one that would help is discarded unused."""
    game, state = new_game(KEEP)
    inside(state, 13)
    events, waiting = act(game, state, "roll", values=[1], cards=[LIGHTNING])
    assert of(events, ChoiceOffered)[0].player == BO and waiting["choice"]["options"] == [ANN, "discard"]
    assert LIGHTNING in waiting["players"][ANN]["spells"]  # held by its victim until it is cast
    labels = [a.label for a in game.legal_actions(waiting)]
    assert labels == [
        "Aim the Vampire Wizard's Lightning at Ann",
        "Have the Vampire Wizard discard Lightning",
    ]
    events, next_one = act(game, waiting, f"choose:{ANN}", player=BO, cards=[HEALING, CURSE])
    assert of(events, SpellCast) == [SpellCast(player=ANN, spell=LIGHTNING)] and of(events, LifeLost)
    assert of(events, SpellDiscarded)[0].spell == HEALING  # it would help: no aim asked
    events, done = act(game, next_one, "choose:discard", player=BO)
    assert of(events, SpellDiscarded)[0].spell == CURSE and done["turn"] == BO
    assert sorted(done["piles"]["discard:spells"]) == sorted([LIGHTNING, HEALING, CURSE])
    assert done["players"][ANN]["spells"] == []


def test_keep_8_4_under_auto_the_rules_aim_every_spell_at_the_victim():
    """Keep 8.4 (`keep.wizard=auto`): the rules cast each hurtful Spell at the victim and discard the rest."""
    game, state = new_game({**KEEP, "keep.wizard": "auto"})
    inside(state, 13)
    events, after = act(game, state, "roll", values=[1], cards=[LIGHTNING, HEALING, CURSE])
    assert [e.spell for e in of(events, SpellCast)] == [LIGHTNING, CURSE]
    assert of(events, TurnLost) and after["players"][ANN]["lives"] == 3


def test_keep_8_2_the_sentry_takes_a_main_board_magic_object_as_its_toll():
    """Keep 8.2 (house rule H3.4): on a 6 the Sentry takes a Magic Object, a Follower or a life, the player's
    choice; any deck's Magic Object counts."""
    game, state = new_game(KEEP)
    inside(state, 3, objects=["talisman/card/amulet"])
    events, after = act(game, state, "roll", values=[1, 6])
    assert after["choice"]["options"] == ["talisman/card/amulet", "life"]
    events, paid = act(game, after, "choose:talisman/card/amulet")
    assert of(events, ItemGivenUp) and paid["players"][ANN]["objects"] == []
    assert "talisman/card/amulet" in paid["piles"]["discard:adventure"]


def test_keep_14_1_a_keep_object_carried_out_still_works_on_the_main_board():
    """Keep 14.1, 7.1: a card of the Keep deck won there (a Sword, +1 Strength) works in a main-board fight,
    and a Keep enemy killed there counts as a trophy."""
    game, state = new_game(KEEP)
    put(state, ANN, "outer", 0, objects=[SWORD], trophies=[WARRIOR])
    assert game.ctx.items[SWORD].strength_bonus == 1 and game.ctx.trophies[WARRIOR].trophy_value == 4
    assert game.ctx.card_name(SWORD) == "Sword" and game.ctx.is_magic("keep/card/moonstone-wand")
    assert not game.ctx.is_magic(SWORD)
    state["cards"]["outer"][1] = ["talisman/card/goblin-1"]
    state["piles"]["adventure"].remove("talisman/card/goblin-1")
    state.update(step="rolled", rolled=1)
    events, _ = act(game, state, "go:outer:1", values=[1, 6])
    (fight,) = of(events, CombatResolved)
    assert fight.player_total == 4 + 1 + 1  # Strength 4, the die, the Keep's Sword


def test_keep_8_4_a_bot_playing_the_wizard_rarely_aims_at_itself():
    """Keep 8.4 (bots): the player on the victim's right, a bot, leans toward aiming at the victim."""
    game, state = new_game(KEEP)
    inside(state, 13)
    inside(state, 12, player=BO)
    state["turn"] = ANN
    _, waiting = act(game, state, "roll", values=[1], cards=[LIGHTNING])
    weights = {a.id: game.bot_weight(waiting, a) for a in game.legal_actions(waiting)}
    assert weights[f"choose:{BO}"] < weights[f"choose:{ANN}"]
