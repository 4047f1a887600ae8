"""A real PostgreSQL server for the storage tests, on 127.0.0.1 only, started once per test session from
the distribution's package (installed by `.ci/run`), in a temporary directory; or the server that
NIGHTKEEP_TEST_PG names (a `postgresql://` URL of a user who may create schemas and databases).
`postgres_pair` is a primary and a streaming hot standby made from it by `pg_basebackup -R` (always started
here: a standby needs the server's programs on this machine).

Each test store is a schema of its own in the server's `nightkeep` database (`fresh_url`), so tests do
not see each other's games and need no server of their own. A missing server fails the tests that need
it: it is never a skip.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.mail_servers import HOST, free_port

URL_ENV = "NIGHTKEEP_TEST_PG"
USER = "nightkeep"
DATABASE = "nightkeep"
# The server runs as this user when the tests run as root (PostgreSQL refuses to run as root); the
# distribution's package creates it.
SERVER_USER = "postgres"
STARTUP_SECONDS = 30.0
_counter = itertools.count(1)


@dataclass
class PostgresServer:
    """A running server: its base URL (no database) and how to make stores on it."""

    host: str
    port: int
    user: str = USER
    password: str = ""

    def url(self, database: str = DATABASE, schema: str = "") -> str:
        """Returns the URL of a database (and schema) on the server."""
        auth = self.user + (f":{self.password}" if self.password else "")
        query = f"?schema={schema}" if schema else ""
        return f"postgresql://{auth}@{self.host}:{self.port}/{database}{query}"

    def fresh_url(self, name: str = "store") -> str:
        """Returns the URL of a new, empty store: a schema of its own in the test database."""
        label = "".join(ch if ch.isalnum() else "_" for ch in name.lower())[:30]
        return self.url(schema=f"t{next(_counter)}_{os.getpid()}_{label}")

    def create_database(self, name: str) -> str:
        """Creates a database on the server (for tests that need a whole one); returns its URL."""
        import psycopg

        with psycopg.connect(self.url("postgres").split("?")[0], autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def binaries() -> Path:
    """Returns the folder of the newest installed PostgreSQL server's programs, or fails the test."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if not found:
        pytest.fail(
            "PostgreSQL is not installed (apt-get install postgresql, as .ci/run does), "
            f"and {URL_ENV} names no server",
            pytrace=False,
        )
    return Path(found[-1]).parent


def _as_server_user() -> list[str]:
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam(SERVER_USER)
    except KeyError:
        pytest.fail(
            f"the PostgreSQL fixture runs the server as {SERVER_USER!r}, who does not exist", pytrace=False
        )
    return ["runuser", "-u", SERVER_USER, "--"]


def start_server(
    replication: bool = False, folder: Path | None = None
) -> tuple[PostgresServer, Path, list[str]]:
    """Initialises a cluster in a temporary directory and starts it on a free port of 127.0.0.1 (with
    `replication`, as a primary that standbys on 127.0.0.1 may stream from)."""
    bin_dir = binaries()
    prefix = _as_server_user()
    folder = folder or _server_folder(prefix)
    data = folder / "data"
    subprocess.run(
        [
            *prefix,
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-U",
            USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--locale=C",
        ],
        check=True,
        capture_output=True,
    )
    if replication:
        # initdb's own pg_hba.conf may already allow it; said here so the set-up is complete as written.
        with open(data / "pg_hba.conf", "a") as hba:
            hba.write(f"host replication {USER} {HOST}/32 trust\n")
    port = free_port()
    options = _options(port, folder)
    if replication:
        # Every statement is logged, so a test can tell which node ran a command's reads.
        options += " -c wal_level=replica -c max_wal_senders=4 -c log_statement=all"
    server = PostgresServer(HOST, port)
    stop = _pg_ctl_start(bin_dir, prefix, data, options, folder / "log")
    _wait_and_create(server)
    return server, folder, stop


def _options(port: int, folder: Path) -> str:
    """Returns a test server's settings (a standby needs at least its primary's max_connections)."""
    # Durability settings are off: these servers hold test data only (the benchmark's server keeps them).
    return (
        f"-c listen_addresses={HOST} -p {port} -k {folder} -c max_connections=400 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c shared_buffers=128MB"
    )


def _server_folder(prefix: list[str]) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="nightkeep-pg-"))
    if prefix:
        shutil.chown(folder, SERVER_USER)
    return folder


def _pg_ctl_start(bin_dir: Path, prefix: list[str], data: Path, options: str, log: Path) -> list[str]:
    """Starts a server on a data directory; returns the command that stops it."""
    pg_ctl = [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data)]
    subprocess.run(
        [*pg_ctl, "-o", options, "-l", str(log), "-w", "-t", str(int(STARTUP_SECONDS)), "start"],
        check=True,
        capture_output=True,
    )
    return [*pg_ctl, "-m", "immediate", "stop"]


@dataclass
class Node:
    """One server of a primary/standby pair: where it listens, its log, and how to stop and start it."""

    server: PostgresServer
    log: Path
    start: list[str]
    stop: list[str]

    def log_size(self) -> int:
        """Returns how long the server's log is now (to read what a command made it log since)."""
        return self.log.stat().st_size

    def logged_since(self, size: int) -> str:
        """Returns what the server logged after its log was `size` bytes long."""
        with open(self.log, "rb") as log:
            log.seek(size)
            return log.read().decode("utf-8", "replace")

    def sql(self, statement: str) -> object:
        """Runs one statement on this node (autocommit) and returns the first column of its first row."""
        import psycopg

        with psycopg.connect(self.server.url(), autocommit=True) as conn:
            row = conn.execute(statement).fetchone()
        return None if row is None else row[0]


@dataclass
class PostgresPair:
    """A primary and a hot standby streaming from it, each on its own port of 127.0.0.1."""

    primary: Node
    standby: Node

    def url(self, query: str = "") -> str:
        """Returns a multi-host URL naming the primary first, then the standby (libpq's syntax)."""
        p, s = self.primary.server, self.standby.server
        return f"postgresql://{USER}@{p.host}:{p.port},{s.host}:{s.port}/{DATABASE}{query}"

    def wait_caught_up(self) -> None:
        """Waits until the standby has replayed everything the primary has written."""
        self._wait_standby("pg_last_wal_replay_lsn()", "catch up with")

    def wait_received(self) -> None:
        """Waits until the standby has received everything the primary has written (replayed or not)."""
        self._wait_standby("pg_last_wal_receive_lsn()", "receive all of")

    def _wait_standby(self, position: str, what: str) -> None:
        # The insert position, not the write position: these servers commit asynchronously
        # (synchronous_commit=off), so a commit's WAL may not be written yet when the commit returns.
        target = self.primary.sql("SELECT pg_current_wal_insert_lsn()::text")
        deadline = time.monotonic() + STARTUP_SECONDS
        while not self.standby.sql(f"SELECT {position} >= '{target}'::pg_lsn"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the standby did not {what} the primary's changes")
            time.sleep(0.05)


def start_pair() -> tuple[PostgresPair, Path]:
    """Starts a primary and makes a standby of it with `pg_basebackup -R` (which writes standby.signal
    and primary_conninfo), started on another port."""
    bin_dir = binaries()
    prefix = _as_server_user()
    folder = _server_folder(prefix)
    for node in ("primary", "standby"):
        (folder / node).mkdir()
        if prefix:
            shutil.chown(folder / node, SERVER_USER)
    primary, _, primary_stop = start_server(replication=True, folder=folder / "primary")
    standby_data = folder / "standby" / "data"
    subprocess.run(
        [
            *prefix,
            str(bin_dir / "pg_basebackup"),
            *("-h", HOST, "-p", str(primary.port), "-U", USER),
            *("-D", str(standby_data), "-R", "-X", "stream", "--checkpoint=fast", "--no-sync"),
        ],
        check=True,
        capture_output=True,
    )
    port = free_port()
    options = _options(port, folder / "standby") + " -c log_statement=all"
    standby_log = folder / "standby" / "log"
    standby_stop = _pg_ctl_start(bin_dir, prefix, standby_data, options, standby_log)
    standby_start = [
        *prefix,
        *(str(bin_dir / "pg_ctl"), "-D", str(standby_data), "-o", options, "-l", str(standby_log)),
        *("-w", "-t", str(int(STARTUP_SECONDS)), "start"),
    ]
    primary_node = Node(primary, folder / "primary" / "log", [], primary_stop)
    standby = Node(PostgresServer(HOST, port), standby_log, standby_start, standby_stop)
    pair = PostgresPair(primary_node, standby)
    pair.wait_caught_up()
    return pair, folder


def _wait_and_create(server: PostgresServer) -> None:
    import psycopg

    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
                exists = conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", [DATABASE]).fetchone()
                if not exists:
                    conn.execute(f'CREATE DATABASE "{DATABASE}"')
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def server_from_env(url: str) -> PostgresServer:
    """Returns the server a NIGHTKEEP_TEST_PG URL names."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    server = PostgresServer(
        parts.hostname or HOST, parts.port or 5432, parts.username or USER, parts.password or ""
    )
    _wait_and_create(server)
    return server


@pytest.fixture(scope="session")
def postgres_server():
    """The session's PostgreSQL server (started on first use, stopped at the end)."""
    if os.environ.get(URL_ENV):
        yield server_from_env(os.environ[URL_ENV])
        return
    server, folder, stop = start_server()
    try:
        yield server
    finally:
        subprocess.run(stop, capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_pair():
    """The session's primary and streaming standby (started on first use, stopped at the end)."""
    pair, folder = start_pair()
    try:
        yield pair
    finally:
        for node in (pair.standby, pair.primary):
            subprocess.run(node.stop, capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)
