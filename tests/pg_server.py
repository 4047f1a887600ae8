"""A real PostgreSQL server for the storage tests, on 127.0.0.1 only, started once per test session from
the distribution's package (installed by `.ci/run`), in a temporary directory; or the server that
NIGHTKEEP_TEST_PG names (a `postgresql://` URL of a user who may create schemas and databases).

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


def start_server() -> tuple[PostgresServer, Path, list[str]]:
    """Initialises a cluster in a temporary directory and starts it on a free port of 127.0.0.1."""
    bin_dir = binaries()
    prefix = _as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="nightkeep-pg-"))
    if prefix:
        shutil.chown(folder, SERVER_USER)
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
    port = free_port()
    # Durability settings are off: these servers hold test data only (the benchmark's server keeps them).
    options = (
        f"-c listen_addresses={HOST} -p {port} -k {folder} -c max_connections=400 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c shared_buffers=128MB"
    )
    subprocess.run(
        [
            *prefix,
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(folder / "log"),
            "-w",
            "-t",
            str(int(STARTUP_SECONDS)),
            "start",
        ],
        check=True,
        capture_output=True,
    )
    server = PostgresServer(HOST, port)
    stop = [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]
    _wait_and_create(server)
    return server, folder, stop


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
