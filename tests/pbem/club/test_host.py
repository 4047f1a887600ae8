"""The host's club service, in process with the test clock: deadlines in every mail to the seat to move,
reminders, lapses under each missed-turn rule (wait, default, replace), absences, public and private
press from signing seats, observers, and rollbacks agreed, refused and refused for rolling again."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cli.pbem_commands import mail_text
from domain.bots import Bot
from domain.club import PrivatePressSent, RolledBack, TurnLapsed
from domain.errors import IllegalAction
from domain.events import ActionTaken
from domain.hidden import PUBLIC
from event_store import clock
from event_store.app.replay_file import audit_replay, export_game
from event_store.app.service import GameService
from event_store.pbem import club_host
from event_store.pbem.club_host import DeadlineRules, deadline_event
from event_store.pbem.deadlines import tend
from event_store.pbem.hosting import Host, Outgoing
from event_store.pbem.keys import new_key
from event_store.pbem.replica import Replica
from event_store.recorded import redacted
from tests.pbem_table import NewStore, Table

START = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def test_clock() -> Iterator[None]:
    with clock.frozen(START):
        yield


def later(delta: timedelta) -> None:
    """Moves the test clock on."""
    clock.set_now(clock.now() + delta)


def hosted(
    new_store: NewStore,
    tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
    rules: DeadlineRules | None,
    mail_only: tuple[str, ...] = ("Ann", "Bo", "Cy"),
) -> Table:
    """A dungeon-short game of Ann, Bo and Cy hosted by e-mail, named "Crypt run", with a deadline."""
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp / "keys"))
    service = GameService(new_store("host"))
    host = Host(service, new_key("host"), lambda g, p, old, new: mail_text(service, g, p, old, new))
    players = [("Ann", None), ("Bo", None), ("Cy", None)]
    keys = {name: new_key(name.lower()).public for name, _ in players if name not in mail_only}
    club = [deadline_event(rules)] if rules else []
    game = host.create(
        "dungeon-short",
        players,
        keys,
        {name: f"{name.lower()}@example.org" for name, _ in players},
        "host@example.org",
        wait_for_entropy=False,
        club=club,
        title="Crypt run",
    )
    table = Table(tmp, host, game, new_store)
    if keys:
        table.join_all()
    return table


def sent(table: Table) -> list[Outgoing]:
    """Writes what the host owes, and returns it as sent."""
    table.host.follow()
    mails = table.host.due()
    for mail in mails:
        table.mail.setdefault(mail.player, []).append(mail.packet or mail.body)  # for Table.read_mail
        table.host.mark_sent(mail)
    return mails


def to(mails: list[Outgoing], address: str) -> list[Outgoing]:
    return [m for m in mails if m.to == address]


def move(table: Table, bot: Bot) -> str:
    """The seat to move takes a bot's move by mail (a mail-only seat's reply, in process)."""
    service = table.host.service
    game = service.get_game(table.game)
    player = table.to_act()[0]
    choice = bot.choose(game.ruleset, game.state, service.legal_actions(table.game, player))
    service.take_action(table.game, player, choice.id, b"reply", auth="mail")
    return player


def words(text: str) -> str:
    """Returns a mail's text with its line breaks undone (the text is wrapped at 60 columns)."""
    return " ".join(text.split())


def lines_fit(mail: Outgoing) -> None:
    assert all(len(line) <= 60 for line in mail.body.splitlines() if not line.startswith("Game-Key:")), (
        mail.body
    )


def test_every_mail_to_the_seat_to_move_says_when_its_move_is_due(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = hosted(new_store, tmp_path, monkeypatch, DeadlineRules(2 * 86400 + 3 * 3600))
    (ann,) = to(sent(table), "ann@example.org")
    assert ann.subject == "Crypt run — your turn, Ann — reply by Tue 8 Dec 23:00 UTC"
    assert "Tue 8 Dec 2026 23:00 UTC (in 2 days 3 hours)" in ann.body
    lines_fit(ann)
    bo = to(table.host.due() or sent(table), "bo@example.org")
    assert not bo  # nothing new for Bo since his first mail
    table.close()


def test_reminders_go_at_their_times_once_and_the_lapse_is_told_to_everyone(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = DeadlineRules(3 * 86400, reminders=(86400, 3600))
    table = hosted(new_store, tmp_path, monkeypatch, rules)
    sent(table)
    later(DAY)
    assert tend(table.host).reminders == 0  # two days left
    later(DAY + timedelta(minutes=1))
    assert tend(table.host).reminders == 1  # a day left
    assert tend(table.host).reminders == 0  # once
    (reminder,) = sent(table)
    assert reminder.to == "ann@example.org" and "reminder: your turn, Ann" in reminder.subject
    assert "due by\nWed 9 Dec 2026 20:00 UTC (in 23 hours 59 minutes)" in reminder.body
    later(timedelta(hours=23))
    assert tend(table.host).reminders == 1  # an hour left
    sent(table)
    later(timedelta(hours=1))
    done = tend(table.host)
    assert done.lapses == 1
    lapse = table.host.service.recorded_events(table.game)[-1].event
    assert isinstance(lapse, TurnLapsed) and lapse.player == "Ann" and lapse.rule == "wait"
    told = sent(table)
    assert {m.to for m in told} == {"ann@example.org", "bo@example.org", "cy@example.org", "host@example.org"}
    assert all("lapsed" in m.body for m in told)
    later(3 * DAY)  # under the rule `wait` the seat is reminded again every deadline
    assert tend(table.host).reminders == 1
    table.close()


def test_under_the_rule_default_the_hosts_bot_moves_after_the_grace(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = DeadlineRules(86400, missed="default", grace=6 * 3600)
    table = hosted(new_store, tmp_path, monkeypatch, rules, mail_only=("Ann", "Cy"))
    player = table.to_act()[0]
    sent(table)
    later(DAY)
    assert tend(table.host).lapses == 1
    later(timedelta(hours=5))
    assert tend(table.host).default_moves == 0  # the grace is not over
    later(timedelta(hours=1))
    done = tend(table.host)
    assert done.default_moves >= 1 and table.to_act()[0] != player
    moves = [
        r.event for r in table.host.service.recorded_events(table.game) if isinstance(r.event, ActionTaken)
    ]
    assert moves[-1].auth == "default" and moves[-1].player == player
    assert not table.host.service.audit(table.game).findings
    sent(table)
    table.read_mail("Bo")  # Bo's replica takes the default move and its audit is clean
    assert not audit_replay(table.copy_of("Bo")).findings
    table.close()


def test_under_the_rule_replace_the_host_hands_the_seat_over(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = hosted(new_store, tmp_path, monkeypatch, DeadlineRules(86400, missed="replace"))
    sent(table)
    with pytest.raises(IllegalAction, match="not lapsed"):
        club_host.hand_over(table.host, table.game, "Ann", "dee@example.org", name="Dee")
    later(DAY)
    tend(table.host)
    (notice,) = to(sent(table), "host@example.org")
    assert "nightkeep host replace" in notice.body and "Ann" in notice.body
    club_host.hand_over(table.host, table.game, "Ann", "dee@example.org", name="Dee")
    (dee,) = to(sent(table), "dee@example.org")
    assert "your turn, Ann" in dee.subject and "went to Dee" in words(dee.body) and "Game-Key:" in dee.body
    assert table.host.seats(table.game)["Ann"].mail == "dee@example.org"
    assert not table.host.service.audit(table.game).findings
    table.close()


def test_an_absence_moves_the_deadline(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = DeadlineRules(86400, vacation=7 * 86400)
    table = hosted(new_store, tmp_path, monkeypatch, rules)
    sent(table)
    club_host.declare_vacation(table.host, table.game, "Ann", 3 * 86400, auth="mail")
    (ann,) = to(sent(table), "ann@example.org")
    assert "away until Wed 9 Dec 2026 20:00 UTC" in words(ann.body)
    assert "due by\nThu 10 Dec 2026 20:00 UTC" in ann.body
    later(2 * DAY)
    assert tend(table.host).lapses == 0
    with pytest.raises(IllegalAction, match="4 days more"):
        club_host.declare_vacation(table.host, table.game, "Ann", 5 * 86400, auth="mail")
    table.close()


def test_private_press_reaches_only_its_readers(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = hosted(new_store, tmp_path, monkeypatch, None, mail_only=("Cy",))
    sent(table)
    replica, member = table.replicas["Ann"]
    table.read_mail("Ann")
    private = replica.words_packet(member, "press", to=["Bo"], text="Let us share the Treasure Chamber.")
    assert table.host.handle_text(private)[0].ok
    public = replica.words_packet(member, "press", to=[], text="Good luck, all.")
    assert table.host.handle_text(public)[0].ok
    mails = sent(table)
    bo = to(mails, "bo@example.org")
    cy = to(mails, "cy@example.org")
    assert bo and cy
    assert "Let us share the Treasure Chamber." in words(bo[-1].body)
    assert all("Let us share" not in words(m.body) for m in cy) and "Good luck, all." in words(cy[-1].body)
    for player in ("Ann", "Bo"):
        table.read_mail(player)
    bo_copy = table.copy_of("Bo")
    assert b"Let us share" in bo_copy and not audit_replay(bo_copy).findings
    public_copy = export_game(table.host.service, table.game, PUBLIC)
    assert b"Let us share" not in public_copy and not audit_replay(public_copy).findings
    host_log = table.host.service.recorded_events(table.game)
    copies = [r.event for r in host_log if isinstance(r.event, PrivatePressSent)]
    assert sorted(c.owner for c in copies) == ["Ann", "Bo"] and all(c.auth == "signed" for c in copies)
    assert all(b"Let us share" not in str(r.fields).encode() for r in redacted(host_log, "Cy"))
    table.close()


def test_an_observer_gets_the_public_mail_and_never_a_secret(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = hosted(new_store, tmp_path, monkeypatch, DeadlineRules(86400))
    sent(table)
    club_host.add_observer(table.host, table.game, "zoe@example.org", "Zoe")
    club_host.send_press(table.host, table.game, "Bo", ["Cy"], "psst", auth="mail")
    club_host.send_press(table.host, table.game, "Bo", ["all"], "hello all", auth="mail")
    for _ in range(3):
        move(table, Bot(4))
    zoe = to(sent(table), "zoe@example.org")
    assert zoe and "Crypt run" in zoe[0].subject
    assert all("psst" not in words(m.body) for m in zoe) and any("hello all" in words(m.body) for m in zoe)
    assert all(not m.packet and "Game-Key" not in m.body for m in zoe)
    table.close()


def test_a_rollback_agreed_by_the_seat_it_voids(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = hosted(new_store, tmp_path, monkeypatch, None)
    sent(table)
    service = table.host.service
    point = len(service.chain_values(table.game))
    mover = move(table, Bot(2))
    club_host.propose_rollback(table.host, table.game, point, "I wrote 2, the host read 1")
    asked = to(sent(table), f"{mover.lower()}@example.org")
    assert asked and "rollback waits on your answer" in asked[-1].subject and "agree" in asked[-1].body
    version, back = club_host.answer_rollback(table.host, table.game, mover, True, auth="mail")
    assert back
    assert isinstance(service.recorded_events(table.game)[-1].event, RolledBack)
    assert service.fold(table.game).state == service.fold(table.game, point).state
    assert not service.audit(table.game).findings
    table.close()


def test_a_rollback_is_refused_by_a_seat_or_when_a_later_move_drew(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = hosted(new_store, tmp_path, monkeypatch, None)
    sent(table)
    point = len(table.host.service.chain_values(table.game))
    first = move(table, Bot(2))
    club_host.propose_rollback(table.host, table.game, point, "misread")
    _, back = club_host.answer_rollback(table.host, table.game, first, False, auth="mail")
    assert not back and table.host.service.legal_actions(table.game)
    while table.to_act()[0] == first:
        move(table, Bot(2))
    move(table, Bot(2))  # another seat rolled: rolling back would let it roll again
    with pytest.raises(IllegalAction, match="draw again"):
        club_host.propose_rollback(table.host, table.game, point, "misread")
    table.close()


def test_a_signing_seat_answers_a_rollback_with_a_signed_packet(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = hosted(new_store, tmp_path, monkeypatch, None, mail_only=())
    sent(table)
    point = len(table.host.service.chain_values(table.game))
    replica_player = table.to_act()[0]
    table.read_mail(replica_player)
    replica, member = table.replicas[replica_player]
    packet = replica.action_packet(member, replica.legal_actions(member)[0].id)
    assert table.host.handle_text(packet)[0].ok
    club_host.propose_rollback(table.host, table.game, point, "misread")
    sent(table)
    table.read_mail(replica_player)
    answer = Replica.words_packet(replica, member, "answer", agreed=True)
    handled = table.host.handle_text(answer)
    assert handled[0].ok and "went back" in handled[0].detail
    table.deliver()
    table.read_mail(replica_player)  # the replica takes the rollback, and its audit re-decides across it
    assert not audit_replay(table.copy_of(replica_player)).findings
    again = replica.action_packet(member, replica.legal_actions(member)[0].id)
    assert table.host.handle_text(again)[0].ok  # signed with the voided move's nonce
    assert not table.host.service.audit(table.game).findings
    table.close()
