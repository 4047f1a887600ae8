"""The club's events in the game's log (domain.club): deadlines, lapses and what a missed turn does,
hand-overs, absences, press, observers and agreed rollbacks — each checked by the game before it is
recorded and by the audit of every copy after."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.actions import HOST
from domain.bots import Bot
from domain.club import (
    AUTH_DEFAULT,
    DeadlineSet,
    ObserverAdded,
    PressSent,
    PrivatePressSent,
    RollbackAnswered,
    RollbackProposed,
    RollbackWithdrawn,
    RolledBack,
    SeatHandedOver,
    TurnLapsed,
    VacationDeclared,
    signed_bytes,
)
from domain.club_rules import rollback_problem
from domain.errors import IllegalAction, NotSigned
from domain.events import ActionTaken, DieRolled
from domain.signing import action_bytes
from event_store.app.replay_file import audit_replay, export_game
from event_store.app.seats import who_acts
from event_store.app.service import GameService
from event_store.recorded import redacted

DAY = 86400
NOW = 1_800_000_000


def public_key(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


HOST_KEY = public_key(Ed25519PrivateKey.from_private_bytes(bytes(range(32))))


@pytest.fixture
def service() -> GameService:
    return GameService.open(":memory:")


def hosted(service: GameService, keys: dict[str, bytes] | None = None) -> UUID:
    """A dungeon-short game played by e-mail: Ann and Bo, by mail unless given keys."""
    return service.create_game("dungeon-short", [("Ann", None), ("Bo", None)], keys=keys, host_key=HOST_KEY)


def deadline(missed: str = "wait", seconds: int = 3 * DAY, vacation: int = 7 * DAY) -> DeadlineSet:
    return DeadlineSet(seconds=seconds, reminders=[DAY], missed=missed, grace=3600, vacation=vacation, at=NOW)


def head(service: GameService, game_id: UUID) -> int:
    return len(service.chain_values(game_id))


def to_act(service: GameService, game_id: UUID) -> str:
    return str(service.get_game(game_id).status["to_act"][0])


def move(service: GameService, game_id: UUID, bot: Bot, auth: str = "") -> ActionTaken:
    """The seat to act takes a bot's choice; returns the recorded action."""
    game = service.get_game(game_id)
    player = to_act(service, game_id)
    choice = bot.choose(game.ruleset, game.state, service.legal_actions(game_id, player))
    version, recorded = service.take_action(
        game_id, player, choice.id, b"n" + bytes([head(service, game_id)]), auth=auth
    )
    taken = recorded[0].event
    assert isinstance(taken, ActionTaken)
    return taken


def clean(service: GameService, game_id: UUID) -> None:
    report = service.audit(game_id)
    assert not report.findings, report.findings


def test_a_deadline_and_a_lapse_are_recorded_and_audit_clean(service: GameService) -> None:
    game_id = hosted(service)
    service.record_club(game_id, deadline())
    service.record_club(
        game_id, TurnLapsed(player="Ann", since=head(service, game_id), at=NOW + 3 * DAY, rule="wait")
    )
    fold = service.fold(game_id)
    assert fold.meta["club"]["deadline"]["seconds"] == 3 * DAY
    assert fold.meta["club"]["lapsed"] == {"Ann": "wait"}
    clean(service, game_id)


def test_a_turn_lapses_only_for_the_seat_to_move_and_under_the_games_rule(service: GameService) -> None:
    game_id = hosted(service)
    with pytest.raises(IllegalAction, match="no deadline"):
        service.record_club(game_id, TurnLapsed(player="Ann", since=6, at=NOW, rule="wait"))
    service.record_club(game_id, deadline("default"))
    with pytest.raises(IllegalAction, match="not to move"):
        service.record_club(game_id, TurnLapsed(player="Bo", since=6, at=NOW, rule="default"))
    with pytest.raises(IllegalAction, match="rule for a missed turn"):
        service.record_club(game_id, TurnLapsed(player="Ann", since=6, at=NOW, rule="wait"))


def test_the_host_moves_for_a_seat_only_after_its_turn_lapsed_under_the_rule_default(
    service: GameService,
) -> None:
    game_id = hosted(service)
    service.record_club(game_id, deadline("default"))
    with pytest.raises(NotSigned, match="has not lapsed"):
        service.take_action(game_id, "Ann", "roll", auth=AUTH_DEFAULT)
    service.record_club(
        game_id, TurnLapsed(player="Ann", since=head(service, game_id), at=NOW, rule="default")
    )
    service.take_action(game_id, "Ann", "roll", auth=AUTH_DEFAULT)
    clean(service, game_id)


def test_a_default_move_without_a_lapse_is_an_audit_finding(service: GameService) -> None:
    game_id = hosted(service)
    game = service.get_game(game_id)
    seed = service.seed_of(game_id)
    game.meta.setdefault("club", {})["lapsed"] = {"Ann": "default"}  # a host that forges the bookkeeping
    game.take_action("Ann", "roll", game.dice(seed), auth=AUTH_DEFAULT)
    service.save(game)
    kinds = {(f.kind, f.version) for f in service.audit(game_id).findings}
    assert ("signature", 8) in kinds  # the action after the seed, its key chain and the deal


def test_a_seat_handed_over_signs_with_the_replacements_key(service: GameService) -> None:
    ann, dee = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    game_id = service.create_game(
        "dungeon-short", [("Ann", None), ("Bo", None)], keys={"Ann": public_key(ann)}, host_key=HOST_KEY
    )
    service.record_club(game_id, deadline("replace"))
    with pytest.raises(IllegalAction, match="not lapsed"):
        service.record_club(
            game_id, SeatHandedOver(player="Ann", replacement="Dee", key=public_key(dee), at=NOW)
        )
    service.record_club(
        game_id, TurnLapsed(player="Ann", since=head(service, game_id), at=NOW, rule="replace")
    )
    service.record_club(game_id, SeatHandedOver(player="Ann", replacement="Dee", key=public_key(dee), at=NOW))
    chains = service.chain_values(game_id)
    by_ann = ann.sign(action_bytes(len(chains), chains[-1], "Ann", "roll", b"x"))
    with pytest.raises(NotSigned):
        service.take_action(game_id, "Ann", "roll", b"x", auth="signed", signature=by_ann)
    by_dee = dee.sign(action_bytes(len(chains), chains[-1], "Ann", "roll", b"x"))
    service.take_action(game_id, "Ann", "roll", b"x", auth="signed", signature=by_dee)
    clean(service, game_id)
    assert service.fold(game_id).meta["club"]["played_by"] == {"Ann": "Dee"}


def test_an_absence_is_kept_within_the_hosts_limit(service: GameService) -> None:
    game_id = hosted(service)
    service.record_club(game_id, deadline(vacation=5 * DAY))
    said = VacationDeclared(player="Bo", seconds=3 * DAY, at=NOW, auth="mail", signed_at=0, signature=b"")
    service.record_club(game_id, said)
    with pytest.raises(IllegalAction, match="2 days more"):
        service.record_club(game_id, replace(said, at=NOW + 4 * DAY))
    assert service.fold(game_id).meta["club"]["away"] == {"Bo": NOW + 3 * DAY}
    clean(service, game_id)


def test_a_keyed_seats_words_carry_its_signature(service: GameService) -> None:
    ann = Ed25519PrivateKey.generate()
    game_id = service.create_game(
        "dungeon-short", [("Ann", None), ("Bo", None)], keys={"Ann": public_key(ann)}, host_key=HOST_KEY
    )
    words = PressSent(sender="Ann", text="Bo cheats", at=NOW, auth="mail", signed_at=0, signature=b"")
    with pytest.raises(IllegalAction, match="signs what they say"):
        service.record_club(game_id, words)  # the host cannot put words in a keyed seat's mouth
    chains = service.chain_values(game_id)
    signature = ann.sign(signed_bytes("press", 3, chains[2], "Ann", [["all"], "Hello Bo"]))
    service.record_club(
        game_id,
        PressSent(sender="Ann", text="Hello Bo", at=NOW, auth="signed", signed_at=3, signature=signature),
    )
    with pytest.raises(IllegalAction, match="does not carry"):
        service.record_club(
            game_id,
            PressSent(sender="Ann", text="Changed", at=NOW, auth="signed", signed_at=3, signature=signature),
        )
    clean(service, game_id)


def test_private_press_is_sealed_for_everyone_but_its_readers(service: GameService) -> None:
    game_id = service.create_game(
        "dungeon-short", [("Ann", None), ("Bo", None), ("Cy", None)], host_key=HOST_KEY
    )
    for owner in ("Ann", "Bo"):
        service.record_club(
            game_id,
            PrivatePressSent(
                owner=owner,
                sender="Ann",
                to=["Bo"],
                text="ally with me",
                at=NOW,
                auth="mail",
                signed_at=0,
                signature=b"",
                salt=bytes([len(owner)]) * 32,
            ),
        )
    service.record_club(game_id, ObserverAdded(name="Zoe", at=NOW))
    recorded = service.recorded_events(game_id)
    for viewer, sees in (("Ann", True), ("Bo", True), ("Cy", False), ("", False)):
        copy = redacted(recorded, viewer)
        assert any("ally with me" in str(r.fields) for r in copy) is sees
    for viewer in ("Ann", "Cy", ""):
        report = audit_replay(export_game(service, game_id, viewer))
        assert not report.findings, (viewer, report.findings)
    with pytest.raises(IllegalAction, match="sender or an addressee"):
        service.record_club(
            game_id,
            PrivatePressSent(
                owner="Cy",
                sender="Ann",
                to=["Bo"],
                text="x",
                at=NOW,
                auth="mail",
                signed_at=0,
                signature=b"",
                salt=bytes(32),
            ),
        )


def play_until_roll_of(service: GameService, game_id: UUID, player: str, bot: Bot) -> None:
    """Moves on until `player` is to roll."""
    for _ in range(200):
        legal = [a.id for a in service.legal_actions(game_id, player)]
        if legal == ["roll"]:
            return
        move(service, game_id, bot, auth="mail")
    raise AssertionError(f"{player} never came to roll")


def test_an_agreed_rollback_returns_the_game_and_the_redone_move_draws_the_same(service: GameService) -> None:
    game_id = hosted(service)
    bot = Bot(3)
    to = head(service, game_id)
    before = service.fold(game_id)
    voided = move(service, game_id, bot, auth="mail")  # Ann rolls: the move she says the host misread
    rolled = [r.event for r in service.recorded_events(game_id) if isinstance(r.event, DieRolled)]
    service.record_club(game_id, RollbackProposed(to=to, reason="I wrote 2, not 1", voids=["Ann"], at=NOW))
    with pytest.raises(IllegalAction, match="play waits"):
        service.take_action(game_id, "Ann", "roll")
    assert service.legal_actions(game_id) == []  # no move is listed that `act` would refuse
    assert who_acts(service.get_game(game_id)).startswith("play waits: a rollback")
    service.record_club(
        game_id,
        RollbackAnswered(player="Ann", to=to, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""),
    )
    service.record_club(game_id, RolledBack(to=to, reason="I wrote 2, not 1", nonce=voided.nonce, at=NOW))
    after = service.fold(game_id)
    assert after.state == before.state
    assert after.meta["next_draw"] == before.meta["next_draw"]
    assert service.get_game(game_id).state == before.state
    _, recorded = service.take_action(game_id, "Ann", "roll", b"another nonce", auth="mail")
    assert isinstance(recorded[0].event, ActionTaken) and recorded[0].event.nonce == voided.nonce
    again = [r.event for r in recorded if isinstance(r.event, DieRolled)]
    assert again
    assert [e.values for e in again] == [e.values for e in rolled[-len(again) :]]
    clean(service, game_id)
    for viewer in ("Ann", ""):
        report = audit_replay(export_game(service, game_id, viewer))
        assert not report.findings, report.findings


def test_a_rollback_that_would_let_a_seat_roll_again_is_refused(service: GameService) -> None:
    game_id = hosted(service)
    bot = Bot(5)
    to = head(service, game_id)
    move(service, game_id, bot, auth="mail")
    play_until_roll_of(service, game_id, "Bo", bot)
    move(service, game_id, bot, auth="mail")  # Bo's roll is now voided too
    recorded = [r.event for r in service.recorded_events(game_id)]
    assert "draw again" in rollback_problem(recorded, len(recorded), to)
    with pytest.raises(IllegalAction, match="would let Bo draw again"):
        service.record_club(game_id, RollbackProposed(to=to, reason="misread", voids=["Ann", "Bo"], at=NOW))


def test_a_seat_refusing_a_rollback_ends_it_and_play_goes_on(service: GameService) -> None:
    game_id = hosted(service)
    to = head(service, game_id)
    move(service, game_id, Bot(1), auth="mail")
    service.record_club(game_id, RollbackProposed(to=to, reason="misread", voids=["Ann"], at=NOW))
    with pytest.raises(IllegalAction, match="does not wait on"):
        service.record_club(
            game_id,
            RollbackAnswered(
                player="Bo", to=to, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""
            ),
        )
    service.record_club(
        game_id,
        RollbackAnswered(player="Ann", to=to, agreed=False, at=NOW, auth="mail", signed_at=0, signature=b""),
    )
    with pytest.raises(IllegalAction, match="agreed by every seat"):
        service.record_club(game_id, RolledBack(to=to, reason="misread", nonce=b"", at=NOW))
    move(service, game_id, Bot(1), auth="mail")
    clean(service, game_id)


def test_the_host_may_withdraw_a_rollback(service: GameService) -> None:
    game_id = hosted(service)
    to = head(service, game_id)
    move(service, game_id, Bot(1), auth="mail")
    service.record_club(game_id, RollbackProposed(to=to, reason="misread", voids=["Ann"], at=NOW))
    service.record_club(game_id, RollbackWithdrawn(at=NOW))
    assert service.legal_actions(game_id)
    clean(service, game_id)


def test_a_rollback_nobody_agreed_to_is_an_audit_finding(service: GameService) -> None:
    game_id = hosted(service)
    to = head(service, game_id)
    taken = move(service, game_id, Bot(1), auth="mail")
    game = service.get_game(game_id)
    game.record(RolledBack(to=to, reason="the host alone", nonce=taken.nonce, at=NOW))
    service.save(game)
    findings = service.audit(game_id).findings
    assert any("agreed by every seat" in f.detail for f in findings), findings


def test_a_game_played_at_one_terminal_has_no_club_events(service: GameService) -> None:
    game_id = service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    with pytest.raises(IllegalAction, match="played by e-mail"):
        service.record_club(game_id, deadline())
    assert HOST not in service.get_game(game_id).status["to_act"]


@pytest.mark.parametrize("interval", [2, 3])
def test_a_rollback_past_a_snapshot_loads_from_the_first_event(
    tmp_path, monkeypatch: pytest.MonkeyPatch, interval: int
) -> None:
    import event_store.app.service as service_module
    from domain.game import Game

    monkeypatch.setattr(service_module, "SNAPSHOT_INTERVAL", interval)
    monkeypatch.setattr(GameService, "snapshotting_intervals", {Game: interval})
    db = str(tmp_path / "host.sqlite")
    service = GameService.open(db)
    game_id = hosted(service)
    for _ in range(3):
        service.record_club(game_id, ObserverAdded(name=f"Zoe{head(service, game_id)}", at=NOW))
    to = head(service, game_id)
    before = service.fold(game_id, use_snapshot=False)
    voided = move(service, game_id, Bot(2), auth="mail")
    service.record_club(game_id, RollbackProposed(to=to, reason="misread", voids=["Ann"], at=NOW))
    service.record_club(
        game_id,
        RollbackAnswered(player="Ann", to=to, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""),
    )
    service.record_club(game_id, RolledBack(to=to, reason="misread", nonce=voided.nonce, at=NOW))
    fresh = GameService.open(db)  # no cached game: from the store's snapshots and events
    assert fresh.get_game(game_id).state == before.state
    assert fresh.fold(game_id).state == before.state
    assert fresh.get_game(game_id, version=head(fresh, game_id)).state == before.state
    fresh.take_action(game_id, "Ann", "roll", auth="mail")
    clean(fresh, game_id)


def test_a_fork_of_an_e_mail_game_says_it_is_no_continuation_and_never_copies_a_rollback(
    service: GameService,
) -> None:
    from domain.errors import UsageError

    game_id = hosted(service)
    to = head(service, game_id)
    voided = move(service, game_id, Bot(2), auth="mail")
    service.reveal_seed(game_id)
    fork_id, _ = service.fork_game(game_id, to)
    notes = " ".join(service.audit(fork_id).notes)
    assert "played by e-mail" in notes and "no continuation" in notes
    other = hosted(service)
    point = head(service, other)
    voided = move(service, other, Bot(2), auth="mail")
    service.record_club(other, RollbackProposed(to=point, reason="misread", voids=["Ann"], at=NOW))
    service.record_club(
        other,
        RollbackAnswered(
            player="Ann", to=point, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""
        ),
    )
    service.record_club(other, RolledBack(to=point, reason="misread", nonce=voided.nonce, at=NOW))
    move(service, other, Bot(2), auth="mail")
    service.reveal_seed(other)
    with pytest.raises(UsageError, match="rolled back"):
        service.fork_game(other, head(service, other) - 1)
