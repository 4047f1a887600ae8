"""Dice fairness over many games: for each die purpose, each player and all dice together, the faces
seen against a fair die's, with a chi-square test (scipy, imported only when a report is built)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Roll:
    """One die's face: the purpose it was rolled for, who rolled it, its sides and the face shown."""

    purpose: str
    player: str
    sides: int
    face: int


# A test is flagged below this p-value.
ALPHA = 0.01
# Below this many expected rolls per face the chi-square approximation does not hold: not tested.
MIN_EXPECTED = 5.0
ALL, PURPOSE, PLAYER = "all dice", "purpose", "player"


@dataclass(frozen=True, slots=True)
class DiceTest:
    """One group of dice (all of them, one purpose's or one player's, of one number of sides): the count
    of each face, what a fair die gives, and the chi-square test when there are rolls enough."""

    scope: str  # ALL, PURPOSE or PLAYER
    name: str  # the purpose or player ("" for all dice)
    sides: int
    observed: tuple[int, ...]  # the count of face 1, 2, … sides
    statistic: float | None = None  # None when not tested (see `note`)
    dof: int = 0
    p_value: float | None = None
    note: str = ""

    @property
    def rolls(self) -> int:
        """Returns how many dice the group holds."""
        return sum(self.observed)

    @property
    def expected(self) -> float:
        """Returns how many times a fair die shows each face in this many rolls."""
        return self.rolls / self.sides

    @property
    def tested(self) -> bool:
        """Tells whether the chi-square test was made."""
        return self.p_value is not None

    @property
    def flagged(self) -> bool:
        """Tells whether the faces are too uneven for a fair die (p < ALPHA)."""
        return self.p_value is not None and self.p_value < ALPHA

    @property
    def label(self) -> str:
        """Returns the group's name in words: "all d6", "purpose combat (d6)", "player Ann (d6)"."""
        if self.scope == ALL:
            return f"all d{self.sides}"
        return f"{self.scope} {self.name} (d{self.sides})"

    def to_json(self) -> dict[str, Any]:
        """Returns the test as JSON-native values."""
        return {
            "scope": self.scope,
            "name": self.name,
            "sides": self.sides,
            "rolls": self.rolls,
            "observed": {str(face): count for face, count in enumerate(self.observed, start=1)},
            "expected": self.expected,
            "statistic": self.statistic,
            "dof": self.dof,
            "p_value": self.p_value,
            "flagged": self.flagged,
            "note": self.note,
        }


def dice_tests(rolls: Iterable[Roll]) -> list[DiceTest]:
    """Returns the tests of all dice, then of each purpose, then of each player, each per number of
    sides (a one-sided die, a forced result, is not a die to test)."""
    counts: Counter[tuple[str, str, int, int]] = Counter()
    for roll in rolls:
        if roll.sides >= 2:
            counts[(ALL, "", roll.sides, roll.face)] += 1
            counts[(PURPOSE, roll.purpose, roll.sides, roll.face)] += 1
            counts[(PLAYER, roll.player, roll.sides, roll.face)] += 1
    groups = sorted({key[:3] for key in counts}, key=lambda g: ((ALL, PURPOSE, PLAYER).index(g[0]), g[1:]))
    return [
        test_faces(scope, name, sides, [counts[(scope, name, sides, face)] for face in range(1, sides + 1)])
        for scope, name, sides in groups
    ]


def test_faces(scope: str, name: str, sides: int, observed: list[int]) -> DiceTest:
    """Returns the chi-square test of observed face counts against a fair die's."""
    total = sum(observed)
    if total / sides < MIN_EXPECTED:
        note = f"too few rolls to test (fewer than {MIN_EXPECTED:g} expected per face)"
        return DiceTest(scope, name, sides, tuple(observed), note=note)
    from scipy.stats import chisquare

    result = chisquare(observed)
    return DiceTest(
        scope,
        name,
        sides,
        tuple(observed),
        statistic=float(result.statistic),
        dof=sides - 1,
        p_value=float(result.pvalue),
    )


def many_tests_note(tests: list[DiceTest]) -> str:
    """Says how many tests were made and how many small p-values fair dice give by chance among them."""
    made = sum(1 for test in tests if test.tested)
    flagged = sum(1 for test in tests if test.flagged)
    return (
        f"{made} chi-square test{'s' if made != 1 else ''} made, {flagged} flagged at p < {ALPHA:g}; "
        f"with fair dice about 1 test in {round(1 / ALPHA)} is flagged by chance "
        f"(about {made * ALPHA:.1f} of {made}), and the tests overlap (a player's dice are also in "
        "their purposes and in all dice)"
    )
