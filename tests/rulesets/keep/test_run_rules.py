"""Rules of the Keep run (Keep 4-10, 14-15; house rules H1, H3.18), driven with scripted dice.

Each test: given a state (built from events, or a face-up card laid on a space), when an action is
decided with ScriptedDice, then the events are exactly the ones the rule calls for. The seed's worked
examples (the teleport on Corridor 11, the Torchlit Corridor 9 draw, Examples 1 and 2 of loops) are here.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from domain.actions import HOST, START
from domain.dice import ScriptedDice
from domain.errors import BadSetup, IllegalAction
from domain.events import (
    CardDrawn,
    CharacterDealt,
    CombatResolved,
    DieRolled,
    Event,
    GameCreated,
    GameEnded,
    GameWon,
    LifeGained,
    LifeLost,
    Moved,
    PlayerOut,
    TurnEnded,
)
from domain.rulesets.keep.content import load_board, load_deck, load_spells, load_tables, load_vault
from domain.rulesets.keep.events import (
    EntryTested,
    FlightEnded,
    ItemGained,
    LoopEscaped,
    LoopFailed,
    ObeliskTested,
    SpellCast,
    SpellDiscarded,
    SpellGained,
    TalismanTaken,
    TeleportCounterDrawn,
    Teleported,
    VaultCardMet,
)
from domain.rulesets.keep.moves import CHART
from domain.rulesets.keep.run import KeepRun
from domain.rulesets.talisman.events import (
    CardDiscarded,
    CardEncountered,
    ChoiceMade,
    ChoiceOffered,
    DeckReshuffled,
    FleeingDeclared,
    FollowerJoined,
    FollowerLeft,
    GoldChanged,
    GoldTaken,
    ItemGivenUp,
    ObjectTaken,
    PlayOpened,
    StatChanged,
    TrophyTaken,
    TurnLost,
    TurnSkipped,
)
from tests import decider_helpers as helpers
from tests.decider_helpers import names, of

keep = KeepRun()

C = "keep/card/"
TILE1, TILE2, TILE3 = C + "teleport-tile-1", C + "teleport-tile-2", C + "teleport-tile-3"
VAMPIRE_WARRIOR, VAMPIRE_BAT, VAMPIRE_LORD = (
    C + "vampire-warrior-1",
    C + "vampire-bat-1",
    C + "vampire-lord-1",
)
ARMOUR, SWORD, LANTERN = C + "armour", C + "sword", C + "lantern"
SILVERED_BLADE, MOONSTONE_WAND, ROSARY = C + "silvered-blade", C + "moonstone-wand", C + "rosary-of-bone"
HUNTER, WOLFHOUND, TORCHBEARER = C + "vampire-hunter", C + "stray-wolfhound", C + "torchbearer"
BLOOD_ALTAR, PORTCULLIS = C + "blood-altar", C + "falling-portcullis"
S = "keep/spell/"
HEX, BLOOD_CURSE, LEADEN_PURSE, CHAINS = (
    S + "hex",
    S + "blood-curse",
    S + "leaden-purse",
    S + "binding-chains",
)
GUST, BLESSING, FIZZLE, FOOLS_GOLD = (
    S + "banishing-gust",
    S + "misplaced-blessing",
    S + "fizzle",
    S + "fools-gold",
)
WITHERING, DRAIN, MIND_FOG = S + "withering-touch", S + "drain-vigour", S + "mind-fog"
V = "keep/vault/"
STONE_GUARDIAN, PHANTOM_KEEPER, SPIKED_PIT = V + "stone-guardian", V + "phantom-keeper", V + "spiked-pit"
SWINGING_BLADE = V + "swinging-blade"
ITEM_SWORD, ITEM_SHIELD, ITEM_ARMOUR, ITEM_HELMET = (
    "keep/item/sword",
    "keep/item/shield",
    "keep/item/armour",
    "keep/item/helmet",
)
SENTRY = "keep/sentry"
WARRIOR, TROLL = "talisman/character/warrior", "talisman/character/troll"


def counter(space: int) -> str:
    """Returns the id of a Teleport counter naming `space` (`keep/counter/NN`, value counters[NN])."""
    index = load_board().counters.index(space)
    return f"keep/counter/{index:02d}"


# --- given --------------------------------------------------------------------------------------------------


def created(*seats: tuple[str, str], hoard: bool = False) -> GameCreated:
    return GameCreated(
        ruleset=keep.name,
        players=[{"name": n, "character": c} for n, c in seats],
        options={"hoard": "true"} if hoard else {},
        content_hash=keep.content_hash(),
        scripted=True,
        dice_script=[],
        nightkeep_version="test",
    )


def fold(state: dict[str, Any], events: list[Event]) -> dict[str, Any]:
    return helpers.fold(keep, state, events)


def started(*seats: tuple[str, str], hoard: bool = False) -> dict[str, Any]:
    """Returns a dealt game; by default Ann is the Warrior (4/3) and Bo the Troll (6/1)."""
    seats = seats or (("Ann", "warrior"), ("Bo", "troll"))
    state = keep.initial_state(created(*seats, hoard=hoard))
    return fold(state, keep.decide(state, START, HOST, ScriptedDice()))


def enter(state: dict[str, Any], *players: str) -> None:
    """Records that characters passed the entry test earlier (they are inside the Keep)."""
    for player in players:
        keep.evolve(state, EntryTested(player=player, total=3, target=11, passed=True))


def inside(space: int, *seats: tuple[str, str], hoard: bool = False) -> dict[str, Any]:
    """Returns a dealt game with everyone inside the Keep and Ann standing on `space`."""
    state = started(*seats, hoard=hoard)
    enter(state, *state["order"])
    place(state, "Ann", space)
    return state


def place(state: dict[str, Any], player: str, space: int) -> None:
    here = state["players"][player]["space"]
    keep.evolve(state, Moved(piece=player, board="keep", from_space=here, to_space=space, reason="given"))


def lay(state: dict[str, Any], space: int, *cards: str) -> None:
    """Lays Keep cards face up on a space, as if drawn there earlier."""
    for card in cards:
        state["piles"]["keep"].remove(card)
        state["cards"]["keep"][space].append(card)


def lay_tile(state: dict[str, Any], space: int, tile: str, destination: int) -> None:
    """Lays a Teleport Tile with its counter on a space, as if drawn there earlier (Keep 6.1)."""
    lay(state, space, tile)
    keep.evolve(
        state,
        TeleportCounterDrawn(
            player="Ann", space=space, counter=counter(destination), destination=destination, draw=0
        ),
    )


def carry(state: dict[str, Any], player: str, *cards: str) -> None:
    deck = load_deck().cards
    for card in cards:
        state["piles"]["keep"].remove(card)
        key = "followers" if deck[card].kind == "follower" else "objects"
        state["players"][player][key].append(card)


def turn_to(state: dict[str, Any], player: str) -> None:
    keep.evolve(state, TurnEnded(player=state["turn"], next_player=player))


def act(
    state: dict[str, Any],
    action: str,
    values: tuple[int, ...] = (),
    cards: tuple[str, ...] = (),
    player: str = "",
) -> tuple[list[Event], dict[str, Any]]:
    """Decides an action with scripted dice (all used up); returns the events and new state."""
    return helpers.decided(keep, state, action, player or state["turn"], ScriptedDice(values, cards))


def ids(state: dict[str, Any], player: str | None = None) -> list[str]:
    return [a.id for a in keep.legal_actions(state, player)]


def moved(frm: int, to: int, reason: str = "roll", piece: str = "Ann") -> Moved:
    return Moved(piece=piece, board="keep", from_space=frm, to_space=to, reason=reason)


def rolled(purpose: str, values: list[int], first: int, player: str = "Ann") -> DieRolled:
    return DieRolled(
        player=player, purpose=purpose, sides=6, values=values, draws=list(range(first, first + len(values)))
    )


def combat(opponent: str, mine: int, theirs: int, outcome: str, kind: str = "combat") -> CombatResolved:
    return CombatResolved(
        player="Ann", opponent=opponent, kind=kind, player_total=mine, opponent_total=theirs, outcome=outcome
    )


# --- Keep run: setup and turns (house rule H3.18)
# ----------------------------------------------------------------


def test_keep_run_characters_start_on_the_keep_entrance_outside_the_keep():
    """house rule H3.18 Keep run."""
    state = keep.initial_state(created(("Ann", "warrior"), ("Bo", "troll")))
    events = keep.decide(state, START, HOST, ScriptedDice())
    assert events == [
        CharacterDealt(player="Ann", character=WARRIOR, draw=-1),
        CharacterDealt(player="Bo", character=TROLL, draw=-1),
        PlayOpened(player="Ann"),
    ]
    state = fold(state, events)
    for sheet in state["players"].values():
        assert (sheet["space"], sheet["entered"], sheet["lives"], sheet["gold"]) == (1, False, 4, 1)
    assert ids(state) == ["enter"] and ids(state, "Bo") == []
    assert keep.status(state) == {"status": "running", "winner": "", "to_act": ["Ann"]}
    assert (
        len(state["piles"]["keep"]) == 48
        and len(state["piles"]["counters"]) == 40
        and len(state["piles"]["vault"]) == 12
    )


def test_keep_run_decide_refuses_illegal_out_of_turn_and_repeated_start():
    """house rule H3.18 Keep run."""
    state = started()
    with pytest.raises(IllegalAction):
        keep.decide(state, "roll", "Ann", ScriptedDice([1]))  # not inside the Keep yet
    with pytest.raises(IllegalAction):
        keep.decide(state, "enter", "Bo", ScriptedDice([1, 1, 1]))
    with pytest.raises(IllegalAction):
        keep.decide(state, "flee", "Ann", ScriptedDice())
    with pytest.raises(IllegalAction):
        keep.decide(state, START, HOST, ScriptedDice())


def test_keep_15_hoard_is_a_game_option_taking_true_or_false():
    keep.validate_setup([{"name": "Ann"}, {"name": "Bo"}], {"hoard": "true"})
    keep.validate_setup([{"name": "Ann"}, {"name": "Bo"}], {"hoard": "false"})
    for wrong in ("maybe", "yes", "1"):
        with pytest.raises(BadSetup):
            keep.validate_setup([{"name": "Ann"}, {"name": "Bo"}], {"hoard": wrong})
    # Any case is read, and a game records the one spelling (so a log says the choice one way).
    keep.validate_setup([{"name": "Ann"}, {"name": "Bo"}], {"hoard": "True"})
    assert keep.canonical_setup([], {"hoard": "TRUE"}) == ([], {"hoard": "true", "wizard": "choose"})
    with pytest.raises(BadSetup):
        keep.validate_setup([{"name": "Ann"}, {"name": "Bo"}], {"talismans": "true"})
    assert started(hoard=True)["hoard"] and not started()["hoard"]


# --- house rule H3.3 Entrance: 3 dice under Strength + Craft + Lives
# --------------------------------------------


def test_entrance_total_less_than_strength_craft_lives_passes_and_enters_next_turn():
    """house rule H3.3 Entrance (Keep 8.1)."""
    events, state = act(started(), "enter", values=(3, 3, 4))  # 10 < Warrior 4 + 3 + 4 lives = 11
    assert events == [
        rolled("entry", [3, 3, 4], 0),
        EntryTested(player="Ann", total=10, target=11, passed=True),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["entered"] and state["players"]["Ann"]["space"] == 1
    turn_to(state, "Ann")
    assert ids(state) == ["roll"]  # on its next turn it goes in (no flight from the Entrance itself)


def test_entrance_total_equal_to_target_fails_loses_the_next_turn_then_tries_again():
    """house rule H3.3 Entrance (Keep 8.1)."""
    events, state = act(started(), "enter", values=(3, 4, 4))  # 11 is not less than 11
    assert events == [
        rolled("entry", [3, 4, 4], 0),
        EntryTested(player="Ann", total=11, target=11, passed=False),
        TurnLost(player="Ann", reason="the Keep's door held"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert not state["players"]["Ann"]["entered"] and state["players"]["Ann"]["skips"] == 1
    events, state = act(state, "enter", values=(1, 1, 1))  # Bo goes in; Ann's next turn is lost
    assert events[-4:] == [
        EntryTested(player="Bo", total=3, target=11, passed=True),
        TurnEnded(player="Bo", next_player="Ann"),
        TurnSkipped(player="Ann"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    turn_to(state, "Ann")
    assert ids(state) == ["enter"]  # the lost turn spent, the entry test again
    events, _ = act(state, "enter", values=(1, 2, 3))
    assert of(events, EntryTested) == [EntryTested(player="Ann", total=6, target=11, passed=True)]


def test_entrance_target_counts_the_lives_left():
    """house rule H3.3 Entrance (Keep 8.1)."""
    state = started()
    keep.evolve(state, LifeLost(player="Ann", amount=2, reason="given"))
    events, _ = act(state, "enter", values=(3, 3, 3))
    assert of(events, EntryTested) == [EntryTested(player="Ann", total=9, target=9, passed=False)]


# --- Keep 5: movement by the chart --------------------------------------------------------------------------


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_keep_5_2_chart_1_2_moves_one_3_4_two_5_6_three(face):
    state = inside(5)
    to = 5 + {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}[face]
    events, state = act(state, "roll", values=(face,), cards=(LANTERN,))
    assert events == [
        rolled("movement", [face], 0),
        moved(5, to),
        CardDrawn(player="Ann", deck="keep", card=LANTERN, draw=1),
        ObjectTaken(player="Ann", card=LANTERN, space=to),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert CHART == {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}


def test_keep_5_2_a_roll_past_the_vault_stops_on_it():
    state = inside(20)
    events, _ = act(
        state, "roll", values=(6, 6, 1, 6, 1, 6), cards=(STONE_GUARDIAN, PHANTOM_KEEPER, SPIKED_PIT)
    )
    assert events[:2] == [rolled("movement", [6], 0), moved(20, 21)]


def test_keep_5_3_a_movement_roll_only_goes_forward():
    state = inside(12)
    assert [a.label for a in keep.legal_actions(state)] == [
        "Roll and move deeper into the Keep",
        "Flee the Keep (irrevocable)",
    ]
    lay(state, 13, LANTERN)
    events, _ = act(state, "roll", values=(2,))
    assert of(events, Moved) == [moved(12, 13)]


def test_keep_5_3_a_card_may_send_a_character_back_and_the_space_is_not_met():
    state = inside(6)
    lay(state, 7, PORTCULLIS)
    lay(state, 6, VAMPIRE_LORD)
    events, state = act(state, "roll", values=(1, 2))
    assert events == [
        rolled("movement", [1], 0),
        moved(6, 7),
        CardEncountered(player="Ann", card=PORTCULLIS, space=7),
        rolled("table", [2], 1),
        moved(7, 6, "card"),
        CardDiscarded(player="Ann", card=PORTCULLIS, space=7),
        TurnEnded(player="Ann", next_player="Bo"),
    ]


@pytest.mark.parametrize("face", [1, 3, 5])
def test_keep_5_4_11_1_13_objects_followers_and_craft_never_alter_the_chart(face):
    # A Wizard (Craft 5) with the best Objects and Followers of the Keep still moves by the chart.
    state = inside(5, ("Ann", "wizard"), ("Bo", "troll"), hoard=True)
    carry(state, "Ann", SILVERED_BLADE, MOONSTONE_WAND, ROSARY, HUNTER, WOLFHOUND)
    keep.evolve(state, ItemGained(player="Ann", item=ITEM_SWORD))
    keep.evolve(state, SpellGained(player="Ann", spell=HEX, from_vault=False))
    keep.evolve(state, StatChanged(player="Ann", stat="craft", amount=3, reason="given"))
    assert ids(state) == ["roll", "flee"]  # no spell, object or ability offers another move
    to = 5 + CHART[face]
    events, _ = act(state, "roll", values=(face,), cards=(LANTERN,))
    assert of(events, Moved) == [moved(5, to)]


def test_keep_5_5_no_horses_carts_or_warhorses_in_the_keep_content():
    horse = re.compile(r"\b(war)?horses?\b|\bcarts?\b", re.IGNORECASE)
    deck, tables, vault, spells = load_deck(), load_tables(), load_vault(), load_spells()
    texts = [(c.id, c.name, c.text) for c in deck.cards.values()]
    texts += [(c.id, c.name, c.text) for c in tables.items.values()]
    texts += [(c.id, c.name, c.text) for c in vault.values()]
    texts += [(s.id, s.name, s.text) for s in spells.values()]
    assert not [t for t in texts if any(horse.search(part) for part in t)]
    # No card, item or spell can speed a character up: the only movement effect is a move back (5.3).
    card_effects = {line.effect for c in deck.cards.values() for line in c.table}
    assert not {e for e in card_effects | {s.effect for s in spells.values()} if "move" in e} - {"move_back"}


# --- Keep 6: Teleport Tiles ---------------------------------------------------------------------------------


def test_keep_6_1_seed_example_tile_drawn_on_corridor_11_with_counter_2_sends_to_hallway_2():
    state = inside(9)
    enter(state, "Bo")
    events, state = act(state, "roll", values=(3,), cards=(TILE1, counter(2)))
    assert events == [
        rolled("movement", [3], 0),
        moved(9, 11),
        CardDrawn(player="Ann", deck="keep", card=TILE1, draw=1),
        TeleportCounterDrawn(player="Ann", space=11, counter=counter(2), destination=2, draw=2),
        Teleported(piece="Ann", from_space=11, to_space=2, tile_space=11),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["cards"]["keep"][11] == [TILE1] and state["tiles"][11] == 2
    assert (
        counter(2) not in state["piles"]["counters"] and state["cards"]["keep"][2] == []
    )  # Hallway 2 is not met
    assert not state["players"]["Ann"]["looping"]  # no tile on Hallway 2: no loop
    # Any player that lands on Corridor 11 then moves at once to Hallway 2 (no card is drawn).
    place(state, "Bo", 9)
    events, state = act(state, "roll", values=(4,))
    assert events == [
        rolled("movement", [4], 0, player="Bo"),
        moved(9, 11, piece="Bo"),
        Teleported(piece="Bo", from_space=11, to_space=2, tile_space=11),
        TurnEnded(player="Bo", next_player="Ann"),
    ]


def test_keep_6_2_two_tiles_drawn_on_a_draw_2_space_one_is_discarded():
    state = inside(7)
    events, state = act(state, "roll", values=(3,), cards=(TILE1, TILE2, counter(4)))
    assert events == [
        rolled("movement", [3], 0),
        moved(7, 9),
        CardDrawn(player="Ann", deck="keep", card=TILE1, draw=1),
        CardDrawn(player="Ann", deck="keep", card=TILE2, draw=2),
        TeleportCounterDrawn(player="Ann", space=9, counter=counter(4), destination=4, draw=3),
        CardDiscarded(player="Ann", card=TILE2, space=9),
        Teleported(piece="Ann", from_space=9, to_space=4, tile_space=9),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert (
        state["cards"]["keep"][9] == [TILE1]
        and state["piles"]["discard:keep"] == [TILE2]
        and state["tiles"][9] == 4
    )


def test_keep_6_2_a_tile_drawn_where_a_tile_lies_is_discarded():
    state = inside(8)
    lay_tile(state, 9, TILE1, 2)
    events, state = act(state, "roll", values=(1,), cards=(TILE2,))
    assert events == [
        rolled("movement", [1], 0),
        moved(8, 9),
        CardDrawn(player="Ann", deck="keep", card=TILE2, draw=1),
        CardDiscarded(player="Ann", card=TILE2, space=9),
        Teleported(piece="Ann", from_space=9, to_space=2, tile_space=9),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["cards"]["keep"][9] == [TILE1] and state["tiles"][9] == 2


def test_keep_6_3_seed_example_torchlit_corridor_9_tile_alone_draws_a_vampire_warrior_then_teleports():
    state = inside(8)
    lay_tile(state, 9, TILE1, 2)
    events, state = act(state, "roll", values=(1, 5, 2), cards=(VAMPIRE_WARRIOR,))
    assert events == [
        rolled("movement", [1], 0),
        moved(8, 9),
        CardDrawn(player="Ann", deck="keep", card=VAMPIRE_WARRIOR, draw=1),
        CardEncountered(player="Ann", card=VAMPIRE_WARRIOR, space=9),
        rolled("combat", [5, 2], 2),
        combat(VAMPIRE_WARRIOR, 9, 6, "won"),
        TrophyTaken(player="Ann", card=VAMPIRE_WARRIOR, space=9, kind="monster", value=4),
        Teleported(piece="Ann", from_space=9, to_space=2, tile_space=9),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["cards"]["keep"][9] == [TILE1] and state["players"]["Ann"]["space"] == 2


def test_keep_6_3_tile_is_met_when_the_combat_is_over_even_a_lost_one():
    state = inside(8)
    lay_tile(state, 9, TILE1, 2)
    events, state = act(state, "roll", values=(1, 1, 6), cards=(VAMPIRE_WARRIOR,))
    assert names(events)[-4:] == ["CombatResolved", "LifeLost", "Teleported", "TurnEnded"]
    assert state["cards"]["keep"][9] == [TILE1, VAMPIRE_WARRIOR]  # the Warrior stays face up with the tile
    turn_to(state, "Bo")
    enter(state, "Bo")
    place(state, "Bo", 8)
    events, _ = act(state, "roll", values=(1, 6, 1))  # tile and an enemy: no card is drawn
    assert not of(events, CardDrawn) and names(events)[-3:] == ["TrophyTaken", "Teleported", "TurnEnded"]


def test_keep_6_3_a_tile_alone_on_a_draw_1_space_draws_nothing():
    state = inside(10)
    lay_tile(state, 11, TILE1, 3)
    events, _ = act(state, "roll", values=(2,))
    assert events == [
        rolled("movement", [2], 0),
        moved(10, 11),
        Teleported(piece="Ann", from_space=11, to_space=3, tile_space=11),
        TurnEnded(player="Ann", next_player="Bo"),
    ]


def test_keep_6_3_tile_is_always_encountered_last_even_after_a_place_laid_later():
    state = inside(4)
    lay_tile(state, 5, TILE1, 12)
    lay(state, 5, BLOOD_ALTAR)  # also a Place 6, laid after the tile
    events, state = act(state, "roll", values=(1, 4))
    assert events == [
        rolled("movement", [1], 0),
        moved(4, 5),
        CardEncountered(player="Ann", card=BLOOD_ALTAR, space=5),
        rolled("table", [4], 1),
        Teleported(piece="Ann", from_space=5, to_space=12, tile_space=5),
        TurnEnded(player="Ann", next_player="Bo"),
    ]


def test_keep_6_3_tile_drawn_first_is_still_met_after_the_enemy_drawn_with_it():
    state = inside(4)
    events, state = act(state, "roll", values=(1, 6, 1), cards=(TILE1, VAMPIRE_BAT, counter(8)))
    assert names(events) == [
        "DieRolled",
        "Moved",
        "CardDrawn",
        "CardDrawn",
        "TeleportCounterDrawn",
        "CardEncountered",
        "DieRolled",
        "CombatResolved",
        "TrophyTaken",
        "Teleported",
        "TurnEnded",
    ]
    assert events[-2] == Teleported(piece="Ann", from_space=5, to_space=8, tile_space=5)


def test_keep_6_1_a_character_killed_or_sent_back_on_a_tile_space_is_not_teleported():
    state = inside(8)
    keep.evolve(state, LifeLost(player="Ann", amount=3, reason="given"))
    lay_tile(state, 9, TILE1, 2)
    lay(state, 9, VAMPIRE_LORD)
    events, _ = act(state, "roll", values=(1, 1, 6))
    assert names(events)[-3:] == ["LifeLost", "PlayerOut", "TurnEnded"] and not of(events, Teleported)
    state = inside(10)
    lay_tile(state, 11, TILE1, 2)
    lay(state, 11, PORTCULLIS)
    events, _ = act(state, "roll", values=(2, 3))
    assert of(events, Moved)[-1] == moved(11, 10, "card") and not of(events, Teleported)


def test_keep_6_1_a_tile_whose_counter_names_its_own_space_does_nothing():
    state = inside(10)
    lay_tile(state, 11, TILE1, 11)
    events, state = act(state, "roll", values=(2,))
    assert names(events) == ["DieRolled", "Moved", "TurnEnded"] and not state["players"]["Ann"]["looping"]


# --- Keep second 6.3: teleport loops ------------------------------------------------------------------------


def looped() -> dict[str, Any]:
    """The seed's loop: Hallway 6 has a tile with counter #2, Hallway 2 one with counter #6; the Warrior
    (Craft 3) lands on Hallway 6, is sent to Hallway 2 and its turn ends there; now it is its turn again."""
    state = inside(5)
    lay_tile(state, 6, TILE1, 2)
    lay_tile(state, 2, TILE2, 6)
    events, state = act(state, "roll", values=(1,))
    assert events == [
        rolled("movement", [1], 0),
        moved(5, 6),
        Teleported(piece="Ann", from_space=6, to_space=2, tile_space=6),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["looping"] and state["players"]["Ann"]["space"] == 2
    turn_to(state, "Ann")
    return state


def test_keep_6_3_loop_example_1_rolls_2_under_craft_3_breaks_free_and_moves_from_hallway_2():
    state = looped()
    assert ids(state) == ["roll", "flee"] and "break free" in keep.legal_actions(state)[0].label
    events, state = act(state, "roll", values=(2, 1), cards=(LANTERN,))
    assert events == [
        rolled("loop-escape", [2], 0),
        LoopEscaped(player="Ann", automatic=False),
        rolled("movement", [1], 1),
        moved(2, 3),
        CardDrawn(player="Ann", deck="keep", card=LANTERN, draw=2),
        ObjectTaken(player="Ann", card=LANTERN, space=3),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert not state["players"]["Ann"]["looping"] and state["players"]["Ann"]["loop_fails"] == 0


def test_keep_6_3_loop_a_roll_equal_to_craft_breaks_free():
    events, _ = act(looped(), "roll", values=(3, 5), cards=(LANTERN,))
    assert events[1:4] == [
        LoopEscaped(player="Ann", automatic=False),
        rolled("movement", [5], 1),
        moved(2, 5),
    ]


def test_keep_6_3_loop_example_2_rolls_5_over_craft_3_teleports_back_to_hallway_6_and_tries_again():
    events, state = act(looped(), "roll", values=(5,))
    assert events == [
        rolled("loop-escape", [5], 0),
        LoopFailed(player="Ann"),
        Teleported(piece="Ann", from_space=2, to_space=6, tile_space=2),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    sheet = state["players"]["Ann"]
    assert (sheet["space"], sheet["looping"], sheet["loop_fails"]) == (6, True, 1)
    turn_to(state, "Ann")
    assert ids(state) == ["roll", "flee"]
    events, _ = act(state, "roll", values=(1, 2), cards=(LANTERN,))  # next turn it attempts again
    assert events[:4] == [
        rolled("loop-escape", [1], 0),
        LoopEscaped(player="Ann", automatic=False),
        rolled("movement", [2], 1),
        moved(6, 7),
    ]


def test_keep_6_3_loop_frees_the_character_automatically_after_three_failed_turns():
    state = looped()
    for face, to in ((4, 6), (6, 2), (5, 6)):
        events, state = act(state, "roll", values=(face,))
        assert of(events, LoopFailed) == [LoopFailed(player="Ann")] and of(events, Moved) == []
        assert of(events, Teleported)[0].to_space == to
        turn_to(state, "Ann")
    assert state["players"]["Ann"]["loop_fails"] == 3
    events, state = act(state, "roll", values=(3,), cards=(LANTERN,))
    assert events[:3] == [
        LoopEscaped(player="Ann", automatic=True),  # no escape roll on the fourth turn
        rolled("movement", [3], 0),
        moved(6, 8),
    ]
    assert not state["players"]["Ann"]["looping"] and state["players"]["Ann"]["loop_fails"] == 0


def test_keep_6_3_each_new_loop_gives_three_turns_before_the_automatic_release():
    state = inside(5)
    lay_tile(state, 6, TILE1, 2)
    lay_tile(state, 2, TILE2, 3)  # Hallway 2 sends on to Hallway 3, which has no tile
    events, state = act(state, "roll", values=(1,))
    assert of(events, Teleported)[0].to_space == 2 and state["players"]["Ann"]["looping"]
    turn_to(state, "Ann")
    events, state = act(state, "roll", values=(6,))  # a failed roll: teleported on, out of the loop
    assert of(events, Teleported) == [Teleported(piece="Ann", from_space=2, to_space=3, tile_space=2)]
    assert not state["players"]["Ann"]["looping"]
    # Later it is caught in another loop: Gargoyle Landing 8 and Portrait Hall 12 send to each other.
    lay_tile(state, 8, TILE3, 12)
    lay_tile(state, 12, C + "teleport-tile-4", 8)
    place(state, "Ann", 7)
    turn_to(state, "Ann")
    events, state = act(state, "roll", values=(1,))
    assert of(events, Teleported)[0].to_space == 12 and state["players"]["Ann"]["looping"]
    for face in (6, 6):  # two failed turns in the new loop
        turn_to(state, "Ann")
        events, state = act(state, "roll", values=(face,))
        assert of(events, LoopFailed)
    turn_to(state, "Ann")
    events = keep.decide(state, "roll", "Ann", ScriptedDice([1, 1], [LANTERN]))
    # The third turn of this loop still rolls to escape (observed: LoopEscaped(automatic=True) at once).
    assert events[:2] == [rolled("loop-escape", [1], 0), LoopEscaped(player="Ann", automatic=False)]


# --- house rule H3.4 Sentry (4): Strength 5, Craft 5, one die
# ---------------------------------------------------


def at_sentry(values: tuple[int, ...], *carried: str, lives: int = 4) -> tuple[list[Event], dict[str, Any]]:
    """The Warrior (4/3) on Hallway 2 rolls a 3 and lands on the Sentry; `values` follow the movement die."""
    state = inside(2)
    carry(state, "Ann", *carried)
    if lives < 4:
        keep.evolve(state, LifeLost(player="Ann", amount=4 - lives, reason="given"))
    return act(state, "roll", values=(3, *values))


def test_sentry_1_slips_past():
    """house rule H3.4 Sentry (Keep 8.2)."""
    events, state = at_sentry((1,))
    assert events == [
        rolled("movement", [3], 0),
        moved(2, 4),
        rolled("sentry", [1], 1),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["space"] == 4 and state["players"]["Ann"]["lives"] == 4


@pytest.mark.parametrize("face", [2, 3])
def test_sentry_2_3_two_rounds_of_combat_winning_one_goes_on(face):
    """house rule H3.4 Sentry (Keep 8.2)."""
    events, state = at_sentry((face, 6, 1, 1, 6))
    assert events[2:] == [
        rolled("sentry", [face], 1),
        rolled("combat", [6, 1], 2),
        combat(SENTRY, 10, 6, "won"),
        rolled("combat", [1, 6], 4),
        combat(SENTRY, 5, 11, "lost"),
        LifeLost(player="Ann", amount=1, reason=SENTRY),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["space"] == 4 and not of(events, TrophyTaken)  # no trophy for the Sentry


@pytest.mark.parametrize("face", [2, 3])
def test_sentry_2_3_losing_both_combat_rounds_moves_back_to_hallway_3(face):
    """house rule H3.4 Sentry (Keep 8.2)."""
    events, state = at_sentry((face, 1, 6, 1, 6))
    assert events[2:] == [
        rolled("sentry", [face], 1),
        rolled("combat", [1, 6], 2),
        combat(SENTRY, 5, 11, "lost"),
        LifeLost(player="Ann", amount=1, reason=SENTRY),
        rolled("combat", [1, 6], 4),
        combat(SENTRY, 5, 11, "lost"),
        LifeLost(player="Ann", amount=1, reason=SENTRY),
        moved(4, 3, "sentry"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["cards"]["keep"][3] == [] and state["players"]["Ann"]["lives"] == 2  # Hallway 3 is not met


@pytest.mark.parametrize(
    ("rounds", "outcomes"),
    [((2, 1, 2, 1), ["standoff", "standoff"]), ((2, 1, 1, 6), ["standoff", "lost"])],
)
def test_sentry_only_losing_both_rounds_sends_back(rounds, outcomes):
    """house rule H3.4 Sentry (Keep 8.2)."""
    events, state = at_sentry((2, *rounds))
    assert [e.outcome for e in of(events, CombatResolved)] == outcomes
    assert not of(events, Moved)[1:] and state["players"]["Ann"]["space"] == 4


def test_sentry_a_character_killed_in_the_first_round_fights_no_second():
    """house rule H3.4 Sentry (Keep 8.2)."""
    events, state = at_sentry((2, 1, 6), lives=1)
    assert events[-4:] == [
        combat(SENTRY, 5, 11, "lost"),
        LifeLost(player="Ann", amount=1, reason=SENTRY),
        PlayerOut(player="Ann", reason="killed"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert len(of(events, CombatResolved)) == 1


@pytest.mark.parametrize("face", [4, 5])
def test_sentry_4_5_two_rounds_of_psychic_combat_no_armour_losing_both_moves_back(face):
    """house rule H3.4 Sentry (Keep 8.2)."""
    events, state = at_sentry((face, 1, 6, 1, 6), ARMOUR)
    assert events[2:] == [
        rolled("sentry", [face], 1),
        rolled("psychic-combat", [1, 6], 2),
        combat(SENTRY, 4, 11, "lost", "psychic"),
        LifeLost(player="Ann", amount=1, reason=SENTRY),
        rolled("psychic-combat", [1, 6], 4),
        combat(SENTRY, 4, 11, "lost", "psychic"),
        LifeLost(player="Ann", amount=1, reason=SENTRY),
        moved(4, 3, "sentry"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]


@pytest.mark.parametrize("face", [4, 5])
def test_sentry_4_5_winning_a_psychic_round_goes_on(face):
    """house rule H3.4 Sentry (Keep 8.2)."""
    events, state = at_sentry((face, 1, 6, 6, 1))
    assert [e.outcome for e in of(events, CombatResolved)] == ["lost", "won"]
    assert state["players"]["Ann"]["space"] == 4


@pytest.mark.parametrize(
    ("carried", "options", "given"),
    [
        ((MOONSTONE_WAND, HUNTER), [HUNTER, MOONSTONE_WAND, "life"], HUNTER),
        ((MOONSTONE_WAND, HUNTER), [HUNTER, MOONSTONE_WAND, "life"], MOONSTONE_WAND),
        ((SWORD, MOONSTONE_WAND), [MOONSTONE_WAND, "life"], MOONSTONE_WAND),  # a plain Object is no toll
    ],
)
def test_sentry_6_the_player_chooses_a_follower_a_magic_object_or_a_life(carried, options, given):
    """House rule H3.4 Sentry (Keep 8.2): on a 6 gives up a Magic Object, a Follower or a life."""
    events, state = at_sentry((6,), *carried)
    assert events[2:] == [
        rolled("sentry", [6], 1),
        ChoiceOffered(player="Ann", kind="sentry-toll", options=options),
    ]
    assert ids(state) == [f"choose:{option}" for option in options]  # the turn waits for the choice
    events, state = act(state, f"choose:{given}")
    assert events == [
        ChoiceMade(player="Ann", kind="sentry-toll", option=given),
        ItemGivenUp(player="Ann", card=given),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    sheet = state["players"]["Ann"]
    assert given not in sheet["objects"] + sheet["followers"] and state["piles"]["discard:keep"] == [given]
    assert sheet["lives"] == 4 and sheet["space"] == 4 and not state["choice"]


def test_sentry_6_a_life_may_be_given_instead_of_an_item():
    """house rule H3.4 Sentry (Keep 8.2)."""
    _, state = at_sentry((6,), HUNTER)
    events, state = act(state, "choose:life")
    assert events == [
        ChoiceMade(player="Ann", kind="sentry-toll", option="life"),
        LifeLost(player="Ann", amount=1, reason=SENTRY),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["followers"] == [HUNTER]


def test_sentry_6_with_no_follower_or_magic_object_costs_a_life():
    """house rule H3.4 Sentry (Keep 8.2)."""
    events, state = at_sentry((6,), SWORD)
    assert events[2:] == [
        rolled("sentry", [6], 1),
        LifeLost(player="Ann", amount=1, reason=SENTRY),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["objects"] == [SWORD]
    events, _ = at_sentry((6,), lives=1)
    assert names(events)[-3:] == ["LifeLost", "PlayerOut", "TurnEnded"]


# --- house rule H3.5 Tome of the Undead (10): must read, 2 dice
# -------------------------------------------------

TOME = "keep/space/tome"


def at_tome(
    dice: tuple[int, ...], seat: str = "warrior", lives: int = 4, followers: tuple[str, ...] = ()
) -> tuple[list[Event], dict[str, Any]]:
    """A character on Gargoyle Landing 8 rolls a 3 and reads the Tome; `dice` follow the movement die."""
    state = inside(8, ("Ann", seat), ("Bo", "troll"))
    carry(state, "Ann", *followers)
    if lives < 4:
        keep.evolve(state, LifeLost(player="Ann", amount=4 - lives, reason="given"))
    events, state = act(state, "roll", values=(3, *dice))
    assert events[:3] == [rolled("movement", [3], 0), moved(8, 10), rolled("tome", list(dice[:2]), 1)]
    assert events[-1] == TurnEnded(player="Ann", next_player="Bo")
    return events[3:-1], state


@pytest.mark.parametrize(
    ("dice", "seat", "lives", "then"),
    [
        ((1, 1), "warrior", 4, [LifeLost(player="Ann", amount=2, reason=TOME)]),
        ((1, 2), "warrior", 4, [StatChanged(player="Ann", stat="strength", amount=-1, reason=TOME)]),
        ((1, 3), "warrior", 4, [StatChanged(player="Ann", stat="craft", amount=-1, reason=TOME)]),
        ((1, 3), "troll", 4, []),  # Craft 1 cannot fall lower
        ((1, 4), "warrior", 4, [LifeLost(player="Ann", amount=2, reason=TOME)]),  # no Followers to leave
        ((1, 5), "warrior", 2, [LifeGained(player="Ann", amount=2, reason=TOME)]),
        ((3, 4), "warrior", 1, [LifeGained(player="Ann", amount=3, reason=TOME)]),
        ((2, 4), "warrior", 4, []),  # already at starting lives
        ((2, 6), "warrior", 4, [StatChanged(player="Ann", stat="strength", amount=1, reason=TOME)]),
        ((3, 6), "warrior", 4, [StatChanged(player="Ann", stat="strength", amount=1, reason=TOME)]),
        ((4, 6), "warrior", 4, [StatChanged(player="Ann", stat="craft", amount=1, reason=TOME)]),
        ((5, 6), "warrior", 4, [StatChanged(player="Ann", stat="craft", amount=1, reason=TOME)]),
    ],
)
def test_tome_of_the_undead_every_row(dice, seat, lives, then):
    """house rule H3.5 Tome of the Undead (Keep 8.3)."""
    events, _ = at_tome(dice, seat, lives)
    assert events == then


def test_tome_3_and_4_take_strength_and_craft_below_their_starting_values():
    """house rule H3.5 Tome of the Undead (Keep 8.3)."""
    _, state = at_tome((1, 2))
    assert (state["players"]["Ann"]["strength"], state["players"]["Ann"]["base_strength"]) == (3, 4)
    _, state = at_tome((2, 2))
    assert (state["players"]["Ann"]["craft"], state["players"]["Ann"]["base_craft"]) == (2, 3)


def test_tome_5_rolls_a_die_and_that_many_followers_leave():
    """house rule H3.5 Tome of the Undead (Keep 8.3)."""
    events, state = at_tome((2, 3, 2), followers=(HUNTER, WOLFHOUND, TORCHBEARER))
    assert events == [
        rolled("tome-followers", [2], 3),
        FollowerLeft(player="Ann", card=HUNTER),
        FollowerLeft(player="Ann", card=WOLFHOUND),
    ]
    assert state["players"]["Ann"]["followers"] == [TORCHBEARER]
    assert state["piles"]["discard:keep"] == [HUNTER, WOLFHOUND]
    events, state = at_tome((4, 1, 6), followers=(HUNTER,))
    assert events == [rolled("tome-followers", [6], 3), FollowerLeft(player="Ann", card=HUNTER)]
    assert state["players"]["Ann"]["lives"] == 4


def test_tome_2_can_kill():
    """house rule H3.5 Tome of the Undead (Keep 8.3)."""
    events, _ = at_tome((1, 1), lives=2)
    assert events == [
        LifeLost(player="Ann", amount=2, reason=TOME),
        PlayerOut(player="Ann", reason="killed"),
    ]


# --- house rule H3.6 Vampire Wizard (14): the top 3 spells are cast at the character
# ----------------------------


def at_wizard(
    spells: tuple[str, ...], values: tuple[int, ...] = (), state: dict[str, Any] | None = None
) -> tuple[list[Event], dict[str, Any]]:
    """The Warrior on Portrait Hall 12 rolls a 3 and lands on the Vampire Wizard."""
    state = state or inside(12)
    events, state = act(state, "roll", values=(3, *values), cards=spells)
    assert events[:2] == [rolled("movement", [3], 0), moved(12, 14)]
    return events[2:], state


def drawn(spell: str, draw: int) -> CardDrawn:
    return CardDrawn(player="Ann", deck="spells", card=spell, draw=draw)


def test_vampire_wizard_casts_the_three_spells_drawn():
    """house rule H3.6 Vampire Wizard (Keep 8.4)."""
    events, state = at_wizard((HEX, LEADEN_PURSE, CHAINS))
    assert events == [
        drawn(HEX, 1),
        SpellCast(player="Ann", spell=HEX),
        LifeLost(player="Ann", amount=1, reason=HEX),
        drawn(LEADEN_PURSE, 2),
        SpellCast(player="Ann", spell=LEADEN_PURSE),
        GoldChanged(player="Ann", amount=-1, reason=LEADEN_PURSE),  # only 1 gold to lose
        drawn(CHAINS, 3),
        SpellCast(player="Ann", spell=CHAINS),
        TurnLost(player="Ann", reason=CHAINS),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["piles"]["discard:spells"] == [HEX, LEADEN_PURSE, CHAINS]
    assert HEX not in state["piles"]["spells"] and state["players"]["Ann"]["skips"] == 1


def test_vampire_wizard_discards_spells_that_would_help_or_do_nothing():
    """house rule H3.6 Vampire Wizard (Keep 8.4)."""
    events, state = at_wizard((BLESSING, FIZZLE, WITHERING))
    assert events == [
        drawn(BLESSING, 1),
        SpellDiscarded(player="Ann", spell=BLESSING, reason="would help"),
        drawn(FIZZLE, 2),
        SpellDiscarded(player="Ann", spell=FIZZLE, reason="would do nothing"),
        drawn(WITHERING, 3),
        SpellDiscarded(player="Ann", spell=WITHERING, reason="would do nothing"),  # at starting Strength
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["piles"]["discard:spells"] == [BLESSING, FIZZLE, WITHERING]
    state = inside(12)
    keep.evolve(state, GoldChanged(player="Ann", amount=-1, reason="given"))
    events, _ = at_wizard((LEADEN_PURSE, FOOLS_GOLD, MIND_FOG), state=state)
    assert [e.reason for e in of(events, SpellDiscarded)] == [
        "would do nothing",
        "would help",
        "would do nothing",
    ]


def test_vampire_wizard_strength_above_its_starting_value_can_be_drained():
    """house rule H3.6 Vampire Wizard (Keep 8.4)."""
    state = inside(12)
    keep.evolve(state, StatChanged(player="Ann", stat="strength", amount=1, reason="given"))
    events, state = at_wizard((DRAIN, WITHERING, FIZZLE), state=state)
    assert events[:3] == [
        drawn(DRAIN, 1),
        SpellCast(player="Ann", spell=DRAIN),
        StatChanged(player="Ann", stat="strength", amount=-1, reason=DRAIN),
    ]
    assert of(events, SpellDiscarded)[0].spell == WITHERING  # back at 4: the second drain does nothing
    assert state["players"]["Ann"]["strength"] == 4


def test_vampire_wizard_banishing_gust_moves_back_and_the_space_is_not_met():
    """house rule H3.6 Vampire Wizard (Keep 8.4)."""
    state = inside(12)
    lay(state, 12, VAMPIRE_LORD)
    events, state = at_wizard((GUST, FIZZLE, BLESSING), state=state)
    assert events[:3] == [drawn(GUST, 1), SpellCast(player="Ann", spell=GUST), moved(14, 12, "card")]
    assert not of(events, CombatResolved) and len(of(events, SpellDiscarded)) == 2
    assert state["players"]["Ann"]["space"] == 12


def test_vampire_wizard_stops_casting_once_the_character_is_killed():
    """house rule H3.6 Vampire Wizard (Keep 8.4)."""
    state = inside(12)
    keep.evolve(state, LifeLost(player="Ann", amount=2, reason="given"))
    events, _ = at_wizard((BLOOD_CURSE,), state=state)
    assert events == [
        drawn(BLOOD_CURSE, 1),
        SpellCast(player="Ann", spell=BLOOD_CURSE),
        LifeLost(player="Ann", amount=2, reason=BLOOD_CURSE),
        PlayerOut(player="Ann", reason="killed"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]


def test_vampire_wizard_reshuffles_the_spell_discard_pile_when_the_deck_runs_out():
    """house rule H3.6 Vampire Wizard (Keep 8.4)."""
    state = inside(12)
    state["piles"]["discard:spells"], state["piles"]["spells"] = [FIZZLE, HEX, BLESSING], []
    events, state = at_wizard((HEX, FIZZLE, BLESSING), state=state)
    assert events[:2] == [
        DeckReshuffled(deck="spells", count=3, cards=sorted([FIZZLE, HEX, BLESSING])),
        drawn(HEX, 1),
    ]
    assert state["piles"]["spells"] == [] and state["piles"]["discard:spells"] == [HEX, FIZZLE, BLESSING]


# --- house rule H3.7 Ancient Coffin (17): one die
# ---------------------------------------------------------------

COFFIN = "keep/space/ancient-coffin"


def at_coffin(
    face: int, cards: tuple[str, ...] = (), state: dict[str, Any] | None = None
) -> tuple[list[Event], dict[str, Any]]:
    """The Warrior on Bell Tower Stair 15 rolls a 3 and opens the Ancient Coffin."""
    state = state or inside(15)
    events, state = act(state, "roll", values=(3, face), cards=cards)
    assert events[:3] == [rolled("movement", [3], 0), moved(15, 17), rolled("coffin", [face], 1)]
    assert events[-1] == TurnEnded(player="Ann", next_player="Bo")
    return events[3:-1], state


@pytest.mark.parametrize(
    ("face", "then"),
    [
        (1, [LifeLost(player="Ann", amount=1, reason=COFFIN)]),
        (2, [LifeLost(player="Ann", amount=1, reason=COFFIN)]),
        (3, []),
        (4, []),
        (6, [GoldChanged(player="Ann", amount=3, reason=COFFIN)]),
    ],
)
def test_ancient_coffin_rows_trap_empty_and_gold(face, then):
    """house rule H3.7 Ancient Coffin (Keep 8.5)."""
    events, _ = at_coffin(face)
    assert events == then


def test_ancient_coffin_5_takes_an_object_from_the_keep_decks_objects():
    """house rule H3.7 Ancient Coffin (Keep 8.5): the pick is among the Objects left, and says so."""
    events, state = at_coffin(5, cards=(SILVERED_BLADE,))
    assert events == [
        CardDrawn(player="Ann", deck="keep", card=SILVERED_BLADE, draw=2, kinds=["magic-object", "object"]),
        ObjectTaken(player="Ann", card=SILVERED_BLADE, space=17),
    ]
    assert state["players"]["Ann"]["objects"] == [SILVERED_BLADE] and state["cards"]["keep"][17] == []
    state = inside(15)
    deck = load_deck().cards
    state["piles"]["keep"] = [
        c for c in state["piles"]["keep"] if deck[c].kind not in ("object", "magic-object")
    ]
    events, _ = at_coffin(5, state=state)
    assert events == []  # no Object left in the Keep deck: nothing


def test_ancient_coffin_5_respects_the_carrying_limit_of_4_objects():
    """House rule H3.7 Ancient Coffin 5 with house rule H1.9: at most 4 Objects are carried, as everywhere."""
    state = inside(15)
    carry(state, "Ann", SWORD, ARMOUR, LANTERN, MOONSTONE_WAND)
    events = keep.decide(state, "roll", "Ann", ScriptedDice([3, 5], [SILVERED_BLADE]))
    state = fold(copy.deepcopy(state), events)
    assert not of(events, ObjectTaken) and len(state["players"]["Ann"]["objects"]) == 4


# --- house rule H3.8 Sacred Obelisk (19): 2 dice at most Strength + Craft
# ---------------------------------------


def test_sacred_obelisk_a_total_at_most_strength_plus_craft_passes():
    """house rule H3.8 Sacred Obelisk (Keep 8.6)."""
    state = inside(18)
    events, state = act(state, "roll", values=(1, 3, 4))  # 7 <= Warrior 4 + 3
    assert events == [
        rolled("movement", [1], 0),
        moved(18, 19),
        rolled("obelisk", [3, 4], 1),
        ObeliskTested(player="Ann", total=7, target=7, passed=True),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    turn_to(state, "Ann")
    assert ids(state) == ["roll", "flee"]
    events, _ = act(state, "roll", values=(1, 4))
    assert events[:3] == [rolled("movement", [1], 0), moved(19, 20), rolled("fountain", [4], 1)]


def test_sacred_obelisk_a_failure_costs_a_life_and_the_character_tries_again_next_turn_without_moving():
    """house rule H3.8 Sacred Obelisk (Keep 8.6)."""
    state = inside(18)
    events, state = act(state, "roll", values=(1, 4, 4))
    assert events[2:] == [
        rolled("obelisk", [4, 4], 1),
        ObeliskTested(player="Ann", total=8, target=7, passed=False),
        LifeLost(player="Ann", amount=1, reason="keep/space/sacred-obelisk"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["obelisk"]
    turn_to(state, "Ann")
    assert ids(state) == ["roll", "flee"] and "Obelisk" in keep.legal_actions(state)[0].label
    events, state = act(state, "roll", values=(6, 5))  # fails again
    assert events == [
        rolled("obelisk", [6, 5], 0),
        ObeliskTested(player="Ann", total=11, target=7, passed=False),
        LifeLost(player="Ann", amount=1, reason="keep/space/sacred-obelisk"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    turn_to(state, "Ann")
    events, state = act(state, "roll", values=(1, 1))  # passes: no movement roll this turn
    assert events == [
        rolled("obelisk", [1, 1], 0),
        ObeliskTested(player="Ann", total=2, target=7, passed=True),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["space"] == 19 and not state["players"]["Ann"]["obelisk"]
    turn_to(state, "Ann")
    events, _ = act(state, "roll", values=(1, 3))  # the turn after, it moves on
    assert of(events, Moved) == [moved(19, 20)]


@pytest.mark.parametrize(("start", "face"), [(17, 5), (18, 3), (18, 6)])
def test_sacred_obelisk_is_a_barrier_a_roll_that_would_pass_it_stops_on_it(start, face):
    """Keep 8.6 (house reading): only those who pass the Obelisk's barrier go beyond it."""
    state = inside(start)
    events, state = act(state, "roll", values=(face, 1, 1))
    assert events[:4] == [
        rolled("movement", [face], 0),
        moved(start, 19),
        rolled("obelisk", [1, 1], 1),
        ObeliskTested(player="Ann", total=2, target=7, passed=True),
    ]
    assert state["players"]["Ann"]["space"] == 19


def test_sacred_obelisk_failure_can_kill():
    """house rule H3.8 Sacred Obelisk (Keep 8.6)."""
    state = inside(18)
    keep.evolve(state, LifeLost(player="Ann", amount=3, reason="given"))
    events, _ = act(state, "roll", values=(1, 6, 6))
    assert names(events)[-3:] == ["LifeLost", "PlayerOut", "TurnEnded"]


# --- house rule H3.9 Fountain of Blood (20): one die
# ------------------------------------------------------------

FOUNTAIN = "keep/space/fountain-of-blood"


@pytest.mark.parametrize(
    ("face", "lives", "then"),
    [
        (1, 4, [LifeLost(player="Ann", amount=1, reason=FOUNTAIN)]),
        (2, 4, [LifeLost(player="Ann", amount=1, reason=FOUNTAIN)]),
        (3, 4, []),
        (4, 3, []),
        (5, 3, []),
        (6, 3, [LifeGained(player="Ann", amount=1, reason=FOUNTAIN)]),
        (6, 4, []),  # never above 4 lives
    ],
)
def test_fountain_of_blood_every_row(face, lives, then):
    """house rule H3.9 Fountain of Blood (Keep 8.7)."""
    state = inside(19)  # past the Obelisk already
    if lives < 4:
        keep.evolve(state, LifeLost(player="Ann", amount=4 - lives, reason="given"))
    events, _ = act(state, "roll", values=(1, face))
    assert events == [
        rolled("movement", [1], 0),
        moved(19, 20),
        rolled("fountain", [face], 1),
        *then,
        TurnEnded(player="Ann", next_player="Bo"),
    ]


# --- Keep 9.1: the Talisman Vault (21) ----------------------------------------------------------------------


def vault_card(card: str, draw: int, player: str = "Ann") -> CardDrawn:
    return CardDrawn(player=player, deck="vault", card=card, draw=draw)


def test_keep_9_1_vault_take_a_talisman_meet_3_vault_cards_in_order_and_survive_to_win():
    state = inside(20)
    events, state = act(
        state, "roll", values=(1, 6, 1, 6, 1, 3), cards=(STONE_GUARDIAN, PHANTOM_KEEPER, SPIKED_PIT)
    )
    assert events == [
        rolled("movement", [1], 0),
        moved(20, 21),
        TalismanTaken(player="Ann", from_vault=False),
        vault_card(STONE_GUARDIAN, 1),
        rolled("combat", [6, 1], 2),
        combat(STONE_GUARDIAN, 10, 6, "won"),
        VaultCardMet(player="Ann", card=STONE_GUARDIAN, outcome="won"),
        vault_card(PHANTOM_KEEPER, 4),
        rolled("psychic-combat", [6, 1], 5),
        combat(PHANTOM_KEEPER, 9, 6, "won", "psychic"),
        VaultCardMet(player="Ann", card=PHANTOM_KEEPER, outcome="won"),
        vault_card(SPIKED_PIT, 7),
        rolled("vault-trap", [3], 8),  # Spiked Pit: a trap on 1-2
        VaultCardMet(player="Ann", card=SPIKED_PIT, outcome="escaped"),
        GameWon(player="Ann", reason="survived the Talisman Vault with a Talisman"),
    ]
    assert state["players"]["Ann"]["talisman"] and state["players"]["Ann"]["status"] == "winner"
    assert state["piles"]["discard:vault"] == [STONE_GUARDIAN, PHANTOM_KEEPER, SPIKED_PIT]
    # Keep run: surviving the Vault wins; there is no Exit Table roll and no further action.
    assert keep.status(state) == {"status": "finished", "winner": "Ann", "to_act": []}
    assert keep.legal_actions(state) == []


def test_keep_9_1_vault_cards_are_met_in_the_order_drawn_and_losses_cost_lives():
    state = inside(20)
    carry(state, "Ann", ARMOUR)
    events, state = act(
        state, "roll", values=(1, 2, 1, 6, 2, 6, 2), cards=(SWINGING_BLADE, STONE_GUARDIAN, PHANTOM_KEEPER)
    )
    assert events[2:] == [
        TalismanTaken(player="Ann", from_vault=False),
        vault_card(SWINGING_BLADE, 1),
        rolled("vault-trap", [2], 2),  # Swinging Blade: a trap on 1-2, 2 lives
        LifeLost(player="Ann", amount=2, reason=SWINGING_BLADE),
        VaultCardMet(player="Ann", card=SWINGING_BLADE, outcome="lost"),
        vault_card(STONE_GUARDIAN, 3),
        rolled("combat", [1, 6], 4),
        combat(STONE_GUARDIAN, 5, 11, "lost"),
        rolled("armour", [2], 6),
        LifeLost(player="Ann", amount=1, reason=STONE_GUARDIAN),  # Armour saves on 4-6 only
        VaultCardMet(player="Ann", card=STONE_GUARDIAN, outcome="lost"),
        vault_card(PHANTOM_KEEPER, 7),
        rolled("psychic-combat", [6, 2], 8),
        combat(PHANTOM_KEEPER, 9, 7, "won", "psychic"),
        VaultCardMet(player="Ann", card=PHANTOM_KEEPER, outcome="won"),
        GameWon(player="Ann", reason="survived the Talisman Vault with a Talisman"),
    ]
    assert state["players"]["Ann"]["lives"] == 1


def test_keep_9_1_death_leaves_the_talisman_objects_and_followers_on_the_vault_for_the_next_survivor():
    state = inside(20)
    carry(state, "Ann", SWORD, HUNTER)
    keep.evolve(state, LifeLost(player="Ann", amount=3, reason="given"))
    events, state = act(state, "roll", values=(1, 1, 6), cards=(STONE_GUARDIAN,))
    assert events[2:] == [
        TalismanTaken(player="Ann", from_vault=False),
        vault_card(STONE_GUARDIAN, 1),
        rolled("combat", [1, 6], 2),
        combat(STONE_GUARDIAN, 7, 11, "lost"),  # Strength 4, Sword +1, Vampire Hunter +1
        LifeLost(player="Ann", amount=1, reason=STONE_GUARDIAN),
        PlayerOut(player="Ann", reason="killed"),
        VaultCardMet(player="Ann", card=STONE_GUARDIAN, outcome="lost"),
        TurnEnded(player="Ann", next_player="Bo"),  # no more Vault cards, no win
    ]
    assert state["vault_talismans"] == 1 and not state["players"]["Ann"]["talisman"]
    assert state["cards"]["keep"][21] == [SWORD, HUNTER] and state["gold"]["keep"][21] == 1
    place(state, "Bo", 20)
    events, state = act(
        state,
        "roll",
        values=(1, 6, 1, 6, 1, 4),
        cards=(V + "crypt-hound", V + "whispering-skull", V + "poison-needle"),
    )
    assert events[-5:] == [
        TalismanTaken(player="Bo", from_vault=True),
        ObjectTaken(player="Bo", card=SWORD, space=21),
        FollowerJoined(player="Bo", card=HUNTER, space=21),
        GoldTaken(player="Bo", space=21, amount=1),
        GameWon(player="Bo", reason="survived the Talisman Vault with a Talisman"),
    ]
    assert events[2] == TalismanTaken(player="Bo", from_vault=False)
    sheet = state["players"]["Bo"]
    assert sheet["objects"] == [SWORD] and sheet["followers"] == [HUNTER] and sheet["gold"] == 2
    assert (
        state["vault_talismans"] == 0 and state["cards"]["keep"][21] == [] and state["gold"]["keep"][21] == 0
    )


def test_keep_9_1_the_last_character_killed_in_the_vault_ends_the_run_with_no_winner():
    state = inside(20)
    keep.evolve(state, PlayerOut(player="Bo", reason="given"))
    keep.evolve(state, LifeLost(player="Ann", amount=3, reason="given"))
    events, state = act(state, "roll", values=(1, 1), cards=(V + "collapsing-ceiling",))
    assert events[-3:] == [
        PlayerOut(player="Ann", reason="killed"),
        VaultCardMet(player="Ann", card=V + "collapsing-ceiling", outcome="lost"),
        GameEnded(winner="", reason="every character is out"),
    ]
    assert keep.status(state) == {"status": "finished", "winner": "", "to_act": []}


def test_keep_9_1_the_vault_deck_reshuffles_its_discard_pile_when_it_runs_out():
    state = inside(20)
    state["piles"]["discard:vault"] = [SPIKED_PIT, V + "poison-needle", V + "collapsing-ceiling"]
    state["piles"]["vault"] = []
    events, _ = act(state, "roll", values=(1, 6, 6, 6))
    reshuffled = DeckReshuffled(deck="vault", count=3, cards=sorted(state["piles"]["discard:vault"]))
    assert events[3:5] == [reshuffled, vault_card(V + "collapsing-ceiling", 1)]


def test_keep_9_1_exit_table_rows():
    # Used when leaving the Keep on the main board; in the Keep run surviving the Vault wins at once.
    tables = load_tables()
    assert [tables.line("exit", face).destination for face in range(1, 7)] == [
        "the space you entered from",
        "Village",
        "City",
        "Warlock's Cave",
        "Portal of Power",
        "Plain of Peril",
    ]
    assert {tables.line("exit", face).effect for face in range(1, 7)} == {"go_to"}


# --- Keep 15 (numbered 14.2 in the seed): the Treasure Hoard option -----------------------------------------

ESCAPES = (SPIKED_PIT, V + "poison-needle", V + "collapsing-ceiling")  # luck traps on 1-2, 1-3 and 1


@pytest.mark.parametrize(
    ("dice", "gold", "spells", "items"),
    [
        ((1, 1), 10, 0, []),
        ((1, 2), 9, 0, []),
        ((1, 3), 8, 0, []),
        ((1, 4), 7, 1, []),
        ((1, 5), 6, 2, []),
        ((1, 6), 6, 2, []),
        ((2, 6), 6, 0, [ITEM_ARMOUR, ITEM_SWORD]),
        ((3, 6), 6, 0, [ITEM_ARMOUR, ITEM_SWORD]),
        ((4, 6), 7, 0, [ITEM_SWORD]),
        ((5, 6), 0, 0, [ITEM_SWORD, ITEM_SHIELD, ITEM_ARMOUR]),
        ((6, 6), 0, 0, [ITEM_SWORD, ITEM_SHIELD, ITEM_HELMET, ITEM_ARMOUR]),
    ],
)
def test_keep_15_treasure_hoard_instead_of_a_talisman_then_3_vault_cards(dice, gold, spells, items):
    state = inside(20, hoard=True)
    picked = (HEX, FIZZLE)[: min(spells, 1)]  # house rule H1.2: the Warrior's Craft 3 holds 1 spell
    events, state = act(state, "roll", values=(1, *dice, 6, 6, 6), cards=(*picked, *ESCAPES))
    hoard: list[Event] = [rolled("hoard", list(dice), 1)]
    hoard += [GoldChanged(player="Ann", amount=gold, reason="keep/hoard")] if gold else []
    hoard += [ItemGained(player="Ann", item=item) for item in items]
    for index, spell in enumerate(picked):
        hoard += [drawn(spell, 3 + index), SpellGained(player="Ann", spell=spell, from_vault=False)]
    assert events[2 : 2 + len(hoard)] == hoard
    assert not of(events, TalismanTaken)
    assert [e.card for e in of(events, VaultCardMet)] == list(ESCAPES)
    assert events[-1] == GameWon(player="Ann", reason="survived the Talisman Vault with the Treasure Hoard")
    sheet = state["players"]["Ann"]
    assert (sheet["gold"], sheet["objects"], sheet["spells"]) == (1 + gold, items, list(picked))


def test_keep_15_a_character_killed_after_the_hoard_leaves_its_treasure_on_the_vault():
    state = inside(20, hoard=True)
    keep.evolve(state, LifeLost(player="Ann", amount=3, reason="given"))
    events, state = act(state, "roll", values=(1, 5, 6, 1, 6, 1), cards=(STONE_GUARDIAN,))
    assert names(events)[-6:] == [
        "CombatResolved",
        "DieRolled",
        "LifeLost",
        "PlayerOut",
        "VaultCardMet",
        "TurnEnded",
    ]
    assert of(events, DieRolled)[-1] == rolled("armour", [1], 6)  # the Hoard's Armour fails to save
    assert (
        state["cards"]["keep"][21] == [ITEM_SWORD, ITEM_SHIELD, ITEM_ARMOUR] and state["vault_talismans"] == 0
    )
    place(state, "Bo", 20)
    events, _ = act(state, "roll", values=(1, 1, 1, 6, 6, 6), cards=ESCAPES)
    assert events[-5:] == [
        ObjectTaken(player="Bo", card=ITEM_SWORD, space=21),
        ObjectTaken(player="Bo", card=ITEM_SHIELD, space=21),
        ObjectTaken(player="Bo", card=ITEM_ARMOUR, space=21),
        GoldTaken(player="Bo", space=21, amount=1),
        GameWon(player="Bo", reason="survived the Talisman Vault with the Treasure Hoard"),
    ]


# --- Keep 10: fleeing ---------------------------------------------------------------------------------------


def test_keep_10_flight_is_offered_only_inside_the_keep_past_the_entrance():
    state = started()
    assert ids(state) == ["enter"]
    enter(state, "Ann")
    assert ids(state) == ["roll"]
    place(state, "Ann", 2)
    assert ids(state) == ["roll", "flee"]


def test_keep_10_fleeing_is_irrevocable_and_the_turn_goes_on_with_a_flight_roll():
    events, state = act(inside(8), "flee")
    assert events == [FleeingDeclared(player="Ann")]
    assert state["turn"] == "Ann" and state["players"]["Ann"]["fleeing"]
    assert (
        ids(state) == ["roll"] and keep.legal_actions(state)[0].label == "Roll and flee toward the Entrance"
    )


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_keep_10_flight_moves_back_by_the_chart_and_meets_nothing(face):
    state = inside(12)
    keep.evolve(state, FleeingDeclared(player="Ann"))
    to = 12 - CHART[face]
    if to != 10:  # the Tome (10) is not read either
        lay(state, to, VAMPIRE_LORD)
    events, state = act(state, "roll", values=(face,))
    assert events == [
        rolled("movement", [face], 0),
        moved(12, to, "flight"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    assert state["players"]["Ann"]["fleeing"]


def test_keep_10_flight_ends_on_the_entrance_then_a_lost_turn_then_a_new_entry_test():
    state = inside(3)
    keep.evolve(state, FleeingDeclared(player="Ann"))
    events, state = act(state, "roll", values=(6,))
    assert events == [
        rolled("movement", [6], 0),
        moved(3, 1, "flight"),  # stops on the Entrance
        FlightEnded(player="Ann"),
        TurnLost(player="Ann", reason="fled the Keep"),
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    sheet = state["players"]["Ann"]
    assert (sheet["space"], sheet["entered"], sheet["fleeing"], sheet["skips"]) == (1, False, False, 1)
    events, state = act(state, "roll", values=(1,), cards=(LANTERN,))  # Bo's turn
    assert events[-3:] == [
        TurnEnded(player="Bo", next_player="Ann"),
        TurnSkipped(player="Ann"),  # the turn spent "outside"
        TurnEnded(player="Ann", next_player="Bo"),
    ]
    turn_to(state, "Ann")
    assert ids(state) == ["enter"]
    events, state = act(state, "enter", values=(1, 2, 3))
    assert of(events, EntryTested) == [EntryTested(player="Ann", total=6, target=11, passed=True)]
    turn_to(state, "Ann")
    assert ids(state) == ["roll"] and "deeper" in keep.legal_actions(state)[0].label  # may go in again


# --- fixes from review -----------------------------------------------------------------------------


def test_keep_6_1_a_tile_naming_its_own_space_is_no_loop():
    """Keep 6.3 (house): a loop bounces between tiles; a tile that names its own space sends nowhere."""
    state = inside(5)
    lay_tile(state, 6, TILE1, 2)
    lay_tile(state, 2, TILE2, 2)
    events, state = act(state, "roll", values=(1,))
    assert of(events, Teleported)[0].to_space == 2
    assert not state["players"]["Ann"]["looping"]


@pytest.mark.parametrize("hold", ["looping", "obelisk"])
def test_keep_10_a_character_may_flee_from_a_loop_or_the_obelisk_and_the_flight_just_runs(hold):
    """Keep 10: fleeing may be declared at any point inside the Keep."""
    state = inside(19 if hold == "obelisk" else 6)
    state["players"]["Ann"][hold] = True
    assert ids(state) == ["roll", "flee"]
    events, state = act(state, "flee")
    assert not state["players"]["Ann"][hold] and state["players"]["Ann"]["fleeing"]
    turn_to(state, "Ann")
    events, state = act(state, "roll", values=(5,))
    here = 19 if hold == "obelisk" else 6
    assert events[:2] == [rolled("movement", [5], 0), moved(here, here - 3, "flight")]


def test_keep_8_6_a_tile_that_sends_a_character_onto_the_obelisk_makes_it_take_the_test():
    """Keep 8.6 / 6.1: no tile carries a character onto the Obelisk without its test."""
    state = inside(15)
    lay_tile(state, 16, TILE1, 19)
    events, state = act(state, "roll", values=(1, 6, 6))
    assert of(events, Teleported)[0].to_space == 19
    assert of(events, ObeliskTested) == [ObeliskTested(player="Ann", total=12, target=7, passed=False)]
    assert state["players"]["Ann"]["obelisk"]


def test_keep_15_hoard_spells_follow_the_spell_limit_by_craft():
    """House rule H1.2 spell limit (Craft 4-5 → 2) with Keep 15: Craft 4 takes both Hoard spells."""
    state = inside(20, hoard=True)
    keep.evolve(state, StatChanged(player="Ann", stat="craft", amount=1, reason="given"))
    events, state = act(state, "roll", values=(1, 1, 5, 6, 6, 6), cards=(HEX, FIZZLE, *ESCAPES))
    assert [e.spell for e in of(events, SpellGained)] == [HEX, FIZZLE]


def test_keep_15_hoard_spells_of_a_character_killed_in_the_vault_stay_there_for_the_next_survivor():
    """Keep 15 (14.2 in the seed): the dead's Treasure stays in the Vault with its Objects and Followers."""
    state = inside(20, hoard=True)
    keep.evolve(state, LifeLost(player="Ann", amount=3, reason="given"))
    events, state = act(state, "roll", values=(1, 1, 4, 1, 6), cards=(HEX, STONE_GUARDIAN))
    assert of(events, SpellGained) == [SpellGained(player="Ann", spell=HEX, from_vault=False)]
    assert state["vault_spells"] == [HEX] and HEX not in state["piles"]["discard:spells"]
    place(state, "Bo", 20)
    keep.evolve(
        state,
        StatChanged(player="Bo", stat="craft", amount=3 - state["players"]["Bo"]["craft"], reason="given"),
    )
    events, state = act(state, "roll", values=(1, 1, 1, 6, 6, 6), cards=ESCAPES)
    assert SpellGained(player="Bo", spell=HEX, from_vault=True) in events
    assert state["vault_spells"] == []


@pytest.mark.parametrize(
    ("option", "then"),
    [
        ("strength", StatChanged(player="Ann", stat="strength", amount=2, reason=TOME)),
        ("craft", StatChanged(player="Ann", stat="craft", amount=2, reason=TOME)),
        ("lives", LifeGained(player="Ann", amount=2, reason=TOME)),
    ],
)
def test_tome_12_the_player_chooses_plus_2_strength_craft_or_lives(option, then):
    """house rule H3.5 Tome of the Undead 12: +2 Strength, Craft or Lives (choose)."""
    state = inside(9)
    events, state = act(state, "roll", values=(1, 6, 6))
    assert events[-1] == ChoiceOffered(player="Ann", kind="tome-gift", options=["strength", "craft", "lives"])
    assert ids(state) == ["choose:strength", "choose:craft", "choose:lives"]
    events, state = act(state, f"choose:{option}")
    assert events == [
        ChoiceMade(player="Ann", kind="tome-gift", option=option),
        then,
        TurnEnded(player="Ann", next_player="Bo"),
    ]
