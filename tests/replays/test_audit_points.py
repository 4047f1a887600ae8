"""The audit from a trusted prefix (domain.audit.resume, issue 28) against the whole-log audit, on the
files in replays/: at every prefix the tail's report (from the point where the audit of the last clean
prefix ended, carried through its stored form) equals the whole log's, or the tail is handed back to the
whole-log audit; on forged tails it is never clean where the whole log is not.

Every prefix of every file whose log is under 600 events; of the longer (main-board) files, every prefix
of the first 200 events and of the last 12, and every 97th between (the whole-log audit of every prefix
of a 3,900-event file takes minutes: the comparison is quadratic in the file's length).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from domain.actions import HOST
from domain.audit import AuditPoint, AuditReport, audit_tail, audit_with_point
from domain.audit.resume import HISTORY_TYPES
from domain.events import next_chain
from event_store.app.replay_file import encode_replay
from event_store.log_reader import FileEntry, parse_replay, recorded_of
from event_store.transcoder import MsgpackTranscoder

pytestmark = pytest.mark.slow

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
FILES = sorted(REPLAYS.glob("*.nkr"))
TRANSCODER = MsgpackTranscoder()


def _read(path: Path) -> tuple[str, str, list[FileEntry]]:
    header, entries = parse_replay(path.read_bytes())
    viewer = header.get("viewer")
    return header["game"], HOST if viewer is None else viewer, entries


def _header(game: str, viewer: str, entries: Sequence[FileEntry]) -> dict[str, Any]:
    """The header the file of these entries has (as the replica writes its copy's)."""
    header: dict[str, Any] = TRANSCODER.decode(encode_replay(game, recorded_of(entries), viewer))["header"]
    return header


def _stored(point: AuditPoint) -> AuditPoint:
    """The point as a store gives it back (msgpack, as event_store.audit_points keeps it)."""
    found = AuditPoint.from_plain(TRANSCODER.decode(TRANSCODER.encode(point.to_plain())))
    assert found is not None
    return found


def _prefixes(count: int) -> list[int]:
    if count < 600:
        return list(range(1, count + 1))
    return sorted({*range(1, 201), *range(count - 11, count + 1), *range(201, count - 11, 97)})


def _same(tail: AuditReport, whole: AuditReport) -> None:
    assert tail.to_json() == whole.to_json()
    assert tail.decoded == whole.decoded[len(whole.decoded) - len(tail.decoded) :]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_audit_from_a_point_equals_the_whole_logs_on_every_prefix(path: Path) -> None:
    game, viewer, entries = _read(path)
    point: AuditPoint | None = None
    resumed = handed_back = 0
    for count in _prefixes(len(entries)):
        log = entries[:count]
        header = _header(game, viewer, log) if count >= 2 else None
        whole, whole_point = audit_with_point(log, header)
        found = audit_tail(_stored(point), log[point.version :], header) if point else None
        if not whole.ok:
            # (A prefix that ends inside an action's consequences: the tail is never clean there.)
            assert found is None, f"{path.name}: clean from the point at {count}, not whole"
            continue
        if found is None:
            handed_back += 1
            point = whole_point
            continue
        resumed += 1
        report, point = found
        _same(report, whole)
        assert point is not None and whole_point is not None
        assert point.to_plain() == whole_point.to_plain()
    if any(e.type_name == "ForkedFrom" for e in entries):
        assert resumed == 0  # a fork's log is read whole (its copied history is checked against its original)
    else:  # only the opening, a copy's first sealed event and the reveal are handed back in these files
        assert resumed > 3 * handed_back, (resumed, handed_back)


def _clean_points(entries: list[FileEntry], game: str, viewer: str) -> list[tuple[int, int]]:
    """(k, n): clean prefixes k < n of the log whose tail between them holds no event read back through
    the log, a few spread over the game."""
    actions = [i for i, e in enumerate(entries) if e.type_name == "ActionTaken"]
    picks = [actions[len(actions) * q // 5] for q in range(1, 5)]
    pairs = []
    for k in picks:
        n = next((i for i in actions if i > k + 3), None)
        if n is not None and not {e.type_name for e in entries[k:n]} & HISTORY_TYPES:
            pairs.append((k, n))
    return pairs


def _rechained(entries: list[FileEntry], start: int, previous: bytes) -> list[FileEntry]:
    out = []
    for entry in entries[start:]:
        chain = next_chain(previous, entry.type_name, entry.class_version, entry.fields)
        out.append(entry._replace(chain=chain))
        previous = chain
    return [*entries[:start], *out]


FORGERIES = ["field changed, chain redone", "event dropped", "event repeated", "chain broken", "renumbered"]


def _forge(tail: list[FileEntry], head: bytes, how: str) -> list[FileEntry]:
    last = len(tail) - 1
    if how == "field changed, chain redone":
        index = next(
            (
                i
                for i, e in enumerate(tail)
                if any(type(v) is int and type(v) is not bool for v in e.fields.values())
            ),
            last,
        )
        entry = tail[index]
        name = next(k for k, v in entry.fields.items() if type(v) is int)
        changed = entry._replace(fields={**entry.fields, name: entry.fields[name] + 1})
        forged = [*tail[:index], changed, *tail[index + 1 :]]
        return _rechained(forged, index, tail[index - 1].chain if index else head)
    if how == "event dropped":
        forged = [*tail[:1], *tail[2:]]
        forged = [e._replace(version=tail[0].version + i) for i, e in enumerate(forged)]
        return _rechained(forged, 1, forged[0].chain)
    if how == "event repeated":
        forged = [*tail, tail[last]._replace(version=tail[last].version + 1)]
        return _rechained(forged, last + 1, tail[last].chain)
    if how == "chain broken":
        return [*tail[:last], tail[last]._replace(chain=bytes(32))]
    return [e._replace(version=e.version + 1) for e in tail]


@pytest.mark.parametrize("how", FORGERIES)
@pytest.mark.parametrize(
    "name",
    ["dungeon-short-3p-keys-001", "vampire-empire-keys-001-Hana", "keep-run-3p-001", "talisman-3p-001"],
)
def test_a_forged_tail_is_never_clean_from_the_point_where_the_whole_log_is_not(name: str, how: str) -> None:
    game, viewer, entries = _read(REPLAYS / f"{name}.nkr")
    pairs = _clean_points(entries, game, viewer)
    assert pairs
    for k, n in pairs:
        report, point = audit_with_point(entries[:k], _header(game, viewer, entries[:k]))
        assert report.ok and point is not None
        tail = _forge(list(entries[k:n]), entries[k - 1].chain, how)
        log = [*entries[:k], *tail]
        whole = audit_with_point(log, _header(game, viewer, log))[0]
        found = audit_tail(_stored(point), tail, _header(game, viewer, log))
        if whole.ok:  # (a change the rules allow: then both agree it is clean)
            assert found is not None
            _same(found[0], whole)
        else:
            assert found is None, (how, k, n, whole.findings[:1])
