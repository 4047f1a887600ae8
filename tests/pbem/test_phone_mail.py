"""Mail for people with phones: the host's mails parsed back with the stdlib parser.

Each mail is multipart/alternative: a text part of lines that fit 60 columns, and an HTML part (inside
multipart/related with the board picture) that shows the same text and the picture by its Content-ID, and
loads nothing from elsewhere. The packet travels once, attached. The picture is drawn when the mail is
sent, for its player, and a mail sent again is the same bytes. A viewer's address gives each mail a link
to the game at its event, which the web viewer opens there (`?at=N`, in a real Chromium).
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from html.parser import HTMLParser
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner, Result
from PIL import Image

from cli.main import cli
from domain.errors import UsageError
from event_store import clock
from event_store.app.service import GameService, play_with_bots
from event_store.pbem.host_runner import message_for
from event_store.pbem.mail import PACKET_MEDIA_TYPE, Link, Picture, compose, packet_texts
from event_store.pbem.mail_page import sentences
from event_store.pbem.outbox import Outgoing
from event_store.recorded import RecordedEvent, redacted
from projections.mail_picture import PICTURE_WIDTH, mail_picture
from projections.mail_words import WIDTH

ROOT = Path(__file__).resolve().parents[2]
PACKET = "-----BEGIN NIGHTKEEP PACKET-----\nbXNncGFjaw==\n-----END NIGHTKEEP PACKET-----"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
VIEWER = "https://club.example.org/nightkeep"
GAME = UUID("1b4e28ba-2fa1-41d2-883f-0016d3cca427")
SEATS: dict[str, list[tuple[str, str | None]]] = {
    "dungeon-short": [("Ann", None), ("Bo", None), ("Cy", None)],
    "vampire-empire": [("Hana", "human"), ("Vlad", "vampire")],
}


def parsed(message: EmailMessage) -> EmailMessage:
    """Returns a message as a mail client gets it: its bytes parsed back by the stdlib parser."""
    back = BytesParser(EmailMessage, policy=policy.default).parsebytes(message.as_bytes())
    assert isinstance(back, EmailMessage)
    return back


def tree(message: EmailMessage) -> list[str]:
    """Returns the media type of every part, depth first."""
    return [part.get_content_type() for part in message.walk()]


def text_of(message: EmailMessage, subtype: str) -> str:
    part = message.get_body(preferencelist=(subtype,))
    assert part is not None, subtype
    return str(part.get_content())


class Page(HTMLParser):
    """What an HTML part holds: every tag with its attributes, and the words it shows (but the title's and
    the link's)."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.shown = ""
        self._open: list[str] = []
        self.feed(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))
        self.shown += "\n" if tag in ("div", "p", "br") else ""  # a block starts a new line
        if tag in ("title", "a"):
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if not self._open:
            self.shown += data

    def attributes(self, tag: str) -> list[dict[str, str]]:
        return [attrs for name, attrs in self.tags if name == tag]


def words(text: str) -> list[str]:
    return text.split()


def assert_loads_nothing(page: Page) -> None:
    """Asserts an HTML part fetches nothing: no script, style sheet, frame or remote picture."""
    assert not {"script", "link", "iframe", "object", "embed", "style"} & {tag for tag, _ in page.tags}
    assert all(attrs["src"].startswith("cid:") for attrs in page.attributes("img"))
    assert not any("url(" in attrs.get("style", "") for _, attrs in page.tags)


def picture_part(message: EmailMessage) -> EmailMessage:
    (part,) = [p for p in message.walk() if p.get_content_type() == "image/png"]
    assert isinstance(part, EmailMessage)
    return part


@pytest.fixture(scope="module")
def games() -> dict[str, list[RecordedEvent]]:
    """The host's full log of a seeded bot game of Dungeon and of Vampire Empire, part played."""
    with pytest.MonkeyPatch.context() as patch:
        counter = itertools.count()
        patch.setattr(
            "event_store.app.service.new_seed",
            lambda: hashlib.sha256(f"nightkeep-phone-mail-{next(counter)}".encode()).digest(),
        )
        service = GameService.open(":memory:")
        logs = {}
        for ruleset, seats in SEATS.items():
            game = service.create_game(ruleset, seats, {}, None, [], False)
            play_with_bots(service, game, seed=5, max_actions=30)
            logs[ruleset] = service.recorded_events(game)
    return logs


# --- the picture ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", SEATS)
def test_the_mail_picture_is_a_small_palette_png_as_wide_as_a_phone_shows_sharply(games, ruleset):
    png = mail_picture(games[ruleset], SEATS[ruleset][0][0])
    assert png.startswith(PNG_SIGNATURE)
    with Image.open(io.BytesIO(png)) as picture:
        picture.verify()
    with Image.open(io.BytesIO(png)) as picture:
        assert picture.width == PICTURE_WIDTH and picture.mode == "P"
    assert len(png) < 120_000


def test_the_mail_picture_shows_its_viewer_only_what_they_may_see_and_is_drawn_the_same_each_time(games):
    recorded = games["vampire-empire"]
    vlad = mail_picture(recorded, "Vlad")
    assert vlad == mail_picture(redacted(recorded, "Vlad"), "Vlad")  # the host's log is redacted first
    assert vlad != mail_picture(recorded, "Hana") != mail_picture(recorded, "")


# --- compose ----------------------------------------------------------------------------------------------


def test_a_turn_mail_is_text_and_html_with_the_picture_inline_and_the_packet_attached_once():
    png = PNG_SIGNATURE + b"not really a picture"
    link = Link(f"{VIEWER}/games/{GAME}?at=12", "The game at event 12 in a browser")
    message = parsed(
        compose(
            "host@example.org",
            "ann@example.org",
            "Crypt run — your turn, Ann",
            'Your turn, Ann.\n\nAnn <3 & Bo\'s "Sword".\n',
            PACKET,
            message_id=f"<outbox-7.{GAME}@nightkeep>",
            picture=Picture(png, "The board at event 12, as Ann sees it"),
            link=link,
        )
    )
    assert tree(message) == [
        "multipart/mixed",
        "multipart/alternative",
        "text/plain",
        "multipart/related",
        "text/html",
        "image/png",
        PACKET_MEDIA_TYPE,
    ]
    text = text_of(message, "plain")
    assert text == f'Your turn, Ann.\n\nAnn <3 & Bo\'s "Sword".\n\n{link.words}:\n{link.url}\n'
    page = Page(text_of(message, "html"))
    assert words(page.shown) == words('Your turn, Ann. Ann <3 & Bo\'s "Sword".')  # escaped, read back
    image = picture_part(message)
    (img,) = page.attributes("img")
    assert img["src"] == f"cid:{image['Content-ID'].strip('<>')}" and img["alt"].startswith("The board")
    assert image.get_content_disposition() == "inline" and image.get_content() == png
    assert [a["href"] for a in page.attributes("a")] == [link.url]
    assert_loads_nothing(page)
    assert [t for t in packet_texts(message) if "BEGIN NIGHTKEEP PACKET" in t] == [PACKET]
    (attached,) = message.iter_attachments()
    assert attached.get_filename() == "packet.nkp" and attached.get_content_type() == PACKET_MEDIA_TYPE


def test_the_html_part_joins_each_wrapped_sentence_back_and_keeps_every_other_line():
    reply = "Your turn. Reply with the number or the id of your action as the first line, keeping it:"
    text = "\n".join(
        [
            " 98  Maid entered the castle from the city, and then she",
            "     went on.",
            "Hana, human player: hand 8, deck 23, cellar 5, moat 4.",
            "  cellar top Fire Poker (servant 2).",
            "In the castle:",
            "  - Bishop (clergy, defence 3, attack +1): human (secret:",
            "    Hana's tokens)",
            "  - Monk (clergy, defence 1)",
            "First line of your reply:",
            "  status                    the board and who is to act",
            reply,
            "  1. roll — Roll the die",
            "  2. pass — Pass",
        ]
    )
    assert sentences(text) == [
        (5, " 98  Maid entered the castle from the city, and then she went on."),
        (2, "Hana, human player: hand 8, deck 23, cellar 5, moat 4. cellar top Fire Poker (servant 2)."),
        (0, "In the castle:"),
        (4, "  - Bishop (clergy, defence 3, attack +1): human (secret: Hana's tokens)"),
        (4, "  - Monk (clergy, defence 1)"),
        (0, "First line of your reply:"),
        (2, "  status                    the board and who is to act"),
        (0, reply),
        (5, "  1. roll — Roll the die"),
        (5, "  2. pass — Pass"),
    ]


def test_a_mail_with_no_picture_or_packet_is_text_and_html_only():
    message = parsed(compose("host@example.org", "bo@example.org", "nightkeep: refused", "Refused: why.\n"))
    assert tree(message) == ["multipart/alternative", "text/plain", "text/html"]
    assert words(Page(text_of(message, "html")).shown) == ["Refused:", "why."]


def test_compose_still_refuses_a_header_value_that_would_forge_another_header():
    with pytest.raises(UsageError, match="cannot put"):
        compose("host@example.org", "ann@example.org\nBcc: all@example.org", "Turn", "body", picture=None)


# --- message_for: the outbox row, the picture drawn when it is sent ----------------------------------------


def row(game: UUID = GAME, player: str = "Ann", packet: str = PACKET, version: int = 12) -> Outgoing:
    return Outgoing(
        7, game, player, "ann@example.org", "Crypt run — your turn", "Your turn.\n", packet, version
    )


def test_the_picture_is_drawn_when_the_mail_is_sent_for_its_player_at_its_event():
    asked: list[tuple[UUID, str, int]] = []

    def draw(game: UUID, player: str, version: int) -> bytes:
        asked.append((game, player, version))
        return PNG_SIGNATURE + b"board"

    message = parsed(message_for(row(), "host@example.org", draw, VIEWER))
    assert asked == [(GAME, "Ann", 12)]
    assert picture_part(message).get_content() == PNG_SIGNATURE + b"board"
    assert f"{VIEWER}/games/{GAME}?at=12" in text_of(message, "plain")


def test_an_observers_mail_shows_the_public_board():
    asked: list[str] = []

    def draw(game: UUID, player: str, version: int) -> bytes:
        asked.append(player)
        return PNG_SIGNATURE + b"public"

    watching = replace(row(player="", packet=""), observer="Zoe")
    message = parsed(message_for(watching, "host@example.org", draw))
    assert asked == [""] and picture_part(message).get_content() == PNG_SIGNATURE + b"public"
    (img,) = Page(text_of(message, "html")).attributes("img")
    assert img["alt"] == "The board at event 12"


def test_a_mail_sent_again_is_the_same_bytes():
    def draw(game: UUID, player: str, version: int) -> bytes:
        return PNG_SIGNATURE + player.encode()

    with clock.frozen(datetime(2026, 12, 8, 20, 0, tzinfo=UTC)):
        first = message_for(row(), "host@example.org", draw, VIEWER).as_bytes()
        again = message_for(row(), "host@example.org", draw, VIEWER).as_bytes()
    assert first == again and f"<outbox-7.{GAME}@nightkeep>".encode() in first


def test_a_mail_about_no_game_or_to_no_seat_has_no_picture_and_a_board_that_fails_holds_nothing_back():
    def draw(game: UUID, player: str, version: int) -> bytes:
        raise AssertionError("nothing to draw")

    no_game = parsed(message_for(row(game=UUID(int=0), player="", packet=""), "", draw, VIEWER))
    assert tree(no_game) == ["multipart/alternative", "text/plain", "text/html"]
    assert VIEWER not in text_of(no_game, "plain")  # no game, so nowhere to link to
    answer = parsed(message_for(row(player="", packet=""), "", draw, VIEWER))
    assert "image/png" not in tree(answer) and f"/games/{GAME}" in text_of(answer, "plain")

    def broken(game: UUID, player: str, version: int) -> bytes:
        raise RuntimeError("cairo is missing")

    sent = parsed(message_for(row(), "", broken))
    assert "image/png" not in tree(sent) and packet_texts(sent)[0] == PACKET


# --- through the command line: new, join, host apply --viewer-url, receive ----------------------------------


def run(*args: str, keys: Path) -> Result:
    return CliRunner().invoke(cli, list(args), env={"NIGHTKEEP_KEYS": str(keys)})


def newest(out: Path, seat: str) -> EmailMessage:
    found = sorted(out.glob(f"*-{seat}.eml"))
    assert found, seat
    message = BytesParser(EmailMessage, policy=policy.default).parsebytes(found[-1].read_bytes())
    assert isinstance(message, EmailMessage)
    return message


def assert_fits_a_phone(text: str, allowed: tuple[str, ...] = ()) -> None:
    """Asserts every line of a text part fits WIDTH columns, but for whole lines in `allowed`."""
    wide = [line for line in text.splitlines() if len(line) > WIDTH and line not in allowed]
    assert wide == [], wide


def test_the_host_mails_phones_and_replicas_take_the_mails_as_they_come(tmp_path: Path):
    keys = {person: tmp_path / f"keys-{person}" for person in ("host", "ann")}
    for person, folder in keys.items():
        assert run("key", "new", person, keys=folder).exit_code == 0
    ann_key = run("key", "export", "ann", keys=keys["ann"]).stdout.strip()
    host_db, ann_db, out = str(tmp_path / "host.sqlite"), str(tmp_path / "ann.sqlite"), tmp_path / "out"
    seats = [
        "--player",
        "Ann",
        "--player",
        "Bo",
        "--key",
        f"Ann={ann_key}",
        "--host-mail",
        "host@example.org",
    ]
    mail = ["--mail", "Ann=ann@example.org", "--mail", "Bo=bo@example.org", "--start-now", "--out", str(out)]
    made = run("--db", host_db, "new", "dungeon-short", *seats, *mail, "--json", keys=keys["host"])
    assert made.exit_code == 0, made.output
    game = json.loads(made.stdout)["game"]
    invite = sorted(out.glob("*-Ann.eml"))[-1]
    joined = run("--db", ann_db, "join", str(invite), "-o", str(tmp_path / "join.nkp"), keys=keys["ann"])
    assert joined.exit_code == 0, joined.output  # the invitation's packet is found in its attachment
    # Ann moves (her packet) and the host writes what it owes both seats, linked to the viewer.
    (first, *_) = json.loads(run("--db", ann_db, "actions", game, "--json", keys=keys["ann"]).stdout)
    act = tmp_path / "act.nkp"
    assert run("--db", ann_db, "act", game, first["id"], "-o", str(act), keys=keys["ann"]).exit_code == 0
    packets = [str(tmp_path / "join.nkp"), str(act)]
    applied = run(
        "--db",
        host_db,
        "host",
        "apply",
        *packets,
        "--out",
        str(out),
        "--viewer-url",
        VIEWER,
        keys=keys["host"],
    )
    assert applied.exit_code == 0, applied.output
    ann, bo = newest(out, "Ann"), newest(out, "Bo")
    version = int(re.findall(r"\?at=(\d+)", text_of(ann, "plain"))[-1])
    link = f"{VIEWER}/games/{game}?at={version}"
    for message in (ann, bo):
        page = Page(text_of(message, "html"))
        assert_loads_nothing(page)
        (img,) = page.attributes("img")
        assert img["src"] == f"cid:{picture_part(message)['Content-ID'].strip('<>')}"
        with Image.open(io.BytesIO(picture_part(message).get_content())) as picture:
            assert picture.width == PICTURE_WIDTH
        assert [a["href"] for a in page.attributes("a")] == [link]
        shown = " ".join(words(page.shown))
        assert shown and " ".join(words(text_of(message, "plain"))).startswith(shown)  # the same words
    assert_fits_a_phone(text_of(ann, "plain"), allowed=(link,))
    assert "Where everyone stands:" in text_of(ann, "plain") and f"Game {game}" in text_of(ann, "plain")
    assert len([t for t in packet_texts(ann) if "BEGIN NIGHTKEEP PACKET" in t]) == 1  # the packet, once
    assert "Game-Key:" in text_of(bo, "plain") and PACKET_MEDIA_TYPE not in tree(bo)
    mail = sorted(out.glob("*-Ann.eml"))[-1]
    received = run("--db", ann_db, "receive", str(mail), keys=keys["ann"])
    assert received.exit_code == 0, received.output
    assert f"Game {game}" in received.stdout and "What happened since event" in received.stdout


def test_a_viewer_address_that_is_not_a_web_address_is_refused(tmp_path: Path):
    for bad in ("ftp://club.example.org", "club.example.org", "https://club.example.org/?x=1", 'https://a"b'):
        result = run(
            "--db",
            str(tmp_path / "h.sqlite"),
            "host",
            "send",
            "--out",
            str(tmp_path),
            "--viewer-url",
            bad,
            keys=tmp_path,
        )
        assert result.exit_code == 2 and "--viewer-url" in result.output, (bad, result.output)
