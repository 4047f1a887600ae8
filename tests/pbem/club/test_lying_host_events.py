"""Red-team findings on the club's events (issue 25): a lying host that records what a seat never said
or forges its log by hand, a hostile player's packets and press, and rollbacks through every fold.

Each attack is a test: what the game refuses before recording it, what `nightkeep audit` finds on the
host's log, on a player's sealed copy and on the public copy, what a replica's `receive` refuses."""

from __future__ import annotations

import copy
import time
from dataclasses import replace
from pathlib import Path
from uuid import UUID

import msgpack
import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from cli.main import cli
from cli.pbem_commands import mail_text
from domain.bots import Bot
from domain.club import (
    AUTH_DEFAULT,
    DeadlineSet,
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
from domain.errors import IllegalAction, NotSigned, TamperedLog, UnknownGame
from domain.events import ActionTaken, Event, canonical_form
from domain.game import GameFold
from domain.hidden import PUBLIC
from domain.signing import action_bytes
from event_store.app.replay_file import audit_replay, export_game, import_game
from event_store.app.service import GameService
from event_store.pbem import club_host
from event_store.pbem.club_host import parse_rules
from event_store.pbem.host_parts import Outgoing
from event_store.pbem.host_runner import message_for
from event_store.pbem.keys import load_key
from event_store.pbem.mail import packet_texts
from event_store.pbem.packets import make_packet
from tests.log_mutations import rechain, unpack
from tests.pbem_table import NewStore, Table, seat_table

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


def forge_move(
    service: GameService, game_id: UUID, player: str, action: str, nonce: bytes, auth: str
) -> None:
    """A lying host records a move and what the rules make of it by hand, past the game's checks."""
    game = service.get_game(game_id)
    consequences = game.ruleset.decide(game.state, action, player, game.dice(service.seed_of(game_id), nonce))
    game.record(ActionTaken(player=player, action=action, nonce=nonce, auth=auth, signature=b""))
    for event in consequences:
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


# --- a lying host: club events recorded by hand --------------------------------------------------------


def _lapse_of_a_seat_not_to_move(service: GameService, game_id: UUID) -> None:
    service.record_club(game_id, deadline("default"))
    forge(service, game_id, TurnLapsed(player="Bo", since=head(service, game_id), at=NOW, rule="default"))


def _lapse_under_another_rule(service: GameService, game_id: UUID) -> None:
    service.record_club(game_id, deadline("wait"))
    forge(service, game_id, TurnLapsed(player="Ann", since=head(service, game_id), at=NOW, rule="default"))


def _rollback_nobody_agreed_to(service: GameService, game_id: UUID) -> None:
    to = head(service, game_id)
    taken = move(service, game_id, Bot(3))
    forge(service, game_id, RolledBack(to=to, reason="the host alone", nonce=taken.nonce, at=NOW))


def _rollback_with_another_nonce(service: GameService, game_id: UUID) -> None:
    to = head(service, game_id)
    move(service, game_id, Bot(3))
    service.record_club(game_id, RollbackProposed(to=to, reason="misread", voids=["Ann"], at=NOW))
    agreed = RollbackAnswered(
        player="Ann", to=to, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""
    )
    service.record_club(game_id, agreed)
    forge(service, game_id, RolledBack(to=to, reason="misread", nonce=b"a roll I prefer", at=NOW))


def _answer_of_a_seat_not_asked(service: GameService, game_id: UUID) -> None:
    to = head(service, game_id)
    move(service, game_id, Bot(3))
    service.record_club(game_id, RollbackProposed(to=to, reason="misread", voids=["Ann"], at=NOW))
    forge(
        service,
        game_id,
        RollbackAnswered(player="Bo", to=to, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""),
    )


def _absence_over_the_limit(service: GameService, game_id: UUID) -> None:
    service.record_club(game_id, deadline(vacation=DAY))
    absent = VacationDeclared(player="Ann", seconds=2 * DAY, at=NOW, auth="mail", signed_at=0, signature=b"")
    forge(service, game_id, absent)


def _default_move_while_a_rollback_waits(service: GameService, game_id: UUID) -> None:
    service.record_club(game_id, deadline("default"))
    to = head(service, game_id)
    taken = move(service, game_id, Bot(3))  # Ann moved; Bo is to move
    service.record_club(
        game_id, TurnLapsed(player="Bo", since=head(service, game_id), at=NOW, rule="default")
    )
    service.record_club(game_id, RollbackProposed(to=to, reason="misread", voids=[taken.player], at=NOW))
    game = service.get_game(game_id)
    game.meta["club"]["pending"] = None  # the host's forged bookkeeping lets the game take it
    game.take_action("Bo", "roll", game.dice(service.seed_of(game_id)), auth=AUTH_DEFAULT)
    service.save(game)


@pytest.mark.parametrize(
    ("forgery", "words"),
    [
        (_lapse_of_a_seat_not_to_move, "Bo is not to move"),
        (_lapse_under_another_rule, "rule for a missed turn is 'wait'"),
        (_rollback_nobody_agreed_to, "agreed by every seat"),
        (_rollback_with_another_nonce, "pins the nonce of the first move"),
        (_answer_of_a_seat_not_asked, "does not wait on 'Bo'"),
        (_absence_over_the_limit, "1 day more"),
        (_default_move_while_a_rollback_waits, "play waits"),
    ],
)
def test_a_club_event_forged_by_hand_is_a_finding_on_every_copy(service: GameService, forgery, words) -> None:
    """Held: each forgery of the brief's list is named by the audit of the host's log, of each seat's
    copy and of the public copy."""
    game_id = hosted(service)
    forgery(service, game_id)
    found_everywhere(service, game_id, words, "Ann", "Bo", PUBLIC)


def test_club_events_in_a_game_played_at_one_terminal_are_findings(service: GameService) -> None:
    """Held."""
    game_id = service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    forge(
        service,
        game_id,
        deadline(),
        PressSent(sender="Ann", text="hi", at=NOW, auth="", signed_at=0, signature=b""),
    )
    found_everywhere(service, game_id, "belongs to a game played by e-mail", "Ann", PUBLIC)


def test_a_default_move_after_a_rollback_needs_a_new_lapse(service: GameService) -> None:
    """Broke: a rollback ends every lapse (the game refuses a default move after it), but the audit's
    check of who may move followed lapses and not rollbacks: a host that took back a default move could
    forge another for the seat, without its turn lapsing again, and every copy audited clean."""
    service.record_club(game_id := hosted(service), deadline("default"))
    service.record_club(
        game_id, TurnLapsed(player="Ann", since=head(service, game_id), at=NOW, rule="default")
    )
    to = head(service, game_id)
    _, recorded = service.take_action(game_id, "Ann", "roll", auth=AUTH_DEFAULT)
    voided = recorded[0].event
    assert isinstance(voided, ActionTaken)
    service.record_club(game_id, RollbackProposed(to=to, reason="a bot's move", voids=["Ann"], at=NOW))
    agreed = RollbackAnswered(
        player="Ann", to=to, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""
    )
    service.record_club(game_id, agreed, RolledBack(to=to, reason="a bot's move", nonce=voided.nonce, at=NOW))
    with pytest.raises(NotSigned, match="has not lapsed"):
        service.take_action(game_id, "Ann", "roll", auth=AUTH_DEFAULT)
    game = service.get_game(game_id)
    game.meta["club"]["lapsed"] = {"Ann": "default"}  # the host's forged bookkeeping
    game.take_action(
        "Ann", "roll", game.dice(service.seed_of(game_id), voided.nonce), voided.nonce, AUTH_DEFAULT
    )
    service.save(game)
    found_everywhere(service, game_id, "has not lapsed under the rule `default`", "Bo", PUBLIC)


def test_a_default_move_draws_with_no_nonce_of_the_hosts_choosing(service: GameService) -> None:
    """Broke: the host's bot moves for a seat whose turn lapsed, and the host could record that move with
    any nonce: it knows the seed, so it could try nonces until the seat's roll was the one it wanted. A
    default move now draws with no nonce (or, first after a rollback, the voided move's)."""
    service.record_club(game_id := hosted(service), deadline("default"))
    service.record_club(
        game_id, TurnLapsed(player="Ann", since=head(service, game_id), at=NOW, rule="default")
    )
    with pytest.raises(NotSigned, match="no nonce of the host's choosing"):
        service.take_action(game_id, "Ann", "roll", b"tried until Ann rolled a 1", auth=AUTH_DEFAULT)
    forge_move(service, game_id, "Ann", "roll", b"tried until Ann rolled a 1", AUTH_DEFAULT)
    found_everywhere(service, game_id, "no nonce of the host's choosing", "Ann", PUBLIC)


# --- a seat's signed words -------------------------------------------------------------------------------

ANN, BO = (Ed25519PrivateKey.from_private_bytes(bytes([n]) * 32) for n in (1, 2))


def signed(
    service: GameService,
    game_id: UUID,
    key: Ed25519PrivateKey,
    kind: str,
    at: int,
    seat: str,
    payload: object,
) -> bytes:
    """A seat's signature of its words (press, vacation, answer), made holding the log up to event `at`."""
    return key.sign(signed_bytes(kind, at, service.chain_values(game_id)[at - 1], seat, payload))


def signed_press(service: GameService, game_id: UUID, text: str, at: int | None = None) -> PressSent:
    at = at or head(service, game_id)
    signature = signed(service, game_id, ANN, "press", at, "Ann", [["all"], text])
    return PressSent(sender="Ann", text=text, at=NOW, auth="signed", signed_at=at, signature=signature)


def test_a_seats_signed_words_are_recorded_once(service: GameService) -> None:
    """Broke: a press or an absence a seat signed could be recorded again and again (its signature names
    the point it was made at, not where the host records it): the host could repeat a seat's public
    words at another point of the game, or spend its absence allowance for it, and every copy audited
    clean. The game now refuses the same signature twice, and the audit names it."""
    game_id = hosted(service, keys={"Ann": ANN, "Bo": BO})
    service.record_club(game_id, deadline(vacation=5 * DAY))
    press = signed_press(service, game_id, "I will not attack Bo this turn.")
    service.record_club(game_id, press)
    with pytest.raises(IllegalAction, match="recorded at event 9 already"):
        service.record_club(game_id, replace(press, at=NOW + DAY))
    at = head(service, game_id)
    away = VacationDeclared(
        player="Ann",
        seconds=DAY,
        at=NOW,
        auth="signed",
        signed_at=at,
        signature=signed(service, game_id, ANN, "vacation", at, "Ann", DAY),
    )
    service.record_club(game_id, away)
    with pytest.raises(IllegalAction, match="recorded at event 10 already"):
        service.record_club(game_id, replace(away, at=NOW + 2 * DAY))
    assert not findings(service, game_id)
    forge(service, game_id, replace(press, at=NOW + DAY), replace(away, at=NOW + 2 * DAY))
    found_everywhere(
        service, game_id, "Ann's press signed at event 8 is recorded at event 9 already", "Bo", PUBLIC
    )
    found_everywhere(
        service, game_id, "Ann's vacation signed at event 9 is recorded at event 10", "Bo", PUBLIC
    )


def test_the_copies_of_one_signed_private_press_share_its_signature_and_no_more(service: GameService) -> None:
    """Held, and the rule above keeps it: each reader's copy of one private press carries the sender's
    signature; the same copies again later are the host repeating them."""
    game_id = hosted(service, ("Ann", "Bo", "Cy"), keys={"Ann": ANN})
    at = head(service, game_id)
    signature = signed(service, game_id, ANN, "press", at, "Ann", [["Bo"], "ally?"])
    copies = [
        PrivatePressSent(
            owner=owner,
            sender="Ann",
            to=["Bo"],
            text="ally?",
            at=NOW,
            auth="signed",
            signed_at=at,
            signature=signature,
            salt=bytes([n]) * 32,
        )
        for n, owner in enumerate(("Ann", "Bo"))
    ]
    service.record_club(game_id, *copies)
    assert not findings(service, game_id) and not findings(service, game_id, "Bo")
    with pytest.raises(IllegalAction, match="already"):
        service.record_club(game_id, *copies)
    forge(service, game_id, *copies)
    found_everywhere(service, game_id, "Ann's press signed at event 8 is recorded at event 10 already")
    assert any("recorded at event 9 already" in f for f in findings(service, game_id, "Ann"))


def test_words_signed_before_the_seeds_commitment_name_no_game(service: GameService) -> None:
    """Broke: a seat's words could be signed at event 1, whose chain value covers only GameCreated, the
    same in two games of the same seats, keys and host: the host could replay them into another game.
    (Actions and entropy are signed at the seed's commitment or later; words are now too.)"""
    game_id = hosted(service, keys={"Ann": ANN})
    other = hosted(service, keys={"Ann": ANN})
    assert service.chain_values(game_id)[0] == service.chain_values(other)[0]
    early = signed_press(service, game_id, "Bo is lying", at=1)
    with pytest.raises(IllegalAction, match="from the seed's commitment"):
        service.record_club(other, early)
    forge(service, other, early)
    found_everywhere(service, other, "from the seed's commitment", "Bo", PUBLIC)
    with pytest.raises(IllegalAction, match="does not carry"):  # signed at 2 or later: this game only
        service.record_club(other, signed_press(service, game_id, "Bo is lying"))


def test_an_answer_is_signed_holding_its_proposal_and_counts_once(service: GameService) -> None:
    """Held: an agreement signed before the proposal (or for an earlier one to the same event) is
    refused and named; one already counted cannot be counted again; a refusal ends the proposal."""
    game_id = hosted(service, keys={"Ann": ANN})
    to = head(service, game_id)
    chains = service.chain_values(game_id)
    nonce = b"ann's nonce"
    _, recorded = service.take_action(
        game_id,
        "Ann",
        "roll",
        nonce,
        auth="signed",
        signature=ANN.sign(action_bytes(to, chains[-1], "Ann", "roll", nonce)),
    )
    service.record_club(game_id, RollbackProposed(to=to, reason="first", voids=["Ann"], at=NOW))
    first = head(service, game_id)
    agreed = RollbackAnswered(
        player="Ann",
        to=to,
        agreed=True,
        at=NOW,
        auth="signed",
        signed_at=first,
        signature=signed(service, game_id, ANN, "answer", first, "Ann", [to, True]),
    )
    service.record_club(game_id, RollbackWithdrawn(at=NOW))
    service.record_club(game_id, RollbackProposed(to=to, reason="second", voids=["Ann"], at=NOW))
    with pytest.raises(IllegalAction, match="holding the proposal it answers"):
        service.record_club(game_id, agreed)
    forge(service, game_id, agreed)
    found_everywhere(service, game_id, "holding the proposal it answers", PUBLIC)


@pytest.mark.parametrize(
    ("key", "words"),
    [(HOST_KEY, "the host's own key"), (public_key(BO), "Bo's")],
    ids=["the-hosts-key", "another-seats-key"],
)
def test_a_seat_is_never_handed_to_the_hosts_key_or_another_seats(
    service: GameService, key: bytes, words: str
) -> None:
    """Broke: a seat whose turn lapsed under the rule `replace` could be handed to the host's own key,
    after which the host signs the seat's moves and words itself, or to the key of a player who already
    has a seat; every copy audited clean."""
    game_id = hosted(service, keys={"Ann": ANN, "Bo": BO})
    service.record_club(game_id, deadline("replace"))
    service.record_club(
        game_id, TurnLapsed(player="Ann", since=head(service, game_id), at=NOW, rule="replace")
    )
    handed = SeatHandedOver(player="Ann", replacement="Dee", key=key, at=NOW)
    with pytest.raises(IllegalAction, match=words):
        service.record_club(game_id, handed)
    forge(service, game_id, handed)
    found_everywhere(service, game_id, words, "Bo", PUBLIC)


def test_a_hand_over_changes_which_key_signs_a_seats_words(service: GameService) -> None:
    """Held: after a hand-over the seat's words carry the replacement's signature, not the old player's
    (whose words signed before it are refused too)."""
    dee = Ed25519PrivateKey.from_private_bytes(bytes([4]) * 32)
    game_id = hosted(service, keys={"Ann": ANN, "Bo": BO})
    service.record_club(game_id, deadline("replace"))
    old = signed_press(service, game_id, "still mine")
    service.record_club(
        game_id, TurnLapsed(player="Ann", since=head(service, game_id), at=NOW, rule="replace")
    )
    service.record_club(game_id, SeatHandedOver(player="Ann", replacement="Dee", key=public_key(dee), at=NOW))
    for words in (old, signed_press(service, game_id, "Ann's key")):
        with pytest.raises(IllegalAction, match="does not carry Ann's signature"):
            service.record_club(game_id, words)
    at = head(service, game_id)
    text = [["all"], "Dee here"]
    by_dee = PressSent(
        sender="Ann",
        text="Dee here",
        at=NOW,
        auth="signed",
        signed_at=at,
        signature=signed(service, game_id, dee, "press", at, "Ann", text),
    )
    service.record_club(game_id, by_dee)
    forge(service, game_id, old)
    assert not findings(service, game_id)[:-1]
    found_everywhere(service, game_id, "does not carry Ann's signature", "Bo", PUBLIC)


def test_no_turn_lapses_while_its_seat_is_away(service: GameService) -> None:
    """Broke: an absence means "no deadline of its lapses meanwhile", yet the host could record a lapse
    of an absent seat's turn (and then move for it, or hand it over) and every copy audited clean."""
    service.record_club(game_id := hosted(service), deadline("default"))
    away = VacationDeclared(player="Ann", seconds=3 * DAY, at=NOW, auth="mail", signed_at=0, signature=b"")
    service.record_club(game_id, away)
    lapse = TurnLapsed(player="Ann", since=head(service, game_id), at=NOW + DAY, rule="default")
    with pytest.raises(IllegalAction, match="away until"):
        service.record_club(game_id, lapse)
    service.record_club(game_id, replace(lapse, at=NOW + 3 * DAY))  # back: the deadline runs again
    assert not findings(service, game_id)
    other = hosted(service)
    service.record_club(other, deadline("default"), away)
    forge(service, other, replace(lapse, since=head(service, other)))
    found_everywhere(service, other, "away until", "Bo", PUBLIC)


@pytest.mark.parametrize(
    ("text", "words"),
    [("\U0001f600" * 1500, "at most 4096 bytes"), ("\udced", "no text"), (" \n ", "1-4000 characters")],
    ids=["6000-bytes", "a-lone-surrogate", "blank"],
)
def test_press_is_text_a_log_can_hold(service: GameService, text: str, words: str) -> None:
    """Broke: press of at most 4,000 characters was taken whatever its size in UTF-8, but no log holds a
    string over 4,096 bytes: 1,500 emoji from the host's `press` (or a seat's words typed there) made
    the game unreadable to export, import and every replica (each events packet refused as unreadable),
    for good. A lone surrogate (a byte no text has, from the command line) crashed the command."""
    game_id = hosted(service)
    for sender in ("host", "Bo"):
        with pytest.raises(IllegalAction, match=words):
            service.record_club(
                game_id, PressSent(sender=sender, text=text, at=NOW, auth="", signed_at=0, signature=b"")
            )
    to = head(service, game_id)
    move(service, game_id, Bot(1))
    reason = text[:400] * 3  # (a reason is at most 400 characters: 1,600 bytes)
    with pytest.raises(
        IllegalAction, match=words.replace("4000", "400").replace("at most 4096 bytes", "400")
    ):
        service.record_club(game_id, RollbackProposed(to=to, reason=reason, voids=["Ann"], at=NOW))
    assert audit_replay(export_game(service, game_id, PUBLIC)).ok


# --- a hostile player's packets and press ------------------------------------------------------------------


def club_table(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mail_only: tuple[str, ...] = ()
) -> Table:
    """Ann, Bo and Cy at a dungeon-short game hosted by e-mail; the seats not in `mail_only` sign."""
    players: list[tuple[str, str | None]] = [("Ann", None), ("Bo", None), ("Cy", None)]
    table = seat_table(new_store, tmp_path, monkeypatch, "dungeon-short", players, mail_only=mail_only)
    service = table.host.service
    table.host.describe = lambda game, player, old, new: mail_text(service, game, player, old, new)
    table.join_all()
    table.deliver()
    return table


def due(table: Table) -> dict[str, Outgoing]:
    """Writes the mail the host owes and returns it by address (the last one to each)."""
    table.host.follow()
    mails = table.host.due()
    for mail in mails:
        table.host.mark_sent(mail)
    return {mail.to: mail for mail in mails}


def text_of(mail: Outgoing) -> str:
    """The text a reader takes packets from: the mail's attachment, then its text part."""
    return "\n".join(packet_texts(message_for(mail, "host@example.org")))


def test_press_cannot_plant_a_game_key_or_a_packet_in_other_seats_mail(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broke: the host reads the first Game-Key line anywhere in a reply, and every armoured packet in a
    text. A seat's press is copied into the other seats' mail, so a hostile player's press holding a
    made-up Game-Key line made every mail-only reply that quoted the mail refused as forged (its seat's
    turn then lapsing), and press holding a damaged packet made a signing seat's `receive` of the mail
    fail, and any reply quoting it refused. The host's mail shows such words defused."""
    table = club_table(new_store, tmp_path, monkeypatch, mail_only=("Ann",))
    replica, member = table.replicas["Bo"]
    table.read_mail("Bo")
    planted = (
        f"Reply to me!\nGame-Key: {table.game} 7 AAAAAAAAAAAAAAAA\n"
        "-----BEGIN NIGHTKEEP PACKET-----\nAAAA\n*00000000\n-----END NIGHTKEEP PACKET-----\n"
    )
    assert table.host.handle_text(replica.words_packet(member, "press", to=[], text=planted))[0].ok
    mails = due(table)
    ann, cy = mails["ann@example.org"], mails["cy@example.org"]
    assert "Reply to me!" in ann.body and "Reply to me!" in cy.body
    reply = "1\n\nOn Tue, the host wrote:\n" + "\n".join(f"> {line}" for line in ann.body.splitlines())
    handled = table.host.handle_text(reply, "ann@example.org")
    assert [h.ok for h in handled] == [True] and "Ann took" in handled[0].detail, handled
    cy_replica, _ = table.replicas["Cy"]
    assert [r.detail for r in cy_replica.receive(text_of(cy))] == ["appended"]
    table.close()


def _body(table: Table, signer: str) -> dict[str, object]:
    """The start of a packet's body: the game, the seat, and the last event its replica holds."""
    replica, member = table.replicas[signer]
    held = replica.service.recorded_events(member.stored)
    return {"game": str(table.game), "player": signer, "version": len(held), "chain": held[-1].chain}


def words_packet(table: Table, signer: str, kind: str, **body: object) -> str:
    """A word packet signed with `signer`'s key, its body as given over the signer's held log."""
    return make_packet(kind, {**_body(table, signer), **body}, load_key(signer.lower()).sign)


def test_a_hostile_players_word_packets_are_refused_and_record_nothing(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held: press, absences and answers in another seat's name, on another history, too long, to odd
    seats, sent twice, for no rollback: each refused with a reason, nothing recorded; the host's log and
    every replica still audit clean."""
    table = club_table(new_store, tmp_path, monkeypatch)
    for player in ("Ann", "Bo", "Cy"):
        table.read_mail(player)
    service = table.host.service
    club_host.set_deadline(table.host, table.game, parse_rules("3d", vacation="2d"))
    table.deliver()
    table.read_mail("Ann")
    before = head(service, table.game)
    press = {"to": [], "text": "hello"}
    refused = {
        "in Bo's name": make_packet(
            "press", {**_body(table, "Ann"), "player": "Bo", **press}, load_key("ann").sign
        ),
        "on another history": make_packet(
            "press", {**_body(table, "Ann"), "chain": bytes(32), **press}, load_key("ann").sign
        ),
        "too long": words_packet(table, "Ann", "press", to=[], text="x" * 4001),
        "blank": words_packet(table, "Ann", "press", to=[], text="\n \t"),
        "to a seat spelt otherwise": words_packet(table, "Ann", "press", to=["bo"], text="psst"),
        "to nobody there": words_packet(table, "Ann", "press", to=["Zed"], text="psst"),
        "to all and a seat": words_packet(table, "Ann", "press", to=["Bo", "all"], text="psst"),
        "to a seat twice": words_packet(table, "Ann", "press", to=["Bo", "Bo"], text="psst"),
        "to the host": words_packet(table, "Ann", "press", to=["host"], text="psst"),
        "away too long": words_packet(table, "Ann", "vacation", seconds=3 * DAY),
        "away no time": words_packet(table, "Ann", "vacation", seconds=0),
        "an answer to no rollback": words_packet(table, "Ann", "answer", to=before - 1, agreed=True),
    }
    for why, packet in refused.items():
        handled = table.host.handle_text(packet)
        assert [h.ok for h in handled] == [False], (why, handled)
        assert head(service, table.game) == before, why
    fine = words_packet(table, "Ann", "press", to=["Bo"], text="psst")
    assert table.host.handle_text(fine)[0].ok
    again = table.host.handle_text(fine)[0]
    assert again.ok and again.duplicate and head(service, table.game) == before + 2  # two copies, once
    assert not findings(service, table.game)
    table.deliver()
    for player in ("Ann", "Bo", "Cy"):
        table.read_mail(player)
        assert not audit_replay(table.copy_of(player)).findings, player
    assert b"psst" not in table.copy_of("Cy") and b"psst" in table.copy_of("Bo")
    table.close()


def test_a_replica_refuses_words_the_host_repeats_and_keeps_the_proof(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broke (before the words were recorded once), held now: a host that records Ann's signed press a
    second time by hand has every replica refuse the packet that carries it and keep it as proof."""
    table = club_table(new_store, tmp_path, monkeypatch)
    for player in ("Ann", "Bo", "Cy"):
        table.read_mail(player)
    packet = words_packet(table, "Ann", "press", to=[], text="I never attack first.")
    assert table.host.handle_text(packet)[0].ok
    table.deliver()
    for player in ("Ann", "Bo", "Cy"):
        table.read_mail(player)
    said = table.host.service.recorded_events(table.game)[-1].event
    assert isinstance(said, PressSent)
    forge(table.host.service, table.game, replace(said, at=said.at + DAY))
    table.deliver()
    replica, member = table.replicas["Bo"]
    with pytest.raises(TamperedLog, match="recorded at event"):
        table.read_mail("Bo")
    (proof,) = replica.proofs(table.game)
    assert "the host signed events the audit refuses" in proof.detail
    table.close()


@pytest.mark.parametrize("interval", [2, 3])
def test_every_fold_gives_the_state_after_a_rollback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interval: int
) -> None:
    """Held: with snapshots taken between the proposal and the rollback (every 2 or 3 events), the store's
    aggregate (fresh and cached, now and at every older version), its fold, `show --at N`, `replay --to N`,
    the read side and a replica's copy all give the state of the events before the rollback's target
    followed by those after the rollback, and the voided moves count for nothing."""
    import event_store.app.service as service_module
    from domain.game import Game
    from projections.read_side import ReadSide
    from projections.views import render_board

    monkeypatch.setattr(service_module, "SNAPSHOT_INTERVAL", interval)
    monkeypatch.setattr(GameService, "snapshotting_intervals", {Game: interval})
    db = str(tmp_path / "host.sqlite")
    service = GameService.open(db)
    game_id = hosted(service)
    bot = Bot(2)
    for _ in range(3):
        move(service, game_id, bot)
    to = head(service, game_id)
    taken = move(service, game_id, bot)
    service.record_club(game_id, RollbackProposed(to=to, reason="misread", voids=[taken.player], at=NOW))
    press = PressSent(sender="host", text="a moment, please", at=NOW, auth="", signed_at=0, signature=b"")
    service.record_club(game_id, press)
    answer = RollbackAnswered(
        player=taken.player, to=to, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""
    )
    service.record_club(game_id, answer)
    service.record_club(game_id, RolledBack(to=to, reason="misread", nonce=taken.nonce, at=NOW))
    back = head(service, game_id)
    for _ in range(3):
        move(service, game_id, bot)
    pairs = [(r.event, r.chain) for r in service.recorded_events(game_id)]

    def expected(version: int) -> GameFold:  # the rollback by hand: its voided events left out
        return GameFold.of(pairs[:version] if version < back else pairs[:to] + pairs[back:version])

    fresh = GameService.open(db)
    runner = CliRunner()
    for version in range(to, len(pairs) + 1):
        state = expected(version).state
        assert fresh.get_game(game_id, version=version).state == state, version
        assert GameService.open(db).fold(game_id, version).state == state, version
        shown = runner.invoke(cli, ["--db", db, "show", str(game_id), "--at", str(version)])
        assert shown.exit_code == 0 and render_board("dungeon-short", state) in shown.output, version
        told = runner.invoke(
            cli, ["--db", db, "replay", str(game_id), "--to", str(version), "--no-interactive"]
        )
        assert told.exit_code == 0 and render_board("dungeon-short", state) in told.output, version
    last = expected(len(pairs))
    assert fresh.get_game(game_id).state == last.state == service.get_game(game_id).state
    side = ReadSide(fresh, batch_size=1)
    side.catch_up()
    assert side.views(str(game_id))["boards"][str(game_id)]["board"] == render_board(
        "dungeon-short", last.state
    )
    other = GameService.open(str(tmp_path / "bo.sqlite"))
    copy = import_game(other, export_game(service, game_id, "Bo"))
    assert other.fold(copy.stored).state == last.state
    assert not findings(fresh, game_id)


def test_private_press_is_sealed_in_every_view_of_a_non_reader(tmp_path: Path) -> None:
    """Held: `log`, `log --json`, `show`, `replay`, `export` (file and web page) and a picture, as Cy or
    the public, never hold the words Ann wrote privately to Bo; as Bo, `log` shows them."""
    db = str(tmp_path / "host.sqlite")
    service = GameService.open(db)
    game_id = hosted(service, ("Ann", "Bo", "Cy"))
    secret = "meet me at the Vault"
    for n, owner in enumerate(("Ann", "Bo")):
        copy = PrivatePressSent(
            owner=owner,
            sender="Ann",
            to=["Bo"],
            text=secret,
            at=NOW,
            auth="mail",
            signed_at=0,
            signature=b"",
            salt=bytes([n]) * 32,
        )
        service.record_club(game_id, copy)
    move(service, game_id, Bot(1))
    runner, game = CliRunner(), str(game_id)
    for n, viewer in enumerate((["--as", "Cy"], [])):
        page, file, picture = (tmp_path / f"{n}{name}" for name in ("game.html", "game.nkr", "board.svg"))
        commands = [
            ["log", game],
            ["log", game, "--json"],
            ["show", game, "--json"],
            ["replay", game, "--no-interactive"],
            ["export", game, "--html", str(page)],
            ["export", game, "-o", str(file)],
            ["show", game, "--svg", str(picture)],
        ]
        for command in commands:
            result = runner.invoke(cli, ["--db", db, *command, *viewer])
            assert result.exit_code == 0 and secret not in result.output, (command, viewer)
        assert all(secret.encode() not in path.read_bytes() for path in (page, file, picture)), viewer
        assert not audit_replay(file.read_bytes()).findings
    assert secret in runner.invoke(cli, ["--db", db, "log", game, "--as", "Bo"]).output


def test_every_club_event_the_host_records_is_taken_by_every_replica(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held: with every seat signing, the deadline, public and private press (a seat's and the host's),
    an observer, an absence, a refused, a withdrawn and an agreed rollback with its redone move, a lapse
    and the bot's default move pass every replica's audit at every packet, and the public copy's."""
    table = club_table(new_store, tmp_path, monkeypatch)
    host, game, service = table.host, table.game, table.host.service
    club_host.set_deadline(host, game, parse_rules("3d", "1d", "default", vacation="4d"))
    club_host.add_observer(host, game, "zoe@example.org", "Zoe")

    def everyone_reads() -> None:
        table.deliver()
        for player in ("Ann", "Bo", "Cy"):
            table.read_mail(player)

    def says(player: str, kind: str, **body: object) -> None:
        everyone_reads()
        replica, member = table.replicas[player]
        handled = host.handle_text(replica.words_packet(member, kind, **body))
        assert [h.ok for h in handled] == [True], handled

    says("Ann", "press", to=[], text="Good luck, all.")
    says("Bo", "press", to=["Cy"], text="Shall we share the Chamber?")
    says("Cy", "vacation", seconds=DAY)
    club_host.send_press(host, game, "host", ["Ann"], "Your move is due Friday.")
    for answer in (False, None, True):
        everyone_reads()
        point = head(service, game)
        mover = table.to_act()[0]
        table.play_turn(Bot(3))
        club_host.propose_rollback(host, game, point, "I read the wrong line")
        if answer is None:
            club_host.withdraw_rollback(host, game)
        else:
            says(mover, "answer", agreed=answer)
    everyone_reads()
    table.play_turn(Bot(3))  # the move the rollback voided, redone with its nonce by the replica
    everyone_reads()
    mover = table.to_act()[0]
    service.record_club(game, TurnLapsed(player=mover, since=head(service, game), at=NOW, rule="default"))
    service.take_action(game, mover, service.legal_actions(game, mover)[0].id, auth=AUTH_DEFAULT)
    club_host.remove_observer(host, game, "Zoe")
    everyone_reads()
    assert not findings(service, game) and not findings(service, game, PUBLIC)
    for player in ("Ann", "Bo", "Cy"):
        replica, _ = table.replicas[player]
        assert not replica.proofs(game) and not audit_replay(table.copy_of(player)).findings, player
    kinds = {r.type_name for r in service.recorded_events(game)}
    assert {"RolledBack", "RollbackWithdrawn", "PrivatePressSent", "VacationDeclared", "TurnLapsed"} <= kinds
    table.close()


def forged_file(service: GameService, game_id: UUID, *events: Event) -> bytes:
    """The host's log as a replay file with events appended and every chain value recomputed."""
    document = unpack(export_game(service, game_id))
    for event in events:
        entry = copy.deepcopy(document["events"][-1])
        entry.update(type=event.type_name, v=event.class_version, fields=event.to_fields())
        document["events"].append(entry)
    rechain(document)
    return bytes(msgpack.packb(canonical_form(document), use_bin_type=True, datetime=True))


@pytest.mark.parametrize(
    "to", [0, -5, 99, 11, None], ids=["0", "negative", "ahead", "no-move-after", "unasked"]
)
def test_a_forged_file_with_a_rollback_is_refused_by_import_and_named_by_audit(
    service: GameService, to: int | None
) -> None:
    """Held: a log file whose rollback returns nowhere the rules allow, to an event ahead of it, or that
    nobody was asked to agree to, chain and all recomputed: `import` refuses it (nothing stored) and
    `audit` names it, without an exception."""
    game_id = hosted(service)
    point = head(service, game_id)
    taken = move(service, game_id, Bot(3))
    back = RolledBack(to=point if to is None else to, reason="x", nonce=taken.nonce, at=NOW)
    asked = (
        []
        if to is None
        else [
            RollbackProposed(to=to, reason="x", voids=["Ann"], at=NOW),
            RollbackAnswered(
                player="Ann", to=to, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""
            ),
        ]
    )
    data = forged_file(service, game_id, *asked, back)
    report = audit_replay(data)
    assert report.findings and all(f.kind == "rules" for f in report.findings), report.findings
    other = GameService.open(":memory:")
    with pytest.raises(TamperedLog, match="fails its audit"):
        import_game(other, data)
    with pytest.raises(UnknownGame):
        other.recorded_events(game_id)
