"""Shared fixtures: the toy ruleset registered for core tests, and stores in temp dirs."""

from __future__ import annotations

import pytest
from hypothesis import settings

from domain import rulesets
from tests.pg_server import postgres_server  # noqa: F401  (a fixture)

# Property tests draw the same examples on every run (randomness in tests is seeded).
settings.register_profile("nightkeep", derandomize=True, deadline=None)
settings.load_profile("nightkeep")

rulesets.register(rulesets.RulesetEntry("toy-race", "benchmarks.toy_ruleset:ToyRace"))


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
    public): tests/test_format_spec.py verifies them from the documents alone."""
    from tests.fresh_games import fresh_games

    return fresh_games(tmp_path_factory.mktemp("fresh"))
