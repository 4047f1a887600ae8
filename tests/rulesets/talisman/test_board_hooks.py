"""Boards plug into the Talisman rules through small hooks (issue 13): the Dungeon's and the Keep's
boards are BoardHooks, and the short games' wins are WinOnArrival installed on the board's centre."""

from __future__ import annotations

from typing import Any

from domain.actions import HOST, START
from domain.dice import ScriptedDice
from domain.events import CombatResolved, Event, GameCreated, GameWon, Moved, PlayerOut
from domain.resolution import Resolution
from domain.rulesets.dungeon.content import load_board
from domain.rulesets.dungeon.effects import DungeonBoard, spiral_hooks
from domain.rulesets.dungeon.encounters import GUARD
from domain.rulesets.dungeon.short_game import DungeonShort
from domain.rulesets.keep.board import KeepBoard
from domain.rulesets.keep.events import EntryTested, TalismanTaken, VaultCardMet
from domain.rulesets.keep.run import KeepRun
from domain.rulesets.talisman.events import FleeingDeclared
from domain.rulesets.talisman.hooks import BoardHooks, WinOnArrival, move_on_board
from tests import decider_helpers as helpers

dungeon, keep = DungeonShort(), KeepRun()
V = "keep/vault/"
STONE_GUARDIAN, PHANTOM_KEEPER, SPIKED_PIT = V + "stone-guardian", V + "phantom-keeper", V + "spiked-pit"


def created(ruleset: Any, options: dict[str, str] | None = None) -> GameCreated:
    return GameCreated(
        ruleset=ruleset.name,
        players=[{"name": "Ann", "character": "warrior"}, {"name": "Bo", "character": "troll"}],
        options=options or {},
        content_hash=ruleset.content_hash(),
        scripted=True,
        dice_script=[],
        nightkeep_version="test",
    )


def started(ruleset: Any, options: dict[str, str] | None = None) -> dict[str, Any]:
    state = ruleset.initial_state(created(ruleset, options))
    return helpers.fold(ruleset, state, ruleset.decide(state, START, HOST, ScriptedDice()))


def resolution(ruleset: Any, state: dict[str, Any], dice: ScriptedDice | None = None) -> Resolution:
    return Resolution(state, dice or ScriptedDice(), ruleset.evolve)


class Recording(BoardHooks):
    """A board that records which hooks ran, in order."""

    board = "dungeon"
    centre = 24

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def entered(self, res: Resolution, player: str, space: int, reason: str) -> None:
        self.calls.append(("entered", player, space, reason))

    def left(self, res: Resolution, player: str, space: int, reason: str) -> None:
        self.calls.append(("left", player, space, reason, len(res.events)))

    def reached_centre(self, res: Resolution, player: str) -> None:
        self.calls.append(("centre", player))


def test_move_on_board_runs_left_before_the_move_then_entered_then_reached_centre():
    hooks, res = Recording(), resolution(dungeon, started(dungeon))
    move_on_board(res, hooks, "Ann", 24, "roll")
    assert res.events == [Moved(piece="Ann", board="dungeon", from_space=0, to_space=24, reason="roll")]
    assert hooks.calls == [("left", "Ann", 0, "roll", 0), ("entered", "Ann", 24, "roll"), ("centre", "Ann")]
    assert res.state["players"]["Ann"]["board"] == "dungeon" and res.state["players"]["Ann"]["space"] == 24


def test_move_on_board_to_the_space_it_stands_on_records_no_move_but_still_enters_it():
    hooks, res = Recording(), resolution(dungeon, started(dungeon))
    move_on_board(res, hooks, "Ann", 0, "card")
    assert res.events == [] and hooks.calls == [("entered", "Ann", 0, "card")]


def test_dungeon_14_the_short_game_installs_win_on_arrival_on_the_treasure_chamber():
    hooks = dungeon.board()
    assert hooks.arrival is DungeonShort.arrival and hooks.centre == 24 and hooks.board == "dungeon"
    assert dungeon.board() is hooks  # made once per board content
    res = resolution(dungeon, started(dungeon))
    move_on_board(res, hooks, "Ann", 24, "roll")
    assert res.events[-1] == GameWon(player="Ann", reason="reached the Treasure Chamber")
    assert res.state["phase"] == "over" and res.state["winner"] == "Ann"


def test_a_dungeon_board_without_the_short_games_win_lets_its_centre_do_something_else():
    reached: list[str] = []
    hooks = DungeonBoard(lambda res, player: reached.append(player))
    res = resolution(dungeon, started(dungeon))
    move_on_board(res, hooks, "Ann", 24, "roll")
    assert reached == ["Ann"] and not any(isinstance(e, GameWon) for e in res.events)


def test_dungeon_9_1_the_dungeons_entered_hook_takes_a_fleeing_character_out_on_the_entrance():
    state = started(dungeon)
    helpers.fold(
        dungeon, state, [Moved(piece="Ann", board="dungeon", from_space=0, to_space=2, reason="given")]
    )
    res = resolution(dungeon, state)
    dungeon.board().move_back(res, "Ann", 3, "a card")  # sent back, not fleeing: still in
    assert res.events == [Moved(piece="Ann", board="dungeon", from_space=2, to_space=0, reason="card")]
    res = resolution(dungeon, state)
    res.emit(FleeingDeclared(player="Ann"))
    dungeon.board().move(res, "Ann", 0, "flight")
    assert res.events[-1] == PlayerOut(player="Ann", reason="fled the Dungeon")


def _at_the_vault_door(options: dict[str, str] | None = None) -> dict[str, Any]:
    state = started(keep, options)
    events: list[Event] = [
        EntryTested(player="Ann", total=3, target=11, passed=True),
        Moved(piece="Ann", board="keep", from_space=1, to_space=20, reason="given"),
    ]
    return helpers.fold(keep, state, events)


def test_keep_9_1_the_keep_run_installs_win_on_arrival_after_the_vault_is_survived():
    state = _at_the_vault_door()
    hooks = keep.board(state)
    assert (hooks.centre, hooks.board) == (21, "keep")
    dice = ScriptedDice(values=(6, 1, 6, 1, 3), cards=(STONE_GUARDIAN, PHANTOM_KEEPER, SPIKED_PIT))
    res = resolution(keep, state, dice)
    hooks.move(res, "Ann", 21, "roll")
    assert res.events[1] == TalismanTaken(player="Ann", from_vault=False)
    assert res.events[-1] == GameWon(player="Ann", reason="survived the Talisman Vault with a Talisman")
    hoard = keep.board(_at_the_vault_door({"hoard": "true"}))
    assert hoard is not hooks and hoard.arrival is not hooks.arrival


def test_keep_5_3_the_keeps_move_stays_on_its_spaces_and_a_move_back_meets_nothing():
    state = _at_the_vault_door()
    res = resolution(keep, state)
    keep.board(state).move_back(res, "Ann", 30, "keep/spell/banishing-gust")
    assert res.events == [Moved(piece="Ann", board="keep", from_space=20, to_space=1, reason="card")]


def test_keep_9_1_a_keep_board_runs_its_installed_ending_only_for_a_survivor():
    reached: list[str] = []
    hooks = KeepBoard(lambda res, player: reached.append(player))
    dice = ScriptedDice(values=(6, 1, 6, 1, 3), cards=(STONE_GUARDIAN, PHANTOM_KEEPER, SPIKED_PIT))
    res = resolution(keep, _at_the_vault_door(), dice)
    move_on_board(res, hooks, "Ann", 21, "roll")
    assert reached == ["Ann"] and not any(isinstance(e, GameWon) for e in res.events)
    assert [e.outcome for e in res.events if isinstance(e, VaultCardMet)] == ["won", "won", "escaped"]


def test_a_longer_replaced_dungeon_board_has_its_centre_where_its_treasure_chamber_is():
    hooks = spiral_hooks(30, DungeonShort.arrival)
    assert (hooks.centre, DungeonBoard.centre, hooks.board) == (30, 24, "dungeon")
    assert spiral_hooks(24, DungeonShort.arrival).centre == 24


def test_dungeon_7_1_the_dungeons_encounter_hook_meets_the_guard_on_the_guard_room():
    state = started(dungeon)
    guard_room = next(s.index for s in load_board().spaces if s.kind == "guard-room")
    helpers.fold(
        dungeon,
        state,
        [Moved(piece="Ann", board="dungeon", from_space=0, to_space=guard_room, reason="given")],
    )
    res = resolution(dungeon, state, ScriptedDice(values=(6, 1)))
    dungeon.board().encounter(res, "Ann", guard_room)
    assert [e.opponent for e in res.events if isinstance(e, CombatResolved)] == [GUARD]


def test_win_on_arrival_records_the_win_with_its_reason():
    res = resolution(dungeon, started(dungeon))
    WinOnArrival("got there")(res, "Bo")
    assert res.events == [GameWon(player="Bo", reason="got there")] and res.state["winner"] == "Bo"
