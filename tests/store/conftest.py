"""The storage tests run on a third store beside SQLite and PostgreSQL: a Citus cluster (a coordinator and
two workers, `tests.citus_cluster`), where every table is distributed by game id."""

from __future__ import annotations

import pytest

STORE_KINDS = ("sqlite", "postgresql", "citus")


@pytest.fixture(params=STORE_KINDS)
def store_kind(request):
    """Each storage test runs on SQLite, on PostgreSQL and on Citus."""
    return request.param
