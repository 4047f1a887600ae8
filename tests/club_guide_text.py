"""The club guide ("Running a club" in docs/play-by-email.md) and its systemd unit, read as the guide's test
runs them.

Each fenced block of the guide says in its info string who runs it: `sh server` (the host's user on the
server) and `sh player` (a player at their own machine) are run; `sh root` is read and checked, since it
would change the machine it ran on; `crontab` lines have their command run as cron would; `text PATH` is
the content of a file. A block with any other mark, or none, is refused: every command the guide shows
must be one the test knows how to run or check.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "docs" / "play-by-email.md"
UNIT = REPO / "docs" / "nightkeep-host.service"
HEADING = "## Running a club"
RUN_BY = ("server", "player")
KINDS = ("sh root", "sh server", "sh player", "crontab", "text")
FENCE = re.compile(r"^```(.*)$")
# The programs a `text` block may not start a line with: such a line is a command in the wrong block.
COMMANDS = ("nightkeep", "sqlite3", "pg_dump", "pg_restore", "systemctl", "sudo", "cp", "install", "crontab")


@dataclass(frozen=True)
class Step:
    """One thing the guide has someone do: a command (continuation lines joined), or a file's content."""

    who: str  # root, server, player, crontab or file
    text: str
    line: int  # where it stands in the guide
    path: str = ""  # a file's path, as the guide names it

    @property
    def words(self) -> list[str]:
        """Returns the command's words as a shell splits them (comments dropped)."""
        return shlex.split(self.text, comments=True)


def guide_section(text: str | None = None) -> tuple[list[str], int]:
    """Returns the lines of the club guide, from its heading to the next heading of its level, and the
    number of the guide's line before its first."""
    lines = (GUIDE.read_text() if text is None else text).splitlines()
    start = lines.index(HEADING)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end], start


def guide_steps(text: str | None = None) -> list[Step]:
    """Returns every step of the club guide's fenced blocks, in order; refuses a block it cannot place."""
    lines, offset = guide_section(text)
    steps: list[Step] = []
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if match is None:
            index += 1
            continue
        info, start = match.group(1).strip(), index + 1
        end = next(i for i in range(start, len(lines)) if lines[i] == "```")
        steps += _block_steps(info, lines[start:end], offset + start + 1)
        index = end + 1
    return steps


def _block_steps(info: str, body: list[str], line: int) -> list[Step]:
    kind = info.split(" ", 1)[0] if info.startswith("text") else info
    if kind not in KINDS:
        raise ValueError(f"guide line {line - 1}: a block marked {info!r}; mark it one of {', '.join(KINDS)}")
    if kind == "text":
        path = info.removeprefix("text").strip()
        doers = [text for text in body if text.split(" ", 1)[0] in COMMANDS]
        if not path or doers:
            raise ValueError(f"guide line {line - 1}: a text block is a named file's content, not {doers}")
        return [Step("file", "\n".join(body) + "\n", line, path)]
    who = kind.removeprefix("sh ")
    return [Step(who, text, at) for text, at in joined_commands(body, line)]


def joined_commands(body: list[str], line: int) -> list[tuple[str, int]]:
    """Returns a block's commands with their guide lines: continuation lines joined, blank lines and whole
    comment lines left out."""
    commands: list[tuple[str, int]] = []
    pending, start = "", line
    for number, text in enumerate(body, start=line):
        if not pending:
            start = number
            if not text.strip() or text.lstrip().startswith("#"):
                continue
        if text.endswith("\\"):
            pending += text[:-1].strip() + " "
            continue
        commands.append((pending + text.strip(), start))
        pending = ""
    assert not pending, f"guide line {start}: a command ends in a continuation"
    return commands


# --- the unit file ------------------------------------------------------------------------------------


@dataclass
class Unit:
    """A systemd unit file read as systemd reads it: sections of keys, each key with its values in order
    (a key may be given more than once), continuation lines joined."""

    sections: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def values(self, section: str, key: str) -> list[str]:
        """Returns every value a key has in a section, in order."""
        return [value for name, value in self.sections.get(section, []) if name == key]

    def value(self, section: str, key: str) -> str:
        """Returns the one value of a key given once."""
        found = self.values(section, key)
        assert len(found) == 1, f"[{section}] {key} is given {len(found)} times"
        return found[0]


def read_unit(text: str) -> Unit:
    """Reads a unit file's text; refuses a line that is no section, key, comment or blank."""
    unit = Unit()
    section = ""
    logical: list[str] = []
    for raw in text.splitlines():
        if not logical and (not raw.strip() or raw.lstrip().startswith(("#", ";"))):
            continue
        if raw.endswith("\\"):
            logical.append(raw[:-1].strip())
            continue
        line = " ".join([*logical, raw.strip()])
        logical = []
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            unit.sections.setdefault(section, [])
            continue
        key, sep, value = line.partition("=")
        if not sep or not section or not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", key.strip()):
            raise ValueError(f"not a unit file line: {line!r}")
        unit.sections[section].append((key.strip(), value.strip()))
    assert not logical, "the unit file ends in a continuation"
    return unit


def environment_file(text: str) -> dict[str, str]:
    """Reads an EnvironmentFile as systemd does for the simple lines the guide writes: KEY=VALUE, the
    value in single or double quotes or bare; comments and blank lines skipped."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith(("#", ";")):
            continue
        key, sep, value = line.partition("=")
        assert sep and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key), f"not an environment line: {line!r}"
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        found[key] = value
    return found
