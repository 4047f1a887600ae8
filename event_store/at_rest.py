"""Secrets at rest: a store whose events, snapshots and seeds are encrypted with the library's own cipher.

A host sets `NIGHTKEEP_CIPHER_KEY` (a base64 AES key; `nightkeep store new-key` prints one) before a
store is created: the library's mapper then encrypts the state of every stored event and snapshot with
`eventsourcing.cryptography:AESCipher` (AES-GCM, from `cryptography`), and the seeds table holds each
seed encrypted under the same key. Only the stored bytes change: the envelopes, the chain and every
replay file are the same as a plain store's.

A store says which it is in `nightkeep_meta`, written by the first process that opens it: `plain`, or
`aes-gcm:` and a known text encrypted under the key, so a wrong key is told from a missing one. A
store is encrypted from its start or never, so no store holds some events in plain and some not.
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Callable
from typing import Any

from eventsourcing.persistence import Cipher, Mapper, PersistenceError

from domain.errors import CorruptStore, UsageError
from event_store.sql import Cursor, SqlStore, sql_store_of

KEY_ENV = "NIGHTKEEP_CIPHER_KEY"
CIPHER_TOPIC = "eventsourcing.cryptography:AESCipher"
KEY_BYTES = 32  # AES-256 for new keys; a 16- or 24-byte key is taken too
META_TABLE = "nightkeep_meta"
MARK = "at_rest"
PLAIN = b"plain"
ENCRYPTED = b"aes-gcm:"
KNOWN_TEXT = b"nightkeep: this store is encrypted at rest"
NEW_KEY_HINT = "nightkeep store new-key makes one"


class CipherKeyRefused(UsageError):
    """Raised when a store cannot be opened with the at-rest key given: missing for an encrypted store,
    not the store's key, given for a plain store, or not an AES key at all."""


def new_key() -> str:
    """Returns a new random AES-256 key in base64, from the library's own key generator."""
    from eventsourcing.cryptography import AESCipher

    return AESCipher.create_key(KEY_BYTES)


def cipher_env(encrypts: bool) -> dict[str, str]:
    """Returns the library's cipher settings for a store: AES-GCM under NIGHTKEEP_CIPHER_KEY when it is
    set and the store is kept on disk (`encrypts`), else none. Both spellings the library reads are
    pinned, so neither its own CIPHER_KEY nor its default pycryptodome cipher is ever picked up."""
    key = os.environ.get(KEY_ENV, "").strip() if encrypts else ""
    if key:
        check_key(key)
    topic = CIPHER_TOPIC if key else ""
    return {"CIPHER_TOPIC": topic, "NIGHTKEEP_CIPHER_TOPIC": topic, "CIPHER_KEY": key, KEY_ENV: key}


def check_key(key: str) -> None:
    """Refuses, in one line, a key that is not 16, 24 or 32 bytes in base64 (never printing it)."""
    try:
        raw = base64.b64decode(key, validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) not in (16, 24, 32):
        raise CipherKeyRefused(f"{KEY_ENV} is not an AES key: 16, 24 or 32 bytes in base64 ({NEW_KEY_HINT})")


def check_store(recorder: Any, cipher: Cipher | None) -> None:
    """Refuses, in one line and changing nothing, to open a store with the wrong key or without the one
    it needs; marks a new store as plain or encrypted, as it is opened."""
    store = sql_store_of(recorder)
    if store is None:
        return  # the in-memory store holds nothing at rest
    mark = _read_mark(store)
    if mark is None:
        _mark_new(store, recorder.events_table_name, cipher)
    else:
        _check_mark(mark, cipher)


def _read_mark(store: SqlStore) -> bytes | None:
    try:
        with store.transaction(commit=False) as c:
            return _select_mark(c)
    except PersistenceError:
        return None  # no meta table yet: a new store, or one made before stores said what they are


def _select_mark(c: Cursor) -> bytes | None:
    c.execute(f"SELECT value FROM {META_TABLE} WHERE name=?", [MARK])
    row = c.fetchone()
    return None if row is None else bytes(row[0])


def _mark_new(store: SqlStore, events_table: str, cipher: Cipher | None) -> None:
    """Writes the mark of a store that has none and checks the mark it holds then (another process
    may have written its own first). A store that already holds events and no mark is plain."""
    for attempt in range(3):
        try:
            with store.transaction(commit=True) as c:
                c.execute(f"CREATE TABLE IF NOT EXISTS {META_TABLE} {_columns(store)}")
                c.execute(f"SELECT 1 FROM {events_table} LIMIT 1")
                holds_events = c.fetchone() is not None
                mark = PLAIN if cipher is None or holds_events else ENCRYPTED + cipher.encrypt(KNOWN_TEXT)
                c.execute(
                    f"INSERT INTO {META_TABLE} VALUES (?, ?) ON CONFLICT (name) DO NOTHING", [MARK, mark]
                )
                # Checked before the commit: a refusal rolls the mark back, leaving the store as it was.
                _check_mark(_select_mark(c) or mark, cipher)
                return
        except PersistenceError:
            if attempt == 2:  # two processes creating the table at once: PostgreSQL refuses the second
                raise


def _columns(store: SqlStore) -> str:
    return f"(name TEXT PRIMARY KEY, value {store.blob} NOT NULL)"


def _check_mark(mark: bytes, cipher: Cipher | None) -> None:
    if mark == PLAIN:
        if cipher is not None:
            raise CipherKeyRefused(
                f"this store is not encrypted: unset {KEY_ENV} to open it "
                "(a store is encrypted from its start)"
            )
        return
    if not mark.startswith(ENCRYPTED):
        raise CorruptStore(f"this store's {META_TABLE} holds an unknown at-rest mark")
    if cipher is None:
        raise CipherKeyRefused(f"this store is encrypted: set {KEY_ENV}")
    try:
        known = cipher.decrypt(mark[len(ENCRYPTED) :])
    except ValueError:
        known = b""
    if known != KNOWN_TEXT:
        raise CipherKeyRefused(f"{KEY_ENV} is not this store's key")


def seal(cipher: Cipher | None, secret: bytes) -> bytes:
    """Returns a secret as stored: encrypted under the store's key, or as it is in a plain store."""
    return secret if cipher is None else cipher.encrypt(secret)


def unseal(cipher: Cipher | None, stored: bytes, what: str) -> bytes:
    """Returns a secret stored by `seal`; damaged bytes are one line."""
    if cipher is None:
        return stored
    try:
        return cipher.decrypt(stored)
    except ValueError:
        raise CorruptStore(f"{what} is damaged: it does not decrypt under this store's key") from None


def state_decoder(mapper: Mapper[Any]) -> Callable[[bytes], Any]:
    """Returns what turns a stored event's `state` column into its envelope (for readers of the
    notification log that skip the library's event objects), decrypting it first in an encrypted store."""
    decode = mapper.transcoder.decode
    cipher, compressor = mapper.cipher, mapper.compressor
    if cipher is None and compressor is None:
        return decode

    def decoded(state: bytes) -> Any:
        if cipher is not None:
            state = cipher.decrypt(state)
        if compressor is not None:
            state = compressor.decompress(state)
        return decode(state)

    return decoded
