"""Long player names stay on the page: every line of text of a picture lies within its width."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from cli.main import cli
from projections.pictures._expansion_text import text_width

SVG = "{http://www.w3.org/2000/svg}"
WIDE, ALSO_WIDE = "W" * 32, "M" * 32  # the longest names a seat takes, in the widest letters


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


def overflowing(svg: str) -> list[str]:
    """Returns each text that reaches past the page's edges (measured in the pictures' font)."""
    root = ET.fromstring(svg.encode())
    width = float(root.get("viewBox", "0 0 0 0").split()[2])
    out = []
    for text in root.iter(f"{SVG}text"):
        words = "".join(text.itertext())
        if not words.strip() or text.get("x") is None:
            continue
        size, x = float(text.get("font-size", "20")), float(text.get("x", "0"))
        wide = text_width(words, size, text.get("font-weight") == "bold")
        anchor = text.get("text-anchor", "start")
        left = x - wide if anchor == "end" else x - wide / 2 if anchor == "middle" else x
        if left < -1 or left + wide > width + 1:
            out.append(f"{words[:40]!r} spans {left:.0f}..{left + wide:.0f} of {width:.0f}")
    return out


def new_game(db, ruleset, *seats):
    made = run(db, "new", ruleset, *[arg for seat in seats for arg in ("--player", seat)], "--json")
    assert made.exit_code == 0, made.output
    return json.loads(made.stdout)["game"]


@pytest.mark.parametrize("viewer", ["host", WIDE, ""])
def test_vampire_empire_with_the_longest_names_keeps_its_text_on_the_page(tmp_path, viewer):
    db = str(tmp_path / "s.sqlite")
    game = new_game(db, "vampire-empire", f"{WIDE}:human", f"{ALSO_WIDE}:vampire")
    assert run(db, "play", game, "--bots", "--seed", "4").exit_code == 0
    for at in (15, 40, 80):
        result = run(db, "show", game, "--at", str(at), *(["--as", viewer] if viewer else []), "--svg", "-")
        assert result.exit_code == 0, result.output
        assert overflowing(result.stdout) == [], at


@pytest.mark.parametrize("ruleset", ["dungeon-short", "keep-run", "talisman"])
def test_the_board_games_with_the_longest_names_keep_their_text_on_the_page(tmp_path, ruleset):
    db = str(tmp_path / "s.sqlite")
    game = new_game(db, ruleset, WIDE, ALSO_WIDE, "X" * 32)
    if ruleset != "talisman":  # a whole talisman game takes bots long: its start is drawn
        assert run(db, "play", game, "--bots", "--seed", "4").exit_code == 0
    last = json.loads(run(db, "show", game, "--json").stdout)["version"]
    for at in sorted({6, last // 2, last}):
        result = run(db, "show", game, "--at", str(at), "--svg", "-")
        assert result.exit_code == 0, result.output
        assert overflowing(result.stdout) == [], at
