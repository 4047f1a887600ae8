"""The picture seam: every ruleset draws a picture, readable at phone size, written by show --svg/--png."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.rulesets import ruleset_names
from projections.pictures import draw_board, has_picture
from projections.pictures.kit import MAX_WIDTH, check_readable, new_drawing, seat_mark, to_png
from projections.registry import shown_by

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


def new_toy_game(db):
    result = run(db, "new", "toy-race", "--player", "Ann", "--player", "Bo", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["game"]


def test_every_shipped_ruleset_names_a_picture_module():
    for name in ("dungeon-short", "keep-run", "talisman", "vampire-empire"):
        assert shown_by(name).picture, name
        assert has_picture(name), name


def test_a_ruleset_without_a_picture_gets_its_text_board_as_one(db):
    assert "toy-race" in ruleset_names() and not has_picture("toy-race")
    game = new_toy_game(db)
    result = run(db, "show", game, "--svg", "-")
    assert result.exit_code == 0, result.output
    svg = result.stdout
    ET.fromstring(svg.encode())  # well-formed XML
    assert check_readable(svg) == []
    board = run(db, "show", game).stdout
    assert "Ann" in svg and "Bo" in svg
    last = [line for line in board.splitlines() if not line.startswith("History: ")][-1]  # the board's
    assert last.strip().replace("&", "&amp;") in svg


def test_show_writes_svg_and_png_files_and_keeps_existing_ones(db, tmp_path):
    game = new_toy_game(db)
    svg_file, png_file = tmp_path / "board.svg", tmp_path / "board.png"
    result = run(db, "show", game, "--svg", str(svg_file), "--png", str(png_file))
    assert result.exit_code == 0, result.output
    assert "toy-race" in result.stdout  # the text board still prints
    assert f"wrote {svg_file}" in result.stderr
    assert svg_file.read_bytes().startswith(b"<?xml") and png_file.read_bytes().startswith(PNG_SIGNATURE)
    svg_file.write_text("mine")
    again = run(db, "show", game, "--svg", str(svg_file))
    assert again.exit_code == 2 and "exists: nothing written" in again.stderr
    assert svg_file.read_text() == "mine"
    forced = run(db, "show", game, "--svg", str(svg_file), "--force")
    assert forced.exit_code == 0 and svg_file.read_bytes().startswith(b"<?xml")


def test_show_refuses_two_pictures_on_stdout_and_an_unwritable_file(db, tmp_path):
    game = new_toy_game(db)
    both = run(db, "show", game, "--svg", "-", "--png", "-")
    assert both.exit_code == 2 and len(both.stderr.strip().splitlines()) == 1
    missing = run(db, "show", game, "--svg", str(tmp_path / "no" / "such" / "dir.svg"))
    assert missing.exit_code == 2 and "cannot write" in missing.stderr
    assert not (tmp_path / "no").exists()


def test_show_png_to_stdout_is_only_the_picture(db):
    game = new_toy_game(db)
    result = run(db, "show", game, "--png", "-")
    assert result.exit_code == 0
    assert result.stdout_bytes.startswith(PNG_SIGNATURE)


def test_check_readable_finds_small_text_a_wide_page_and_no_title():
    page = new_drawing(800, 200, "a title")
    svg = page.as_svg()
    assert check_readable(svg) == []
    small = svg.replace("</svg>", '<text font-size="10" x="1" y="1">tiny</text></svg>')
    assert any("size 10" in p for p in check_readable(small))
    wide = svg.replace('viewBox="0 0 800 200"', f'viewBox="0 0 {MAX_WIDTH + 1} 200"')
    assert any("wide" in p for p in check_readable(wide))
    assert any("title" in p for p in check_readable(svg.replace("<title>a title</title>", "")))
    with pytest.raises(ValueError):
        new_drawing(MAX_WIDTH + 1, 10, "too wide")


def test_seat_marks_differ_by_more_than_colour():
    marks = [seat_mark(i) for i in range(8)]
    assert len({m.dash for m in marks}) == 8 and len({m.letter for m in marks}) == 8
    assert seat_mark(8) == seat_mark(0)


def test_png_of_a_drawing_has_its_size():
    png = to_png(new_drawing(300, 120, "t").as_svg())
    assert png.startswith(PNG_SIGNATURE)
    assert int.from_bytes(png[16:20], "big") == 300 and int.from_bytes(png[20:24], "big") == 120


def test_draw_board_of_an_unknown_ruleset_fold_is_still_a_picture():
    from domain.game import GameFold

    svg = draw_board(GameFold(ruleset_name="no-such-ruleset"))
    ET.fromstring(svg.encode())
    assert "has no board view" in svg


def test_json_and_a_picture_on_stdout_are_refused_together(db):
    game = new_toy_game(db)
    for command in ("show", "replay"):
        result = run(db, command, game, "--svg", "-", "--json")
        assert result.exit_code == 2, (command, result.output)
        assert "--json and a picture on -" in result.stderr and result.stdout == ""
