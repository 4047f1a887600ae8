"""Forgeries of a recorded Vampire Empire game (replays/vampire-empire-001.nkr), in the host's full log
and in the players' and the public copies: each is caught at the forged event, with the chain left as
recorded and with a forger's recomputed chain."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import msgpack
import pytest

from domain.actions import HOST
from domain.audit import AuditReport, audit_log
from domain.errors import IllegalAction, TamperedLog
from domain.events import GENESIS_CHAIN, next_chain
from domain.hidden import PUBLIC
from domain.rulesets.castle.content import load_human_deck
from event_store.app.replay_file import (
    FileEntry,
    audit_replay,
    encode_replay,
    export_game,
    import_game,
    parse_replay,
    recorded_of,
)
from event_store.app.service import GameService, play_with_bots
from event_store.recorded import redacted

PATH = Path(__file__).resolve().parents[3] / "replays" / "vampire-empire-001.nkr"
HUMAN, VAMPIRE = "Hana", "Vlad"


def copy_for(viewer: str, store_service) -> list[FileEntry]:
    """Returns the recorded game as `viewer`'s copy, as parsed entries."""
    game_id = import_game(store_service, PATH.read_bytes(), PATH.name).stored
    recorded = redacted(store_service.verified_events(game_id), viewer)
    return parse_replay(encode_replay(str(game_id), recorded, viewer))[1]


def edited(entries: list[FileEntry], at: int, rechain: bool, **changes: Any) -> list[FileEntry]:
    """Returns the entries with event `at`'s fields changed; `rechain` recomputes every chain value."""
    out = []
    chain = GENESIS_CHAIN
    for entry in entries:
        fields = {**entry.fields, **changes} if entry.version == at else entry.fields
        if rechain:
            chain = next_chain(chain, entry.type_name, entry.class_version, fields)
        out.append(entry._replace(fields=fields, chain=chain if rechain else entry.chain))
    return out


def first(entries: list[FileEntry], type_name: str, **where: Any) -> FileEntry:
    return next(
        e for e in entries if e.type_name == type_name and all(e.fields.get(k) == v for k, v in where.items())
    )


def caught_at(report: AuditReport, version: int, kind: str) -> bool:
    return any(f.version == version and f.kind == kind for f in report.findings)


def test_the_recorded_game_and_every_copy_of_it_audit_clean(store_service):
    assert audit_replay(PATH.read_bytes()).ok
    for viewer in (HUMAN, VAMPIRE, PUBLIC):
        report = audit_log(copy_for(viewer, store_service))
        assert report.ok and not report.partial, [f.detail for f in report.findings]


@pytest.mark.parametrize("viewer", [HOST, HUMAN, PUBLIC])
def test_an_edited_private_event_breaks_the_chain_in_every_copy(viewer, store_service):
    """The chain covers a private event's seal: changing the vampire player's tokens in the host's log,
    or their seal in a copy, breaks the link there."""
    entries = copy_for(viewer, store_service)
    tokens = first(entries, "IdentityTokensDrawn", owner=VAMPIRE)
    if viewer == HOST:
        change = {"characters": sorted(tokens.fields["salts"])[:3]}
    else:
        change = {"sealed": bytes(32)}
    report = audit_log(edited(entries, tokens.version, rechain=False, **change))
    assert caught_at(report, tokens.version, "chain")


def test_a_rechained_change_of_the_vampires_tokens_is_caught_by_the_rules():
    """A forger who recomputes the chain and names other vampires: the commitments the rules decide
    from the revealed seed no longer match."""
    entries = parse_replay(PATH.read_bytes())[1]
    tokens = first(entries, "IdentityTokensDrawn", owner=VAMPIRE)
    others = [c for c in sorted(tokens.fields["salts"]) if c not in tokens.fields["characters"]][:3]
    report = audit_log(edited(entries, tokens.version, rechain=True, characters=others))
    assert not report.ok
    assert caught_at(report, tokens.version, "dice") or caught_at(report, tokens.version, "rules")


def test_a_rechained_change_of_a_drawn_card_is_caught_by_the_seed():
    entries = parse_replay(PATH.read_bytes())[1]
    received = first(entries, "CardsReceived", owner=HUMAN)
    cards = list(received.fields["cards"])
    cards[0] = next(c for c in sorted(load_human_deck().cards) if c not in received.fields["hand"])
    report = audit_log(edited(entries, received.version, rechain=True, cards=cards))
    assert caught_at(report, received.version, "dice"), [f.detail for f in report.findings]


@pytest.mark.parametrize("viewer", [HUMAN, PUBLIC])
def test_a_rechained_seal_in_a_copy_is_caught_when_the_rules_re_decide_it(viewer, store_service):
    """A copy whose sealed entry was replaced (and the chain recomputed) fails once the seed is public:
    the re-decided private event does not have that seal."""
    entries = copy_for(viewer, store_service)
    sealed = first(entries, "CardsReceived", owner=VAMPIRE)
    assert set(sealed.fields) == {"owner", "sealed"}
    report = audit_log(edited(entries, sealed.version, rechain=True, sealed=bytes(32)))
    assert caught_at(report, sealed.version, "rules")
    finding = next(f for f in report.findings if f.version == sealed.version)
    assert "seal 000000000000" in finding.detail and "; seal " in finding.detail  # both seals shown
    # The sealed events cannot be folded past the divergence; the rest still gets the public checks.
    assert report.finished and any("only the public checks were made after it" in n for n in report.notes)


@pytest.mark.parametrize("viewer", [HOST, HUMAN, PUBLIC])
def test_a_rechained_false_death_answer_is_caught_in_every_copy(viewer, store_service):
    """The vampire player cannot say a killed vampire was human: the answer must open the commitment."""
    entries = copy_for(viewer, store_service)
    answer = first(entries, "IdentityRevealed", reason="death", identity="vampire")
    report = audit_log(edited(entries, answer.version, rechain=True, identity="human"))
    assert caught_at(report, answer.version, "rules")


def test_a_rechained_castle_pick_is_caught_by_the_seed():
    entries = parse_replay(PATH.read_bytes())[1]
    filled = [e for e in entries if e.type_name == "CastleFilled" and e.fields["draw"] >= 0]
    target = filled[len(filled) // 2]
    # Another character still in the city at that point: one the game filled in later.
    later = next(e.fields["character"] for e in filled if e.version > target.version)
    report = audit_log(edited(entries, target.version, rechain=True, character=later))
    assert not report.ok
    assert caught_at(report, target.version, "dice") or caught_at(report, target.version, "rules")


def test_a_copy_with_sealed_events_is_imported_as_the_copy_it_is(store_service):
    game_id = import_game(store_service, PATH.read_bytes(), PATH.name).stored
    copy_bytes = encode_replay(str(game_id), redacted(store_service.verified_events(game_id), HUMAN), HUMAN)
    header = msgpack.unpackb(copy_bytes, raw=False, timestamp=3)["header"]
    assert header["viewer"] == HUMAN
    organiser = GameService.open(":memory:")
    imported = import_game(organiser, copy_bytes, "copy.nkr")
    events = len(parse_replay(copy_bytes)[1])
    assert (imported.game, imported.viewer, imported.added) == (game_id, HUMAN, events)
    assert imported.stored != game_id  # a copy is not the game: it has an id of its own
    assert export_game(organiser, imported.stored, HUMAN) == copy_bytes
    with pytest.raises(IllegalAction, match="cannot be continued"):
        organiser.legal_actions(imported.stored)


def test_a_finished_copy_without_its_seed_reveal_is_a_finding(store_service):
    """A forger who drops SeedRevealed so that nothing re-decides the sealed events: a game the copy
    shows over must have revealed its seed."""
    entries = copy_for(PUBLIC, store_service)
    assert entries[-1].type_name == "SeedRevealed"
    rechained = edited(entries[:-1], 0, rechain=True)
    report = audit_log(rechained)
    assert report.partial and report.finished
    assert caught_at(report, len(rechained), "seed"), [f.detail for f in report.findings]


@pytest.mark.parametrize("viewer", [HUMAN, PUBLIC])
def test_a_copy_whose_reveal_opens_no_commitment_is_one_finding(viewer, store_service):
    """docs/replay-format.md, Dice: a reveal must open the commitment. A copy whose seed was replaced
    (and rechained) is left partial, and the forged reveal is said once, where it stands."""
    entries = copy_for(viewer, store_service)
    reveal = entries[-1]
    assert reveal.type_name == "SeedRevealed"
    report = audit_log(edited(entries, reveal.version, rechain=True, seed=bytes(32)))
    assert report.partial and report.finished
    assert [(f.version, f.kind) for f in report.findings] == [(reveal.version, "seed")]


@pytest.mark.parametrize("viewer", [HUMAN, PUBLIC])
def test_a_fork_of_a_finished_game_is_re_decided_in_every_copy(viewer, store_service):
    """Once every seed a copy committed to is public (the original's, named by ForkedFrom, and the
    fork's own), its sealed events are re-decided like any other; a forged reveal in it is caught."""
    game_id = import_game(store_service, PATH.read_bytes(), PATH.name).stored
    entries = parse_replay(PATH.read_bytes())[1]
    at = next(e.version for e in entries if e.type_name == "ActionTaken" and e.fields["player"] != HOST) + 20
    at = next(e.version - 1 for e in entries if e.version > at and e.type_name == "ActionTaken")
    fork_id, _ = store_service.fork_game(game_id, at, same_dice=True)
    play_with_bots(store_service, fork_id, seed=1)
    recorded = redacted(store_service.verified_events(fork_id), viewer)
    copy_entries = parse_replay(encode_replay(str(fork_id), recorded, viewer))[1]
    report = audit_log(copy_entries)
    assert report.ok and not report.partial and report.finished, [f.detail for f in report.findings]
    assert report.draws == report.draws_verified > 0
    answer = next(e for e in copy_entries if e.type_name == "IdentityRevealed")
    lie = "human" if answer.fields["identity"] == "vampire" else "vampire"
    forged = audit_log(edited(copy_entries, answer.version, rechain=True, identity=lie))
    assert caught_at(forged, answer.version, "rules")


def test_a_running_game_with_secrets_cannot_be_forked(store_service):
    """A fork's play would make the rules reveal the copied secrets while the original still runs."""
    game_id = store_service.create_game(
        "vampire-empire", [(HUMAN, "human"), (VAMPIRE, "vampire")], {}, None, [], False
    )
    last = len(store_service.verified_events(game_id))
    with pytest.raises(IllegalAction, match="keeps secrets: it can be forked only once its seed is revealed"):
        store_service.fork_game(game_id, last)
    assert len(store_service.verified_events(game_id)) == last


def test_a_game_takes_in_no_forged_reveal_even_with_the_chain_recomputed(store_service):
    """Import audits the whole log: a host log whose death answer was flipped (and rechained) is refused
    at that event, and nothing is stored."""
    entries = parse_replay(PATH.read_bytes())[1]
    answer = first(entries, "IdentityRevealed", reason="death", identity="vampire")
    forged = edited(entries, answer.version, rechain=True, identity="human")
    recorded = recorded_of(forged)
    game = msgpack.unpackb(PATH.read_bytes(), raw=False, timestamp=3)["header"]["game"]
    with pytest.raises(TamperedLog, match=f"fails its audit at event {answer.version} "):
        import_game(store_service, encode_replay(game, recorded), "forged.nkr")
    assert store_service.recorder.max_notification_id() in (None, 0)


def test_a_copy_with_sealed_events_is_not_forked(store_service):
    """Only the host's full log can be played on: a fork of a player's copy would lack the hands."""
    game_id = import_game(store_service, PATH.read_bytes(), PATH.name).stored
    copy_id = uuid.uuid4()
    store_service.store_recorded(copy_id, redacted(store_service.verified_events(game_id), PUBLIC))
    at = next(e.version - 1 for e in parse_replay(PATH.read_bytes())[1][40:] if e.type_name == "ActionTaken")
    with pytest.raises(IllegalAction, match="only the host's full log can be forked"):
        store_service.fork_game(copy_id, at)


def test_a_salt_map_holding_something_other_than_bytes_is_a_format_finding():
    entries = parse_replay(PATH.read_bytes())[1]
    tokens = first(entries, "IdentityTokensDrawn", owner=VAMPIRE)
    salts = {c: s.hex() for c, s in tokens.fields["salts"].items()}
    report = audit_log(edited(entries, tokens.version, rechain=True, salts=salts))
    assert caught_at(report, tokens.version, "format")


@pytest.mark.parametrize(
    ("copy", "label"),
    [
        ("Hana", "Vlad"),
        ("Vlad", "Hana"),
        ("public", "Hana"),
        ("public", "Ann"),
        ("Hana", "host"),
        ("Hana", ""),
    ],
)
def test_a_copy_relabelled_as_someone_elses_is_refused(store_service, copy, label):
    """The header's viewer is not chained, so it is checked against what the copy holds: a player's
    copy shows exactly that player's private events (found by the fuzz soak: a relabelled copy was
    stored as the copy of a player it was not)."""
    path = PATH.with_name(f"vampire-empire-001-{copy}.nkr")
    document = msgpack.unpackb(path.read_bytes(), raw=False, timestamp=3)
    document["header"]["viewer"] = label
    data = msgpack.packb(document, use_bin_type=True, datetime=True)
    report = audit_replay(data, "relabelled.nkr")
    assert report.first("header") is not None, report.findings
    with pytest.raises(TamperedLog, match="header"):
        import_game(store_service, data, "relabelled.nkr")
    assert store_service.recorder.max_notification_id() in (None, 0)


def test_a_sealed_entry_at_another_class_version_is_refused(store_service):
    """Found by a red-team review: the `v` of a sealed entry was never compared, so a copy with one
    re-chained `v` imported and then blocked every genuine copy of the game."""
    path = PATH.with_name("vampire-empire-001-public.nkr")
    document = msgpack.unpackb(path.read_bytes(), raw=False, timestamp=3)
    sealed = next(e for e in document["events"] if set(e["fields"]) == {"owner", "sealed"})
    for v in (7, 0, 2):
        sealed["v"] = v
        chain = GENESIS_CHAIN
        for entry in document["events"]:
            chain = entry["chain"] = next_chain(chain, entry["type"], entry["v"], entry["fields"])
        data = msgpack.packb(document, use_bin_type=True, datetime=True)
        assert audit_replay(data, "forged.nkr").first_finding().version == sealed["version"], v
        with pytest.raises(TamperedLog):
            import_game(store_service, data, "forged.nkr")
    assert store_service.recorder.max_notification_id() in (None, 0)


def test_a_running_copy_sealed_for_someone_without_a_seat_is_a_finding(store_service):
    """Found by a red-team review: while the seed is secret a sealed entry's owner went unchecked."""
    game_id = store_service.create_game("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")])
    document = msgpack.unpackb(export_game(store_service, game_id, PUBLIC), raw=False, timestamp=3)
    sealed = next(e for e in document["events"] if set(e["fields"]) == {"owner", "sealed"})
    sealed["fields"]["owner"] = "Mallory"
    chain = GENESIS_CHAIN
    for entry in document["events"]:
        chain = entry["chain"] = next_chain(chain, entry["type"], entry["v"], entry["fields"])
    report = audit_replay(msgpack.packb(document, use_bin_type=True, datetime=True), "forged.nkr")
    assert report.partial and report.first_finding().version == sealed["version"]
    assert "no seat" in report.first_finding().detail


@pytest.mark.parametrize("player", [HOST, "Mallory"])
def test_a_running_copy_with_an_action_by_the_host_or_no_seat_is_a_finding(store_service, player):
    """Found by an independent verifier: while the seed is secret, an action the host claimed for itself
    after the start went unchecked in a sealed copy (ActionTaken.player is a seat, or the host at the
    start)."""
    game_id = store_service.create_game("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")])
    play_with_bots(store_service, game_id, seed=3, max_actions=4)
    document = msgpack.unpackb(export_game(store_service, game_id, PUBLIC), raw=False, timestamp=3)
    action = [e for e in document["events"] if e["type"] == "ActionTaken"][-1]
    action["fields"]["player"] = player
    chain = GENESIS_CHAIN
    for entry in document["events"]:
        chain = entry["chain"] = next_chain(chain, entry["type"], entry["v"], entry["fields"])
    report = audit_replay(msgpack.packb(document, use_bin_type=True, datetime=True), "forged.nkr")
    assert report.partial and report.first_finding().version == action["version"]
    assert f"{player} acted while" in report.first_finding().detail or "acts only to start" in (
        report.first_finding().detail
    )
