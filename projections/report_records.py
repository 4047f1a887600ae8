"""One game read for a report: its seats, winners, ending, lengths, exits and every die it rolled, from
its recorded events and what its audit said (projections/reports.py sums such records)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from projections.report_dice import Roll
from projections.report_rows import (
    AUDIT_CLEAN,
    AUDIT_FINDINGS,
    AUDIT_UNCHECKED_DICE,
    AUDIT_UNREADABLE,
    MAX_FINDINGS,
    GameRecord,
    Seat,
)

if TYPE_CHECKING:
    from domain.audit import AuditReport
    from domain.rulesets.base import GameStatus
    from event_store.recorded import RecordedEvent


def audit_status(report: AuditReport) -> tuple[str, list[str]]:
    """Returns what an audit report says for a report: its AUDIT_* value and its first findings."""
    if report.findings:
        first = report.first_finding() or report.findings[0]
        ordered = [first, *(f for f in report.findings if f is not first)][:MAX_FINDINGS]
        more = len(report.findings) - len(ordered)
        words = [f"event {f.version}: {f.kind}: {f.detail}" for f in ordered]
        return AUDIT_FINDINGS, words + ([f"and {more} more (nightkeep audit lists them)"] if more else [])
    if report.draws_verified < report.draws:
        return AUDIT_UNCHECKED_DICE, []
    return AUDIT_CLEAN, []


def flagged_record(source: str, report: AuditReport) -> GameRecord:
    """Returns the record of a game whose audit found faults: what the audit read, nothing counted."""
    audit, findings = audit_status(report)
    return GameRecord(
        source, report.game, report.ruleset, audit, findings, events=report.events, actions=report.actions
    )


def unreadable_record(source: str, why: str) -> GameRecord:
    """Returns the record of a file that could not be read as a replay file."""
    return GameRecord(source, "", "", AUDIT_UNREADABLE, [why])


def read_record(
    source: str, recorded: list[RecordedEvent], audit: str, findings: list[str], game: str = ""
) -> GameRecord:
    """Returns one game as a report counts it, from its recorded events (a whole log or a viewer's copy)
    and what its audit said; `game` is its id (default: `source`)."""
    from domain.events import DieRolled, Sealed
    from domain.game import game_status
    from event_store.recorded import created_of, fold_recorded
    from projections.exits import exits_of
    from projections.turns import turn_starts

    fold = fold_recorded(recorded)
    created = created_of(recorded)
    events = [r.event for r in recorded]
    status = game_status(fold)
    finished = status["status"] == "finished"
    return GameRecord(
        source=source,
        game=game or source,
        ruleset=created.ruleset,
        audit=audit,
        findings=list(findings),
        seats=_seats(created.players, events),
        winners=[status["winner"]] if finished and status["winner"] else [],
        ending=_ending(created.ruleset, events, status),
        events=len(recorded),
        actions=fold.meta["actions"],
        turns=len(turn_starts(events)),
        exits=exits_of(fold, recorded),
        rolls=[
            Roll(e.purpose, e.player, e.sides, face)
            for e in events
            if isinstance(e, DieRolled)
            for face in e.values
        ],
        status=status["status"],
        scripted=created.scripted,
        sealed=sum(1 for e in events if isinstance(e, Sealed)),
        chain=recorded[-1].chain.hex() if recorded else "",
    )


def _seats(players: list[Any], events: list[Any]) -> list[Seat]:
    """Returns the seats in order, each with the character its player last received (a Talisman
    character killed is replaced by a new one: the last is the one the game ended with)."""
    character = {seat["name"]: seat.get("character", "") for seat in players}
    for event in events:
        # Every event that deals a player a character picks it from the pile of characters.
        if (
            getattr(type(event), "piles", {}).get("character") == "characters"
            and getattr(event, "player", None) in character
        ):
            character[event.player] = event.character
    return [Seat(i, seat["name"], character[seat["name"]]) for i, seat in enumerate(players)]


def _ending(ruleset: str, events: list[Any], status: GameStatus) -> str:
    """Returns how the game ended in the timeline's words ("" while it runs)."""
    from domain.events import GameEnded, GameWon
    from domain.game import STOPPED, STOPPED_REASON
    from projections.timeline import describe_event

    if status["status"] == STOPPED:
        return f"stopped: {STOPPED_REASON}"
    if status["status"] != "finished":
        return ""
    end = next((e for e in reversed(events) if isinstance(e, GameWon | GameEnded)), None)
    return describe_event(ruleset, end) if end is not None else "finished"
