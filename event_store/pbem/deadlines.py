"""Deadlines that act: each pass of the host reminds the seats to move at the times the game's rules
say, records a lapse when a turn passes its deadline (everyone is told), and carries out the game's
rule for a missed turn: wait (and keep reminding), the host's bot moves after a grace period, or the
host is asked to hand the seat to a replacement player.

The deadline's clock is the host's (event_store.clock, which tests set). A seat's wait starts when
the host first sees it to move (`nightkeep_pbem_waits`: the event and the time) and ends when anyone
moves but the host's bot for it; a declared absence moves its start to the absence's end. The lapse,
the default moves and the hand-over are events in the log (domain.club), so every replica and the
audit see who lapsed, when, and under which rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from uuid import UUID

from domain.actions import HOST
from domain.bots import Bot
from domain.club import AUTH_DEFAULT, DEFAULT, REPLACE, WAIT, TurnLapsed, away_until, deadline_of, lapsed_rule
from domain.errors import NightkeepError
from domain.events import ActionTaken
from domain.game import game_status
from domain.game_meta import ClubMeta
from event_store import clock
from event_store.lazy_log import get_logger
from event_store.recorded import RecordedEvent
from event_store.sql import Statement

if TYPE_CHECKING:
    from event_store.pbem.host_parts import HostLike

log = get_logger("nightkeep.host")

# The most default moves the host's bot makes for one seat in one pass (a turn of several decisions).
MAX_DEFAULT_MOVES = 50


@dataclass(frozen=True)
class Wait:
    """How long a seat to move has been waited on: since event `since` and time `since_time`, the
    reminders sent (their times before the deadline; `L1`, `L2`… after a lapse) and when it lapsed."""

    player: str
    since: int
    since_time: int
    reminded: tuple[str, ...] = ()
    lapsed: int = 0
    is_new: bool = False

    def due(self, meta: ClubMeta) -> int:
        """Returns when the move is due under the game's deadline (0: no deadline)."""
        seconds: int = deadline_of(meta)["seconds"]
        if not seconds:
            return 0
        return max(self.since_time, away_until(meta, self.player)) + seconds

    def row(self, game_id: UUID) -> Statement:
        """Returns the statement that stores this wait."""
        return (
            "INSERT INTO nightkeep_pbem_waits (game_id, player, since, since_time, reminded, lapsed) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, player) DO UPDATE SET since = excluded.since, "
            "since_time = excluded.since_time, reminded = excluded.reminded, lapsed = excluded.lapsed",
            [str(game_id), self.player, self.since, self.since_time, ",".join(self.reminded), self.lapsed],
        )


def stored_waits(host: HostLike, game_id: UUID) -> dict[str, Wait]:
    """Returns the waits stored for a game's seats (each seat's last, whether it still waits or not)."""
    with host.db.transaction(commit=False) as c:
        c.execute(
            "SELECT player, since, since_time, reminded, lapsed FROM nightkeep_pbem_waits WHERE game_id=?",
            [str(game_id)],
        )
        rows = c.fetchall()
    return {
        row[0]: Wait(row[0], row[1], row[2], tuple(r for r in str(row[3]).split(",") if r), row[4])
        for row in rows
    }


def earliest_wait(stored: Mapping[str, Wait], to_act: Sequence[str], head: int) -> int:
    """Returns the event the longest stored wait of a seat to move began at (`head` when none did): the
    events `current_waits` looks at start after it."""
    return min((w.since for p, w in stored.items() if p in to_act and w.since <= head), default=head)


def current_waits(
    stored: Mapping[str, Wait],
    recorded: Sequence[RecordedEvent],
    to_act: Sequence[str],
    now: int,
    start: int = 0,
) -> dict[str, Wait]:
    """Returns the wait of each seat to move: the stored one while nobody has moved since it began
    (but the host's bot for that seat), else a new one from now (`is_new`: not stored yet). `recorded`
    holds the game's events after event `start` (see `earliest_wait`) up to its head."""
    waits = {}
    head = start + len(recorded)
    for player in to_act:
        wait = stored.get(player)
        if wait is not None and wait.since <= head:
            if wait.since < start:
                raise ValueError(f"the wait of {player} began at event {wait.since}, before the events read")
            if not _moved_since(recorded[wait.since - start :], player):
                waits[player] = wait
                continue
        waits[player] = Wait(player, head, now, is_new=True)
    return waits


def _moved_since(recorded: Sequence[RecordedEvent], player: str) -> bool:
    """Tells whether anyone moved in `recorded`, not counting the host's bot moving for `player`."""
    for r in recorded:
        event = r.event
        if isinstance(event, ActionTaken) and not (event.player == player and event.auth == AUTH_DEFAULT):
            return True
    return False


@dataclass
class Tended:
    """What one pass did about deadlines."""

    reminders: int = 0
    lapses: int = 0
    default_moves: int = 0
    details: list[str] = field(default_factory=list)


def tend(host: HostLike, game_ids: Sequence[UUID] | None = None) -> Tended:
    """Reminds, records lapses and makes default moves in every hosted game with a deadline; a game
    that fails is logged and passed over, so one game cannot stop the others."""
    done = Tended()
    for game_id in game_ids if game_ids is not None else host.hosted_games():
        try:
            _tend_game(host, game_id, done)
        except NightkeepError as exc:  # another host process moved the game meanwhile, or the like
            log.warning("deadline_not_tended", game=str(game_id), error=str(exc)[:200])
            done.details.append(f"game {game_id}: deadlines not tended this pass ({exc})")
    return done


def _tend_game(host: HostLike, game_id: UUID, done: Tended) -> None:
    fold = host.service.fold(game_id)
    rules = deadline_of(fold.meta)
    status = game_status(fold)
    if not rules["seconds"] or status["status"] != "running" or fold.meta.get("club", {}).get("pending"):
        return
    now = clock.epoch()
    to_act = [p for p in status["to_act"] if p != HOST]
    stored = stored_waits(host, game_id)
    start = earliest_wait(stored, to_act, fold.version)  # a pass reads the events since the waits began
    recorded = host.service.recorded_events(game_id, gt=start)
    for wait in current_waits(stored, recorded, to_act, now, start).values():
        _tend_seat(host, game_id, fold.meta, wait, now, done)


def _tend_seat(host: HostLike, game_id: UUID, meta: ClubMeta, wait: Wait, now: int, done: Tended) -> None:
    rules = deadline_of(meta)
    due = wait.due(meta)
    rule = lapsed_rule(meta, wait.player)
    if not rule and now < due:
        _remind_before(host, game_id, wait, due, rules["reminders"], now, done)
        return
    if not rule:
        _lapse(host, game_id, wait, rules["missed"], now, done)
        return
    if rule == DEFAULT and now >= wait.lapsed + rules["grace"]:
        _default_moves(host, game_id, wait, done)
    elif rule in (WAIT, REPLACE):
        _remind_after(host, game_id, wait, due, rules["seconds"], now, done)


def _remind_before(
    host: HostLike, game_id: UUID, wait: Wait, due: int, before: Sequence[int], now: int, done: Tended
) -> None:
    """Sends the reminders whose time has come, each once, with the wait stored in the same transaction."""
    come = [str(r) for r in before if now >= due - r and str(r) not in wait.reminded]
    if not come and not wait.is_new:
        return
    reminded = Wait(wait.player, wait.since, wait.since_time, (*wait.reminded, *come), wait.lapsed)
    mails = [host.reminder(game_id, wait.player, due)] if come else []
    host.queue_with(mails, [reminded.row(game_id)])
    done.reminders += len(mails)


def _remind_after(
    host: HostLike, game_id: UUID, wait: Wait, due: int, seconds: int, now: int, done: Tended
) -> None:
    """Under the rule `wait` (or while the host finds a replacement) reminds again every deadline."""
    periods = (now - due) // seconds
    mark = f"L{periods}"
    if periods < 1 or mark in wait.reminded:
        return
    reminded = Wait(wait.player, wait.since, wait.since_time, (*wait.reminded, mark), wait.lapsed)
    host.queue_with([host.reminder(game_id, wait.player, due)], [reminded.row(game_id)])
    done.reminders += 1


def _lapse(host: HostLike, game_id: UUID, wait: Wait, rule: str, now: int, done: Tended) -> None:
    """Records the lapse (every seat and observer is told by the mail it causes; the host too)."""
    lapsed = Wait(wait.player, wait.since, wait.since_time, wait.reminded, now)
    event = TurnLapsed(player=wait.player, since=wait.since, at=now, rule=rule)
    notice = host.lapse_notice(game_id, wait.player, rule)
    rows = [lapsed.row(game_id), *([notice] if notice else [])]
    host.service.record_club(game_id, event, rows=rows)
    done.lapses += 1
    done.details.append(f"game {game_id}: {wait.player}'s turn lapsed ({rule})")
    log.info("turn_lapsed", game=str(game_id), player=wait.player, rule=rule)


def _default_moves(host: HostLike, game_id: UUID, wait: Wait, done: Tended) -> None:
    """The host's bot moves for a seat whose turn lapsed under the rule `default`, while it is to move."""
    chains = host.service.chain_values(game_id)
    bot = Bot(chains[-1].hex())  # seeded by the log: the same choice whichever host process makes it
    for _ in range(MAX_DEFAULT_MOVES):
        game = host.service.get_game(game_id)
        legal = host.service.legal_actions(game_id, wait.player)
        if not legal or lapsed_rule(game.meta, wait.player) != DEFAULT:
            return
        choice = bot.choose(game.ruleset, game.state, legal)
        host.service.take_action(
            game_id, wait.player, choice.id, auth=AUTH_DEFAULT, expected_version=game.version
        )
        done.default_moves += 1
        done.details.append(f"game {game_id}: the host's bot moved {choice.id} for {wait.player}")
