"""Output files (pictures, pages, replay files): a new file whole or none, a forced one replaced whole."""

from __future__ import annotations

import os
import select
import subprocess
import sys

import pytest

from cli import output_files
from cli.output_files import write_output
from domain.errors import UsageError


def test_a_new_file_is_written_and_an_existing_one_kept_without_force(tmp_path):
    path = tmp_path / "page.html"
    write_output(str(path), b"first")
    assert path.read_bytes() == b"first"
    with pytest.raises(UsageError, match="exists: nothing written"):
        write_output(str(path), b"second")
    assert path.read_bytes() == b"first"


def test_a_forced_write_that_fails_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "page.html"
    path.write_bytes(b"old page")
    path.chmod(0o640)

    def fails(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output_files.os, "replace", fails)
    with pytest.raises(UsageError, match="No space left on device"):
        write_output(str(path), b"new page", force=True)
    assert path.read_bytes() == b"old page"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]
    monkeypatch.undo()
    write_output(str(path), b"new page", force=True)
    assert path.read_bytes() == b"new page" and (path.stat().st_mode & 0o777) == 0o640


def test_a_forced_write_goes_through_a_link_and_to_a_device(tmp_path):
    real = tmp_path / "real.svg"
    real.write_bytes(b"old")
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    write_output(str(link), b"new", force=True)
    assert link.is_symlink() and real.read_bytes() == b"new"
    write_output(os.devnull, b"anything", force=True)  # a device is written to, never replaced
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)


def run_with_stdout(stdout: int, *args: str) -> subprocess.CompletedProcess[bytes]:
    """Runs nightkeep with stdout on the given file descriptor (a terminal or a pipe), stdin empty."""
    return subprocess.run(
        [sys.executable, "-m", "nightkeep", *args],
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        timeout=120,
    )


def shown_on(leader: int) -> bytes:
    """Returns whatever a terminal's program wrote to it, without waiting for more."""
    seen = b""
    while select.select([leader], [], [], 0.2)[0]:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # every writer closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    return seen


@pytest.mark.parametrize(
    ("args", "option"),
    [(["export", "{game}", "-o", "-"], "-o FILE"), (["show", "{game}", "--png", "-"], "--png FILE")],
    ids=["export", "png"],
)
def test_binary_output_to_a_terminal_is_refused_in_one_line_and_piped_it_goes_through(tmp_path, args, option):
    """Issue 30: `export GAME -o -` at a terminal wrote raw msgpack to it (httpie refuses binary there)."""
    from event_store.app.service import GameService

    db = str(tmp_path / "g.sqlite")
    game = str(GameService(db).create_game("dungeon-short", [("Ann", "druid"), ("Bo", "warrior")]))
    filled = [game if a == "{game}" else a for a in args]
    leader, follower = os.openpty()
    try:
        refused = run_with_stdout(follower, "--db", db, *filled)
        os.close(follower)
        on_screen = shown_on(leader)
    finally:
        os.close(leader)
    said = refused.stderr.decode().strip().splitlines()
    assert refused.returncode == 2 and len(said) == 1 and option in said[0], said
    assert on_screen == b""
    piped = subprocess.run(
        [sys.executable, "-m", "nightkeep", "--db", db, *filled], capture_output=True, timeout=120
    )
    assert piped.returncode == 0, piped.stderr
    if "--png" in args:
        assert piped.stdout.startswith(b"\x89PNG\r\n")
    else:
        written = tmp_path / "g.nkr"
        exported = run_with_stdout(subprocess.DEVNULL, "--db", db, "export", game, "-o", str(written))
        assert exported.returncode == 0
        assert piped.stdout == written.read_bytes()
