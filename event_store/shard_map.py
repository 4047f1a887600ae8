"""The shard map and the mapping: which stores a `--db shards:PATH` names, and which of them a game id
maps to (its home shard, by rendezvous hashing over the shard names; see docs/scaling.md).

A shard map is a TOML file with one `[[shard]]` table (`name`, `db`) per store. It is read and checked
whole, and every fault is one line naming the file.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

from domain.errors import UsageError
from event_store.config import SHARD_MAP, is_postgres, pg_settings, resolve_db

SHARD_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
SHARD_KEYS = frozenset({"name", "db"})


@dataclass(frozen=True)
class ShardSpec:
    """One shard of a map: its stable name and where its store is."""

    name: str
    db: str


def home_shard(game_id: UUID, names: Sequence[str]) -> str:
    """Returns the shard a game id maps to: the name with the highest score for it (rendezvous hashing)."""
    return max(names, key=lambda name: (shard_score(name, game_id), name))


def shard_score(name: str, game_id: UUID) -> int:
    """Returns a shard's score for a game id: the first 8 bytes of SHA-256(name, NUL, the id's 16 bytes)."""
    digest = hashlib.sha256(name.encode() + b"\0" + game_id.bytes).digest()
    return int.from_bytes(digest[:8], "big")


def read_shard_map(location: str) -> list[ShardSpec]:
    """Reads and checks a shard map (`shards:PATH`): every error is one line naming the file."""
    path = Path(location.removeprefix(SHARD_MAP)).expanduser()
    shown = str(path)
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"shard map {shown}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"shard map {shown}: cannot read it ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"shard map {shown}: not TOML ({exc})") from None
    if unknown := sorted(set(document) - {"shard"}):
        raise UsageError(f"shard map {shown}: unknown key {unknown[0]!r} (only [[shard]] tables)")
    tables = document.get("shard")
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise UsageError(f"shard map {shown}: no shards (give one [[shard]] table per store)")
    specs = [_shard_spec(shown, path.parent, n, table) for n, table in enumerate(tables, start=1)]
    _check_distinct(shown, specs)
    return specs


def _shard_spec(shown: str, folder: Path, n: int, table: dict[str, Any]) -> ShardSpec:
    """Checks one [[shard]] table; a SQLite file is relative to the map's folder."""
    if unknown := sorted(set(table) - SHARD_KEYS):
        raise UsageError(f"shard map {shown}: shard {n} has unknown key {unknown[0]!r} (only name, db)")
    name, db = table.get("name"), table.get("db")
    if not isinstance(name, str) or not SHARD_NAME.fullmatch(name):
        raise UsageError(
            f"shard map {shown}: shard {n} needs a name of lower-case letters, digits, - and _ (got {name!r})"
        )
    if not isinstance(db, str) or not db.strip():
        raise UsageError(f"shard map {shown}: shard {name!r} needs db = a SQLite file or a postgresql:// URL")
    if db.startswith(SHARD_MAP) or db in (":memory:", "memory"):
        raise UsageError(f"shard map {shown}: shard {name!r} must be a SQLite file or a PostgreSQL database")
    try:
        db = resolve_db(db)
    except UsageError as exc:
        raise UsageError(f"shard map {shown}: shard {name!r}: {exc}") from None
    if not is_postgres(db):
        db = str(folder / Path(db).expanduser())
    return ShardSpec(name, db)


def _check_distinct(shown: str, specs: Sequence[ShardSpec]) -> None:
    """Refuses two shards of one name, or two shards that are one store."""
    names: set[str] = set()
    stores: dict[tuple[str, ...], str] = {}
    for spec in specs:
        if spec.name in names:
            raise UsageError(f"shard map {shown}: two shards are named {spec.name!r}")
        names.add(spec.name)
        key = _store_key(spec.db)
        if key in stores:
            raise UsageError(f"shard map {shown}: shards {stores[key]!r} and {spec.name!r} are one store")
        stores[key] = spec.name


def _store_key(db: str) -> tuple[str, ...]:
    """Names the store a location is, so two spellings of one store are told apart from two stores."""
    if is_postgres(db):
        settings = pg_settings(db)
        return tuple(
            settings.get(name, default)
            for name, default in (
                ("POSTGRES_HOST", ""),
                ("POSTGRES_PORT", ""),
                ("POSTGRES_DBNAME", ""),
                ("POSTGRES_SCHEMA", "public"),
            )
        )
    return ("sqlite", str(Path(db).resolve()))
