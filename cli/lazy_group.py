"""nightkeep's click groups: every one answers a misspelt command with the closest ("did you mean"), and
the top group imports a command only when it runs, so `nightkeep --help` starts fast."""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

import click

from domain.suggest import did_you_mean


class LazyCommand(NamedTuple):
    """Where a command lives (module and attribute) and its one-line help for the group's --help."""

    module: str
    attribute: str
    help: str


class SuggestingGroup(click.Group):
    """A group that answers a command it does not have with the closest one it lists (click's own
    suggestion sees only the commands already loaded)."""

    group_class = type  # a subgroup made with @group.group() suggests too

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if not ctx.resilient_parsing and not name.startswith("-") and self.get_command(ctx, name) is None:
            shown = [command for command in self.list_commands(ctx) if self._listed(ctx, command)]
            raise click.UsageError(f"no command {name!r}{did_you_mean(name, shown)}", ctx=ctx)
        return super().resolve_command(ctx, args)

    def _listed(self, ctx: click.Context, name: str) -> bool:
        """Tells whether a command shows in the group's help (a hidden one is never suggested)."""
        command = self.commands.get(name)
        return command is not None and not command.hidden


class LazyGroup(SuggestingGroup):
    """A group that lists its commands from a registry and imports a command's module on first use."""

    def __init__(
        self, *args: Any, lazy_commands: dict[str, LazyCommand] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy_commands:
            self.add_command(load_command(self.lazy_commands[cmd_name]), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The registry's help stands in for each command not loaded yet, shortened as click shortens it.
        names = [name for name in self.list_commands(ctx) if self._listed(ctx, name)]
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, self._short_help(ctx, name, limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def _listed(self, ctx: click.Context, name: str) -> bool:
        """Tells whether a command shows in the group's help (loaded ones may be hidden)."""
        if name in self.commands:
            return not self.commands[name].hidden
        return name in self.lazy_commands

    def _short_help(self, ctx: click.Context, name: str, limit: int) -> str:
        """Returns a command's one-line help, from the command once loaded, else from the registry."""
        command = self.commands.get(name) or click.Command(name, help=self.lazy_commands[name].help)
        return command.get_short_help_str(limit)


def load_command(entry: LazyCommand) -> click.Command:
    """Imports a registry entry's module and returns its command."""
    command = getattr(importlib.import_module(entry.module), entry.attribute)
    if not isinstance(command, click.Command):
        raise TypeError(f"{entry.module}.{entry.attribute} is not a click command")
    return command
