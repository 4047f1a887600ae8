"""Per-turn dice keys (docs/replay-format.md, "Dice"): every public die and pick of a game is checked the
turn it is made, each key against the chain the host committed to, a seat's own private draws with its
private key, the other seats' at the reveal; a host that records another face, releases a key off its
chain or commits an anchor its seed does not give is caught; games made before keys keep their dice."""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import UUID

import pytest

import domain.dice
import domain.game
from domain.audit import AuditReport
from domain.dice import chain_anchor, private_key
from domain.events import canonical_form
from event_store.app.replay_file import audit_replay, export_game
from event_store.app.service import GameService, play_with_bots
from tests.log_mutations import pack, rechain, unpack

Document = dict[str, Any]


def _playing(
    ruleset: str, players: list[tuple[str, str | None]], actions: int, seed: int = 1
) -> tuple[GameService, UUID]:
    service = GameService.open(":memory:")
    game_id = service.create_game(ruleset, players)
    play_with_bots(service, game_id, seed=seed, max_actions=actions)
    return service, game_id


def _document(service: GameService, game_id: UUID, viewer: str = "host") -> Document:
    return unpack(export_game(service, game_id, viewer))


def _audit(document: Document) -> AuditReport:
    canonical: bytes = pack(canonical_form(rechain(document)))
    return audit_replay(canonical, "the forged copy")


def _kinds(report: AuditReport) -> set[str]:
    return {finding.kind for finding in report.findings}


def test_a_running_game_has_every_public_draw_checked_before_its_seed_is_revealed():
    service, game_id = _playing("talisman", [("Ann", None), ("Bo", None), ("Cy", None)], 80)
    events = [r.type_name for r in service.recorded_events(game_id)]
    assert "SeedRevealed" not in events and events[2] == "DiceChainCommitted"
    report = service.audit(game_id)
    assert not report.findings
    assert report.draws == report.draws_verified > 50
    assert not any("cannot be verified" in note for note in report.notes)


def test_a_loaded_die_is_caught_the_turn_it_is_rolled():
    service, game_id = _playing("dungeon-short", [("Ann", None), ("Bo", None)], 30)
    document = _document(service, game_id)
    rolls = [e for e in document["events"] if e["type"] == "DieRolled"]
    loaded = rolls[-1]["fields"]
    loaded["values"][0] = loaded["values"][0] % 6 + 1  # another face than the key gives
    report = _audit(document)
    assert "dice" in _kinds(report)
    assert any("the turn's key gives" in f.detail for f in report.findings), report.findings


def test_a_key_off_the_committed_chain_is_caught():
    service, game_id = _playing("dungeon-short", [("Ann", None), ("Bo", None)], 30)
    document = _document(service, game_id)
    actions = [e for e in document["events"] if e["type"] == "ActionTaken"]
    actions[-1]["fields"]["dice_key"] = hashlib.sha256(b"a key the host chose").digest()
    report = _audit(document)
    assert any("is not link" in f.detail for f in report.findings), report.findings


def test_an_anchor_its_seed_does_not_give_is_caught_at_the_reveal():
    service, game_id = _playing("dungeon-short", [("Ann", None), ("Bo", None)], 100_000)
    document = _document(service, game_id)
    assert document["events"][-1]["type"] == "SeedRevealed"
    assert not service.audit(game_id).findings
    (committed,) = [e for e in document["events"] if e["type"] == "DiceChainCommitted"]
    committed["fields"]["anchor"] = hashlib.sha256(b"another chain").digest()
    report = _audit(document)
    assert any("does not come from the seed" in f.detail for f in report.findings), report.findings


def test_a_seat_checks_its_own_private_draws_at_once_and_cannot_see_the_others_key():
    service, game_id = _playing("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")], 10)
    seed = service.seed_of(game_id)
    hana = _document(service, game_id, "Hana")
    assert hana["header"]["viewer"] == "Hana"
    report = _audit(hana)
    assert not report.findings and report.partial
    hands = [e for e in hana["events"] if e["type"] == "CardsReceived" and e["fields"].get("owner") == "Hana"]
    own = sum(len([d for d in e["fields"]["draws"] if d >= 0]) + 1 for e in hands)  # picks and salt
    assert report.draws_verified >= own > 0
    assert private_key(seed, "Vlad") not in export_game(service, game_id, "Hana")
    assert private_key(seed, "Hana") in export_game(service, game_id, "Hana")
    # A host that gives Hana another card than her key picks is caught by her own copy.
    received = next(e for e in hands if len(e["fields"]["cards"]) > 1)["fields"]
    received["cards"][0], received["cards"][1] = received["cards"][1], received["cards"][0]
    forged = _audit(hana)
    assert any("Hana's key gives" in f.detail for f in forged.findings), forged.findings


def test_games_made_before_turn_keys_keep_their_shapes_and_dice(monkeypatch):
    monkeypatch.setattr("event_store.app.service.NIGHTKEEP_VERSION", "0.3.0")
    service, game_id = _playing("dungeon-short", [("Ann", None), ("Bo", None)], 100_000)
    recorded = service.recorded_events(game_id)
    assert not any(r.type_name in ("DiceChainCommitted", "DiceKeyDealt") for r in recorded)
    assert {r.class_version for r in recorded if r.type_name == "ActionTaken"} == {2}
    assert not service.audit(game_id).findings
    assert unpack(export_game(service, game_id))["format_version"] == 1


def test_a_game_longer_than_a_segment_commits_the_next_segment_in_time(monkeypatch):
    monkeypatch.setattr(domain.dice, "CHAIN_LINKS", 4)
    monkeypatch.setattr(domain.game, "CHAIN_LINKS", 4)
    service, game_id = _playing("dungeon-short", [("Ann", None), ("Bo", None)], 100_000)
    recorded = service.recorded_events(game_id)
    segments = [r.event.segment for r in recorded if r.type_name == "DiceChainCommitted"]
    actions = sum(1 for r in recorded if r.type_name == "ActionTaken")
    assert segments == list(range(len(segments))) and len(segments) >= actions // 4
    seed = service.seed_of(game_id)
    anchors = [r.event.anchor for r in recorded if r.type_name == "DiceChainCommitted"]
    assert anchors == [chain_anchor(seed, s) for s in segments]
    report = service.audit(game_id)
    assert not report.findings and report.draws == report.draws_verified


@pytest.mark.parametrize("ruleset", ["dungeon-short", "vampire-empire"])
def test_an_honest_game_audits_clean_in_every_copy_while_running(ruleset):
    players = [("Hana", "human"), ("Vlad", "vampire")] if ruleset == "vampire-empire" else [("Ann", None)]
    if ruleset != "vampire-empire":
        players.append(("Bo", None))
    service, game_id = _playing(ruleset, players, 12)
    for viewer in ("host", *(name for name, _ in players), ""):
        report = audit_replay(export_game(service, game_id, viewer), viewer or "public")
        assert not report.findings, (viewer, report.findings)
