"""`--svg FILE` / `--png FILE`: the board picture of a fold, written by the commands that show a board."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from cli.output_files import write_output

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


def write_pictures(fold: Any, stopped: bool, svg_file: str | None, png_file: str | None, force: bool) -> bool:
    """Writes the board picture(s) asked for; returns whether one went to stdout (then nothing else may)."""
    if svg_file is None and png_file is None:
        return False
    if svg_file == "-" and png_file == "-":
        from domain.errors import UsageError

        raise UsageError("only one of --svg and --png can be - (stdout)")
    from projections.pictures import draw_board

    svg = draw_board(fold, stopped)
    files: list[tuple[str, Callable[[], bytes]]] = []
    if svg_file is not None:
        files.append((svg_file, lambda: svg.encode("utf-8")))
    if png_file is not None:
        from projections.pictures.kit import to_png

        files.append((png_file, lambda: to_png(svg)))
    for name, data in files:
        written = data()
        write_output(name, written, force)
        if name != "-":
            click.echo(f"wrote {name} ({len(written)} bytes)", err=True)
    return "-" in (svg_file, png_file)
