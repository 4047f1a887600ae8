"""The Dungeon board view: plain-text board, players summary and event wording."""

from __future__ import annotations

import json

from domain.events import CombatResolved, GameCreated, LifeLost, Moved
from domain.rulesets.talisman.events import FleeingDeclared, TrophyTaken
from projections import dungeon_view as view
from tests.rulesets.dungeon.test_short_game_rules import GOBLIN, OGRE, SWORD, act, carry, lay, place, started


def spiral_cells(lines: list[str]) -> dict[int, str]:
    """Reads the boxed spiral grid back into {space index: the cell's words}."""
    rows: list[list[list[str]]] = []
    for line in lines:
        if line.startswith("+-"):
            rows.append([])
        elif line.startswith("|"):
            parts = [p.strip() for p in line.strip("|").split("|")]
            if not rows[-1]:
                rows[-1] = [[] for _ in parts]
            for cell, part in zip(rows[-1], parts, strict=True):
                cell.append(part)
    cells = {}
    for row in rows:
        for cell in row:
            text = " ".join(w for w in cell if w)
            if text:
                cells[int(text.split()[0])] = text
    return cells


def test_render_board_shows_spaces_positions_cards_and_sheets():
    state = started()
    place(state, "Bo", 9)
    lay(state, 4, OGRE)
    carry(state, "Ann", SWORD)
    text = view.render_board(state)
    lines = text.splitlines()
    assert "\x1b" not in text and "Ann to act." in lines
    cells = spiral_cells(lines)
    assert cells[0].startswith("0 Entrance") and "Ann" in cells[0]
    assert cells[9].startswith("9 Hall of Bones") and "Bo" in cells[9]
    assert "1 card" in cells[4] and "  4  Rat Warren: Ogre" in lines
    assert "Guard 4" in cells[6]
    assert cells[24].startswith("24 Treasure Chamber")
    ann = next(line for line in lines[lines.index("") :] if line.startswith("Ann "))
    assert "Warrior" in ann and "5 (4+1)" in ann and "Sword" in ann and "in play" in ann


def test_render_board_shows_winner_and_status():
    state = started()
    place(state, "Ann", 22)
    _, state = act(state, "roll", values=(3,))
    text = view.render_board(state)
    assert "Game over: Ann won." in text and "winner" in text


def test_players_summary_values_are_json_native():
    state = started()
    place(state, "Bo", 9)
    carry(state, "Bo", SWORD)
    __import__("domain.rulesets.dungeon.short_game", fromlist=["evolve"]).evolve(
        state, FleeingDeclared(player="Bo")
    )
    rows = view.players_summary(state)
    assert json.loads(json.dumps(rows)) == rows
    assert rows[0] == {
        "name": "Ann",
        "character": "Warrior",
        "space": 0,
        "space_name": "Entrance",
        "lives": 4,
        "strength": 4,
        "craft": 3,
        "gold": 1,
        "objects": [],
        "followers": [],
        "trophies": 0,
        "status": "in play",
    }
    assert (rows[1]["space_name"], rows[1]["strength"], rows[1]["objects"], rows[1]["status"]) == (
        "Hall of Bones",
        7,
        ["Sword"],
        "fleeing",
    )


def test_describe_uses_card_and_space_names():
    assert view.describe(Moved(piece="Ann", board="dungeon", from_space=0, to_space=3, reason="roll")) == (
        "Ann moved from the Entrance (0) to the Crypt (3)."
    )
    assert view.describe(
        CombatResolved(
            player="Ann", opponent=OGRE, kind="combat", player_total=5, opponent_total=9, outcome="lost"
        )
    ) == ("Ann (5) was defeated by the Ogre (9) in combat.")
    assert view.describe(LifeLost(player="Bo", amount=1, reason="Ann")) == "Bo lost 1 life to Ann."
    assert "Goblin" in view.describe(TrophyTaken(player="Ann", card=GOBLIN, space=4, kind="monster", value=2))
    created = GameCreated(
        ruleset="dungeon-short",
        players=[],
        options={},
        content_hash="",
        scripted=False,
        dice_script=[],
        nightkeep_version="",
    )
    assert view.describe(created) is None


def test_describe_covers_every_event_of_a_game():
    state = started()
    lay(state, 3, GOBLIN)
    events, _ = act(state, "roll", values=(3, 6, 1))
    from domain.events import registered_event_types

    dungeon_own = {name for name, cls in registered_event_types().items() if "talisman" in cls.__module__}
    assert all(view.describe(e) for e in events if e.type_name in dungeon_own | {"Moved", "CardDrawn"})
    assert view.describe(events[-1]) is None  # TurnEnded: the generic timeline words it


def test_six_characters_on_one_space_all_fit_in_its_cell():
    seats = [
        ("Ann", "warrior"),
        ("Bo", "troll"),
        ("Cy", "elf"),
        ("Di", "dwarf"),
        ("Ed", "monk"),
        ("Flo", "thief"),
    ]
    cell = spiral_cells(view.render_board(started(*seats)).splitlines())[0]
    assert all(name in cell for name, _ in seats)


def test_a_space_with_cards_lying_says_how_many():
    state = started()
    lay(state, 9, OGRE, GOBLIN)
    assert "2 cards" in spiral_cells(view.render_board(state).splitlines())[9]
