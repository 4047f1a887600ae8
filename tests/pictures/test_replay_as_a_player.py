"""`nightkeep replay GAME --as PLAYER --at N`: what that player could know at event N, told, shown and
drawn (--svg/--png), with the other players' secrets sealed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
AT = "40"  # Ann and Bo both hold cards then (a seeded game: the store's seeds and the bots' are fixed)


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


@pytest.fixture
def ann_and_bo(db):
    """A vampire-empire game of Ann (human) against Bo (vampire), played to its end by seeded bots."""
    made = run(db, "new", "vampire-empire", "--player", "Ann", "--player", "Bo", "--json")
    assert made.exit_code == 0, made.output
    game = json.loads(made.stdout)["game"]
    played = run(db, "play", game, "--bots", "--seed", "3")
    assert played.exit_code == 0, played.output
    return game


def hand_names(text, player):
    """Returns the card names in the "Your hand (PLAYER, …)" block of a board."""
    block = re.search(rf"Your hand \({player}, [^)]*\):(.*?)(?:\nYour tokens|\Z)", text, flags=re.DOTALL)
    assert block, f"no hand of {player} shown"
    return set(re.findall(r"([A-Z][A-Za-z' -]*?) \(", block.group(1)))


def test_a_players_view_at_n_shows_her_hand_and_not_the_others_in_text_and_picture(db, ann_and_bo, tmp_path):
    picture = tmp_path / "ann.svg"
    ann = run(db, "replay", ann_and_bo, "--as", "Ann", "--at", AT, "--svg", str(picture))
    assert ann.exit_code == 0, ann.output
    bo = run(db, "replay", ann_and_bo, "--as", "Bo", "--at", AT, "--no-interactive").stdout
    public = run(db, "replay", ann_and_bo, "--at", AT, "--no-interactive").stdout
    ann_hand = hand_names(ann.stdout, "Ann")
    secret = hand_names(bo, "Bo") - ann_hand - set(re.findall(r"[A-Z][A-Za-z' -]*", public))
    assert ann_hand and secret  # the test can fail: Bo holds cards nobody else may name
    svg = picture.read_text()
    assert f" at event {AT} — " in ann.stdout
    assert "Your hand (Bo" not in ann.stdout and "Your tokens (Bo" not in ann.stdout
    for name in secret:
        assert name not in ann.stdout and name not in svg, name
    for name in ann_hand:
        assert name in svg, name
    assert "Wrote" not in ann.stdout and f"wrote {picture}" in ann.stderr


def test_the_story_up_to_n_is_told_as_that_player_could_know_it(db, ann_and_bo):
    told = run(db, "replay", ann_and_bo, "--as", "Ann", "--at", AT, "--no-interactive").stdout
    story = told.split("\n\n", 1)[0]
    numbers = [int(n) for n in re.findall(r"^ *(\d+)  \S", story, flags=re.MULTILINE)]
    assert numbers == list(range(1, int(AT) + 1))
    assert "Something only Bo may see happened" in story
    assert "Something only Ann may see happened" not in story  # her own events are told to her


def test_png_writes_the_same_moment_as_a_png(db, ann_and_bo, tmp_path):
    picture = tmp_path / "ann.png"
    result = run(db, "replay", ann_and_bo, "--as", "Ann", "--at", AT, "--png", str(picture))
    assert result.exit_code == 0, result.output
    assert picture.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_svg_to_stdout_prints_only_the_picture():
    result = CliRunner().invoke(
        cli, ["replay", str(REPLAYS / "vampire-empire-001.nkr"), "--as", "Hana", "--at", "30", "--svg", "-"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.lstrip().startswith("<?xml") and result.stdout.rstrip().endswith("</svg>")
    assert "was set up for" not in result.stdout  # the story is not told around the picture


def test_a_file_replayed_as_a_player_draws_that_players_hand_and_not_the_others(tmp_path):
    host = str(REPLAYS / "vampire-empire-001.nkr")
    hands, svgs = {}, {}
    for viewer in ("Hana", "Vlad"):
        path = tmp_path / f"{viewer}.svg"
        result = CliRunner().invoke(cli, ["replay", host, "--as", viewer, "--at", "40", "--svg", str(path)])
        assert result.exit_code == 0, result.output
        hands[viewer], svgs[viewer] = hand_names(result.stdout, viewer), path.read_text()
    for viewer, other in (("Hana", "Vlad"), ("Vlad", "Hana")):
        assert hands[other] - hands[viewer]  # the test can fail: each holds cards the other does not
        assert all(name in svgs[viewer] for name in hands[viewer])
        assert not any(name in svgs[viewer] for name in hands[other] - hands[viewer])


def test_pictures_cannot_step_with_keys_and_an_existing_file_is_kept(tmp_path):
    host = str(REPLAYS / "vampire-empire-001.nkr")
    refused = CliRunner().invoke(cli, ["replay", host, "--interactive", "--svg", str(tmp_path / "x.svg")])
    assert refused.exit_code == 2 and "cannot be --interactive" in refused.stderr
    kept = tmp_path / "kept.svg"
    kept.write_text("mine")
    again = CliRunner().invoke(cli, ["replay", host, "--at", "10", "--svg", str(kept)])
    assert again.exit_code == 2 and kept.read_text() == "mine"
