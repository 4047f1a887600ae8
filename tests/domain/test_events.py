"""Every event class survives the msgpack transcoder and the store's envelope; the chain is canonical."""

from __future__ import annotations

import dataclasses
import hashlib
import uuid
from datetime import UTC, datetime

import msgpack
import pytest

from domain.errors import TamperedLog
from domain.events import (
    GENESIS_CHAIN,
    DieRolled,
    Event,
    canonical_bytes,
    event_from_fields,
    event_type,
    field_type_problem,
    next_chain,
    registered_event_types,
)
from domain.game import Game
from domain.rulesets import get_ruleset, ruleset_names
from event_store.app.service import GameService
from event_store.transcoder import MsgpackTranscoder

SAMPLES = {
    "str": "dungeon/card/giant-rat",
    "int": 3,
    "bool": True,
    "bytes": b"\x00\xffchain",
    "list[int]": [1, 6, 2],
    "list[str]": ["a", "b"],
    "list[bytes]": [b"\x01" * 32, b"\x02" * 32],
    "dict[str, bytes]": {"castle/character/lady": b"\x03" * 32},
    "list[Seat]": [{"name": "Ann", "character": ""}],
    "dict[str, int]": {"a": 1},
    "dict[str, str]": {"a": "b"},
}


def all_event_types():
    for name in ruleset_names():
        get_ruleset(name)
    return registered_event_types()


def sample(cls):
    values = {}
    for f in dataclasses.fields(cls):
        assert f.type in SAMPLES, f"{cls.__name__}.{f.name} has a non-msgpack-native type {f.type}"
        values[f.name] = SAMPLES[f.type]
    event = cls(**values)
    assert field_type_problem(event) == "", "each sample holds its field's type exactly"
    return event


@pytest.mark.parametrize("name", sorted(all_event_types()))
def test_every_event_class_round_trips_through_msgpack_and_the_envelope(name):
    cls = all_event_types()[name]
    event = sample(cls)
    transcoder = MsgpackTranscoder()
    fields = transcoder.decode(transcoder.encode(event.to_fields()))
    assert event_from_fields(name, cls.class_version, fields) == event

    service = GameService.open(":memory:")
    envelope = Game.Recorded(
        originator_id=uuid.uuid4(),
        originator_version=2,
        timestamp=datetime.now(UTC),
        type=name,
        v=cls.class_version,
        fields=event.to_fields(),
        chain=b"\x01" * 32,
    )
    restored = service.mapper.to_domain_event(service.mapper.to_stored_event(envelope))
    assert restored == envelope
    assert event_from_fields(restored.type, restored.v, restored.fields) == event


def test_canonical_encoding_sorts_map_keys_and_rejects_floats():
    assert canonical_bytes({"b": 1, "a": 2}) == msgpack.packb({"a": 2, "b": 1}, use_bin_type=True)
    with pytest.raises(ValueError):
        canonical_bytes({"x": 1.5})


def test_chain_hashes_previous_chain_and_public_form():
    fields = {"player": "Ann", "purpose": "movement", "sides": 6, "values": [4], "draws": [0]}
    expected = hashlib.sha256(
        GENESIS_CHAIN + msgpack.packb(["DieRolled", 1, dict(sorted(fields.items()))], use_bin_type=True)
    ).digest()
    assert next_chain(GENESIS_CHAIN, "DieRolled", 1, fields) == expected
    changed = dict(fields, values=[5])
    assert next_chain(GENESIS_CHAIN, "DieRolled", 1, changed) != expected


def test_unknown_or_malformed_event_is_reported_as_tampering():
    with pytest.raises(TamperedLog):
        event_from_fields("NoSuchEvent", 1, {})
    with pytest.raises(TamperedLog):
        event_from_fields("DieRolled", 1, {"player": "Ann"})


def test_upcaster_runs_for_older_class_versions(monkeypatch):
    monkeypatch.setattr(DieRolled, "class_version", 2)

    def upcast_v1_v2(fields):
        fields["purpose"] = fields["purpose"].upper()

    monkeypatch.setattr(DieRolled, "upcast_v1_v2", staticmethod(upcast_v1_v2), raising=False)
    event = event_from_fields(
        "DieRolled", 1, {"player": "A", "purpose": "move", "sides": 6, "values": [1], "draws": [0]}
    )
    assert event.purpose == "MOVE"


def test_the_event_catalogue_is_up_to_date():
    from projections.event_catalogue import DOC, catalogue_markdown

    assert DOC.read_text(encoding="utf-8") == catalogue_markdown(), (
        "docs/events.md is out of date: run python -m projections.event_catalogue"
    )


def test_an_event_class_of_a_registered_name_from_another_module_is_refused() -> None:
    # The log stores the class name alone: a second class of that name would silently take its place.
    with pytest.raises(TypeError, match="registered twice"):

        @event_type
        class GameCreated(Event):
            """A stand-in of another module's."""

            note: str


# The two envelopes a game's log is stored in, encoded by the store's mapper before they shared their
# body: their topics name the classes every stored game was written with, and their bytes are the
# stored form (a fixed id, time and payload, so the encoding is exact).
ENVELOPE_BYTES = {
    "domain.game:Game.Created": (
        "86a974696d657374616d70d7ffa1a5d600695735a5b06f726967696e61746f725f746f706963b0646f6d61696e2e67616d65"
        "3a47616d65a474797065ab47616d6543726561746564a17603a66669656c647382a772756c65736574a86b6565702d72756e"
        "a7706c617965727390a5636861696ec4200101010101010101010101010101010101010101010101010101010101010101"
    ),
    "domain.game:Game.Recorded": (
        "85a974696d657374616d70d7ffa1a5d600695735a5a474797065ad53656564436f6d6d6974746564a17601a66669656c6473"
        "81aa636f6d6d69746d656e74c4200202020202020202020202020202020202020202020202020202020202020202a5636861"
        "696ec4200303030303030303030303030303030303030303030303030303030303030303"
    ),
}


def test_game_envelopes_keep_their_stored_topics_and_bytes():
    service = GameService.open(":memory:")
    game_id = uuid.UUID(int=27)
    when = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
    created = Game.Created(
        originator_id=game_id,
        originator_version=1,
        timestamp=when,
        originator_topic="domain.game:Game",
        type="GameCreated",
        v=3,
        fields={"ruleset": "keep-run", "players": []},
        chain=b"\x01" * 32,
    )
    recorded = Game.Recorded(
        originator_id=game_id,
        originator_version=2,
        timestamp=when,
        type="SeedCommitted",
        v=1,
        fields={"commitment": b"\x02" * 32},
        chain=b"\x03" * 32,
    )
    stored = [service.mapper.to_stored_event(envelope) for envelope in (created, recorded)]
    assert {row.topic: row.state.hex() for row in stored} == ENVELOPE_BYTES
    assert [service.mapper.to_domain_event(row) for row in stored] == [created, recorded]


def test_a_stored_game_folds_back_through_both_envelopes():
    service = GameService.open(":memory:")
    game_id = service.create_game("keep-run", [("Ann", None), ("Bo", None)])
    game = service.repository.get(game_id)
    assert game.ruleset_name == "keep-run" and game.meta["players"] == ["Ann", "Bo"]
    assert game.meta["commitment"]
    topics = [row.topic for row in service.recorder.select_events(game_id)]
    assert topics == ["domain.game:Game.Created"] + ["domain.game:Game.Recorded"] * (game.version - 1)
