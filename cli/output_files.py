"""Writing a command's output file: `-` is stdout; an existing file is kept unless the command forces, and
a forced one is replaced whole or not at all."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import click

from domain.errors import UsageError


def write_output(output: str, data: bytes, force: bool = False) -> None:
    """Writes `data` to the file `output` (or stdout for `-`). Without `force` an existing file is left
    untouched (one line, exit 2); a write that fails leaves no cut-off file behind, and a forced write
    goes to a temporary file beside `output` that then takes its place, so a failure keeps the old one."""
    if not output:  # Path("") is the current directory, which would be reported as a file that exists
        raise UsageError("a file name is needed (or - for stdout)")
    if output == "-":
        with click.open_file("-", "wb") as stdout:  # click's binary stdout, left open after
            stdout.write(data)
        return
    if force and Path(output).is_file():  # a regular file; a device or pipe (/dev/null) is written to
        _replace(output, data)
        return
    created = False
    try:
        # "x" refuses an existing file in the same call that creates it: no window to overwrite one.
        with Path(output).open("wb") if force else Path(output).open("xb") as file:
            created = not force
            file.write(data)
    except FileExistsError:
        raise UsageError(f"{output} exists: nothing written (--force overwrites it)") from None
    except OSError as exc:
        if created:  # a cut-off file left behind would block the retry as a file that exists
            Path(output).unlink(missing_ok=True)
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from None


def refuse_binary_to_terminal(output: str | None, what: str, option: str) -> None:
    """Refuses `-` for binary data when stdout is a terminal, before any work: the bytes would garble the
    screen and help nobody (httpie refuses the same); piped or redirected, `-` writes them as asked."""
    if output == "-" and sys.stdout.isatty():
        raise UsageError(
            f"{what} is binary, not for a terminal: redirect stdout (> FILE or | …) or give {option} FILE"
        )


def _replace(output: str, data: bytes) -> None:
    target = Path(output).resolve()  # through a link, as writing to it would go
    temp = ""
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temp, target.stat().st_mode & 0o7777)  # the file keeps its permissions
        os.replace(temp, target)
    except OSError as exc:
        if temp:
            Path(temp).unlink(missing_ok=True)
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from None
