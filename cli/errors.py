"""How the `nightkeep` group ends a run: one plain line per error, or JSON with `--json`, and help
when no command is given."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from domain.errors import StoreUnavailable

# Exit code of a failure that is nobody's input: a bug, or a store damaged outside nightkeep.
INTERNAL_ERROR = 3
# Set, it lets such a failure end in its traceback, for a bug report.
TRACEBACK_ENV = "NIGHTKEEP_TRACEBACK"


def wants_json(args: Sequence[str]) -> bool:
    """Tells whether `--json` is on the command line (before any `--`), so errors must be JSON too."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


def fail(message: str, exit_code: int, as_json: bool) -> NoReturn:
    """Prints one error on stderr (a line of text, or `{"error", "exit"}`) and exits with its code."""
    if as_json:
        click.echo(json.dumps({"error": message, "exit": exit_code}), err=True)
    else:
        click.echo(f"Error: {message}", err=True)
    sys.exit(exit_code)


def drop_unwritable_stdout() -> None:
    """Points stdout at the null device if what it holds cannot be written, so that Python's flush at
    exit does not print a second error after ours."""
    try:
        sys.stdout.flush()
    except OSError:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass  # no file descriptor (a test's captured stdout): nothing will flush it at exit


class FriendlyGroup(click.Group):
    """A command group that prints its help when run bare and ends every error the same way."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args and not ctx.resilient_parsing:
            # A bare `nightkeep` asks what it can do: the help, once, on stdout, and no error.
            click.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(0)
        return super().parse_args(ctx, args)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        as_json = wants_json(sys.argv[1:] if args is None else args)
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as exc:
            where = f" (see {exc.ctx.command_path} --help)" if exc.ctx is not None and not as_json else ""
            fail(f"{exc.format_message()}{where}", exc.exit_code, as_json)
        except click.ClickException as exc:
            fail(exc.format_message(), exc.exit_code, as_json)
        except click.Abort:
            fail("Aborted.", 1, as_json)
        except StoreUnavailable as exc:
            # An OSError too, but nobody's mistake in writing: a server that cannot be reached (exit 3).
            fail(str(exc), exc.exit_code, as_json)
        except OSError as exc:
            # A write that fails (a full disk, a closed terminal) ends in one line too; click itself ends
            # a broken pipe (EPIPE) quietly, and re-raises every other OSError as a traceback.
            drop_unwritable_stdout()
            where = f" ({exc.filename})" if exc.filename else ""
            fail(f"{exc.strerror or exc}{where}", 2, as_json)
        except Exception as exc:  # noqa: BLE001  (the last line of defence: never a traceback for a user)
            if os.environ.get(TRACEBACK_ENV):
                raise
            fail(
                f"internal error ({type(exc).__name__}: {str(exc)[:200]}); if the store was changed "
                f"outside nightkeep, `nightkeep audit GAME` names the damage ({TRACEBACK_ENV}=1 shows "
                "where it failed)",
                INTERNAL_ERROR,
                as_json,
            )
        sys.exit(result if isinstance(result, int) else 0)
