"""Reports over many games — a tournament's files or a simulation's bot games — in one form.

The contract (issue 16): `record_of(...)` reads one game's recorded events into a `GameRecord`;
`build_report(records)` sums records into a `Report` (results by player, by seat and by character, the
audit status of every game, game lengths, how characters left their games, and dice fairness per die
purpose and per player with a chi-square test); `Report.to_json()` is the `--json` shape and
`render_html(report)` the self-contained page. `tournament report` and `simulate` both build one.
How a character left a game is the ruleset's to say: projections/exits.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# What a game's audit said: clean; findings (the first ones kept); dice not checkable yet (a running
# game's seed is not revealed); or the file could not be read at all.
AUDIT_CLEAN = "clean"
AUDIT_FINDINGS = "findings"
AUDIT_UNCHECKED_DICE = "dice unchecked"
AUDIT_UNREADABLE = "unreadable"


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


@dataclass(frozen=True, slots=True)
class Roll:
    """One die's face: the purpose it was rolled for, who rolled it, its sides and the face shown."""

    purpose: str
    player: str
    sides: int
    face: int


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
