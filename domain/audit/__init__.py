"""The audit: everything a third party can check about a game's log without trusting whoever kept it.

Pure: it reads log entries (type, class version, fields, chain as recorded) and reports findings.
1. The hash chain, link by link: each broken link is named (an edited, removed, inserted or
   reordered event breaks the link where it happened).
2. The shape: zero or more ForkedFrom, then GameCreated and SeedCommitted; a fork's copied history
   must chain to the value its ForkedFrom names.
3. The content: the ruleset exists and its content hash is the one the game was played with.
4. Every ActionTaken is re-decided from the state before it: the action must have been legal, and the
   rules, fed the recorded draws, must produce exactly the recorded consequences (the first divergence
   is named with both versions of the event).
5. Every draw those rules ask for is recomputed from the revealed seed, entropy pool and action nonce
   (or the dice script) and compared with what was recorded. Draws whose seed is not revealed yet
   (a running game) cannot be checked; the report says so and checks everything else.
A copy with private events sealed is re-decided the same way once every seed it committed to is
public (each sealed entry must have the seal of what the rules decide); before that it is folded
with the public checks only (who acted, and the ruleset's `verify`: reveals against commitments…).
One module per stage: `chain`, `reading` (types, shape, header), `redecide` (rules and dice),
`sealed` (copies with private events sealed), `dice` (the audit's dice); `report` is what it says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.audit.chain import chain_of, check_links
from domain.audit.dice import anchor_problems, seeds_by_commitment
from domain.audit.reading import (
    check_forks,
    class_version_problems,
    decode_all,
    find_start,
    game_start,
    header_problems,
    shape_problems,
)
from domain.audit.redecide import ReDecider
from domain.audit.report import KINDS, AuditReport, Finding, LogEntry, RawEntry
from domain.audit.resume import (
    GAP,
    GAP_EVENT,
    PUBLIC_PATH,
    REDECIDE_PATH,
    AuditPoint,
    CannotResume,
    header_problems_of,
    held_facts,
    point_after,
    resumable,
    resume_unseal,
)
from domain.audit.sealed import can_unseal, check_public_dice, fold_public
from domain.audit.signatures import check_signatures
from domain.collector import paused_collector
from domain.content import override_pinned
from domain.errors import NightkeepError
from domain.events import Event, GameCreated
from domain.rulesets import Ruleset, build_ruleset, get_ruleset
from domain.setup import CANONICAL_SINCE, check_setup, version_of

__all__ = [
    "KINDS",
    "AuditPoint",
    "AuditReport",
    "Finding",
    "LogEntry",
    "RawEntry",
    "audit_log",
    "audit_tail",
    "audit_with_point",
    "chain_of",
    "game_start",
    "header_problems",
    "seeds_by_commitment",
    "shape_problems",
]


def audit_log(entries: Sequence[LogEntry], header: dict[str, Any] | None = None) -> AuditReport:
    """Audits a game's log (and a replay file's header, when given); never raises for bad content."""
    report = AuditReport(events=len(entries))
    _guarded(entries, header, report, None, want_point=False)
    return report


def audit_with_point(
    entries: Sequence[LogEntry], header: dict[str, Any] | None = None
) -> tuple[AuditReport, AuditPoint | None]:
    """Audits a whole log as `audit_log` does; returns its report and, for a clean log an audit can go
    on from (see domain.audit.resume), where the audit ended."""
    report = AuditReport(events=len(entries))
    point = _guarded(entries, header, report, None)
    return report, point


def audit_tail(
    point: AuditPoint, tail: Sequence[LogEntry], header: dict[str, Any] | None = None
) -> tuple[AuditReport, AuditPoint | None] | None:
    """Audits the events after a trusted prefix, from where the prefix's clean audit ended: the report
    is the one a whole-log audit of the prefix and `tail` makes, and the point is where it ends. Returns
    None when it cannot tell that report from the tail alone (the caller audits the whole log): a tail
    holding an event whose checks read back through the log (an opening event, a seed's reveal, a
    club's event), or one with any finding (the whole log's audit names them as it would)."""
    if not tail or not resumable(point, tail):
        return None
    prefix = [GAP] * (point.version - 1) + [RawEntry(point.version, "", 0, {}, point.chain)]
    entries = [*prefix, *tail]
    report = AuditReport(
        events=len(entries), actions=point.actions, draws=point.draws, draws_verified=point.draws_verified
    )
    try:
        resumed = _guarded(entries, header, report, point.fresh(), strict=True)
    except CannotResume:
        return None
    if report.findings:
        return None
    report.decoded = report.decoded[point.version :]
    return report, resumed


def _guarded(
    entries: Sequence[LogEntry],
    header: dict[str, Any] | None,
    report: AuditReport,
    resume: AuditPoint | None,
    strict: bool = False,
    want_point: bool = True,
) -> AuditPoint | None:
    try:
        with paused_collector(), override_pinned():  # the collector ~10% of an audit, os.environ 3%
            return _audit(entries, header, report, resume, want_point)
    except CannotResume:
        raise
    except Exception as exc:  # each check is guarded; this keeps a forgery they missed from crashing
        if strict:
            raise CannotResume from exc
        report.add(0, "format", f"the audit could not go on: {exc!r}")
    return None


def _audit(
    entries: Sequence[LogEntry],
    header: dict[str, Any] | None,
    report: AuditReport,
    resume: AuditPoint | None,
    want_point: bool = True,
) -> AuditPoint | None:
    begin = resume.version if resume else 0
    read, unreadable = decode_all(entries[begin:] if begin else entries)
    events: list[Event] = [GAP_EVENT] * begin + read if begin else read
    check_links(entries, report, readable=len(events), events=events, start=begin)
    if unreadable:
        report.add(len(events) + 1, "format", unreadable)
        report.notes.append(f"rules and dice not checked: the log cannot be read past event {len(events)}")
        return None
    report.decoded = events
    if resume:
        start = 0  # (a point is of a log with no fork, and its tail holds no opening event)
        created = resume.created
    else:
        found_start = find_start(events, report)
        if found_start is None:
            return None
        start = found_start
        found = events[start]
        assert isinstance(found, GameCreated)
        created = found
    report.ruleset = str(created.ruleset)
    for version, detail in class_version_problems(entries[begin:], created):
        report.add(version, "format", detail)
    if not resume:
        check_forks(entries, events, report)
        for version, detail in anchor_problems(events):
            report.add(version, "seed", detail)
    signed = check_signatures(entries, events, report, resume.signatures if resume else None)
    facts = held_facts(entries, events, begin, resume, by_owner=want_point)
    if header is not None:
        for version, detail in header_problems_of(header, entries, events, facts, resume):
            report.add(version, "header", detail)
    sealed = facts.sealed
    if sealed and not (resume_unseal(created, facts) if resume else can_unseal(events, created)):
        if resume and resume.path != PUBLIC_PATH:
            raise CannotResume  # the copy's first sealed event: the public checks start from its first event
        report.partial = True
        dice = check_public_dice(events, report, resume.dice if resume else None)
        public = None
        if check_content(created, start + 1, report):
            public = fold_public(entries, events, report, resume=resume.public if resume else None)
        keyed = facts.keyed
        draws = (
            "the public dice and picks and this copy's own private draws (each with its turn's key)"
            if keyed
            else "the public die rolls"
        )
        report.notes.append(
            f"{sealed} private events are sealed in this copy: the chain, the shape, the content, who "
            f"acted, {draws} and the ruleset's checks of every event (reveals against their "
            "commitments…) are made; the actions and the other seats' private draws can be re-decided "
            "only once the seed is revealed, or on the host's full log"
        )
        if public is None or not want_point:
            return None
        return point_after(entries, events, report, facts, signed, PUBLIC_PATH, public=public, dice=dice)
    if resume and resume.path != REDECIDE_PATH:
        raise CannotResume
    if not check_content(created, start + 1, report):
        report.notes.append("rules and dice not re-checked: the game's content is not available here")
        return None
    decider = ReDecider(
        entries, events, report, sealed=bool(sealed), resume=resume.decided if resume else None
    )
    decider.run()
    if sealed:
        if decider.stopped_at:
            # The sealed events cannot be folded past a divergence: the rest gets the public checks.
            fold_public(entries, events, report, after=decider.stopped_at)
            report.notes.append(
                f"{sealed} private events are sealed in this copy: they were re-decided from the revealed "
                f"seed up to event {decider.stopped_at}, and only the public checks were made after it"
            )
            return None
        report.notes.append(
            f"{sealed} private events are sealed in this copy: each was re-decided from the revealed "
            "seed and checked against its seal"
        )
    if not want_point:
        return None
    return point_after(entries, events, report, facts, signed, REDECIDE_PATH, decided=decider.where())


def _built_for(created: GameCreated, default: Ruleset[Any]) -> Ruleset[Any]:
    """Returns the ruleset built from the game's options; the default one for options it refuses (the
    setup check says what is wrong with them)."""
    try:
        return build_ruleset(created.ruleset, created.options)
    except Exception:  # noqa: BLE001  (a forged option: check_setup reports it)
        return default


def check_content(created: GameCreated, version: int, report: AuditReport) -> bool:
    """Reports a setup the rules refuse and content other than this nightkeep's; returns whether the
    rules can be re-run (the ruleset exists and its content hash is the game's)."""
    try:
        ruleset = get_ruleset(created.ruleset)
    except NightkeepError:
        report.add(version, "content", f"this nightkeep has no ruleset {created.ruleset!r}")
        return False
    ruleset = _built_for(created, ruleset)
    report.scripted = bool(created.dice_script)
    recorded_by = version_of(created.nightkeep_version)
    if recorded_by is None:
        report.add(version, "rules", f"{created.nightkeep_version!r:.30} is not a nightkeep version")
    canonical = recorded_by is not None and recorded_by >= CANONICAL_SINCE
    # Older games could be marked scripted with an empty script; none can have a script unmarked.
    if created.scripted != bool(created.dice_script) and (canonical or created.dice_script):
        report.add(version, "rules", "the game is marked scripted if and only if it has a dice script")
    try:
        check_setup(ruleset, created.players, created.options, created.dice_script)
        seats, options = ruleset.canonical_setup(list(created.players), dict(created.options))
        # A game recorded before an option existed leaves it out (it is played at its recorded default).
        setup = (seats, {key: value for key, value in options.items() if key in created.options})
        if canonical and setup != (created.players, created.options):
            report.add(version, "rules", f"the setup is not written as games record it: {setup}")
    except NightkeepError as exc:
        report.add(version, "rules", f"the game was set up in a way the rules refuse: {exc}")
    except Exception as exc:  # a forged setup the validators do not expect
        report.add(version, "rules", f"the game's setup cannot be read: {exc!r}")
    here = ruleset.content_hash()
    if created.content_hash != here:
        report.add(
            version,
            "content",
            f"the game was played with content {str(created.content_hash)[:12]}…, "
            f"this nightkeep has {here[:12]}…",
        )
        return False
    return True
