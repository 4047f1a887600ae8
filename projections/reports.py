"""Reports over many games — a tournament's files or a simulation's bot games — in one form.

The contract (issue 16): `record_of(...)` reads one game's recorded events into a `GameRecord`;
`build_report(records)` sums records into a `Report` (results by player, by seat and by character, the
audit status of every game, game lengths, how characters left their games, and dice fairness per die
purpose and per player with a chi-square test); `Report.to_json()` is the `--json` shape and
`render_html(report)` the self-contained page. `tournament report` and `simulate` both build one.
How a character left a game is the ruleset's to say: projections/exits.py.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from event_store.recorded import RecordedEvent
    from projections.report_dice import DiceTest

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
        from projections.report_dice import many_tests_note

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


def build_report(records: Iterable[GameRecord]) -> Report:
    """Sums game records into a report. Flagged games (audit findings, unreadable, or two copies of a
    game that disagree) are listed and never counted; further copies of a game are counted once; dice
    count towards fairness only where the audit verified them and they were not scripted."""
    from projections.report_dice import dice_tests

    records = list(records)
    rows, counted = _choose_counted(records)
    finished = [r for r in counted if r.is_finished]
    several = len({r.ruleset for r in finished}) > 1  # then a character or seat is named with its ruleset
    fair = [r for r in counted if r.audit == AUDIT_CLEAN and not r.scripted]
    return Report(
        games=rows,
        finished=len(finished),
        nobody_won=sum(1 for r in finished if not r.winners),
        players=_tallies(finished, lambda r, s: s.player),
        characters=_tallies(finished, lambda r, s: _named(character_name(s.character), r, several)),
        seats=_tallies(finished, lambda r, s: _named(f"seat {s.index + 1}", r, several)),
        lengths=_lengths(finished),
        exits=_exit_counts(finished),
        dice=dice_tests(roll for r in fair for roll in r.rolls),
        dice_excluded=_dice_excluded(counted),
    )


def character_name(character: str) -> str:
    """Returns a character's id as a short name ("talisman/character/martial-artist": martial artist)."""
    return character.rsplit("/", 1)[-1].replace("-", " ") or "(none)"


def _named(name: str, record: GameRecord, with_ruleset: bool) -> str:
    return f"{name} ({record.ruleset})" if with_ruleset else name


def _choose_counted(records: list[GameRecord]) -> tuple[list[GameRow], list[GameRecord]]:
    """Returns a row per record and the records to count: one copy per game (the longest, then the
    fullest), none of a game whose copies of the same length disagree. Copies of different lengths
    are not compared here (a record keeps only its last chain value): the row says which was counted."""
    by_game: dict[str, list[GameRecord]] = {}
    for record in records:
        if not record.is_flagged:
            by_game.setdefault(record.game, []).append(record)
    kept: dict[str, GameRecord] = {}
    disputed: dict[int, str] = {}
    for game, copies in by_game.items():
        best = max(copies, key=lambda r: (r.events, -r.sealed))
        clash = [r for r in copies if r.events == best.events and r.chain != best.chain]
        if clash:
            why = f"copies of game {game} disagree: {best.source} and {clash[0].source} end differently"
            disputed.update((id(r), why) for r in copies)
        else:
            kept[game] = best
    rows = [_row(record, kept.get(record.game), disputed.get(id(record), "")) for record in records]
    return rows, [record for record in records if kept.get(record.game) is record]


def _row(record: GameRecord, kept: GameRecord | None, dispute: str) -> GameRow:
    counted = kept is record
    if record.is_flagged or dispute:
        note = "flagged: not counted"
    elif not counted and kept is not None:
        note = (
            f"another copy of game {record.game} ({record.events} events): counted once, as {kept.source} "
            f"({kept.events} events)"
        )
    elif record.audit == AUDIT_UNCHECKED_DICE:
        note = "dice not verifiable yet (seed not revealed): left out of the fairness tests"
    elif record.scripted:
        note = "scripted dice: left out of the fairness tests"
    else:
        note = "" if record.is_finished else f"not ended ({record.status or 'not started'}): no result"
    findings = tuple(record.findings) if record.is_flagged else (dispute,) if dispute else ()
    return GameRow(
        record.source,
        record.game,
        record.ruleset,
        record.audit,
        counted,
        note,
        findings,
        tuple(record.winners),
        record.events,
    )


def _tallies(records: list[GameRecord], key: Any) -> list[Tally]:
    """Returns a tally per key of each seat of finished games, most games first."""
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for record in records:
        for seat in record.seats:
            name = key(record, seat)
            games[name] += 1
            wins[name] += seat.player in record.winners
    return [
        Tally(name, count, wins[name]) for name, count in sorted(games.items(), key=lambda i: (-i[1], i[0]))
    ]


def _lengths(records: list[GameRecord]) -> dict[str, Spread]:
    if not records:
        return {}
    out = {}
    for measure in ("events", "actions", "turns"):
        values = [getattr(record, measure) for record in records]
        out[measure] = Spread(min(values), statistics.median(values), statistics.fmean(values), max(values))
    return out


def _exit_counts(records: list[GameRecord]) -> list[ExitCount]:
    counts = Counter(
        (character_name(e.character), e.how, e.where) for record in records for e in record.exits
    )
    return [ExitCount(*key, count) for key, count in sorted(counts.items(), key=lambda i: (-i[1], i[0]))]


def _dice_excluded(counted: list[GameRecord]) -> dict[str, int]:
    """Returns how many dice of counted games the fairness tests leave out, by why."""
    out: Counter[str] = Counter()
    for record in counted:
        if record.audit == AUDIT_UNCHECKED_DICE:
            out["the game's seed is not revealed yet, so its dice cannot be verified"] += len(record.rolls)
        elif record.scripted:
            out["scripted dice (chosen, not drawn)"] += len(record.rolls)
        else:
            out["one-sided dice (a forced result)"] += sum(1 for roll in record.rolls if roll.sides < 2)
    return {why: rolls for why, rolls in out.items() if rolls}


def record_of(
    source: str, recorded: list[RecordedEvent], audit: str, findings: list[str], game: str = ""
) -> GameRecord:
    """Returns one game as a report counts it, from its recorded events (a whole log or a viewer's copy)
    and what its audit said (an AUDIT_* value, its first findings); `game` is its id (default: `source`)."""
    from projections.report_records import read_record

    return read_record(source, recorded, audit, findings, game)


def render_text(report: Report) -> str:
    """Returns the report as a terminal summary: tables of the games, results, lengths and dice."""
    from projections.report_text import text_of

    return text_of(report)


def render_html(report: Report, title: str = "Tournament report") -> str:
    """Returns the report as one self-contained HTML page, with a plot of the faces of each dice test."""
    from projections.report_html import html_of

    return html_of(report, title)
