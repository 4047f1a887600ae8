"""The Vampire Wizard's targets as a player's decision (Keep 8.4, house rule H3.6; house: the player on the
victim's right aims each spell), and the `wizard` option that keeps recorded games as they were played.

Each test: Ann (the Warrior) stands on Portrait Hall 12 with Bo (the Troll) and Cy (the Wizard) inside the
Keep, rolls a 3 and lands on the Vampire Wizard 14; the spells drawn are scripted.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.actions import HOST, START, Action
from domain.dice import ScriptedDice
from domain.errors import BadSetup, IllegalAction
from domain.events import (
    CardDrawn,
    DieRolled,
    Event,
    GameCreated,
    LifeLost,
    Moved,
    PlayerOut,
    TurnEnded,
)
from domain.rulesets import build_ruleset
from domain.rulesets.keep.content import load_spells
from domain.rulesets.keep.events import EntryTested, SpellCast, SpellDiscarded
from domain.rulesets.keep.run import KeepRun
from domain.rulesets.talisman.events import ChoiceMade, ChoiceOffered, GoldChanged, StatChanged, TurnLost
from event_store.app.service import GameService, play_with_bots
from projections.keep_timeline import describe
from projections.keep_view import render_board
from projections.timeline import describe_events
from tests import decider_helpers as helpers

aimed = KeepRun({"wizard": "choose"})
auto = KeepRun({"wizard": "auto"})

S = "keep/spell/"
HEX, BLOOD_CURSE, CHAINS, FIZZLE = S + "hex", S + "blood-curse", S + "binding-chains", S + "fizzle"
LEADEN_PURSE, WITHERING, BLESSING = S + "leaden-purse", S + "withering-touch", S + "misplaced-blessing"
TARGET = "wizard-target"
# Seated Ann, Cy, Bo: Bo sits on Ann's right (before her in seating order), Cy on his right.
SEATS = (("Ann", "warrior"), ("Cy", "wizard"), ("Bo", "troll"))


def created(options: dict[str, str], seats: tuple[tuple[str, str], ...] = SEATS) -> GameCreated:
    return GameCreated(
        ruleset=aimed.name,
        players=[{"name": n, "character": c} for n, c in seats],
        options=options,
        content_hash=aimed.content_hash(),
        scripted=True,
        dice_script=[],
        nightkeep_version="test",
    )


def at_twelve(ruleset: KeepRun = aimed, entered: tuple[str, ...] = ("Ann", "Bo", "Cy")) -> dict[str, Any]:
    """Returns a dealt game with `entered` inside the Keep and Ann on Portrait Hall 12, to move."""
    state = ruleset.initial_state(created(dict(ruleset.options)))
    state = helpers.fold(ruleset, state, ruleset.decide(state, START, HOST, ScriptedDice()))
    for player in entered:
        ruleset.evolve(state, EntryTested(player=player, total=3, target=11, passed=True))
    ruleset.evolve(state, Moved(piece="Ann", board="keep", from_space=1, to_space=12, reason="given"))
    return state


def act(
    state: dict[str, Any], action: str, player: str, cards: tuple[str, ...] = (), ruleset: KeepRun = aimed
) -> tuple[list[Event], dict[str, Any]]:
    values = (3,) if action == "roll" else ()
    return helpers.decided(ruleset, state, action, player, ScriptedDice(values, cards))


def land(state: dict[str, Any], *spells: str, ruleset: KeepRun = aimed) -> tuple[list[Event], dict[str, Any]]:
    """Ann rolls a 3 from Portrait Hall 12 onto the Vampire Wizard; returns what follows the move."""
    events, state = act(state, "roll", "Ann", spells, ruleset)
    assert events[:2] == [
        DieRolled(player="Ann", purpose="movement", sides=6, values=[3], draws=[0]),
        Moved(piece="Ann", board="keep", from_space=12, to_space=14, reason="roll"),
    ]
    return events[2:], state


def drawn(spell: str, draw: int) -> CardDrawn:
    return CardDrawn(player="Ann", deck="spells", card=spell, draw=draw)


def offered(chooser: str = "Bo", targets: tuple[str, ...] = ("Ann", "Cy", "Bo")) -> ChoiceOffered:
    return ChoiceOffered(player=chooser, kind=TARGET, options=[*targets, "discard"])


def out(state: dict[str, Any], player: str) -> None:
    lives = state["players"][player]["lives"]
    aimed.evolve(state, LifeLost(player=player, amount=lives, reason="given"))
    aimed.evolve(state, PlayerOut(player=player, reason="killed"))


def test_the_player_on_the_victims_right_aims_each_spell_one_at_a_time():
    """Keep 8.4 (house): Bo, next after Ann in seating order, aims the three spells one by one."""
    events, state = land(at_twelve(), HEX)
    assert events == [drawn(HEX, 1), offered()]
    assert aimed.status(state)["to_act"] == ["Bo"] and aimed.legal_actions(state, "Ann") == []
    assert [a.id for a in aimed.legal_actions(state)] == [
        "choose:Ann",
        "choose:Cy",
        "choose:Bo",
        "choose:discard",
    ]
    assert aimed.legal_actions(state)[2] == Action(
        "choose:Bo", "Bo", "Aim the Vampire Wizard's Hex at yourself"
    )
    assert not aimed.is_legal(state, "Ann", "choose:Ann") and not aimed.is_legal(state, "Bo", "roll")
    with pytest.raises(IllegalAction):
        aimed.decide(state, "choose:Ann", "Ann", ScriptedDice())
    events, state = act(state, "choose:Cy", "Bo", (LEADEN_PURSE,))
    assert events == [
        ChoiceMade(player="Bo", kind=TARGET, option="Cy"),
        SpellCast(player="Cy", spell=HEX),
        LifeLost(player="Cy", amount=1, reason=HEX),
        drawn(LEADEN_PURSE, 0),
        offered(),
    ]
    events, state = act(state, "choose:Ann", "Bo", (CHAINS,))
    assert events[:3] == [
        ChoiceMade(player="Bo", kind=TARGET, option="Ann"),
        SpellCast(player="Ann", spell=LEADEN_PURSE),
        GoldChanged(player="Ann", amount=-1, reason=LEADEN_PURSE),
    ]
    events, state = act(state, "choose:Bo", "Bo")
    assert events == [
        ChoiceMade(player="Bo", kind=TARGET, option="Bo"),
        SpellCast(player="Bo", spell=CHAINS),
        TurnLost(player="Bo", reason=CHAINS),
        TurnEnded(player="Ann", next_player="Cy"),  # Keep 8.4: Ann's turn ends after the third spell
    ]
    assert state["piles"]["discard:spells"] == [HEX, LEADEN_PURSE, CHAINS]
    assert state["turn"] == "Cy" and not state["choice"] and state["wizard"] == {}
    assert state["players"]["Cy"]["lives"] == 3 and state["players"]["Ann"]["lives"] == 4


def test_the_wizards_player_may_discard_a_spell():
    """Keep 8.4 (house): `choose:discard` sends the spell to the discard pile unused."""
    _, state = land(at_twelve(), HEX)
    events, state = act(state, "choose:discard", "Bo", (FIZZLE, BLESSING))
    assert events == [
        ChoiceMade(player="Bo", kind=TARGET, option="discard"),
        SpellDiscarded(player="Ann", spell=HEX, reason="was aimed at nobody"),
        # Keep 8.4: a spell that would hurt nobody is discarded without asking.
        drawn(FIZZLE, 0),
        SpellDiscarded(player="Ann", spell=FIZZLE, reason="would do nothing"),
        drawn(BLESSING, 1),
        SpellDiscarded(player="Ann", spell=BLESSING, reason="would help"),
        TurnEnded(player="Ann", next_player="Cy"),
    ]
    assert state["piles"]["discard:spells"] == [HEX, FIZZLE, BLESSING]
    assert state["players"]["Ann"]["lives"] == 4


def test_a_spell_aimed_at_a_character_it_would_not_hurt_is_discarded():
    """Keep 8.4: a spell that would do nothing to its target still goes to the discard pile."""
    state = at_twelve()
    aimed.evolve(state, StatChanged(player="Ann", stat="strength", amount=1, reason="given"))
    events, state = land(state, WITHERING)
    assert events == [drawn(WITHERING, 1), offered()]  # it would hurt Ann, above her starting Strength
    events, state = act(state, "choose:Cy", "Bo", (FIZZLE, FIZZLE.replace("fizzle", "fools-gold")))
    assert events[:2] == [
        ChoiceMade(player="Bo", kind=TARGET, option="Cy"),
        SpellDiscarded(player="Cy", spell=WITHERING, reason="would do nothing"),
    ]
    assert state["players"]["Cy"]["strength"] == state["players"]["Cy"]["base_strength"]


def test_casting_stops_once_the_victim_is_killed():
    """Keep 8.4: no more spells are drawn once the character who landed is killed."""
    state = at_twelve()
    aimed.evolve(state, LifeLost(player="Ann", amount=2, reason="given"))
    _, state = land(state, BLOOD_CURSE)
    events, state = act(state, "choose:Ann", "Bo")
    assert events == [
        ChoiceMade(player="Bo", kind=TARGET, option="Ann"),
        SpellCast(player="Ann", spell=BLOOD_CURSE),
        LifeLost(player="Ann", amount=2, reason=BLOOD_CURSE),
        PlayerOut(player="Ann", reason="killed"),
        TurnEnded(player="Ann", next_player="Cy"),
    ]
    assert state["players"]["Ann"]["status"] == "out" and state["turn"] == "Cy"


def test_a_wizards_player_killed_by_its_own_spell_passes_the_wizard_on():
    """Keep 8.4 (house): each spell is aimed by whoever is then on the victim's right."""
    state = at_twelve()
    aimed.evolve(state, LifeLost(player="Bo", amount=2, reason="given"))
    _, state = land(state, BLOOD_CURSE)
    events, state = act(state, "choose:Bo", "Bo", (HEX,))
    assert events[2:] == [
        LifeLost(player="Bo", amount=2, reason=BLOOD_CURSE),
        PlayerOut(player="Bo", reason="killed"),
        drawn(HEX, 0),
        offered("Cy", ("Ann", "Cy")),
    ]


def test_the_next_character_still_in_the_race_aims_at_those_inside_the_keep():
    """Keep 8.4 (house): Bo is out, so Cy aims; Cy has not entered the Keep, so only Ann is a target."""
    state = at_twelve(entered=("Ann",))
    out(state, "Bo")
    events, state = land(state, HEX)
    assert events == [drawn(HEX, 1), offered("Cy", ("Ann",))]
    assert [a.id for a in aimed.legal_actions(state, "Cy")] == ["choose:Ann", "choose:discard"]


def test_with_nobody_else_in_the_race_the_rules_aim_the_spells():
    """Keep 8.4 (house): with no other character left to play the Wizard, every spell goes at the victim."""
    state = at_twelve()
    out(state, "Bo")
    out(state, "Cy")
    events, state = land(state, HEX, FIZZLE, LEADEN_PURSE)
    assert events == [
        drawn(HEX, 1),
        SpellCast(player="Ann", spell=HEX),
        LifeLost(player="Ann", amount=1, reason=HEX),
        drawn(FIZZLE, 2),
        SpellDiscarded(player="Ann", spell=FIZZLE, reason="would do nothing"),
        drawn(LEADEN_PURSE, 3),
        SpellCast(player="Ann", spell=LEADEN_PURSE),
        GoldChanged(player="Ann", amount=-1, reason=LEADEN_PURSE),
        TurnEnded(player="Ann", next_player="Ann"),
    ]
    assert not state["choice"] and state["wizard"] == {}


def test_an_auto_game_casts_every_spell_at_the_victim_as_before():
    """Keep 8.4, `wizard=auto`: the rules aim, as in every game recorded before the option."""
    events, state = land(at_twelve(auto), HEX, LEADEN_PURSE, CHAINS, ruleset=auto)
    assert events == [
        drawn(HEX, 1),
        SpellCast(player="Ann", spell=HEX),
        LifeLost(player="Ann", amount=1, reason=HEX),
        drawn(LEADEN_PURSE, 2),
        SpellCast(player="Ann", spell=LEADEN_PURSE),
        GoldChanged(player="Ann", amount=-1, reason=LEADEN_PURSE),
        drawn(CHAINS, 3),
        SpellCast(player="Ann", spell=CHAINS),
        TurnLost(player="Ann", reason=CHAINS),
        TurnEnded(player="Ann", next_player="Cy"),
    ]


def test_a_recorded_game_without_the_option_plays_auto_and_a_new_game_records_choose():
    """Keep 8.4: `wizard` defaults to `choose` for a new game, and a game that predates it reads `auto`."""
    assert build_ruleset("keep-run", {}).options["wizard"] == "auto"
    assert build_ruleset("keep-run", {"hoard": "true"}).options == {"hoard": "true", "wizard": "auto"}
    assert aimed.canonical_setup([], {})[1] == {"hoard": "false", "wizard": "choose"}
    assert aimed.canonical_setup([], {"wizard": "AUTO"})[1] == {"hoard": "false", "wizard": "auto"}
    service = GameService.open(":memory:")
    game_id = service.create_game("keep-run", [("Ann", "warrior"), ("Bo", "troll")])
    game = service.get_game(game_id)
    assert game.meta["options"] == {"hoard": "false", "wizard": "choose"}
    assert game.ruleset.options["wizard"] == "choose"
    play_with_bots(service, game_id, seed=3)
    assert service.get_game(game_id).is_finished


def test_a_seat_may_not_be_named_discard_when_players_aim_the_wizard():
    """Keep 8.4 (house): `choose:discard` must mean the discard pile."""
    seats = [{"name": "discard"}, {"name": "Bo"}]
    with pytest.raises(BadSetup, match="may not be named 'discard'"):
        aimed.validate_setup(seats, {})
    with pytest.raises(BadSetup, match="may not be named 'discard'"):
        aimed.validate_setup(seats, {"wizard": "choose"})
    auto.validate_setup(seats, {"wizard": "auto"})
    with pytest.raises(BadSetup, match="option wizard must be one of choose, auto"):
        aimed.validate_setup([{"name": "Ann"}, {"name": "Bo"}], {"wizard": "right"})


def test_a_bot_playing_the_wizard_seldom_aims_at_itself():
    """Keep 8.4: bots choose like any action, preferring a target other than themselves."""
    _, state = land(at_twelve(), HEX)
    weights = {a.id: aimed.bot_weight(state, a) for a in aimed.legal_actions(state)}
    assert weights["choose:Bo"] < weights["choose:Ann"] == weights["choose:Cy"] == weights["choose:discard"]


def test_the_timeline_and_the_board_tell_the_wizards_choice():
    """Keep 8.4: the offer, the choice and the discard are told in plain words; the view shows who aims."""
    _, state = land(at_twelve(), HEX)
    assert describe(offered()) == (
        "Bo plays the Vampire Wizard and must aim the spell: at Ann, Cy or Bo, or discard it."
    )
    assert describe(ChoiceMade(player="Bo", kind=TARGET, option="Cy")) == (
        "Bo aims the Vampire Wizard's spell at Cy."
    )
    assert describe(ChoiceMade(player="Bo", kind=TARGET, option="discard")) == (
        "Bo has the Vampire Wizard discard the spell."
    )
    assert describe(SpellDiscarded(player="Ann", spell=HEX, reason="was aimed at nobody")) == (
        "The Vampire Wizard discarded Hex unused (it was aimed at nobody)."
    )
    board = render_board(state)
    assert max(len(line) for line in render_board(state, width=80).splitlines()) <= 80
    assert "Bo must aim the Vampire Wizard's Hex: Ann, Cy, Bo or discard it" in board, board


def test_a_games_story_names_the_spell_each_time_the_wizards_player_aims_it():
    """Keep 8.4: told in a run, the offer and the aim name the spell drawn just before them."""
    service = GameService.open(":memory:")
    lines: list[str] = []
    for seed in range(40):
        game_id = service.create_game("keep-run", [("Ann", "warrior"), ("Bo", "troll"), ("Cy", "wizard")])
        play_with_bots(service, game_id, seed=seed)
        events = service.recorded_events(game_id)
        told = describe_events("keep-run", events)
        # A choice is told once: by the action that made it when that comes just before (issue 30).
        lines += [
            line or told[i - 1] for i, line in enumerate(told) if isinstance(events[i].event, ChoiceMade)
        ]
        if any("im the Vampire Wizard's " in line or "ims the Vampire Wizard's " in line for line in lines):
            break
    spells = {spell.name for spell in load_spells().values()}
    aims = [
        line for line in lines if "im the Vampire Wizard's " in line or "ims the Vampire Wizard's " in line
    ]
    assert aims and all(any(f"Wizard's {name} at " in line for name in spells) for line in aims), aims
