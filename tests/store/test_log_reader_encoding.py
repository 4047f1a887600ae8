"""The reader's canonical-encoding check (event_store.log_reader): its one-call fast path judges every
value as the definition does (canonical_form, then msgpack), whatever order or width the bytes use."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import msgpack
import msgspec

from domain.events import canonical_form
from event_store.log_reader import _is_canonical

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
INTS = [0, 1, -1, 127, 128, -32, -33, 255, 256, -128, -129, 65535, 65536, -32768, -32769, 2**32, 2**64 - 1]
TEXTS = ["", "a", "B", "é", "z" * 31, "z" * 32, "y" * 256, "\uffff", "\U0001f600", "a\x00"]
SECONDS = [0, 2**32 - 1, 2**32, 2**34, -1, 1_700_000_000]


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 3 else 5)
    if kind == 0:
        return rng.choice(INTS)
    if kind == 1:
        return rng.choice(TEXTS)
    if kind == 2:
        return rng.randbytes(rng.choice([0, 32, 256]))
    if kind == 3:
        return rng.choice([True, False, None, 1.5])
    if kind == 4:
        return EPOCH + timedelta(seconds=rng.choice(SECONDS), microseconds=rng.choice([0, 1]))
    if kind in (5, 6):
        return [random_value(rng, depth + 1) for _ in range(rng.choice([0, 2, 16]))]
    keys = rng.choice([TEXTS, INTS, [True, 0, "a"]])  # str keys, int keys, or mixed (refused)
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.choice([0, 3, 17]))}


def defined_judgement(data: bytes, document: Any) -> bool | None:
    """The definition: canonical_form's rebuild packed by msgpack; None where it refuses the value."""
    try:
        return bool(msgpack.packb(canonical_form(document), use_bin_type=True, datetime=True) == data)
    except Exception:  # noqa: BLE001
        return None


def test_the_canonical_check_agrees_with_the_definition_on_every_encoding_of_random_values():
    rng = random.Random(28)
    sorted_encode = msgspec.msgpack.Encoder(order="sorted").encode
    judged = {True: 0, False: 0}
    for _ in range(3000):
        value = random_value(rng)
        for encode in (sorted_encode, lambda v: msgpack.packb(v, use_bin_type=True, datetime=True)):
            try:
                data = encode(value)
            except Exception:  # noqa: BLE001  (mixed keys, a value one encoder refuses)
                continue
            document = msgpack.unpackb(data, raw=False, timestamp=3, strict_map_key=False)
            defined, fast = defined_judgement(data, document), _is_canonical(data, document)
            # None (cannot be told) and True are read alike by the reader once the bytes pack back whole.
            assert fast == defined or (defined is None and fast), (value, data)
            if defined is not None:
                judged[defined] += 1
    assert judged[True] > 100 and judged[False] > 100  # both verdicts were reached
