"""`--svg FILE` / `--png FILE`: the board picture of a fold, written by the commands that show a board."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from cli.output_files import refuse_binary_to_terminal, write_output

F = TypeVar("F", bound=Callable[..., Any])


def picture_options(func: F) -> F:
    """Adds `--svg FILE` and `--png FILE` (either may be `-` for stdout) and `--force`."""
    func = click.option("--force", "force_picture", is_flag=True, help="Overwrite an existing picture file.")(
        func
    )
    func = click.option("--png", "png_file", metavar="FILE", help="Also draw the board as a PNG.")(func)
    return click.option("--svg", "svg_file", metavar="FILE", help="Also draw the board as an SVG picture.")(
        func
    )


def write_pictures(
    fold: Any, stopped: bool, svg_file: str | None, png_file: str | None, force: bool, as_json: bool = False
) -> bool:
    """Writes the board picture(s) asked for; returns whether one went to stdout (then nothing else may:
    with `as_json` a picture on stdout is refused)."""
    if svg_file is None and png_file is None:
        return False
    from domain.errors import UsageError

    if as_json and "-" in (svg_file, png_file):
        raise UsageError("--json and a picture on - would both print on stdout: give the picture a file")
    if svg_file == "-" and png_file == "-":
        raise UsageError("only one of --svg and --png can be - (stdout)")
    refuse_binary_to_terminal(png_file, "a PNG picture", "--png")
    names = [name for name in (svg_file, png_file) if name is not None and name != "-"]
    if len(names) == 2 and Path(names[0]).resolve() == Path(names[1]).resolve():
        raise UsageError(f"--svg and --png both name {png_file}: give each picture its own file")
    # Both are checked before either is written, so a refusal leaves no picture half done.
    there = [name for name in names if Path(name).exists() and not force]
    if there:
        raise UsageError(f"{there[0]} exists: nothing written (--force overwrites it)")
    from projections.pictures import draw_board

    svg = draw_board(fold, stopped)
    # Every picture is made before any is written: a PNG that cannot be drawn leaves no SVG behind.
    files: list[tuple[str, bytes]] = []
    if svg_file is not None:
        files.append((svg_file, svg.encode("utf-8")))
    if png_file is not None:
        from projections.pictures.kit import to_png

        files.append((png_file, to_png(svg)))
    for name, written in files:
        write_output(name, written, force)
        if name != "-":
            click.echo(f"wrote {name} ({len(written)} bytes)", err=True)
    return "-" in (svg_file, png_file)
