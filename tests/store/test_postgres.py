"""The PostgreSQL seam: a store chosen by URL or the library's POSTGRES_* variables, refused in one line
when it cannot be used, isolated by schema, and nightkeep's own rows written in the transaction of the
events they belong with (on both stores)."""

from __future__ import annotations

import copy
import json
from urllib.parse import urlsplit
from uuid import uuid4

import pytest
from click.testing import CliRunner
from eventsourcing.persistence import IntegrityError

from cli.main import cli
from domain.bots import Bot
from event_store.app.service import SNAPSHOT_INTERVAL, VIEW_SNAPSHOTS_EVERY, GameService
from event_store.config import describe
from event_store.sql import UnsupportedStore, sql_store_of
from tests.mail_servers import unused_port  # noqa: F401  (a fixture)
from tests.pg_round_trips import RoundTrips

SEATS = [("Ann", None), ("Bo", None)]


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, list(args), env=env)


def one_line_error(result, exit_code: int) -> str:
    """Returns the error of a failed command after checking it is one line, no traceback."""
    assert result.exit_code == exit_code, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def test_a_failed_save_leaves_no_seed_row(store_service):
    game_id = store_service.create_game("toy-race", SEATS)
    first = store_service.playable_game(game_id)
    second = copy.deepcopy(first)
    seed = store_service.seed_of(game_id)
    for game in (first, second):
        game.take_action("Ann", "roll", game.dice(seed))
    store_service.save(first)
    other = uuid4()
    with pytest.raises(IntegrityError):  # the second writer's version is taken: nothing of it is stored
        store_service.save(second, rows=store_service.secrets.put(other, b"s" * 32))
    assert store_service.secrets.held() == {game_id}
    assert store_service.has_game(game_id) and store_service.get_game(game_id).version == first.version


def test_a_store_that_is_not_sql_or_memory_is_refused():
    class ElsewhereRecorder:
        datastore = object()

    with pytest.raises(UnsupportedStore, match="unsupported store"):
        sql_store_of(ElsewhereRecorder())


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://me@host/games", "unsupported store"),
        ("postgresql://me@host:notaport/games", "not a PostgreSQL URL"),
        ("postgresql://me@host/games?sslmode=off", "unknown URL option 'sslmode'"),
        ("postgresql://me@host/games?schema=Bad-Name", "is not a schema name"),
        ("postgresql://host/games", "no user"),
    ],
)
def test_a_store_url_that_cannot_be_used_is_one_line(url, words):
    error = one_line_error(run("--db", url, "games"), 2)
    assert words in error


def test_an_unreachable_server_is_one_line_with_exit_3(unused_port):  # noqa: F811
    url = f"postgresql://nightkeep@127.0.0.1:{unused_port}/nightkeep"
    error = one_line_error(run("--db", url, "games"), 3)
    assert "cannot open the PostgreSQL store" in error and str(unused_port) in error


def test_a_missing_database_is_one_line_with_exit_3(postgres_server):
    url = postgres_server.url("no_such_database_here")
    error = one_line_error(run("--db", url, "new", "toy-race", "--player", "A", "--player", "B"), 3)
    assert "no_such_database_here" in error and "does not exist" in error


def test_a_database_without_a_store_is_named_as_a_missing_file_is(postgres_server):
    url = postgres_server.fresh_url("empty")
    error = one_line_error(run("--db", url, "games"), 2)
    assert error == f"Error: no store at {url} (nightkeep new or nightkeep import creates one)"


def test_a_password_is_never_printed(postgres_server):
    url = postgres_server.fresh_url("secretive")
    parts = urlsplit(url)
    with_password = url.replace(f"{parts.username}@", f"{parts.username}:hunter2@", 1)
    for args in (["games"], ["show", "abcd"]):
        result = run("--db", with_password, *args)
        assert result.exit_code != 0
        assert "hunter2" not in result.output and ":***@" in result.stderr
    assert "hunter2" not in describe(with_password)


def test_schemas_keep_stores_apart(postgres_server):
    one, two = postgres_server.fresh_url("one"), postgres_server.fresh_url("two")
    first, second = GameService.open(one), GameService.open(two)
    try:
        game_id = first.create_game("toy-race", SEATS)
        second.create_game("toy-race", SEATS)
        assert first.has_game(game_id) and not second.has_game(game_id)
        assert first.secrets.held() == {game_id} and game_id not in second.secrets.held()
        assert [g["game"] for g in json.loads(run("--db", one, "games", "--json").stdout)] == [str(game_id)]
        assert str(game_id) not in run("--db", two, "games", "--json").stdout
    finally:
        first.close()
        second.close()


def test_the_librarys_postgres_variables_name_the_store(postgres_server, monkeypatch):
    parts = urlsplit(postgres_server.fresh_url("by_variables"))
    env = {
        "POSTGRES_HOST": parts.hostname,
        "POSTGRES_PORT": str(parts.port),
        "POSTGRES_USER": parts.username,
        "POSTGRES_DBNAME": parts.path.lstrip("/"),
        "POSTGRES_SCHEMA": parts.query.removeprefix("schema="),
    }
    monkeypatch.delenv("NIGHTKEEP_DB", raising=False)
    made = run("new", "toy-race", "--player", "Ann", "--player", "Bo", "--json", env=env)
    assert made.exit_code == 0, made.output
    game = json.loads(made.stdout)["game"]
    listed = json.loads(run("--db", parts.geturl(), "games", "--json").stdout)
    assert [g["game"] for g in listed] == [game]


def test_nightkeep_db_names_a_postgres_store(postgres_server):
    url = postgres_server.fresh_url("by_env")
    made = run("new", "toy-race", "--player", "Ann", "--player", "Bo", "--json", env={"NIGHTKEEP_DB": url})
    assert made.exit_code == 0, made.output
    game = json.loads(made.stdout)["game"]
    shown = run("show", game[:8], "--json", env={"NIGHTKEEP_DB": url})
    assert shown.exit_code == 0 and json.loads(shown.stdout)["game"] == game


def test_a_command_gives_its_connections_back_when_it_ends(postgres_server, monkeypatch):
    opened: list[GameService] = []

    def open_and_keep(db: str, reads_only: bool = False) -> GameService:
        opened.append(GameService(db=db, reads_only=reads_only))
        return opened[-1]

    monkeypatch.setattr(GameService, "open", staticmethod(open_and_keep))
    url = postgres_server.fresh_url("closing")
    for args in (["new", "toy-race", "--player", "Ann", "--player", "Bo"], ["games"], ["show", "zzzz"]):
        run("--db", url, *args)
    assert len(opened) == 3
    assert all(service.recorder.datastore.pool.closed for service in opened)


def test_an_action_on_a_game_the_service_holds_is_one_round_trip(postgres_server):
    # A count of waits on the server, not a time: the events, the caller's rows and a snapshot when one
    # is due go in one transaction sent at once, with no read before it (a stale copy is refused there).
    service = GameService.open(postgres_server.fresh_url("trips"))
    seats = [("Ann", None), ("Bo", None), ("Cy", None)]
    game_id = service.create_game("dungeon-short", seats, seed=bytes(32))
    bot = Bot("trips")
    service.take_bot_action(game_id, bot)
    with RoundTrips(service.recorder.datastore) as trips:
        game = service.get_game(game_id)
        choice = bot.choose(game.ruleset, game.state, game.ruleset.legal_actions(game.state, None))
        trips.taken()
        rows = service.secrets.put(uuid4(), bytes(32))  # the host writes rows of its own with an action
        service.take_action(game_id, choice.player, choice.id, expected_version=game.version, rows=rows)
        per_action, snapshots, viewed = [trips.taken()], 0, []
        views_every = SNAPSHOT_INTERVAL * VIEW_SNAPSHOTS_EVERY
        while not (acted := service.take_bot_action(game_id, bot)).is_finished:
            per_action.append(trips.taken())
            first, last = acted.recorded[0].version, acted.recorded[-1].version
            snapshots += last // SNAPSHOT_INTERVAL - (first - 1) // SNAPSHOT_INTERVAL
            # (The save that reaches a multiple of views_every is followed by the viewers' snapshots,
            # folded from the store after it: a few reads once every views_every events.)
            viewed.append(last // views_every > (first - 1) // views_every)
    assert [n for n, view in zip(per_action[1:], viewed, strict=True) if not view] == [1] * viewed.count(
        False
    )
    assert per_action[0] == 1 and len(per_action) > 10
    assert snapshots >= 2
    newest = next(iter(service.snapshots.get(game_id, desc=True, limit=1)))  # written with its events
    assert newest.originator_version // SNAPSHOT_INTERVAL >= snapshots
