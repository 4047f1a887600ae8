"""`nightkeep serve`: a small read-only web viewer of a store's games (starlette on uvicorn).

It shows the public copy of every game (what every player may see), or with --as PLAYER that player's
copy of the games they sit in (and the public copy of the rest): never the host's full log, since
anyone who reaches the port reads what it serves. It binds 127.0.0.1 unless told otherwise, answers
only GET and HEAD, and changes nothing in the store.
"""

from __future__ import annotations

import asyncio
import hashlib
import socket
import sqlite3
from collections import OrderedDict
from typing import Any
from uuid import UUID

import click
from eventsourcing.persistence import PersistenceError

from cli.common import get_service, handle_errors
from cli.completion import complete_seat
from domain.actions import HOST
from domain.errors import NightkeepError, UsageError
from domain.hidden import PUBLIC
from domain.signing import history_fingerprint
from event_store.app.service import GameService
from event_store.busy import store_error_message
from event_store.config import plain_name
from projections.game_index import GameIndex

# Every page names what it may load: nothing from elsewhere, its own inline script and style only.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

# How many drawn pages serve keeps (each a copy of one game at one point: some hundreds of KB).
KEPT_PAGES = 32


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free port)."
)
@click.option(
    "--as",
    "viewer",
    metavar="PLAYER",
    help="Show that player's copy of the games they sit in (the public copy elsewhere; never the host's).",
    shell_complete=complete_seat,
)
@click.pass_context
@handle_errors
def serve(ctx: click.Context, host: str, port: int, viewer: str | None) -> None:
    """Shows the store's games in a web browser, read-only, each stepping like export --html.

    / lists the games; /games/GAME steps through one (the public copy, or with --as PLAYER that
    player's copy of the games they sit in); /games/GAME.nkr downloads that copy as a replay file;
    /heads gives every game's head as JSON (last event, chain value, fingerprint) to compare with.
    The host's full log is never served. Ctrl-C stops.

    \b
    Example:
        nightkeep serve
        nightkeep serve --port 8080 --as Hana
    """
    if viewer == HOST:
        raise UsageError("serve never shows the host's full log: export --html --as host writes it to a file")
    # The viewer only reads (the writer keeps the game index): on a standby when the store offers one.
    service = get_service(ctx, reads_only=True)
    if viewer and not any(viewer in entry["players"] for entry in GameIndex(service).games()):
        note = f"note: {viewer} sits in no game of this store yet: every page is the public copy"
        click.echo(note, err=True)
    listening = _listen(host, port)
    import uvicorn

    obj = ctx.ensure_object(dict)
    app = viewer_app(service, viewer or PUBLIC, plain_name(obj["db_resolved"], obj.get("db") is not None))
    bound = listening.getsockname()
    where = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
    click.echo(f"serving the games of this store at http://{where}:{bound[1]}/ (read-only; Ctrl-C stops)")
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", server_header=False)
    uvicorn.Server(config).run(sockets=[listening])


def _listen(host: str, port: int) -> socket.socket:
    """Returns a socket bound to host:port, or raises UsageError in one line (a bad host, a port in use)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listening = socket.socket(family, kind, proto)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen(64)
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise UsageError(f"cannot listen on {host}:{port}: {reason}") from None
    return listening


def seen_as_for(service: GameService, game_id: UUID, viewer: str) -> str:
    """Returns whose copy of a game is served: the operator's player where they sit (and a stored copy is
    theirs), else the public."""
    if viewer == PUBLIC:
        return PUBLIC
    copy = service.copies.get(game_id)
    if copy is not None and copy.viewer != viewer:
        return PUBLIC
    return viewer if viewer in service.get_game(game_id).meta["players"] else PUBLIC


def viewer_app(service: GameService, viewer: str, store: str) -> Any:
    """Returns the ASGI app: the games list (headed by the store's plain name), each game's replay page and
    its replay file."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route

    from cli.export_command import html_page
    from event_store.app.replay_file import export_game
    from projections.html_replay import games_page

    # A copy's page by its bytes' digest (a game that moves on is drawn anew), the latest few kept: every
    # move of a game being played would otherwise keep one more page for as long as the server runs.
    pages: OrderedDict[bytes, asyncio.Future[str]] = OrderedDict()

    def copy_of(request: Request) -> tuple[UUID, bytes, str] | Response:
        try:
            game_id = service.resolve_game_id(request.path_params["game"])
            seen_as = seen_as_for(service, game_id, viewer)
            return game_id, export_game(service, game_id, seen_as), seen_as
        except NightkeepError as exc:
            status = 404 if exc.exit_code == 2 else 503 if exc.exit_code == 3 else 500
            return PlainTextResponse(f"{exc}\n", status, headers=SECURITY_HEADERS)
        except (sqlite3.DatabaseError, PersistenceError) as exc:
            return store_trouble(exc)

    def store_trouble(exc: BaseException) -> Response:
        """A store that fails or cannot be reached while serving: one line to the reader and the log (the
        library's traceback said nothing more), 503."""
        message = store_error_message(exc)
        click.echo(f"Error: {message}", err=True)
        return PlainTextResponse(f"{message}\n", 503, headers=SECURITY_HEADERS)

    # Handlers are coroutines on purpose: the store is used from the event loop's one thread only.
    async def index(request: Request) -> Response:
        try:
            rows = [_row(service, entry, viewer) for entry in GameIndex(service).games()]
        except NightkeepError as exc:
            return PlainTextResponse(f"{exc}\n", 503 if exc.exit_code == 3 else 500, headers=SECURITY_HEADERS)
        except (sqlite3.DatabaseError, PersistenceError) as exc:
            return store_trouble(exc)
        return HTMLResponse(games_page(rows, store), headers=SECURITY_HEADERS)

    async def game_page(request: Request) -> Response:
        found = copy_of(request)
        if isinstance(found, Response):
            return found
        game_id, data, seen_as = found
        key = hashlib.sha256(data).digest()
        if key not in pages:
            # The drawing (a minute for a long talisman game) runs off the event loop, from the copy's
            # bytes only, so the list and other games answer meanwhile; a second request waits for it.
            links = [("/", "All games"), (f"/games/{game_id}.nkr", "Download this replay file (.nkr)")]
            pages[key] = asyncio.ensure_future(
                run_in_threadpool(html_page, data, f"game {game_id}", seen_as, links)
            )
            while len(pages) > KEPT_PAGES:
                pages.popitem(last=False)
        pages.move_to_end(key)
        found_page = pages[key]
        try:
            page = await asyncio.shield(found_page)
        except Exception:
            pages.pop(key, None)  # not kept: the next request tries again
            raise
        return HTMLResponse(page, headers=SECURITY_HEADERS)

    async def heads(request: Request) -> Response:
        # Every copy of a game has the same chain values: the head is public whoever's copy is served.
        try:
            found = [_head(service, UUID(entry["game"])) for entry in GameIndex(service).games()]
        except NightkeepError as exc:
            return PlainTextResponse(f"{exc}\n", 503 if exc.exit_code == 3 else 500, headers=SECURITY_HEADERS)
        except (sqlite3.DatabaseError, PersistenceError) as exc:
            return store_trouble(exc)
        return JSONResponse(found, headers=SECURITY_HEADERS)

    async def replay_file(request: Request) -> Response:
        found = copy_of(request)
        if isinstance(found, Response):
            return found
        game_id, data, _ = found
        headers = {**SECURITY_HEADERS, "Content-Disposition": f'attachment; filename="{game_id}.nkr"'}
        return Response(data, media_type="application/octet-stream", headers=headers)

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/heads", heads, methods=["GET"]),
        Route("/games/{game}.nkr", replay_file, methods=["GET"]),
        Route("/games/{game}", game_page, methods=["GET"]),
    ]
    app = Starlette(routes=routes)
    app.router.redirect_slashes = False  # its redirect names whatever host the request said it was for
    return _with_headers(app)


def _with_headers(app: Any) -> Any:
    """Returns the ASGI app with the security headers on every response, starlette's own 404 and 405
    answers too (an app's handlers add them only to what they answer)."""
    extra = [
        (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in SECURITY_HEADERS.items()
    ]

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                message = {
                    **message,
                    "headers": [*message.get("headers", []), *(h for h in extra if h[0] not in have)],
                }
            await send(message)

        await app(scope, receive, send_with_headers if scope["type"] == "http" else send)

    return wrapped


def _head(service: GameService, game_id: UUID) -> dict[str, Any]:
    """Returns a game's head: its last event's number, chain value (hex) and the history's fingerprint."""
    chains = service.chain_values(game_id)
    fingerprint = history_fingerprint(len(chains), chains[-1])
    return {
        "game": str(game_id),
        "version": len(chains),
        "chain": chains[-1].hex(),
        "fingerprint": fingerprint,
    }


def _row(service: GameService, entry: dict[str, Any], viewer: str) -> Any:
    from projections.html_replay import GameRow

    if entry["status"] == "finished":
        status = f"{entry['winner']} won" if entry["winner"] else "no winner"
    else:
        status = str(entry["status"])
    note = ""
    if "copy_of" in entry or service.copies.get(UUID(entry["game"])) is not None:
        note = "a copy imported from a replay file"
    seen_as = seen_as_for(service, UUID(entry["game"]), viewer)
    return GameRow(entry["game"], entry["ruleset"], status, entry["players"], entry["version"], seen_as, note)
