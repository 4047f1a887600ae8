"""No board picture shows a viewer another player's secrets, and each player's picture shows their own.

For every ruleset with hidden information, seeded bot games are drawn at many points for each player and
the public, from the viewer's own copy of the log (`seen_by`), and the SVG bytes are searched for what
the host's full fold says only another player may know: the cards in their hand, the identities their
tokens tell, and anything their private events hold (salts, content ids).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.events import is_private
from domain.rulesets import has_hidden_information, ruleset_names
from domain.rulesets.castle.content import load_characters
from event_store.app.seats import seen_by
from event_store.app.service import GameService, play_with_bots
from event_store.recorded import RecordedEvent, fold_recorded
from projections.castle_view import card_name
from projections.pictures import draw_board

SVG = "{http://www.w3.org/2000/svg}"
EVERY = 4  # draw the pictures after every 4th event (and the last)

# The seats of a game of each ruleset with hidden information.
SEATS: dict[str, list[tuple[str, str | None]]] = {
    "vampire-empire": [("Hana", "human"), ("Vlad", "vampire")],
}


def titles(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg.encode()).iter(f"{SVG}title")]


# --- what each ruleset keeps secret -------------------------------------------------------------------------


def castle_secrets(host: dict[str, Any], seen: dict[str, Any], viewer: str | None, svg: str) -> int:
    """Asserts a Vampire Empire picture shows the viewer's own hand and no other player's hand, tokens or
    identities the viewer may not know; returns how many secrets it checked."""
    piles = [c for me in host["players"].values() for pile in ("cellar", "moat") for c in me[pile]]
    fight, holy = host["fight"], host["holy"]
    face_up = piles + (fight["cards"]["attack"] + fight["cards"]["defence"] if fight else [])
    face_up += [holy["card"]] if holy else []
    shown_anyway = {card_name(c) for c in face_up}  # a name on a face-up card may be a hand's twin's
    own = {card_name(c) for c in host["hands"].get(viewer, {})} if viewer else set()
    assert own <= {name for name in own if name in svg}, f"{viewer}'s own hand is missing"
    checked = 0
    for player in host["players"]:
        if player == viewer:
            continue
        secret = {card_name(c) for c in host["hands"].get(player, {})} - shown_anyway - own
        assert not [name for name in secret if name in svg], f"{player}'s hand shows in {viewer}'s picture"
        assert f"{player}'s hand" not in svg and f"{player}'s token" not in svg
        checked += len(secret)
    if viewer is None:
        assert "your token" not in svg and "Your hand" not in svg
    # An identity only tokens tell stays secret unless the viewer holds that token.
    mine = seen["tokens"].get(viewer, {}) if viewer else {}
    characters = load_characters()
    for character in host["markers"]:
        if character in seen["known"] or character in mine:
            continue
        name = characters[character].name
        (title,) = [t for t in titles(svg) if t.startswith(f"{name}: ")]
        assert title.endswith(("; identity secret", "; not yet revealed")), title
        checked += 1
    return checked


SECRETS: dict[str, Callable[[dict[str, Any], dict[str, Any], str | None, str], int]] = {
    "vampire-empire": castle_secrets,
}
HIDDEN = [name for name in ruleset_names() if has_hidden_information(name)]


def private_values(fields: Any) -> Iterator[str]:
    """Yields what a private event's fields hold, as it could be printed: bytes in hex, content ids."""
    if isinstance(fields, bytes):
        yield fields.hex()[:16]
    elif isinstance(fields, str) and "/" in fields:
        yield fields
    elif isinstance(fields, dict):
        for key, value in fields.items():
            yield from private_values(key)
            yield from private_values(value)
    elif isinstance(fields, list | tuple):
        for value in fields:
            yield from private_values(value)


def check_picture(ruleset: str, recorded: list[RecordedEvent], viewer: str | None, svg: str) -> int:
    """Asserts the picture `viewer` gets of these events keeps every other player's secret; returns how
    many secrets it checked."""
    others = [
        r.fields
        for r in recorded
        if is_private(r.type_name) and (viewer is None or r.fields.get("owner") != viewer)
    ]
    leaked = [v for fields in others for v in private_values(fields) if v in svg]
    assert leaked == [], f"{viewer}'s picture holds private event contents: {leaked[:3]}"
    words = " ".join(t.text or "" for t in ET.fromstring(svg.encode()).iter() if t.tag != f"{SVG}svg")
    assert "b'" not in words and 'b"' not in words and "\\x" not in words  # no bytes printed
    host = fold_recorded(seen_by(recorded, "host")).state
    seen = fold_recorded(seen_by(recorded, viewer)).state
    return SECRETS[ruleset](host, seen, viewer, svg) + len(others)


# --- the games ----------------------------------------------------------------------------------------------


def test_every_ruleset_with_hidden_information_has_its_secrets_listed():
    assert HIDDEN, "no ruleset keeps secrets, so this module tests nothing"
    assert [name for name in HIDDEN if name not in SECRETS or name not in SEATS] == []


@pytest.fixture(scope="module")
def played():
    """Three seeded bot games of each ruleset with hidden information, played to the end."""
    with pytest.MonkeyPatch.context() as patch:
        counter = itertools.count()
        patch.setattr(
            "event_store.app.service.new_seed",
            lambda: hashlib.sha256(f"nightkeep-picture-secrets-{next(counter)}".encode()).digest(),
        )
        service = GameService.open(":memory:")
        games = []
        for ruleset, seed in itertools.product(HIDDEN, range(3)):
            game = service.create_game(ruleset, SEATS[ruleset], {}, None, [], False)
            play_with_bots(service, game, seed=seed)
            games.append((ruleset, service.recorded_events(game)))
    return games


@pytest.mark.parametrize("ruleset", HIDDEN)
def test_no_picture_shows_another_players_secrets_and_each_shows_its_own(played, ruleset):
    checked = 0
    for name, recorded in played:
        if name != ruleset:
            continue
        viewers = [None, *(seat for seat, _ in SEATS[ruleset])]
        points = [*range(EVERY, len(recorded), EVERY), len(recorded)]
        for upto, viewer in itertools.product(points, viewers):
            svg = draw_board(fold_recorded(seen_by(recorded[:upto], viewer)))
            checked += check_picture(ruleset, recorded[:upto], viewer, svg)
    assert checked > 1000  # the games dealt hands and tokens, so the checks compared real secrets


def test_a_players_own_hand_is_in_their_picture_and_not_in_the_others(played):
    ruleset, recorded = next(game for game in played if game[0] == "vampire-empire")
    host = fold_recorded(seen_by(recorded, "host")).state
    pictures = {v: draw_board(fold_recorded(seen_by(recorded, v))) for v in (None, "Hana", "Vlad")}
    for player in ("Hana", "Vlad"):
        names = {card_name(c) for c in host["hands"][player]}
        assert names and all(name in pictures[player] for name in names)
        other = "Vlad" if player == "Hana" else "Hana"
        assert f"Your hand ({player}" in pictures[player] and f"Your hand ({player}" not in pictures[other]
    assert "Your hand" not in pictures[None]


# --- through the CLI ----------------------------------------------------------------------------------------


def test_show_as_a_player_draws_only_what_that_player_may_see(db):
    service = GameService.open(db)
    ruleset = "vampire-empire"
    game = service.create_game(ruleset, SEATS[ruleset], {}, None, [], False)
    play_with_bots(service, game, seed=7)
    recorded = service.recorded_events(game)
    service.close()
    checked = 0
    for upto, viewer in itertools.product((len(recorded) // 3, len(recorded)), (None, "Hana", "Vlad")):
        args = ["--db", db, "show", str(game), "--at", str(upto), "--svg", "-"]
        result = CliRunner().invoke(cli, args + (["--as", viewer] if viewer else []))
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith("<?xml")
        checked += check_picture(ruleset, recorded[:upto], viewer, result.stdout)
    assert checked
    listed = CliRunner().invoke(cli, ["--db", db, "show", str(game), "--json"])
    assert json.loads(listed.stdout)["ruleset"] == ruleset
