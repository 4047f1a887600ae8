"""What the `talisman` bot-game property tests share (`test_main_playout`, `test_exp_playout`): the card
ledger over every pile, space and sheet, a ruleset that checks the invariants on its working state after
every event it applies, the seats of a seeded game and the seeded game itself, played with the decider
directly (no store)."""

from __future__ import annotations

import functools
import itertools
import operator
import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from domain.actions import HOST, START, Action
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
from domain.rulesets.keep.content import load_tables
from domain.rulesets.keep.moves import counter_ids, counter_value
from domain.rulesets.keep.state import COUNTERS, LAST
from domain.rulesets.talisman.events import (
    ChoiceMade,
    ChoiceOffered,
    GoldChanged,
    GoldTaken,
    LifeSaved,
    PlayOpened,
    StatChanged,
    TurnLost,
    TurnSkipped,
)
from domain.rulesets.talisman.main.events import (
    AlignmentChanged,
    CommandSpellCast,
    QuestCompleted,
    QuestGiven,
    RegionCrossed,
)
from domain.rulesets.talisman.main.ruleset import TalismanGame

MAX_ACTIONS = 20_000  # far above what 400 rounds of six characters take
CARRIED = ("objects", "followers", "trophies", "spells", "talismans")
_carried = operator.itemgetter(*CARRIED)
# Lists of cards an expansion keeps in the main state outside piles, spaces and sheets (what characters
# killed in the Keep's Vault left there, Keep 9.1), read when the state has them.
KEPT = ("vault_spells", "vault_talismans")
# Events that move no card: after them only the count of cards is checked, after any other the ledger.
QUIET = frozenset({
    DieRolled, TurnEnded, Moved, CombatResolved, LifeLost, LifeGained, ChoiceOffered, ChoiceMade,
    TurnLost, TurnSkipped, GoldChanged, GoldTaken, StatChanged, LifeSaved, PlayOpened, RegionCrossed,
    AlignmentChanged, CommandSpellCast, QuestGiven, QuestCompleted,
})  # fmt: skip


def every_card(state: Mapping[str, Any]) -> list[list[str]]:
    """Returns every list a card can be in: the piles, the spaces of every board, the sheets (a
    character's card too) and the lists an expansion keeps of its own."""
    lists = list(state["piles"].values())
    for spaces in state["cards"].values():
        lists += spaces
    for sheet in state["players"].values():
        lists += [sheet[key] for key in CARRIED]
        lists.append([sheet["character"]])
    lists += [state[key] for key in KEPT if isinstance(state.get(key), list)]
    return lists


def card_count(state: Mapping[str, Any]) -> int:
    """Counts the cards of `every_card` without listing them (after each quiet event: it must be quick;
    a Teleport counter drawn is counted on its tile)."""
    total = sum(map(len, state["piles"].values()))
    for spaces in state["cards"].values():
        total += sum(map(len, spaces))
    for sheet in state["players"].values():
        total += 1 + sum(map(len, _carried(sheet)))
    total += sum(len(state[key]) for key in KEPT if isinstance(state.get(key), list))
    return total + (len(state["tiles"]) - state["tiles"].count(0) if "tiles" in state else 0)


def ledger(state: Mapping[str, Any]) -> Counter[str]:
    """Counts every card wherever it lies. With the Keep in play (house rule H3.10), a Teleport counter drawn
    lies on its tile, which the state knows only by the space it sends to (`tiles`), so every counter is
    counted by that space; the Treasure Hoard's items come from a bank, not a deck (Keep 15.2), and are
    not counted."""
    if "tiles" not in state:
        return Counter(itertools.chain.from_iterable(every_card(state)))
    left = state["piles"][COUNTERS]
    found = Counter(itertools.chain.from_iterable(cards for cards in every_card(state) if cards is not left))
    names = counter_names()
    found.update(names[card] for card in left)
    found.update(names[space] for space in state["tiles"] if space)
    if state.get("hoard"):
        for card in hoard_items():
            found.pop(card, None)
    return found


@functools.cache
def hoard_items() -> tuple[str, ...]:
    """Returns the ids of the Treasure Hoard's items (Keep 15.2)."""
    return tuple(load_tables().items)


@functools.cache
def counter_names() -> dict[str | int, str]:
    """Names each Teleport counter, and each space a tile sends to, by that space (see `ledger`)."""
    names: dict[str | int, str] = {card: f"counter-to:{counter_value(card)}" for card in counter_ids()}
    return names | {space: f"counter-to:{space}" for space in range(1, LAST + 1)}


class CheckedGame(TalismanGame):
    """The `talisman` ruleset checking the invariants on the working state after every event it applies."""

    base_stats = True  # Strength and Craft never fall under their starting values

    def __init__(self, options: dict[str, str], universe: Counter[str]) -> None:
        super().__init__(options)
        self.universe = universe
        self.count = -1  # the cards counted at the last whole check (-1: none yet)
        self.sizes = self.ctx.sizes
        self.checked = 0

    def resolution(self, state: dict[str, Any], dice: Dice, in_place: bool) -> Resolution:
        return Resolution(state, dice, self.evolve, in_place)  # every event through evolve, checked

    def evolve(self, state: dict[str, Any], event: Event) -> dict[str, Any]:
        super().evolve(state, event)
        self.check(state, event)
        return state

    def check(self, state: dict[str, Any], event: Event) -> None:
        """Checks every sheet, then the cards: after a quiet event (or one the ruleset has no evolve step
        for) that none moved (their count is the same), after any other the whole ledger against the cards
        the game began with."""
        self.checked += 1
        for name, sheet in state["players"].items():
            self.check_sheet(state, sheet, (name, event.type_name))
        if state["phase"] == "setup":
            return
        kind = type(event)
        if (kind in QUIET or kind not in self.handlers) and self.count >= 0:  # no step: nothing changes
            assert card_count(state) == self.count, event
            return
        if not dict.__eq__(ledger(state), self.universe):  # (a dict's == runs in C, a Counter's not)
            found = ledger(state)
            raise AssertionError(f"{event}: {found - self.universe} more, {self.universe - found} fewer")
        self.count = card_count(state)

    def check_sheet(self, state: dict[str, Any], sheet: dict[str, Any], where: tuple[Any, ...]) -> None:
        """Checks one character: on a space of its board, lives never negative (and its base stats)."""
        board, space = sheet["board"], sheet["space"]
        assert 0 <= space < self.sizes[board], (*where, board, space)
        assert sheet["lives"] >= 0, (*where, sheet["lives"])
        if self.base_stats:
            assert sheet["strength"] >= sheet["base_strength"], (*where, "strength")
            assert sheet["craft"] >= sheet["base_craft"], (*where, "craft")


def seats(rng: random.Random) -> list[dict[str, str]]:
    """Two or three characters mostly, up to six now and then (a capped game of six is 15,000 events);
    sometimes a seat names its character (no pick for it)."""
    count = rng.choices(range(2, 7), weights=(10, 6, 2, 1, 1))[0]
    named = rng.random() < 0.3
    return [
        {"name": f"P{n}", "character": "talisman/character/warrior" if named and n == 0 else ""}
        for n in range(count)
    ]


def created_for(players: list[dict[str, str]], options: dict[str, str]) -> GameCreated:
    """Returns the GameCreated of a bot game of `talisman` with these seats and (recorded) options."""
    return GameCreated(
        ruleset="talisman",
        players=players,  # type: ignore[arg-type]
        options=TalismanGame(options).options,
        content_hash="",
        scripted=False,
        dice_script=[],
        nightkeep_version="0.2.0",
    )


def play(
    seed: int,
    options: dict[str, str],
    checked: type[CheckedGame] = CheckedGame,
    offered: Callable[[CheckedGame, dict[str, Any], list[Action]], None] | None = None,
) -> tuple[CheckedGame, dict[str, Any], dict[str, Any], list[Event]]:
    """Plays one seeded bot game; returns the ruleset, the state before the deal and after, and the log.
    `offered(game, state, actions)` is asked before every pick (a check of the actions offered)."""
    rng = random.Random(seed)
    players = seats(rng)
    created = created_for(players, options)
    initial = TalismanGame(options).initial_state(created)
    universe = ledger(initial) + Counter(p["character"] for p in players if p["character"])
    game = checked(options, universe)
    state = game.initial_state(created)
    dice = HmacDice(seed.to_bytes(32, "big"))
    log = game.decide_in_place(state, START, HOST, dice)
    for _ in range(MAX_ACTIONS):
        if state["phase"] == "over":
            break
        actions = game.legal_actions(state)
        assert actions, f"seed {seed}: nobody can act in round {state['round']}"
        if offered is not None:
            offered(game, state, actions)
        action = rng.choices(actions, [game.bot_weight(state, a) for a in actions])[0]
        log += game.decide_in_place(state, action.id, action.player, dice)
    return game, initial, state, log


def rebuilt(options: Mapping[str, str], initial: dict[str, Any], log: list[Event]) -> dict[str, Any]:
    """Folds a game's log onto its state before the deal with a plain ruleset (no rules, no dice)."""
    plain = TalismanGame(options)
    state = initial
    for event in log:
        plain.evolve(state, event)
    return state
