"""The `talisman` board view and timeline (house rule H5.1): who stands where in each region, what lies face
up, the sheets, the turn or pending choice, in 80 columns; every main-board event told in plain words."""

from __future__ import annotations

import inspect

import pytest

from domain.events import DieRolled, Event
from domain.rulesets.talisman.main import events as main_events
from domain.rulesets.talisman.main import events_abilities
from domain.rulesets.talisman.main.events import (
    AlignmentChanged,
    CharacterDied,
    CharacterRestarted,
    CommandSpellCast,
    ItemBought,
    ItemDropped,
    ItemSold,
    QuestCompleted,
    QuestGiven,
    RegionCrossed,
    SpiritsEmpowered,
)
from domain.rulesets.talisman.main.events_abilities import (
    AbilityUsed,
    CardDestroyed,
    CardDisplaced,
    CardReturned,
    CharacterAttacked,
    EffectReadied,
    EffectSpent,
    EffectWasted,
    EnemyDestroyed,
    EnemyEvaded,
    FollowerTaken,
    GoldStolen,
    SpellCountered,
    SpellInvoked,
    SpellLaid,
    SpellTaken,
    SpoilsTaken,
)
from projections import talisman_view as view
from projections.timeline import describe_event
from projections.views import STOPPED_HEAD, players_summary, render_board
from tests.main_helpers import ANN, BO, lay, new_game, put

WARRIOR = "talisman/character/warrior"
SAMPLES: dict[type[Event], tuple[Event, str]] = {
    RegionCrossed: (
        RegionCrossed(
            player=ANN, from_board="outer", from_space=4, to_board="middle", to_space=15, reason="sentinel"
        ),
        "Ann got past the Sentinel: from the Sentinel (Outer 4) to the Hills (Middle 15).",
    ),
    CharacterDied: (
        CharacterDied(player=ANN, character=WARRIOR, board="outer", space=2),
        "Ann's Warrior was killed on the Graveyard (Outer 2); what it carried lies there.",
    ),
    CharacterRestarted: (
        CharacterRestarted(
            player=ANN, character="talisman/character/wizard", draw=7, killed=WARRIOR, board="outer", space=12
        ),
        "Ann starts anew as the Wizard on the City (Outer 12).",
    ),
    CommandSpellCast: (
        CommandSpellCast(player=ANN, face=5, hit=True),
        "Ann cast the Command Spell from the Crown of Command (5): every other character loses a life.",
    ),
    ItemBought: (
        ItemBought(player=ANN, card="talisman/purchase/raft", price=1),
        "Ann bought the Raft for 1 gold.",
    ),
    ItemDropped: (
        ItemDropped(player=ANN, card="talisman/purchase/raft", board="middle", space=9),
        "Ann left the Raft on the Oasis (Middle 9).",
    ),
    QuestGiven: (
        QuestGiven(player=ANN, quest="kill-monster", goal="kill-monster", amount=1, target=""),
        "The Warlock set Ann a quest: kill a Monster, 1 time(s); the reward is a Talisman.",
    ),
    QuestCompleted: (
        QuestCompleted(player=ANN, quest="kill-monster"),
        "Ann completed the Warlock's quest.",
    ),
    AlignmentChanged: (
        AlignmentChanged(player=ANN, alignment="evil", reason="talisman/card/dark-bargain"),
        "Ann became evil (the Dark Bargain).",
    ),
    ItemSold: (
        ItemSold(player=ANN, card="talisman/purchase/raft", gold=1, pile="purchase"),
        "Ann sold the Raft for 1 gold (back to the Purchase deck).",
    ),
    SpiritsEmpowered: (
        SpiritsEmpowered(player=ANN, card="talisman/card/astral-conjunction", amount=1),
        "Every Spirit has +1 Craft until the next Event (the Astral Conjunction).",
    ),
    # The abilities', Spells' and characters' events.
    SpellInvoked: (
        SpellInvoked(player=ANN, spell="talisman/spell/healing", target=""),
        "Ann cast Healing.",
    ),
    SpellCountered: (
        SpellCountered(player=BO, spell="talisman/spell/healing"),
        "Bo's Healing was countered: it has no effect.",
    ),
    EffectReadied: (
        EffectReadied(
            player=ANN, name="Battle Fury", effect="strength-bonus", amount=1, when="combat", lasting=False
        ),
        "Ann's Battle Fury waits for their next Combat: +1 Strength.",
    ),
    EffectSpent: (
        EffectSpent(player=ANN, name="Battle Fury", effect="strength-bonus"),
        "Ann's Battle Fury was used up.",
    ),
    EffectWasted: (
        EffectWasted(
            player=ANN,
            name="Misdirection",
            effect="misdirect",
            reason="a fleeing character moves only toward the Entrance",
        ),
        "Ann's Misdirection was used up and did nothing: a fleeing character moves only toward the Entrance.",
    ),
    AbilityUsed: (
        AbilityUsed(player=ANN, ability="skip-encounters", detail="Plains"),
        "Ann passed the Plains by without meeting it.",
    ),
    EnemyEvaded: (
        EnemyEvaded(player=ANN, card="talisman/card/goblin-1"),
        "Ann evaded the Goblin; it stays face up.",
    ),
    EnemyDestroyed: (
        EnemyDestroyed(player=ANN, card="talisman/card/goblin-1", space=3),
        "Ann destroyed the Goblin with a Spell (no trophy).",
    ),
    CharacterAttacked: (
        CharacterAttacked(player=ANN, victim=BO, kind="psychic"),
        "Ann attacked Bo in psychic combat.",
    ),
    SpoilsTaken: (
        SpoilsTaken(player=ANN, loser=BO, spoils="talisman/card/sword-1"),
        "Ann beat Bo and took the Sword.",
    ),
    GoldStolen: (
        GoldStolen(player=ANN, victim=BO, amount=2, reason="Thieving Hands"),
        "Ann took 2 gold from Bo (Thieving Hands).",
    ),
    FollowerTaken: (
        FollowerTaken(player=ANN, victim=BO, card="talisman/card/squire"),
        "Ann took the Squire from Bo.",
    ),
    SpellTaken: (
        SpellTaken(player=ANN, victim=BO, spell="talisman/spell/healing", face=1),
        "Ann took Bo's spell Healing (die 1).",
    ),
    CardDestroyed: (
        CardDestroyed(player=ANN, card="talisman/card/goblin-1", deck="adventure", board="outer", space=3),
        "The Goblin on the Woods (Outer 3) was destroyed.",
    ),
    CardDisplaced: (
        CardDisplaced(player=ANN, card="talisman/card/goblin-1", board="outer", from_space=3, to_space=5),
        "The Goblin moved from the Woods (Outer 3) to the Hills (Outer 5).",
    ),
    CardReturned: (
        CardReturned(player=ANN, card="talisman/card/goblin-1", deck="adventure", board="outer", space=3),
        "The Goblin on the Woods (Outer 3) went back into its deck; the space draws anew.",
    ),
    SpellLaid: (
        SpellLaid(player=ANN, spell="talisman/spell/hex", board="outer", space=3),
        "Ann laid the Hex on the Woods (Outer 3).",
    ),
}


def test_every_main_board_event_type_has_a_sample_here():
    declared = {
        cls
        for module in (main_events, events_abilities)
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, Event) and cls.__module__ == module.__name__
    }
    assert declared == set(SAMPLES)


@pytest.mark.parametrize("cls", list(SAMPLES), ids=lambda cls: cls.__name__)
def test_every_main_board_event_is_told_in_plain_words(cls):
    event, words = SAMPLES[cls]
    text = describe_event("talisman", event)
    assert text == words
    assert not text.startswith(f"{event.type_name}:")  # not the fallback's `Type: field=value`


def test_the_board_names_who_stands_where_in_each_region_and_what_lies_face_up():
    game, state = new_game()
    put(state, ANN, "middle", 7)
    put(state, BO, "inner", 4, objects=["talisman/card/sword-1"])
    lay(state, "outer", 1, "talisman/card/goblin-1", "talisman/card/goblin-2")
    state["gold"]["outer"][1] = 3
    text = render_board("talisman", state)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80
    assert any(line.split()[:3] == ["7", "Warlock's", "Cave"] and line.endswith(ANN) for line in lines)
    assert any(line.split()[:4] == ["4", "Valley", "of", "Fire"] and line.endswith(BO) for line in lines)
    assert "face up: Goblin ×2, 3 gold" in text
    for region in ("Outer Region", "Middle Region", "Inner Region", "Crown of Command"):
        assert any(line.startswith(region) for line in lines)
    assert "Bo carries objects: Sword." in text
    assert f"Round 1: {ANN} to act." in text


def test_the_compact_board_shows_only_spaces_with_something_on_them():
    game, state = new_game()
    put(state, ANN, "outer", 3)
    put(state, BO, "outer", 3)
    text = render_board("talisman", state, width=80, height=24)
    assert len(text.splitlines()) <= 24 and max(map(len, text.splitlines())) <= 80
    assert "   3 Woods            Ann, Bo" in text
    assert "Middle Region (empty)" in text and "Outer Region (23 of 24 empty, not shown)" in text
    wide = render_board("talisman", state, width=120)
    assert 80 < max(map(len, wide.splitlines())) <= 120  # the Outer Region beside the others


def test_the_heading_names_a_pending_choice_the_roll_and_the_end():
    game, state = new_game()
    state["choice"] = {"player": BO, "kind": "buy", "options": ["talisman/purchase/raft", "leave"]}
    heading = " ".join(render_board("talisman", state).split())
    assert "Round 1: Bo chooses what to buy: Buy the Raft or Leave." in heading
    state.update(choice=None, step="rolled", rolled=4)
    assert "Ann to act (rolled 4: where to go)." in render_board("talisman", state)
    assert STOPPED_HEAD in render_board("talisman", state, stopped=True)
    state.update(phase="over", winner=BO, round=12)
    assert "Game over after 12 round(s): Bo won." in render_board("talisman", state)


def test_the_players_summary_gives_each_seat_where_it_stands_and_what_it_holds():
    game, state = new_game()
    put(state, ANN, "middle", 11, objects=["talisman/card/sword-1"], spells=["talisman/spell/healing"])
    first, second = players_summary("talisman", state)
    assert first["character"] == "Warrior" and first["board"] == "middle" and first["space_name"] == "Temple"
    assert first["objects"] == ["Sword"] and first["strength"] == state["players"][ANN]["strength"] + 1
    assert first["spells"] == ["Healing"] and first["status"] == "in play"
    assert second["name"] == BO and second["alignment"] == "evil"


def test_a_fresh_game_before_the_deal_shows_every_seat_waiting():
    game, state = new_game()
    fresh = game.initial_state(_created(game))
    text = render_board("talisman", fresh)
    assert "Waiting for the host to deal the characters." in text and "(to be dealt)" in text
    assert [row["status"] for row in players_summary("talisman", fresh)] == ["waiting", "waiting"]
    assert view.name_of("talisman/space/outer/village") == "Village"


def _created(game):
    from domain.events import GameCreated

    return GameCreated(
        ruleset="talisman",
        players=[{"name": ANN, "character": ""}, {"name": BO, "character": ""}],
        options=game.options,
        content_hash="",
        scripted=False,
        dice_script=[],
        nightkeep_version="0.2.0",
    )


def test_a_short_terminal_puts_the_sheets_first_and_counts_the_cards_lying_face_up():
    game, state = new_game(characters=("warrior", "wizard", "troll", "martial-artist"))
    for space in range(24):
        lay(state, "outer", space, "talisman/card/goblin-1" if space % 2 else "talisman/card/goblin-2")
    text = render_board("talisman", state, width=80, height=24)
    lines = text.splitlines()
    assert len(lines) <= 24 and max(map(len, lines)) <= 80
    assert lines[1].startswith("player") and any(line.startswith("Di ") for line in lines)
    assert "   1 Fields           face up: 1 card" in lines


@pytest.mark.parametrize(
    ("purpose", "values", "words"),
    [
        ("movement", [4], "Ann rolled 4 to move."),
        ("vampires-tower", [2], "Ann rolled 2 at the Vampire's Tower."),
        ("crypt", [1, 5, 5], "Ann rolled 1, 5 and 5 at the Crypt."),
        ("psychic-combat", [5, 3], "Ann rolled 5 and their opponent 3 in psychic combat."),
        ("something-new", [6], "Ann rolled 6 for something new."),
    ],
)
def test_a_roll_is_told_with_what_it_was_for(purpose, values, words):
    rolled = DieRolled(player=ANN, purpose=purpose, sides=6, values=values, draws=list(range(len(values))))
    assert describe_event("talisman", rolled) == words
