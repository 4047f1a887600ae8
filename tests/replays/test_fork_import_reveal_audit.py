"""Fork, import, reveal and audit on real Dungeon games: the service API and the CLI contract."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

import msgpack
import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.actions import HOST
from domain.audit import audit_log
from domain.dice import commit_to_seed
from domain.errors import IllegalAction, ImportConflict, SeedNotHeld, TamperedLog, UnreadableLog, UsageError
from domain.events import (
    GENESIS_CHAIN,
    ActionTaken,
    DieRolled,
    ForkedFrom,
    SeedCommitted,
    canonical_form,
    next_chain,
    registered_event_types,
)
from event_store.app.replay_file import (
    audit_replay,
    encode_replay,
    export_game,
    import_game,
    parse_replay,
    recorded_of,
)
from event_store.app.service import GameService, play_with_bots
from event_store.config import store_exists
from tests import store_rows

PLAYERS = [("Ann", None), ("Bo", None), ("Cy", None)]
REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def finished_game(service: GameService, seed: int = 7):
    game_id = service.create_game("dungeon-short", PLAYERS)
    play_with_bots(service, game_id, seed=seed)
    return game_id


def running_game(service: GameService, actions: int = 6):
    game_id = service.create_game("dungeon-short", PLAYERS)
    play_with_bots(service, game_id, seed=3, max_actions=actions)
    assert not service.get_game(game_id).is_finished
    return game_id


def boundaries(service: GameService, game_id):
    """Versions after which a player is about to act."""
    return [r.version - 1 for r in service.recorded_events(game_id) if isinstance(r.event, ActionTaken)]


def rechain(document):
    """Recomputes every chain value and the header count after an edit (a careful forger's file)."""
    chain = GENESIS_CHAIN
    for index, event in enumerate(document["events"], start=1):
        event["version"] = index
        chain = event["chain"] = next_chain(chain, event["type"], event["v"], event["fields"])
    document["header"]["events"] = len(document["events"])
    return packed(document)


def packed(document) -> bytes:
    """Encodes a (forged) document canonically, as a careful forger would (other bytes are unreadable)."""
    return msgpack.packb(canonical_form(document), use_bin_type=True, datetime=True)


def unpack(data: bytes):
    return msgpack.unpackb(data, raw=False, timestamp=3)


# --- audit ---------------------------------------------------------------------------------------------


def test_a_finished_game_audits_clean_with_every_draw_verified(memory_service):
    game_id = finished_game(memory_service)
    report = memory_service.audit(game_id)
    assert report.ok, report.findings
    assert report.finished and report.draws > 0 and report.draws_verified == report.draws
    assert report.actions == len(boundaries(memory_service, game_id))


def test_a_running_game_has_its_dice_verified_with_each_turns_key(memory_service):
    game_id = running_game(memory_service)
    report = memory_service.audit(game_id)
    assert report.ok and not report.finished
    assert report.draws > 0 and report.draws_verified == report.draws and not report.notes
    memory_service.reveal_seed(game_id)
    revealed = memory_service.audit(game_id)
    assert revealed.ok and revealed.draws_verified == revealed.draws and not revealed.notes


def test_a_running_game_made_before_turn_keys_says_its_dice_cannot_be_verified_yet(
    memory_service, monkeypatch
):
    monkeypatch.setattr("event_store.app.service.NIGHTKEEP_VERSION", "0.3.0")
    game_id = running_game(memory_service)
    report = memory_service.audit(game_id)
    assert report.ok and not report.finished
    assert report.draws > 0 and report.draws_verified == 0
    assert any("not revealed yet" in note for note in report.notes)
    memory_service.reveal_seed(game_id)
    revealed = memory_service.audit(game_id)
    assert revealed.ok and revealed.draws_verified == revealed.draws and not revealed.notes


def test_a_rewritten_die_is_caught_by_the_seed_even_with_a_consistent_chain(memory_service):
    document = unpack(export_game(memory_service, finished_game(memory_service)))
    rolled = next(e for e in document["events"] if e["type"] == "DieRolled")
    rolled["fields"]["values"] = [v % 6 + 1 for v in rolled["fields"]["values"]]
    report = audit_replay(rechain(document), "forged.nkr")
    dice = report.first("dice")
    assert dice is not None and dice.version == rolled["version"]
    assert report.first("chain") is None


def test_the_same_forgery_is_caught_by_the_rules_while_the_seed_is_secret(memory_service):
    document = unpack(export_game(memory_service, running_game(memory_service, actions=12)))
    events = document["events"]
    action = next(
        i for i, e in enumerate(events) if e["type"] == "ActionTaken" and e["fields"]["player"] != "host"
    )
    del events[action + 1]  # drop the action's first consequence
    report = audit_replay(rechain(document), "forged.nkr")
    rules = report.first("rules")
    assert rules is not None and rules.version == action + 2
    assert report.first("dice") is None  # nothing can be said about the dice yet


def test_a_changed_content_hash_or_ruleset_is_a_content_finding(memory_service):
    data = export_game(memory_service, finished_game(memory_service))
    for key, value in (("content_hash", "0" * 64), ("ruleset", "no-such-game")):
        document = unpack(data)
        document["events"][0]["fields"][key] = value
        document["header"][key] = value
        report = audit_replay(rechain(document), "forged.nkr")
        assert report.first("content") is not None and report.first("content").version == 1, key
        assert any("not re-checked" in note for note in report.notes)


def test_a_store_edited_behind_the_service_is_caught_at_the_edited_event(db):
    path = db
    service = GameService.open(path)
    game_id = finished_game(service)
    rolled = next(r for r in service.recorded_events(game_id) if isinstance(r.event, DieRolled))
    transcoder = service.mapper.transcoder
    state = transcoder.decode(store_rows.event_state(service, game_id, rolled.version))
    state["fields"]["values"] = [v % 6 + 1 for v in state["fields"]["values"]]
    store_rows.set_event_state(service, game_id, rolled.version, transcoder.encode(state))
    service.close()
    result = CliRunner().invoke(cli, ["--db", path, "audit", str(game_id), "--json"])
    assert result.exit_code == 1, result.output
    (report,) = json.loads(result.stdout)
    kinds = {(f["kind"], f["version"]) for f in report["findings"]}
    assert ("chain", rolled.version) in kinds and ("dice", rolled.version) in kinds


def test_every_event_that_records_one_draw_names_what_it_picked():
    for name, cls in registered_event_types().items():
        if "draw" in cls._field_names:
            assert cls.picked_field in cls._field_names, name


# --- fork ----------------------------------------------------------------------------------------------


def test_a_fork_copies_the_history_and_commits_to_a_new_seed(memory_service):
    original = running_game(memory_service, actions=10)
    at = boundaries(memory_service, original)[4]
    fork_id, forked_from = memory_service.fork_game(original, at)
    events = memory_service.recorded_events(fork_id)
    source = memory_service.recorded_events(original, lte=at)
    assert events[0].event == forked_from
    assert forked_from.chain == source[-1].chain and forked_from.seed == b""  # the original still runs
    assert [(e.type_name, e.fields) for e in events[1 : at + 1]] == [(e.type_name, e.fields) for e in source]
    assert isinstance(events[at + 1].event, SeedCommitted)
    assert events[at + 1].fields["commitment"] != source[1].fields["commitment"]
    fold = memory_service.fold(fork_id)
    assert fold.state == memory_service.fold(original, at).state
    play_with_bots(memory_service, fork_id, seed=5)
    report = memory_service.audit(fork_id)
    assert report.ok, report.findings
    # The copied draws are checked with the original's turn keys, copied with them.
    assert report.draws == report.draws_verified and not report.notes


def test_a_fork_with_the_same_dice_replays_the_original_exactly(memory_service):
    original = finished_game(memory_service)
    at = boundaries(memory_service, original)[6]
    fork_id, forked_from = memory_service.fork_game(original, at, same_dice=True)
    assert forked_from.seed == memory_service.seed_of(original)
    later = memory_service.recorded_events(original, gt=at)
    for recorded in later:
        if isinstance(recorded.event, ActionTaken):
            action = recorded.event
            memory_service.take_action(fork_id, action.player, action.action, nonce=action.nonce)
    replayed = memory_service.recorded_events(fork_id, gt=at + 3)  # ForkedFrom, seed, key chain
    assert [(r.type_name, r.fields) for r in replayed] == [(r.type_name, r.fields) for r in later]
    report = memory_service.audit(fork_id)
    assert report.ok and report.draws_verified == report.draws


def test_same_dice_is_refused_until_the_original_seed_is_revealed(memory_service):
    original = running_game(memory_service)
    at = boundaries(memory_service, original)[-1]
    with pytest.raises(IllegalAction, match="revealed"):
        memory_service.fork_game(original, at, same_dice=True)
    memory_service.reveal_seed(original)
    _, forked_from = memory_service.fork_game(original, at, same_dice=True)
    assert (
        commit_to_seed(forked_from.seed) == memory_service.recorded_events(original)[1].fields["commitment"]
    )


def test_a_fork_must_start_where_a_player_is_about_to_act(memory_service):
    original = finished_game(memory_service)
    at = boundaries(memory_service, original)[3]
    before = memory_service.recorder.max_notification_id()
    with pytest.raises(UsageError, match=f"event {at + 1} is not an action boundary.*{at}"):
        memory_service.fork_game(original, at + 1)
    last = memory_service.get_game(original).version
    with pytest.raises(UsageError, match=f"event {last} is not an action boundary"):
        memory_service.fork_game(original, last)  # the game is over there
    with pytest.raises(UsageError, match=f"events 1 to {last}"):
        memory_service.fork_game(original, last + 1)
    assert memory_service.recorder.max_notification_id() == before


def test_forks_can_be_forked_and_every_generation_audits_and_round_trips(memory_service):
    original = finished_game(memory_service)
    first, _ = memory_service.fork_game(original, boundaries(memory_service, original)[5])
    play_with_bots(memory_service, first, seed=11)
    second, forked_from = memory_service.fork_game(first, boundaries(memory_service, first)[-2])
    play_with_bots(memory_service, second, seed=12)
    events = memory_service.recorded_events(second)
    assert [type(e.event) for e in events[:2]] == [ForkedFrom, ForkedFrom]
    for game_id in (first, second):
        report = memory_service.audit(game_id)
        assert report.ok and report.draws_verified == report.draws, report.findings
        data = export_game(memory_service, game_id)
        assert audit_replay(data, "fork.nkr").ok
        other = GameService.open(":memory:")
        assert import_game(other, data).stored == game_id
        assert export_game(other, game_id) == data


def test_a_fork_whose_copy_was_altered_is_a_fork_finding(memory_service):
    original = finished_game(memory_service)
    fork_id, _ = memory_service.fork_game(original, boundaries(memory_service, original)[5])
    document = unpack(export_game(memory_service, fork_id))
    moved = next(e for e in document["events"] if e["type"] == "Moved")
    moved["fields"]["reason"] = "teleported"
    report = audit_replay(rechain(document), "fork.nkr")
    assert report.first("fork") is not None and report.first("fork").version == 1


# --- import --------------------------------------------------------------------------------------------


def test_a_longer_copy_of_an_imported_game_is_appended_and_an_older_one_changes_nothing(memory_service):
    game_id = running_game(memory_service)
    early = export_game(memory_service, game_id)
    play_with_bots(memory_service, game_id, seed=3, max_actions=3)
    later = export_game(memory_service, game_id)
    held, total = len(unpack(early)["events"]), len(unpack(later)["events"])
    other = GameService.open(":memory:")
    assert import_game(other, early).added == held
    assert import_game(other, early).added == 0
    extended = import_game(other, later)
    assert (extended.stored, extended.added, extended.events) == (game_id, total - held, total)
    assert export_game(other, game_id) == later
    before = other.recorder.max_notification_id()
    assert import_game(other, early).added == 0  # a shorter copy of the same history
    assert other.recorder.max_notification_id() == before


def test_import_refuses_a_different_history_under_the_same_id(memory_service):
    game_id, impostor = running_game(memory_service), running_game(memory_service)
    # The header's game id is only a label: another game's log labelled with this game's id.
    relabelled = encode_replay(str(game_id), memory_service.verified_events(impostor))
    other = GameService.open(":memory:")
    import_game(other, export_game(memory_service, game_id))
    before = other.recorder.max_notification_id()
    with pytest.raises(ImportConflict, match="part at event 2:"):  # each game committed to its own seed
        import_game(other, relabelled)
    assert other.recorder.max_notification_id() == before


def test_a_game_this_store_plays_takes_no_events_from_a_file(memory_service):
    game_id = running_game(memory_service)
    early = export_game(memory_service, game_id)
    play_with_bots(memory_service, game_id, seed=3, max_actions=2)
    other = GameService.open(":memory:")
    import_game(other, early)
    other.secrets.put(game_id, bytes(32))  # as if this store were the game's host
    with pytest.raises(IllegalAction, match="played in this store"):
        import_game(other, export_game(memory_service, game_id))


def test_an_imported_running_game_can_be_audited_and_forked_but_not_continued(memory_service):
    game_id = running_game(memory_service)
    other = GameService.open(":memory:")
    import_game(other, export_game(memory_service, game_id))
    assert other.audit(game_id).ok
    actions = other.legal_actions(game_id)
    with pytest.raises(SeedNotHeld, match="only its host"):
        other.take_action(game_id, actions[0].player, actions[0].id)
    fork_id, _ = other.fork_game(game_id, boundaries(other, game_id)[-1])
    play_with_bots(other, fork_id, seed=1)
    assert other.audit(fork_id).ok


def test_entropy_from_someone_without_a_seat_is_a_finding_and_is_not_imported(memory_service):
    """Found by the doors soak: the pool reads only the value, so the giver's name went unchecked."""
    game_id = memory_service.create_game("dungeon-short", PLAYERS, entropy=[("Ann", b"ann's words")])
    play_with_bots(memory_service, game_id, seed=4)
    document = unpack(export_game(memory_service, game_id))
    given = next(e for e in document["events"] if e["type"] == "EntropyAdded")
    given["fields"]["player"] = "Zed"
    forged = rechain(document)
    assert audit_replay(forged, "forged.nkr").first_finding().version == given["version"]
    with pytest.raises(TamperedLog, match="no player 'Zed'"):
        import_game(GameService.open(":memory:"), forged, "forged.nkr")
    with pytest.raises(UsageError, match="no player 'Zed'"):  # the service never records it
        GameService.open(":memory:").create_game("dungeon-short", PLAYERS, entropy=[("Zed", b"x")])


def test_a_stored_forgery_is_not_forked(memory_service):
    """A log that reached a store some other way (an older nightkeep's import) is audited before a fork
    copies it: a re-chained die face is refused, and no fork is made."""
    game_id = finished_game(memory_service)
    document = unpack(export_game(memory_service, game_id))
    rolled = next(e for e in document["events"] if e["type"] == "DieRolled")
    rolled["fields"]["values"] = [v % 6 + 1 for v in rolled["fields"]["values"]]
    other = GameService.open(":memory:")
    with pytest.raises(TamperedLog, match=f"fails its audit at event {rolled['version']} "):
        import_game(other, rechain(document))
    forged = recorded_of(parse_replay(rechain(document))[1])
    other.store_recorded(game_id, forged)
    before = other.recorder.max_notification_id()
    with pytest.raises(TamperedLog, match=f"game {game_id} fails its audit at event {rolled['version']} "):
        other.fork_game(game_id, boundaries(other, game_id)[3])
    assert other.recorder.max_notification_id() == before


def test_a_file_in_another_encoding_is_not_imported(memory_service):
    data = export_game(memory_service, finished_game(memory_service))
    document = unpack(data)
    reordered = {"header": document["header"], **{k: v for k, v in document.items() if k != "header"}}
    other = GameService.open(":memory:")
    with pytest.raises(UnreadableLog, match="canonical"):
        import_game(other, msgpack.packb(reordered, use_bin_type=True, datetime=True))


def _longer_first_version(data: bytes) -> bytes:
    """The same file with event 1's `version` written as a uint16 (0xcd 0x00 0x01) instead of a fixint:
    the same values, so the same chain, in bytes no canonical writer gives."""
    at = data.index(b"\xa7version\x01")  # the first event's entry ends with its version
    return data[:at] + b"\xa7version\xcd\x00\x01" + data[at + len(b"\xa7version\x01") :]


def test_a_file_in_another_encoding_is_unreadable_at_every_door(new_store, tmp_path):
    """Found by an independent verifier: `audit` called a file clean that `import` refused for its
    encoding. Bytes that are not the canonical encoding are unreadable at every door (exit 2), even when
    every value, and so every chain value, is the game's own."""
    data = (REPLAYS / "dungeon-short-3p-001.nkr").read_bytes()
    longer = _longer_first_version(data)
    assert longer != data and unpack(longer) == unpack(data)
    path = tmp_path / "longer.nkr"
    path.write_bytes(longer)
    for args in (["audit", str(path)], ["replay", str(path), "--no-interactive"], ["import", str(path)]):
        result = run(new_store("s"), *args)
        assert result.exit_code == 2, (args, result.output)
        assert "not in canonical encoding" in result.stderr + result.stdout, args


# --- CLI -------------------------------------------------------------------------------------------------


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


def test_cli_export_import_fork_reveal_audit(new_store, tmp_path):
    db, other = new_store("a"), new_store("b")
    created = run(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json")
    game = json.loads(created.stdout)["game"]
    assert run(db, "play", game, "--bots", "--seed", "2").exit_code == 0
    path = tmp_path / "game.nkr"
    assert run(db, "export", game, "-o", str(path)).exit_code == 0
    imported = json.loads(run(other, "import", str(path), "--json").stdout)
    assert imported["game"] == game and imported["copy_of"] is None and imported["dice_verified"]
    assert imported["imported"] == imported["events"] > 0
    again = run(other, "import", str(path))
    assert again.exit_code == 0 and "already in the store" in again.stdout
    copy = tmp_path / "copy.nkr"
    assert run(other, "export", game, "-o", str(copy)).exit_code == 0
    assert copy.read_bytes() == path.read_bytes()

    log = json.loads(run(db, "log", game, "--json").stdout)
    at = next(e["version"] for e in log if e["type"] == "ActionTaken" and e["fields"]["player"] != "host") - 1
    forked = run(db, "fork", game, "--at", str(at), "--same-dice", "--json")
    assert forked.exit_code == 0, forked.output
    shape = json.loads(forked.stdout)
    assert shape["forked_from"]["game"] == game and shape["forked_from"]["version"] == at
    refused = run(db, "fork", game, "--at", str(at + 1))
    assert refused.exit_code == 2 and "not an action boundary" in refused.stderr

    audited = run(db, "audit", game, shape["game"], str(path), "--json")
    assert audited.exit_code == 0, audited.output
    reports = json.loads(audited.stdout)
    assert [r["ok"] for r in reports] == [True, True, True]
    assert {"source", "game", "ok", "findings", "notes", "events"} <= set(reports[0])

    text = run(db, "audit", game, str(path))
    assert text.exit_code == 0 and "2 of 2 clean" in text.stdout


def import_a_running_game(new_store, tmp_path):
    """A host creates a game and exports it running; an organiser imports it. Returns both stores, the
    game and what `import` printed."""
    host, organiser = new_store("host"), new_store("organiser")
    created = run(host, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json")
    game = json.loads(created.stdout)["game"]
    path = tmp_path / "running.nkr"
    assert run(host, "export", game, "-o", str(path)).exit_code == 0
    return host, organiser, game, run(organiser, "import", str(path))


def test_an_imported_running_game_has_its_dice_checked_and_says_its_seed_is_secret(new_store, tmp_path):
    host, organiser, game, imported = import_a_running_game(new_store, tmp_path)
    assert imported.exit_code == 0 and "not verified" not in imported.stdout
    assert "holds the seed until the game ends" in run(organiser, "show", game).stdout
    assert json.loads(run(organiser, "show", game, "--json").stdout)["seed"] == "secret"
    assert "seed still secret" in run(organiser, "games").stdout
    audited = run(organiser, "audit", game)
    assert audited.exit_code == 0 and "clean" in audited.stdout and "not yet verifiable" not in audited.stdout


def test_an_imported_running_game_made_before_keys_says_its_dice_are_not_verified_yet(
    new_store, tmp_path, monkeypatch
):
    monkeypatch.setattr("event_store.app.service.NIGHTKEEP_VERSION", "0.3.0")
    host, organiser, game, imported = import_a_running_game(new_store, tmp_path)
    assert imported.exit_code == 0 and "dice are not verified yet" in imported.stdout
    assert "holds the seed until the game ends" in run(organiser, "show", game).stdout
    assert json.loads(run(organiser, "show", game, "--json").stdout)["seed"] == "secret"
    assert json.loads(run(host, "show", game, "--json").stdout)["seed"] == "held"
    (listed,) = json.loads(run(organiser, "games", "--json").stdout)
    assert listed["seed"] == "secret" and "seed still secret" in run(organiser, "games").stdout
    audited = run(organiser, "audit", game)
    assert audited.exit_code == 0 and "dice not yet verifiable" in audited.stdout


def test_cli_reveal_stops_play_and_the_audit_exit_codes(new_store, tmp_path):
    db = new_store("a")
    game = json.loads(run(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json").stdout)[
        "game"
    ]
    revealed = json.loads(run(db, "reveal", game, "--yes", "--json").stdout)
    log = json.loads(run(db, "log", game, "--json").stdout)
    assert log[-1]["type"] == "SeedRevealed" and log[-1]["fields"]["seed"] == revealed["seed"]
    assert commit_to_seed(bytes.fromhex(revealed["seed"])).hex() == log[1]["fields"]["commitment"]
    # Stopped for good: every view says so, nobody is to act, no action is listed or taken.
    shown = json.loads(run(db, "show", game, "--json").stdout)
    assert (shown["status"], shown["to_act"], shown["winner"]) == ("stopped", [], "")
    assert "stopped: its dice seed was revealed" in run(db, "show", game).stdout
    assert [g["status"] for g in json.loads(run(db, "games", "--json").stdout)] == ["stopped"]
    assert json.loads(run(db, "actions", game, "--json").stdout) == []
    assert "No legal actions now: the game was stopped" in run(db, "actions", game).stdout
    refused = run(db, "act", game, "roll", "--as", "Ann")
    assert refused.exit_code == 1 and "stopped" in refused.stderr
    audited = json.loads(run(db, "audit", game, "--json").stdout)[0]
    assert audited["status"] == "stopped" and audited["ok"]
    assert "(stopped by an early reveal)" in run(db, "audit", game).stdout

    good = tmp_path / "good.nkr"
    assert run(db, "export", game, "-o", str(good)).exit_code == 0
    document = unpack(good.read_bytes())
    started = next(e for e in document["events"] if e["type"] == "ActionTaken")
    started["fields"]["nonce"] = b"x"
    bad = tmp_path / "bad.nkr"
    bad.write_bytes(msgpack.packb(canonical_form(document), use_bin_type=True, datetime=True))
    garbage = tmp_path / "garbage.nkr"
    garbage.write_bytes(b"\x93not a replay")
    assert run(db, "audit", str(good)).exit_code == 0
    found = run(db, "audit", str(good), str(bad))
    assert found.exit_code == 1 and f"event {started['version']}: chain" in found.stdout
    unreadable = run(db, "audit", str(good), str(bad), str(garbage))
    assert unreadable.exit_code == 2 and "unreadable" in unreadable.stdout  # the summary table's row
    assert unreadable.stderr.startswith(f"{garbage}: unreadable: {garbage} is not a nightkeep replay file")
    assert len(unreadable.stderr.splitlines()) == 1
    missing = run(db, "audit", "no-such-file.nkr")
    assert missing.exit_code == 2 and "no replay file no-such-file.nkr" in missing.stderr
    not_an_id = run(db, "audit", "no-such-game")
    assert not_an_id.exit_code == 2 and "not a game id" in not_an_id.stderr


def test_audit_log_accepts_any_entries_with_the_recorded_shape(memory_service):
    game_id = finished_game(memory_service)
    entries = memory_service.log_entries(game_id)
    assert audit_log(entries).ok
    # A log cut where a player is about to act is a valid shorter game (anchoring the final chain
    # value is what detects that); a log cut inside an action's consequences is not.
    last_action = max(e.version for e in entries if e.type_name == "ActionTaken")
    assert audit_log(entries[: last_action - 1]).ok
    cut = audit_log(entries[: last_action + 1])
    assert cut.first("rules") is not None and cut.first("rules").version == last_action + 2


def test_the_index_and_the_timeline_tell_a_fork_apart(memory_service):
    from projections.game_index import GameIndex
    from projections.timeline import describe_event

    original = finished_game(memory_service)
    at = boundaries(memory_service, original)[2]
    fork_id, forked_from = memory_service.fork_game(original, at)
    entries = {e["game"]: e for e in GameIndex(memory_service).games()}
    assert entries[str(fork_id)]["forked_from"] == f"{original}@{at}"
    assert entries[str(fork_id)]["ruleset"] == "dungeon-short" and not entries[str(original)]["forked_from"]
    told = describe_event("dungeon-short", forked_from)
    assert str(original) in told and f"event {at}" in told and "revealed" in told


def test_reveal_of_an_imported_game_shows_the_seed_its_log_already_reveals(memory_service):
    game_id = finished_game(memory_service)
    other = GameService.open(":memory:")
    import_game(other, export_game(memory_service, game_id))
    assert other.reveal_seed(game_id) == memory_service.seed_of(game_id)


def test_audit_in_worker_processes_gives_the_same_reports_in_the_same_order(new_store, tmp_path):
    from pathlib import Path

    replays = sorted((Path(__file__).resolve().parents[2] / "replays").glob("*.nkr"))
    paths = []
    for index, source in enumerate(replays * 2):
        path = tmp_path / f"{index}.nkr"
        data = source.read_bytes()
        if index == 1:
            document = unpack(data)
            document["events"][5]["fields"]["player"] = "Mallory"
            data = msgpack.packb(document, use_bin_type=True, datetime=True)
        path.write_bytes(data)
        paths.append(str(path))
    paths.append(str(tmp_path / "missing.nkr"))  # not a file: looked up as a game id, unreadable
    db = new_store("a")
    serial = run(db, "audit", *paths, "--jobs", "1", "--json")
    parallel = run(db, "audit", *paths, "--jobs", "2", "--json")
    assert serial.exit_code == parallel.exit_code == 2
    assert json.loads(parallel.stdout) == json.loads(serial.stdout)
    reports = json.loads(serial.stdout)
    assert [r["source"] for r in reports] == paths
    assert [r["ok"] for r in reports] == [True, False] + [True] * (len(paths) - 3) + [False]


def test_a_game_stopped_by_an_early_reveal_can_be_forked_where_it_stopped(memory_service):
    original = running_game(memory_service)
    stopped = memory_service.get_game(original).version
    memory_service.reveal_seed(original)
    fork_id, forked_from = memory_service.fork_game(original, stopped, same_dice=True)
    assert forked_from.version == stopped
    play_with_bots(memory_service, fork_id, seed=4)
    assert memory_service.audit(fork_id).ok


def test_a_point_inside_a_forks_copied_history_points_at_the_original(memory_service):
    original = finished_game(memory_service)
    fork_id, _ = memory_service.fork_game(original, boundaries(memory_service, original)[6])
    inside = boundaries(memory_service, fork_id)[2]
    with pytest.raises(UsageError, match=f"fork that game at {inside - 1} instead"):
        memory_service.fork_game(fork_id, inside)


def insert_after(document, index, *events):
    document["events"][index:index] = [
        {"version": 0, "type": t, "v": 1, "fields": f, "chain": b"", "time": document["events"][0]["time"]}
        for t, f in events
    ]


@pytest.mark.parametrize(
    ("forge", "kind"),
    [
        # A second commitment slipped in before the end switches the game to a seed the forger chose.
        (lambda d, n: insert_after(d, n - 1, ("SeedCommitted", {"commitment": bytes(32)})), "structure"),
        # A winner rewritten after the seed was revealed.
        (lambda d, n: insert_after(d, n, ("GameWon", {"player": "Bo", "reason": "forged"})), "structure"),
        # A second GameCreated in the middle of the game.
        (lambda d, n: insert_after(d, 5, ("GameCreated", dict(d["events"][0]["fields"]))), "structure"),
        # A die face written as true instead of 1: another encoding of the same game.
        (lambda d, n: _set_first_die(d, True), "format"),
        # Dice taken from a script by a game that does not say it is scripted.
        (lambda d, n: d["events"][0]["fields"].__setitem__("dice_script", [6] * 40), "rules"),
    ],
)
def test_forgeries_of_the_games_shape_are_findings(memory_service, forge, kind):
    document = unpack(export_game(memory_service, finished_game(memory_service)))
    forge(document, len(document["events"]))
    document["header"].update(
        {k: document["events"][0]["fields"][k] for k in ("ruleset", "players", "scripted", "content_hash")}
    )
    report = audit_replay(rechain(document), "forged.nkr")
    assert report.first(kind) is not None, report.findings
    assert report.first("chain") is None


def _set_first_die(document, value):
    rolled = next(e for e in document["events"] if e["type"] == "DieRolled")
    rolled["fields"]["values"][0] = value


def test_a_fork_that_reuses_the_originals_secret_seed_is_a_seed_finding(memory_service):
    original = running_game(memory_service)
    at = boundaries(memory_service, original)[-1]
    fork_id, _ = memory_service.fork_game(original, at)
    document = unpack(export_game(memory_service, fork_id))
    own = document["events"][at + 1]
    assert own["type"] == "SeedCommitted"
    own["fields"]["commitment"] = document["events"][2]["fields"]["commitment"]
    document["header"]["seed_commitment"] = own["fields"]["commitment"]
    report = audit_replay(rechain(document), "forged.nkr")
    assert report.first("seed") is not None and report.first("seed").version == 1


def test_a_full_log_cannot_take_a_copys_id_nor_a_copy_a_games(memory_service):
    """Found by a red-team review: a file's game id is a label its maker chooses, so a two-event "full
    log" labelled with the id Hana's copy would take squatted it, and her copy was then appended to it
    as a plain game (no copy row: playable, exportable as anyone)."""
    from event_store.copies import copy_id

    castle = REPLAYS / "vampire-empire-001-Hana.nkr"
    data = castle.read_bytes()
    document = unpack(data)
    game_id = document["header"]["game"]
    squat = {
        "format": "nightkeep-replay",
        "format_version": 1,
        "header": {**document["header"], "game": str(copy_id(UUID(game_id), "Hana")), "events": 2},
        "events": document["events"][:2],
    }
    del squat["header"]["viewer"]
    squatted = encode_replay(squat["header"]["game"], recorded_of(parse_replay(packed(squat))[1]))
    other = GameService.open(":memory:")
    import_game(other, squatted)
    with pytest.raises(ImportConflict, match="is not that copy"):
        import_game(other, data)
    fresh = GameService.open(":memory:")
    import_game(fresh, data)  # the other way round: the copy first, then a game labelled with its id
    with pytest.raises(ImportConflict, match="cannot take a copy's place"):
        import_game(fresh, squatted)


def test_the_host_takes_no_copy_of_its_own_game_that_runs_ahead_of_it(memory_service):
    """Found by a red-team review: agreement was checked only on the shared prefix, so the host's
    store took a player's copy with events its game never had."""
    game_id = memory_service.create_game("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")])
    hosted = export_game(memory_service, game_id, "Hana")
    later = GameService.open(":memory:")
    import_game(later, export_game(memory_service, game_id, HOST))
    play_with_bots(memory_service, game_id, seed=1, max_actions=4)
    ahead = export_game(memory_service, game_id, "Hana")
    host = GameService.open(":memory:")
    host.store_recorded(game_id, recorded_of(parse_replay(hosted)[1]))  # as if this store played it so far
    host.secrets.put(game_id, bytes(32))
    with pytest.raises(IllegalAction, match="runs ahead of it"):
        import_game(host, ahead)
    assert import_game(host, hosted).added > 0  # a copy that does not run ahead is taken


def test_a_refused_import_creates_no_store_and_a_huge_file_is_not_read_whole(db, tmp_path):
    bad = tmp_path / "bad.nkr"
    bad.write_bytes(b"\x93not a replay")
    refused = run(db, "import", str(bad))
    assert refused.exit_code == 2 and not store_exists(db)
    huge = tmp_path / "huge.nkr"
    with huge.open("wb") as handle:
        handle.truncate(65 * 1024 * 1024)  # sparse: no disk is used
    for args in (["import", str(huge)], ["audit", str(huge)], ["replay", str(huge), "--no-interactive"]):
        result = run(db, *args)
        assert result.exit_code == 2 and "larger than a replay file may be" in result.stderr + result.stdout
    assert not store_exists(db)


@pytest.mark.parametrize("label", ["game", "\u202e\x1b[31mRED", "1B4E28BA-2FA1-11D2-883F-0016D3CCA427"])
def test_a_header_game_that_is_not_a_canonical_uuid_is_unreadable_at_every_door(new_store, tmp_path, label):
    """Found by a red-team review: audit and replay printed any label, terminal escapes included."""
    document = unpack((REPLAYS / "dungeon-short-3p-001.nkr").read_bytes())
    document["header"]["game"] = label
    path = tmp_path / "label.nkr"
    path.write_bytes(packed(document))
    for args in (["audit", str(path)], ["replay", str(path), "--no-interactive"], ["import", str(path)]):
        result = run(new_store("s"), *args)
        assert result.exit_code == 2 and "is not a game id" in result.stderr + result.stdout, args
        assert "\x1b" not in result.stdout + result.stderr


@pytest.mark.parametrize(
    "seats", [["dungeon-short", "Ann", "Bo"], ["keep-run", "Ann", "Bo"], ["vampire-empire", "Hana", "Vlad"]]
)
def test_a_stopped_game_has_nobody_to_act_on_its_board(new_store, tmp_path, seats):
    """Found by a red-team review: the board under the "stopped" header still said who was to act."""
    db = new_store("stopped")
    ruleset, *players = seats
    created = run(db, "new", ruleset, *[a for p in players for a in ("--player", p)], "--json")
    game = json.loads(created.stdout)["game"]
    assert run(db, "reveal", game, "--yes").exit_code == 0
    for args in (["show", game], ["replay", game, "--no-interactive"], ["show", game, "--as", players[0]]):
        shown = run(db, *args).stdout
        assert "Stopped: the dice seed was revealed before the end; nobody acts." in shown, args
        assert " to act" not in shown, args


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda f: f["players"][1].update(character="Warrior"), "setup is not written as games record"),
        (lambda f: f["players"][1].update(character=" talisman/character/warrior "), "setup is not written"),
        (lambda f: f.update(scripted=True), "marked scripted if and only if"),
        (lambda f: f.update(scripted=True, dice_script=[100, 0, -3]), "scripted dice faces"),
        (lambda f: f.update(nightkeep_version="0.2.0x"), "is not a nightkeep version"),
    ],
    ids=["alias", "padded-id", "scripted-without-script", "faces-out-of-range", "version"],
)
def test_a_setup_written_another_way_is_a_finding(edit, why):
    """Found by a red-team review: a log could record the same setup several ways (a character's
    alias, a scripted flag with no script) or one the rules refuse (faces of 100), and still import."""
    document = unpack((REPLAYS / "dungeon-short-6p-reshuffle-001.nkr").read_bytes())
    created = next(e for e in document["events"] if e["type"] == "GameCreated")
    edit(created["fields"])
    document["header"].update(
        players=created["fields"]["players"],
        scripted=created["fields"]["scripted"],
        nightkeep_version=created["fields"]["nightkeep_version"],
    )
    report = audit_replay(rechain(document), "setup.nkr")
    assert any(why in f.detail for f in report.findings), report.findings
