"""Red-team findings on the club's events (issue 25): a lying host that records what a seat never said
or forges its log by hand, a hostile player's packets and press, and rollbacks through every fold.

Each attack is a test: what the game refuses before recording it, what `nightkeep audit` finds on the
host's log, on a player's sealed copy and on the public copy, what a replica's `receive` refuses."""

from __future__ import annotations

import time
from uuid import UUID

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.bots import Bot
from domain.club import (
    DeadlineSet,
    RollbackAnswered,
    RollbackProposed,
    RolledBack,
)
from domain.events import ActionTaken, Event
from domain.game import GameFold
from domain.hidden import PUBLIC
from event_store.replay_file import audit_replay, export_game, import_game
from event_store.service import GameService

DAY = 86400
NOW = 1_800_000_000


def public_key(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


HOST_KEY = public_key(Ed25519PrivateKey.from_private_bytes(bytes(range(32))))


@pytest.fixture
def service() -> GameService:
    return GameService.open(":memory:")


def hosted(
    service: GameService,
    seats: tuple[str, ...] = ("Ann", "Bo"),
    keys: dict[str, Ed25519PrivateKey] | None = None,
    ruleset: str = "dungeon-short",
) -> UUID:
    """A game played by e-mail (by mail, unless seats are given keys)."""
    sides = {"Ann": "human", "Vlad": "vampire"} if ruleset == "vampire-empire" else {}
    return service.create_game(
        ruleset,
        [(seat, sides.get(seat)) for seat in seats],
        keys={seat: public_key(key) for seat, key in (keys or {}).items()},
        host_key=HOST_KEY,
    )


def deadline(missed: str = "wait", vacation: int = 7 * DAY) -> DeadlineSet:
    return DeadlineSet(seconds=3 * DAY, reminders=[DAY], missed=missed, grace=0, vacation=vacation, at=NOW)


def head(service: GameService, game_id: UUID) -> int:
    return len(service.chain_values(game_id))


def move(service: GameService, game_id: UUID, bot: Bot, auth: str = "mail") -> ActionTaken:
    """The seat to move takes a bot's choice (by mail); returns the recorded action."""
    game = service.get_game(game_id)
    player = game.status["to_act"][0]
    choice = bot.choose(game.ruleset, game.state, service.legal_actions(game_id, player))
    _, recorded = service.take_action(game_id, player, choice.id, b"n%d" % head(service, game_id), auth=auth)
    taken = recorded[0].event
    assert isinstance(taken, ActionTaken)
    return taken


def roll_back_last_move(service: GameService, game_id: UUID, bot: Bot) -> int:
    """A seat moves, then the host takes its move back with the seat's agreement (by mail); returns the
    event the game went back to."""
    to = head(service, game_id)
    taken = move(service, game_id, bot)
    service.record_club(game_id, RollbackProposed(to=to, reason="misread", voids=[taken.player], at=NOW))
    answer = RollbackAnswered(
        player=taken.player, to=to, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""
    )
    service.record_club(game_id, answer, RolledBack(to=to, reason="misread", nonce=taken.nonce, at=NOW))
    return to


def forge(service: GameService, game_id: UUID, *events: Event) -> None:
    """A lying host records events by hand, past the game's checks (Game.record, then save)."""
    game = service.get_game(game_id)
    for event in events:
        game.record(event)
    service.save(game)


def findings(service: GameService, game_id: UUID, viewer: str | None = None) -> list[str]:
    """The audit's findings on the host's log (None), or on a viewer's copy exported from it."""
    if viewer is None:
        report = service.audit(game_id)
    else:
        report = audit_replay(export_game(service, game_id, viewer))
    return [f"{f.version} {f.kind}: {f.detail}" for f in report.findings]


def found_everywhere(service: GameService, game_id: UUID, words: str, *viewers: str) -> None:
    """The forgery is a finding on the host's log and on every copy named (PUBLIC: the public copy)."""
    for viewer in (None, *viewers):
        found = findings(service, game_id, viewer)
        assert any(words in f for f in found), (viewer, found)


# --- rollbacks through every fold ----------------------------------------------------------------------


def test_each_rollback_costs_a_fold_once_not_twice_the_folds_before_it(service: GameService) -> None:
    """Broke: a fold to a rollback's target folded the log again from its start, and so did each rollback
    before it: every rollback doubled the cost of every fold and audit (14 rollbacks, 2 s; 25, an
    hour), on the host and on every replica, which re-audits the whole copy for every packet."""
    game_id = hosted(service)
    bot = Bot(1)
    for _ in range(30):
        roll_back_last_move(service, game_id, bot)
    recorded = service.recorded_events(game_id)
    started = time.process_time()
    fold = GameFold.of([(r.event, r.chain) for r in recorded])
    assert not findings(service, game_id)
    other = GameService.open(":memory:")
    copy = import_game(other, export_game(service, game_id, PUBLIC))  # a copy: no snapshot to start from
    assert other.fold(copy.stored).state == fold.state
    assert time.process_time() - started < 10


def test_a_sealed_copy_is_re_decided_across_a_rollback_once_its_seed_is_out(service: GameService) -> None:
    """Broke: re-deciding a copy with sealed events carries its state by re-deciding (the sealed events
    cannot be folded), but a rollback returned it to a fold of the copy's events, without the hands its
    sealed events dealt: once the seed was out, every seat's copy and the public copy of a Vampire Empire
    game with a rollback failed their audit ("not a legal action", KeyError) while the host's log passed."""
    game_id = service.create_game(
        "vampire-empire", [("Ann", "human"), ("Vlad", "vampire")], host_key=HOST_KEY, seed=bytes(32)
    )
    bot = Bot(7)
    for _ in range(11):
        move(service, game_id, bot)
    to = head(service, game_id)
    roll_back_last_move(service, game_id, bot)
    voided = service.recorded_events(game_id, gt=to, lte=to + 1)[0].event
    assert isinstance(voided, ActionTaken)
    service.take_action(game_id, voided.player, voided.action, auth="mail")
    for _ in range(6):
        move(service, game_id, bot)
    for viewer in (None, "Ann", "Vlad", PUBLIC):
        assert not findings(service, game_id, viewer), viewer
    service.reveal_seed(game_id)
    for viewer in (None, "Ann", "Vlad", PUBLIC):
        assert not findings(service, game_id, viewer), viewer
