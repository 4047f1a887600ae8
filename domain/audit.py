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
The audit's dice live in `domain.audit_dice`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from domain.actions import HOST, START
from domain.audit_dice import AuditDice, recorded_draws, seeds_by_commitment
from domain.dice import EMPTY_POOL, commit_to_seed, draw_value, mix_entropy
from domain.errors import NightkeepError
from domain.events import (
    GENESIS_CHAIN,
    ActionTaken,
    DieRolled,
    EntropyAdded,
    Event,
    ForkedFrom,
    GameCreated,
    Sealed,
    SeedCommitted,
    SeedRevealed,
    canonical_bytes,
    field_type_problem,
    is_private,
    is_sealed,
    next_chain,
    seal,
)
from domain.game import (
    GameFold,
    advance_draws,
    apply_event,
    check_host_start,
    check_legal,
    check_seat_names,
    decode_event,
    verify_event,
)
from domain.rulesets import get_ruleset

GAME_LEVEL = (ForkedFrom, GameCreated, SeedCommitted, EntropyAdded, ActionTaken, SeedRevealed)
# Kinds of finding, in the order a reader meets them.
KINDS = ("numbering", "chain", "format", "structure", "header", "fork", "content", "seed", "rules", "dice")


class LogEntry(Protocol):
    """One event as recorded: what the chain covers, plus its chain value and position."""

    @property
    def version(self) -> int: ...
    @property
    def type_name(self) -> str: ...
    @property
    def class_version(self) -> int: ...
    @property
    def fields(self) -> dict[str, Any]: ...
    @property
    def chain(self) -> bytes: ...


class RawEntry(NamedTuple):
    """A log entry read without trusting it (from a file or a store that may have been edited)."""

    version: int
    type_name: str
    class_version: int
    fields: dict[str, Any]
    chain: bytes


@dataclass(frozen=True)
class Finding:
    """One problem found: at which event (0 = the log as a whole), what kind, and what exactly."""

    version: int
    kind: str
    detail: str

    def to_json(self) -> dict[str, Any]:
        """Returns the `audit --json` shape of this finding."""
        return {"version": self.version, "kind": self.kind, "detail": self.detail}


@dataclass
class AuditReport:
    """What an audit found and what it could not check."""

    game: str = ""
    ruleset: str = ""
    events: int = 0
    actions: int = 0
    draws: int = 0
    draws_verified: int = 0
    finished: bool = False
    scripted: bool = False
    partial: bool = False  # a viewer's copy with sealed events: rules were not re-decided
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing is wrong (unverifiable dice of a running game are not a finding)."""
        return not self.findings

    def add(self, version: int, kind: str, detail: str) -> None:
        """Records a finding."""
        self.findings.append(Finding(version, kind, detail))

    def first(self, kind: str) -> Finding | None:
        """Returns the first finding of a kind, if any."""
        return next((f for f in self.findings if f.kind == kind), None)

    def to_json(self) -> dict[str, Any]:
        """Returns the `audit --json` shape of this report."""
        return {
            "game": self.game,
            "ruleset": self.ruleset,
            "ok": self.ok,
            "events": self.events,
            "actions": self.actions,
            "draws": self.draws,
            "draws_verified": self.draws_verified,
            "finished": self.finished,
            "scripted": self.scripted,
            "partial": self.partial,
            "findings": [f.to_json() for f in self.findings],
            "notes": list(self.notes),
        }


def audit_log(entries: Sequence[LogEntry], header: dict[str, Any] | None = None) -> AuditReport:
    """Audits a game's log (and a replay file's header, when given); never raises for bad content."""
    report = AuditReport(events=len(entries))
    try:
        _audit(entries, header, report)
    except Exception as exc:  # each check is guarded; this keeps a forgery they missed from crashing
        report.add(0, "format", f"the audit could not go on: {exc!r}")
    return report


def _audit(entries: Sequence[LogEntry], header: dict[str, Any] | None, report: AuditReport) -> None:
    _check_links(entries, report)
    events = _decode_all(entries, report)
    if events is None:
        return
    start = _find_start(events, report)
    if start is None:
        return
    created = events[start]
    assert isinstance(created, GameCreated)
    report.ruleset = str(created.ruleset)
    _check_forks(entries, events, report)
    if header is not None:
        for version, detail in header_problems(header, entries, events):
            report.add(version, "header", detail)
    sealed = sum(1 for e in events if isinstance(e, Sealed))
    if sealed and not _can_unseal(events, created):
        report.partial = True
        _check_public_dice(events, report)
        if _check_content(created, start + 1, report):
            _fold_public(entries, events, report)
        report.notes.append(
            f"{sealed} private events are sealed in this copy: the chain, the shape, the content, who "
            "acted, the public die rolls and the ruleset's checks of every event (reveals against their "
            "commitments…) are made; actions and card picks can be re-decided only once the seed is "
            "revealed, or on the host's full log"
        )
        return
    if not _check_content(created, start + 1, report):
        report.notes.append("rules and dice not re-checked: the game's content is not available here")
        return
    decider = _ReDecider(entries, events, report, sealed=bool(sealed))
    decider.run()
    if not sealed:
        return
    if decider.stopped_at:
        # The sealed events cannot be folded past a divergence: the rest gets the public checks.
        _fold_public(entries, events, report, after=decider.stopped_at)
        report.notes.append(
            f"{sealed} private events are sealed in this copy: they were re-decided from the revealed "
            f"seed up to event {decider.stopped_at}, and only the public checks were made after it"
        )
    else:
        report.notes.append(
            f"{sealed} private events are sealed in this copy: each was re-decided from the revealed "
            "seed and checked against its seal"
        )


def _can_unseal(events: Sequence[Event], created: GameCreated) -> bool:
    """Tells whether a copy with sealed events can still be re-decided in full: every seed it committed
    to is revealed (its own, and for a fork the original's), so every private pick and salt can be
    recomputed. The rules must be able to decide in place, carrying the private state that the sealed
    events do not."""
    try:
        ruleset = get_ruleset(created.ruleset)
    except NightkeepError:
        return False
    all_revealed = _commitments(events) <= seeds_by_commitment(events).keys()
    return all_revealed and getattr(ruleset, "decide_in_place", None) is not None


def _fold_public(
    entries: Sequence[LogEntry], events: Sequence[Event], report: AuditReport, after: int = 0
) -> None:
    """Folds the public events of a sealed copy, so every reveal is checked against its commitment, and
    a game the copy shows over must have revealed its seed (or its private events escape re-deciding)."""
    fold = GameFold()
    for index, (entry, event) in enumerate(zip(entries, events, strict=True)):
        version = index + 1
        try:
            problem = _public_problem(fold, event)
            if problem and version > after:  # findings up to `after` come from re-deciding
                report.add(version, "rules", f"event {version} ({event.type_name}): {problem}")
            apply_event(fold, event, entry.chain)
        except Exception as exc:  # a forged value the state cannot take
            detail = f"event {version} ({event.type_name}) does not fit the game: {exc!r}"
            report.add(version, "rules", detail)
            return
    try:
        report.finished = get_ruleset(fold.ruleset_name).status(fold.state)["status"] == "finished"
    except Exception as exc:  # a state a forged log left unplayable
        report.add(len(events), "rules", f"the state at the end is not a playable one: {exc!r}")
        return
    if report.finished and fold.meta["commitment"] not in seeds_by_commitment(events):
        report.add(len(events), "seed", "the game is over but its seed was never revealed")


# --- 1. chain -----------------------------------------------------------------------------------------


def _check_links(entries: Sequence[LogEntry], report: AuditReport) -> None:
    previous = GENESIS_CHAIN
    for index, entry in enumerate(entries, start=1):
        if entry.version != index:
            report.add(index, "numbering", f"event {index} is numbered {entry.version}")
        try:
            link = next_chain(previous, entry.type_name, entry.class_version, entry.fields)
        except (TypeError, ValueError) as exc:
            report.add(index, "format", f"event {index} cannot be encoded canonically: {exc}")
            link = b""
        if link and link != entry.chain:
            report.add(
                index,
                "chain",
                f"the chain breaks at event {index} ({entry.type_name}): it does not follow from event "
                f"{index - 1}, so the log was edited, cut, extended or reordered here",
            )
        previous = entry.chain if isinstance(entry.chain, bytes) else b""


def chain_of(entries: Sequence[LogEntry]) -> bytes:
    """Recomputes the chain value at the end of a run of entries, from the genesis value."""
    chain = GENESIS_CHAIN
    for entry in entries:
        chain = next_chain(chain, entry.type_name, entry.class_version, entry.fields)
    return chain


# --- 2. shape ------------------------------------------------------------------------------------------


def _decode_all(entries: Sequence[LogEntry], report: AuditReport) -> list[Event] | None:
    events: list[Event] = []
    for index, entry in enumerate(entries, start=1):
        try:
            event = decode_event(entry.type_name, entry.class_version, dict(entry.fields))
            problem = field_type_problem(event)
            if problem:
                raise TypeError(problem)
            events.append(event)
        except (NightkeepError, TypeError, ValueError, AttributeError) as exc:
            report.add(index, "format", f"event {index} ({entry.type_name!s:.40}) cannot be read: {exc}")
            report.notes.append(
                f"rules and dice not checked: the log cannot be folded past event {index - 1}"
            )
            return None
    return events


def game_start(events: Sequence[Event]) -> int | None:
    """Returns the index of GameCreated (after any ForkedFrom) if SeedCommitted follows it, else None."""
    start = 0
    while start < len(events) and isinstance(events[start], ForkedFrom):
        start += 1
    if (
        start + 1 >= len(events)
        or not isinstance(events[start], GameCreated)
        or not isinstance(events[start + 1], SeedCommitted)
    ):
        return None
    return start


class _ShapeError(Exception):
    def __init__(self, index: int, detail: str, kind: str = "structure") -> None:
        super().__init__(detail)
        self.index = index
        self.kind = kind


def _opening(
    events: Sequence[Event], lo: int, hi: int, opening: set[int], problems: list[tuple[int, str, str]]
) -> int:
    """Collects the indexes of a log's opening events (ForkedFrom, GameCreated, SeedCommitted) between
    lo and hi, a fork's copied history included; returns the index of the log's own SeedCommitted."""
    first = events[lo] if lo < hi else None
    if isinstance(first, ForkedFrom):
        count = first.version
        if type(count) is not int or count < 2 or lo + 1 + count > hi:
            raise _ShapeError(
                lo, f"event {lo + 1} (ForkedFrom) names a copy that this log does not hold", "fork"
            )
        opening.add(lo)
        inner = _opening(events, lo + 1, lo + 1 + count, opening, problems)
        own = lo + 1 + count
        if own >= hi or not isinstance(events[own], SeedCommitted):
            problems.append(
                (
                    lo + 1,
                    "fork",
                    f"the {count} events copied by the fork at event {lo + 1} are not followed by the "
                    "fork's own SeedCommitted: the copy was changed",
                )
            )
            # Read on from the next commitment, so the rest of the log is still checked.
            own = next((i for i in range(inner + 1, hi) if isinstance(events[i], SeedCommitted)), -1)
            if own < 0:
                raise _ShapeError(lo, f"the fork at event {lo + 1} never commits to its own seed", "fork")
        opening.add(own)
        return own
    if lo + 1 < hi and isinstance(first, GameCreated) and isinstance(events[lo + 1], SeedCommitted):
        opening.update((lo, lo + 1))
        return lo + 1
    raise _ShapeError(lo, "a game's log starts with GameCreated and SeedCommitted (after any ForkedFrom)")


def shape_problems(events: Sequence[Event]) -> list[tuple[int, str]]:
    """Checks what any reader must check before folding: the opening events (and a fork's), that
    they appear nowhere else, that nothing follows the seed's reveal and that it matches the commitment."""
    return [(version, detail) for version, _, detail in _shape(events)[1]]


def _shape(events: Sequence[Event]) -> tuple[bool, list[tuple[int, str, str]]]:
    """Returns (whether the opening can be read at all, [(version, kind, detail)…])."""
    opening: set[int] = set()
    problems: list[tuple[int, str, str]] = []
    try:
        _opening(events, 0, len(events), opening, problems)
    except _ShapeError as exc:
        return False, [*problems, (exc.index + 1, exc.kind, str(exc))]
    commitment = b""
    revealed = 0
    for index, event in enumerate(events):
        version = index + 1
        if revealed:
            problems.append(
                (version, "structure", f"the log goes on after the seed was revealed at event {revealed}")
            )
            break
        if isinstance(event, ForkedFrom | GameCreated | SeedCommitted) and index not in opening:
            problems.append(
                (
                    version,
                    "structure",
                    f"event {version} ({event.type_name}) belongs only at a game's opening",
                )
            )
        if isinstance(event, SeedCommitted):
            commitment = event.commitment
        elif isinstance(event, SeedRevealed):
            revealed = version
            if not isinstance(event.seed, bytes) or commit_to_seed(event.seed) != commitment:
                problems.append(
                    (version, "seed", f"the seed revealed at event {version} does not match the commitment")
                )
    return True, problems


def _find_start(events: list[Event], report: AuditReport) -> int | None:
    readable, problems = _shape(events)
    for version, kind, detail in problems:
        report.add(version, kind, detail)
    return game_start(events) if readable else None


def _check_forks(entries: Sequence[LogEntry], events: list[Event], report: AuditReport) -> None:
    for index, event in enumerate(events):
        if not isinstance(event, ForkedFrom):
            continue
        count = event.version
        copied = entries[index + 1 : index + 1 + count]
        if any(f.kind == "fork" and f.version == index + 1 for f in report.findings):
            continue  # the shape check already found this copy changed
        if len(copied) != count or chain_of(copied) != event.chain:
            report.add(
                index + 1,
                "fork",
                f"the {count} events copied from game {event.game} do not chain to the value "
                "that game had there",
            )
            continue
        inside = [e.commitment for e in events[index + 1 : index + 1 + count] if isinstance(e, SeedCommitted)]
        own = events[index + 1 + count] if index + 1 + count < len(events) else None
        if not inside or not isinstance(own, SeedCommitted):
            continue  # the shape check has said so
        for problem in _fork_seed_problems(event, inside[-1], set(inside), own.commitment):
            report.add(index + 1, "seed", problem)


def _fork_seed_problems(fork: ForkedFrom, at_fork: bytes, copied: set[bytes], own: bytes) -> list[str]:
    """A fork's dice: a new seed, or (same_dice) the original's, which must then be public."""
    problems: list[str] = []
    if fork.seed and commit_to_seed(fork.seed) != at_fork:
        problems.append(f"the seed named for game {fork.game} is not the one its dice used there")
    if fork.same_dice:
        if not fork.seed or own != at_fork:
            problems.append("a same-dice fork must name the original's revealed seed and commit to it")
    elif own in copied:
        problems.append(f"the fork reuses a seed of game {fork.game} without saying so (same_dice is false)")
    return problems


def _commitments(events: Sequence[Event]) -> set[bytes]:
    return {e.commitment for e in events if isinstance(e, SeedCommitted)}


HEADER_FROM_CREATED = ("ruleset", "content_hash", "nightkeep_version", "players", "scripted")


def header_problems(
    header: dict[str, Any], entries: Sequence[LogEntry], events: Sequence[Event] | None = None
) -> list[tuple[int, str]]:
    """Checks a replay file's (unchained) header against the chained events it describes."""
    problems: list[tuple[int, str]] = []
    if header.get("events") != len(entries):
        problems.append(
            (0, f"the header counts {header.get('events')!r} events, the file holds {len(entries)}")
        )
    sealed = any(is_sealed(e.fields) and is_private(e.type_name) for e in entries)
    if sealed != ("viewer" in header):
        problems.append((0, "the header's viewer does not match whether the copy has sealed events"))
    created = next((e for e in entries if e.type_name == GameCreated.__name__), None)
    committed = [e for e in entries if e.type_name == SeedCommitted.__name__]
    if created is None or not committed:
        return problems
    for key in HEADER_FROM_CREATED:
        if not _same(header.get(key), created.fields.get(key)):
            problems.append((created.version, f"the header's {key} does not match the recorded GameCreated"))
    if not _same(header.get("seed_commitment"), committed[-1].fields.get("commitment")):
        problems.append(
            (committed[-1].version, "the header's seed commitment does not match the recorded one")
        )
    return problems


def _same(a: Any, b: Any) -> bool:
    """Equal as recorded: 1 and True (or 0 and False) are different values in a log."""
    try:
        return canonical_bytes(a) == canonical_bytes(b)
    except (TypeError, ValueError):
        return False


def _check_public_dice(events: Sequence[Event], report: AuditReport) -> None:
    """Recomputes every public die roll from the seed (or script) when the rules cannot be re-run."""
    seeds = seeds_by_commitment(events)
    script: list[int] = []
    pool, nonce, commitment = EMPTY_POOL, b"", b""
    for version, event in enumerate(events, start=1):
        if isinstance(event, GameCreated):
            script = list(event.dice_script)
        elif isinstance(event, SeedCommitted):
            commitment = event.commitment
        elif isinstance(event, EntropyAdded):
            pool = mix_entropy(pool, event.value)
        elif isinstance(event, ActionTaken):
            nonce = event.nonce
            report.actions += 1
        elif isinstance(event, DieRolled):
            for draw, face in zip(event.draws, event.values, strict=False):
                report.draws += 1
                seed = seeds.get(commitment)
                expected = script.pop(0) if script else None
                if expected is None and seed is not None:
                    expected = draw_value(seed, pool, nonce, draw, event.sides) + 1
                if expected is None:
                    continue
                report.draws_verified += 1
                if face != expected:
                    report.add(
                        version,
                        "dice",
                        f"draw {draw} at event {version} recorded {face}, the seed gives {expected}",
                    )


# --- 3. content ----------------------------------------------------------------------------------------


def _check_content(created: GameCreated, version: int, report: AuditReport) -> bool:
    try:
        ruleset = get_ruleset(created.ruleset)
    except NightkeepError:
        report.add(version, "content", f"this nightkeep has no ruleset {created.ruleset!r}")
        return False
    report.scripted = bool(created.dice_script)
    if created.dice_script and not created.scripted:
        report.add(version, "rules", "the game has a dice script but is not marked scripted")
    try:
        check_seat_names(seat["name"] for seat in created.players)
        ruleset.validate_setup([dict(seat) for seat in created.players], dict(created.options))
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


# --- 4 and 5. re-deciding with audited dice --------------------------------------------------------------


def _describe(event: Event, sealed: bool = False) -> str:
    """Tells an event in one line. In a sealed copy's report a private event also shows its seal, so a
    recorded seal and the re-decided one can be compared (its values are no secret once the seed that
    let the audit re-decide it is public)."""
    if isinstance(event, Sealed):
        return f"{event.type_name}(sealed for {event.owner}, seal {_brief(event.sealed)})"
    fields = ", ".join(f"{k}={_brief(v)}" for k, v in event.to_fields().items())
    if sealed and event.private:
        seal_of = seal(event.type_name, event.class_version, event.to_fields())["sealed"]
        fields += f"; seal {_brief(seal_of)}"
    return f"{event.type_name}({fields})"


def _brief(value: Any) -> str:
    """Writes a field value for a finding: bytes as their first 6 bytes in hex, so a map of 9 hashes
    stays readable (a reader compares them with the full values in the file)."""
    if isinstance(value, bytes):
        return value[:6].hex() + ("…" if len(value) > 6 else "")
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_brief(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_brief(v) for v in value) + "]"
    return repr(value)


def _public_problem(fold: GameFold, event: Event) -> str:
    """Returns what public facts alone show wrong with an event: an action by someone not to act, or
    what the ruleset's `verify` finds (a reveal that opens no commitment…)."""
    if isinstance(event, ActionTaken) and event.player != HOST and fold.ruleset_name:
        to_act = get_ruleset(fold.ruleset_name).status(fold.state)["to_act"]
        if event.player not in to_act:
            return f"{event.player} acted while {', '.join(to_act) or 'nobody'} was to act"
        return ""
    return verify_event(fold, event)


def _same_event(recorded: Event, decided: Event) -> bool:
    """Tells whether a recorded event is the decided one: equal, or for a sealed entry its seal."""
    if type(recorded) is Sealed:
        if not decided.private or recorded.type != decided.type_name:
            return False
        sealed = seal(decided.type_name, decided.class_version, decided.to_fields())
        return sealed == {"owner": recorded.owner, "sealed": recorded.sealed}
    return recorded == decided


def _outside_rules(event: Event) -> bool:
    """Tells whether an event is recorded by the game or the host rather than decided by a rule."""
    return isinstance(event, GAME_LEVEL) or event.is_host_event


class _ReDecider:
    """Folds the log and re-decides each action from the state before it."""

    def __init__(
        self, entries: Sequence[LogEntry], events: list[Event], report: AuditReport, sealed: bool = False
    ) -> None:
        self.entries = entries
        # A copy with sealed private events: the state is carried by re-deciding in place, since the
        # sealed events cannot be folded; a divergence ends the rules checks.
        self.sealed = sealed
        self.stopped_at = 0  # the action where re-deciding a sealed copy had to stop
        self.decided: list[Event] = []
        self.events = events
        self.report = report
        self.fold = GameFold()
        self.seeds = seeds_by_commitment(events)
        self.unverified: list[int] = []  # versions of actions whose draws could not be checked
        self.dirty = False  # the state was handed to an in-place decide that did not match the record
        self.in_place = True

    def run(self) -> None:
        events, report = self.events, self.report
        index = 0
        total = len(events)
        while index < total:
            event = events[index]
            version = index + 1
            if isinstance(event, ActionTaken):
                end = index + 1
                while end < total and not _outside_rules(events[end]):
                    end += 1
                adopted = self._re_decide(version, event, events[index + 1 : end])
                if adopted:
                    self._adopt(index, end)
                elif self.sealed:
                    self.stopped_at = version
                    return
                else:
                    if self.dirty:
                        self._refold(index)
                    for offset in range(index, end):
                        if not self._apply(offset):
                            return
                index = end
                continue
            if not _outside_rules(event):
                # Consequences are taken with their action above; anything else was slipped in.
                report.add(version, "rules", f"event {version} ({event.type_name}) follows no action")
            self._check_host_event(version, event)
            if not self._apply(index):
                return
            index += 1
        self._finish()

    def _adopt(self, start: int, end: int) -> None:
        """Takes the state that re-deciding evolved in place: only the bookkeeping is folded."""
        fold, events, entries = self.fold, self.events, self.entries
        assert len(self.decided) == end - start - 1
        apply_event(fold, events[start], entries[start].chain)  # ActionTaken: game bookkeeping only
        for decided in self.decided:  # what the record matched (sealed entries cannot say their draws)
            advance_draws(fold.meta, decided)
        fold.chain = entries[end - 1].chain
        fold.version = end

    def _refold(self, upto: int) -> None:
        """Rebuilds the state before event `upto + 1` after re-deciding in place went astray; later
        actions are re-decided on a copy, so a log that diverges often is not rebuilt again and again."""
        self.fold = GameFold()
        self.dirty = False
        self.in_place = False
        for index in range(upto):
            apply_event(self.fold, self.events[index], self.entries[index].chain)
            self.fold.version = index + 1

    def _apply(self, index: int) -> bool:
        """Folds one recorded event; a forged one the state cannot take ends the rules checks."""
        event = self.events[index]
        try:
            apply_event(self.fold, event, self.entries[index].chain)
        except Exception as exc:  # the fold trusts field values; a forged value may not fit the state
            version = index + 1
            self.report.add(
                version, "rules", f"event {version} ({event.type_name}) does not fit the game state: {exc!r}"
            )
            self.report.notes.append(f"rules and dice not checked past event {version}")
            return False
        self.fold.version = index + 1
        return True

    def _check_host_event(self, version: int, event: Event) -> None:
        meta = self.fold.meta
        if isinstance(event, SeedRevealed) and (
            not isinstance(event.seed, bytes) or commit_to_seed(event.seed) != meta["commitment"]
        ):
            self.report.add(
                version, "seed", f"the seed revealed at event {version} does not match the commitment"
            )
        elif isinstance(event, EntropyAdded) and (meta["next_draw"] > 0 or meta["actions"] > 0):
            self.report.add(version, "rules", f"entropy added at event {version}, after the first draw")

    def _re_decide(self, version: int, action: ActionTaken, recorded: Sequence[Event]) -> bool:
        """Re-decides one action; returns True when the state has been evolved through its recorded
        consequences already (re-deciding in place gave exactly them)."""
        fold, report = self.fold, self.report
        report.actions += 1
        try:
            if action.action == START and action.player == HOST:
                check_host_start(fold)
            else:
                check_legal(fold, action.player, action.action)
        except NightkeepError as exc:
            report.add(version, "rules", f"the action at event {version} was not allowed: {exc}")
            return False
        except Exception as exc:  # legality is computed from a state a forged log may have broken
            report.add(version, "rules", f"the state before event {version} is not a playable one: {exc!r}")
            return False
        versions = list(range(version + 1, version + 1 + len(recorded)))
        try:
            outcomes, where = recorded_draws(versions, recorded)
        except (TypeError, ValueError) as exc:
            report.add(version, "format", f"the draws recorded after event {version} are malformed: {exc!r}")
            return False
        seed = self.seeds.get(fold.meta["commitment"])
        dice = AuditDice(outcomes, seed, fold.meta, action.nonce)
        ruleset = get_ruleset(fold.ruleset_name)
        # A ruleset that can decide in place spares the audit a copy of the state per action and a
        # second evolve of every consequence; the state is rebuilt only if the record diverges.
        decide = getattr(ruleset, "decide_in_place", None) if self.in_place else None
        if decide is not None:
            self.dirty = True
        elif self.sealed:
            report.add(version, "rules", "a sealed copy can be re-decided only in place")
            return False
        else:
            decide = ruleset.decide
        try:
            decided = decide(fold.state, action.action, action.player, dice)
        except Exception as exc:  # a rule tripping over a forged log must not stop the audit
            report.add(version, "rules", f"re-deciding the action at event {version} failed: {exc!r}")
            return False
        self.decided = decided
        report.draws += dice.used
        report.draws_verified += dice.checked
        if seed is None and dice.used > dice.checked:
            self.unverified.append(version)
        for draw, got, fair in dice.mismatches:
            at = where.get(draw, version)
            report.add(at, "dice", f"draw {draw} at event {at} recorded {got!r}, the seed gives {fair!r}")
        same = self._compare(version, recorded, decided)
        if same and self.dirty:
            self.dirty = False
            return True
        return False

    def _compare(self, version: int, recorded: Sequence[Event], decided: Sequence[Event]) -> bool:
        for offset, (mine, theirs) in enumerate(zip(recorded, decided, strict=False)):
            if not _same_event(mine, theirs):
                at = version + 1 + offset
                self.report.add(
                    at,
                    "rules",
                    f"event {at} diverges from the rules: recorded {_describe(mine, self.sealed)}, "
                    f"re-deciding gives {_describe(theirs, self.sealed)}",
                )
                return False
        if len(recorded) != len(decided):
            at = version + 1 + min(len(recorded), len(decided))
            extra = (
                f"re-deciding gives {_describe(decided[len(recorded)], self.sealed)} next"
                if len(decided) > len(recorded)
                else f"the log has {_describe(recorded[len(decided)], self.sealed)}, which the rules "
                "do not produce"
            )
            self.report.add(
                at,
                "rules",
                f"the action at event {version} has {len(recorded)} recorded consequences, the rules "
                f"give {len(decided)}: {extra}",
            )
            return False
        return True

    def _finish(self) -> None:
        fold, report = self.fold, self.report
        status = get_ruleset(fold.ruleset_name).status(fold.state)
        report.finished = status["status"] == "finished"
        if report.finished and not fold.meta["seed"]:
            report.add(report.events, "seed", "the game is over but its seed was never revealed")
        if self.unverified:
            first, last = self.unverified[0], self.unverified[-1]
            if not report.finished and fold.meta["commitment"] not in self.seeds:
                why = "the seed is not revealed yet (the game is still running)"
            elif fold.meta["forked_from"]:
                why = "their seed is not in this log (audit the game this one was forked from)"
            else:
                why = "their seed was never revealed"
            count = len(self.unverified)
            span = f"events {first}–{last}"
            report.notes.append(f"the draws of {count} actions ({span}) cannot be verified: {why}")
