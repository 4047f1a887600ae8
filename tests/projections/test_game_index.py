"""The game index is written by the writer with each save's events: after every kind of write it equals
the index built from the events, who is to act included, and listing it folds nothing and writes
nothing. A store without it (made before it) is built by its first writer, and listed meanwhile."""

from __future__ import annotations

import json
import random
from uuid import UUID

from click.testing import CliRunner

from cli.main import cli
from domain.club import DeadlineSet, RollbackAnswered, RollbackProposed, RolledBack, TurnLapsed
from domain.errors import NightkeepError
from event_store import game_index
from event_store.app.replay_file import export_game, import_game
from event_store.app.service import GameService, play_with_bots
from event_store.sql import sql_store_of
from projections.game_index import GameIndex

NOW = 1_800_000_000


def index_of(service: GameService) -> dict[str, dict]:
    entries, built = service.listed_games()
    assert built
    return {e["game"]: e for e in entries}


def rebuilt(service: GameService) -> dict[str, dict]:
    return {e["game"]: e for e in game_index.listed(service.game_index_entries().values())}


def test_index_lists_new_games_and_follows_them_to_the_end(store_service):
    index = GameIndex(store_service)
    first = store_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    second = store_service.create_game("toy-race", [("Cy", None)])
    entries = {e["game"]: e for e in index.games()}
    assert set(entries) == {str(first), str(second)}
    assert entries[str(first)]["status"] == "running" and entries[str(first)]["players"] == ["Ann", "Bo"]
    assert entries[str(first)]["to_act"] == store_service.get_game(first).status["to_act"]
    play_with_bots(store_service, first, seed=4)
    game = store_service.get_game(first)
    entry = {e["game"]: e for e in index.games()}[str(first)]
    assert entry["status"] == "finished" and entry["to_act"] == []
    assert entry["winner"] == game.status["winner"]
    assert entry["version"] == game.version


def club_round(service: GameService, game_id: UUID, rng: random.Random) -> None:
    """A hosted game's club events: a deadline, a lapse, and a rollback of the last move, agreed."""
    service.record_club(
        game_id, DeadlineSet(seconds=86400, reminders=[], missed="wait", grace=0, vacation=0, at=NOW)
    )
    game = service.get_game(game_id)
    if not game.status["to_act"]:
        return  # a game over takes club events, not moves
    player = game.status["to_act"][0]
    service.record_club(game_id, TurnLapsed(player=player, since=game.version, at=NOW + 86400, rule="wait"))
    to = service.get_game(game_id).version
    choice = rng.choice(service.legal_actions(game_id, player))
    service.take_action(game_id, player, choice.id, b"nonce", auth="mail")
    service.record_club(game_id, RollbackProposed(to=to, reason="misread", voids=[player], at=NOW))
    answer = RollbackAnswered(
        player=player, to=to, agreed=True, at=NOW, auth="mail", signed_at=0, signature=b""
    )
    service.record_club(game_id, answer)
    voided = next(r.event for r in service.recorded_events(game_id, gt=to) if r.type_name == "ActionTaken")
    service.record_club(game_id, RolledBack(to=to, reason="misread", nonce=voided.nonce, at=NOW))


def is_fresh(service: GameService, game_id: UUID) -> bool:
    game = service.get_game(game_id)
    kinds = {r.type_name for r in service.recorded_events(game_id)}
    return bool(game.status["to_act"]) and not kinds & {"DeadlineSet", "ForkedFrom"}


def test_after_every_kind_of_write_the_index_equals_one_built_from_the_events(new_store):
    """Seeded runs of writes of every kind (new games, actions and bots, club events with a rollback,
    forks, reveals, imports of whole games and of a viewer's copy): after each, the writer's index (read
    by another process) equals the one built from the events."""
    writer, reader = GameService.open(new_store("writer")), None
    other = GameService.open(new_store("other"))  # imports land here
    try:
        reader = GameService.open(new_store("writer"))
        done: set[str] = set()
        for seed in range(3):
            rng = random.Random(seed)
            games: list[UUID] = []
            for step in range(14):
                kind = rng.choice(["new", "new", "bots", "bots", "club", "fork", "reveal", "import"])
                try:
                    if kind == "new" or not games:
                        ruleset = rng.choice(["dungeon-short", "toy-race", "keep-run"])
                        players = [("Ann", None), ("Bo", None)][: 1 if ruleset == "toy-race" else 2]
                        games.append(writer.create_game(ruleset, players, host_key=b"h" * 32))
                    elif kind == "bots":
                        play_with_bots(
                            writer, rng.choice(games), seed=step, max_actions=rng.choice([1, 5, 500])
                        )
                    elif kind == "club":  # on a running game, not hosted by e-mail yet (or a new one)
                        fresh = [g for g in games if is_fresh(writer, g)]
                        if not fresh:
                            fresh.append(writer.create_game("dungeon-short", [("Ann", None), ("Bo", None)]))
                            games.append(fresh[0])
                        club_round(writer, rng.choice(fresh), rng)
                    elif kind == "fork":
                        game_id = rng.choice(games)
                        events = writer.recorded_events(game_id)
                        # Before each player's action (not the host's start), or at the head.
                        at = rng.choice(
                            [r.version - 1 for r in events if r.type_name == "ActionTaken"][1:]
                            + [len(events)]
                        )
                        games.append(writer.fork_game(game_id, at)[0])
                    elif kind == "reveal":
                        writer.reveal_seed(rng.choice(games))
                    else:
                        game_id = rng.choice(games)
                        viewer = rng.choice(["host", "Ann", ""])
                        import_game(other, export_game(writer, game_id, viewer))
                        assert index_of(other) == rebuilt(other), (seed, step, kind)
                    done.add(kind)
                except NightkeepError:
                    pass  # a write this game refuses now (over, stuck, not at a boundary): nothing stored
                assert index_of(reader) == rebuilt(writer), (seed, step, kind)
        assert len(index_of(reader)) >= 10
        assert done == {"new", "bots", "club", "fork", "reveal", "import"}
        kinds = {r.type_name for g in index_of(writer) for r in writer.recorded_events(UUID(g))}
        assert {"RolledBack", "TurnLapsed", "ForkedFrom", "SeedRevealed", "GameWon"} <= kinds
    finally:
        for service in (writer, other, reader):
            if service is not None:
                service.close()


def test_a_longer_copy_imported_later_extends_the_copys_row(new_store):
    host, player = GameService.open(new_store("host")), GameService.open(new_store("player"))
    game_id = host.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    play_with_bots(host, game_id, seed=1, max_actions=2)
    import_game(player, export_game(host, game_id, "Ann"))
    play_with_bots(host, game_id, seed=2, max_actions=3)
    import_game(player, export_game(host, game_id, "Ann"))  # appended: the copy's second save
    (entry,) = index_of(player).values()
    assert entry["version"] == host.get_game(game_id).version
    assert index_of(player) == rebuilt(player)


def test_the_index_works_on_the_in_memory_store(memory_service):
    game_id = memory_service.create_game("toy-race", [("Ann", None)])
    assert [e["players"] for e in GameIndex(memory_service).games()] == [["Ann"]]
    play_with_bots(memory_service, game_id, seed=1)
    assert index_of(memory_service) == rebuilt(memory_service)
    assert GameIndex(memory_service).rebuild() == 1 and index_of(memory_service) == rebuilt(memory_service)


def forget_index(db: str) -> None:
    """Makes a store as one made before the writer kept its index: no index tables."""
    service = GameService.open(db)
    store = sql_store_of(service.recorder)
    assert store is not None
    with store.transaction(commit=True) as c:
        c.execute(f"DROP TABLE {game_index.TABLE}")
        c.execute(f"DROP TABLE {game_index.FORMAT_TABLE}")
    service.close()


def test_a_store_without_the_index_is_listed_from_its_events_and_its_first_writer_builds_it(new_store):
    db = new_store("old")
    service = GameService.open(db)
    played = service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    play_with_bots(service, played, seed=3, max_actions=4)
    service.close()
    forget_index(db)
    listed = CliRunner().invoke(cli, ["--db", db, "games", "--json"])
    assert listed.exit_code == 0, listed.output
    assert "nightkeep games --rebuild" in listed.stderr and len(listed.stderr.strip().splitlines()) == 1
    (entry,) = json.loads(listed.stdout)
    writer = GameService.open(db)
    assert entry["to_act"] == writer.get_game(played).status["to_act"]
    assert not game_index.is_built(sql_store_of(writer.recorder))  # the listing wrote nothing
    second = writer.create_game("toy-race", [("Cy", None)])  # the first save builds it, then writes
    assert game_index.is_built(sql_store_of(writer.recorder))
    assert set(index_of(writer)) == {str(played), str(second)} and index_of(writer) == rebuilt(writer)
    again = CliRunner().invoke(cli, ["--db", db, "games", "--json"])
    assert again.stderr == "" and len(json.loads(again.stdout)) == 2
    writer.close()


def test_games_rebuild_builds_the_index_again(new_store):
    db = new_store("rebuild")
    service = GameService.open(db)
    for seed in range(3):
        play_with_bots(service, service.create_game("toy-race", [("Ann", None), ("Bo", None)]), seed=seed)
    before = index_of(service)
    forget_index(db)
    result = CliRunner().invoke(cli, ["--db", db, "games", "--rebuild", "--json"])
    assert result.exit_code == 0 and result.stderr == "", result.output
    assert {e["game"]: e for e in json.loads(result.stdout)}.keys() == before.keys()
    reopened = GameService.open(db)
    assert index_of(reopened) == before
    reopened.close()
    service.close()


def test_a_rebuild_keeps_what_saves_wrote_while_it_read_the_events(new_store):
    service = GameService.open(new_store("racing"))
    played = service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    read_before = service.game_index_entries()  # the rebuild has read the events...
    play_with_bots(service, played, seed=2, max_actions=2)  # ...when saves land
    created = service.create_game("toy-race", [("Cy", None)])
    store = sql_store_of(service.recorder)
    assert store is not None
    assert game_index.write_built(store, read_before, replace=True)
    assert set(index_of(service)) == {str(played), str(created)}
    assert index_of(service) == rebuilt(service)
    assert not game_index.write_built(store, read_before, replace=False)  # built: a second writer skips
    service.close()
