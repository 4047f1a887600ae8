"""Seeded bot games of the `talisman` main board with the Dungeon (`dungeon=true`, RULES.md §2, §5),
capped for bots: after every event every character stands on exactly one board's space and every card
is in exactly one pile, space or sheet; across the games characters go down into the Dungeon and come
out of it again (Dungeon 5, 8)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from domain.actions import HOST, START
from domain.dice import Dice, HmacDice
from domain.events import Event, GameCreated
from domain.resolution import Resolution
from domain.rulesets.talisman.main.events import RegionCrossed
from domain.rulesets.talisman.main.ruleset import TalismanGame
from event_store.bot_games import bot_game_options
from event_store.service import GameService, play_with_bots

GAMES = 20
CAP = "400"
MAX_ACTIONS = 20_000
CARRIED = ("objects", "followers", "trophies", "spells", "talismans")


def every_card(state: dict[str, Any]) -> list[list[str]]:
    """Returns every list a card can be in: the piles, the spaces of every board, the sheets."""
    lists = list(state["piles"].values())
    for spaces in state["cards"].values():
        lists += spaces
    for sheet in state["players"].values():
        lists += [sheet[key] for key in CARRIED]
        lists.append([sheet["character"]])
    return lists


def ledger(state: dict[str, Any]) -> Counter[str]:
    return Counter(itertools.chain.from_iterable(every_card(state)))


class CheckedGame(TalismanGame):
    """The ruleset checking, after every event, where every character stands and the card ledger."""

    def __init__(self, options: dict[str, str], universe: Counter[str]) -> None:
        super().__init__(options)
        self.universe = universe
        self.sizes = self.ctx.sizes

    def resolution(self, state: dict[str, Any], dice: Dice, in_place: bool) -> Resolution:
        return Resolution(state, dice, self.evolve, in_place)

    def evolve(self, state: dict[str, Any], event: Event) -> dict[str, Any]:
        super().evolve(state, event)
        for name, sheet in state["players"].items():
            # exactly one board: the sheet names one, and the space is on it
            assert sheet["board"] in self.sizes, (name, event)
            assert 0 <= sheet["space"] < self.sizes[sheet["board"]], (name, event)
            assert sheet["lives"] >= 0, (name, event)
        if state["phase"] != "setup" and not dict.__eq__(ledger(state), self.universe):
            found = ledger(state)
            raise AssertionError(f"{event}: {found - self.universe} more, {self.universe - found} fewer")
        return state


def play(seed: int) -> tuple[dict[str, Any], list[Event]]:
    """Plays one seeded bot game with the Dungeon; returns the state at the end and the log."""
    rng = random.Random(seed)
    options = {"bot_round_cap": CAP, "dungeon": "true"}
    if seed % 5 == 1:
        options["dungeon.talisman_exit"] = "true"
    elif seed % 5 == 2:
        options["dungeon.crown_exit"] = "true"
    players = [{"name": f"P{n}", "character": ""} for n in range(rng.choice((2, 3, 4)))]
    plain = TalismanGame(options)
    created = GameCreated(
        ruleset="talisman",
        players=players,  # type: ignore[arg-type]
        options=plain.options,
        content_hash="",
        scripted=False,
        dice_script=[],
        nightkeep_version="0.2.0",
    )
    game = CheckedGame(options, ledger(plain.initial_state(created)))
    state = game.initial_state(created)
    dice = HmacDice(seed.to_bytes(32, "big"))
    log = game.decide_in_place(state, START, HOST, dice)
    for _ in range(MAX_ACTIONS):
        if state["phase"] == "over":
            break
        actions = game.legal_actions(state)
        assert actions, f"seed {seed}: nobody can act in round {state['round']}"
        action = rng.choices(actions, [game.bot_weight(state, a) for a in actions])[0]
        log += game.decide_in_place(state, action.id, action.player, dice)
    return state, log


@pytest.fixture(scope="module")
def played() -> list[tuple[dict[str, Any], list[Event]]]:
    return [play(seed) for seed in range(GAMES)]


def test_every_bot_game_with_the_dungeon_ends_and_keeps_its_invariants(played):
    """RULES.md §2: every game ends (a win or the cap); the checks ran on every event of every game."""
    for state, _ in played:
        assert state["phase"] == "over"


def test_bot_characters_go_down_into_the_dungeon_and_come_out_again(played):
    """Dungeon 5.2, 8.1-8.3: across the games characters enter the Dungeon and leave it for the main board."""
    crossings = [e for _, log in played for e in log if isinstance(e, RegionCrossed)]
    assert any(e.to_board == "dungeon" for e in crossings)
    assert any(e.from_board == "dungeon" for e in crossings)


def test_a_bot_game_with_the_dungeon_played_through_the_store_audits_clean():
    """RULES.md §2: a stored game with the Dungeon re-folds and re-decides to the very events recorded."""
    service = GameService.open(":memory:")
    options = bot_game_options("talisman", {"dungeon": "true"})
    game_id = service.create_game("talisman", [("Ann", None), ("Bo", None)], options)
    play_with_bots(service, game_id, seed=5, max_actions=1500)
    report = service.audit(game_id)
    assert report.ok, report.findings[:3]
    assert any(isinstance(e, RegionCrossed) and e.to_board == "dungeon" for e in report.decoded)
