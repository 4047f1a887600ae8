"""`show --png` where the system's cairo cannot be loaded: one line naming what to install, no traceback,
no loader errors, and no picture half written (issue 30)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from event_store.app.service import GameService

# Loaded by Python at start-up from PYTHONPATH: it makes cairo unfindable the way a machine without the
# package is, so cairocffi's own loader fails for real (find_library finds nothing, dlopen finds no file).
NO_CAIRO = """
import ctypes.util
import cffi

_find = ctypes.util.find_library
ctypes.util.find_library = lambda name: None if "cairo" in name else _find(name)
_dlopen = cffi.FFI.dlopen


def dlopen(self, name, *args, **kwargs):
    if isinstance(name, str) and "cairo" in name:
        name = "/nonexistent/" + name.rsplit("/", 1)[-1]
    return _dlopen(self, name, *args, **kwargs)


cffi.FFI.dlopen = dlopen
"""


def test_a_png_without_the_system_cairo_is_one_line_naming_the_package(tmp_path):
    db = str(tmp_path / "g.sqlite")
    game = str(GameService(db).create_game("dungeon-short", [("Ann", "druid"), ("Bo", "warrior")]))
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(NO_CAIRO, encoding="utf-8")
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), root])}
    svg, png = tmp_path / "board.svg", tmp_path / "board.png"
    shown = subprocess.run(
        [sys.executable, "-m", "nightkeep", "--db", db, "show", game, "--svg", str(svg), "--png", str(png)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    said = shown.stderr.strip().splitlines()
    assert shown.returncode == 3 and len(said) == 1, shown.stderr
    assert "libcairo2" in said[0] and "cairocffi" in said[0] and "no library called" not in said[0]
    assert not svg.exists() and not png.exists()
    # The same machine with cairo draws it: the failure above was the loader's, not the command's.
    drawn = subprocess.run(
        [sys.executable, "-m", "nightkeep", "--db", db, "show", game, "--png", str(png)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": root},
        timeout=120,
    )
    assert drawn.returncode == 0 and png.read_bytes().startswith(b"\x89PNG")
