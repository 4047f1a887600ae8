"""How characters leave their games (projections/exits.py): scripted endings of each kind, then seeded
bot games of every ruleset whose exits agree with their logs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from domain.events import CharacterDealt, GameEnded, GameWon, Moved, PlayerOut
from domain.rulesets.keep.events import EntryTested, FlightEnded, Teleported
from domain.rulesets.talisman.main.events import CharacterDied, CharacterRestarted
from event_store.recorded import fold_recorded
from projections.exits import exits_of, place
from projections.report_rows import Exit
from simulation.bot_games import BotGames, play_game

WARRIOR, ELF, DWARF = "talisman/character/warrior", "talisman/character/elf", "talisman/character/dwarf"


@dataclass
class ScriptedRules:
    """Stands for a ruleset whose status is given: the game's end as a script sets it."""

    status_is: dict[str, Any]

    def status(self, state: dict[str, Any]) -> dict[str, Any]:
        return self.status_is


@dataclass
class ScriptedFold:
    """A game's final fold as a script sets it: seats, sheets and the game's status."""

    ruleset_name: str
    players: list[str]
    status: str = "finished"
    winner: str = ""
    state: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.meta = {"players": self.players, "seed": b"revealed" if self.status == "finished" else b""}
        self.ruleset = ScriptedRules({"status": self.status, "winner": self.winner, "to_act": []})


def sheet(character: str, board: str = "dungeon", space: int = 0) -> dict[str, Any]:
    return {"character": character, "board": board, "space": space}


def test_a_character_killed_in_the_dungeon_is_killed_on_the_space_it_fell():
    fold = ScriptedFold(
        "dungeon-short",
        ["Ann", "Bo"],
        winner="Bo",
        state={"players": {"Ann": sheet(WARRIOR, space=7), "Bo": sheet(ELF, space=24)}},
    )
    events = [
        PlayerOut(player="Ann", reason="killed"),
        GameWon(player="Bo", reason="reached the Treasure Chamber"),
    ]
    assert exits_of(fold, events) == [
        Exit("Ann", WARRIOR, "killed", place("dungeon", 7)),
        Exit("Bo", ELF, "won"),
    ]
    assert place("dungeon", 7).endswith("(Dungeon 7)")


def test_fleeing_out_of_the_dungeon_is_fled_and_a_game_nobody_finishes_is_lost_by_all():
    fold = ScriptedFold(
        "dungeon-short", ["Ann", "Bo"], state={"players": {"Ann": sheet(WARRIOR), "Bo": sheet(ELF, space=3)}}
    )
    events = [
        PlayerOut(player="Ann", reason="fled the Dungeon"),
        GameEnded(winner="", reason="every character is out"),
    ]
    assert [e.how for e in exits_of(fold, events)] == ["fled", "lost"]


def test_a_keep_character_outside_after_its_flight_fled_unless_it_went_back_in():
    players = {"Ann": sheet(WARRIOR, "keep", 0), "Bo": sheet(ELF, "keep", 0), "Cy": sheet(DWARF, "keep", 21)}
    fold = ScriptedFold("keep-run", ["Ann", "Bo", "Cy"], winner="Cy", state={"players": players})
    events = [
        FlightEnded(player="Ann"),
        FlightEnded(player="Bo"),
        EntryTested(player="Bo", total=5, target=9, passed=True),
        GameWon(player="Cy", reason="survived the Talisman Vault with a Talisman"),
    ]
    assert [e.how for e in exits_of(fold, events)] == ["fled", "lost", "won"]


def test_every_character_a_main_board_player_played_has_its_exit_in_order():
    fold = ScriptedFold("talisman", ["Ann", "Bo"], winner="Bo")
    events = [
        CharacterDealt(player="Ann", character=WARRIOR, draw=0),
        CharacterDealt(player="Bo", character=ELF, draw=1),
        CharacterDied(player="Ann", character=WARRIOR, board="outer", space=17),
        CharacterRestarted(player="Ann", character=DWARF, draw=2, killed=WARRIOR, board="outer", space=0),
        CharacterDied(player="Ann", character=DWARF, board="inner", space=3),
        PlayerOut(player="Ann", reason="killed after the Crown of Command was reached"),
        GameWon(player="Bo", reason="the last character alive (house rule H5.19, docs/house-rules.md)"),
    ]
    assert exits_of(fold, events) == [
        Exit("Ann", WARRIOR, "killed", place("outer", 17)),
        Exit("Ann", DWARF, "killed", place("inner", 3)),
        Exit("Bo", ELF, "won"),
    ]


def test_a_main_board_game_ended_by_the_round_cap_is_lost_by_everyone_still_in_it():
    fold = ScriptedFold("talisman", ["Ann", "Bo"])
    cap = GameEnded(
        winner="",
        reason="house round cap for bot games (house rule H6.1, docs/house-rules.md): 400 rounds played",
    )
    events = [
        CharacterDealt(player="Ann", character=WARRIOR, draw=0),
        CharacterDealt(player="Bo", character=ELF, draw=1),
        cap,
    ]
    assert [(e.player, e.how) for e in exits_of(fold, events)] == [("Ann", "lost"), ("Bo", "lost")]


def test_a_game_not_over_is_still_being_played():
    fold = ScriptedFold("talisman", ["Ann"], status="running")
    assert exits_of(fold, [CharacterDealt(player="Ann", character=WARRIOR, draw=0)]) == [
        Exit("Ann", WARRIOR, "playing")
    ]


def test_vampire_empire_sides_win_or_lose_as_a_whole():
    players = {"Ann": {"side": "human"}, "Bo": {"side": "vampire"}}
    fold = ScriptedFold("vampire-empire", ["Ann", "Bo"], winner="Bo", state={"players": players})
    assert exits_of(fold, [GameEnded(winner="Bo", reason="humans-dead")]) == [
        Exit("Ann", "human", "lost"),
        Exit("Bo", "vampire", "won"),
    ]


def last_position(events: list[Any], player: str) -> tuple[str, int]:
    """Returns the board and space a character last moved or was teleported to, by the log."""
    position = ("", -1)
    for event in events:
        if isinstance(event, Moved) and event.piece == player:
            position = (event.board, event.to_space)
        elif isinstance(event, Teleported) and event.piece == player:
            position = ("keep", event.to_space)
    return position


def played(
    ruleset: str, index: int, players: int | None = None, options: dict[str, str] | None = None
) -> tuple[Any, list[Any]]:
    """Plays one seeded bot game; returns its final fold and its recorded events."""
    _, recorded = play_game(BotGames.of(ruleset, index + 1, "exits", players, options), index)
    return fold_recorded(recorded), recorded


@pytest.mark.parametrize("ruleset", ["dungeon-short", "keep-run"])
def test_seeded_race_games_give_every_seat_one_exit_that_agrees_with_the_log(ruleset):
    kills = 0
    for index in range(3):
        fold, recorded = played(ruleset, index)
        events = [r.event for r in recorded]
        exits = exits_of(fold, recorded)
        assert [e.player for e in exits] == fold.meta["players"]
        winners = [e.player for e in events if isinstance(e, GameWon)]
        assert [e.player for e in exits if e.how == "won"] == winners
        killed = {e.player for e in events if isinstance(e, PlayerOut) and e.reason == "killed"}
        assert {e.player for e in exits if e.how == "killed"} == killed
        kills += len(killed)
        for exit in exits:
            if exit.how == "killed":
                # Killed where it last moved to: the log's last move of that character names the space.
                assert exit.where == place(*last_position(events, exit.player))
        assert not any(e.how == "playing" for e in exits)
    assert kills > 0  # (these seeds kill characters: the places above were checked)


# (Seeds whose games end soon; the second kills characters in the Dungeon and the Keep too.)
@pytest.mark.parametrize(("options", "index"), [({}, 4), ({"dungeon": "true", "keep": "true"}, 0)])
def test_a_seeded_main_board_game_has_one_killed_exit_per_death_and_one_final_exit_per_seat(options, index):
    fold, recorded = played("talisman", index, players=2, options=options)
    events = [r.event for r in recorded]
    exits = exits_of(fold, recorded)
    deaths = [e for e in events if isinstance(e, CharacterDied)]
    killed = [e for e in exits if e.how == "killed"]
    seat_order = sorted(deaths, key=lambda d: fold.meta["players"].index(d.player))  # stable: play order
    assert len(deaths) > 0
    assert [(e.player, e.character, e.where) for e in killed] == [
        (d.player, d.character, place(d.board, d.space)) for d in seat_order
    ]
    if options:
        assert any("(Dungeon " in e.where or "(Keep " in e.where for e in killed)
    still_in = {e.player for e in exits if e.how != "killed"}
    outs = {e.player for e in events if isinstance(e, PlayerOut)}
    assert still_in == set(fold.meta["players"]) - outs


def test_seeded_vampire_empire_games_have_one_winning_side_or_none():
    fold, recorded = played("vampire-empire", 0)
    exits = exits_of(fold, recorded)
    assert sorted(e.character for e in exits) == ["human", "vampire"]
    assert [e.how for e in exits].count("won") <= 1
