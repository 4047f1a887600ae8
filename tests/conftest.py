"""Shared fixtures: the toy ruleset registered for core tests, and stores in temp dirs; the test tiers.

Tiers: `python -m pytest -m "not slow"` is the fast tier; `python -m pytest` runs everything (CI does).
A test is slow when it needs a real server or the browser (the fixtures in SLOW_FIXTURES, or a storage
test's PostgreSQL run), which is decided here from its fixtures so a new test gets it right; playouts,
kill loops and long CLI tours say so themselves with a module-level `pytestmark = pytest.mark.slow`.

With pytest-xdist installed the suite runs on every core by default (`-n auto --dist loadfile`: a
module's tests stay on one worker, so module-scoped fixtures are built once); `-n 0` or `-p no:xdist`
runs it in one process, and `-n N` chooses the number of workers.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

from domain import rulesets
from tests.citus_cluster import citus_cluster  # noqa: F401  (a fixture)
from tests.pg_server import postgres_pair, postgres_server  # noqa: F401  (fixtures)

# Property tests draw the same examples on every run (randomness in tests is seeded).
settings.register_profile("nightkeep", derandomize=True, deadline=None)
settings.load_profile("nightkeep")

rulesets.register(rulesets.RulesetEntry("toy-race", "benchmarks.toy_ruleset:ToyRace"))

# Fixtures that start a real server or the browser, and why a test using one is slow.
SLOW_FIXTURES = {
    "postgres_server": "starts a real PostgreSQL server",
    "citus_cluster": "starts a real Citus cluster (three PostgreSQL servers)",
    "postgres_pair": "starts a real PostgreSQL primary and a streaming standby",
    "dovecot": "starts a real Dovecot server",
    "chromium": "drives the headless browser",
}


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Runs the suite on every core unless the command line says how many workers (or no xdist)."""
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return
    if config.option.numprocesses is None and not config.option.usepdb and not config.option.collectonly:
        config.option.numprocesses = "auto"
        if config.option.dist == "no":
            config.option.dist = "loadfile"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks slow every test that uses a real server or the browser, directly or through a fixture, and
    every storage test's PostgreSQL run (the `store_kind` parameter)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and callspec.params.get("store_kind") in ("postgresql", "citus")
        if on_postgres or fixtures & SLOW_FIXTURES.keys():
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def memory_service():
    from event_store.app.service import GameService

    return GameService.open(":memory:")


@pytest.fixture
def sqlite_service(tmp_path):
    from event_store.app.service import GameService

    return GameService.open(str(tmp_path / "games.sqlite"))


STORE_KINDS = ("sqlite", "postgresql")


@pytest.fixture(params=STORE_KINDS)
def store_kind(request):
    """Each storage test runs once on SQLite and once on PostgreSQL."""
    return request.param


@pytest.fixture
def new_store(store_kind, tmp_path, request):
    """Makes locations of new, empty stores of this run's kind: `new_store("host")` is a SQLite file in
    the test's temp dir, or a PostgreSQL URL of a schema of its own."""
    made: dict[str, str] = {}

    def make(name: str = "games") -> str:
        if name not in made:
            if store_kind == "sqlite":
                made[name] = str(tmp_path / f"{name}.sqlite")
            elif store_kind == "citus":
                made[name] = request.getfixturevalue("citus_cluster").fresh_url(name)
            else:
                made[name] = request.getfixturevalue("postgres_server").fresh_url(name)
        return made[name]

    return make


@pytest.fixture
def db(new_store):
    """The location of one new, empty store of this run's kind."""
    return new_store("games")


@pytest.fixture
def store_service(db):
    """A GameService on a new store of this run's kind (SQLite, then PostgreSQL)."""
    from event_store.app.service import GameService

    service = GameService.open(db)
    yield service
    service.close()


@pytest.fixture(autouse=True)
def reset_structlog():
    """The CLI configures structlog globally; each test starts from the library defaults."""
    import structlog

    from event_store import lazy_log

    structlog.reset_defaults()
    lazy_log.reset()
    yield
    structlog.reset_defaults()
    lazy_log.reset()


@pytest.fixture(autouse=True)
def piped_output_size(monkeypatch):
    """Lays output out as piped with no size given, whatever the runner's environment says: an xdist
    worker's has COLUMNS and LINES set, and the CLI wraps its output to them (cli/rendering.py)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch):
    """Makes every game's secret seed a fixed sequence per test, so fair dice repeat run after run."""
    import hashlib
    import itertools

    counter = itertools.count()

    def next_seed() -> bytes:
        return hashlib.sha256(f"nightkeep-test-seed-{next(counter)}".encode()).digest()

    monkeypatch.setattr("event_store.app.service.new_seed", next_seed)


@pytest.fixture
def content_override(tmp_path, monkeypatch):
    """Copies a shipped content file into NIGHTKEEP_CONTENT_DIR with an edit applied.

    Content is cached per process by resolved path, so each test's fresh tmp_path is read anew."""
    from domain.content import ENV_VAR, content_path

    def make(ruleset: str, filename: str, edit) -> None:
        monkeypatch.delenv(ENV_VAR, raising=False)
        text = content_path(ruleset, filename).read_text()
        folder = tmp_path / ruleset
        folder.mkdir(parents=True, exist_ok=True)
        edited = edit(text)
        assert edited != text, "the edit changed nothing"
        (folder / filename).write_text(edited)
        monkeypatch.setenv(ENV_VAR, str(tmp_path))

    return make


@pytest.fixture(scope="session")
def fresh_copies(tmp_path_factory):
    """Finished games of every ruleset, freshly played and written in every copy (host, each player,
    public): tests/replays/test_format_spec.py verifies them from the documents alone."""
    from tests.fresh_games import fresh_games

    return fresh_games(tmp_path_factory.mktemp("fresh"))
