"""Readers on hot standbys: a `--db` URL naming a primary and its standbys (libpq's own multi-host syntax,
with or without `target_session_attrs`) sends the commands that only read to a standby and the others to
the primary; a read on a standby that is behind says how far, and never shows part of an action.

The servers are real: a primary and a standby made from it by `pg_basebackup -R`, streaming on 127.0.0.1
(`tests.pg_server.postgres_pair`). Which node ran a command is read from the servers' own logs (every
statement is logged there), not from nightkeep's word for it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.errors import UsageError
from event_store.app.service import GameService
from event_store.config import TARGET_SESSION_ATTRS, pg_settings, session_attrs

ROOT = Path(__file__).resolve().parents[2]

# --- The URL: libpq's syntax, parsed without a server ----------------------------------------------------


def test_several_hosts_become_libpqs_host_and_port_lists():
    settings = pg_settings("postgresql://me:pw@db1:5432,db2:5433,[::1]/games?schema=club")
    assert settings["POSTGRES_HOST"] == "db1,db2,::1"
    assert settings["POSTGRES_PORT"] == "5432,5433,5432"  # a host without a port is on the default one
    assert (settings["POSTGRES_USER"], settings["POSTGRES_PASSWORD"]) == ("me", "pw")
    assert (settings["POSTGRES_DBNAME"], settings["POSTGRES_SCHEMA"]) == ("games", "club")


def test_hosts_without_ports_share_one_port_as_in_libpq(monkeypatch):
    monkeypatch.setenv("POSTGRES_PORT", "6432")
    settings = pg_settings("postgresql://me@db1,db2/games")
    assert (settings["POSTGRES_HOST"], settings["POSTGRES_PORT"]) == ("db1,db2", "6432")


def test_target_session_attrs_is_taken_as_libpq_spells_it():
    url = "postgresql://me@db1,db2/games?target_session_attrs=read-write"
    assert pg_settings(url)[TARGET_SESSION_ATTRS] == "read-write"


@pytest.mark.parametrize(
    ("url", "words"),
    [
        (
            "postgresql://me@db1,db2/games?target_session_attrs=standby-please",
            "is not one of any, read-write",
        ),
        ("postgresql://me@db1,db2/games?sslmode=off", "unknown URL option 'sslmode'"),
        ("postgresql://me@db1:5432,db2:nope/games", "not a PostgreSQL URL"),
        ("postgresql://me@db1,,db2/games", "not a PostgreSQL URL"),
        ("postgresql://db1,db2/games", "no user"),
    ],
)
def test_a_multi_host_url_that_cannot_be_used_is_one_line(url, words):
    with pytest.raises(UsageError, match=re.escape(words)):
        pg_settings(url)


@pytest.mark.parametrize(
    ("query", "reads_only", "mode"),
    [
        ("", True, "prefer-standby"),  # several hosts, no mode: a read prefers a standby...
        ("", False, "read-write"),  # ...and a write needs the primary
        ("?target_session_attrs=standby", True, "standby"),  # the URL's own mode wins
        ("?target_session_attrs=any", False, "any"),
    ],
)
def test_reads_go_to_a_standby_and_writes_to_the_primary_unless_the_url_says(query, reads_only, mode):
    settings = pg_settings(f"postgresql://me@db1,db2/games{query}")
    assert session_attrs(settings, reads_only) == mode


def test_the_mode_may_come_from_the_environment_as_the_librarys_variables_do(monkeypatch):
    monkeypatch.setenv(TARGET_SESSION_ATTRS, "standby")
    assert session_attrs(pg_settings("postgresql://me@db1,db2/games"), reads_only=False) == "standby"
    assert pg_settings("postgresql://me@db1/games?target_session_attrs=any")[TARGET_SESSION_ATTRS] == "any"
    monkeypatch.setenv(TARGET_SESSION_ATTRS, "whichever")
    with pytest.raises(UsageError, match="'whichever' is not one of"):
        pg_settings("postgresql://me@db1/games")


def test_one_host_keeps_libpqs_default():
    settings = pg_settings("postgresql://me@db1/games")
    assert session_attrs(settings, reads_only=True) == session_attrs(settings, reads_only=False) == ""


def test_a_multi_host_urls_password_is_never_printed():
    result = CliRunner().invoke(
        cli, ["--db", "postgresql://me:hunter2@db1,db2/games?colour=red", "show", "ab"]
    )
    assert result.exit_code == 2 and "hunter2" not in result.output and ":***@" in result.stderr


# --- A real primary and standby ---------------------------------------------------------------------------


def run(url: str, *args: str):
    return CliRunner().invoke(cli, ["--db", url, *args])


def act_once(url: str, game_id: str):
    """Takes the game's first legal action by the CLI (whatever the dice made legal)."""
    listed = run(url, "actions", game_id, "--json")
    assert listed.exit_code == 0, listed.output
    action = json.loads(listed.stdout)[0]
    return run(url, "act", game_id, action["id"], "--as", action["player"], "--json")


def statements(logged: str) -> list[str]:
    """Returns the statements a server logged (log_statement=all), one per entry."""
    return re.findall(r"LOG:  (?:statement|execute [^:]*): (.*)", logged)


class Ran:
    """What each node of the pair ran while a command ran (read from the servers' logs)."""

    def __init__(self, pair) -> None:
        self._pair = pair
        self._sizes = (pair.primary.log_size(), pair.standby.log_size())

    def __enter__(self) -> Ran:
        return self

    def __exit__(self, *exc: object) -> None:
        self.primary = statements(self._pair.primary.logged_since(self._sizes[0]))
        self.standby = statements(self._pair.standby.logged_since(self._sizes[1]))


@pytest.fixture(scope="module")
def game(postgres_pair):
    """A game on the pair (made through the multi-host URL, so on the primary), a few actions in, and
    the URL of its store; the standby has caught up."""
    url = postgres_pair.url("?schema=standby_reads")
    made = run(url, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json")
    assert made.exit_code == 0, made.output
    game_id = json.loads(made.stdout)["game"]
    for _ in range(3):
        assert act_once(url, game_id).exit_code == 0
    assert run(url, "projections", "run", "--once").exit_code == 0
    postgres_pair.wait_caught_up()
    return url, game_id


READS = {
    "show": ["show", "{game}"],
    "show --json": ["show", "{game}", "--json"],
    "log": ["log", "{game}", "--json"],
    "replay": ["replay", "{game}", "--to", "5"],
    "audit": ["audit", "{game}", "--json"],
    "export": ["export", "{game}", "-o", "{tmp}/copy.nkr"],
    "export --html": ["export", "{game}", "--html", "{tmp}/copy.html"],
    "projections show": ["projections", "show", "--json"],
}


@pytest.mark.parametrize("command", list(READS))
def test_a_read_only_command_runs_on_the_standby(postgres_pair, game, command, tmp_path):
    url, game_id = game
    args = [arg.format(game=game_id, tmp=tmp_path) for arg in READS[command]]
    with Ran(postgres_pair) as ran:
        result = run(url, *args)
    assert result.exit_code == 0, result.output
    # It read the store there (`projections show` reads the views and the games' heads, not the events).
    assert any("nightkeep_" in statement for statement in ran.standby), ran.standby
    assert ran.primary == []  # the primary was tried first (it is first in the URL) and ran nothing
    if "--json" in args:  # the standby it read, said to machines on stderr; caught up, so 0 behind
        said = json.loads(result.stderr.strip().splitlines()[-1])
        assert said["standby"] is True and said["behind_bytes"] == 0


# What a read must never send, even to a primary.
WRITES = re.compile(r"(INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|TRUNCATE|LOCK|NOTIFY|COPY)\b", re.IGNORECASE)


@pytest.mark.parametrize("command", list(READS))
def test_a_read_only_command_writes_nothing_even_on_the_primary(postgres_pair, game, command, tmp_path):
    url, game_id = game
    primary = postgres_pair.primary.server
    on_primary = re.sub(r"@[^/]*/", f"@{primary.host}:{primary.port}/", url)
    args = [arg.format(game=game_id, tmp=tmp_path) for arg in READS[command]]
    with Ran(postgres_pair) as ran:
        result = run(on_primary, *args)
    assert result.exit_code == 0, result.output
    assert any("nightkeep_" in statement for statement in ran.primary)
    assert [statement for statement in ran.primary if WRITES.match(statement.strip())] == []


def test_games_runs_on_the_standby(postgres_pair, game):
    url, game_id = game
    with Ran(postgres_pair) as ran:
        result = run(url, "games", "--json")
    assert result.exit_code == 0, result.output
    assert game_id in result.stdout and ran.primary == []


def test_serve_reads_the_standby(postgres_pair, game):
    # The pages of a game and its replay file.
    url, game_id = game
    with Ran(postgres_pair) as ran:
        process = subprocess.Popen(
            [sys.executable, "-m", "nightkeep", "--db", url, "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "NO_PROXY": "127.0.0.1"},
        )
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            found = re.search(r"http://127\.0\.0\.1:\d+/", line)
            assert found, line + (process.stderr.read() if process.stderr else "")
            opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            for page in (f"games/{game_id}", f"games/{game_id}.nkr"):
                with opener.open(found.group(0) + page) as response:
                    assert response.status == 200 and response.read()
        finally:
            process.terminate()
            process.wait()
    assert any("nightkeep_events" in statement for statement in ran.standby)
    assert ran.primary == []


def test_a_write_goes_to_the_primary(postgres_pair, game):
    url, game_id = game
    listed = json.loads(run(url, "actions", game_id, "--json").stdout)[0]
    with Ran(postgres_pair) as ran:
        result = run(url, "act", game_id, listed["id"], "--as", listed["player"], "--json")
    assert result.exit_code == 0, result.output
    assert any("INSERT INTO" in statement for statement in ran.primary)
    assert ran.standby == []  # the primary is first in the URL and takes writes: the standby is not asked
    postgres_pair.wait_caught_up()


def test_a_write_on_a_url_that_demands_a_standby_is_one_line(postgres_pair, game):
    url, game_id = game
    listed = json.loads(run(url, "actions", game_id, "--json").stdout)[0]
    result = run(
        f"{url}&target_session_attrs=standby", "act", game_id, listed["id"], "--as", listed["player"]
    )
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: cannot write to the store: the server is a read-only standby")
    assert len(result.stderr.strip().splitlines()) == 1


def version_of(url: str, game_id: str) -> tuple[int, str, str]:
    """Returns a game's version by `show --json` on the URL, its stderr, and its board as shown."""
    result = run(url, "show", game_id, "--json")
    assert result.exit_code == 0, result.output
    shown = run(url, "show", game_id)
    return json.loads(result.stdout)["version"], shown.stderr, shown.stdout


def test_a_lagging_standby_says_how_far_behind_and_shows_the_old_position_whole(postgres_pair, game):
    url, game_id = game
    before, said, board_before = version_of(url, game_id)
    assert said == ""  # caught up: nothing said
    postgres_pair.standby.sql("SELECT pg_wal_replay_pause()")
    try:
        acted = act_once(url, game_id)
        assert acted.exit_code == 0, acted.output
        after = json.loads(acted.stdout)["version"]
        postgres_pair.wait_received()  # it holds the action, not yet applied
        behind = run(url, "show", game_id, "--json")
        lagging, said, board = version_of(url, game_id)
    finally:
        postgres_pair.standby.sql("SELECT pg_wal_replay_resume()")
    assert lagging == before < after  # the old position, whole
    assert board == board_before
    assert re.fullmatch(r"reading a standby \d+\.\d s behind the primary \(its replay is paused\)\n", said)
    lag = json.loads(behind.stderr.strip().splitlines()[-1])
    assert lag["behind_bytes"] > 0 and lag["behind_seconds"] > 0 and lag["replay_paused"] is True
    postgres_pair.wait_caught_up()
    caught_up, said, _ = version_of(url, game_id)
    assert (caught_up, said) == (after, "")


def test_a_standby_shows_only_whole_actions_live_and_catching_up(postgres_pair, game):
    # Each action is one save, one transaction, and a standby applies whole transactions: however the
    # reads fall, as it streams actions live and as it replays a backlog of them, each read sees the game
    # at an action's end (and the chain checks: no event is missing inside).
    url, _ = game
    made = run(url, "new", "keep-run", "--player", "Ann", "--player", "Bo", "--json")
    uuid = UUID(json.loads(made.stdout)["game"])
    writer, reader = GameService.open(url), GameService.open(url, reads_only=True)
    seen: list[int] = []
    done = threading.Event()

    def read_all_along() -> None:
        while not done.is_set():
            seen.append(reader.verified_events(uuid)[-1].version)

    def take(actions: int) -> None:
        for _ in range(actions):
            if legal := writer.legal_actions(uuid):
                ends.add(writer.act(uuid, legal[0].id, player=legal[0].player).version)

    reading = threading.Thread(target=read_all_along)
    try:
        ends = {writer.head(uuid)[0]}
        postgres_pair.wait_caught_up()
        reading.start()
        take(8)  # live
        postgres_pair.standby.sql("SELECT pg_wal_replay_pause()")
        try:
            take(8)  # a backlog, replayed at once below while the reads go on
        finally:
            postgres_pair.standby.sql("SELECT pg_wal_replay_resume()")
        postgres_pair.wait_caught_up()
        done.set()
        reading.join()
        assert len(ends) > 10 and len(set(seen)) > 2 and set(seen) <= ends, sorted(set(seen) - ends)
        assert reader.verified_events(uuid)[-1].version == max(ends)
    finally:
        done.set()
        if reading.is_alive():
            reading.join()
        writer.close()
        reader.close()


def test_a_command_on_a_store_whose_standby_is_down(postgres_pair, game):
    # Last in this module: it stops the standby (and starts it again).
    url, game_id = game
    subprocess.run(postgres_pair.standby.stop, check=True, capture_output=True)
    try:
        with Ran(postgres_pair) as ran:
            result = run(url, "show", game_id)
        assert result.exit_code == 0 and result.stderr == ""  # prefer-standby: the primary answers
        assert any("nightkeep_" in statement for statement in ran.primary)
        demanding = run(
            url.replace("nightkeep@", "nightkeep:hunter2@") + "&target_session_attrs=standby", "show", game_id
        )
        assert demanding.exit_code == 3 and demanding.stdout == ""
        error = demanding.stderr.strip()
        assert len(error.splitlines()) == 1 and "hunter2" not in error
        primary, standby = postgres_pair.primary.server, postgres_pair.standby.server
        assert error.startswith(f"Error: cannot open the PostgreSQL store {primary.host}:{primary.port},")
        assert "is not in hot standby mode" in error and f":{standby.port} " in error
    finally:
        subprocess.run(postgres_pair.standby.start, check=True, capture_output=True)
        postgres_pair.wait_caught_up()
    assert run(url, "show", game_id).exit_code == 0


def test_the_pair_is_made_as_the_docs_say(postgres_pair):
    standby_data = Path(str(postgres_pair.standby.start[postgres_pair.standby.start.index("-D") + 1]))
    assert (standby_data / "standby.signal").exists()  # written by pg_basebackup -R
    assert "primary_conninfo" in (standby_data / "postgresql.auto.conf").read_text()
    assert postgres_pair.standby.sql("SELECT pg_is_in_recovery()") is True
    assert postgres_pair.primary.sql("SELECT pg_is_in_recovery()") is False
