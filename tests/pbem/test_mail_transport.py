"""The mail transport: messages composed and read back, sent through a real SMTP server, and taken from
Maildir, mbox and a real Dovecot IMAP server exactly once."""

from __future__ import annotations

import mailbox
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from domain.errors import NightkeepError, UsageError
from event_store.pbem.mail import (
    PACKET_MEDIA_TYPE,
    ImapInbox,
    MaildirInbox,
    MailError,
    MboxInbox,
    SmtpSettings,
    body_text,
    compose,
    deliver_to_maildir,
    open_inbox,
    packet_texts,
    read_eml,
    send,
    sender_of,
    write_eml,
)

if TYPE_CHECKING:
    from tests.mail_servers import DovecotServer, SmtpServer

# Loaded as a plugin, not imported, so that pytest rewrites its asserts and its fixtures need no import.
pytest_plugins = ["tests.mail_servers"]

PACKET = "-----BEGIN NIGHTKEEP PACKET-----\nbXNncGFjaw==\n-----END NIGHTKEEP PACKET-----"


def turn_mail(subject: str = "Your turn in game 7", packet: str | None = PACKET) -> bytes:
    """Returns the bytes of a composed turn message, as they go over the wire."""
    message = compose("Keeper <Keeper@Example.org>", "ann@example.org", subject, "Roll the die.", packet)
    return message.as_bytes()


def test_round_trip_through_an_eml_file_keeps_the_body_and_the_packet_attachment(tmp_path: Path) -> None:
    message = compose("keeper@example.org", "ann@example.org", "Turn 3", "Your move, Ann.", PACKET, "t3.nkp")
    path = tmp_path / "turn.eml"
    write_eml(message, path)
    back = read_eml(path.read_bytes())
    attachments = list(back.iter_attachments())
    assert [(a.get_content_type(), a.get_filename()) for a in attachments] == [(PACKET_MEDIA_TYPE, "t3.nkp")]
    assert attachments[0].get_content() == PACKET.encode()
    # The packet travels once: attached, no longer also at the end of the text.
    assert body_text(back) == "Your move, Ann.\n"
    assert [t for t in packet_texts(back) if PACKET in t] == [PACKET]
    assert back["Message-ID"].endswith("@nightkeep>") and back["Date"] and back["Subject"] == "Turn 3"
    assert list(tmp_path.iterdir()) == [path], "the temp file was renamed into place"


def test_an_eml_file_has_crlf_line_ends_only(tmp_path: Path) -> None:
    write_eml(read_eml(turn_mail()), tmp_path / "turn.eml")
    data = (tmp_path / "turn.eml").read_bytes()
    assert b"\r\n" in data and data.count(b"\n") == data.count(b"\r\n")


def test_write_eml_into_a_missing_folder_is_a_one_line_mail_error(tmp_path: Path) -> None:
    with pytest.raises(MailError, match="cannot write .*no such file or directory") as caught:
        write_eml(read_eml(turn_mail()), tmp_path / "absent" / "turn.eml")
    assert "\n" not in str(caught.value) and isinstance(caught.value, NightkeepError)
    assert caught.value.exit_code == 2


def test_packet_texts_gives_the_attachment_first_then_the_body() -> None:
    texts = packet_texts(read_eml(turn_mail()))
    assert texts[0] == PACKET
    assert texts[1] == "Roll the die.\n"  # the packet is not in the text too: it is read once
    assert len(texts) == 2


def test_packet_texts_finds_an_nkp_file_of_any_media_type_and_replaces_bad_bytes() -> None:
    raw = (
        b"From: ann@example.org\r\nSubject: Re: turn\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\nmy move \xff\r\n"
        b"--b\r\nContent-Type: application/octet-stream\r\n"
        b'Content-Disposition: attachment; filename="m.nkp"\r\n'
        b"Content-Transfer-Encoding: base64\r\n\r\nUEFDS0VU\r\n--b--\r\n"
    )
    assert packet_texts(read_eml(raw)) == ["PACKET", "my move \ufffd"]


def test_a_plain_reply_from_a_player_who_installed_nothing_gives_its_body_and_sender() -> None:
    raw = 'From: "Ann B." <Ann@Example.ORG>\nSubject: Re: turn\n\nI attack the dragon. — Ann\n'.encode()
    message = read_eml(raw)
    assert body_text(message) == "I attack the dragon. — Ann\n"
    assert sender_of(message) == "ann@example.org"
    assert packet_texts(message) == ["I attack the dragon. — Ann\n"]


@pytest.mark.parametrize("header", ['"', "<", '"a" <a@['])
def test_a_from_header_the_email_package_cannot_parse_is_no_sender_not_a_crash(header: str) -> None:
    # The standard parser raises IndexError or AttributeError on these; a stranger could send them.
    message = read_eml(f"From: {header}\nSubject: turn\n\nroll\n".encode())
    assert sender_of(message) == ""
    assert packet_texts(message) == ["roll\n"]


def test_a_non_ascii_body_goes_out_quoted_printable_and_reads_back_the_same() -> None:
    message = compose("keeper@example.org", "zoë@example.org", "Zoë’s turn", "Zoë draws a card: «Drache».")
    raw = message.as_bytes()
    assert raw.isascii() and b"quoted-printable" in raw
    back = read_eml(raw)
    assert body_text(back) == "Zoë draws a card: «Drache».\n" and back["Subject"] == "Zoë’s turn"


def test_a_reply_carries_the_threading_headers_and_the_given_message_id() -> None:
    message = compose(
        "k@example.org", "a@example.org", "Re: t", "ok", message_id="<2@x>", in_reply_to="<1@x>"
    )
    assert (message["Message-ID"], message["In-Reply-To"], message["References"]) == (
        "<2@x>",
        "<1@x>",
        "<1@x>",
    )


def test_a_line_break_in_a_header_value_is_refused() -> None:
    with pytest.raises(UsageError, match="Subject"):
        compose("k@example.org", "a@example.org", "Turn\nBcc: everyone@example.org", "body")


@pytest.mark.parametrize("data", [b"", b"just some words, no headers at all\n", b"\x00\x01\x02binary\xff"])
def test_bytes_that_are_not_mail_are_refused(data: bytes) -> None:
    with pytest.raises(MailError, match="not an e-mail message"):
        read_eml(data)


def test_smtp_settings_parse_host_and_port_and_keep_the_password_out_of_repr() -> None:
    settings = SmtpSettings.parse("mail.example.org:587", starttls=True, user="gm", password="hunter2")
    assert (settings.host, settings.port, settings.starttls, settings.user) == (
        "mail.example.org",
        587,
        True,
        "gm",
    )
    assert "hunter2" not in repr(settings)
    assert SmtpSettings.parse("[::1]:2525").host == "::1"


@pytest.mark.parametrize(
    "text", ["mail.example.org", "mail.example.org:", ":25", "host:smtp", "host:0", "h:70000"]
)
def test_smtp_settings_refuse_a_bad_server(text: str) -> None:
    with pytest.raises(UsageError, match="expected HOST:PORT"):
        SmtpSettings.parse(text)


def test_sent_mail_arrives_in_the_maildir_and_is_handed_over_until_marked_done(
    smtp_to_maildir: SmtpServer,
) -> None:
    first = compose("keeper@example.org", "ann@example.org", "Turn 1", "Go.", PACKET)
    second = compose("keeper@example.org", "bob@example.org", "Turn 1", "Wait.")
    send(SmtpSettings(smtp_to_maildir.host, smtp_to_maildir.port, timeout=5), [first, second])
    assert smtp_to_maildir.handler.envelopes == [
        ("keeper@example.org", ["ann@example.org"]),
        ("keeper@example.org", ["bob@example.org"]),
    ]
    inbox = MaildirInbox(smtp_to_maildir.maildir)
    pending = inbox.pending()
    assert [read_eml(raw)["To"] for _, raw in pending] == ["ann@example.org", "bob@example.org"]
    assert packet_texts(read_eml(pending[0][1]))[0] == PACKET
    key = pending[0][0]
    inbox.mark_done(key)
    done = mailbox.Maildir(smtp_to_maildir.maildir, create=False).get_folder("processed")
    assert [read_eml(done.get_bytes(k))["To"] for k in done.keys()] == ["ann@example.org"]
    assert [k for k, _ in inbox.pending()] == [pending[1][0]]
    inbox.mark_done(key)  # already moved: harmless
    inbox.mark_done(pending[1][0])
    assert inbox.pending() == [] and len(done) == 2
    inbox.close()


def test_a_missing_maildir_is_a_mail_error(tmp_path: Path) -> None:
    with pytest.raises(MailError, match="no Maildir at"):
        MaildirInbox(tmp_path / "nothing")


def test_deliver_to_maildir_creates_the_maildir(tmp_path: Path) -> None:
    deliver_to_maildir(tmp_path / "out" / "maildir", turn_mail())
    assert [read_eml(raw)["Subject"] for _, raw in MaildirInbox(tmp_path / "out" / "maildir").pending()] == [
        "Your turn in game 7"
    ]


def test_an_mbox_hands_over_its_messages_until_each_is_moved_to_the_done_mbox(tmp_path: Path) -> None:
    path = tmp_path / "inbox.mbox"
    source = mailbox.mbox(path)
    for subject in ("Turn 1", "Turn 2", "Turn 1"):  # the third is a duplicate of the first, byte for byte
        source.add(turn_mail(subject))
    source.close()
    inbox = MboxInbox(path)
    pending = inbox.pending()
    assert [read_eml(raw)["Subject"] for _, raw in pending] == ["Turn 1", "Turn 2", "Turn 1"]
    inbox.mark_done(pending[1][0])
    inbox.mark_done(pending[1][0])  # already moved: harmless
    assert [read_eml(raw)["Subject"] for _, raw in inbox.pending()] == ["Turn 1", "Turn 1"]
    inbox.mark_done(pending[0][0])
    inbox.mark_done(pending[2][0])
    assert inbox.pending() == []
    done = mailbox.mbox(tmp_path / "inbox.mbox.processed")
    assert [read_eml(done.get_bytes(k))["Subject"] for k in done.keys()] == ["Turn 2", "Turn 1", "Turn 1"]
    assert all(message.get_from() for message in done), "each kept its From_ line"


def test_a_missing_mbox_is_a_mail_error(tmp_path: Path) -> None:
    with pytest.raises(MailError, match="no mbox at"):
        MboxInbox(tmp_path / "absent.mbox")


def login_settings(server: SmtpServer, password: str | None = None, **kw: object) -> SmtpSettings:
    """Returns settings for the STARTTLS server, trusting its certificate, with its user."""
    options: dict[str, object] = {
        "starttls": True,
        "ca_file": server.ca_file,
        "user": server.user,
        "timeout": 5,
    }
    options |= {"password": password or server.password, **kw}
    return SmtpSettings(server.host, server.port, **options)  # type: ignore[arg-type]


def test_send_with_starttls_and_a_login_is_delivered(smtp_with_login: SmtpServer) -> None:
    send(login_settings(smtp_with_login), [read_eml(turn_mail())])
    assert [read_eml(raw)["Subject"] for raw in smtp_with_login.delivered()] == ["Your turn in game 7"]


def test_a_wrong_smtp_password_is_a_one_line_mail_error(smtp_with_login: SmtpServer) -> None:
    with pytest.raises(MailError) as caught:
        send(login_settings(smtp_with_login, password="wrong"), [read_eml(turn_mail())])
    message = str(caught.value)
    assert message.startswith(
        f"cannot log in as gamemaster to the SMTP server 127.0.0.1:{smtp_with_login.port}"
    )
    assert "535" in message and "\n" not in message
    assert smtp_with_login.delivered() == []


def test_an_smtp_certificate_not_in_the_trusted_store_is_refused(smtp_with_login: SmtpServer) -> None:
    with pytest.raises(MailError, match="cannot start TLS .* certificate is not trusted"):
        send(login_settings(smtp_with_login, ca_file=None), [read_eml(turn_mail())])


def test_sending_without_starttls_where_it_is_required_is_refused(smtp_with_login: SmtpServer) -> None:
    with pytest.raises(MailError, match="530"):
        send(login_settings(smtp_with_login, starttls=False, user=None), [read_eml(turn_mail())])


def test_a_refused_smtp_connection_is_a_one_line_mail_error(unused_port: int) -> None:
    port = unused_port
    with pytest.raises(MailError) as caught:
        send(SmtpSettings("127.0.0.1", port, timeout=5), [read_eml(turn_mail())])
    assert str(caught.value) == f"cannot reach the SMTP server 127.0.0.1:{port}: connection refused"


def imaps_inbox(server: DovecotServer, user: str, **kw: object) -> ImapInbox:
    """Returns an inbox on the server's IMAPS port, trusting its self-signed certificate."""
    options: dict[str, object] = {"ca_file": server.ca_file, "timeout": 5, **kw}
    return ImapInbox(server.host, server.imaps_port, user, server.password, **options)  # type: ignore[arg-type]


def test_imaps_inbox_hands_over_appended_mail_until_it_is_moved_to_the_done_folder(
    dovecot: DovecotServer,
) -> None:
    user = dovecot.new_user()
    dovecot.append(turn_mail("Turn 1"), user)
    dovecot.append(turn_mail("Turn 2"), user)
    inbox = imaps_inbox(dovecot, user)
    pending = inbox.pending()
    assert [read_eml(raw)["Subject"] for _, raw in pending] == ["Turn 1", "Turn 2"]
    assert all(key.split(":")[0].isdigit() and key.split(":")[1].isdigit() for key, _ in pending)
    assert packet_texts(read_eml(pending[0][1]))[0] == PACKET
    inbox.mark_done(pending[0][0])
    inbox.mark_done(pending[0][0])  # already moved: harmless
    assert [read_eml(raw)["Subject"] for raw in dovecot.messages("processed", user)] == ["Turn 1"]
    assert [key for key, _ in inbox.pending()] == [pending[1][0]]
    inbox.close()


def test_without_move_the_imap_inbox_copies_flags_and_expunges(dovecot: DovecotServer) -> None:
    user = dovecot.new_user()
    dovecot.append(turn_mail("Turn 1"), user)
    inbox = imaps_inbox(dovecot, user, done_folder="Done Turns")
    [(key, _)] = inbox.pending()
    assert "MOVE" in inbox._capabilities, "Dovecot offers MOVE once logged in"
    inbox._capabilities -= {"MOVE"}  # as on a server without RFC 6851
    inbox.mark_done(key)
    assert inbox.pending() == [] and dovecot.messages("INBOX", user) == []
    assert [read_eml(raw)["Subject"] for raw in dovecot.messages("Done Turns", user)] == ["Turn 1"]
    inbox.close()


def test_a_key_from_before_the_folder_was_renumbered_is_refused(dovecot: DovecotServer) -> None:
    user = dovecot.new_user()
    dovecot.append(turn_mail(), user)
    inbox = imaps_inbox(dovecot, user)
    [(key, _)] = inbox.pending()
    with pytest.raises(MailError, match="was renumbered"):
        inbox.mark_done("1:" + key.split(":")[1])
    assert len(inbox.pending()) == 1
    inbox.close()


def test_a_wrong_imap_password_is_a_one_line_mail_error(dovecot: DovecotServer) -> None:
    inbox = ImapInbox(
        dovecot.host, dovecot.imaps_port, dovecot.user, "wrong", ca_file=dovecot.ca_file, timeout=5
    )
    with pytest.raises(MailError) as caught:
        inbox.pending()
    message = str(caught.value)
    assert message.startswith(f"cannot log in as keeper to the IMAP server 127.0.0.1:{dovecot.imaps_port}: ")
    assert "AUTHENTICATIONFAILED" in message and "\n" not in message


def test_an_imap_account_with_a_non_ascii_password_logs_in(dovecot: DovecotServer) -> None:
    from tests.mail_servers import UTF8_PASSWORD, UTF8_USER

    inbox = ImapInbox(dovecot.host, dovecot.imaps_port, UTF8_USER, UTF8_PASSWORD, ca_file=dovecot.ca_file)
    assert inbox.pending() == []
    inbox.close()


def test_a_non_ascii_smtp_password_is_a_mail_error_not_a_crash() -> None:
    settings = SmtpSettings("127.0.0.1", 25, user="zoë", password="pässwörd")
    with pytest.raises(MailError, match="must be ASCII"):
        send(settings, [])


def test_an_imap_certificate_not_in_the_trusted_store_is_refused(dovecot: DovecotServer) -> None:
    with pytest.raises(MailError, match="cannot reach the IMAP server .* certificate is not trusted"):
        imaps_inbox(dovecot, dovecot.user, ca_file=None).pending()


def test_a_refused_imap_connection_is_a_mail_error(unused_port: int) -> None:
    port = unused_port
    with pytest.raises(MailError, match=f"cannot reach the IMAP server 127.0.0.1:{port}: connection refused"):
        ImapInbox("127.0.0.1", port, "keeper", "pw", ssl=False, timeout=5).pending()


def test_open_inbox_reads_a_plain_imap_url_with_the_password_from_the_environment(
    dovecot: DovecotServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = dovecot.new_user()
    dovecot.append(turn_mail("Over plain IMAP"), user)
    monkeypatch.setenv("NIGHTKEEP_IMAP_PASSWORD", dovecot.password)
    inbox = open_inbox(f"imap://{user}@127.0.0.1:{dovecot.port}/INBOX", timeout=5)
    assert isinstance(inbox, ImapInbox) and (inbox.host, inbox.port, inbox.folder) == (
        "127.0.0.1",
        dovecot.port,
        "INBOX",
    )
    assert [read_eml(raw)["Subject"] for _, raw in inbox.pending()] == ["Over plain IMAP"]
    inbox.close()


def test_open_inbox_reads_each_kind_of_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deliver_to_maildir(tmp_path / "md", turn_mail())
    mailbox.mbox(tmp_path / "in.mbox").close()
    assert isinstance(open_inbox(f"maildir:{tmp_path / 'md'}"), MaildirInbox)
    assert isinstance(open_inbox(str(tmp_path / "md")), MaildirInbox)
    assert isinstance(open_inbox(f"mbox:{tmp_path / 'in.mbox'}"), MboxInbox)
    monkeypatch.setenv("NIGHTKEEP_IMAP_PASSWORD", "from-env")
    imap = open_inbox("imaps://gm%40example.org@mail.example.org/Turns%20In", done_folder="Done")
    assert isinstance(imap, ImapInbox)
    assert (imap.host, imap.port, imap.user, imap.folder, imap.done_folder) == (
        "mail.example.org",
        993,
        "gm@example.org",
        "Turns In",
        "Done",
    )
    assert (imap._password, imap._ssl) == ("from-env", True)
    plain = open_inbox("imap://gm@mail.example.org:1143", password="given")
    assert isinstance(plain, ImapInbox) and (plain.port, plain.folder, plain._ssl) == (1143, "INBOX", False)


def test_open_inbox_refuses_a_password_in_the_url_without_repeating_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NIGHTKEEP_IMAP_PASSWORD", "from-env")  # a password is at hand: the URL alone is wrong
    with pytest.raises(UsageError, match="holds a password: .* set NIGHTKEEP_IMAP_PASSWORD") as caught:
        open_inbox("imaps://gm:s3cret@mail.example.org:993/INBOX")
    assert "s3cret" not in str(caught.value)


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("imaps://mail.example.org/INBOX", "bad IMAP URL"),
        ("imaps://gm@mail.example.org:http/INBOX", "bad IMAP URL"),
        ("pop3://gm@mail.example.org", "unknown inbox"),
        ("no/such/dir", "unknown inbox"),
    ],
)
def test_open_inbox_refuses_a_bad_spec(spec: str, why: str) -> None:
    with pytest.raises(UsageError, match=why):
        open_inbox(spec)


def test_open_inbox_wants_an_imap_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NIGHTKEEP_IMAP_PASSWORD", raising=False)
    with pytest.raises(UsageError, match="no IMAP password: set NIGHTKEEP_IMAP_PASSWORD"):
        open_inbox("imaps://gm@mail.example.org/INBOX")
