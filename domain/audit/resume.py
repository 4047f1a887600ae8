"""An audit from a trusted prefix: where a clean audit of a log ended (`AuditPoint`), so that the events
that extend the log are audited from there with exactly the checks of a whole-log audit, without reading
the prefix again.

A replica receives a game a packet at a time: auditing its whole copy for every packet made each packet
cost more the longer the game (and a game quadratic). What each stage of the audit carries from one event
to the next is small — the chain value, the fold (re-decided state and bookkeeping), the actions whose
draws wait for the seed, the public dice's stream (script, pool, nonce, key), the seats' keys and lapses,
the header's facts (how many events, how many sealed, the opening entries, whose private events are
sealed) — and a point holds exactly that.

What a point cannot carry, the whole log is read for (`audit_tail` returns None, the caller audits the
whole log, and a point is made again at its end):
- a log with a fork, or a revealed seed (a revealed seed makes every earlier draw checkable: the game's
  last events, audited once whole);
- a tail holding an opening event, a reveal or a club's event (deadlines, lapses, hand-overs, press,
  rollbacks: their checks read back through the log);
- a tail with any finding (the whole log's audit names every finding as it would);
- a copy's first sealed event when its checks change from re-deciding to the public ones.
`tests/replays/test_audit_points.py` holds a tail's report equal to the whole log's on every prefix of
every file in replays/ and on forged tails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, cast

from domain.audit.reading import (
    HeaderFacts,
    copy_viewer_problems,
    facts_problems,
    header_problems,
    header_type_problem,
)
from domain.audit.redecide import Decided, Unverified
from domain.audit.report import AuditReport, LogEntry, RawEntry
from domain.audit.sealed import UNREAD_PRIVATE, DiceStream, PublicFold
from domain.audit.signatures import SignatureState
from domain.club import CLUB_EVENTS
from domain.errors import NightkeepError
from domain.events import (
    ActionTaken,
    DiceChainCommitted,
    Event,
    ForkedFrom,
    GameCreated,
    Sealed,
    SeedCommitted,
    SeedRevealed,
    is_private,
    is_sealed,
)
from domain.game import NIGHTKEEP_VERSION, GameFold, decode_event, holder_ruleset
from domain.plain import copy_plain
from domain.rulesets import ruleset_class, state_version

PUBLIC_PATH = "public"  # a copy with sealed events its seeds do not open yet: the public checks
REDECIDE_PATH = "redecide"  # every action re-decided
POINT_FORMAT = 1  # the shape of `AuditPoint.to_plain`; a point of another shape is passed over

# The prefix's entries and events, in a log audited from a point: never read (each stage starts after them).
GAP = RawEntry(0, "", 0, {}, b"")
GAP_EVENT = cast(Event, None)

# Event types whose checks read back through the log: a tail holding one is audited with its whole log.
HISTORY_TYPES = frozenset(
    cls.__name__ for cls in (ForkedFrom, GameCreated, SeedCommitted, SeedRevealed, *CLUB_EVENTS)
)


class CannotResume(Exception):
    """The tail cannot be audited from the point alone: the whole log must be."""


class Held(NamedTuple):
    """What the header and the choice of checks need to know of the events read so far."""

    sealed: int  # sealed private events
    keyed: bool  # a key chain is committed (DiceChainCommitted)
    unread_only: bool  # every sealed event is of a type no rule reads (a club's private press)
    privates: dict[str, list[int]]  # by owner: [sealed, unsealed] private events
    created: RawEntry | None  # the GameCreated entry
    committed: RawEntry | None  # the last SeedCommitted entry
    revealed: bool  # a seed is revealed (SeedRevealed)
    forked: bool  # the log forks another (ForkedFrom)


@dataclass(frozen=True)
class AuditPoint:
    """Where a clean audit of a log's first `version` events ended (see the module's docstring)."""

    version: int
    chain: bytes
    path: str
    held: Held
    actions: int
    draws: int
    draws_verified: int
    fold: GameFold
    unverified: Unverified
    action: ActionTaken | None  # the last action (the public checks' draws use its key)
    dice: DiceStream | None  # the public dice's stream (PUBLIC_PATH)
    signatures: SignatureState

    @property
    def created(self) -> GameCreated:
        """Returns the game's GameCreated."""
        return self.signatures.created

    @property
    def decided(self) -> Decided:
        """Returns where re-deciding was."""
        return Decided(self.fold, self.unverified)

    @property
    def public(self) -> PublicFold:
        """Returns where the public checks were."""
        return PublicFold(self.fold, self.action)

    def fresh(self) -> AuditPoint:
        """Returns a copy an audit can go on from without changing this one."""
        fold = self.fold.copy()
        signatures = self.signatures._replace(meta=copy_plain(self.signatures.meta))
        dice = self.dice._replace(script=list(self.dice.script)) if self.dice else None
        held = self.held._replace(privates={k: list(v) for k, v in self.held.privates.items()})
        return replace(self, fold=fold, signatures=signatures, dice=dice, held=held)

    def to_plain(self) -> dict[str, Any]:
        """Returns the point as plain data (msgpack-able), stamped with what makes it current."""
        fold, action, sig = self.fold, self.action, self.signatures
        return {
            "format": POINT_FORMAT,
            "nightkeep": NIGHTKEEP_VERSION,
            "state_version": state_version(fold.ruleset_name),
            "version": self.version,
            "chain": self.chain,
            "path": self.path,
            "held": [
                self.held.sealed,
                self.held.keyed,
                self.held.unread_only,
                self.held.privates,
                list(self.held.created or ()),
                list(self.held.committed or ()),
            ],
            "counts": [self.actions, self.draws, self.draws_verified],
            "fold": [fold.ruleset_name, fold.meta, fold.state, fold.chain, fold.version],
            "unverified": list(self.unverified),
            "action": [action.type_name, action.class_version, action.to_fields()] if action else None,
            "dice": list(self.dice) if self.dice else None,
            "signatures": [sig.point, sig.meta, sig.version],
        }

    @classmethod
    def from_plain(cls, plain: Any) -> AuditPoint | None:
        """Returns the point plain data hold, or None for data of another shape, stamp or version of
        nightkeep, or that do not read (the events are the record: the whole log is audited instead)."""
        try:
            if (
                plain["format"] != POINT_FORMAT
                or plain["nightkeep"] != NIGHTKEEP_VERSION
                or plain["state_version"] != state_version(plain["fold"][0])
            ):
                return None
            sealed, keyed, unread_only, privates, created, committed = plain["held"]
            created_entry, committed_entry = RawEntry(*created), RawEntry(*committed)
            held = Held(sealed, keyed, unread_only, privates, created_entry, committed_entry, False, False)
            game = decode_event(created_entry.type_name, created_entry.class_version, created_entry.fields)
            name, meta, state, chain, version = plain["fold"]
            fold = GameFold(name, meta, state, chain, version, holder_ruleset(name, meta))
            action = decode_event(*plain["action"]) if plain["action"] else None
            point, club, signed_to = plain["signatures"]
            found = cls(
                version=plain["version"],
                chain=plain["chain"],
                path=plain["path"],
                held=held,
                actions=plain["counts"][0],
                draws=plain["counts"][1],
                draws_verified=plain["counts"][2],
                fold=fold,
                unverified=Unverified(*plain["unverified"]),
                action=action if isinstance(action, ActionTaken) else None,
                dice=DiceStream(*plain["dice"]) if plain["dice"] else None,
                signatures=SignatureState(cast(GameCreated, game), point, club, signed_to),
            )
        except (KeyError, TypeError, ValueError, IndexError, NightkeepError):
            return None
        consistent = (
            isinstance(game, GameCreated)
            and found.path in (PUBLIC_PATH, REDECIDE_PATH)
            and fold.version == signed_to == found.version >= 2
            and fold.chain == found.chain
            and (found.dice is not None) == (found.path == PUBLIC_PATH)
        )
        return found if consistent else None


def resumable(point: AuditPoint, tail: Sequence[LogEntry]) -> bool:
    """Tells whether a tail may be audited from a point (no event whose checks read back through the log)."""
    history = HISTORY_TYPES
    return all(type(entry.type_name) is str and entry.type_name not in history for entry in tail)


def held_facts(
    entries: Sequence[LogEntry],
    events: Sequence[Event],
    begin: int,
    resume: AuditPoint | None,
    by_owner: bool = True,
) -> Held:
    """Returns what the events held tell the header and the choice of checks (those of the prefix from
    the point, the rest read from the events after `begin`); the private events by owner only when
    asked (`by_owner`: a point needs them, an audit alone does not)."""
    read = events[begin:] if begin else events
    types = list(
        map(type, read)
    )  # (no event type subclasses another: the exact type says what isinstance would)
    sealed = types.count(Sealed)
    unread_only = all(e.type in UNREAD_PRIVATE for e in read if type(e) is Sealed) if sealed else True
    privates: dict[str, list[int]] = {k: list(v) for k, v in resume.held.privates.items()} if resume else {}
    for entry in (entries[begin:] if begin else entries) if by_owner else ():
        if is_private(entry.type_name):
            owner = entry.fields.get("owner")
            counts = privates.setdefault(owner if isinstance(owner, str) else "", [0, 0])
            counts[0 if is_sealed(entry.fields) else 1] += 1
    if resume:
        before = resume.held
        return Held(
            before.sealed + sealed,
            before.keyed or DiceChainCommitted in types,
            before.unread_only and unread_only,
            privates,
            before.created,
            before.committed,
            before.revealed or SeedRevealed in types,
            before.forked or ForkedFrom in types,
        )
    names = [getattr(entry, "type_name", None) for entry in entries] if by_owner else []
    created = committed = None
    if GameCreated.__name__ in names and SeedCommitted.__name__ in names:
        created = _raw(entries[names.index(GameCreated.__name__)])
        committed = _raw(entries[len(names) - 1 - names[::-1].index(SeedCommitted.__name__)])
    return Held(
        sealed,
        DiceChainCommitted in types,
        unread_only,
        privates,
        created,
        committed,
        SeedRevealed in types,
        ForkedFrom in types,
    )


def _raw(entry: LogEntry) -> RawEntry:
    return RawEntry(entry.version, entry.type_name, entry.class_version, entry.fields, entry.chain)


def header_problems_of(
    header: dict[str, Any],
    entries: Sequence[LogEntry],
    events: Sequence[Event],
    held: Held,
    resume: AuditPoint | None,
) -> list[tuple[int, str]]:
    """Checks a replay file's header against its log: the whole log's, or from a point on (the prefix's
    private events are known by owner: a copy whose prefix does not fit the viewer is read whole)."""
    if resume is None:
        return header_problems(header, entries, events)
    malformed = header_type_problem(header)
    if malformed:
        return [(0, malformed)]
    tail = entries[resume.version :]

    def viewer_problems(viewer: str, created: LogEntry) -> list[tuple[int, str]]:
        for owner, (sealed, unsealed) in resume.held.privates.items():
            mine = bool(viewer) and owner == viewer
            if (mine and sealed) or (not mine and unsealed):
                raise CannotResume  # the prefix does not fit the viewer: the whole log names it
        return copy_viewer_problems(viewer, created, tail)

    facts = HeaderFacts(len(entries), held.sealed > 0, held.created, held.committed)
    return facts_problems(header, facts, viewer_problems)


def resume_unseal(created: GameCreated, held: Held) -> bool:
    """Tells, for a log from a point (no seed revealed), what `sealed.can_unseal` tells of the whole:
    the rules re-decide a sealed copy whose sealed events no rule reads."""
    try:
        redecides = ruleset_class(created.ruleset).redecides_sealed
    except NightkeepError:
        return False
    return bool(redecides and held.unread_only)


def point_after(
    entries: Sequence[LogEntry],
    events: Sequence[Event],
    report: AuditReport,
    held: Held,
    signed: SignatureState | None,
    path: str,
    decided: Decided | None = None,
    public: PublicFold | None = None,
    dice: DiceStream | None = None,
) -> AuditPoint | None:
    """Returns where a clean audit of a log ended, or None for a log an audit cannot go on from."""
    if (
        report.findings
        or signed is None
        or held.revealed
        or held.forked
        or held.created is None
        or held.committed is None
        or len(entries) < 2
    ):
        return None
    fold = decided.fold if decided else public.fold if public else None
    if fold is None or fold.version != len(entries):
        return None
    return AuditPoint(
        version=len(entries),
        chain=entries[-1].chain,
        path=path,
        held=held,
        actions=report.actions,
        draws=report.draws,
        draws_verified=report.draws_verified,
        fold=fold,
        unverified=decided.unverified if decided else Unverified(0, 0, 0),
        action=public.action if public else None,
        dice=dice,
        signatures=signed,
    )
