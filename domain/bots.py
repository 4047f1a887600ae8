"""Bots: pick one legal action at random, weighted by the ruleset's taste, from a seeded generator.

A bot's choice is a player's decision, not game chance: it is recorded as an ordinary ActionTaken and
its dice still come from the game's fair draws, so bot randomness never touches the provable dice.
"""

from __future__ import annotations

import random

from domain.actions import Action
from domain.rulesets import Ruleset
from domain.rulesets.base import S


class Bot:
    """A seeded random player that chooses among legal actions with the ruleset's weights."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, ruleset: Ruleset[S], state: S, actions: list[Action]) -> Action:
        """Chooses one of the given legal actions."""
        if not actions:
            raise ValueError("a bot needs at least one legal action")
        weigh = ruleset.bot_weight
        weights = [max(0.0, float(weigh(state, a))) for a in actions]
        if sum(weights) <= 0:
            weights = [1.0] * len(actions)
        return self._rng.choices(actions, weights=weights, k=1)[0]
