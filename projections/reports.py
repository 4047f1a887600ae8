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
from typing import TYPE_CHECKING, Any

from projections.report_dice import dice_tests
from projections.report_rows import (
    AUDIT_CLEAN,
    AUDIT_UNCHECKED_DICE,
    ExitCount,
    GameRecord,
    GameRow,
    Report,
    Spread,
    Tally,
)

if TYPE_CHECKING:
    from event_store.recorded import RecordedEvent


def build_report(records: Iterable[GameRecord]) -> Report:
    """Sums game records into a report. Flagged games (audit findings, unreadable, or two copies of a
    game that disagree) are listed and never counted; further copies of a game are counted once; dice
    count towards fairness only where the audit verified them and they were not scripted."""
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
