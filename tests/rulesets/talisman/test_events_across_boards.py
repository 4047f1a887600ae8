"""Events across the boards (Dungeon 11, Keep 12; adventure.toml): the Dungeon as a region for Events,
the Blizzard and the Astral Conjunction there, the Keep out of every Event's reach but Divine
Intervention's, and the house Earthquake and Divine Intervention cards."""

from __future__ import annotations

from typing import Any

from domain.dice import ScriptedDice
from domain.events import CombatResolved, LifeGained, LifeLost
from domain.resolution import Resolution
from domain.rulesets.talisman.combat import PSYCHIC
from domain.rulesets.talisman.events import TurnLost
from domain.rulesets.talisman.main.adventure import meet_cards, spirit_bonus, struck
from domain.rulesets.talisman.main.events_abilities import CardDestroyed
from domain.rulesets.talisman.main.fights import fight
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, land, lay, new_game, put

CY = "Cy"
BLIZZARD = "talisman/card/blizzard-1"
PLAGUE = "talisman/card/plague"  # everyone loses 1 life
PESTILENCE = "talisman/card/pestilence"  # everyone in your region loses 1 life
HEALING_RAIN = "talisman/card/healing-rain"  # everyone heals 1 life
EARTHQUAKE = "talisman/card/earthquake"
DIVINE = "talisman/card/divine-intervention"
GOBLIN = "talisman/card/goblin-1"
RAT = "dungeon/card/giant-rat"
GHOST = "dungeon/card/ghost"  # a Dungeon Spirit of Craft 3
BOTH = {"dungeon": "true", "keep": "true"}


def three(options: dict[str, str] | None = None) -> tuple[TalismanGame, dict[str, Any]]:
    """Returns a game of three (Ann, Bo, Cy), everyone wounded to 2 lives."""
    game, state = new_game(BOTH if options is None else options, characters=("warrior", "wizard", "troll"))
    for name in (ANN, BO, CY):
        state["players"][name]["lives"] = 2
    return game, state


def met_in_dungeon(game: TalismanGame, state: dict[str, Any], card: str) -> list[Any]:
    """Has Ann meet a main-deck card lying on her Dungeon space (as the Dungeon's steps meet cards)."""
    put(state, ANN, "dungeon", 3)
    lay(state, "dungeon", 3, card)
    res = Resolution(state, ScriptedDice(), game.evolve)
    meet_cards(game.ctx, res, ANN)
    return res.events


def met_on_the_woods(
    game: TalismanGame, state: dict[str, Any], card: str
) -> tuple[list[Any], dict[str, Any]]:
    """Has Ann land on the Woods (outer 3) and meet the main-deck card lying there."""
    lay(state, "outer", 3, card)
    return land(game, state, "outer", 3)


def hit(events: list[Any], cls: type) -> list[str]:
    """Returns the players an event class names, in order."""
    return [e.player for e in of(events, cls)]


# -- Dungeon 11 ---------------------------------------------------------------------------------------


def test_the_blizzard_does_not_affect_characters_in_the_dungeon():
    # Dungeon 11.2: the Blizzard does not affect players in the Dungeon (it spares the dungeon board).
    game, state = three()
    put(state, BO, "dungeon", 5)
    assert hit(met_in_dungeon(game, state, BLIZZARD), TurnLost) == []
    assert game.ctx.cards[BLIZZARD].spares == ("dungeon",)


def test_the_blizzard_still_strikes_its_region_on_the_main_board():
    # Dungeon 11.2: only the Dungeon is spared; the Blizzard strikes the drawer's region as before.
    game, state = three()
    put(state, BO, "outer", 9)
    put(state, CY, "dungeon", 5)
    events, _ = met_on_the_woods(game, state, BLIZZARD)
    assert hit(events, TurnLost) == [ANN, BO]


def test_the_astral_conjunction_strengthens_spirits_in_the_dungeon_but_not_in_the_keep():
    # Dungeon 11.3: the Astral Conjunction affects spirits in the Dungeon; Keep 12: not in the Keep.
    _, state = three()
    state["spirit_bonus"] = 1
    assert spirit_bonus(state, "dungeon") == 1 and spirit_bonus(state, "outer") == 1
    assert spirit_bonus(state, "keep") == 0


def test_a_dungeon_spirit_fights_with_the_astral_conjunctions_craft_in_the_dungeon():
    # Dungeon 11.3: the Astral Conjunction does affect spirits in the Dungeon (+1 Craft until the next Event).
    game, state = three()
    state["spirit_bonus"] = 1
    put(state, ANN, "dungeon", 5)
    res = Resolution(state, ScriptedDice([1, 1]), game.evolve)
    fight(game.ctx, res, ANN, GHOST, 3, PSYCHIC)
    assert of(res.events, CombatResolved)[0].opponent_total == 3 + 1 + 1
    state["spirit_bonus"] = 0
    res = Resolution(state, ScriptedDice([1, 1]), game.evolve)
    fight(game.ctx, res, ANN, GHOST, 3, PSYCHIC)
    assert of(res.events, CombatResolved)[0].opponent_total == 3 + 1


def test_an_event_of_your_region_drawn_in_the_dungeon_strikes_those_in_the_dungeon():
    # Dungeon 11 and house rule H2.9: otherwise the Dungeon counts as a Region for Events.
    game, state = three()
    put(state, BO, "dungeon", 9)
    put(state, CY, "outer", 4)
    assert hit(met_in_dungeon(game, state, PESTILENCE), LifeLost) == [ANN, BO]


def test_an_event_of_a_main_board_region_does_not_reach_into_the_dungeon():
    # Dungeon 11: the Dungeon is a region of its own, so an Event of another region leaves it alone.
    game, state = three()
    put(state, BO, "dungeon", 9)
    put(state, CY, "outer", 9)
    events, _ = met_on_the_woods(game, state, PESTILENCE)
    assert hit(events, LifeLost) == [ANN, CY]


def test_an_event_striking_everyone_reaches_the_dungeon_but_not_the_keep():
    # Dungeon 11 (house rule H2.9: every other Event affects the Dungeon); Keep 12: no Event reaches the Keep.
    game, state = three()
    put(state, BO, "dungeon", 9)
    put(state, CY, "keep", 4)
    events, _ = met_on_the_woods(game, state, PLAGUE)
    assert hit(events, LifeLost) == [ANN, BO]


def test_the_earthquake_in_the_dungeon_destroys_the_dungeons_cards():
    # Dungeon 11: the Dungeon counts as a region for the Earthquake, which destroys the cards lying there.
    game, state = three()
    lay(state, "dungeon", 7, RAT)
    lay(state, "outer", 5, GOBLIN)
    events = met_in_dungeon(game, state, EARTHQUAKE)
    assert [(e.board, e.card, e.deck) for e in of(events, CardDestroyed)] == [("dungeon", RAT, "dungeon")]


# -- Keep 12 -------------------------------------------------------------------------------------------


def test_no_event_affects_a_character_in_the_keep():
    # Keep 12: characters in the Keep cannot be affected by any Event card of any deck.
    game, state = three()
    put(state, BO, "keep", 4)
    put(state, CY, "keep", 6)
    res = Resolution(state, ScriptedDice(), game.evolve)
    assert struck(res, BO, "you") == [] and struck(res, BO, "region") == []
    assert struck(res, ANN, "everyone") == [ANN]
    events, _ = met_on_the_woods(game, state, HEALING_RAIN)
    assert hit(events, LifeGained) == [ANN]


def test_divine_intervention_reaches_even_the_keep():
    # Keep 12: the one exception is Divine Intervention (house: everyone heals up to 4 lives).
    game, state = three()
    put(state, BO, "keep", 4)
    put(state, CY, "dungeon", 6)
    events, after = met_on_the_woods(game, state, DIVINE)
    assert sorted(hit(events, LifeGained)) == [ANN, BO, CY]
    assert [after["players"][n]["lives"] for n in (ANN, BO, CY)] == [4, 4, 4]


# -- the house Events ------------------------------------------------------------------------------------


def test_the_earthquake_destroys_every_card_lying_in_its_region():
    # house rule H5.13: the Earthquake (house) destroys the cards face up on the spaces of the drawer's
    # region.
    game, state = three(options={})
    put(state, BO, "middle", 2)
    put(state, CY, "middle", 4)
    lay(state, "outer", 9, GOBLIN)
    lay(state, "middle", 6, "talisman/card/ogre-1")
    events, after = met_on_the_woods(game, state, EARTHQUAKE)
    assert [(e.board, e.space, e.card) for e in of(events, CardDestroyed)] == [("outer", 9, GOBLIN)]
    assert after["cards"]["outer"][9] == [] and after["cards"]["middle"][6] == ["talisman/card/ogre-1"]
    assert EARTHQUAKE in after["piles"]["discard:adventure"]


def test_the_earthquake_spares_a_doorway():
    # Dungeon 4.2: the Doorways are immune to the Earthquake.
    game, state = three(options={"dungeon": "true"})
    doorway = game.ctx.cards["talisman/card/doorway-1"]
    lay(state, "outer", 9, doorway.id)
    events, after = met_on_the_woods(game, state, EARTHQUAKE)
    assert of(events, CardDestroyed) == [] and after["cards"]["outer"][9] == [doorway.id]
