"""Seeded bot playouts of the Dungeon short game: every game ends, invariants hold after every event,
and the board rebuilt from the store (SQLite, then PostgreSQL) equals the live board."""

from __future__ import annotations

import pytest

from domain.bots import Bot
from domain.game import GameFold
from event_store.app.service import GameService
from projections.views import players_summary, render_board

pytestmark = pytest.mark.slow  # a playout: seeded bot games, stored and rebuilt

# The whole playout on SQLite; a seeded subset on PostgreSQL, whose saves are network round trips (the
# whole would add minutes) and whose read and write paths are the same code as SQLite's.
GAMES = {"sqlite": 200, "postgresql": 24}
MAX_ACTIONS = 3_000  # a Dungeon short game takes well under 500 actions; this only stops a runaway
LAST_SPACE = 24
SEATINGS = [
    [("Ann", None), ("Bo", None)],
    [("Ann", "warrior"), ("Bo", "wizard"), ("Cy", None)],
    [("Ann", None), ("Bo", None), ("Cy", None), ("Di", None), ("Ed", None), ("Flo", None)],
]


def check_invariants(state: dict) -> None:
    sheets = state["players"].values()
    for sheet in sheets:
        assert 0 <= sheet["space"] <= LAST_SPACE, sheet
        assert sheet["lives"] >= 0, sheet
        assert sheet["status"] in {"playing", "out", "winner"}, sheet
        if sheet["status"] == "out":
            assert sheet["lives"] == 0 or sheet["space"] == 0, sheet  # killed, or fled out
        if sheet["status"] == "winner":
            assert sheet["space"] == LAST_SPACE, sheet
    assert sum(sheet["status"] == "winner" for sheet in sheets) <= 1


@pytest.fixture(scope="module", params=tuple(GAMES))
def played_games(request, tmp_path_factory):
    """Plays seeded bot games on one store of each kind; returns the store location and the live games."""
    if request.param == "sqlite":
        db = str(tmp_path_factory.mktemp("playouts") / "playouts.sqlite")
    else:
        db = request.getfixturevalue("postgres_server").fresh_url("playouts")
    service = GameService.open(db)
    live = {}
    for index in range(GAMES[request.param]):
        seating = SEATINGS[index % len(SEATINGS)]
        game_id = service.create_game("dungeon-short", seating)
        bot = Bot(index)
        game = service.get_game(game_id)
        actions = 0
        while not game.is_finished:
            assert actions < MAX_ACTIONS, f"game {index} does not end"
            legal = game.ruleset.legal_actions(game.state, None)
            assert legal, f"game {index} is stuck at version {game.version}"
            choice = bot.choose(game.ruleset, game.state, legal)
            game.take_action(choice.player, choice.id, game.dice(service.seed_of(game_id)))
            actions += 1
        service._finish_if_over(game, service.seed_of(game_id))
        service.save(game)
        live[game_id] = game
    service.close()
    return db, live


def test_every_bot_game_ends_with_at_most_one_winner(played_games):
    db, live = played_games
    assert len(live) == GAMES["postgresql" if "://" in db else "sqlite"]
    outcomes = {game.status["winner"] != "" for game in live.values()}
    assert True in outcomes  # most races are won; some may end with everyone out
    for game in live.values():
        status = game.status
        assert status["status"] == "finished"
        summary = players_summary("dungeon-short", game.state)
        winners = [p["name"] for p in summary if p["status"] == "winner"]
        assert winners == ([status["winner"]] if status["winner"] else [])


def test_invariants_hold_after_every_event(played_games):
    db, live = played_games
    service = GameService.open(db)
    for game_id in live:
        fold = GameFold()
        for recorded in service.recorded_events(game_id):
            fold.apply(recorded.event, recorded.chain)
            if fold.state.get("players"):
                check_invariants(fold.state)


def test_board_rebuilt_from_the_store_equals_the_live_board(played_games):
    db, live = played_games
    reopened = GameService.open(db)
    for game_id, game in live.items():
        rebuilt = reopened.fold(game_id)
        assert rebuilt.state == game.state
        assert rebuilt.chain == game.chain
        assert render_board("dungeon-short", rebuilt.state) == render_board("dungeon-short", game.state)
