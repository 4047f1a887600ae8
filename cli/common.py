"""Shared CLI plumbing: the service from `--db`, error mapping, JSON output and shared options."""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar
from uuid import UUID

import click
from eventsourcing.persistence import PersistenceError

from cli.completion import complete_seat
from domain.actions import HOST
from domain.errors import NightkeepError, UsageError
from domain.game import MAX_EVENTS
from event_store.app.seats import resolve_viewer as resolve_viewer
from event_store.app.seats import seen_by as seen_by
from event_store.app.service import GameService
from event_store.busy import TO_PRIMARY, first_line, is_read_only, store_error_message
from event_store.config import describe, is_postgres, resolve_db, store_exists
from event_store.pbem.pbem_tables import is_replica_store
from event_store.recorded import RecordedEvent

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])
# The name of the key a host signs with unless told otherwise (`new` on a hosted game, `host …`).
HOST_KEY = "host"


class NightkeepCliError(click.ClickException):
    """A one-line error with nightkeep's exit code (1 refused by a rule or audit, 2 bad input)."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code  # type: ignore[misc]  # click's is a ClassVar; ours is per error


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turns nightkeep and storage errors into one-line messages with the right exit code."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except NightkeepError as exc:
            raise NightkeepCliError(str(exc), exc.exit_code) from None
        except (sqlite3.DatabaseError, PersistenceError) as exc:
            raise NightkeepCliError(store_error_message(exc, _store_named()), 2) from None

    return wrapper


def _store_named() -> str:
    """Names the store this invocation opened, for an error line (nothing before one was opened)."""
    ctx = click.get_current_context(silent=True)
    db = ctx.find_root().obj.get("db_resolved") if ctx is not None and ctx.find_root().obj else None
    return describe(db) if db else ""


def looks_like_path(text: str) -> bool:
    """Tells whether a GAME|FILE argument that names no existing file was meant as a file."""
    return text.endswith(".nkr") or "/" in text or os.sep in text


def viewer_option(func: F) -> F:
    """Adds `--as PLAYER`: see the game as that player (`host`: everything; default: public facts)."""
    return click.option(
        "--as",
        "viewer",
        metavar="PLAYER",
        help="See it as this player (host: everything). Default: only what every player may see.",
        shell_complete=complete_seat,
    )(func)


# An event number or version a command takes: no game's log holds more than MAX_EVENTS events.
EVENT_NUMBER = click.IntRange(1, MAX_EVENTS)


def entropy_bytes(text: str) -> bytes:
    """Returns a player's entropy text as the bytes given on the command line (UTF-8; bytes that are not
    UTF-8 pass through as they are)."""
    return text.encode("utf-8", "surrogateescape")


def parse_nonce(text: str | None) -> bytes:
    """Parses `--nonce HEX`."""
    if not text:
        return b""
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise UsageError(f"malformed --nonce {text[:40]!r}: expected hex") from None


def stdin_is_terminal() -> bool:
    """Tells whether a person may be typing at this command (so it may ask before something final)."""
    return sys.stdin.isatty()


def json_option(func: F) -> F:
    """Adds `--json` (machine-readable output) to a command."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")(func)


def get_service(ctx: click.Context, create: bool = False, reads_only: bool = False) -> GameService:
    """Opens (once per invocation) the store chosen by --db / NIGHTKEEP_DB / the default file.

    Only commands that start games (`new`, `demo`, `import`) create a store that does not exist yet; the
    others refuse a missing file, so a mistyped --db is an error instead of a new empty store. A command
    that never writes says `reads_only`: given a primary and its hot standbys, it reads a standby.
    """
    obj = ctx.ensure_object(dict)
    if "service" not in obj:
        db = resolve_db(obj.get("db"))
        if not create and not store_exists(db, reads_only):
            raise UsageError(f"no store at {describe(db)} (nightkeep new or nightkeep import creates one)")
        obj["db_resolved"] = db
        try:
            obj["service"] = GameService.open(db, reads_only)
        except NightkeepError:
            raise  # StoreUnavailable (an OSError too) is one line of its own, exit 3
        except (sqlite3.DatabaseError, PersistenceError, OSError) as exc:
            why = first_line(exc) + (TO_PRIMARY if is_read_only(exc) else "")
            raise NightkeepCliError(f"cannot open the store {describe(db)}: {why}", 2) from None
        # A PostgreSQL store holds pooled connections: they are given back when the command ends.
        ctx.find_root().call_on_close(obj["service"].close)
        obj["replica"] = is_replica_store(obj["service"].recorder)
        if reads_only and is_postgres(db):
            tell_standby_lag(ctx, obj["service"])
    service: GameService = obj["service"]  # the context object is click's untyped dict
    return service


def tell_standby_lag(ctx: click.Context, service: GameService) -> None:
    """Says on stderr how far behind the primary a read is when it landed on a hot standby that is
    behind; with --json, says where every read on a standby landed, as one JSON line."""
    from event_store.postgres_store import standby_lag  # psycopg: only for a PostgreSQL store

    lag = standby_lag(service.recorder)
    if lag is None:
        return
    if ctx.params.get("as_json"):
        click.echo(json.dumps(lag.as_json()), err=True)
    elif lag.is_behind:
        click.echo(lag.line(), err=True)


def is_replica(ctx: click.Context) -> bool:
    """Tells whether the store this invocation opened is a player's replica (one that joined a game by
    e-mail): decided once, when the store is opened, so no command asks the e-mail layer again."""
    obj = ctx.ensure_object(dict)
    service = get_service(ctx)
    if "replica" not in obj:  # a service handed in by a caller
        obj["replica"] = is_replica_store(service.recorder)
    return bool(obj["replica"])


def jsonable(value: Any) -> Any:
    """Converts event field values to JSON: bytes become hex strings."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def event_json(recorded: RecordedEvent) -> dict[str, Any]:
    """Returns one recorded event in the CLI's JSON shape."""
    return {"version": recorded.version, "type": recorded.type_name, "fields": jsonable(recorded.fields)}


def log_entries_json(ruleset: str, events: list[RecordedEvent]) -> list[dict[str, Any]]:
    """Returns the events as `log --json` prints them: each event's JSON, its chain, time and the very
    words the plain log gives it (told as a run, so actions keep their labels and sides)."""
    from projections.timeline import describe_events  # the read side's wording, loaded by log alone

    return [
        {
            **event_json(recorded),
            "chain": recorded.chain.hex(),
            "time": recorded.timestamp.isoformat(),
            "text": text,
        }
        for recorded, text in zip(events, describe_events(ruleset, events), strict=True)
    ]


def echo_json(value: Any) -> None:
    """Prints a value as JSON on stdout."""
    click.echo(json.dumps(value, indent=2, sort_keys=False))


def refuse_another_viewer(viewer: str | None, copy_of: str, what: str) -> None:
    """Refuses --as another player on a copy (`copy_of` its viewer, "" the public), as export does: the
    copy holds none of that player's private events, so the board would be the public view told as theirs."""
    if viewer is not None and viewer not in (HOST, copy_of):
        shown = "that or the public copy" if copy_of else "the public view"
        raise UsageError(f"{what}: only {shown} can be shown")


def refuse_another_viewer_of_copy(service: GameService, game_id: UUID, viewer: str | None) -> None:
    """Refuses --as another player on a stored copy of a game (see refuse_another_viewer)."""
    copy = service.copies.get(game_id)
    if copy is not None:
        refuse_another_viewer(viewer, copy.viewer, f"game {game_id} is {copy.label}")
