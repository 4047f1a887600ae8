"""Re-deciding a log: every action from the state before it, fed the recorded draws, must give exactly
the recorded consequences, and every draw is recomputed from the seed (or the dice script)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from domain.actions import HOST, START
from domain.audit.dice import AuditDice, drawn_at, private_keys_of, recorded_draws, seeds_by_commitment
from domain.audit.report import AuditReport, LogEntry, brief
from domain.club import CLUB_EVENTS, RolledBack, redo_problem
from domain.club_rules import club_problem
from domain.dice import hmac_key
from domain.errors import NightkeepError
from domain.events import (
    ActionTaken,
    BotRoundCapSet,
    DiceChainCommitted,
    EntropyAdded,
    Event,
    ForkedFrom,
    GameCreated,
    Sealed,
    SeedCommitted,
    SeedRevealed,
    seal,
)
from domain.game import (
    _DRAW_FIELDS,
    GameFold,
    Rewinds,
    advance_draws,
    apply_event,
    chain_commit_problem,
    check_host_start,
    check_legal,
    dealt_problem,
    dice_key_problem,
    game_status,
    round_cap_problem,
)
from domain.setup import entropy_problem

GAME_LEVEL = (ForkedFrom, GameCreated, SeedCommitted, EntropyAdded, ActionTaken, SeedRevealed)


def _describe(event: Event, sealed: bool = False) -> str:
    """Tells an event in one line. In a sealed copy's report a private event also shows its seal, so a
    recorded seal and the re-decided one can be compared (its values are no secret once the seed that
    let the audit re-decide it is public)."""
    if isinstance(event, Sealed):
        return f"{event.type_name}(sealed for {event.owner}, seal {brief(event.sealed)})"
    fields = ", ".join(f"{k}={brief(v)}" for k, v in event.to_fields().items())
    if sealed and event.private:
        seal_of = seal(event.type_name, event.class_version, event.to_fields())["sealed"]
        fields += f"; seal {brief(seal_of)}"
    return f"{event.type_name}({fields})"


def _same_event(recorded: Event, decided: Event, recorded_version: int) -> bool:
    """Tells whether a recorded event is the decided one: equal, or for a sealed entry its seal. An
    event recorded at an older class version is compared on the fields that version had (a field a
    later version added, see `Event.added_in`, was not recorded, so it cannot disagree)."""
    if type(recorded) is Sealed:
        if not decided.private or recorded.type != decided.type_name or recorded.v != decided.class_version:
            return False
        sealed = seal(decided.type_name, decided.class_version, decided.to_fields())
        return sealed == {"owner": recorded.owner, "sealed": recorded.sealed}
    if recorded_version < decided.class_version and type(recorded) is type(decided):
        unrecorded = {name for name, since in decided.added_in.items() if since > recorded_version}
        mine, theirs = recorded.to_fields(), decided.to_fields()
        return all(mine[name] == theirs[name] for name in mine if name not in unrecorded)
    return recorded == decided


def _outside_rules(event: Event) -> bool:
    """Tells whether an event is recorded by the game or the host rather than decided by a rule."""
    return type(event) in _GAME_LEVEL_TYPES or event.is_host_event


_GAME_LEVEL_TYPES = frozenset(GAME_LEVEL)  # one set lookup for every event of every audit
_CLUB_TYPES = frozenset(CLUB_EVENTS)


class ReDecider:
    """Folds the log and re-decides each action from the state before it."""

    def __init__(
        self,
        entries: Sequence[LogEntry],
        events: list[Event],
        report: AuditReport,
        sealed: bool = False,
        resume: Decided | None = None,
    ) -> None:
        """Re-decides from the first event, or on from `resume`: where re-deciding a trusted prefix
        ended (an audit from it, domain.audit.resume, reads none of the prefix's events again: it holds
        no rollback, no revealed seed, and nothing that diverged)."""
        self.entries = entries
        # A copy with sealed private events: the state is carried by re-deciding in place, since the
        # sealed events cannot be folded; a divergence ends the rules checks.
        self.sealed = sealed
        self.stopped_at = 0  # the action where re-deciding a sealed copy had to stop
        self.decided: list[Event] = []
        self.events = events
        self.report = report
        # The folds at the events the log's rollbacks return to, as re-deciding made them: a sealed copy's
        # state is carried by re-deciding, so folding its events again (sealed ones passed over) would
        # lose what its private events did (a hand dealt before the rollback).
        self.start = start = resume.fold.version if resume else 0
        self._rewinds: Rewinds | None = None  # made when a rollback first needs it
        self.targets = {e.to for e in events[start:] if type(e) is RolledBack and type(e.to) is int}
        self.at_targets: dict[int, GameFold] = {}
        self.fold = self._new_fold()
        if resume:
            self.fold = resume.fold
            self.fold.rewind_source = self._rewind
        self.seeds = seeds_by_commitment(events[start:])
        self.keys = {commitment: hmac_key(seed) for commitment, seed in self.seeds.items()}
        # The actions whose draws could not be checked: how many, the first and the last.
        self.unverified = resume.unverified if resume else Unverified(0, 0, 0)
        self.dirty = False  # the state was handed to an in-place decide that did not match the record
        self.in_place = True

    def where(self) -> Decided:
        """Returns where re-deciding is: the fold of the events read and the unverified actions."""
        return Decided(self.fold, self.unverified)

    def run(self) -> None:
        events, report = self.events, self.report
        index = self.start
        total = len(events)
        game_level = _GAME_LEVEL_TYPES
        targets = self.targets
        while index < total:
            if targets and index in targets:
                self.at_targets[index] = self.fold.copy()
            event = events[index]
            version = index + 1
            if isinstance(event, ActionTaken):
                end = index + 1
                # Its consequences: every event up to the next game-level or host one (inlined: the
                # scan passes every event of every audit).
                while end < total and type(ev := events[end]) not in game_level and not ev.is_host_event:
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
        meta, draw_fields = fold.meta, _DRAW_FIELDS
        for decided in self.decided:  # what the record matched (sealed entries cannot say their draws)
            if draw_fields.get(type(decided), True):  # a type known to record no draw is passed over
                advance_draws(meta, decided)
        fold.chain = entries[end - 1].chain
        fold.version = end

    def _new_fold(self) -> GameFold:
        """Returns an empty fold that a rollback in the log returns through (to its target's fold)."""
        return GameFold(rewind_source=self._rewind)

    def _rewind(self, version: int) -> GameFold:
        """Returns the fold at an event a rollback returns to: as re-deciding left it there, or (for a
        target that is no action's boundary, a finding of its own) folded from the events."""
        made = self.at_targets.get(version)
        if made is not None:
            return made
        if self._rewinds is None:
            pairs = [(event, entry.chain) for event, entry in zip(self.events, self.entries, strict=False)]
            self._rewinds = Rewinds.of(pairs)
        return self._rewinds(version)

    def _refold(self, upto: int) -> None:
        """Rebuilds the state before event `upto + 1` after re-deciding in place went astray; later
        actions are re-decided on a copy, so a log that diverges often is not rebuilt again and again."""
        self.fold = self._new_fold()
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
        # (A reveal that does not open the commitment is a finding of the shape stage, which every
        # audit makes first.)
        fold = self.fold
        if isinstance(event, EntropyAdded) and (problem := entropy_problem(fold.meta, event.player)):
            self.report.add(
                version, "rules", f"the entropy added at event {version} is not allowed: {problem}"
            )
        elif type(event) is DiceChainCommitted and (problem := chain_commit_problem(fold.meta, event)):
            self.report.add(version, "dice", f"event {version} (DiceChainCommitted): {problem}")
        elif event.type_name == "DiceKeyDealt":
            seed = self.seeds.get(fold.meta["commitment"])
            if problem := dealt_problem(fold.meta, event, seed):
                self.report.add(version, "dice", f"event {version} (DiceKeyDealt): {problem}")
        elif type(event) is BotRoundCapSet and (problem := round_cap_problem(fold, event)):
            self.report.add(version, "rules", f"event {version} (BotRoundCapSet): {problem}")
        elif type(event) in _CLUB_TYPES:
            problem = club_problem(fold, event, self.events, version - 1, game_status(fold))
            if problem:
                self.report.add(version, "rules", f"event {version} ({event.type_name}): {problem}")

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
                if problem := redo_problem(fold.meta, action):
                    report.add(version, "rules", f"the action at event {version}: {problem}")
        except NightkeepError as exc:
            report.add(version, "rules", f"the action at event {version} was not allowed: {exc}")
            return False
        except Exception as exc:  # legality is computed from a state a forged log may have broken
            report.add(version, "rules", f"the state before event {version} is not a playable one: {exc!r}")
            return False
        try:
            outcomes = recorded_draws(recorded)
        except (TypeError, ValueError) as exc:
            report.add(version, "format", f"the draws recorded after event {version} are malformed: {exc!r}")
            return False
        commitment = fold.meta["commitment"]
        seed = self.seeds.get(commitment)
        if problem := dice_key_problem(fold.meta, action):
            report.add(version, "dice", f"the action at event {version}: {problem}")
        owners = (
            private_keys_of(fold.meta, seed) if action.dice_key and fold.meta.get("private_draws") else None
        )
        dice = AuditDice(
            outcomes, seed, fold.meta, action.nonce, self.keys.get(commitment), action.dice_key, owners
        )
        # Deciding in place spares the audit a copy of the state per action and a second evolve of
        # every consequence; the state is rebuilt only if the record diverges.
        if self.in_place:
            decide = fold.ruleset.decide_in_place
            self.dirty = True
        elif self.sealed:
            report.add(version, "rules", "a sealed copy can be re-decided only in place")
            return False
        else:
            decide = fold.ruleset.decide
        try:
            decided = decide(fold.state, action.action, action.player, dice)
        except Exception as exc:  # a rule tripping over a forged log must not stop the audit
            report.add(version, "rules", f"re-deciding the action at event {version} failed: {exc!r}")
            return False
        self.decided = decided
        report.draws += dice.used
        report.draws_verified += dice.checked
        if seed is None and dice.used > dice.checked:
            count, first, _ = self.unverified
            self.unverified = Unverified(count + 1, first or version, version)
        giver = "the turn's key gives" if action.dice_key else "the seed gives"
        for draw, got, fair in dice.mismatches:
            at = drawn_at(version + 1, recorded, draw) or version
            report.add(at, "dice", f"draw {draw} at event {at} recorded {got!r}, {giver} {fair!r}")
        same = self._compare(version, recorded, decided)
        if same and self.dirty:
            self.dirty = False
            return True
        return False

    def _compare(self, version: int, recorded: Sequence[Event], decided: Sequence[Event]) -> bool:
        if recorded == decided:
            return True  # nearly every action: one list comparison, element by element in C
        for offset, (mine, theirs) in enumerate(zip(recorded, decided, strict=False)):
            if mine == theirs:
                continue  # nearly every event: no sealed stand-in, no older shape to compare by its fields
            if not _same_event(mine, theirs, self.entries[version + offset].class_version):
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
        status = game_status(fold)
        report.status = status["status"]
        if report.finished and not fold.meta["seed"]:
            report.add(report.events, "seed", "the game is over but its seed was never revealed")
        if self.unverified.actions:
            count, first, last = self.unverified
            if not report.finished and fold.meta["commitment"] not in self.seeds:
                why = "the seed is not revealed yet (the game is still running)"
            elif fold.meta["forked_from"]:
                why = "their seed is not in this log (audit the game this one was forked from)"
            else:
                why = "their seed was never revealed"
            span = f"events {first}–{last}"
            report.notes.append(f"the draws of {count} actions ({span}) cannot be verified: {why}")


class Unverified(NamedTuple):
    """The actions whose draws could not be checked (their seed is not public): how many, the first and
    the last (0 when none)."""

    actions: int
    first: int
    last: int


class Decided(NamedTuple):
    """Where re-deciding a log is: the fold of the events read, and the actions it could not verify."""

    fold: GameFold
    unverified: Unverified
