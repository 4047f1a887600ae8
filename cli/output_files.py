"""Writing a command's output file: `-` is stdout; an existing file is kept unless the command forces."""

from __future__ import annotations

from pathlib import Path

import click

from domain.errors import UsageError


def write_output(output: str, data: bytes, force: bool = False) -> None:
    """Writes `data` to the file `output` (or stdout for `-`). Without `force` an existing file is left
    untouched (one line, exit 2); a write that fails leaves no cut-off file behind."""
    if not output:  # Path("") is the current directory, which would be reported as a file that exists
        raise UsageError("a file name is needed (or - for stdout)")
    if output == "-":
        with click.open_file("-", "wb") as stdout:  # click's binary stdout, left open after
            stdout.write(data)
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
