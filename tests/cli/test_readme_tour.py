"""Every example of README.md's "A tour of the CLI" runs as written against a temporary store.

The block is parsed, not copied, so later edits to the README are checked too: each line is one
`nightkeep …` command (a line ending in a backslash goes on), a `# …` comment may say the exit the
command ends with ("exit 2"; otherwise 0 is expected), and the placeholders are filled in:

- `GAME`: a game of the tour's own (those its `new` lines printed, then a game bots have finished),
  the first on which the command ends with the exit expected (a refused command stores nothing, so
  trying a game that does not fit changes nothing); it is given by its first 8 hex digits;
- `N` after `--at` of `fork`: an action boundary of that game;
- a `.nkr` file read before the tour wrote it: an export of the finished game; a file the command
  writes with `-o` is removed first, so the example never depends on overwriting;
- `…`: "and more", dropped.
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
    """One example of the tour: its arguments after `nightkeep`, the exit it states, the line itself."""

    args: list[str]
    exit_code: int
    text: str


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
        args = [a for a in shlex.split(command) if a != "…"]
        assert args[0] == "nightkeep", line
        stated = re.search(r"\bexit (\d)\b", " ".join(comment))
        lines.append(TourLine(args[1:], int(stated.group(1)) if stated else 0, line))
    return lines


class Tour:
    """The temporary store the tour runs in, the games it may name and the files it has made."""

    def __init__(self, tmp_path: Path, db: str) -> None:
        self.dir = tmp_path
        self.db = db
        self.games: list[UUID] = []
        self.finished: UUID | None = None

    def invoke(self, args: list[str]) -> Result:
        return CliRunner().invoke(cli, args, env={"NIGHTKEEP_DB": self.db})

    def finish_a_game(self) -> UUID:
        """Plays a dungeon game to its end with bots: the game every command can be shown on."""
        made = self.invoke(["new", "dungeon-short", "--player", "Ann", "--player", "Bo"])
        game_id = UUID(made.stdout.strip())
        assert self.invoke(["play", str(game_id), "--bots"]).exit_code == 0
        return game_id

    def fill_in(self, args: list[str], game: UUID | None) -> list[str]:
        """Returns the arguments with GAME, fork's N and missing input files made real."""
        filled = []
        for index, arg in enumerate(args):
            before = args[index - 1] if index else ""
            if arg == "GAME" and game is not None:
                arg = game.hex[:8]
            elif arg == "N" and before == "--at" and game is not None:
                service = GameService.open(self.db)
                boundaries = action_boundaries(service.recorded_events(game))
                arg = str(boundaries[len(boundaries) // 2])
            elif arg.endswith(".nkr"):
                arg = self._file(arg, written=before in ("-o", "--output"))
            filled.append(arg)
        return filled

    def _file(self, name: str, written: bool) -> str:
        path = self.dir / name
        if written:
            path.unlink(missing_ok=True)
        elif not path.exists():
            assert self.finished is not None
            exported = self.invoke(["export", str(self.finished), "-o", str(path)])
            assert exported.exit_code == 0, exported.output
        return str(path)

    def run(self, line: TourLine) -> tuple[Result, list[str]]:
        """Runs one example on the first game it fits (or once, when it names no game)."""
        candidates: list[UUID | None] = [*self.games, self.finished] if "GAME" in line.args else [None]
        tried = []
        for game in candidates:
            args = self.fill_in(line.args, game)
            result = self.invoke(args)
            tried.append(f"{args}: exit {result.exit_code}: {result.output.strip()[-300:]}")
            # A stated refusal must be the command's own, not click rejecting a renamed option.
            if result.exit_code == line.exit_code and not (line.exit_code and USAGE.search(result.output)):
                return result, tried
        raise AssertionError(f"{line.text!r} never exited {line.exit_code}:\n" + "\n".join(tried))


# What click says when it, not the command, refuses a line (an option or argument the CLI lacks).
USAGE = re.compile(r"No such option|no command '|Missing argument|Got unexpected extra|Invalid value")


def test_the_tour_block_is_found_and_holds_the_main_commands():
    lines = tour_lines(README.read_text(encoding="utf-8"))
    commands = {line.args[0] for line in lines}
    assert {"new", "actions", "act", "show", "log", "replay", "play", "fork", "audit", "demo"} <= commands


def test_a_stated_exit_and_continuation_lines_are_read():
    text = f"{HEADING}\n\n```sh\n# a note\nnightkeep play GAME \\\n  --bot Bo   # no terminal: exit 2\n```\n"
    (line,) = tour_lines(text)
    assert line.args == ["play", "GAME", "--bot", "Bo"] and line.exit_code == 2


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
    tour.finished = tour.finish_a_game()
    for line in tour_lines(README.read_text(encoding="utf-8")):
        if store_kind != "sqlite" and line.args[0] in STORELESS:
            continue
        result, _ = tour.run(line)
        if line.args[0] == "new":
            tour.games.append(UUID(UUID_TEXT.search(result.stdout).group(0)))
        if result.exit_code:
            assert len(result.stderr.strip().splitlines()) == 1, (line.text, result.stderr)
