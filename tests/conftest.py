"""Shared fixtures: the toy ruleset registered for core tests, and stores in temp dirs."""

from __future__ import annotations

import pytest

from domain import rulesets

rulesets._MODULES.setdefault("toy-race", "tests.toy_ruleset")


@pytest.fixture
def memory_service():
    from event_store.service import GameService

    return GameService.open(":memory:")


@pytest.fixture
def sqlite_service(tmp_path):
    from event_store.service import GameService

    return GameService.open(str(tmp_path / "games.sqlite"))


@pytest.fixture(autouse=True)
def reset_structlog():
    """The CLI configures structlog globally; each test starts from the library defaults."""
    import structlog

    structlog.reset_defaults()
    yield
    structlog.reset_defaults()
