"""The README's board pictures are what docs/pictures/draw.py draws now, and the README shows each."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "pictures" / "draw.py"
RERUN = "the README's pictures are out of date: run `python docs/pictures/draw.py` and commit docs/pictures/"


def drawing_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("readme_pictures", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_pictures_are_what_the_script_draws_now(tmp_path):
    script = drawing_script()
    written = script.draw_pictures(tmp_path)
    assert [path.name for path in written] == [f"{p.name}.svg" for p in script.PICTURES]
    for path in written:
        committed = ROOT / "docs" / "pictures" / path.name
        assert committed.is_file(), f"docs/pictures/{path.name} is missing: {RERUN}"
        assert path.read_bytes() == committed.read_bytes(), f"docs/pictures/{path.name} differs: {RERUN}"


def test_there_is_one_picture_per_ruleset_drawn_from_a_replay_in_the_repository():
    script = drawing_script()
    rulesets = {p.name for p in script.PICTURES}
    assert rulesets == {"dungeon-short", "keep-run", "talisman", "vampire-empire"}
    for picture in script.PICTURES:
        assert (ROOT / "replays" / picture.replay).is_file(), picture.replay
    talisman = next(p for p in script.PICTURES if p.name == "talisman")
    assert "dungeon-keep" in talisman.replay  # the main board with both expansions on


def test_the_readme_shows_every_picture_with_alt_text_and_the_command_that_draws_them():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for picture in drawing_script().PICTURES:
        assert f"![{picture.alt}](docs/pictures/{picture.name}.svg)" in readme, picture.name
        assert picture.alt.strip()
    assert "python docs/pictures/draw.py" in readme


def test_a_picture_is_the_public_view_the_same_from_the_hosts_full_log():
    script = drawing_script()
    castle = next(p for p in script.PICTURES if p.name == "vampire-empire")
    assert castle.replay.endswith("-public.nkr")
    from_host = castle._replace(replay=castle.replay.replace("-public", ""))
    assert script.draw_picture(from_host) == script.draw_picture(castle)  # the host's secrets are sealed
