"""Where a game may be forked, and with which dice: checks on a stored game's events before a fork."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from domain.actions import HOST
from domain.club import RolledBack
from domain.errors import IllegalAction, UsageError
from domain.events import ActionTaken, ForkedFrom, Sealed, SeedCommitted, SeedRevealed
from domain.game import GameFold
from event_store.recorded import RecordedEvent


def check_fork_point(game_id: UUID, events: Sequence[RecordedEvent], final: GameFold, at: int) -> None:
    """Raises unless event `at` is where a fork may start: an action boundary of this game's own
    history (not inside a fork's copy), or where an early reveal stopped it; never a sealed copy."""
    last = len(events)
    if not 1 <= at <= last:
        raise UsageError(f"game {game_id} has events 1 to {last}; cannot fork at {at}")
    own_commit = max(r.version for r in events if isinstance(r.event, SeedCommitted))
    if at < own_commit and isinstance(events[0].event, ForkedFrom):
        original = events[0].event
        raise UsageError(
            f"event {at} lies in the history this fork copied from game {original.game}: "
            f"fork that game at {at - 1} instead"
        )
    rolled = next((r.version for r in events[:at] if isinstance(r.event, RolledBack)), None)
    if rolled is not None:
        # A rollback's target is an event number of its own log, which a fork's copy shifts.
        raise UsageError(f"game {game_id} was rolled back at event {rolled}: a fork may start only before it")
    playable = [r.version - 1 for r in events if isinstance(r.event, ActionTaken)]
    if final.ruleset.status(final.state)["status"] != "finished":
        # A game stopped by an early reveal can be forked where it stopped (the last state that still
        # took actions); a running game can be forked at its last event.
        reveal = next((r.version for r in events if isinstance(r.event, SeedRevealed)), None)
        playable.append(reveal - 1 if reveal else last)
    playable = [b for b in playable if b >= own_commit]
    if at not in playable:
        before = max((b for b in playable if b < at), default=None)
        after = min((b for b in playable if b > at), default=None)
        nearest = " or ".join(str(b) for b in (before, after) if b is not None)
        raise UsageError(
            f"event {at} is not an action boundary: fork where a player is about to act ({nearest})"
            if nearest
            else f"game {game_id} has no point where a player is about to act"
        )
    if any(isinstance(r.event, Sealed) for r in events[:at]):
        raise IllegalAction(
            f"game {game_id} holds a copy with private events sealed: only the host's full log can be "
            "forked (a fork of it could not be played)"
        )


def original_seed_for_fork(
    game_id: UUID, events: Sequence[RecordedEvent], at_fork: GameFold, same_dice: bool
) -> bytes:
    """Returns the original's seed where it is public at the fork point (else b""), raising when the
    fork may not be made: a game with secrets, or `same_dice`, before that seed is revealed."""
    from domain.audit.dice import seeds_by_commitment  # the auditor's package: loaded only to fork

    original_seed = seeds_by_commitment(r.event for r in events).get(at_fork.meta["commitment"], b"")
    if at_fork.ruleset.hidden_information and not original_seed:
        # The copied history holds the players' secrets (identities, hands): playing on in a fork would
        # make the rules reveal them while the original still runs.
        raise IllegalAction(
            f"game {game_id} keeps secrets: it can be forked only once its seed is revealed (the game "
            "ends, or its host runs nightkeep reveal), or a fork's play would reveal them"
        )
    if same_dice and not original_seed:
        raise IllegalAction(
            f"--same-dice needs game {game_id}'s seed revealed first (its host runs nightkeep reveal): "
            "a fork must not preview an unfinished game's dice"
        )
    return original_seed


def action_boundaries(events: Sequence[RecordedEvent]) -> list[int]:
    """Returns the events a game may be forked at because a player acts right after them (the event
    before each player's ActionTaken), in this game's own history; `fork --at` takes any of these."""
    own_commit = max((r.version for r in events if isinstance(r.event, SeedCommitted)), default=0)
    return [
        r.version - 1
        for r in events
        if isinstance(r.event, ActionTaken) and r.event.player != HOST and r.version - 1 >= own_commit
    ]
