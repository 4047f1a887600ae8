"""Where games are stored: the default SQLite file, `--db`/`NIGHTKEEP_DB`, or the in-memory store."""

from __future__ import annotations

import os
from pathlib import Path

from domain.errors import UsageError

DB_ENV = "NIGHTKEEP_DB"
MEMORY = ":memory:"


def default_db_path() -> Path:
    """Returns the SQLite file in the user's data directory."""
    import platformdirs  # only when no --db is given: it is slow to import

    return Path(platformdirs.user_data_dir("nightkeep", appauthor=False)) / "nightkeep.sqlite"


def resolve_db(db: str | None) -> str:
    """Returns the store to use: the given one, else NIGHTKEEP_DB, else the default file."""
    chosen = db if db is not None else os.environ.get(DB_ENV)
    if chosen is None:
        return str(default_db_path())
    if not chosen.strip():
        raise UsageError("the store location is empty (check --db or NIGHTKEEP_DB)")
    if "://" in chosen:
        raise UsageError(f"{chosen!r}: only SQLite files and :memory: are supported so far")
    try:
        Path(chosen).expanduser()  # every later use expands it: `~nobody/x` must fail here, as one line
    except RuntimeError:
        raise UsageError(f"{chosen!r}: no such user's home directory (check --db or NIGHTKEEP_DB)") from None
    return chosen


def store_exists(db: str) -> bool:
    """Tells whether a store location already holds a store (the in-memory store always does)."""
    return db in (MEMORY, "memory") or Path(db).expanduser().is_file()


def persistence_env(db: str) -> dict[str, str]:
    """Returns the eventsourcing environment for a store location (a path, `:memory:` or `memory`)."""
    if db in (MEMORY, "memory"):
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    path = Path(db).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
