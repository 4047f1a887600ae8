"""Replies from mail-only players as their mail programs write them: the command read past quotes,
attributions, signatures and phone footers, in any case, as `5.`, `5)`, `#5` or a prefix; a re-wrapped
or lost Game-Key; and refusals that say why, go to the seat and can be answered with `help` or a number.
The parser alone first, then a hosted vampire-empire game of two mail-only seats through `host run`'s
pass over a Maildir."""

from __future__ import annotations

import functools
import html
import mailbox
import re
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import TypeVar
from uuid import UUID

import pytest

from cli.pbem_commands import mail_text
from domain.actions import Action
from domain.club import PressSent, PrivatePressSent, RollbackAnswered, RolledBack, VacationDeclared
from domain.events import ActionTaken
from event_store.app.seats import actions_named
from event_store.app.service import GameService
from event_store.pbem import club_host
from event_store.pbem.host_runner import run_once
from event_store.pbem.hosting import Handled, Host
from event_store.pbem.keys import new_key
from event_store.pbem.mail import MaildirInbox, body_text, compose, deliver_to_maildir, read_eml
from event_store.pbem.mail_reading import safe_address
from event_store.pbem.reply_parsing import (
    Ask,
    Move,
    NoCommand,
    Press,
    RollbackAnswer,
    UnreadableReply,
    Vacation,
    answered_mails,
    find_game_key,
    html_text,
    parse_command,
)
from tests.pbem_helpers import HOST_MAIL, address, game_key, is_refusal, seed_randomness, sent_again
from tests.pbem_table import NewStore

T = TypeVar("T")
GAME = "81b6a334-e793-483c-a9e3-5db8184d9e5f"
KEY = f"Game-Key: {GAME} 16 ABEF3TMK3NXQSB7E"
HOST_TEXT = f"Your turn. Reply with the number:\n  1. draw — Draw back up to 8 cards\n\n{KEY}\n"
WORK = "vlad.at.work@example.org"  # Vlad writes from another address than the seat's
QUOTED = "\n".join(f"> {line}" if line else ">" for line in HOST_TEXT.splitlines())

# --- the parser: mail programs' shapes ----------------------------------------------------------------------


ATTRIBUTED = f"host <{HOST_MAIL}>"
OUTLOOK = f"From: {ATTRIBUTED}\nSent: Tuesday, 8 December 2026 20:00\nTo: ann@example.org\n\n{HOST_TEXT}"
SHAPES: dict[str, tuple[str, object]] = {  # a mail program's reply -> its command
    "gmail, wrapped attribution": (
        f"5.\n\nOn Tue, 8 Dec 2026 at 20:00, host <\n{HOST_MAIL}> wrote:\n{QUOTED}",
        Move("5", "5."),
    ),
    "apple mail on a phone": (
        f"Draw\n\nSent from my iPhone\n\n> On 8 Dec 2026, {ATTRIBUTED} wrote:\n{QUOTED}",
        Move("Draw", "Draw"),
    ),
    "outlook": (
        f"Roll\n\n-----Original Message-----\n{OUTLOOK}".replace("\n", "\r\n"),
        Move("Roll", "Roll"),
    ),
    "new outlook": (f"STATUS\n{'_' * 32}\n{OUTLOOK}", Ask("status")),
    "outlook, nothing written": (OUTLOOK, NoCommand()),
    "bottom-posted, signed": (
        f"On Tue, 8 Dec 2026, host wrote:\n{QUOTED}\n\n#5\n\n-- \nAnn\n",
        Move("5", "#5"),
    ),
    "french": (f"Le mar. 8 déc. 2026 à 20:00, {ATTRIBUTED} a écrit :\n{QUOTED}\n\n5)\n", Move("5", "5)")),
    "german": (f"Am 08.12.2026 um 20:00 schrieb {ATTRIBUTED}:\n{QUOTED}\n\nHelp\n", Ask("help")),
    "a signature": (f"pas\n--\nAnn, from the road\n{QUOTED}", Move("pas", "pas")),
    "only a quote and a signature": (f"\n\n{QUOTED}\n\n-- \nstatus\n", NoCommand()),
    "history": ("history 8\n", Ask("history", 8)),
    "agree": ("agree.\n", RollbackAnswer(True)),
    "refuse": ("REFUSE, it was my own mistake\n", RollbackAnswer(False)),
    "vacation in days": ("vacation 3d\n", Vacation(3 * 86400)),
    "vacation in hours": ("Vacation 12h", Vacation(12 * 3600)),
    "vacation in minutes": ("vacation 90 minutes", Vacation(90 * 60)),
    "press to all, two paragraphs": (
        f"press all: The crypt is mine.\n\nStay out.\nOn Tue, host wrote:\n{QUOTED}",
        Press((), "The crypt is mine.\n\nStay out."),
    ),
    "press to two": (
        "PRESS Bo, cy:   Meet me at the gate\n-- \nAnn",
        Press(("Bo", "cy"), "Meet me at the gate"),
    ),
    "press on the next lines": ("press Bo:\nover two\nlines\n> quoted", Press(("Bo",), "over two\nlines")),
}


@pytest.mark.parametrize(("reply", "command"), SHAPES.values(), ids=SHAPES.keys())
def test_the_command_is_the_first_line_of_the_players_own_text(reply: str, command: object) -> None:
    assert parse_command(reply) == command


@pytest.mark.parametrize(
    ("reply", "says"),
    [
        ("vacation soon", "`vacation` takes how long"),
        ("vacation 0d", "`vacation` takes how long"),
        ("press Bo hello", "needs who it is for and a colon"),
        ("press: hello", "needs seats (or `all`)"),
        ("press all:\n> quoted", "needs seats (or `all`), a colon and a text"),
        ("press all, Bo: hello", "needs seats (or `all`)"),
    ],
)
def test_a_club_command_left_incomplete_is_unreadable_in_one_line(reply: str, says: str) -> None:
    with pytest.raises(UnreadableReply, match=re.escape(says)) as raised:
        parse_command(reply)
    assert "\n" not in str(raised.value)


ACTIONS = [Action(i, "Vlad", i) for i in ("discard:clergy-3-a", "discard:noble-2-b", "draw", "pass")]


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("3", ["draw"]),
        ("DRAW", ["draw"]),
        ("Pas", ["pass"]),
        ("disc", ["discard:clergy-3-a", "discard:noble-2-b"]),
        ("5", []),
        ("roll", []),
    ],
)
def test_a_move_is_named_by_its_number_its_id_or_its_start_in_any_case(typed: str, named: list[str]) -> None:
    assert [a.id for a in actions_named(ACTIONS, typed, any_case=True)] == named


@pytest.mark.parametrize(
    "text",
    [
        f"1\n{QUOTED}",
        f"1\n> Game-Key: {GAME}\n> 16 ABEF3TMK3NXQSB7E\n",
        f"1\n> > Game-Key:\n> > {GAME}\n> > 16\n> > ABEF3TMK3NXQSB7E\n",
        f"1\n> Not your turn. Reply `status`, quoting this line: Game-Key: {GAME} 16\n> ABEF3TMK3NXQSB7E",
    ],
    ids=["quoted", "over two lines", "over three lines, quoted twice", "joined to the text before it"],
)
def test_a_game_key_is_found_however_a_mail_client_wrapped_it(text: str) -> None:
    assert find_game_key(text) is not None
    assert find_game_key(text) == find_game_key(KEY)


@pytest.mark.parametrize(
    "text",
    [
        KEY.replace(GAME, GAME.upper()),
        KEY.replace(" 16 ", " 00000016 "),
        KEY + "Q",
        KEY.lower(),
        KEY.replace("Game-Key", "Game Key"),
        KEY.replace(" 16 ", "\n\n16 "),
    ],
    ids=["id in capitals", "longer number", "longer key", "key in lower case", "no hyphen", "a blank line"],
)
def test_any_other_spelling_is_no_game_key(text: str) -> None:
    assert find_game_key(text) is None


def test_an_html_reply_is_read_with_its_block_quotes_quoted() -> None:
    quoted = "<br>".join(html.escape(line) for line in HOST_TEXT.splitlines())
    page = (
        "<html><head><style>div { color: red }</style></head><body><div dir='ltr'>Draw&nbsp;</div><br>"
        "<div class='gmail_quote'><div class='gmail_attr'>On Tue, host &lt;host@example.org&gt; wrote:<br>"
        f"</div><blockquote class='gmail_quote'>{quoted}</blockquote></div><script>x = 1</script>"
    )
    text = html_text(page)
    assert parse_command(text) == Move("Draw", "Draw")
    assert find_game_key(text) == find_game_key(KEY)
    assert "color" not in text and "x = 1" not in text and "> Your turn." in text


def test_the_host_mails_a_reply_answers_are_read_from_in_reply_to_and_references() -> None:
    reply = compose(
        "vlad@example.org", HOST_MAIL, "Re: turn", "1\n", in_reply_to=f"<outbox-7.{GAME}@nightkeep>"
    )
    reply.replace_header(
        "References", f"<abc@example.org> <outbox-3.{GAME}@nightkeep> <outbox-7.{GAME}@nightkeep>"
    )
    assert answered_mails(reply) == [(7, UUID(GAME)), (3, UUID(GAME)), (7, UUID(GAME))]


@pytest.mark.parametrize(
    ("sender", "address"),
    [
        ("Vlad <Vlad@Example.org>", "vlad@example.org"),
        ("vlad@example.org, eve@example.org", ""),
        ("no address", ""),
        ("vlad@example.org\0", ""),
        ("v" * 300 + "@example.org", ""),
    ],
)
def test_a_refusal_goes_to_a_sender_only_when_it_is_one_plain_address(sender: str, address: str) -> None:
    assert safe_address(sender) == address


# --- a hosted game: Vlad and Ann play by mail only ---------------------------------------------------------


@dataclass
class Desk:
    """A vampire-empire game hosted by e-mail with two mail-only seats, the host's inbox (a Maildir) and
    every mail the host sent."""

    host: Host
    game: UUID
    inbox: Path
    sent: list[EmailMessage]

    def run(self, *replies: EmailMessage) -> list[str]:
        """Posts replies to the host and runs one pass of `host run`; returns what it did."""
        for reply in replies:
            deliver_to_maildir(self.inbox, reply.as_bytes())
        return run_once(self.host, MaildirInbox(self.inbox), self.sent.append, HOST_MAIL).details

    def last_to(self, player: str) -> EmailMessage:
        """Returns the newest mail the host sent a seat, as its player's mail program read it."""
        return read_eml([m for m in self.sent if str(m["To"]) == address(player)][-1].as_bytes())

    def moves(self, player: str) -> list[str]:
        """Returns a seat's legal action ids now, in the order its mail numbers them."""
        return [a.id for a in self.host.service.legal_actions(self.game, player)]

    def taken(self) -> list[str]:
        """Returns the actions the game recorded as taken by mail."""
        events = [r.event for r in self.host.service.recorded_events(self.game)]
        return [e.action for e in events if isinstance(e, ActionTaken) and e.auth == "mail"]

    def head(self) -> int:
        """Returns how many events the game has."""
        return len(self.host.service.chain_values(self.game))


def open_desk(store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Desk:
    """Hosts the game and sends its first mails (Vlad, the vampires, is to discard or draw)."""
    seed_randomness(monkeypatch, 25)
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp_path / "keys"))
    service = GameService(store)
    host = Host(service, new_key("host"), functools.partial(mail_text, service))
    seats: list[tuple[str, str | None]] = [("Ann", "human"), ("Vlad", "vampire")]
    game = host.create(
        "vampire-empire", seats, {}, {"Ann": address("Ann"), "Vlad": address("Vlad")}, HOST_MAIL
    )
    mailbox.Maildir(tmp_path / "inbox", create=True)
    desk = Desk(host, game, tmp_path / "inbox", [])
    desk.run()
    return desk


@pytest.fixture
def desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Desk]:
    opened = open_desk(str(tmp_path / "host.sqlite"), tmp_path, monkeypatch)
    yield opened
    opened.host.service.close()


def quote(message: EmailMessage) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in body_text(message).splitlines())


def reply(message: EmailMessage, text: str, sender: str = "") -> EmailMessage:
    """Returns a reply as a mail program sends it: from the seat (or `sender`), In-Reply-To the mail."""
    to = sender or str(message["To"])
    return compose(to, HOST_MAIL, f"Re: {message['Subject']}", text, in_reply_to=str(message["Message-ID"]))


def gmail(message: EmailMessage, line: str, sender: str = "") -> EmailMessage:
    attribution = f"On Tue, 8 Dec 2026 at 20:00, nightkeep host <\n{HOST_MAIL}> wrote:"
    return reply(message, f"{line}\n\n{attribution}\n\n{quote(message)}\n", sender)


def phone(message: EmailMessage, line: str) -> EmailMessage:
    return reply(
        message, f"{line}\n\nSent from my iPhone\n\n> On 8 Dec 2026, at 20:00, host wrote:\n{quote(message)}"
    )


def without_key(message: EmailMessage, line: str, sender: str = "") -> EmailMessage:
    lost = "\n".join(t for t in quote(message).splitlines() if "Game-Key" not in t)
    return reply(message, f"{line}\n\nOn Tue, 8 Dec 2026, host wrote:\n{lost}\n", sender)


def test_a_capitalised_draw_from_a_phone_plays_draw(desk: Desk) -> None:
    desk.run(phone(desk.last_to("Vlad"), "Draw"))
    assert desk.taken() == ["draw"]


@pytest.mark.parametrize(("line", "number"), [("5.", 5), ("#2", 2), ("3)", 3)])
def test_a_number_with_a_dot_a_bracket_or_a_hash_plays_that_move(desk: Desk, line: str, number: int) -> None:
    listed = desk.moves("Vlad")
    desk.run(gmail(desk.last_to("Vlad"), line))
    assert desk.taken() == [listed[number - 1]]


def test_a_unique_prefix_plays_its_move_and_an_ambiguous_one_is_refused_naming_them(desk: Desk) -> None:
    head = desk.head()
    printed = desk.run(gmail(desk.last_to("Vlad"), "Disc"))
    assert desk.head() == head
    (refusal,) = [line for line in printed if line.startswith("refused")]
    discards = [m for m in desk.moves("Vlad") if m.startswith("discard:")]
    assert f"could be {', '.join(discards[:5])}" in refusal
    desk.run(gmail(desk.last_to("Vlad"), "dr"))
    assert "pass" in desk.moves("Vlad")
    desk.run(gmail(desk.last_to("Vlad"), "Pas"))
    assert desk.taken() == ["draw", "pass"]


def test_a_game_key_rewrapped_by_the_mail_client_is_still_found(desk: Desk) -> None:
    message = desk.last_to("Vlad")
    text = body_text(gmail(message, "draw"))
    found = game_key(body_text(message))
    assert found is not None
    game, version, key = found
    rewrapped = text.replace(
        f"> Game-Key: {game} {version} {key}", f"> Game-Key: {game}\n> {version}\n> {key}"
    )
    assert rewrapped != text
    desk.run(reply(message, rewrapped, sender=WORK))  # from elsewhere: only the key names the seat
    assert desk.taken() == ["draw"]


def test_a_lost_key_from_the_seats_address_plays_while_the_game_has_not_moved(desk: Desk) -> None:
    desk.run(without_key(desk.last_to("Vlad"), "draw"))
    assert desk.taken() == ["draw"]


def test_a_lost_key_is_refused_once_the_game_has_moved_since_the_seats_last_mail(desk: Desk) -> None:
    old = desk.last_to("Vlad")
    (played,) = desk.host.handle_text(body_text(gmail(old, "draw")), address("Vlad"))
    assert played.ok and desk.taken() == ["draw"]  # no mail has told Vlad yet
    head = desk.head()
    desk.run(without_key(old, "pass"))
    assert desk.head() == head
    refusal = [m for m in desk.sent if is_refusal(m)][-1]
    assert str(refusal["To"]) == address("Vlad")
    text = body_text(refusal)
    assert text.startswith("Refused: your reply has no Game-Key line, and the game has moved on")
    fresh = game_key(text)
    assert fresh is not None and fresh[1] == head
    assert "pass — End the turn" in text


def test_a_lost_key_from_another_address_is_refused_to_that_address(desk: Desk) -> None:
    head = desk.head()
    desk.run(without_key(desk.last_to("Vlad"), "draw", sender="vlad@elsewhere.example"))
    assert desk.head() == head and desk.taken() == []
    refusal = desk.sent[-1]
    assert is_refusal(refusal) and str(refusal["To"]) == "vlad@elsewhere.example"
    (line,) = body_text(refusal).splitlines()
    assert "plays no seat here by mail; reply to the host's mail, keeping its Game-Key line" in line


def test_help_and_a_number_in_reply_to_a_refusal_are_both_answered(desk: Desk) -> None:
    head = desk.head()
    desk.run(gmail(desk.last_to("Vlad"), "42", sender=WORK))
    refusal = desk.last_to("Vlad")  # to the seat's own address, not to the sender
    assert is_refusal(refusal) and desk.head() == head
    assert body_text(refusal).startswith(
        "Refused: `42` is not one of your moves now (you have 1 to 9); reply"
    )
    desk.run(gmail(refusal, "help"))
    answer = desk.last_to("Vlad")
    assert str(answer["Subject"]).startswith("nightkeep help") and "press Bo, Cy: TEXT" in body_text(answer)
    desk.run(gmail(refusal, "9", sender=WORK))  # the refusal's own Game-Key names the seat and the turn
    assert desk.taken() == ["draw"]


def test_a_repeated_reply_is_applied_once_and_answered_once(desk: Desk) -> None:
    first = without_key(desk.last_to("Vlad"), "#1")  # no key: only its text tells a copy from a new move
    listed = desk.moves("Vlad")
    desk.run(first)
    assert desk.taken() == [listed[0]]
    before = len(desk.sent)
    printed = desk.run(sent_again(first), sent_again(first))
    assert desk.taken() == [listed[0]]
    assert len(printed) == 2 and all("not applied again: already applied at event" in p for p in printed)
    answers = desk.sent[before:]
    assert len(answers) == 2 and all(is_refusal(m) and str(m["To"]) == address("Vlad") for m in answers)


def test_not_your_turn_and_no_command_are_refused_saying_what_to_send(desk: Desk) -> None:
    head = desk.head()
    desk.run(gmail(desk.last_to("Ann"), "1"))
    told = body_text(desk.last_to("Ann"))
    assert told.startswith(
        "Refused: it is not Ann's turn (Vlad to act); wait for the host's mail of your turn"
    )
    desk.run(gmail(desk.last_to("Vlad"), ""))
    told = body_text(desk.last_to("Vlad"))
    assert told.startswith("Refused: your reply has no command above the quoted mail; write the number")
    assert desk.head() == head


def test_an_html_only_reply_is_read_from_its_html_part(desk: Desk) -> None:
    message = desk.last_to("Vlad")
    lines = "<br>".join(html.escape(line) for line in body_text(message).splitlines())
    page = f"<div dir='auto'>Draw</div><blockquote type='cite'>{lines}</blockquote>"
    answer = reply(message, "")
    answer.clear_content()  # compose writes a text part and its HTML twin; a phone may send HTML alone
    answer.set_content(page, subtype="html")
    desk.run(answer)
    assert desk.taken() == ["draw"]


def test_club_commands_reach_the_club_service_with_the_games_seat_names(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[object] = []

    def club(
        host: Host, game_id: UUID, player: str, command: object, nonce: bytes, version: int | None
    ) -> Handled:
        asked.append((player, command, version))
        return Handled(True, game_id, player, "taken")

    monkeypatch.setattr("event_store.pbem.mail_replies.handle_club_command", club)
    vlad = desk.last_to("Vlad")
    key = game_key(body_text(vlad))
    assert key is not None
    at = key[1]
    desk.run(
        gmail(vlad, "press ann: Dawn comes\nsoon."), without_key(vlad, "vacation 3d"), gmail(vlad, "Agree")
    )
    assert sorted(asked, key=repr) == sorted(
        [
            ("Vlad", Press(("Ann",), "Dawn comes\nsoon."), at),
            ("Vlad", Vacation(3 * 86400), None),
            ("Vlad", RollbackAnswer(True), at),
        ],
        key=repr,
    )
    desk.run(gmail(vlad, "press Zed: hello"))
    assert body_text(desk.last_to("Vlad")).startswith(
        "Refused: `press` names no seat `Zed` (the seats are Ann, Vlad)"
    )


def club_events(desk: Desk, kind: type[T]) -> list[T]:
    return [r.event for r in desk.host.service.recorded_events(desk.game) if isinstance(r.event, kind)]


def test_press_by_mail_is_relayed_once_as_the_seats_mail_words(desk: Desk) -> None:
    vlad = desk.last_to("Vlad")
    desk.run(gmail(vlad, "press all: Dawn comes soon."))
    desk.run(gmail(vlad, "press all: Dawn comes soon."))  # the same reply sent again: one press
    desk.run(gmail(vlad, "Press ANN: only for you"))
    public, private = club_events(desk, PressSent), club_events(desk, PrivatePressSent)
    assert [(e.sender, e.text, e.auth) for e in public] == [("Vlad", "Dawn comes soon.", "mail")]
    assert sorted(e.owner for e in private) == ["Ann", "Vlad"] and {e.to[0] for e in private} == {"Ann"}
    to_ann = [" ".join(body_text(m).split()) for m in desk.sent if str(m["To"]) == address("Ann")]
    assert sum("Vlad to everyone (by mail, on the host's word): Dawn comes soon." in t for t in to_ann) == 1
    assert any("only for you" in text for text in to_ann)
    assert not desk.host.service.audit(desk.game).findings


def test_vacation_by_mail_is_recorded_within_the_games_allowance_and_confirmed(desk: Desk) -> None:
    club_host.set_deadline(desk.host, desk.game, club_host.parse_rules("3d", vacation="5d"))
    desk.run()
    desk.run(phone(desk.last_to("Vlad"), "Vacation 2d"))
    [away] = club_events(desk, VacationDeclared)
    assert (away.player, away.seconds, away.auth) == ("Vlad", 2 * 86400, "mail")
    to_vlad = [body_text(m) for m in desk.sent if str(m["To"]) == address("Vlad")]
    assert sum(text.startswith("Your absence is recorded") for text in to_vlad) == 1
    desk.run(phone(desk.last_to("Vlad"), "vacation 4d"))
    refused = body_text(desk.last_to("Vlad"))
    assert refused.startswith("Refused:") and "Vlad may be away 3 days more" in refused
    assert len(club_events(desk, VacationDeclared)) == 1
    assert not desk.host.service.audit(desk.game).findings


def test_a_rollback_answered_by_mail_takes_the_game_back_but_not_by_an_older_mail(desk: Desk) -> None:
    point = desk.head()
    before = desk.last_to("Vlad")
    desk.run(gmail(before, "draw"))
    assert desk.taken() == ["draw"]
    club_host.propose_rollback(desk.host, desk.game, point, "I meant to discard")
    desk.run()
    asked = desk.last_to("Vlad")
    assert "agree" in body_text(asked)
    desk.run(gmail(before, "agree"))  # a reply to the mail of before the proposal is no answer to it
    refused = body_text(desk.last_to("Vlad"))
    assert refused.startswith("Refused:") and "before the rollback now asked" in refused
    assert not club_events(desk, RolledBack)
    desk.run(gmail(asked, "Agree."))
    [back] = club_events(desk, RolledBack)
    assert back.to == point and club_events(desk, RollbackAnswered)[0].auth == "mail"
    service = desk.host.service
    assert service.fold(desk.game).state == service.fold(desk.game, point).state
    assert not service.audit(desk.game).findings


def test_a_lost_key_from_an_address_with_two_seats_is_placed_by_the_mail_it_answers(
    new_store: NewStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk = open_desk(new_store("host"), tmp_path, monkeypatch)
    mail = {"Bo": address("Vlad"), "Cy": address("Cy")}
    other = desk.host.create("dungeon-short", [("Bo", None), ("Cy", None)], {}, mail, HOST_MAIL)
    desk.run()
    to_vlad = [m for m in desk.sent if str(m["To"]) == address("Vlad")]
    to_bo = [m for m in to_vlad if (key := game_key(body_text(m))) is not None and key[0] == other]
    assert to_bo, "Vlad's address plays Bo in the second game"
    bo_moves = [a.id for a in desk.host.service.legal_actions(other, "Bo")]
    head = desk.head()

    unthreaded = without_key(to_bo[-1], "1")
    del unthreaded["In-Reply-To"], unthreaded["References"]
    desk.run(unthreaded)
    refusal = desk.sent[-1]
    assert is_refusal(refusal) and "your address plays more than one seat here by mail" in body_text(refusal)

    desk.run(without_key(to_bo[-1], "1"))
    taken = [r.event for r in desk.host.service.recorded_events(other) if isinstance(r.event, ActionTaken)]
    assert [(e.player, e.action, e.auth) for e in taken][-1] == ("Bo", bo_moves[0], "mail")
    assert desk.head() == head, "Vlad's own game did not move"
    desk.host.service.close()


def test_the_hosts_mail_says_a_program_sent_it_and_names_its_game_and_event(desk: Desk) -> None:
    vlad = desk.last_to("Vlad")
    assert vlad["Auto-Submitted"] == "auto-generated"
    assert vlad["X-Nightkeep-Game"] == str(desk.game)
    assert vlad["X-Nightkeep-Event"] == str(desk.head())


def automatic(message: EmailMessage, line: str, header: str, value: str) -> EmailMessage:
    sent = gmail(message, line)
    sent[header] = value
    return sent


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("Auto-Submitted", "auto-replied"),
        ("Precedence", "bulk"),
        ("Return-Path", "<>"),
    ],
)
def test_an_answering_machine_quoting_the_key_plays_nothing_and_is_not_answered(
    desk: Desk, header: str, value: str
) -> None:
    before = len(desk.sent)
    desk.run(automatic(desk.last_to("Vlad"), "Draw", header, value))  # an out-of-office, or a list's copy
    assert desk.taken() == [] and len(desk.sent) == before


def test_a_delivery_report_is_not_answered(desk: Desk) -> None:
    report = EmailMessage()
    report["From"], report["To"], report["Subject"] = "MAILER-DAEMON@example.org", HOST_MAIL, "Undelivered"
    report.set_content("Your mail to ann@example.org could not be delivered.")
    report.make_mixed()
    report.replace_header("Content-Type", "multipart/report; report-type=delivery-status; boundary=x")
    before = len(desk.sent)
    desk.run(report)
    assert len(desk.sent) == before


def test_the_host_never_answers_its_own_address(desk: Desk) -> None:
    before = len(desk.sent)
    desk.run(compose(HOST_MAIL, HOST_MAIL, "a mail of the host's that came back", "help\n"))
    assert len(desk.sent) == before
    desk.run(compose(WORK, HOST_MAIL, "the same words from a person", "help\n"))
    assert [str(m["To"]) for m in desk.sent[before:]] == [WORK]  # (one refusal: no Game-Key)
