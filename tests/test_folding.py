"""The fold's trusted builders make the same events as the classes' own constructors, and refuse
fields that are not exactly an event's own."""

from __future__ import annotations

import pytest

from domain.events import ActionTaken, DieRolled
from domain.folding import draw_step, trusted_builder
from domain.game import _draw_fields, advance_draws
from tests.test_events import all_event_types, sample


@pytest.mark.parametrize("name", sorted(all_event_types()))
def test_trusted_builder_makes_the_event_its_constructor_makes(name):
    cls = all_event_types()[name]
    event = sample(cls)
    built = trusted_builder(cls)(event.to_fields())
    assert type(built) is cls
    assert built == event
    assert repr(built) == repr(event)


@pytest.mark.parametrize("name", sorted(all_event_types()))
def test_trusted_builder_refuses_a_missing_or_an_extra_field(name):
    cls = all_event_types()[name]
    fields = sample(cls).to_fields()
    with pytest.raises(KeyError):
        trusted_builder(cls)({**fields, "extra": 1})
    missing = dict(fields)
    missing.pop(next(iter(missing)))
    with pytest.raises(KeyError):
        trusted_builder(cls)(missing)
    renamed = dict(missing, extra=1)
    with pytest.raises(KeyError):
        trusted_builder(cls)(renamed)


def draw_samples(cls):
    """Yields events of `cls` whose draw fields hold no draw, an old draw and a new one."""
    event = sample(cls)
    for value in (-1, 0, 3, 40):
        fields = event.to_fields()
        for name in _draw_fields(cls):
            kind = type(fields[name])
            fields[name] = ([value, value // 2] if value >= 0 else []) if kind is list else value
        if "draws" in fields and "values" in fields:
            fields["values"] = [1] * len(fields["draws"])
        yield cls(**fields)


@pytest.mark.parametrize("name", sorted(n for n, c in all_event_types().items() if _draw_fields(c)))
def test_draw_step_moves_the_counter_and_script_as_advance_draws_does(name):
    cls = all_event_types()[name]
    step = draw_step(cls)
    assert step is not None
    for event in draw_samples(cls):
        for next_draw in (0, 3, 10):
            expected = {"next_draw": next_draw, "script": [1, 2, 3], "script_pos": 1}
            got = {"next_draw": next_draw, "script": [1, 2, 3], "script_pos": 1}
            advance_draws(expected, event)
            step(got, event)
            assert got == expected


def test_draw_step_is_none_for_an_event_that_draws_nothing():
    assert draw_step(ActionTaken) is None
    assert draw_step(DieRolled) is not None
