"""Game ids typed as people type them: the whole id or any unique prefix, in every store."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.errors import UnknownGame
from event_store.app.game_ids import AmbiguousGameId, resolve_game_id, short_id
from tests import store_rows

SEATS = [("Ann", None), ("Bo", None)]


@pytest.fixture(params=["memory", "sql"])
def service(request, store_kind, new_store):
    """The in-memory store, then this run's SQL store (so memory runs twice: cheap, and simple)."""
    from event_store.app.service import GameService

    opened = GameService.open(":memory:" if request.param == "memory" else new_store("games"))
    yield opened
    opened.close()


def test_a_unique_prefix_of_eight_digits_names_the_game(service):
    game_id = service.create_game("toy-race", SEATS)
    assert service.resolve_game_id(short_id(game_id)) == game_id
    assert service.resolve_game_id(str(game_id)[:13].upper()) == game_id  # dashes and case do not matter


def test_the_whole_id_names_the_game(service):
    game_id = service.create_game("toy-race", SEATS)
    assert service.resolve_game_id(str(game_id)) == game_id


def store_ids(service, ids):
    """Makes the store hold events under the given ids (what a prefix lookup reads, nothing more)."""
    recorder = service.recorder
    if hasattr(recorder, "_stored_events_index"):
        for game_id in ids:
            recorder._stored_events_index[str(game_id)] = {1: 0}
        return
    for game_id in ids:
        store_rows.insert_event(service, game_id, 1, "x", b"\x00")


def test_an_ambiguous_prefix_lists_the_candidates_on_one_line(service):
    ids = [UUID(int=0xABCD1 << 108), UUID(int=0xABCD2 << 108)]
    store_ids(service, ids)
    with pytest.raises(AmbiguousGameId, match="'abcd' names 2 games") as caught:
        resolve_game_id(service.recorder, service.copies, "abcd")
    assert all(str(game_id) in str(caught.value) for game_id in ids)
    assert "\n" not in str(caught.value)
    assert resolve_game_id(service.recorder, service.copies, "abcd2") == ids[1]


@pytest.mark.parametrize("text", ["abc", "not-hex!", "g123456", ""])
def test_what_cannot_be_a_prefix_is_not_a_game_id(memory_service, text):
    with pytest.raises(UnknownGame, match="is not a game id"):
        memory_service.resolve_game_id(text)


def test_a_prefix_no_game_has_is_unknown(service):
    game_id = service.create_game("toy-race", SEATS)
    other = "0000" if not game_id.hex.startswith("0000") else "ffff"
    with pytest.raises(UnknownGame, match="no game in this store has an id starting"):
        service.resolve_game_id(other)


def test_a_prefix_takes_the_ids_at_both_ends_of_its_range_and_none_beside_it(service):
    inside = [UUID("abcd0000-0000-0000-0000-000000000000"), UUID("abcdffff-ffff-ffff-ffff-ffffffffffff")]
    beside = [UUID("abccffff-ffff-ffff-ffff-ffffffffffff"), UUID(int=0xABCE << 112)]
    store_ids(service, inside + beside)
    with pytest.raises(AmbiguousGameId, match="'abcd' names 2 games"):
        resolve_game_id(service.recorder, service.copies, "abcd")
    assert resolve_game_id(service.recorder, service.copies, "abcdf") == inside[1]
    assert resolve_game_id(service.recorder, service.copies, "abcd0") == inside[0]
    assert resolve_game_id(service.recorder, service.copies, "abcc") == beside[0]
