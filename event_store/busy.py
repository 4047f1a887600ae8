"""A store too busy to answer in time, told in one line.

Writers take turns: on SQLite each waits for the file's write lock up to SQLITE_LOCK_TIMEOUT (30 s), on
PostgreSQL the library retries a save that met a deadlock, a lock timeout or a serialization failure ten
times. What still fails after that is the store's load, not the user's input, and it rolled back: the
user is told so in one line (psycopg's messages carry DETAIL and HINT lines) and may run the command
again. A save that lost a race is not this: it is StaleVersion, "game moved on".
"""

from __future__ import annotations

import sqlite3

from eventsourcing.persistence import OperationalError

# SQLite's and PostgreSQL's words for a lock or snapshot that could not be had in time.
BUSY_WORDS = (
    "database is locked",
    "database table is locked",
    "lock timeout",
    "deadlock detected",
    "could not serialize access",
    "could not obtain lock",
)


def is_busy(exc: BaseException) -> bool:
    """Tells whether a storage error says the store was too busy (locks, deadlocks, serialization)."""
    if not isinstance(exc, (OperationalError, sqlite3.OperationalError)):
        return False
    text = str(exc).lower()
    return any(words in text for words in BUSY_WORDS)


# PostgreSQL's words for a write met on a hot standby (a URL whose target_session_attrs chose one).
READ_ONLY_WORDS = ("in a read-only transaction", "during recovery")


TO_PRIMARY = "; writes need the primary (leave target_session_attrs out, or set it to read-write)"


def is_read_only(exc: BaseException) -> bool:
    """Tells whether a storage error is a write refused by a read-only server (a hot standby)."""
    return any(words in str(exc) for words in READ_ONLY_WORDS)


def first_line(exc: BaseException) -> str:
    """Returns the first line of a storage error's message."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def store_error_message(exc: BaseException, store: str = "") -> str:
    """Returns the one line a user is told for a storage error (naming the store, when given, as
    `config.describe` shows it: a Citus worker that cannot be reached is one such error)."""
    if is_busy(exc):
        why = first_line(exc)
        return f"the store is busy ({why}): the write that met it was not stored, run the command again"
    if is_read_only(exc):
        return f"cannot write to the store: the server is a read-only standby ({first_line(exc)}){TO_PRIMARY}"
    named = f" {store}" if store else ""
    return f"cannot use the store{named}: {first_line(exc)}"
