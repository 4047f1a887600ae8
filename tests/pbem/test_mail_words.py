"""The board in words for mail: every ruleset's mail fits 60 columns, names things plainly, says whose turn
it is and what changed, one numbered entry per event, and a Vampire Empire player's mail shows that player's
own hand and tokens and none of the other player's secrets.

The games are seeded bot games played to a few points (the secret seeds drawn from a fixed sequence), told
for every seat and for the public at several points, each as the mail of the last dozen events.
"""

from __future__ import annotations

import hashlib
import itertools
import re

import pytest

from domain.events import is_private
from domain.game import game_status
from event_store.app.seats import seen_by
from event_store.app.service import GameService, play_with_bots
from event_store.recorded import RecordedEvent, created_of, fold_recorded, redacted
from projections.castle_view import card_name, character_name
from projections.mail_words import TOLD, WIDTH, mail_words
from projections.phone_lines import listed, wrap_words
from projections.timeline import describe_events
from tests.pictures.test_secrets import private_values

THREE = [("Ann", None), ("Bo", None), ("Cy", None)]
# Every ruleset, and the main board with each expansion: (ruleset, seats, options, actions the bots take).
GAMES: dict[str, tuple[str, list[tuple[str, str | None]], dict[str, str], int]] = {
    "dungeon-short": ("dungeon-short", THREE, {}, 40),
    "keep-run": ("keep-run", [("Ann", None), ("Bo", None)], {}, 40),
    "vampire-empire": ("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")], {}, 60),
    "talisman": ("talisman", THREE, {}, 40),
    "talisman-dungeon": ("talisman", THREE, {"dungeon": "true"}, 60),
    "talisman-dungeon-keep": ("talisman", THREE, {"dungeon": "true", "keep": "true"}, 60),
}
POINTS = 5  # the points of each game a mail is told at
BACK = 12  # each mail tells the last dozen events
CONTENT_ID = re.compile(r"\b[a-z]+(?:/[a-z0-9-]+){2,}")  # `keep/space/sentry`
ACTION_ID = re.compile(r"\b[a-z-]+:[a-z0-9]")  # `go:outer:19`, never `chose: Roll`


@pytest.fixture(scope="module")
def played() -> dict[str, list[RecordedEvent]]:
    """The host's full log of one seeded bot game per entry of GAMES."""
    with pytest.MonkeyPatch.context() as patch:
        counter = itertools.count()
        patch.setattr(
            "event_store.app.service.new_seed",
            lambda: hashlib.sha256(f"nightkeep-mail-words-{next(counter)}".encode()).digest(),
        )
        service = GameService.open(":memory:")
        logs = {}
        for name, (ruleset, seats, options, actions) in GAMES.items():
            game = service.create_game(ruleset, seats, options, None, [], False)
            play_with_bots(service, game, seed=3, max_actions=actions)
            logs[name] = service.recorded_events(game)
    return logs


def mails(name: str, recorded: list[RecordedEvent]) -> list[tuple[str, int, int, str]]:
    """Returns (viewer, old, new, text) of the mail of the last BACK events at POINTS points, for every seat
    and the public."""
    seats = [seat for seat, _ in GAMES[name][1]]
    step = max(len(recorded) // POINTS, 1)
    out = []
    for new, viewer in itertools.product(range(step, len(recorded) + 1, step), ["", *seats]):
        old = max(new - BACK, 0)
        out.append((viewer, old, new, mail_words(redacted(recorded, viewer), viewer, old, new)))
    return out


def numbers_told(text: str) -> list[int]:
    """Returns the event numbers a mail's entries start with."""
    return [int(n) for n in re.findall(r"^ *(\d+)  \S", text, re.M)]


@pytest.mark.parametrize("name", GAMES)
def test_every_line_fits_a_phone_and_names_things_plainly(played, name):
    for viewer, _, new, text in mails(name, played[name]):
        lines = text.splitlines()
        assert max(map(len, lines)) <= WIDTH, (viewer, new, [line for line in lines if len(line) > WIDTH])
        assert CONTENT_ID.findall(text) == [], (viewer, new)
        assert ACTION_ID.findall(text) == [], (viewer, new)
        assert "b'" not in text and "\\x" not in text and "{" not in text  # no bytes or dicts printed


@pytest.mark.parametrize("name", GAMES)
def test_whose_turn_comes_first_with_the_viewer_told_it_is_theirs(played, name):
    recorded = played[name]
    for viewer, _, new, text in mails(name, recorded):
        status = game_status(fold_recorded(recorded[:new]))
        first = text.splitlines()[0]
        if status["status"] == "finished":
            assert first.startswith("Game over")
            continue
        (to_act,) = status["to_act"]
        assert first == f"Your turn, {viewer}." if to_act == viewer else first == f"{to_act} to act."


@pytest.mark.parametrize("name", GAMES)
def test_each_event_since_the_last_mail_has_one_numbered_entry(played, name):
    recorded = played[name]
    # A choice recorded after the action that made it is told once, with the action (issue 30): it is
    # the timeline's "" line, and the mail numbers no entry for it.
    lines = describe_events(created_of(recorded).ruleset, recorded)
    for _, old, new, text in mails(name, recorded):
        assert numbers_told(text) == [n for n in range(old + 1, new + 1) if lines[n - 1]]
        head = "What happened from the start:" if old == 0 else f"What happened since event {old}:"
        assert head in text


@pytest.mark.parametrize("name", GAMES)
def test_every_player_is_said_to_stand_somewhere(played, name):
    seats = [seat for seat, _ in GAMES[name][1]]
    recorded = played[name]
    text = mail_words(recorded, seats[0], len(recorded) - 1, len(recorded))
    standing = text.split("\n\n")[-1].splitlines()
    for seat in seats:
        assert any(line.startswith(f"{seat} (") or line.startswith(f"{seat}, ") for line in standing), seat


def test_a_long_run_tells_its_last_events_and_says_how_many_it_left_out(played):
    recorded = played["talisman-dungeon-keep"]
    assert len(recorded) > TOLD + 20
    text = mail_words(recorded, "Ann", 0, len(recorded))
    first = len(recorded) - TOLD
    assert f"(events 1 to {first} are left out: the log tells them)" in text
    lines = describe_events(created_of(recorded).ruleset, recorded)
    told = [n for n in range(first + 1, len(recorded) + 1) if lines[n - 1]]
    assert numbers_told(text) == told


def test_nothing_new_tells_no_events_and_still_says_whose_turn_and_where_everyone_is(played):
    recorded = played["dungeon-short"]
    text = mail_words(recorded, "Bo", len(recorded), len(recorded))
    assert "What happened" not in text and "Where everyone stands:" in text


def test_the_hosts_full_log_given_by_mistake_is_redacted_for_the_viewer(played):
    recorded = played["vampire-empire"]
    for viewer in ("", "Hana", "Vlad"):
        mine = redacted(recorded, viewer)
        assert mail_words(recorded, viewer, 10, len(recorded)) == mail_words(mine, viewer, 10, len(recorded))


# --- Vampire Empire's secrets -----------------------------------------------------------------------------


def castle_secrets(recorded: list[RecordedEvent], viewer: str, text: str) -> int:
    """Asserts a Vampire Empire mail names the viewer's own hand, no card of the other player's hand that
    the public log never named, no identity the viewer may not know, and nothing another seat's private
    events hold; returns how many secrets it checked."""
    host = fold_recorded(seen_by(recorded, "host")).state
    seen = fold_recorded(seen_by(recorded, viewer or None)).state
    own = {card_name(c) for c in host["hands"].get(viewer, {})}
    assert all(name in text for name in own), f"{viewer}'s own hand is missing"
    # A name the public log says (a card played or discarded) may be a twin of one still in a hand.
    public = "\n".join(describe_events("vampire-empire", redacted(recorded, "")))
    standing = text.split("\n\n")[-1]  # where everyone stands: no card but a face-up one is named there
    face_up = [c for me in host["players"].values() for pile in ("cellar", "moat") for c in me[pile]]
    fight = host["fight"]
    face_up += fight["cards"]["attack"] + fight["cards"]["defence"] if fight else []
    face_up += [host["holy"]["card"]] if host["holy"] else []
    checked = 0
    for player in host["players"]:
        if player == viewer:
            continue
        hand = {card_name(c) for c in host["hands"][player]} - own
        hidden = {name for name in hand if name not in public}
        assert [name for name in hidden if name in text] == [], f"{player}'s hand shows in {viewer}'s mail"
        in_view = hand - {card_name(c) for c in face_up}
        assert [name for name in in_view if name in standing] == [], f"{player}'s hand in {viewer}'s board"
        assert f"{player}'s token" not in text
        checked += len(hand)
    if not viewer:
        assert "Your hand" not in text and "Your tokens" not in text
    mine = seen["tokens"].get(viewer, {})
    for character in host["markers"]:
        if character in seen["known"] or character in mine:
            continue
        # An identity the viewer does not know is never said after the character's name.
        assert not re.search(rf"\b{character_name(character)} \([^)]*\): ", standing), character
        checked += 1
    others = [r.fields for r in recorded if is_private(r.type_name) and r.fields.get("owner") != viewer]
    leaked = [v for fields in others for v in private_values(fields) if v in text]
    assert leaked == [], f"{viewer}'s mail holds private event contents: {leaked[:3]}"
    return checked + len(others)


def test_a_vampire_empire_mail_shows_its_players_own_secrets_and_never_the_other_players(played):
    recorded = played["vampire-empire"]
    checked = 0
    for upto, viewer in itertools.product(range(16, len(recorded) + 1, 4), ("", "Hana", "Vlad")):
        text = mail_words(redacted(recorded[:upto], viewer), viewer, max(upto - BACK, 0), upto)
        checked += castle_secrets(recorded[:upto], viewer, text)
        if viewer:
            assert "Your hand (" in text and "Your tokens: " in text
    assert checked > 300  # hands were dealt and tokens drawn, so the checks compared real secrets


# --- the lines themselves ---------------------------------------------------------------------------------


def test_a_sentence_wraps_at_spaces_and_keeps_each_listed_name_whole():
    names = ["Garlic Garland", "Rosary of Bone", "Silvered Blade", "Water Bottle", "Magic Belt"]
    lines = listed("objects", names, width=24)
    assert max(map(len, lines)) <= 24
    assert all(any(name in line for line in lines) for name in names)
    assert wrap_words("Will-o'-the-Wisp rose from the Flooded Crypt.", 20) == [
        "Will-o'-the-Wisp",
        "  rose from the",
        "  Flooded Crypt.",
    ]


def test_a_word_wider_than_a_line_is_the_only_thing_ever_cut():
    (first, *rest) = wrap_words("x" * 70, WIDTH)
    assert len(first) == WIDTH and rest == ["  " + "x" * 10]
