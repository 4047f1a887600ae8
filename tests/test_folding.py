"""The fold's trusted builders make the same events as the classes' own constructors, and refuse
fields that are not exactly an event's own."""

from __future__ import annotations

import pytest

from domain.folding import trusted_builder
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
