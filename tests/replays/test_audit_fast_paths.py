"""The audit's fast paths give exactly what the plain ones give: the chain of flat events encoded in one
call, on files as written and on logs in the store's field order."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.audit import AuditReport, RawEntry, audit_log
from domain.audit.chain import check_links
from domain.audit.reading import decode_all
from domain.events import GENESIS_CHAIN, next_chain
from event_store.app.replay_file import parse_replay

REPLAYS = sorted((Path(__file__).resolve().parents[2] / "replays").glob("*.nkr"))


def canonical_chains(entries) -> list[bytes]:
    """Recomputes every chain value with the canonical encoder alone."""
    chains, previous = [], GENESIS_CHAIN
    for entry in entries:
        previous = next_chain(previous, entry.type_name, entry.class_version, entry.fields)
        chains.append(previous)
    return chains


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_every_recorded_chain_is_the_one_the_canonical_encoder_gives(path):
    _, entries = parse_replay(path.read_bytes())
    events, unreadable = decode_all(entries)
    assert not unreadable
    report = AuditReport(events=len(entries))
    check_links(entries, report, readable=len(events), events=events)
    assert report.findings == []
    assert [e.chain for e in entries] == canonical_chains(entries)


@pytest.mark.parametrize("path", REPLAYS[:3], ids=lambda p: p.name)
def test_fields_in_another_key_order_chain_the_same_and_a_changed_value_breaks_the_chain(path):
    _, entries = parse_replay(path.read_bytes())
    shuffled = [
        RawEntry(e.version, e.type_name, e.class_version, dict(reversed(list(e.fields.items()))), e.chain)
        for e in entries
    ]
    assert not audit_log(shuffled).findings
    index = next(i for i, e in enumerate(shuffled) if e.type_name == "DieRolled")
    forged = dict(shuffled[index].fields, values=[v % 6 + 1 for v in shuffled[index].fields["values"]])
    shuffled[index] = shuffled[index]._replace(fields=forged)
    kinds = {(f.version, f.kind) for f in audit_log(shuffled).findings}
    assert (index + 1, "chain") in kinds
