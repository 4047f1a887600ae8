"""The fold's per-type steps build the same events as the classes' own constructors, keep the draw
counter as `advance_draws` does, and leave envelopes of any other shape to the general path."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pytest

from domain.errors import CorruptStore
from domain.events import Event
from domain.folding import _META_ONLY, NotItsShape, fold_envelopes, fold_step
from domain.game import _GAME_EVENTS, GameFold, _draw_fields, advance_draws
from event_store.app.replay_file import read_replay
from tests import store_rows
from tests.domain.test_events import all_event_types, sample

REPLAYS = Path(__file__).resolve().parents[2] / "replays"

FOLDED = sorted(
    name
    for name, cls in all_event_types().items()
    if not cls.private and (cls in _META_ONLY or cls not in _GAME_EVENTS)
)


class Holder:
    """A fold's holder, as much of it as the game-level handlers touch."""

    def __init__(self) -> None:
        self.meta = {"next_draw": 3, "script": [1, 2, 3], "script_pos": 1, "actions": 0, "forked_from": []}
        self.meta["pool"], self.meta["seed"] = b"\x00" * 32, b""


def envelope(cls, fields):
    return {"type": cls.__name__, "v": cls.class_version, "fields": fields, "chain": b"\x01" * 32}


def fold_with_step(cls, fields):
    """Folds one envelope with the type's step; returns (events evolve saw, holder)."""
    seen, holder = [], Holder()

    def evolve(state, event):
        seen.append(event)
        return state

    assert fold_step(cls)(envelope(cls, fields), {}, holder.meta, holder, evolve) == {}
    return seen, holder


@pytest.mark.parametrize("name", FOLDED)
def test_fold_step_folds_the_event_its_constructor_makes(name):
    cls = all_event_types()[name]
    event = sample(cls)
    seen, holder = fold_with_step(cls, event.to_fields())
    expected = Holder()
    if cls in _META_ONLY:
        assert seen == []
        _GAME_EVENTS[cls](expected, event)
    else:
        assert len(seen) == 1 and type(seen[0]) is cls
        assert seen[0] == event and repr(seen[0]) == repr(event)
        advance_draws(expected.meta, event)
    assert holder.meta == expected.meta


def draw_samples(cls):
    """Yields the fields of events of `cls` whose draw fields hold no draw, old draws and new ones."""
    for value in (-1, 0, 3, 40):
        fields = sample(cls).to_fields()
        for name in _draw_fields(cls):
            kind = type(fields[name])
            fields[name] = ([value, value // 2] if value >= 0 else []) if kind is list else value
        if "draws" in fields and "values" in fields:
            fields["values"] = [1] * len(fields["draws"])
        yield fields


@pytest.mark.parametrize("name", sorted(n for n in FOLDED if _draw_fields(all_event_types()[n])))
def test_fold_step_moves_the_draw_counter_and_script_as_advance_draws_does(name):
    cls = all_event_types()[name]
    for fields in draw_samples(cls):
        _, holder = fold_with_step(cls, fields)
        expected = Holder()
        advance_draws(expected.meta, cls(**fields))
        assert holder.meta == expected.meta


@pytest.mark.parametrize("name", FOLDED)
def test_fold_step_leaves_any_other_shape_untouched_to_the_general_path(name):
    cls = all_event_types()[name]
    fields = sample(cls).to_fields()
    missing = dict(fields)
    missing.pop(next(iter(missing)))
    shapes = [{**fields, "extra": 1}, missing, dict(missing, extra=1), list(fields), 7, None]
    holder = Holder()
    before = copy.deepcopy(holder.meta)
    for shape in shapes:
        with pytest.raises(NotItsShape):
            fold_step(cls)(envelope(cls, shape), {}, holder.meta, holder, lambda s, e: pytest.fail("evolved"))
    older = dict(envelope(cls, fields), v=cls.class_version - 1)
    with pytest.raises(NotItsShape):
        fold_step(cls)(older, {}, holder.meta, holder, lambda s, e: pytest.fail("evolved"))
    assert holder.meta == before


def test_sealed_and_private_events_have_no_fold_step():
    private = [cls for cls in all_event_types().values() if cls.private]
    assert private and not any(cls.__name__ in FOLDED for cls in private)


@pytest.mark.parametrize("path", sorted(REPLAYS.glob("*.nkr")), ids=lambda p: p.name)
def test_the_fold_of_each_recorded_game_equals_its_fold_event_by_event(path):
    replay = read_replay(path.read_bytes())
    stepwise = replay.fold()
    envelopes = [
        {"type": r.type_name, "v": r.class_version, "fields": r.fields, "chain": r.chain}
        for r in replay.events
    ]
    folded = GameFold()
    fold_envelopes(folded, envelopes)
    assert (folded.version, folded.chain, folded.ruleset_name) == (
        stepwise.version,
        stepwise.chain,
        stepwise.ruleset_name,
    )
    assert folded.meta == stepwise.meta and folded.state == stepwise.state


def test_a_damaged_stored_event_stops_the_fold_of_every_event_with_one_error(store_service):
    service = store_service
    game_id = service.create_game("toy-race", [("Ann", None), ("Bo", None)])
    store_rows.set_event_state(service, game_id, 2, b"\xc1\xc1\xc1")
    with pytest.raises(CorruptStore, match=f"game {game_id} has an unreadable stored event"):
        service.fold(game_id, use_snapshot=False)


def test_a_folds_row_decoder_decodes_every_stored_row_as_the_single_decoder_does(store_service):
    from event_store.app.service import play_with_bots

    service = store_service
    game_id = service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    play_with_bots(service, game_id, seed=4, max_actions=40)
    rows = store_rows.execute(
        service, f"SELECT state FROM {store_rows.events_table(service)} ORDER BY originator_version"
    )
    transcoder = service.mapper.transcoder
    decoded = list(transcoder.decode_rows(rows, AssertionError))
    assert len(decoded) == len(rows) > 40
    assert decoded == [transcoder.decode(row[0]) for row in rows]


def test_an_event_type_whose_init_does_more_than_assign_is_built_by_its_init():
    @dataclasses.dataclass(slots=True)
    class Counted(Event):
        """A ruleset event that works something out when it is made (none does today)."""

        count: int
        double: int = dataclasses.field(init=False, default=0)

        def __post_init__(self) -> None:
            self.double = 2 * self.count

    Counted._field_names = ("count",)
    seen = []
    holder = Holder()
    state = fold_step(Counted)(
        {"v": 1, "fields": {"count": 4}}, {}, holder.meta, holder, lambda s, e: seen.append(e) or s
    )
    assert state == {} and seen[0].double == 8
