"""Small steps every Talisman board's rules share: whose sheet, who is still in, losing lives, and the
die-table effects of Events, Strangers and Places (house rules H1)."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from domain.events import LifeGained, LifeLost, PlayerOut
from domain.resolution import Resolution
from domain.rulesets.talisman.cards import Outcome
from domain.rulesets.talisman.character import PLAYING
from domain.rulesets.talisman.events import GoldChanged, StatChanged, TurnLost
from domain.rulesets.talisman.shapes import Sheet, TalismanState

# How a board moves a character back a number of spaces for a card (the board knows its first space).
MoveBack = Callable[[Resolution, str, int, str], None]


@dataclass(frozen=True, slots=True)
class GameRules:
    """How a game whose rules differ from the short games' replaces two shared steps while it resolves
    an action on a board of theirs: the main board (house rules H5) kills a character at 0 lives by its own
    rule (a new character, not out of the race) and fights with its items, abilities and readied Spells.
    `fight(res, player, opponent, value, kind)` returns the outcome."""

    kill: Callable[[Resolution, str], None]
    fight: Callable[[Resolution, str, str, int, str], str]


# Set by the game resolving an action (the `talisman` ruleset, with an expansion in play); None: the short
# games' own steps.
GAME_RULES: ContextVar[GameRules | None] = ContextVar("game_rules", default=None)


def state_of(res: Resolution) -> TalismanState:
    """Returns the working state, typed."""
    state: TalismanState = res.state  # an annotation, not typing.cast: no call on every rule step
    return state


def sheet_of(res: Resolution, player: str) -> Sheet:
    """Returns a player's sheet in the working state."""
    sheet: Sheet = res.state["players"][player]
    return sheet


def stat_of(sheet: Sheet, stat: str) -> int:
    """Returns a sheet's Strength or Craft, current (`strength`) or starting (`base_strength`), by name."""
    stats = {
        "strength": sheet["strength"],
        "craft": sheet["craft"],
        "base_strength": sheet["base_strength"],
        "base_craft": sheet["base_craft"],
    }
    return stats[stat]


def cards_at(res: Resolution, player: str, space: int) -> list[str]:
    """Returns the face-up cards on `space` of the board the player stands on."""
    return state_of(res)["cards"][sheet_of(res, player)["board"]][space]


def gold_at(res: Resolution, player: str, space: int) -> int:
    """Returns the gold lying on `space` of the board the player stands on."""
    return state_of(res)["gold"][sheet_of(res, player)["board"]][space]


def is_over(res: Resolution) -> bool:
    """Tells whether the game ended while resolving."""
    return state_of(res)["phase"] == "over"


def in_play(res: Resolution, player: str) -> bool:
    """Tells whether a player is still in the race."""
    return bool(sheet_of(res, player)["status"] == PLAYING)


def still_on(res: Resolution, player: str, space: int) -> bool:
    """Tells whether the player can go on encountering `space` (alive, still there, game running)."""
    return not is_over(res) and in_play(res, player) and sheet_of(res, player)["space"] == space


def check_killed(res: Resolution, player: str) -> None:
    """Takes a character at 0 lives out of the race (short games: no new character; a game that set
    `GAME_RULES` kills by its own rule)."""
    if in_play(res, player) and sheet_of(res, player)["lives"] <= 0:
        rules = GAME_RULES.get()
        if rules is not None:
            rules.kill(res, player)
            return
        res.emit(PlayerOut(player=player, reason="killed"))


def lose_lives(res: Resolution, player: str, amount: int, reason: str) -> None:
    """Takes lives (no save, never below 0) and puts a character at 0 lives out."""
    # A replaced deck may take more lives than a character has left; lives never go below 0.
    amount = min(amount, sheet_of(res, player)["lives"])
    if amount > 0:
        res.emit(LifeLost(player=player, amount=amount, reason=reason))
    check_killed(res, player)


def _gain_life(res: Resolution, player: str, amount: int, card: str) -> None:
    res.emit(LifeGained(player=player, amount=amount, reason=card))


def _gain_gold(res: Resolution, player: str, amount: int, card: str) -> None:
    res.emit(GoldChanged(player=player, amount=amount, reason=card))


def _lose_gold(res: Resolution, player: str, amount: int, card: str) -> None:
    amount = min(amount, sheet_of(res, player)["gold"])
    if amount:
        res.emit(GoldChanged(player=player, amount=-amount, reason=card))


def _gain_stat(stat: str) -> Callable[[Resolution, str, int, str], None]:
    def apply(res: Resolution, player: str, amount: int, card: str) -> None:
        res.emit(StatChanged(player=player, stat=stat, amount=amount, reason=card))

    return apply


def _lose_turn(res: Resolution, player: str, amount: int, card: str) -> None:
    for _ in range(max(1, amount)):
        res.emit(TurnLost(player=player, reason=card))


def _nothing(res: Resolution, player: str, amount: int, card: str) -> None:
    return None


EFFECTS: dict[str, Callable[[Resolution, str, int, str], None]] = {
    "lose_life": lose_lives,
    "gain_life": _gain_life,
    "gain_gold": _gain_gold,
    "lose_gold": _lose_gold,
    "gain_strength": _gain_stat("strength"),
    "gain_craft": _gain_stat("craft"),
    "lose_turn": _lose_turn,
    "nothing": _nothing,
}


def apply_outcome(res: Resolution, player: str, card: str, outcome: Outcome, move_back: MoveBack) -> None:
    """Applies one die-table line to the player (effects are validated at load)."""
    if outcome.effect == "move_back":
        move_back(res, player, outcome.amount, card)
        return
    EFFECTS.get(outcome.effect, _nothing)(res, player, outcome.amount, card)
