"""A real Citus cluster for the storage tests: a coordinator and two workers, three PostgreSQL servers of
the distribution's package with the Citus extension (built by `../shared/vendor/citus/build.sh`, which
`.ci/run` runs), each in a temporary directory on a port of 127.0.0.1; or the coordinator that
NIGHTKEEP_TEST_CITUS names (a `citus://` URL of a cluster made the same way).

Each test store is a schema of its own in the cluster's `nightkeep` database (`fresh_url`), as on the
PostgreSQL server of `tests.pg_server`. A missing Citus fails the tests that need it: it is never a skip.
Workers can be stopped and started again (`stop_worker`, `start_worker`) to test a worker lost mid-run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.mail_servers import HOST, free_port
from tests.pg_server import (
    DATABASE,
    STARTUP_SECONDS,
    USER,
    PostgresServer,
    _as_server_user,
    _counter,
    _wait_and_create,
    binaries,
)

URL_ENV = "NIGHTKEEP_TEST_CITUS"
CITUS_LIBRARY = "citus.so"
WORKERS = 2
# Client connections a benchmark node takes: as on the benchmarks' plain server (load_server.py).
DURABLE_MAX_CONNECTIONS = 200


@dataclass
class Node:
    """One server of the cluster: its port, data directory and how to start and stop it."""

    port: int
    data: Path
    log: Path
    prefix: list[str]
    options: str

    def pg_ctl(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [*self.prefix, str(binaries() / "pg_ctl"), "-D", str(self.data), *args],
            capture_output=True,
            check=False,
        )

    def start(self) -> None:
        ran = self.pg_ctl(
            "-o", self.options, "-l", str(self.log), "-w", "-t", str(int(STARTUP_SECONDS)), "start"
        )
        if ran.returncode != 0:
            raise RuntimeError(
                f"a Citus node did not start: {ran.stderr.decode()} {self.log.read_text()[-2000:]}"
            )

    def stop(self) -> None:
        self.pg_ctl("-m", "immediate", "stop")


@dataclass
class CitusCluster:
    """A running cluster: the coordinator's address, its workers, and how to make stores on it."""

    host: str
    port: int
    user: str = USER
    workers: list[Node] = field(default_factory=list)
    coordinator: Node | None = None

    def url(self, database: str = DATABASE, schema: str = "") -> str:
        """Returns the `citus://` URL of a database (and schema) on the coordinator."""
        query = f"?schema={schema}" if schema else ""
        return f"citus://{self.user}@{self.host}:{self.port}/{database}{query}"

    def fresh_url(self, name: str = "store") -> str:
        """Returns the URL of a new, empty store: a schema of its own in the cluster's database."""
        label = "".join(ch if ch.isalnum() else "_" for ch in name.lower())[:30]
        return self.url(schema=f"c{next(_counter)}_{os.getpid()}_{label}")

    def pg_url(self, port: int | None = None, database: str = DATABASE) -> str:
        """Returns a plain `postgresql://` URL of one node (the coordinator by default)."""
        return f"postgresql://{self.user}@{self.host}:{port or self.port}/{database}"

    def stop_worker(self, n: int) -> None:
        """Stops worker `n` at once (as a crash would)."""
        self.workers[n].stop()

    def start_worker(self, n: int) -> None:
        """Starts worker `n` again."""
        self.workers[n].start()


def _check_citus_installed(bin_dir: Path) -> None:
    lib = Path(
        subprocess.run(
            [str(bin_dir / "pg_config"), "--pkglibdir"], capture_output=True, text=True
        ).stdout.strip()
        or "/usr/lib/postgresql/15/lib"
    )
    if not (lib / CITUS_LIBRARY).exists():
        pytest.fail(
            f"Citus is not installed in {lib} (run ../shared/vendor/citus/build.sh, as .ci/run does), "
            f"and {URL_ENV} names no cluster",
            pytrace=False,
        )


def _init_node(folder: Path, name: str, prefix: list[str], durable: bool = False) -> Node:
    data = folder / name
    initdb = [str(binaries() / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8"]
    subprocess.run(
        [*prefix, *initdb, "--locale=C", *([] if durable else ["--no-sync"])], check=True, capture_output=True
    )
    port = free_port()
    # Citus needs its library loaded at start and prepared transactions (a write to several workers
    # commits in two phases); its own connections between nodes need room beyond the clients'.
    options = (
        f"-c listen_addresses={HOST} -p {port} -k {folder} -c shared_preload_libraries=citus "
        "-c max_prepared_transactions=300 "
    )
    if durable:
        # A benchmark's node: the package's default durability and memory, as on the benchmarks'
        # plain PostgreSQL server (benchmarks/load_server.py), which takes the same max_connections.
        options += f"-c max_connections={DURABLE_MAX_CONNECTIONS}"
    else:
        # Test data only: durability off, as on the PostgreSQL test server; Citus's background
        # maintenance is quiet.
        options += (
            "-c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c shared_buffers=64MB -c citus.max_client_connections=250"
        )
    return Node(port, data, folder / f"{name}.log", prefix, options)


def _sql(port: int, statements: list[str], database: str = DATABASE) -> None:
    import psycopg

    with psycopg.connect(f"postgresql://{USER}@{HOST}:{port}/{database}", autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def start_cluster(durable: bool = False) -> tuple[CitusCluster, Path]:
    """Initialises and starts a coordinator and two workers, and joins the workers to the coordinator.
    `durable` keeps the package's default durability (fsync, synchronous_commit and full_page_writes
    on) and memory, for benchmarks; the tests' cluster runs without them."""
    bin_dir = binaries()
    _check_citus_installed(bin_dir)
    prefix = _as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="nightkeep-citus-"))
    if prefix:
        shutil.chown(folder, "postgres")
    names = ("coordinator", *(f"worker{n}" for n in range(WORKERS)))
    nodes = [_init_node(folder, name, prefix, durable) for name in names]
    for node in nodes:
        node.start()
        _wait_and_create(PostgresServer(HOST, node.port))
        _sql(node.port, ["CREATE EXTENSION IF NOT EXISTS citus"])
    coordinator, *workers = nodes
    _sql(
        coordinator.port,
        [
            f"SELECT citus_set_coordinator_host('{HOST}', {coordinator.port})",
            *(f"SELECT citus_add_node('{HOST}', {w.port})" for w in workers),
        ],
    )
    cluster = CitusCluster(HOST, coordinator.port, workers=workers, coordinator=coordinator)
    return cluster, folder


def stop_cluster(cluster: CitusCluster, folder: Path) -> None:
    """Stops a cluster started by start_cluster and removes its folder."""
    for node in [*cluster.workers, cluster.coordinator]:
        if node is not None:
            node.stop()
    shutil.rmtree(folder, ignore_errors=True)


def cluster_from_env(url: str) -> CitusCluster:
    """Returns the cluster a NIGHTKEEP_TEST_CITUS URL names (its workers cannot be stopped by tests)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return CitusCluster(parts.hostname or HOST, parts.port or 5432, parts.username or USER)


@pytest.fixture(scope="session")
def citus_cluster():
    """The session's Citus cluster (started on first use, stopped at the end)."""
    if os.environ.get(URL_ENV):
        yield cluster_from_env(os.environ[URL_ENV])
        return
    cluster, folder = start_cluster()
    try:
        yield cluster
    finally:
        stop_cluster(cluster, folder)
