"""The load benchmarks' PostgreSQL servers: the distribution's package started in a temporary directory on
127.0.0.1 with its default durability (fsync, synchronous_commit and full_page_writes on), because the
benchmarks measure what a real host would see; or a server given by URL. Unlike the test servers
(`tests/pg_server.py`, `tests/citus_cluster.py`: durability off), nothing here is tuned for speed.
`durable_cluster()` is the same for a Citus coordinator and two workers (bench_citus.py).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.citus_cluster import DURABLE_MAX_CONNECTIONS, CitusCluster, start_cluster, stop_cluster
from tests.mail_servers import HOST, free_port
from tests.pg_server import DATABASE, USER, PostgresServer, _as_server_user, _wait_and_create, binaries

STARTUP_SECONDS = 30


@dataclass
class Server:
    """A server to benchmark on: its base URL (database, no schema) and what it is."""

    url: str
    kind: str  # "started here (durable defaults)" or "given by --pg-url"
    data: Path | None = None  # the cluster's folder, for a server started here

    def database_url(self, database: str, schema: str = "") -> str:
        """Returns the URL of another database (and a schema of it) on the same server."""
        parts = urlsplit(self.url)
        query = f"schema={schema}" if schema else ""
        return urlunsplit((parts.scheme, parts.netloc, f"/{database}", query, ""))

    def database(self) -> str:
        """Returns the name of the database the URL names."""
        return urlsplit(self.url).path.lstrip("/")

    def settings(self) -> dict[str, str]:
        """Returns the server's durability settings, as the server reports them."""
        import psycopg

        names = ("fsync", "synchronous_commit", "full_page_writes", "wal_level", "server_version")
        with psycopg.connect(self.url, autocommit=True) as conn:
            return {name: str(conn.execute(f"SHOW {name}").fetchone()[0]) for name in names}  # type: ignore[index]


@contextmanager
def durable_server() -> Iterator[Server]:
    """Starts a server with the distribution's default durability for the length of a run."""
    bin_dir = binaries()
    prefix = _as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="nightkeep-load-pg-"))
    if prefix:
        shutil.chown(folder, "postgres")
    data = folder / "data"
    initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8"]
    subprocess.run([*prefix, *initdb, "--locale=C"], check=True, capture_output=True)
    port = free_port()
    # Only where it listens and how many connections it takes differ from the package's defaults.
    options = f"-c listen_addresses={HOST} -p {port} -k {folder} -c max_connections={DURABLE_MAX_CONNECTIONS}"
    start = [str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log")]
    subprocess.run(
        [*prefix, *start, "-w", "-t", str(STARTUP_SECONDS), "start"], check=True, capture_output=True
    )
    stop = [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"]
    try:
        pg = PostgresServer(HOST, port)
        _wait_and_create(pg)
        yield Server(pg.url(DATABASE), "started here (durable defaults)", data)
    finally:
        subprocess.run(stop, capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def given_server(url: str) -> Iterator[Server]:
    """Uses a server given by URL (its schema, if any, is ignored: the benchmark makes its own)."""
    parts = urlsplit(url)
    yield Server(urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")), "given by --pg-url")


@contextmanager
def durable_cluster() -> Iterator[CitusCluster]:
    """Starts a Citus coordinator and two workers with the package's default durability (the same
    settings as durable_server's, plus what Citus needs) for the length of a run."""
    cluster, folder = start_cluster(durable=True)
    try:
        yield cluster
    finally:
        stop_cluster(cluster, folder)
