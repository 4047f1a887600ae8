"""Combat and psychic combat (house rule H1.5): one resolution given dice, armour saves and trophies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Protocol

from domain.dice import Dice
from domain.events import CombatResolved, DieRolled, Event, LifeLost
from domain.rulesets.talisman.character import Item, best_armour
from domain.rulesets.talisman.events import LifeSaved, TrophiesTraded, TrophyTaken
from domain.rulesets.talisman.shapes import Sheet

COMBAT = "combat"
PSYCHIC = "psychic"
WON, LOST, STANDOFF = "won", "lost", "standoff"
TROPHY_POINTS = 7  # house rule H1.6: 7 points of trophies buy +1 Strength (monsters) or +1 Craft (spirits)
TROPHY_STAT = {"monster": "strength", "spirit": "craft"}


class Trophy(Protocol):
    """What a killed enemy card is worth as a trophy."""

    @property
    def trophy_kind(self) -> str: ...

    @property
    def trophy_value(self) -> int: ...


def resolve_combat(
    player: str, player_value: int, opponent: str, opponent_value: int, kind: str, dice: Dice
) -> tuple[str, list[Event]]:
    """Rolls one die for each side and compares totals; returns the outcome for `player` and the events."""
    values, draws = dice.roll(6, 2)
    mine_total, theirs_total = player_value + values[0], opponent_value + values[1]
    outcome = compare_totals(mine_total, theirs_total)
    return outcome, fight_events(player, opponent, kind, (mine_total, theirs_total), outcome, values, draws)


def compare_totals(mine: int, theirs: int) -> str:
    """Returns the outcome of a fight for the side whose total is `mine` (a tie is a stand-off)."""
    return WON if mine > theirs else LOST if mine < theirs else STANDOFF


def fight_events(
    player: str,
    opponent: str,
    kind: str,
    totals: tuple[int, int],
    outcome: str,
    values: list[int],
    draws: list[int],
) -> list[Event]:
    """Returns a fight as recorded: the dice rolled (`values`, `draws`), then the totals and outcome."""
    purpose = COMBAT if kind == COMBAT else "psychic-combat"
    return [
        DieRolled(player=player, purpose=purpose, sides=6, values=values, draws=draws),
        CombatResolved(
            player=player,
            opponent=opponent,
            kind=kind,
            player_total=totals[0],
            opponent_total=totals[1],
            outcome=outcome,
        ),
    ]


def lose_combat_life(
    player: str, sheet: Sheet, kind: str, items: Mapping[str, Item], dice: Dice, reason: str
) -> list[Event]:
    """Returns the events of a lost combat's life: one save roll with the best armour, else LifeLost."""
    item, save_on = best_armour(sheet, items)
    # house rule H1.5: no Object saves a life lost in psychic combat.
    if kind == COMBAT and item:
        (face,), draws = dice.roll(6)
        events: list[Event] = [
            DieRolled(player=player, purpose="armour", sides=6, values=[face], draws=draws)
        ]
        if face >= save_on:
            return [*events, LifeSaved(player=player, item=item)]
        return [*events, LifeLost(player=player, amount=1, reason=reason)]
    return [LifeLost(player=player, amount=1, reason=reason)]


def _cheapest_trade(values: Sequence[tuple[str, int]]) -> list[str]:
    best: tuple[int, int, list[str]] | None = None
    for size in range(1, len(values) + 1):
        for combo in combinations(values, size):
            total = sum(v for _, v in combo)
            if total >= TROPHY_POINTS and (best is None or (total, size) < best[:2]):
                best = (total, size, [card for card, _ in combo])
    return best[2] if best else []


def take_trophy(player: str, sheet: Sheet, card: str, space: int, cards: Mapping[str, Trophy]) -> list[Event]:
    """Returns TrophyTaken for a killed enemy, then TrophiesTraded when that kind reaches 7 points."""
    enemy = cards[card]
    events: list[Event] = [
        TrophyTaken(player=player, card=card, space=space, kind=enemy.trophy_kind, value=enemy.trophy_value)
    ]
    same = [
        (c, cards[c].trophy_value)
        for c in [*sheet["trophies"], card]
        if c in cards and cards[c].trophy_kind == enemy.trophy_kind
    ]
    if sum(v for _, v in same) >= TROPHY_POINTS:
        # The trade spends the cheapest set of trophies worth 7 or more (fewest points wasted).
        traded = _cheapest_trade(same[:12])
        events.append(
            TrophiesTraded(player=player, cards=traded, stat=TROPHY_STAT[enemy.trophy_kind], amount=1)
        )
    return events
