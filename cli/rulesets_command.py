"""`nightkeep rulesets`: every ruleset with its players, options and characters."""

from __future__ import annotations

import textwrap

import click

from cli.common import echo_json, handle_errors, json_option
from domain.rulesets.catalogue import RulesetInfo, describe_rulesets

WIDTH = 80


@click.command()
@json_option
@handle_errors
def rulesets(as_json: bool) -> None:
    """Lists every ruleset with its players, options (values and default) and characters.

    \b
    Example:
        nightkeep rulesets
        nightkeep new keep-run --player Ann:elf --player Bo --option hoard=true
    """
    described = describe_rulesets()
    if as_json:
        echo_json([info.to_json() for info in described])
        return
    click.echo("\n\n".join(ruleset_text(info) for info in described))


def ruleset_text(info: RulesetInfo) -> str:
    """Returns one ruleset as a short block of lines no wider than the terminal's 80 columns."""
    low, high = info.min_players, info.max_players
    players = f"{low}-{high}" if low != high else str(low)
    lines = [f"{info.name}  ({players} players)"]
    if info.summary:
        lines += textwrap.wrap(info.summary, WIDTH, initial_indent="  ", subsequent_indent="  ")
    if not info.options:
        lines.append("  options: none")
    for option in info.options:
        values = "|".join(option.values)
        about = f": {option.help}" if option.help else ""
        lines += textwrap.wrap(
            f"--option {option.key}={values} (default {option.default}){about}",
            WIDTH,
            initial_indent="  ",
            subsequent_indent="      ",
        )
    slot = info.character_slot
    names = ", ".join(cid for cid, _ in info.characters) or "none"
    lines += textwrap.wrap(
        f"{slot}s (--player NAME:{slot.upper()}): {names}",
        WIDTH,
        initial_indent="  ",
        subsequent_indent="      ",
        break_on_hyphens=False,
    )
    return "\n".join(lines)
