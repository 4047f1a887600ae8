"""Auditing a copy of a log with private events sealed: what public facts alone can check while its
seeds are secret (who acted, the ruleset's checks of every event, the public die rolls)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from domain.actions import HOST, START
from domain.audit.dice import seeds_by_commitment
from domain.audit.reading import commitments
from domain.audit.report import AuditReport, LogEntry, brief
from domain.club import CLUB_EVENTS, paused_by, redo_problem
from domain.club_rules import club_problem
from domain.dice import EMPTY_POOL, draw_salt, draw_value, mix_entropy, owner_key
from domain.errors import NightkeepError
from domain.events import (
    ActionTaken,
    DiceChainCommitted,
    DieRolled,
    EntropyAdded,
    Event,
    GameCreated,
    Sealed,
    SeedCommitted,
)
from domain.game import (
    GameFold,
    Rewinds,
    apply_event,
    chain_commit_problem,
    dealt_problem,
    dice_key_problem,
    game_status,
    verify_event,
)
from domain.rulesets import ruleset_class
from domain.setup import entropy_problem


def can_unseal(events: Sequence[Event], created: GameCreated) -> bool:
    """Tells whether a copy with sealed events can still be re-decided in full: every seed it committed
    to is revealed (its own, and for a fork the original's), so every private pick and salt can be
    recomputed, and the rules can re-decide it (`Ruleset.redecides_sealed`)."""
    try:
        redecides = ruleset_class(created.ruleset).redecides_sealed
    except NightkeepError:
        return False
    if not redecides:
        return False
    # Private press is sealed but read by no rule: such a copy is re-decided whatever its seeds (its
    # draws are checked with the turns' keys where the game has them).
    if all(e.type in UNREAD_PRIVATE for e in events if type(e) is Sealed):
        return True
    return commitments(events) <= seeds_by_commitment(events).keys()


# Private event types no rule reads (a club's private press): sealed, they hide nothing the rules need.
UNREAD_PRIVATE = frozenset({"PrivatePressSent"})


def fold_public(
    entries: Sequence[LogEntry],
    events: Sequence[Event],
    report: AuditReport,
    after: int = 0,
    resume: PublicFold | None = None,
) -> PublicFold:
    """Folds the public events of a sealed copy, so every reveal is checked against its commitment, and
    a game the copy shows over must have revealed its seed (or its private events escape re-deciding).
    From `resume` (the fold after the first `resume.fold.version` events, which are not read again: an
    audit from a trusted prefix, domain.audit.resume) or from the first event; returns where it ended."""
    if resume is None:
        pairs = [(event, entry.chain) for event, entry in zip(events, entries, strict=True)]
        resume = PublicFold(GameFold(rewind_source=Rewinds.of(pairs)), None)
    fold, action = resume
    start = fold.version
    for index in range(start, len(events)):
        entry, event = entries[index], events[index]
        version = index + 1
        try:
            problem = _public_problem(fold, event) or _club_problem(fold, event, events, index)
            if problem and version > after:  # findings up to `after` come from re-deciding
                report.add(version, "rules", f"event {version} ({event.type_name}): {problem}")
            if type(event) is ActionTaken:
                action = event
            elif action is not None and action.dice_key and version > after:
                _check_draws(fold, action, event, version, report)
            apply_event(fold, event, entry.chain)
            fold.version = version
        except Exception as exc:  # a forged value the state cannot take
            detail = f"event {version} ({event.type_name}) does not fit the game: {exc!r}"
            report.add(version, "rules", detail)
            return PublicFold(fold, action)
    try:
        report.status = game_status(fold)["status"]
    except Exception as exc:  # a state a forged log left unplayable
        report.add(len(events), "rules", f"the state at the end is not a playable one: {exc!r}")
        return PublicFold(fold, action)
    # (A reveal that does not open the commitment is the shape stage's finding, made first.)
    if report.finished and not fold.meta["seed"]:
        report.add(len(events), "seed", "the game is over but its seed was never revealed")
    return PublicFold(fold, action)


class PublicFold(NamedTuple):
    """Where `fold_public` is: the fold of the events read, and the last action among them (whose turn
    key checks the draws of the events after it)."""

    fold: GameFold
    action: ActionTaken | None


def _check_draws(
    fold: GameFold, action: ActionTaken, event: Event, version: int, report: AuditReport
) -> None:
    """Recomputes the draws of an event that this copy can, with the turn's key (public picks) or its
    own private dice key mixed with it (its own private picks and salts): so a player's copy checks
    them the turn they are made, the other seats' sealed ones waiting for the reveal."""
    if type(event) is Sealed or not fold.ruleset_name:
        return
    meta = fold.meta
    pool, nonce = meta["pool"], action.nonce
    for check in fold.ruleset.draw_checks(fold.state, event):
        if check.owner:
            own = meta["private_keys"].get(check.owner)
            if own is None:
                continue
            key = owner_key(own, action.dice_key)
        else:
            key = action.dice_key
        if check.options is None:
            expected: object = draw_salt(key, pool, nonce, check.draw)
        elif check.options:
            expected = check.options[draw_value(key, pool, nonce, check.draw, len(check.options))]
        else:
            continue
        report.draws += 1
        report.draws_verified += 1
        if check.recorded != expected:
            whose = f"{check.owner}'s key" if check.owner else "the turn's key"
            detail = f"recorded {brief(check.recorded)}, {whose} gives {brief(expected)}"
            report.add(version, "dice", f"draw {check.draw} at event {version} {detail}")


def _club_problem(fold: GameFold, event: Event, events: Sequence[Event], head: int) -> str:
    """Returns what the club's rules find wrong with a club event where it stands (domain.club_rules)."""
    if type(event) not in _CLUB_TYPES:
        return ""
    return club_problem(fold, event, events, head, game_status(fold))


_CLUB_TYPES = frozenset(CLUB_EVENTS)


def _public_problem(fold: GameFold, event: Event) -> str:
    """Returns what public facts alone show wrong with an event: an action by someone not to act (the
    host acts only to start the game, as its first action), a dice key off the committed chain, or what
    the ruleset's `verify` finds (a reveal that opens no commitment…)."""
    if isinstance(event, ActionTaken) and (problem := dice_key_problem(fold.meta, event)):
        return problem
    if isinstance(event, DiceChainCommitted):
        return chain_commit_problem(fold.meta, event)
    if event.type_name == "DiceKeyDealt":
        return dealt_problem(fold.meta, event, None)
    if isinstance(event, ActionTaken) and event.player == HOST:
        is_start = event.action == START and not fold.meta["actions"]
        return "" if is_start else f"the host acted ({event.action!r:.40}); it acts only to start the game"
    if isinstance(event, ActionTaken) and fold.ruleset_name:
        to_act = fold.ruleset.status(fold.state)["to_act"]
        if event.player not in to_act:
            return f"{event.player} acted while {', '.join(to_act) or 'nobody'} was to act"
        return redo_problem(fold.meta, event) or (
            f"play waited: {paused}" if (paused := paused_by(fold.meta)) else ""
        )
    if isinstance(event, EntropyAdded):
        return entropy_problem(fold.meta, event.player)
    if isinstance(event, Sealed) and event.owner not in (*fold.meta["players"], HOST):
        return f"it is sealed for {event.owner!r:.40}, who has no seat in this game"
    return verify_event(fold, event)


def check_public_dice(
    events: Sequence[Event], report: AuditReport, resume: DiceStream | None = None
) -> DiceStream:
    """Recomputes every public die roll from the seed (or script) when the rules cannot be re-run: from
    the first event, or on from `resume` (where it ended after a trusted prefix, whose events are not
    read again; such a prefix reveals no seed). Returns where it ended."""
    seeds = seeds_by_commitment(events[resume.version :] if resume else events)
    script, pool, nonce, commitment, key, start = resume or DiceStream([], EMPTY_POOL, b"", b"", b"", 0)
    script = list(script)
    for version, event in enumerate(events[start:], start=start + 1):
        if isinstance(event, GameCreated):
            script = list(event.dice_script)
        elif isinstance(event, SeedCommitted):
            commitment = event.commitment
        elif isinstance(event, EntropyAdded):
            pool = mix_entropy(pool, event.value)
        elif isinstance(event, ActionTaken):
            nonce, key = event.nonce, event.dice_key
            report.actions += 1
        elif isinstance(event, DieRolled):
            for draw, face in zip(event.draws, event.values, strict=False):
                report.draws += 1
                # Public dice draw with the turn's key, else (a game without one) with the seed.
                seed = key or seeds.get(commitment)
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
                        f"draw {draw} at event {version} recorded {face}, "
                        f"{'the turn' + chr(39) + 's key' if key else 'the seed'} gives {expected}",
                    )
    return DiceStream(script, pool, nonce, commitment, key, len(events))


class DiceStream(NamedTuple):
    """Where `check_public_dice` is: the dice script left, the entropy pool, the last action's nonce and
    turn key, the seed commitment in force, after how many events."""

    script: list[int]
    pool: bytes
    nonce: bytes
    commitment: bytes
    key: bytes
    version: int
