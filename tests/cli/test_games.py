"""`nightkeep games`: 80 columns, short ids, who is to act, filters, limits, and a new machine."""

from __future__ import annotations

import json
import os
from uuid import UUID

import pytest
from click.testing import CliRunner

from cli import games_command
from cli.main import cli
from event_store.app.service import GameService, play_with_bots
from projections.game_index import short_ids
from tests.store_clones import clone_games, new_ids


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


@pytest.fixture
def store(new_store, tmp_path):
    """A store with a finished and a running game of each ruleset (long names in one of them)."""
    db = new_store("games")
    service = GameService.open(db)
    games = {}
    for n, ruleset in enumerate(["dungeon-short", "keep-run", "vampire-empire"]):
        finished = service.create_game(ruleset, [("Ann", None), ("Bo", None)])
        play_with_bots(service, finished, seed=n)
        seats = [("Bartholomew", None), ("Cunegonde", None)]
        running = service.create_game(
            ruleset, seats if ruleset == "vampire-empire" else [*seats, ("Di", None)]
        )
        play_with_bots(service, running, seed=n, max_actions=3)
        games[ruleset] = (finished, running)
    return db, service, games


def table_rows(output):
    """Returns the table's game rows (not its header, notes or the line about more games)."""
    return [line for line in output.splitlines()[1:] if line[:1] not in (" ", "…")]


def test_the_table_fits_80_columns_with_short_ids_and_who_is_to_act(store):
    db, service, games = store
    result = run(db, "games")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    assert lines[0].split() == ["game", "ruleset", "status", "to", "act", "players", "events", "played"]
    rows = {line.split()[0]: line for line in table_rows(result.stdout)}
    assert len(rows) == 6
    for ruleset, (finished, running) in games.items():
        shown = json.loads(run(db, "show", str(running), "--json").stdout)
        row = rows[str(running)[:8]]
        assert ruleset in row and "running" in row
        assert f"  {shown['to_act'][0]}  " in row
        assert str(shown["version"]) in row.split()
        winner = service.get_game(finished).status["winner"]
        assert (f"{winner} won" if winner else "no winner") in rows[str(finished)[:8]]
    assert str(games["keep-run"][1]) not in result.stdout  # only the short ids
    assert "  Bartholomew, " in rows[str(games["keep-run"][1])[:8]]
    assert "Bartholomew, Cunegonde, Di" not in result.stdout  # the players cut to fit, with a mark
    assert "…" in rows[str(games["keep-run"][1])[:8]]


def test_a_wider_terminal_shows_every_player(store, monkeypatch):
    db, _, games = store
    monkeypatch.setattr(games_command, "on_terminal", lambda: True)
    monkeypatch.setattr(games_command.shutil, "get_terminal_size", lambda: os.terminal_size((120, 40)))
    output = run(db, "games").stdout
    assert "Bartholomew, Cunegonde, Di" in output
    assert max(len(line) for line in output.splitlines()) <= 120


def test_json_keeps_full_ids_and_every_field(store):
    db, _, games = store
    listed = json.loads(run(db, "games", "--json").stdout)
    by_id = {e["game"]: e for e in listed}
    assert set(by_id) == {str(g) for pair in games.values() for g in pair}
    running = by_id[str(games["dungeon-short"][1])]
    assert running["to_act"] == json.loads(run(db, "show", running["game"], "--json").stdout)["to_act"]
    assert {"ruleset", "players", "status", "winner", "version", "updated", "seed"} <= set(running)
    assert by_id[str(games["dungeon-short"][0])]["to_act"] == []


def test_who_is_to_act_follows_each_action(store):
    db, service, games = store
    game = games["dungeon-short"][1]
    before = json.loads(run(db, "games", "--json").stdout)
    play_with_bots(service, game, seed=9, max_actions=1)
    after = {e["game"]: e for e in json.loads(run(db, "games", "--json").stdout)}[str(game)]
    assert after["to_act"] == service.get_game(game).status["to_act"]
    assert after["version"] > {e["game"]: e for e in before}[str(game)]["version"]


def test_running_lists_only_games_still_to_be_played(store):
    db, _, games = store
    listed = json.loads(run(db, "games", "--running", "--json").stdout)
    assert {e["game"] for e in listed} == {str(running) for _, running in games.values()}
    rows = table_rows(run(db, "games", "--running").stdout)
    assert len(rows) == 3 and all("running" in row for row in rows)


def test_ruleset_lists_only_that_rulesets_games(store):
    db, _, games = store
    listed = json.loads(run(db, "games", "--ruleset", "keep-run", "--json").stdout)
    assert {e["game"] for e in listed} == {str(g) for g in games["keep-run"]}
    both = json.loads(run(db, "games", "--ruleset", "keep-run", "--running", "--json").stdout)
    assert [e["game"] for e in both] == [str(games["keep-run"][1])]


def test_an_unknown_ruleset_is_a_one_line_usage_error(store):
    db, _, _ = store
    result = run(db, "games", "--ruleset", "kepe-run")
    assert result.exit_code == 2
    assert "unknown ruleset 'kepe-run'" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "did you mean 'keep-run'?" in result.stderr


def test_a_filter_that_matches_nothing_says_so(new_store, tmp_path):
    db = new_store("one")
    service = GameService.open(db)
    service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    result = run(db, "games", "--ruleset", "keep-run")
    assert result.exit_code == 0 and result.stdout.strip() == "No games match."


@pytest.fixture
def many(new_store, tmp_path):
    """A store of 25 games: one played game and 24 copies of it."""
    db = new_store("many")
    service = GameService.open(db)
    template = service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    clone_games(db, [template], new_ids(24))
    return db


def test_the_20_most_recent_are_listed_and_the_rest_counted(many):
    output = run(many, "games").stdout
    assert len(table_rows(output)) == 20
    assert output.splitlines()[-1].startswith("… and 5 more (--all")
    everything = run(many, "games", "--all").stdout
    assert len(table_rows(everything)) == 25 and "more" not in everything


def test_limit_lists_that_many_anywhere_and_json_lists_all_unless_told(many):
    output = run(many, "games", "--limit", "3").stdout
    assert len(table_rows(output)) == 3 and "… and 22 more" in output
    assert len(table_rows(run(many, "games").stdout)) == 20  # piped too: --all or --json lists every game
    assert len(json.loads(run(many, "games", "--json").stdout)) == 25
    assert len(json.loads(run(many, "games", "--json", "--limit", "4").stdout)) == 4
    assert run(many, "games", "--limit", "0").exit_code == 2


def test_ids_that_share_their_first_8_characters_are_shown_longer(new_store, tmp_path):
    db = new_store("twins")
    service = GameService.open(db)
    template = service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    twins = [UUID("abcdef12-3456-4000-8000-000000000001"), UUID("abcdef12-3400-4000-8000-000000000002")]
    other = UUID("abcdef13-0000-4000-8000-000000000003")
    clone_games(db, [template], [*twins, other])
    rows = {line.split()[0] for line in table_rows(run(db, "games").stdout)}
    assert rows == {"abcdef12-345", "abcdef12-340", "abcdef13", str(template)[:8]}
    assert run(db, "audit", str(twins[0])).exit_code == 0  # a clone is a valid game


def test_short_ids_are_the_shortest_unique_prefixes_of_at_least_8():
    ids = ["0123456789", "0123456700", "01234567xy", "abcdefghij", "abcdefgz"]
    assert short_ids(ids) == {
        "0123456789": "012345678",
        "0123456700": "012345670",
        "01234567xy": "01234567x",
        "abcdefghij": "abcdefgh",
        "abcdefgz": "abcdefgz",
    }
    assert short_ids([]) == {}


def test_on_a_new_machine_games_lists_nothing_and_creates_no_store(tmp_path, monkeypatch):
    monkeypatch.delenv("NIGHTKEEP_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for args in (["games"], ["games", "--running"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == "No games in this store yet; try `nightkeep demo`."
    listed = CliRunner().invoke(cli, ["games", "--json"])
    assert listed.exit_code == 0 and json.loads(listed.stdout) == []
    assert not (tmp_path / "data").exists()


def test_who_is_to_act_is_listed_without_a_fold_and_follows_each_action(store, monkeypatch):
    db, service, games = store
    from projections.game_index import GameIndex

    def no_fold(*args, **kwargs):
        raise AssertionError("folded at listing time")

    reopened = GameService.open(db)
    monkeypatch.setattr(reopened, "fold", no_fold)
    monkeypatch.setattr(reopened, "get_game", no_fold)
    entries = GameIndex(reopened).games()
    assert len(entries) == 6
    assert all(e["to_act"] == service.get_game(UUID(e["game"])).status["to_act"] for e in entries)
    play_with_bots(service, games["keep-run"][1], seed=1, max_actions=1)
    entry = {e["game"]: e for e in GameIndex(reopened).games()}[str(games["keep-run"][1])]
    assert entry["to_act"] == service.get_game(games["keep-run"][1]).status["to_act"]
    assert entry["version"] == service.get_game(games["keep-run"][1]).version


def read_only_location(db, tmp_path, request):
    """Returns the location of a store as a reader on a read-only standby sees it: its SQLite file and
    folder made read-only, or a PostgreSQL role whose transactions are read-only."""
    if "://" not in db:
        # Opened with mode=ro (file permissions do not bind root, who runs CI): any write fails.
        import sqlite3

        monkeypatch = request.getfixturevalue("monkeypatch")
        connect = sqlite3.connect

        def read_only(database, *args, **kwargs):
            if database == db:
                kwargs["uri"] = True
                return connect(f"file:{database}?mode=ro", *args, **kwargs)
            return connect(database, *args, **kwargs)

        monkeypatch.setattr(sqlite3, "connect", read_only)
        return db
    import psycopg

    schema = db.split("schema=")[1]
    role = f"reader_{schema}"[:60]
    with psycopg.connect(db.split("?")[0], autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
        conn.execute(f'GRANT USAGE ON SCHEMA "{schema}" TO "{role}"')
        conn.execute(f'GRANT SELECT ON ALL TABLES IN SCHEMA "{schema}" TO "{role}"')
        conn.execute(f'ALTER ROLE "{role}" SET default_transaction_read_only = on')
    return db.replace("://nightkeep@", f"://{role}@")


def test_games_only_reads_a_read_only_store_with_every_option(store, tmp_path, request):
    db, service, games = store
    expected = {
        str(game_id): service.get_game(game_id).status["to_act"]
        for pair in games.values()
        for game_id in pair
    }
    service.close()
    reader = read_only_location(db, tmp_path, request)
    listed = run(reader, "games", "--json")
    assert listed.exit_code == 0, listed.output
    assert {e["game"]: e["to_act"] for e in json.loads(listed.stdout)} == expected
    assert listed.stderr == ""  # the index is built: no note
    running = {e["game"] for e in json.loads(run(reader, "games", "--json", "--running").stdout)}
    assert running == {str(pair[1]) for pair in games.values()}
    keep = json.loads(run(reader, "games", "--json", "--ruleset", "keep-run", "--limit", "1").stdout)
    assert [e["game"] for e in keep] == [str(games["keep-run"][1])]
    for args in ([], ["--all"], ["--limit", "2"], ["--running"], ["--ruleset", "vampire-empire"]):
        result = run(reader, "games", *args)
        assert result.exit_code == 0 and "Error" not in result.output, (args, result.output)
    table = run(reader, "games", "--all").stdout
    assert all(str(game_id)[:8] in table for pair in games.values() for game_id in pair)
    refused = run(reader, "games", "--rebuild")  # a write: refused by the store, in one line
    assert refused.exit_code != 0 and len(refused.stderr.strip().splitlines()) == 1
