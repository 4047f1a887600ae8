"""20 seeded bot games of `talisman` with the Vampire's Keep (`keep=true`, RULES.md §3, §5), checked after
every event: every character stands on exactly one board (a space of it), and every card is in exactly one
place (a pile, a space, a sheet; the Teleport counters on the Keep's tiles are counted there). The bots go
into the Keep and come out again."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from domain.actions import HOST, START
from domain.dice import Dice, HmacDice
from domain.events import (
    CombatResolved,
    DieRolled,
    Event,
    GameCreated,
    LifeGained,
    LifeLost,
    Moved,
    TurnEnded,
)
from domain.resolution import Resolution
from domain.rulesets.keep.events import ChoiceMade, ChoiceOffered, EntryTested, Teleported, VaultCardMet
from domain.rulesets.keep.moves import counter_value
from domain.rulesets.talisman.events import GoldChanged, StatChanged, TurnLost
from domain.rulesets.talisman.main.events import RegionCrossed
from domain.rulesets.talisman.main.ruleset import TalismanGame

GAMES = 20
MAX_ACTIONS = 20_000
CARRIED = ("objects", "followers", "trophies", "spells", "talismans")
OPTIONS = {"keep": "true", "bot_round_cap": "400"}
KEEP_IDS = frozenset({"enter", "roll", "flee", "leave", "exit", "choose:go", "choose:stay"})
# Events that move no card: after them the cards are only counted, after any other the ledger is compared.
QUIET = frozenset({
    DieRolled, TurnEnded, Moved, CombatResolved, LifeLost, LifeGained, ChoiceOffered, ChoiceMade,
    GoldChanged, StatChanged, TurnLost, RegionCrossed, Teleported,
})  # fmt: skip


def ledger(state: dict[str, Any]) -> Counter[str]:
    """Returns every card where it is: piles, spaces, sheets, and the counters on the Keep's tiles."""
    lists: list[list[str]] = list(state["piles"].values())
    for spaces in state["cards"].values():
        lists += spaces
    for sheet in state["players"].values():
        lists += [sheet[key] for key in CARRIED] + [[sheet["character"]]]
    on_tiles = Counter(f"counter-to:{dest}" for dest in state["tiles"] if dest)
    found = Counter(itertools.chain.from_iterable(lists))
    counters = Counter(f"counter-to:{counter_value(c)}" for c in found if c.startswith("keep/counter/"))
    found = Counter({card: n for card, n in found.items() if not card.startswith("keep/counter/")})
    return found + counters + on_tiles


class CheckedGame(TalismanGame):
    """The ruleset checking the invariants on the working state after every event it applies."""

    def __init__(self, universe: Counter[str]) -> None:
        super().__init__(OPTIONS)
        self.universe = universe

    def resolution(self, state: dict[str, Any], dice: Dice, in_place: bool) -> Resolution:
        return Resolution(state, dice, self.evolve, in_place)

    def evolve(self, state: dict[str, Any], event: Event) -> dict[str, Any]:
        super().evolve(state, event)
        if state["phase"] != "setup":
            self.check(state, event)
        return state

    def check(self, state: dict[str, Any], event: Event) -> None:
        for name, sheet in state["players"].items():
            boards = [board for board in state["cards"] if board == sheet["board"]]
            assert len(boards) == 1, (name, event)
            assert 0 <= sheet["space"] < len(state["cards"][sheet["board"]]), (name, event)
        if type(event) in QUIET:
            return
        found = ledger(state)
        if not dict.__eq__(found, self.universe):
            raise AssertionError(f"{event}: {found - self.universe} more, {self.universe - found} fewer")


def play(seed: int) -> tuple[dict[str, Any], list[Event]]:
    """Plays one seeded bot game of two to four characters, checking that the Keep's actions are legal
    exactly when offered; returns the final state and the log."""
    rng = random.Random(seed)
    players = [{"name": f"P{n}", "character": ""} for n in range(rng.choice((2, 3, 4)))]
    plain = TalismanGame(OPTIONS)
    created = GameCreated(
        ruleset="talisman",
        players=players,  # type: ignore[arg-type]
        options=plain.options,
        content_hash="",
        scripted=False,
        dice_script=[],
        nightkeep_version="0.2.0",
    )
    game = CheckedGame(ledger(plain.initial_state(created)))
    state = game.initial_state(created)
    dice = HmacDice(seed.to_bytes(32, "big"))
    log = game.decide_in_place(state, START, HOST, dice)
    for _ in range(MAX_ACTIONS):
        if state["phase"] == "over":
            break
        actions = game.legal_actions(state)
        assert actions, f"seed {seed}: nobody can act"
        offered = {a.id for a in actions}
        # The fast legality check agrees with the actions offered (on the Keep too).
        assert all(game.is_legal(state, a.player, a.id) for a in actions), seed
        player = actions[0].player
        assert not any(game.is_legal(state, player, i) for i in KEEP_IDS - offered), (seed, offered)
        action = rng.choices(actions, [game.bot_weight(state, a) for a in actions])[0]
        log += game.decide_in_place(state, action.id, action.player, dice)
    return state, log


@pytest.fixture(scope="module")
def played() -> dict[int, tuple[dict[str, Any], list[Event]]]:
    return {seed: play(seed) for seed in range(GAMES)}


def test_rules_5_every_bot_game_with_the_keep_ends_and_keeps_its_invariants(played):
    """RULES.md §5, §3: every game ends (by the rules or at the bot round cap), every event checked."""
    for seed, (state, _) in played.items():
        assert state["phase"] == "over", seed


def test_keep_4_bots_go_into_the_keep_reach_the_vault_and_come_out(played):
    """Keep 4, 9.1: over the games, characters pass the entry test, meet the Vault and leave the Keep."""
    logs = [log for _, log in played.values()]
    entered = sum(isinstance(e, EntryTested) and e.passed for log in logs for e in log)
    vault = sum(isinstance(e, VaultCardMet) for log in logs for e in log)
    out = sum(isinstance(e, RegionCrossed) and e.from_board == "keep" for log in logs for e in log)
    assert entered > 0 and vault > 0 and out > 0
