"""Games sharded over several stores (sharding/shards.py): two PostgreSQL databases, or two SQLite
files; the mapping, a third shard added, every command finding its game, a bad shard map."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.errors import CorruptStore
from event_store.app.game_ids import AmbiguousGameId
from event_store.app.replay_file import export_game, import_game
from event_store.app.service import GameService, play_with_bots
from event_store.shard_map import home_shard, shard_score
from projections.game_index import GameIndex
from sharding.shards import ShardedService

_databases = itertools.count(1)


def seeded_ids(seed: int):
    """Returns a maker of game ids drawn from a seeded generator (version-4 UUIDs, as uuid4 makes)."""
    rng = random.Random(seed)
    return lambda: UUID(int=rng.getrandbits(128), version=4)


@pytest.fixture
def shard_stores(store_kind, tmp_path, request):
    """Makes the store of a new shard: a whole PostgreSQL database of its own, or a SQLite file."""
    made: list[str] = []

    def make(name: str) -> str:
        if store_kind == "sqlite":
            return str(tmp_path / f"shard-{name}.sqlite")
        server = request.getfixturevalue("postgres_server")
        database = f"nk_shard_{os.getpid()}_{next(_databases)}_{name}"
        made.append(database)
        return server.create_database(database)

    yield make
    if made:
        import psycopg

        server = request.getfixturevalue("postgres_server")
        with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
            for database in made:
                conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def write_map(path, shards: dict[str, str]) -> str:
    """Writes a shard map naming each shard's store; returns its `--db` location."""
    path.write_text("".join(f'[[shard]]\nname = "{name}"\ndb = "{db}"\n\n' for name, db in shards.items()))
    return f"shards:{path}"


@pytest.fixture
def two_shards(shard_stores, tmp_path):
    """A shard map of two shards, `a` and `b`, with no store yet."""
    stores = {"a": shard_stores("a"), "b": shard_stores("b")}
    return write_map(tmp_path / "shards.toml", stores), stores


def open_sharded(location: str, seed: int = 1, create: bool = True) -> ShardedService:
    sharded = ShardedService.open(location, create=create)
    sharded._new_id = seeded_ids(seed)
    return sharded


def new_toy_games(sharded: ShardedService, count: int) -> list[UUID]:
    return [sharded.create_game("toy-race", [("Ann", None), ("Bo", None)]) for _ in range(count)]


def stored_on(db: str) -> set[UUID]:
    """Returns the ids of the games one shard's store holds (asked of that store alone)."""
    service = GameService.open(db)
    try:
        return {UUID(e["game"]) for e in GameIndex(service).games()}
    finally:
        service.close()


def run(location: str, *args: str):
    return CliRunner().invoke(cli, ["--db", location, *args])


# --- the mapping ---------------------------------------------------------------------------------------


def test_the_mapping_is_rendezvous_hashing_over_the_shard_names_and_never_changes():
    # docs/scaling.md gives this function: these values pin it, so no release moves a stored game's home.
    game = UUID("760b6a61-2fa1-4c5e-9d7e-0123456789ab")
    assert shard_score("a", game) == int.from_bytes(hashlib.sha256(b"a\0" + game.bytes).digest()[:8], "big")
    assert shard_score("a", game) == 11650672615166277207
    assert home_shard(game, ["a", "b"]) == home_shard(game, ["a", "b", "c"]) == "b"
    assert home_shard(game, ["b", "a"]) == "b"  # the order of the map is no input
    homes = ["b", "b", "a", "a", "a", "b", "b", "a"]
    assert [home_shard(UUID(int=n, version=4), ["a", "b", "c"]) for n in range(8)] == homes
    assert [home_shard(UUID(int=n, version=4), ["c", "a", "b"]) for n in range(8)] == homes


def test_adding_a_shard_sends_it_a_third_of_new_games_and_moves_no_other_game():
    make = seeded_ids(7)
    ids = [make() for _ in range(6000)]
    before = {game: home_shard(game, ["a", "b"]) for game in ids}
    after = {game: home_shard(game, ["a", "b", "c"]) for game in ids}
    moved = [game for game in ids if before[game] != after[game]]
    assert all(after[game] == "c" for game in moved)  # a home changes only to the new shard
    shares = Counter(after.values())
    assert set(shares) == {"a", "b", "c"}
    for name in "abc":
        assert abs(shares[name] / len(ids) - 1 / 3) < 0.02, shares
    assert abs(Counter(before.values())["a"] / len(ids) - 1 / 2) < 0.02


def test_each_new_game_is_stored_on_the_home_shard_of_its_id(two_shards):
    location, stores = two_shards
    sharded = open_sharded(location)
    try:
        games = new_toy_games(sharded, 12)
    finally:
        sharded.close()
    on = {name: stored_on(db) for name, db in stores.items()}
    assert on["a"] | on["b"] == set(games) and not on["a"] & on["b"]
    assert on["a"] and on["b"]  # spread over both
    for game in games:
        assert game in on[home_shard(game, ["a", "b"])]


# --- commands across shards ----------------------------------------------------------------------------


def test_every_command_finds_its_game_on_whichever_shard_holds_it(two_shards, tmp_path, monkeypatch):
    location, _ = two_shards
    # The CLI mints ids with uuid4: seeded here, so the six games always land on both shards.
    monkeypatch.setattr("sharding.shards.uuid4", seeded_ids(6))
    created = [
        json.loads(run(location, "new", "toy-race", "--player", "Ann", "--json").stdout) for _ in range(6)
    ]
    games = [c["game"] for c in created]
    homes = {home_shard(UUID(g), ["a", "b"]) for g in games}
    assert homes == {"a", "b"}
    for game in list(games):
        listed = run(location, "actions", game, "--json")
        assert listed.exit_code == 0, listed.output
        actions = json.loads(listed.stdout)
        acted = run(location, "act", game, actions[0]["id"], "--json")
        assert acted.exit_code == 0, acted.output
        for command in (["show", game], ["log", game], ["audit", game], ["show", game[:8]]):
            result = run(location, *command)
            assert result.exit_code == 0, (command, result.output)
        assert run(location, "play", game, "--bots").exit_code == 0
        assert json.loads(run(location, "audit", game, "--json").stdout)[0]["findings"] == []
        exported = run(location, "export", game, "-o", str(tmp_path / f"{game}.nkr"))
        assert exported.exit_code == 0, exported.output
        fork = json.loads(run(location, "fork", game, "--at", "3", "--json").stdout)["game"]
        games.append(fork)
    listed = json.loads(run(location, "games", "--json").stdout)
    assert {e["game"] for e in listed} == set(games)
    assert {e["shard"] for e in listed} == {"a", "b"}
    assert all(e["shard"] == home_shard(UUID(e["game"]), ["a", "b"]) for e in listed)


def test_a_fork_lives_on_its_own_ids_home_shard_and_an_import_on_its_games(
    two_shards, shard_stores, tmp_path
):
    location, stores = two_shards
    sharded = open_sharded(location, seed=3)
    try:
        games = new_toy_games(sharded, 4)
        for game in games:
            play_with_bots(sharded, game, seed=1)
        forks = [sharded.fork_game(game, 3)[0] for game in games]
        files = {game: export_game(sharded, game) for game in games}
    finally:
        sharded.close()
    on = {name: stored_on(db) for name, db in stores.items()}
    for fork in forks:
        assert fork in on[home_shard(fork, ["a", "b"])]
    # The same files imported into another pair of shards: each game goes to its own id's home shard.
    other = write_map(tmp_path / "other.toml", {"a": shard_stores("c"), "b": shard_stores("d")})
    sharded = open_sharded(other)
    try:
        for game, data in files.items():
            assert import_game(sharded, data).stored == game
            assert sharded.shard_holding(game).name == home_shard(game, ["a", "b"])
            assert sharded.audit(game).findings == []
    finally:
        sharded.close()


def test_a_third_shard_keeps_every_stored_game_where_it_is_and_takes_its_share_of_new_ones(
    two_shards, shard_stores, tmp_path
):
    location, stores = two_shards
    sharded = open_sharded(location, seed=11)
    try:
        old = new_toy_games(sharded, 9)
    finally:
        sharded.close()
    stores["c"] = shard_stores("c")
    location = write_map(tmp_path / "shards.toml", stores)
    sharded = open_sharded(location, seed=12)
    try:
        moved_home = [g for g in old if home_shard(g, ["a", "b", "c"]) == "c"]
        for game in old:
            assert sharded.get_game(game).version >= 2
            assert sharded.shard_holding(game).name == home_shard(game, ["a", "b"])
        assert moved_home, "no stored game whose home is now the new shard: the test shows nothing"
        new = new_toy_games(sharded, 30)
        for game in old + new:
            assert sharded.audit(game).findings == []
    finally:
        sharded.close()
    on = {name: stored_on(db) for name, db in stores.items()}
    assert {g for g in old if g in on["c"]} == set()  # nothing moved to the new shard
    counts = Counter(name for game in new for name, held in on.items() if game in held)
    assert counts == Counter(home_shard(game, ["a", "b", "c"]) for game in new)
    assert all(counts[name] >= 5 for name in "abc"), counts  # about a third each (10 of 30)
    listed = json.loads(run(location, "games", "--json").stdout)
    assert len(listed) == len(old) + len(new)


def test_a_prefix_naming_games_on_two_shards_is_ambiguous(two_shards):
    location, _ = two_shards
    # Two ids that share their first 8 hex digits and map to different shards.
    first = UUID("abcd1234-0000-4000-8000-000000000000")
    second = next(
        UUID(f"abcd1234-0000-4000-8000-{n:012x}")
        for n in range(1, 100)
        if home_shard(UUID(f"abcd1234-0000-4000-8000-{n:012x}"), ["a", "b"]) != home_shard(first, ["a", "b"])
    )
    sharded = ShardedService.open(location, create=True)
    sharded._new_id = iter([first, second]).__next__
    try:
        new_toy_games(sharded, 2)
        with pytest.raises(AmbiguousGameId, match="'abcd1234' names 2 games"):
            sharded.resolve_game_id("abcd1234")
        assert sharded.resolve_game_id(str(first)) == first
        assert sharded.resolve_game_id(str(second)) == second
    finally:
        sharded.close()
    result = run(location, "show", "abcd")
    assert result.exit_code == 2 and "names 2 games" in result.stderr and len(result.stderr.splitlines()) == 1


def test_a_game_stored_on_two_shards_is_refused(two_shards):
    location, stores = two_shards
    sharded = open_sharded(location)
    try:
        (game,) = new_toy_games(sharded, 1)
        home = sharded.shard_holding(game).name
        other = GameService.open(stores["b" if home == "a" else "a"])
        other.store_recorded(game, sharded.recorded_events(game))
        other.close()
    finally:
        sharded.close()
    sharded = open_sharded(location)
    try:
        with pytest.raises(CorruptStore, match="is stored on shards"):
            sharded.resolve_game_id(str(game))
    finally:
        sharded.close()
    result = run(location, "show", str(game))
    assert result.exit_code != 0 and "is stored on shards" in result.stderr


# --- the read side spans the shards --------------------------------------------------------------------


def test_the_read_side_is_kept_on_each_shard_and_read_as_one(two_shards):
    location, stores = two_shards
    sharded = open_sharded(location, seed=5)
    try:
        games = new_toy_games(sharded, 6)
        for game in games[:3]:
            play_with_bots(sharded, game, seed=2)
    finally:
        sharded.close()
    ran = run(location, "projections", "run", "--once", "--batch", "7")
    assert ran.exit_code == 0, ran.output
    shown = json.loads(run(location, "projections", "show", "--json").stdout)
    assert set(shown["games"]) == {str(g) for g in games}
    assert shown["progress"]["events"] > 0 and shown["progress"]["behind"] == 0
    assert sum(1 for g in games[:3] if str(g) in shown["results"]) == 3
    assert run(location, "projections", "check").exit_code == 0
    for db in stores.values():  # each shard's own views hold its own games only
        alone = json.loads(run(db, "projections", "show", "--json").stdout)
        assert set(alone["games"]) == {str(g) for g in stored_on(db)}


def test_a_following_read_side_takes_every_shards_new_events_and_stops_on_sigterm(two_shards):
    location, _ = two_shards
    sharded = open_sharded(location, seed=9, create=True)
    runner = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "nightkeep"),
            "--db",
            location,
            "projections",
            "run",
            "--poll",
            "0.05",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        games = [sharded.create_game("dungeon-short", [("Ann", None), ("Bo", None)]) for _ in range(4)]
        assert {sharded.shard_holding(g).name for g in games} == {"a", "b"}
        deadline = time.monotonic() + 120  # a bound against hanging, never a timing
        while True:
            shown = json.loads(run(location, "projections", "show", "--json").stdout)
            if set(shown["games"]) == {str(g) for g in games}:
                break
            assert time.monotonic() < deadline, "gave up waiting for the runner to take every shard's games"
            time.sleep(0.05)
        runner.send_signal(signal.SIGTERM)
        out, err = runner.communicate(timeout=120)
    finally:
        runner.kill()
        sharded.close()
    assert runner.returncode == 0, err
    assert "stopped by SIGTERM" in out
    assert run(location, "projections", "check").exit_code == 0


# --- a bad shard map is one line -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[[shard]]\nname = "a"\ndb = "x.sqlite"\nweight = 2\n', "unknown key 'weight'"),
        ('shards = 1\n[[shard]]\nname = "a"\ndb = "x.sqlite"\n', "unknown key 'shards'"),
        (
            '[[shard]]\nname = "a"\ndb = "x.sqlite"\n[[shard]]\nname = "a"\ndb = "y.sqlite"\n',
            "two shards are named 'a'",
        ),
        (
            '[[shard]]\nname = "a"\ndb = "x.sqlite"\n[[shard]]\nname = "b"\ndb = "./x.sqlite"\n',
            "are one store",
        ),
        ('[[shard]]\nname = "A b"\ndb = "x.sqlite"\n', "needs a name"),
        ('[[shard]]\nname = "a"\n', "needs db"),
        ('[[shard]]\nname = "a"\ndb = "mysql://x/y"\n', "unsupported store"),
        ("", "no shards"),
        ("[[shard]\n", "not TOML"),
    ],
)
def test_a_bad_shard_map_is_one_line(tmp_path, text, fragment):
    path = tmp_path / "shards.toml"
    path.write_text(text)
    for command in (["games"], ["new", "toy-race", "--player", "Ann"]):
        result = run(f"shards:{path}", *command)
        assert result.exit_code == 2, result.output
        assert fragment in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shards.toml"]  # no store was made


def test_a_missing_shard_map_or_shard_store_is_one_line(tmp_path, monkeypatch):
    result = run(f"shards:{tmp_path / 'nowhere.toml'}", "games")
    assert result.exit_code == 2 and "no such file" in result.stderr
    monkeypatch.setenv("NIGHTKEEP_DB", f"shards:{tmp_path / 'nowhere.toml'}")
    result = CliRunner().invoke(cli, ["games"])  # not an empty listing: the map was meant
    assert result.exit_code == 2 and "no such file" in result.stderr
    location = write_map(tmp_path / "shards.toml", {"a": str(tmp_path / "a.sqlite")})
    result = run(location, "show", "abcd1234")
    assert result.exit_code == 2 and "shard 'a': no store at" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    (tmp_path / "a.sqlite").write_bytes(b"not a database, " * 64)
    result = run(location, "games")
    assert result.exit_code == 2 and "shard 'a': cannot open the store" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_an_unreachable_shard_server_is_one_line(tmp_path):
    from tests.mail_servers import free_port  # nothing listens on it: connecting is refused

    url = f"postgresql://nightkeep@127.0.0.1:{free_port()}/nowhere"
    location = write_map(tmp_path / "shards.toml", {"a": str(tmp_path / "a.sqlite"), "b": url})
    result = run(location, "new", "toy-race", "--player", "Ann")
    assert result.exit_code == 3, result.output
    assert result.stderr.startswith("Error: shard 'b':") and len(result.stderr.splitlines()) == 1
