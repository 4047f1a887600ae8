"""The events of abilities, Spells and characters meeting are registered, msgpack-native and round-trip
through the transcoder (as every event does in test_events), and each has its evolve step."""

from __future__ import annotations

import dataclasses

import pytest

from domain.events import event_from_fields, registered_event_types
from domain.rulesets.talisman.main import events_abilities
from domain.rulesets.talisman.main.handlers import HANDLERS
from event_store.transcoder import MsgpackTranscoder
from tests.domain.test_events import sample

NAMES = sorted(
    name
    for name, cls in vars(events_abilities).items()
    if isinstance(cls, type) and cls.__module__ == events_abilities.__name__ and dataclasses.is_dataclass(cls)
)


def test_every_event_of_the_module_is_registered():
    assert len(NAMES) == 17 and set(NAMES) <= set(registered_event_types())


@pytest.mark.parametrize("name", NAMES)
def test_each_round_trips_through_msgpack_and_has_an_evolve_step_or_moves_nothing(name):
    cls = registered_event_types()[name]
    event = sample(cls)
    transcoder = MsgpackTranscoder()
    assert (
        event_from_fields(name, cls.class_version, transcoder.decode(transcoder.encode(event.to_fields())))
        == event
    )
    recorded_only = {"SpellCountered", "AbilityUsed", "CharacterAttacked"}  # they change no state
    assert (cls in HANDLERS) != (name in recorded_only)
