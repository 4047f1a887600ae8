"""The PBEM host over a Citus store: whole hosted games (packet files between the host and two replicas,
a mail-only seat, the club's deadline, observers and rollback) with the host's store and the players'
replicas on a Citus cluster, every table distributed by game id. The tests are the ones of
tests/pbem/test_cli.py and tests/pbem/club/test_cli.py, collected here again on the third store."""

from __future__ import annotations

import pytest

from tests.pbem.club.test_cli import (  # noqa: F401  (collected again here, on Citus)
    test_a_mail_only_seats_answer_typed_at_the_host_takes_the_game_back,
    test_the_host_sets_the_deadline_title_observers_and_a_rollback,
)
from tests.pbem.test_cli import (  # noqa: F401  (collected again here, on Citus)
    people,
    test_a_hosted_game_is_played_with_files_between_the_host_and_two_replicas,
    test_a_mail_only_player_plays_by_replying_with_a_number,
)


@pytest.fixture(params=["citus"])
def store_kind(request):
    """Every store of these tests is on the Citus cluster."""
    return request.param
