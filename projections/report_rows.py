"""What a report is made of: one game as a report counts it (`GameRecord`: seats, exits, dice), its row in the
report, tallies, spreads and the `Report` itself with its `--json` shape. `projections.reports` builds a
report from records; `report_records` reads a record, `report_text` and `report_html` draw a report."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from projections.report_dice import DiceTest, Roll, many_tests_note

# What a game's audit said: clean; findings (the first ones kept); dice not checkable yet (a running
# game's seed is not revealed); or the file could not be read at all.
AUDIT_CLEAN = "clean"
AUDIT_FINDINGS = "findings"
AUDIT_UNCHECKED_DICE = "dice unchecked"
AUDIT_UNREADABLE = "unreadable"
# Games with these are flagged: listed in a warning, and not counted in results, lengths or dice.
FLAGGED = (AUDIT_FINDINGS, AUDIT_UNREADABLE)
# How many of a flagged game's findings a report keeps (the first one a reader meets first).
MAX_FINDINGS = 3


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a game: its order from 0, the player's name and the character (or side) played."""

    index: int
    player: str
    character: str


@dataclass(frozen=True, slots=True)
class Exit:
    """How one character left a game: `how` is "won", "killed", "fled", "lost" (the game ended without
    them winning) or "playing" (the game had not ended); `where` names the space or place, if any."""

    player: str
    character: str
    how: str
    where: str = ""


@dataclass(slots=True)
class GameRecord:
    """One game as a report counts it."""

    source: str  # the file it was read from, or the game id
    game: str
    ruleset: str
    audit: str  # one of the AUDIT_* values
    findings: list[str] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)  # players; empty when nobody won
    ending: str = ""  # how the game ended, in words ("" while running)
    events: int = 0
    actions: int = 0
    turns: int = 0
    exits: list[Exit] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    status: str = ""  # running, finished or stopped (its seed revealed before the end)
    scripted: bool = False  # its dice were scripted (chosen, not drawn): no evidence about fairness
    sealed: int = 0  # private events sealed in this copy (0: the full log)
    chain: str = ""  # the last event's chain value (hex): two copies with the same one agree

    @property
    def is_flagged(self) -> bool:
        """Tells whether the game failed its audit or could not be read."""
        return self.audit in FLAGGED

    @property
    def is_finished(self) -> bool:
        """Tells whether the game ended by its rules (only then does it have a result)."""
        return self.status == "finished"


# --- Many games summed up ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game in a report: its audit status, whether it was counted and, if not, why."""

    source: str
    game: str
    ruleset: str
    audit: str
    counted: bool
    note: str  # why it was not counted, or what was not counted of it
    findings: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    events: int = 0

    @property
    def is_flagged(self) -> bool:
        """Tells whether the game is in the report's warning: failed its audit, unreadable or disputed."""
        return self.audit in FLAGGED or bool(self.findings)


@dataclass(frozen=True, slots=True)
class Tally:
    """How often a player, a character or a seat played a finished game and won it."""

    name: str
    games: int
    wins: int

    @property
    def rate(self) -> float:
        """Returns the share of its games it won."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Spread:
    """The smallest, median, mean and largest of a measure over games."""

    least: float
    median: float
    mean: float
    most: float


@dataclass(frozen=True, slots=True)
class ExitCount:
    """How many times a character left its games one way at one place."""

    character: str
    how: str
    where: str
    count: int


@dataclass(slots=True)
class Report:
    """Many games summed up: every game's audit status, results, lengths, exits and dice fairness."""

    games: list[GameRow]
    finished: int = 0  # counted games that ended by their rules: results and lengths are theirs
    nobody_won: int = 0
    players: list[Tally] = field(default_factory=list)
    characters: list[Tally] = field(default_factory=list)
    seats: list[Tally] = field(default_factory=list)
    lengths: dict[str, Spread] = field(default_factory=dict)  # events, actions, turns
    exits: list[ExitCount] = field(default_factory=list)
    dice: list[DiceTest] = field(default_factory=list)
    dice_excluded: dict[str, int] = field(default_factory=dict)  # why -> rolls left out of fairness

    @property
    def by_audit(self) -> dict[str, int]:
        """Returns how many games have each audit status."""
        return dict(Counter(row.audit for row in self.games))

    @property
    def flagged(self) -> list[GameRow]:
        """Returns the games in the warning, never counted."""
        return [row for row in self.games if row.is_flagged]

    @property
    def counted(self) -> int:
        """Returns how many games the results, lengths and dice count."""
        return sum(1 for row in self.games if row.counted)

    @property
    def nobody_won_share(self) -> float:
        """Returns the share of finished games nobody won."""
        return self.nobody_won / self.finished if self.finished else 0.0

    def notes(self) -> list[str]:
        """Returns what a reader must know about what was left out, in words."""
        out = []
        if flagged := len(self.flagged):
            out.append(f"{flagged} game{'s' if flagged != 1 else ''} flagged: not counted in results or dice")
        if copies := sum(1 for row in self.games if not row.counted and not row.is_flagged):
            out.append(f"{copies} file(s) held further copies of a game counted once")
        if unfinished := self.counted - self.finished:
            out.append(
                f"{unfinished} counted game(s) had not ended (running or stopped): no result, no length"
            )
        out.extend(
            f"{rolls} dice left out of the fairness tests: {why}" for why, rolls in self.dice_excluded.items()
        )
        if self.dice:
            out.append(many_tests_note(self.dice))
        return out

    def to_json(self) -> dict[str, Any]:
        """Returns the report as JSON-native values (the `--json` shape)."""
        return {
            "games": len(self.games),
            "counted": self.counted,
            "finished": self.finished,
            "by_audit": self.by_audit,
            "flagged": [_row_json(row) for row in self.flagged],
            "every_game": [_row_json(row) for row in self.games],
            "nobody_won": {"games": self.nobody_won, "share": self.nobody_won_share},
            "players": [_tally_json(t) for t in self.players],
            "characters": [_tally_json(t) for t in self.characters],
            "seats": [_tally_json(t) for t in self.seats],
            "lengths": {name: _spread_json(s) for name, s in self.lengths.items()},
            "exits": [
                {"character": e.character, "how": e.how, "where": e.where, "count": e.count}
                for e in self.exits
            ],
            "dice": {
                "tests": [test.to_json() for test in self.dice],
                "tests_made": sum(1 for test in self.dice if test.tested),
                "flagged": sum(1 for test in self.dice if test.flagged),
                "excluded": dict(self.dice_excluded),
            },
            "notes": self.notes(),
        }


def _row_json(row: GameRow) -> dict[str, Any]:
    return {
        "source": row.source,
        "game": row.game,
        "ruleset": row.ruleset,
        "audit": row.audit,
        "counted": row.counted,
        "flagged": row.is_flagged,
        "note": row.note,
        "findings": list(row.findings),
        "winners": list(row.winners),
        "events": row.events,
    }


def _tally_json(tally: Tally) -> dict[str, Any]:
    return {"name": tally.name, "games": tally.games, "wins": tally.wins, "rate": tally.rate}


def _spread_json(spread: Spread) -> dict[str, float]:
    return {"min": spread.least, "median": spread.median, "mean": spread.mean, "max": spread.most}
