"""Hidden information: private events sealed in the chain, per-viewer copies of the log, commitments.

A test-only private event stands in for the castle game's secrets (issue 5) until it lands.
"""

from __future__ import annotations

import hashlib
import json

import msgpack
import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.errors import UsageError
from domain.events import Event, event_type, next_chain
from domain.hidden import HOST, PUBLIC, commit, reveal_matches, sees
from event_store.app.replay_file import audit_replay, export_game, import_game, read_replay
from event_store.app.service import GameService

SECRET = "the-lady-is-a-vampire"
SALT = hashlib.sha256(b"nightkeep-test-salt").digest()


@event_type
class SecretNoted(Event):
    """Test only: a fact the host notes for one player (a host event: no rule decides it)."""

    private = True
    is_host_event = True
    owner: str
    value: str
    salt: bytes


def game_with_secret(service: GameService):
    game_id = service.create_game("toy-race", [("Ann", None), ("Bo", None)])
    game = service.get_game(game_id)
    game.record(SecretNoted(owner="Ann", value=SECRET, salt=SALT))
    service.save(game)
    return game_id


def test_a_commitment_checks_its_reveal():
    committed = commit(SECRET, SALT)
    assert reveal_matches(committed, SECRET, SALT)
    assert not reveal_matches(committed, "the-lady-is-human", SALT)
    assert not reveal_matches(committed, SECRET, bytes(32))


def test_only_the_owner_and_the_host_see_a_private_event():
    fields = {"owner": "Ann", "value": SECRET, "salt": SALT}
    assert sees("Ann", "SecretNoted", fields) and sees(HOST, "SecretNoted", fields)
    assert not sees("Bo", "SecretNoted", fields) and not sees(PUBLIC, "SecretNoted", fields)
    assert sees("Bo", "DieRolled", {"player": "Ann"})


@pytest.mark.parametrize(("viewer", "shown"), [(HOST, True), ("Ann", True), ("Bo", False), (PUBLIC, False)])
def test_a_viewers_copy_holds_no_secret_it_may_not_see_and_still_verifies(memory_service, viewer, shown):
    game_id = game_with_secret(memory_service)
    data = export_game(memory_service, game_id, viewer)
    assert (SECRET.encode() in data) is shown and (SALT in data) is shown
    replay = read_replay(data, "copy.nkr")  # the chain verifies end to end either way
    full = memory_service.recorded_events(game_id)
    assert [e.chain for e in replay.events] == [e.chain for e in full]
    report = audit_replay(data, "copy.nkr")
    assert report.ok, report.findings
    assert any("sealed" in note for note in report.notes) is not shown
    assert ("viewer" in replay.header) is not shown


def test_a_sealed_copy_is_imported_as_a_copy_and_the_hosts_log_as_the_game(memory_service):
    game_id = game_with_secret(memory_service)
    other = GameService.open(":memory:")
    bos = export_game(memory_service, game_id, "Bo")
    copy = import_game(other, bos)
    assert (copy.game, copy.viewer) == (game_id, "Bo") and copy.stored != game_id
    assert export_game(other, copy.stored, "Bo") == bos
    with pytest.raises(UsageError, match="Bo's copy"):
        export_game(other, copy.stored, "Ann")  # a copy cannot be unsealed for someone else
    full = export_game(memory_service, game_id, HOST)
    assert import_game(other, full).stored == game_id
    assert export_game(other, game_id, HOST) == full


def test_a_forged_seal_breaks_the_chain_at_it(memory_service):
    game_id = game_with_secret(memory_service)
    document = msgpack.unpackb(export_game(memory_service, game_id, "Bo"), raw=False, timestamp=3)
    sealed = next(e for e in document["events"] if e["type"] == "SecretNoted")
    assert set(sealed["fields"]) == {"owner", "sealed"}
    sealed["fields"]["sealed"] = bytes(32)
    report = audit_replay(msgpack.packb(document, use_bin_type=True, datetime=True), "forged.nkr")
    assert report.first("chain") is not None and report.first("chain").version == sealed["version"]


def test_the_seal_covers_the_whole_private_event():
    fields = {"owner": "Ann", "value": SECRET, "salt": SALT}
    sealed = next_chain(bytes(32), "SecretNoted", 1, fields)
    assert sealed == next_chain(bytes(32), "SecretNoted", 1, {**fields})
    assert sealed != next_chain(bytes(32), "SecretNoted", 1, {**fields, "value": "other"})


def test_a_private_event_type_must_carry_an_owner_and_a_salt():
    with pytest.raises(TypeError, match="owner.*salt"):

        @event_type
        class Unsalted(Event):
            private = True
            owner: str
            value: str


def test_cli_log_show_and_export_as_a_viewer(new_store, tmp_path):
    db = new_store("s")
    service = GameService.open(db)
    game_id = str(game_with_secret(service))

    def run(*args: str):
        return CliRunner().invoke(cli, ["--db", db, *args])

    public = run("log", game_id, "--json")
    assert public.exit_code == 0 and SECRET not in public.stdout and SALT.hex() not in public.stdout
    assert "Something only Ann may see" in run("log", game_id).stdout
    mine = run("log", game_id, "--as", "Ann", "--json")
    assert SECRET in mine.stdout
    assert SECRET not in run("log", game_id, "--as", "Bo", "--json").stdout
    assert json.loads(run("show", game_id, "--as", "Bo", "--json").stdout)["game"] == game_id
    refused = run("show", game_id, "--as", "Mallory")
    assert refused.exit_code == 2 and "no player 'Mallory'" in refused.stderr
    out = tmp_path / "bo.nkr"
    assert run("export", game_id, "-o", str(out), "--as", "Bo").exit_code == 0
    assert SECRET.encode() not in out.read_bytes()
    assert run("audit", str(out)).exit_code == 0


def test_cli_replay_as_a_viewer_seals_what_it_may_not_see(new_store, tmp_path):
    db = new_store("s")
    game_id = str(game_with_secret(GameService.open(db)))
    told = CliRunner().invoke(cli, ["--db", db, "replay", game_id, "--no-interactive", "--as", "Bo"])
    assert told.exit_code == 0 and SECRET not in told.stdout and "Something only Ann may see" in told.stdout
    own = CliRunner().invoke(cli, ["--db", db, "replay", game_id, "--no-interactive", "--as", "Ann"])
    assert own.exit_code == 0 and SECRET in own.stdout


def test_a_sealed_copy_is_a_partial_audit_that_still_recomputes_its_public_dice(memory_service):
    game_id = game_with_secret(memory_service)
    memory_service.take_action(game_id, "Ann", "roll")
    memory_service.reveal_seed(game_id)
    document = msgpack.unpackb(export_game(memory_service, game_id, "Bo"), raw=False, timestamp=3)
    clean = audit_replay(msgpack.packb(document, use_bin_type=True, datetime=True), "bo.nkr")
    assert clean.ok and clean.partial and clean.draws_verified == clean.draws > 0
    rolled = next(e for e in document["events"] if e["type"] == "DieRolled")
    rolled["fields"]["values"] = [v % 6 + 1 for v in rolled["fields"]["values"]]
    chain = bytes(32)
    for event in document["events"]:  # a forger recomputes the whole chain
        chain = event["chain"] = next_chain(chain, event["type"], event["v"], event["fields"])
    forged = audit_replay(msgpack.packb(document, use_bin_type=True, datetime=True), "forged.nkr")
    assert forged.first("dice") is not None and forged.first("dice").version == rolled["version"]


def test_the_viewer_header_must_match_the_copy(memory_service):
    game_id = game_with_secret(memory_service)
    document = msgpack.unpackb(export_game(memory_service, game_id, "Bo"), raw=False, timestamp=3)
    del document["header"]["viewer"]
    report = audit_replay(msgpack.packb(document, use_bin_type=True, datetime=True), "relabelled.nkr")
    assert report.first("header") is not None


def test_a_malformed_seal_is_a_finding(memory_service):
    game_id = game_with_secret(memory_service)
    document = msgpack.unpackb(export_game(memory_service, game_id, "Bo"), raw=False, timestamp=3)
    sealed = next(e for e in document["events"] if e["type"] == "SecretNoted")
    sealed["fields"]["sealed"] = b"short"
    chain = bytes(32)
    for event in document["events"]:
        chain = event["chain"] = next_chain(chain, event["type"], event["v"], event["fields"])
    report = audit_replay(msgpack.packb(document, use_bin_type=True, datetime=True), "forged.nkr")
    assert report.first("format") is not None and report.first("format").version == sealed["version"]


def test_replaying_a_full_file_without_as_shows_only_public_facts(memory_service, tmp_path):
    game_id = game_with_secret(memory_service)
    path = tmp_path / "host.nkr"
    path.write_bytes(export_game(memory_service, game_id, HOST))
    told = CliRunner().invoke(cli, ["replay", str(path), "--no-interactive"])
    assert told.exit_code == 0 and SECRET not in told.stdout
    assert SECRET in CliRunner().invoke(cli, ["replay", str(path), "--no-interactive", "--as", "host"]).stdout
