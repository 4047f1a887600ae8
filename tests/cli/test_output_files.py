"""Output files (pictures, pages, replay files): a new file whole or none, a forced one replaced whole."""

from __future__ import annotations

import os

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
