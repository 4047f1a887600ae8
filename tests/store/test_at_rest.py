"""Secrets at rest: with NIGHTKEEP_CIPHER_KEY a store's events, snapshots and seeds are encrypted with
the library's cipher, the bytes in the database show no seed and no private event, and everything a
player or an organiser sees (the chain, every replay file, audits, forks, imports) is what the same game
stored plain gives; a store opened without its key, with another key, or a plain store opened with a
key, is refused in one line and left as it was. Every test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.game import Game
from domain.hidden import HOST, PUBLIC
from domain.rulesets.castle.events import CardsReceived, IdentityTokensDrawn
from event_store.app.replay_file import audit_replay, export_game, import_game
from event_store.app.service import GameService, play_with_bots
from event_store.at_rest import KEY_ENV, META_TABLE
from event_store.config import is_postgres, pg_settings
from projections.replay_source import ReplaySource

KEY = base64.b64encode(hashlib.sha256(b"nightkeep-test-at-rest-key").digest()).decode()
OTHER_KEY = base64.b64encode(hashlib.sha256(b"nightkeep-test-another-key").digest()).decode()
SEED = hashlib.sha256(b"nightkeep-test-at-rest-seed").digest()
PLAYERS = [("Hana", "human"), ("Vlad", "vampire")]
VIEWERS = (HOST, "Hana", "Vlad", PUBLIC)
PRIVATE = (IdentityTokensDrawn, CardsReceived)


@pytest.fixture
def same_run(monkeypatch):
    """Makes the next games' ids, seeds and event times a fixed sequence again each time it is called,
    so one game can be played twice, into two stores, and give the same events."""

    def restart() -> None:
        ids = (UUID(int=n) for n in itertools.count(1))
        times = (datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=n) for n in itertools.count())
        monkeypatch.setattr(Game, "create_id", staticmethod(lambda *args, **kwargs: next(ids)))
        monkeypatch.setattr("eventsourcing.domain.datetime_now_with_tzinfo", lambda: next(times))
        seeds = (hashlib.sha256(SEED + bytes([n])).digest() for n in itertools.count())
        monkeypatch.setattr("event_store.app.service.new_seed", lambda: next(seeds))

    return restart


def open_store(db: str, monkeypatch, key: str | None) -> GameService:
    """Opens a store with NIGHTKEEP_CIPHER_KEY set to `key` (or unset)."""
    if key is None:
        monkeypatch.delenv(KEY_ENV, raising=False)
    else:
        monkeypatch.setenv(KEY_ENV, key)
    return GameService.open(db)


def played_game(service: GameService, max_actions: int = 100_000) -> UUID:
    """A Vampire Empire game (identities and hands are private events) played by seeded bots."""
    game_id = service.create_game("vampire-empire", PLAYERS)
    play_with_bots(service, game_id, seed="at-rest", max_actions=max_actions)
    return game_id


def table_rows(db: str) -> dict[str, list[tuple[bytes, ...]]]:
    """Reads every row of every table of a store with plain SQL, each value as bytes, rows sorted."""
    if is_postgres(db):
        import psycopg

        schema = pg_settings(db).get("POSTGRES_SCHEMA", "public")
        with psycopg.connect(db.split("?")[0].replace("citus://", "postgresql://", 1)) as conn:
            names = [
                row[0]
                for row in conn.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", [schema]
                )
            ]
            raw = {name: conn.execute(f'SELECT * FROM "{schema}"."{name}"').fetchall() for name in names}
    else:
        with sqlite3.connect(db) as conn:
            names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            raw = {name: conn.execute(f'SELECT * FROM "{name}"').fetchall() for name in names}
    return {name: sorted(tuple(_as_bytes(v) for v in row) for row in rows) for name, rows in raw.items()}


def _as_bytes(value: object) -> bytes:
    if isinstance(value, bytes | memoryview):
        return bytes(value)
    if isinstance(value, UUID):  # a Citus store's game ids are uuid columns; elsewhere 32 hex digits
        return value.hex.encode()
    return str(value).encode()


def stored_bytes(db: str) -> bytes:
    """Everything a store holds at rest, as one string of bytes: every value of every table (and, for
    SQLite, the database file itself)."""
    rows = table_rows(db)
    held = b"".join(value for table in rows.values() for row in table for value in row)
    if not is_postgres(db):
        held += b"".join(p.read_bytes() for p in Path(db).parent.glob(Path(db).name + "*"))
    return held


def private_values(service: GameService, game_id: UUID) -> list[bytes]:
    """The bytes of each private event's salt: what only its owner (and the host) may ever see."""
    values = [r.event.salt for r in service.recorded_events(game_id) if isinstance(r.event, PRIVATE)]
    assert values
    return values


def cli_run(db: str, key: str | None, *args: str):
    return CliRunner().invoke(cli, ["--db", db, *args], env={KEY_ENV: key})


@pytest.mark.parametrize("encrypted", [True, False], ids=["encrypted", "plain"])
def test_an_encrypted_store_holds_no_seed_and_no_private_event_in_its_bytes(db, monkeypatch, encrypted):
    service = open_store(db, monkeypatch, KEY if encrypted else None)
    game_id = played_game(service, max_actions=30)  # still running: its seed is the host's secret
    assert service.get_game(game_id).status["status"] == "running"
    seed = service.seed_of(game_id)
    salts = private_values(service, game_id)
    service.close()
    rows = table_rows(db)
    assert any("snapshot" in name for name, held in rows.items() if held)  # snapshots are on disk too
    held = stored_bytes(db)
    seen = [seed in held, *(salt in held for salt in salts), b"IdentityTokensDrawn" in held]
    assert seen == [not encrypted] * len(seen)


def test_a_game_in_an_encrypted_store_exports_byte_for_byte_as_the_same_game_stored_plain(
    new_store, monkeypatch, same_run
):
    same_run()
    plain = open_store(new_store("plain"), monkeypatch, None)
    game_id = played_game(plain)
    same_run()
    encrypted = open_store(new_store("encrypted"), monkeypatch, KEY)
    assert played_game(encrypted) == game_id
    assert encrypted.mapper.cipher is not None and plain.mapper.cipher is None
    assert encrypted.get_game(game_id).status["status"] == "finished"
    assert encrypted.chain_values(game_id) == plain.chain_values(game_id)
    for viewer in VIEWERS:
        assert export_game(encrypted, game_id, viewer) == export_game(plain, game_id, viewer), viewer
    assert encrypted.seed_of(game_id) == plain.seed_of(game_id)
    # Every read path gives what the plain store gives: the newest game, an older version, a fold.
    assert encrypted.get_game(game_id).state == plain.get_game(game_id).state
    assert encrypted.get_game(game_id, version=40).state == plain.get_game(game_id, version=40).state
    assert encrypted.fold(game_id).state == plain.fold(game_id, use_snapshot=False).state


def test_audit_replay_fork_and_import_work_on_an_encrypted_store(new_store, monkeypatch, same_run):
    same_run()
    plain = open_store(new_store("plain"), monkeypatch, None)
    game_id = played_game(plain)
    same_run()
    encrypted = open_store(new_store("encrypted"), monkeypatch, KEY)
    played_game(encrypted)
    report = encrypted.audit(game_id)
    assert report.ok, report.findings
    replayed, shown = (ReplaySource(str(game_id), s.recorded_events(game_id)) for s in (encrypted, plain))
    assert [replayed.fold_at(n).state for n in (1, 50, replayed.last)] == [
        shown.fold_at(n).state for n in (1, 50, shown.last)
    ]
    # A fork from the tenth action on audits clean, and plays on with its own (encrypted) seed.
    at = [r.version - 1 for r in encrypted.recorded_events(game_id) if r.type_name == "ActionTaken"][9]
    fork_id, _ = encrypted.fork_game(game_id, at)
    assert encrypted.audit(fork_id).ok
    assert play_with_bots(encrypted, fork_id, seed="fork") > 0  # its new seed is read back to play on
    assert encrypted.audit(fork_id).ok
    # The plain store's file imported into another encrypted store gives the same bytes back.
    data = export_game(plain, game_id)
    imported = open_store(new_store("imported"), monkeypatch, KEY)
    assert import_game(imported, data).stored == game_id
    assert export_game(imported, game_id) == data and audit_replay(data, "game.nkr").ok
    assert imported.chain_values(game_id) == plain.chain_values(game_id)


def test_an_encrypted_store_keeps_its_seeds_encrypted_and_reads_them_back(db, monkeypatch):
    service = open_store(db, monkeypatch, KEY)
    game_id = service.create_game("vampire-empire", PLAYERS)
    seed = service.seed_of(game_id)
    (stored,) = [row[1] for row in table_rows(db)["nightkeep_secrets"] if row[0] == game_id.hex.encode()]
    assert seed not in stored and service.mapper.cipher is not None
    assert service.mapper.cipher.decrypt(stored) == seed
    service.close()
    again = open_store(db, monkeypatch, KEY)  # a new process reads the seed from the table
    assert again.seed_of(game_id) == seed
    assert play_with_bots(again, game_id, max_actions=3) == 3  # and rolls with it


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (None, "this store is encrypted: set NIGHTKEEP_CIPHER_KEY"),
        (OTHER_KEY, "NIGHTKEEP_CIPHER_KEY is not this store's key"),
        ("not a key!", "NIGHTKEEP_CIPHER_KEY is not an AES key"),
        (base64.b64encode(bytes(10)).decode(), "NIGHTKEEP_CIPHER_KEY is not an AES key"),
    ],
    ids=["no-key", "wrong-key", "not-base64", "short-key"],
)
def test_an_encrypted_store_opened_without_its_key_is_one_line_and_unchanged(db, monkeypatch, key, message):
    service = open_store(db, monkeypatch, KEY)
    game_id = played_game(service, max_actions=5)
    service.close()
    before = table_rows(db)
    for args in (
        ["games"],
        ["act", str(game_id), "x", "--as", "Hana"],
        ["new", "vampire-empire", "--player", "Hana:human", "--player", "Vlad:vampire"],
    ):
        result = cli_run(db, key, *args)
        assert result.exit_code == 2, result.output
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert message in result.stderr and (key or "-") not in result.stderr
        assert not result.stdout
    assert table_rows(db) == before
    listed = json.loads(cli_run(db, KEY, "games", "--json").stdout)  # the right key still opens it
    assert [g["game"] for g in listed] == [str(game_id)]


def test_a_plain_store_opened_with_a_key_is_refused_in_one_line_and_unchanged(db, monkeypatch):
    service = open_store(db, monkeypatch, None)
    game_id = played_game(service, max_actions=5)
    service.close()
    before = table_rows(db)
    result = cli_run(db, KEY, "games")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "Error: this store is not encrypted: unset NIGHTKEEP_CIPHER_KEY to open it "
        "(a store is encrypted from its start)"
    )
    assert table_rows(db) == before
    assert str(game_id) in cli_run(db, None, "games", "--json").stdout


def test_a_store_made_before_stores_were_marked_is_plain(db, monkeypatch):
    service = open_store(db, monkeypatch, None)
    game_id = played_game(service, max_actions=5)
    with service.secrets._store.transaction(commit=True) as c:  # type: ignore[attr-defined]
        c.execute(f"DROP TABLE {META_TABLE}")
    service.close()
    before = table_rows(db)
    assert META_TABLE not in before
    assert "not encrypted" in cli_run(db, KEY, "games").stderr  # never half encrypted
    assert table_rows(db) == before
    assert str(game_id) in cli_run(db, None, "games", "--json").stdout  # and it is marked plain now
    assert table_rows(db)[META_TABLE] == [(b"at_rest", b"plain")]


def test_the_librarys_own_cipher_variables_do_not_encrypt_a_store(db, monkeypatch):
    monkeypatch.setenv("CIPHER_KEY", KEY)
    monkeypatch.setenv("CIPHER_TOPIC", "eventsourcing.cipher:AESCipher")
    service = open_store(db, monkeypatch, None)
    assert service.mapper.cipher is None  # only NIGHTKEEP_CIPHER_KEY turns it on: nothing by surprise
    memory = open_store(":memory:", monkeypatch, KEY)
    assert memory.mapper.cipher is None  # nothing of the in-memory store is at rest


def test_store_new_key_prints_a_key_that_encrypts_a_new_store(db):
    made = CliRunner().invoke(cli, ["store", "new-key"])
    assert made.exit_code == 0 and "keep a copy" in made.stderr
    key = made.stdout.strip()
    assert len(base64.b64decode(key, validate=True)) == 32
    as_json = json.loads(CliRunner().invoke(cli, ["store", "new-key", "--json"]).stdout)
    assert as_json["env"] == KEY_ENV and as_json["key"] != key
    created = cli_run(
        db, key, "new", "vampire-empire", "--player", "Hana:human", "--player", "Vlad:vampire", "--json"
    )
    assert created.exit_code == 0, created.output
    game = json.loads(created.stdout)["game"]
    assert [g["game"] for g in json.loads(cli_run(db, key, "games", "--json").stdout)] == [game]
    assert "is encrypted" in cli_run(db, None, "games").stderr
