"""`nightkeep rulesets`: every ruleset with its players, options and characters; `nightkeep house-rules`:
the house rules those options and the games' messages cite (docs/house-rules.md, shipped in the package)."""

from __future__ import annotations

import re
import textwrap
from importlib import resources

import click

from cli.common import echo_json, handle_errors, json_option
from domain.errors import UsageError
from domain.rulesets.catalogue import RulesetInfo, describe_rulesets

WIDTH = 80
# Where a "house rule H5.19" that an option's help cites is explained (a document shipped with the source).
HOUSE_RULES = "docs/house-rules.md"
HOUSE_RULES_NOTE = (
    f"House rules (H2.18, H5.19, ...) are how nightkeep settles what the rule books leave open, and the "
    f"content it ships in place of printed components: each is explained under its number in "
    f"{HOUSE_RULES}; `nightkeep house-rules H5.19` prints one."
)
ITEM = re.compile(r"H(\d+)(?:\.(\d+))?", re.IGNORECASE)


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
    click.echo("\n" + "\n".join(textwrap.wrap(HOUSE_RULES_NOTE, WIDTH)))


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


@click.command("house-rules")
@click.argument("item", required=False)
@handle_errors
def house_rules(item: str | None) -> None:
    """Prints nightkeep's house rules (docs/house-rules.md), or one numbered item or section of them.

    \b
    Example:
        nightkeep house-rules
        nightkeep house-rules H6.1
        nightkeep house-rules H2
    """
    text = house_rules_text()
    click.echo(text.rstrip("\n") if item is None else house_rule(text, item))


def house_rules_text() -> str:
    """Returns the house rules document the package carries."""
    return resources.files("nightkeep").joinpath("house-rules.md").read_text(encoding="utf-8")


def house_rule(text: str, wanted: str) -> str:
    """Returns one item ("H6.1": its paragraph) or one section ("H2": its heading and items) of the text."""
    m = ITEM.fullmatch(wanted.strip())
    if m is None:
        raise UsageError(f"{wanted!r} is no house rule number: give an item such as H6.1, or a section (H2)")
    section, number = m[1], m[2]
    sections = re.split(r"(?m)^(?=## H\d+\. )", text)
    found = next((part for part in sections if part.startswith(f"## H{section}. ")), None)
    if found is not None and number is not None:
        items = re.split(r"(?m)^(?=- \*\*H)", found)
        found = next((part for part in items if part.startswith(f"- **H{section}.{number}**")), None)
    if found is None:
        shown = f"H{section}.{number}" if number is not None else f"H{section}"
        raise UsageError(f"there is no house rule {shown} (`nightkeep house-rules` lists them all)")
    return found.strip()
