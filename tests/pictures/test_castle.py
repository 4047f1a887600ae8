"""Vampire Empire's board picture: drawn from the content and the state at the start, middle and end of
seeded games, readable at phone size, the same bytes for the same fold, and written by `show`."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.game import GameFold
from domain.rulesets.castle.content import load_characters
from domain.rulesets.castle.state import deck_count
from event_store.app.seats import seen_by
from event_store.app.service import GameService, play_with_bots
from event_store.recorded import fold_recorded
from projections.castle_view import REASONS
from projections.pictures import draw_board
from projections.pictures.kit import check_readable

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = [("Hana", "human"), ("Vlad", "vampire")]
VIEWERS = (None, "Hana", "Vlad", "host")


def texts(svg: str) -> list[str]:
    """Returns every line of text the picture shows."""
    return [t.text or "" for t in ET.fromstring(svg.encode()).iter(f"{SVG}text")]


def titles(svg: str) -> list[str]:
    """Returns the titles of the picture's pieces (each tile's full description)."""
    return [t.text or "" for t in ET.fromstring(svg.encode()).iter(f"{SVG}title")]


def tile_title(svg: str, name: str) -> str:
    """Returns the title of the character tile of `name` (`Lady: noble, defence 2, markers: …`)."""
    found = [t for t in titles(svg) if t.startswith(f"{name}: ")]
    assert len(found) == 1, (name, found)
    return found[0]


@pytest.fixture(scope="module")
def games():
    """Two seeded bot games played to the end, once for the module: (service, game ids)."""
    with pytest.MonkeyPatch.context() as patch:
        counter = itertools.count()
        patch.setattr(
            "event_store.app.service.new_seed",
            lambda: hashlib.sha256(f"nightkeep-castle-picture-{next(counter)}".encode()).digest(),
        )
        service = GameService.open(":memory:")
        played = []
        for seed in range(2):
            game = service.create_game("vampire-empire", PLAYERS, {}, None, [], False)
            play_with_bots(service, game, seed=seed)
            played.append(game)
    return service, played


@pytest.fixture(scope="module")
def frames(games):
    """(point, viewer, fold, svg) at the start of play, the middle and the end of each game, per viewer."""
    service, played = games
    out = []
    for game in played:
        recorded = service.recorded_events(game)
        began = next(r.version for r in recorded if r.type_name == "PlayBegan")
        for point, upto in (("start", began), ("middle", len(recorded) // 2), ("end", len(recorded))):
            for viewer in VIEWERS:
                fold = fold_recorded(seen_by(recorded[:upto], viewer))
                out.append((point, viewer, fold, draw_board(fold)))
    return out


def test_every_picture_parses_and_is_readable_at_phone_size(frames):
    for _, _, _, svg in frames:
        assert ET.fromstring(svg.encode()).tag == f"{SVG}svg"
        assert check_readable(svg) == []


def test_every_character_of_the_content_is_named(frames):
    names = [c.name for c in load_characters().values()]
    for _, _, _, svg in frames:
        shown = texts(svg)
        assert [n for n in names if n not in shown] == []


def test_each_character_shows_its_profession_defence_and_markers_from_the_state(frames):
    characters = load_characters()
    marked = 0
    for _, _, fold, svg in frames:
        for character, markers in fold.state["markers"].items():
            found = characters[character]
            title = tile_title(svg, found.name)
            expected = f"{found.name}: {found.profession}, defence {found.defence}, "
            expected += f"markers: attack +{markers['attack']}, defence +{markers['defence']}; "
            assert title.startswith(expected), title
            marked += markers["attack"] + markers["defence"]
    assert marked  # the bots placed markers, so the check above compared real counts


def test_each_players_piles_are_counted_as_the_state_holds_them(frames):
    for _, _, fold, svg in frames:
        state = fold.state
        for name, me in state["players"].items():
            summary = (
                f"{name}, {me['side']} player: hand {len(me['hand'])}, deck {deck_count(state, name)}, "
                f"cellar {len(me['cellar'])}, moat {len(me['moat'])}"
            )
            assert summary in titles(svg)


def test_revealed_identities_are_written_on_the_tiles(frames):
    shown = 0
    for _, _, fold, svg in frames:
        for character, identity in fold.state["known"].items():
            word = "VAMPIRE" if identity == "vampire" else "human"
            assert tile_title(svg, load_characters()[character].name).endswith(f"; {word} (revealed)")
            shown += 1
    assert shown


def test_the_end_shows_the_winner_and_the_reason(frames):
    ends = [(fold, svg) for point, _, fold, svg in frames if point == "end"]
    for fold, svg in ends:
        state = fold.state
        assert state["phase"] == "over"
        head = " ".join(texts(svg))
        assert REASONS[state["reason"]] in head
        if state["winner"]:
            assert f"Winner: {state['winner']} ({state['players'][state['winner']]['side']} player)" in texts(
                svg
            )
            assert f"{state['winner']} ({state['players'][state['winner']]['side']}) won" in head


def test_the_start_names_whose_turn_it_is_and_nothing_is_dead(frames):
    for point, _, fold, svg in frames:
        if point == "start":
            turn = fold.state["turn"]
            assert any(line.startswith(f"{turn}'s turn") for line in texts(svg))
            assert "The dead: nobody yet" in texts(svg)


def test_a_fight_under_way_shows_both_sides_totals_and_roles(games):
    service, played = games
    seen = 0
    for game in played:
        fold = GameFold()
        for recorded in seen_by(service.recorded_events(game), None):
            fold.apply(recorded.event, recorded.chain)
            fight = fold.state["fight"]
            if fight is None or recorded.type_name != "FightCardPlayed":
                continue
            shown = texts(draw_board(fold))
            assert f"Attack {fight['attack']} (markers included)" in shown
            assert f"Defence {fight['defence']} (markers included)" in shown
            assert "ATTACKING" in shown and "DEFENDING" in shown
            seen += 1
    assert seen


def test_the_same_fold_gives_the_same_bytes(games):
    service, played = games
    recorded = service.recorded_events(played[0])
    for viewer in VIEWERS:
        once = draw_board(fold_recorded(seen_by(recorded, viewer)))
        assert draw_board(fold_recorded(seen_by(recorded, viewer))) == once


def test_a_stopped_game_says_so(games):
    service, played = games
    fold = fold_recorded(seen_by(service.recorded_events(played[0])[:40], None))
    assert any(line.startswith("Stopped:") for line in texts(draw_board(fold, stopped=True)))


def test_a_renamed_character_is_drawn_by_its_content_name(content_override):
    content_override(
        "castle", "characters.toml", lambda text: text.replace('name = "Lady"', 'name = "Countess"')
    )
    service = GameService.open(":memory:")
    game = service.create_game("vampire-empire", PLAYERS, {}, None, [], False)
    play_with_bots(service, game, seed=3, max_actions=15)
    svg = draw_board(fold_recorded(seen_by(service.recorded_events(game), "host")))
    assert "Countess" in texts(svg) and "Lady" not in texts(svg)
    assert check_readable(svg) == []


# --- through the CLI ----------------------------------------------------------------------------------------


def run(db: str, *args: str):
    return CliRunner().invoke(cli, ["--db", db, *args])


def test_show_writes_the_picture_as_svg_and_png(db, tmp_path):
    made = run(db, "new", "vampire-empire", "--player", "Hana:human", "--player", "Vlad:vampire", "--json")
    assert made.exit_code == 0, made.output
    game = str(json.loads(made.stdout)["game"])
    service = GameService.open(db)
    play_with_bots(service, service.resolve_game_id(game), seed=5, max_actions=30)
    service.close()
    svg_file, png_file = tmp_path / "board.svg", tmp_path / "board.png"
    result = run(db, "show", game, "--as", "Hana", "--svg", str(svg_file), "--png", str(png_file))
    assert result.exit_code == 0, result.output
    svg = svg_file.read_text()
    assert check_readable(svg) == [] and any(line.startswith("Your hand (Hana") for line in texts(svg))
    assert png_file.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    public = run(db, "show", game, "--svg", "-")
    assert public.exit_code == 0 and "Public view" in " ".join(texts(public.stdout))
    assert not re.search(r"Your hand|'s hand \(", public.stdout)


def test_a_viewers_own_tokens_are_marked_on_their_tiles_and_the_host_sees_whose_they_are(frames):
    characters = load_characters()
    marked = 0
    for _, viewer, fold, svg in frames:
        state = fold.state
        for character, found in characters.items():
            # A revealed identity is told as revealed; else the first token that tells (the host holds both).
            owners = [owner for owner, tokens in state["tokens"].items() if character in tokens]
            if character in state["known"] or not owners:
                continue
            owner = owners[0]
            whose = "your token" if viewer == owner else f"{owner}'s token"
            identity = state["tokens"][owner][character]["identity"]
            assert tile_title(svg, found.name).endswith(f"; {identity} ({whose})")
            marked += viewer == owner
    assert marked


def test_before_the_deal_every_character_waits_to_be_dealt(games):
    service, played = games
    recorded = service.recorded_events(played[0])
    created = next(r.version for r in recorded if r.type_name == "GameCreated")
    svg = draw_board(fold_recorded(seen_by(recorded[:created], None)))
    shown = texts(svg)
    assert "The characters, not dealt yet" in shown and "Waiting for the host to start the game." in shown
    assert shown.count("not dealt") == len(load_characters()) and "The castle" not in shown
    assert check_readable(svg) == []
