"""The read side of a `talisman` game with the Dungeon and the Vampire's Keep (house rules H5, issue 14):
the board view shows the main board, the Dungeon's spiral and the Keep's three levels in 80 columns (side by
side when wide), says in words which board each character is on, shows nothing a deck hides, and the timeline
tells every event of the expansions' boards in plain words."""

from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.events import CardDrawn, CombatResolved, DieRolled, Event, LifeLost, Moved
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
from domain.rulesets.talisman.events import (
    ChoiceMade,
    ChoiceOffered,
    DeckReshuffled,
    FleeingDeclared,
    FollowerLeft,
    ItemGivenUp,
)
from domain.rulesets.talisman.main.events import RegionCrossed
from projections import talisman_expansion_timeline as words
from projections.talisman_names import board_words, where
from projections.timeline import describe_event
from projections.views import players_summary, render_board
from tests.main_helpers import ANN, BO, lay, new_game, put

BOTH = {"dungeon": "true", "keep": "true"}
CY = "Cy"
GOLDEN = Path(__file__).resolve().parents[1] / "goldens" / "exp_views_mixed.board.txt"
OGRE, SWORD = "dungeon/card/ogre", "talisman/card/sword-1"
VAMPIRE_BAT, TILE = "keep/card/vampire-bat-1", "keep/card/teleport-tile-1"


def _mixed_state(options: dict[str, str] | None = None) -> dict:
    """Returns a game with Ann in the Dungeon's Well Room (7), Bo in the Keep's Corridor (11) and Cy on
    the Outer Region's Crags (8), with cards face up on each board and a Teleport Tile sending 5 to 12."""
    game, state = new_game(options or BOTH, characters=("warrior", "wizard", "troll"))
    put(state, ANN, "dungeon", 7, objects=[SWORD])
    put(state, BO, "keep", 11, entered=True)
    put(state, CY, "outer", 8)
    if "dungeon" in state["cards"]:
        state["cards"]["dungeon"][3] = [OGRE]
        state["gold"]["dungeon"][3] = 2
    if "keep" in state["cards"]:
        state["cards"]["keep"][5] = [TILE, VAMPIRE_BAT]
        state["tiles"] = [0] * 22
        state["tiles"][5] = 12
    lay(state, "outer", 1, "talisman/card/goblin-1")
    return state


def _lines(text: str) -> list[str]:
    return text.splitlines()


# --- the board view -----------------------------------------------------------------------------------------


def test_the_board_shows_the_main_board_the_dungeon_and_the_keep_in_80_columns():
    """Dungeon 6.1: the Dungeon is a spiral from the Entrance to the Treasure Chamber in the centre; Keep
    5.1: the Keep is three levels of spaces 1-21; both beside the main board (house rules H5)."""
    text = render_board("talisman", _mixed_state())
    lines = _lines(text)
    assert max(map(len, lines)) <= 80
    assert lines[0] == "Talisman: the main board with the Dungeon and the Vampire's Keep"
    for heading in ("Outer Region", "Middle Region", "Inner Region", "Crown of Command", "The Dungeon"):
        assert any(line.startswith(heading) for line in lines), heading
    assert any(line.startswith("+---") for line in lines)  # the spiral's grid
    assert any("| Ann " in line for line in lines)  # Ann's name in a cell of the spiral
    assert "Face up in the Dungeon: 3 Crypt: Ogre, 2 gold." in text
    for level, spaces in ((1, "1-7"), (2, "8-14"), (3, "15-21")):
        assert f"Level {level} (spaces {spaces})" in lines
    assert any(line.split()[:2] == ["11", "Corridor"] and line.endswith(BO) for line in lines)
    assert "   8 Crags            Cy" in lines


def test_the_keep_shows_where_each_teleport_tile_sends_and_what_lies_beside_it():
    """Keep 6.1: a Teleport Tile lies on its space with its counter, which names the space it sends to; the
    tile is shown apart from the cards lying there."""
    text = render_board("talisman", _mixed_state())
    line = next(line for line in _lines(text) if line.split()[:3] == ["5", "Bone", "Gallery"])
    assert "tile→12" in line and "face up: Vampire Bat" in line and "Teleport Tile" not in line


def test_each_character_line_says_which_board_it_is_on_in_words():
    """house rules H5: a character stands on exactly one board; its line names that board (the Keep's with
    its level)."""
    text = render_board("talisman", _mixed_state())
    assert "Ann (in the Dungeon, space 7 Well Room) carries objects: Sword." in text
    assert "Bo (in the Keep, level 2, space 11 Corridor) carries nothing." in text
    assert "Cy (on the main board, Outer Region, space 8 Crags) carries nothing." in text
    sheet = {
        line.split()[0]: line
        for line in _lines(text)
        if line.split()[1:2] in (["Warrior"], ["Wizard"], ["Troll"])
    }
    assert "D 7 Well Room" in sheet[ANN] and "K 11 Corridor" in sheet[BO] and "O 8 Crags" in sheet[CY]
    assert board_words("keep", 19) == "in the Keep, level 3, space 19 Sacred Obelisk"


def test_a_character_on_the_keep_entrance_that_has_not_passed_its_test_stands_outside():
    """Keep 8.1: the Entrance's door must be opened by a test before the character goes in."""
    state = _mixed_state()
    put(state, BO, "keep", 1, entered=False, looping=False)
    assert any(
        line.split()[:4] == ["1", "Keep", "Entrance", "Bo"]
        for line in _lines(render_board("talisman", state))
    )
    assert "Bo (outside)" in render_board("talisman", state)
    put(state, BO, "keep", 12, entered=True, looping=True)
    assert "Bo (looping)" in render_board("talisman", state)


def test_the_wide_layout_puts_the_keep_beside_the_dungeon_when_there_is_room():
    """Dungeon 6.1, Keep 5.1: given a wide terminal both expansion boards sit side by side."""
    state = _mixed_state()
    wide = render_board("talisman", state, width=170)
    lines = _lines(wide)
    assert 80 < max(map(len, lines)) <= 170
    assert any(line.startswith("+---") and "Level 1 (spaces 1-7)" in line for line in lines)
    assert any("Outer Region" in line and "Middle Region" in line for line in lines)
    middling = render_board("talisman", state, width=120)  # no room for both: one under the other
    assert max(map(len, _lines(middling))) <= 120
    assert not any(line.startswith("+---") and "Level" in line for line in _lines(middling))


@pytest.mark.parametrize(("width", "height"), [(80, None), (80, 40), (80, 24), (60, None), (100, 30)])
def test_every_layout_fits_its_width_and_still_places_every_character(width, height):
    """house rules H5: the view fits 80 columns (narrower and shorter layouts only drop detail)."""
    text = render_board("talisman", _mixed_state(), width=width, height=height)
    lines = _lines(text)
    assert max(map(len, lines)) <= width
    if height is not None:
        assert len(lines) <= height
    flat = " ".join(text.split())  # the sheet's `at` cell, or the words of the character's line
    assert "D 7 Well Room" in flat or "Ann (in the Dungeon, space 7 Well Room)" in flat
    assert "K 11 Corridor" in flat or "Bo (in the Keep, level 2, space 11 Corridor)" in flat


def test_the_compact_layouts_show_only_the_expansions_spaces_with_something_on_them():
    """Dungeon 6.1, Keep 5.1: a shorter terminal lists only the occupied spaces of each board."""
    text = render_board("talisman", _mixed_state(), width=80, height=40)
    assert "The Dungeon (23 of 25 empty, not shown): Dungeon deck" in text
    assert "   7 Well Room        Ann" in _lines(text)
    assert "Level 3 (spaces 15-21; empty)" in text


def test_only_the_expansions_in_play_are_shown():
    """house rule H5.20: each expansion is an option; the view shows only the boards a game has."""
    only_dungeon = render_board("talisman", _mixed_state({"dungeon": "true"}))
    assert _lines(only_dungeon)[0] == "Talisman: the main board with the Dungeon"
    assert "The Dungeon" in only_dungeon and "Vampire's Keep" not in only_dungeon
    plain = render_board("talisman", new_game()[1])
    assert _lines(plain)[0] == "Talisman: the main board" and "Dungeon" not in plain and "Keep" not in plain


def test_a_mixed_board_matches_its_golden_file():
    """house rules H5: the main board, the Dungeon and the Keep together, as the full layout renders them (set
    NIGHTKEEP_REGOLD=1 to write the file again after a deliberate change)."""
    state = _mixed_state()
    for pile in state["piles"]:  # the decks' sizes are the set-up's business, not the view's
        state["piles"][pile] = sorted(state["piles"][pile])[:3]
    text = render_board("talisman", state) + "\n"
    if os.environ.get("NIGHTKEEP_REGOLD"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


# --- what a player may see ----------------------------------------------------------------------------------


def test_the_view_names_no_card_still_hidden_in_a_deck_and_no_counter_not_yet_drawn():
    """Keep 3.4-3.6, Dungeon 3.3: the Dungeon, Keep and Vault decks lie face down and the Teleport counters in
    a cup; the view gives their counts only (every `--as` view shows the same board)."""
    state = _mixed_state()
    text = render_board("talisman", state, width=200)
    assert "Keep deck 48 (0 discarded), Vault deck 12, Teleport counters 40 of 40 left" in " ".join(
        text.split()
    )
    from domain.rulesets.keep.content import load_vault

    assert not [name for name in (v.name for v in load_vault().values()) if name in text]
    assert "Minotaur" not in text and "Giant Spider" not in text  # Dungeon cards still in the deck
    assert "tile→" in text and text.count("tile→") == 1  # only the tile laid shows where it sends


def test_show_as_a_player_gives_the_same_board_as_the_public_view(new_store, tmp_path):
    """Keep 3.4-3.6: nothing on the expansions' boards belongs to one player, so `show --as` hides nothing
    more and shows nothing more than the public board."""
    db = new_store("games")

    def run(*args: str) -> str:
        result = CliRunner().invoke(cli, ["--db", db, *args])
        assert result.exit_code == 0, result.output
        return result.stdout

    seats = ["--player", "Ann:warrior", "--player", "Bo:wizard"]
    game = json.loads(
        run("new", "talisman", *seats, "--option", "dungeon=true", "--option", "keep=true", "--json")
    )
    public = run("show", game["game"])
    assert "The Dungeon" in public and "The Vampire's Keep" in public
    assert run("show", game["game"], "--as", ANN) == public == run("show", game["game"], "--as", BO)
    shown = json.loads(run("show", game["game"], "--as", ANN, "--json"))
    assert {p["board_name"] for p in shown["players"]} <= {"Outer Region", "Middle Region", "Dungeon"} | {
        "Vampire's Keep",
        "Inner Region",
        "Crown of Command",
    }


# --- the players summary ------------------------------------------------------------------------------------


def test_the_summary_names_each_board_and_where_each_character_stands():
    """house rules H5: `show --json` names the expansions' boards and spaces as the board view does."""
    rows = {row["name"]: row for row in players_summary("talisman", _mixed_state())}
    assert rows[ANN]["board"] == "dungeon" and rows[ANN]["board_name"] == "Dungeon"
    assert (
        rows[ANN]["space_name"] == "Well Room" and rows[ANN]["where"] == "in the Dungeon, space 7 Well Room"
    )
    assert rows[ANN]["strength"] == _mixed_state()["players"][ANN]["strength"] + 1  # the Sword counts
    assert rows[BO]["board_name"] == "Vampire's Keep" and rows[BO]["space_name"] == "Corridor"
    assert rows[CY]["where"] == "on the main board, Outer Region, space 8 Crags"
    plain = players_summary("talisman", new_game()[1])
    assert all("where" not in row and "board_name" not in row for row in plain)


# --- the timeline -------------------------------------------------------------------------------------------

SAMPLES: list[tuple[Event, str]] = [
    # Moves on the expansions' boards (Dungeon 6.2, 7.3, 9; Keep 5.2, 8.2, 10).
    (
        Moved(piece=ANN, board="dungeon", from_space=3, to_space=7, reason="roll"),
        "Ann moved from the Crypt (Dungeon 3) to the Well Room (Dungeon 7).",
    ),
    (
        Moved(piece=ANN, board="dungeon", from_space=7, to_space=4, reason="retreat"),
        "Ann fell back from the Well Room (Dungeon 7) to the Rat Warren (Dungeon 4).",
    ),
    (
        Moved(piece=BO, board="keep", from_space=4, to_space=3, reason="sentry"),
        "Bo was driven back by the Sentry from the Sentry (Keep 4) to the Hallway (Keep 3).",
    ),
    (
        Moved(piece=BO, board="keep", from_space=9, to_space=6, reason="flight"),
        "Bo fled from the Torchlit Corridor (Keep 9) to the Hallway (Keep 6).",
    ),
    (
        RegionCrossed(
            player=ANN, from_board="outer", from_space=5, to_board="dungeon", to_space=0, reason="door"
        ),
        "Ann went into the Dungeon: from the Hills (Outer 5) to the Entrance (Dungeon 0).",
    ),
    (
        RegionCrossed(
            player=BO, from_board="keep", from_space=21, to_board="outer", to_space=12, reason="exit"
        ),
        "Bo came out of the Keep: from the Talisman Vault (Keep 21) to the City (Outer 12).",
    ),
    (FleeingDeclared(player=ANN), "Ann is fleeing, back the way they came in."),
    # Their decks (Dungeon 3.3; Keep 3.4, 3.5, 9.1).
    (
        CardDrawn(player=ANN, deck="dungeon", card=OGRE, draw=4),
        "Ann drew the Ogre from the Dungeon deck.",
    ),
    (
        CardDrawn(player=BO, deck="keep", card=VAMPIRE_BAT, draw=2),
        "Bo drew the Vampire Bat from the Keep deck.",
    ),
    (
        CardDrawn(player=BO, deck="vault", card="keep/vault/iron-golem", draw=1),
        "Bo turned over the Vault card Iron Golem.",
    ),
    (
        DeckReshuffled(deck="dungeon", count=9, cards=[]),
        "The Dungeon deck ran out; 9 discarded cards were shuffled back in.",
    ),
    (
        CombatResolved(
            player=ANN, opponent=OGRE, kind="combat", player_total=9, opponent_total=7, outcome="won"
        ),
        "Ann (9) beat the Ogre (7) in combat.",
    ),
    (LifeLost(player=BO, amount=1, reason="keep/space/sentry"), "Bo lost 1 life (the Sentry)."),
    # The Keep's own events (Keep 6, 8, 9).
    (
        DieRolled(player=BO, purpose="entry", sides=6, values=[2, 3, 4], draws=[1, 2, 3]),
        "Bo rolled 2, 3 and 4 at the Keep's door.",
    ),
    (
        EntryTested(player=BO, total=9, target=12, passed=True),
        "Bo opened the Keep's door (9, under 12) and goes in next turn.",
    ),
    (FlightEnded(player=BO), "Bo fled out of the Keep's door and is outside the Keep again."),
    (
        TeleportCounterDrawn(player=BO, space=5, counter="keep/counter/11", destination=12, draw=3),
        "A Teleport Tile was laid on the Bone Gallery (Keep 5); its counter sends to the Portrait Hall "
        "(Keep 12).",
    ),
    (
        Teleported(piece=BO, from_space=5, to_space=12, tile_space=5),
        "The Teleport Tile on the Bone Gallery (Keep 5) sent Bo to the Portrait Hall (Keep 12).",
    ),
    (LoopFailed(player=BO), "Bo failed to break free of the teleport loop and is sent on again."),
    (LoopEscaped(player=BO, automatic=True), "Bo broke free of the teleport loop after three failed turns."),
    (
        ItemGivenUp(player=BO, card="talisman/card/squire"),
        "Bo gave the Squire up to the Sentry.",
    ),
    (
        ObeliskTested(player=BO, total=8, target=7, passed=False),
        "The Sacred Obelisk held Bo back (8, needed at most 7).",
    ),
    (SpellCast(player=BO, spell="talisman/spell/healing"), "The Vampire Wizard cast Healing on Bo."),
    (
        SpellDiscarded(player=BO, spell="talisman/spell/healing", reason="would help"),
        "The Vampire Wizard discarded Healing unused (it would help Bo).",
    ),
    (TalismanTaken(player=BO, from_vault=False), "Bo took a Talisman in the Talisman Vault."),
    (ItemGained(player=BO, item="keep/item/sword"), "Bo found the Sword in the Treasure Hoard."),
    (
        SpellGained(player=BO, spell="talisman/spell/healing", from_vault=False),
        "Bo gained the spell Healing from the Treasure Hoard.",
    ),
    (
        VaultCardMet(player=BO, card="keep/vault/iron-golem", outcome="won"),
        "In the Talisman Vault, Bo overcame the Iron Golem.",
    ),
    (
        ChoiceOffered(player=BO, kind="sentry-toll", options=["life", "talisman/card/squire"]),
        "Bo must choose what to give the Sentry: a life, Squire.",
    ),
    (ChoiceMade(player=BO, kind="sentry-toll", option="life"), "Bo chose a life."),
    (
        ChoiceOffered(player=BO, kind="keep:tome-gift", options=["strength", "craft", "life"]),
        "Bo must choose the Tome's gift: +2 Strength, +2 Craft, a life.",
    ),
    (
        CombatResolved(
            player=ANN,
            opponent="dungeon/guard",
            kind="combat",
            player_total=8,
            opponent_total=8,
            outcome="standoff",
        ),
        "Ann (8) and the Guard (8) fought to a stand-off in combat.",
    ),
]


@pytest.fixture
def no_expansion_words(monkeypatch):
    """The timeline without the expansions' own wording modules (their sentences are theirs to test)."""
    monkeypatch.setattr(words, "WORDS_MODULES", ())
    words.words_describers.cache_clear()
    yield
    words.words_describers.cache_clear()


@pytest.mark.parametrize(
    ("event", "sentence"), SAMPLES, ids=lambda x: type(x).__name__ if isinstance(x, Event) else ""
)
def test_every_event_on_the_expansions_boards_is_told_in_plain_words(no_expansion_words, event, sentence):
    """Dungeon 6-9, Keep 5-10: the short games' events, inside a main-board game, in the talisman timeline."""
    assert describe_event("talisman", event) == sentence


def test_every_keep_event_type_has_a_sample():
    """Keep 5-10: each event the Keep's rules record has a sentence in a main-board game."""
    from domain.rulesets.keep import events as keep_events

    # Its own, and the shared Talisman facts it records (its choices, an item given up, a Follower leaving).
    declared = {*keep_events.KEEP_EVENTS, ChoiceOffered, ChoiceMade, ItemGivenUp, FollowerLeft}
    main_worded = {"FollowerLeft"}  # told by the main board already (a Follower leaving)
    assert {cls.__name__ for cls in declared} - main_worded <= {type(e).__name__ for e, _ in SAMPLES}


def test_positions_name_their_board():
    """house rules H5: a position says its board, so the same number on two boards reads differently."""
    assert where("dungeon", 24) == "the Treasure Chamber (Dungeon 24)"
    assert where("keep", 21) == "the Talisman Vault (Keep 21)"
    assert where("outer", 0) == "the Village (Outer 0)"


# --- the expansions' own wording modules --------------------------------------------------------------------


def _stand_in(monkeypatch, name: str, told: str | None) -> list[Event]:
    asked: list[Event] = []
    module = types.ModuleType(name)

    def describe(event: Event) -> str | None:
        asked.append(event)
        return told

    module.describe = describe  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, name, module)
    return asked


@pytest.fixture
def fresh_words():
    words.words_describers.cache_clear()
    yield
    words.words_describers.cache_clear()


def test_an_expansions_wording_module_tells_its_events_first(monkeypatch, fresh_words):
    """house rules H5: the Dungeon's own wording module, when it exists, tells the Dungeon's events."""
    asked = _stand_in(monkeypatch, "projections.talisman_dungeon_words", "Ann found a Doorway.")
    moved = Moved(piece=ANN, board="dungeon", from_space=3, to_space=7, reason="roll")
    assert describe_event("talisman", moved) == "Ann found a Doorway."
    assert asked == [moved]


def test_an_expansions_wording_module_that_says_nothing_leaves_the_event_to_the_others(
    monkeypatch, fresh_words
):
    """house rules H5: a wording module returning None leaves the event to the short game's or the main
    board's words."""
    _stand_in(monkeypatch, "projections.talisman_dungeon_words", None)
    asked = _stand_in(monkeypatch, "projections.talisman_keep_words", None)
    assert describe_event("talisman", LoopFailed(player=BO)).startswith("Bo failed to break free")
    main = Moved(piece=ANN, board="outer", from_space=1, to_space=4, reason="movement")
    assert (
        describe_event("talisman", main) == "Ann moved from the Fields (Outer 1) to the Sentinel (Outer 4)."
    )
    assert LoopFailed(player=BO) in asked and main not in asked  # a main-board move is not theirs


def test_a_missing_wording_module_is_skipped_and_a_broken_one_is_an_error(monkeypatch, fresh_words):
    """house rules H5: the wording modules are optional; one that fails to import is not silently skipped."""
    monkeypatch.setattr(words, "WORDS_MODULES", ("projections.no_such_words_module",))
    assert words.words_describers() == ()
    words.words_describers.cache_clear()

    def broken(name: str) -> types.ModuleType:
        raise ModuleNotFoundError("No module named 'domain.gone'", name="domain.gone")  # what it imports

    monkeypatch.setattr(words.importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="domain.gone"):
        words.words_describers()


def test_the_vampire_wizards_aim_names_the_spell_drawn_just_before_it():
    """Keep 8.4: the Vampire Wizard's spells are drawn from the main board's Spell deck and aimed by a player;
    the timeline names the spell waiting for its aim."""
    run = [
        CardDrawn(player=BO, deck="spells", card="talisman/spell/healing", draw=5),
        ChoiceOffered(player=ANN, kind="wizard-target", options=[BO, "discard"]),
        ChoiceMade(player=ANN, kind="wizard-target", option=BO),
    ]
    told = _told(run)
    assert told[1:] == [
        "Ann plays the Vampire Wizard and must aim Healing: at Bo, or discard it.",
        "Ann aims the Vampire Wizard's Healing at Bo.",
    ]


def test_a_character_fleeing_or_beaten_in_the_dungeon_is_marked():
    """Dungeon 9.1: a fleeing character heads for the Entrance; Dungeon 7.3: a beaten one moves back on
    its next turn."""
    state = _mixed_state()
    put(state, ANN, "dungeon", 7, fleeing=True, defeated=False)
    put(state, CY, "dungeon", 9, fleeing=False, defeated=True)
    assert "In the Dungeon: Ann (fleeing), Cy (beaten)." in render_board("talisman", state)
    compact = _lines(render_board("talisman", state, width=80, height=40))
    assert "   7 Well Room        Ann (fleeing)" in compact and "   9 Hall of Bones    Cy (beaten)" in compact


def test_the_talisman_vault_shows_what_the_fallen_left_there():
    """Keep 9.1: a character killed in the Vault leaves its Talisman (and its spells) on the Vault space."""
    state = _mixed_state()
    state.update(vault_talismans=1, vault_spells=["talisman/spell/healing"])
    text = " ".join(render_board("talisman", state).split())
    assert "Talisman Vault: 1 Talisman(s) left on it by the fallen; spells left there: Healing." in text


def test_the_games_own_facts_are_never_handed_to_an_expansions_wording(monkeypatch, fresh_words):
    """house rules H5: a game without the expansions is told as before: its set-up and seed stay generic."""
    from domain.events import SeedCommitted

    asked = _stand_in(monkeypatch, "projections.talisman_dungeon_words", "something else")
    committed = SeedCommitted(commitment=bytes(32))
    assert describe_event("talisman", committed).startswith("The host committed to a secret dice seed")
    assert asked == []


def _told(run: list[Event]) -> list[str]:
    """Tells a run of events as `log` does (each event with the run around it)."""
    from datetime import UTC, datetime

    from event_store.recorded import RecordedEvent
    from projections.timeline import describe_events

    when = datetime(2026, 1, 1, tzinfo=UTC)
    recorded = [
        RecordedEvent(n, e, e.type_name, e.class_version, e.to_fields(), b"", when)
        for n, e in enumerate(run, start=5)
    ]
    return describe_events("talisman", recorded)


def test_a_flight_is_told_with_the_board_it_leaves():
    """Dungeon 9.1: a flight from the Dungeon heads for its Entrance; Keep 10: one from the Keep for its
    door. Both record the same event, so the run before it tells whose board it is."""
    down = RegionCrossed(
        player=ANN, from_board="outer", from_space=5, to_board="dungeon", to_space=0, reason="d"
    )
    inside = Moved(piece=BO, board="keep", from_space=1, to_space=3, reason="roll")
    told = _told([down, inside, FleeingDeclared(player=ANN), FleeingDeclared(player=BO)])
    assert told[2:] == [
        "Ann is fleeing the Dungeon, back to its Entrance.",
        "Bo is fleeing the Vampire's Keep, back to its door.",
    ]
    assert (
        describe_event("talisman", FleeingDeclared(player=CY)) == "Cy is fleeing, back the way they came in."
    )


@pytest.mark.parametrize("seed", [2, 7])
def test_seeded_bot_games_with_both_expansions_are_told_and_shown_in_80_columns(fresh_words, seed):
    """House rule H5.20 (both expansions): every event of a seeded bot game has a sentence of its own
    (not the generic `Type: field=value`), and every board along the way fits 80 columns, or the width
    given, in every layout."""
    import random

    from domain.actions import HOST, START
    from domain.dice import HmacDice
    from domain.events import GameCreated
    from domain.rulesets.talisman.main.ruleset import TalismanGame

    rng, game = random.Random(seed), TalismanGame({**BOTH, "bot_round_cap": "400"})
    seats = [{"name": name, "character": ""} for name in (ANN, BO, CY)]
    created = GameCreated(
        ruleset="talisman", players=seats, options=game.options, content_hash="", scripted=False,
        dice_script=[], nightkeep_version="0.3.0",
    )  # fmt: skip
    state = game.initial_state(created)
    dice = HmacDice(seed.to_bytes(32, "big"))
    log = game.decide_in_place(state, START, HOST, dice)
    for step in range(600):
        if state["phase"] == "over":
            break
        actions = game.legal_actions(state)
        action = rng.choices(actions, [game.bot_weight(state, a) for a in actions])[0]
        log += game.decide_in_place(state, action.id, action.player, dice)
        if step % 60 == 0:
            for width, height in ((None, None), (80, None), (80, 24), (170, None)):
                lines = _lines(render_board("talisman", state, width=width, height=height))
                assert max(map(len, lines)) <= (width or 80)
                assert height is None or len(lines) <= height
    untold = {
        type(e).__name__ for e in log if describe_event("talisman", e).startswith(type(e).__name__ + ":")
    }
    assert not untold
    assert any(e.board in ("dungeon", "keep") for e in log if isinstance(e, Moved))
