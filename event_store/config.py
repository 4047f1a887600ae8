"""Where games are stored: the default SQLite file, `--db`/`NIGHTKEEP_DB` (a SQLite file or a
`postgresql://` URL), the library's own `POSTGRES_*` variables, or the in-memory store.

A PostgreSQL URL is `postgresql://USER[:PASSWORD]@HOST[:PORT][,HOST[:PORT]…]/DBNAME[?schema=NAME]
[&target_session_attrs=MODE]`; what it leaves out is taken from the `POSTGRES_*` variables
(`POSTGRES_PASSWORD` most often, so no password sits in a command line). Several hosts and
`target_session_attrs` are libpq's own syntax, passed through to it: a primary and its hot standbys. Given
several hosts and no mode, commands that only read prefer a standby and the others want the primary
(`session_attrs`). Any other `scheme://` is refused: a store that is not understood is never replaced by
another.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from domain.errors import UsageError

DB_ENV = "NIGHTKEEP_DB"
MEMORY = ":memory:"
PG_SCHEMES = ("postgresql", "postgres")
# A Citus coordinator: a PostgreSQL URL whose scheme says the store's tables are distributed
# (event_store/citus_store.py).
CITUS_SCHEME = "citus"
# The library's own variables for a PostgreSQL store (eventsourcing.postgres.BasePostgresFactory).
PG_VARS = ("POSTGRES_DBNAME", "POSTGRES_HOST", "POSTGRES_PORT", "POSTGRES_USER", "POSTGRES_PASSWORD")
# nightkeep's own: libpq's target_session_attrs for the store's connections (postgres_store passes it on).
TARGET_SESSION_ATTRS = "POSTGRES_TARGET_SESSION_ATTRS"
# Taken from the environment as the library's variables are (a URL's own options win).
PG_OPTIONS = ("POSTGRES_SCHEMA", TARGET_SESSION_ATTRS)
# nightkeep's own: "y" for a command that only reads, which then makes no table (postgres_store).
READS_ONLY = "NIGHTKEEP_READS_ONLY"
# libpq's modes (PostgreSQL 14 and later; psycopg 3.2.6 and later implements prefer-standby as libpq does).
SESSION_MODES = ("any", "read-write", "read-only", "primary", "standby", "prefer-standby")
URL_OPTIONS = ("schema", "target_session_attrs")
# Connections each process keeps open: a CLI command needs one; a pool of 5 (the library's default) per
# process would run a server out of connections with a few dozen players' commands at once.
PG_POOL = {"POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "4", "POSTGRES_CONNECT_TIMEOUT": "5"}
# Seconds a SQLite writer waits for another process's write to end before "database is locked" (the
# library's default, 5, is short for a few processes on a slow disk; each write holds the lock for
# milliseconds). SQLITE_LOCK_TIMEOUT in the environment overrides it.
SQLITE_LOCK_TIMEOUT = "30"
SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
# What a shard map (a router over several stores, now removed) was given as: `shards:PATH`.
GONE_SHARD_MAP = "shards:"


def default_db_path() -> Path:
    """Returns the SQLite file in the user's data directory."""
    import platformdirs  # only when no --db is given: it is slow to import

    return Path(platformdirs.user_data_dir("nightkeep", appauthor=False)) / "nightkeep.sqlite"


def resolve_db(db: str | None) -> str:
    """Returns the store to use: the given one, else NIGHTKEEP_DB, else the default file."""
    chosen = db if db is not None else os.environ.get(DB_ENV)
    if chosen is None:
        if os.environ.get("POSTGRES_DBNAME"):
            return "postgresql://"  # the library's POSTGRES_* variables say which database
        return str(default_db_path())
    if not chosen.strip():
        raise UsageError("the store location is empty (check --db or NIGHTKEEP_DB)")
    if "://" in chosen:
        pg_settings(chosen)  # refuses an unknown scheme or a malformed URL now, as one line
        return chosen
    try:
        path = Path(chosen).expanduser()  # every later use expands it: `~nobody/x` must fail here
    except RuntimeError:
        raise UsageError(f"{chosen!r}: no such user's home directory (check --db or NIGHTKEEP_DB)") from None
    if chosen.startswith(GONE_SHARD_MAP) and not path.exists():
        # An old shard map's location: said in one line, never taken for a new SQLite file of that name
        # (a SQLite file really named so still opens; `./shards:…` names a new one).
        raise UsageError(
            f"{chosen}: shard maps are gone; give one store, a SQLite file or a postgresql:// URL"
            " (docs/scaling.md: past one server)"
        )
    return chosen


def is_postgres(db: str) -> bool:
    """Tells whether a store location is a PostgreSQL URL."""
    return "://" in db


def is_citus(db: str) -> bool:
    """Tells whether a store location is a Citus coordinator's URL (`citus://`)."""
    return db.startswith(f"{CITUS_SCHEME}://")


def pg_settings(url: str, schemes: tuple[str, ...] = (*PG_SCHEMES, CITUS_SCHEME)) -> dict[str, str]:
    """Returns the library's POSTGRES_* settings for a PostgreSQL or Citus URL (of one of `schemes`),
    filled in from the environment; several hosts become libpq's comma-separated host and port lists."""
    try:
        parts = urlsplit(url)
        hosts = _hosts(parts.netloc.rpartition("@")[2])
    except ValueError as exc:
        raise UsageError(f"{_shown(url)}: not a PostgreSQL URL ({exc})") from None
    if parts.scheme not in schemes:
        raise UsageError(
            f"{_shown(url)}: unsupported store (use a SQLite file, :memory:, postgresql://USER@HOST/DBNAME "
            "or citus://USER@HOST/DBNAME)"
        )
    settings = {name: os.environ[name] for name in (*PG_VARS, *PG_OPTIONS) if name in os.environ}
    given = {
        "POSTGRES_HOST": ",".join(host for host, _ in hosts),
        # libpq pairs hosts and ports by place, and one port serves every host: a URL that gives no port
        # leaves POSTGRES_PORT (or 5432) to all, one that gives some puts 5432 where it gives none.
        "POSTGRES_PORT": ",".join(port or "5432" for _, port in hosts) if any(p for _, p in hosts) else "",
        "POSTGRES_USER": unquote(parts.username or ""),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")),
    }
    query = parse_qs(parts.query)
    unknown = set(query) - set(URL_OPTIONS)
    if unknown:
        raise UsageError(
            f"{_shown(url)}: unknown URL option {sorted(unknown)[0]!r} (only schema=NAME, "
            "target_session_attrs=MODE)"
        )
    if "schema" in query:
        given["POSTGRES_SCHEMA"] = query["schema"][-1]
    if "target_session_attrs" in query:
        given[TARGET_SESSION_ATTRS] = query["target_session_attrs"][-1]
    settings.update({name: value for name, value in given.items() if value})
    settings.setdefault("POSTGRES_PORT", "5432")
    settings.setdefault("POSTGRES_PASSWORD", "")
    for name, what in (("POSTGRES_HOST", "host"), ("POSTGRES_USER", "user"), ("POSTGRES_DBNAME", "database")):
        if not settings.get(name):
            raise UsageError(f"{_shown(url)}: no {what} (give it in the URL or in {name})")
    schema = settings.get("POSTGRES_SCHEMA", "")
    if schema and not SCHEMA_NAME.fullmatch(schema):
        raise UsageError(f"{_shown(url)}: {schema!r} is not a schema name (lower-case letters, digits, _)")
    mode = settings.get(TARGET_SESSION_ATTRS, "")
    if mode and mode not in SESSION_MODES:
        raise UsageError(
            f"{_shown(url)}: target_session_attrs {mode!r} is not one of {', '.join(SESSION_MODES)}"
        )
    return settings


def _hosts(hostlist: str) -> list[tuple[str, str]]:
    """Splits a URL's `HOST[:PORT],HOST[:PORT]…` (an IPv6 address in brackets) into hosts and ports."""
    found = []
    for item in hostlist.split(","):
        host, port = item, ""
        if item.startswith("["):
            host, _, rest = item[1:].partition("]")
            if rest and not rest.startswith(":"):
                raise ValueError(f"malformed host {item!r}")
            port = rest[1:]
        elif ":" in item:
            host, _, port = item.rpartition(":")
        if port and not (port.isdigit() and 0 < int(port) < 65536):
            raise ValueError(f"port {port!r} is not a port number")
        found.append((unquote(host), port))
    if len(found) > 1 and not all(host for host, _ in found):
        raise ValueError("an empty host in the list")
    return found


def session_attrs(settings: dict[str, str], reads_only: bool) -> str:
    """Returns the target_session_attrs a command's connections ask libpq for ("" for libpq's default).

    The URL's own mode wins. Without one, a URL naming several hosts is taken as a primary and its hot
    standbys: a command that only reads prefers a standby (and falls back to the primary when none is up),
    any other needs the server that accepts writes.
    """
    if settings.get(TARGET_SESSION_ATTRS):
        return settings[TARGET_SESSION_ATTRS]
    if "," not in settings.get("POSTGRES_HOST", ""):
        return ""
    return "prefer-standby" if reads_only else "read-write"


def _shown(url: str) -> str:
    """Returns a URL as it may be printed: without its password."""
    try:
        parts = urlsplit(url)
        if parts.password:
            return repr(url.replace(f":{parts.password}@", ":***@", 1))
    except ValueError:
        pass
    return repr(url[:200])


def describe(db: str) -> str:
    """Names a store location in messages (a PostgreSQL URL without its password)."""
    return _shown(db).strip("'") if is_postgres(db) else db


def plain_name(db: str, given: bool) -> str:
    """Names a store for a page anyone may read (`serve`): its file's name, its database's name, or "the
    default store" when none was given; never a path of this machine, a server or a user."""
    if is_postgres(db):
        return f"the database {pg_settings(db)['POSTGRES_DBNAME'] or 'named by POSTGRES_DBNAME'}"
    if db in (MEMORY, "memory"):
        return "a store in memory"
    return Path(db).name if given else "the default store"


def pg_store_settings(db: str, reads_only: bool) -> dict[str, str]:
    """Returns a PostgreSQL store's settings with the session mode its command asks for (`session_attrs`)."""
    settings = pg_settings(db)
    if mode := session_attrs(settings, reads_only):
        settings[TARGET_SESSION_ATTRS] = mode
    return settings


def store_exists(db: str, reads_only: bool = False) -> bool:
    """Tells whether a store location already holds a store (the in-memory store always does; a
    PostgreSQL database is asked, and an unreachable one is an error)."""
    if db in (MEMORY, "memory"):
        return True
    if is_postgres(db):
        from event_store.postgres_store import holds_store

        return holds_store(pg_store_settings(db, reads_only))
    return Path(db).expanduser().is_file()


def persistence_env(db: str, reads_only: bool = False) -> dict[str, str]:
    """Returns the eventsourcing environment for a store location (a path, a PostgreSQL URL, `:memory:`
    or `memory`), with the at-rest cipher when NIGHTKEEP_CIPHER_KEY is set (`event_store.at_rest`).
    `reads_only` says the command never writes: on a primary with hot standbys it reads a standby."""
    from event_store.at_rest import cipher_env
    from event_store.sql import POSTGRESQL, SQLITE, recorder_topic

    if db in (MEMORY, "memory"):
        return {"PERSISTENCE_MODULE": "eventsourcing.popo", **cipher_env(encrypts=False)}
    if is_postgres(db):
        from event_store.postgres_store import check_reachable

        settings = pg_store_settings(db, reads_only)
        check_reachable(
            settings, makes_schema=not reads_only
        )  # one line now, not ten retries of a 30-second pool timeout
        env = {name: os.environ.get(name, value) for name, value in PG_POOL.items()}
        env.update(settings)
        if reads_only:
            env[READS_ONLY] = "y"
        if is_citus(db):
            env["PERSISTENCE_MODULE"] = "event_store.citus_store:CitusStoreFactory"
            env["APPLICATION_RECORDER_TOPIC"] = "event_store.citus_store:CitusStoreRecorder"
        else:
            env["PERSISTENCE_MODULE"] = "event_store.postgres_store:PostgresStoreFactory"
            env["APPLICATION_RECORDER_TOPIC"] = recorder_topic(POSTGRESQL)
        return env | cipher_env(encrypts=True)
    path = Path(db).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": os.environ.get("SQLITE_LOCK_TIMEOUT", SQLITE_LOCK_TIMEOUT),
        "APPLICATION_RECORDER_TOPIC": recorder_topic(SQLITE),
        **cipher_env(encrypts=True),
    }
