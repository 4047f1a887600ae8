"""Every line of README.md's "A tour of the CLI" runs as written, in order, against a temporary store.

The block is parsed, not copied, so later edits to the README are checked too: each line is one
`nightkeep …` command (a line ending in a backslash goes on), a `# …` comment may say the exit the
command ends with ("exit 2"; otherwise 0 is expected). What a shell would do is done:

- `NAME=$(nightkeep …)` keeps what the command printed (a game's id, and nothing else) in `$NAME`,
  and a later `$NAME` is that id; a variable used before a line sets it fails the tour;
- `… > FILE` writes the command's stdout to FILE;
- a file the command writes with `-o` is removed first, so the example never depends on overwriting;
  a `.nkr` file it reads must be one an earlier line wrote.

Each line runs once, on the game it names: no game from outside the tour stands in, and no other
game of the tour is tried (issue 30: `show GAME --at 20` was let try every game, and a long bot game
standing in hid that the tour's own game had 15 events). Only `N` after `--at` of `fork` is filled in
by the test: an action boundary of that line's game, as the comment asks of the reader. `…` ("and
more") is dropped.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from event_store.app.forks import action_boundaries
from event_store.app.service import GameService

pytestmark = pytest.mark.slow  # a long CLI tour: every example of the README, in order

README = Path(__file__).resolve().parents[2] / "README.md"
HEADING = "## A tour of the CLI"
UUID_TEXT = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")


@dataclass
class TourLine:
    """One line of the tour: its arguments after `nightkeep`, the exit it states, the variable it sets
    (`NAME=$(…)`) and the file its stdout goes to (`> FILE`), and the line itself."""

    args: list[str]
    exit_code: int
    text: str
    sets: str = ""
    stdout_to: str = ""


ASSIGNED = re.compile(r"([A-Za-z_]\w*)=\$\((.*)\)")


def tour_lines(markdown: str) -> list[TourLine]:
    """Returns the tour's commands from the first fenced block after its heading."""
    section = markdown.split(HEADING, 1)[1]
    block = re.search(r"```[\w-]*\n(.*?)```", section, re.S)
    assert block, "the tour has no code block"
    text = re.sub(r"\\\n\s*", " ", block.group(1))  # continuation lines
    lines = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        command, *comment = re.split(r"\s+#(?:\s|$)", line, maxsplit=1)
        assigned = ASSIGNED.fullmatch(command.strip())
        sets, command = assigned.groups() if assigned else ("", command)
        args = [a for a in shlex.split(command) if a != "…"]
        stdout_to = ""
        if ">" in args:
            at = args.index(">")
            args, stdout_to = args[:at], args[at + 1]
        assert args[0] == "nightkeep", line
        stated = re.search(r"\bexit (\d)\b", " ".join(comment))
        lines.append(TourLine(args[1:], int(stated.group(1)) if stated else 0, line, sets, stdout_to))
    return lines


class Tour:
    """The temporary store the tour runs in and the variables its lines have set."""

    def __init__(self, tmp_path: Path, db: str) -> None:
        self.dir = tmp_path
        self.db = db
        self.variables: dict[str, str] = {}

    def invoke(self, args: list[str]) -> Result:
        return CliRunner().invoke(cli, args, env={"NIGHTKEEP_DB": self.db})

    def fill_in(self, line: TourLine) -> list[str]:
        """Returns the line's arguments with its variables, fork's N and its files made real."""
        args = [self._value(arg, line) for arg in line.args]
        filled = []
        for index, arg in enumerate(args):
            before = args[index - 1] if index else ""
            if arg == "N" and before == "--at" and line.args[0] == "fork":
                game = UUID(next(a for a in args if UUID_TEXT.fullmatch(a)))
                boundaries = action_boundaries(GameService.open(self.db).recorded_events(game))
                arg = str(boundaries[len(boundaries) // 2])
            elif arg.endswith(".nkr"):
                arg = self._file(arg, written=before in ("-o", "--output"))
            filled.append(arg)
        return filled

    def _value(self, arg: str, line: TourLine) -> str:
        if not arg.startswith("$"):
            return arg
        assert arg[1:] in self.variables, f"{line.text!r} uses {arg} before a line of the tour sets it"
        return self.variables[arg[1:]]

    def _file(self, name: str, written: bool) -> str:
        path = self.dir / name
        if written:
            path.unlink(missing_ok=True)
        else:
            assert path.exists(), f"the tour reads {name} before a line of it writes the file"
        return str(path)

    def run(self, line: TourLine) -> Result:
        """Runs one line as a shell would, and checks it ends as it says."""
        args = self.fill_in(line)
        if line.stdout_to:
            (self.dir / line.stdout_to).unlink(missing_ok=True)
        result = self.invoke(args)
        told = f"{line.text!r} as {args}: exit {result.exit_code}: {result.output.strip()[-600:]}"
        assert result.exit_code == line.exit_code, told
        # A stated refusal must be the command's own, not click rejecting a renamed option.
        assert not (line.exit_code and USAGE.search(result.output)), told
        if result.exit_code:
            assert len(result.stderr.strip().splitlines()) == 1, told
        if line.sets:
            printed = result.stdout.strip()
            assert UUID_TEXT.fullmatch(printed), f"{line.text!r} printed more than an id: {printed!r}"
            self.variables[line.sets] = printed
        if line.stdout_to:
            (self.dir / line.stdout_to).write_bytes(result.stdout_bytes)
        return result


# What click says when it, not the command, refuses a line (an option or argument the CLI lacks).
USAGE = re.compile(r"No such option|no command '|Missing argument|Got unexpected extra|Invalid value")


def test_the_tour_block_is_found_and_holds_the_main_commands():
    lines = tour_lines(README.read_text(encoding="utf-8"))
    commands = {line.args[0] for line in lines}
    assert {"new", "actions", "act", "show", "log", "replay", "play", "fork", "audit", "demo"} <= commands


def test_a_stated_exit_and_continuation_lines_are_read():
    text = f"{HEADING}\n\n```sh\n# a note\nnightkeep play $GAME \\\n  --bot Bo   # no terminal: exit 2\n```\n"
    (line,) = tour_lines(text)
    assert line.args == ["play", "$GAME", "--bot", "Bo"] and line.exit_code == 2


def test_a_variable_set_and_a_redirect_are_read():
    text = (
        f"{HEADING}\n\n```sh\nGAME=$(nightkeep new toy-race --player A --player B)   # its id\n"
        "nightkeep export $GAME -o - > copy.nkr   # the bytes\n```\n"
    )
    made, exported = tour_lines(text)
    assert (made.sets, made.args) == ("GAME", ["new", "toy-race", "--player", "A", "--player", "B"])
    assert (exported.args, exported.stdout_to) == (["export", "$GAME", "-o", "-"], "copy.nkr")


def test_a_game_the_tour_did_not_make_is_never_tried(tmp_path):
    """Issue 30: the tour's `show GAME --at 20` passed on a long game made outside the tour."""
    tour = Tour(tmp_path, str(tmp_path / "tour.sqlite"))
    text = (
        f"{HEADING}\n\n```sh\nGAME=$(nightkeep new dungeon-short --player Ann --player Bo)   # its id\n"
        "nightkeep show $GAME --at 20   # too far for a game just made\n```\n"
    )
    made, shown = tour_lines(text)
    tour.run(made)
    with pytest.raises(AssertionError, match="exit 2"):
        tour.run(shown)


# Commands that never open the store (`simulate` plays in memory): run once, in the SQLite run, since
# they do the same on either store and `simulate talisman --games 20` alone takes most of a minute.
STORELESS = {"simulate"}


@pytest.fixture(params=("sqlite", "postgresql", "citus"))
def store_kind(request):
    """The tour runs on every store: every command of the CLI on SQLite, PostgreSQL and Citus."""
    return request.param


def test_every_example_of_the_tour_runs_as_written(tmp_path, db, store_kind, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tour = Tour(tmp_path, db)
    for line in tour_lines(README.read_text(encoding="utf-8")):
        if store_kind != "sqlite" and line.args[0] in STORELESS:
            continue
        tour.run(line)
