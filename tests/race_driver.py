"""A small writer process for the concurrency and crash tests: `python -m tests.race_driver MODE ...`.

`race DB GAME SEED`: each round prints `ready VERSION`, waits for a `go` line on stdin (the test's barrier:
it sends `go` to every driver once all are ready), then takes one bot action expecting that version and
prints `won VERSION PLAYER ACTION NEW_VERSION` or `stale VERSION MESSAGE`; a `stop` line ends it.

`new DB`: opens the store (making it if it is new) and creates one game; prints its id.

`bots DB SEED GAME...`: seeded bots act on the given games, picking a running one at random each time,
until every game is over or `--actions N` were taken; a lost race ("game moved on") is retried. Prints
`acted GAME VERSION` after each stored action (the crash tests kill it after a random number of them),
then one JSON line: actions taken, races lost, and any other error (there should be none).

Both start in a fraction of the CLI's time, so many of them start at once without the test timing out.
"""

from __future__ import annotations

import json
import random
import sys
from uuid import UUID

from domain.bots import Bot
from domain.errors import NightkeepError, StaleVersion
from event_store import lazy_log
from event_store.app.service import GameService


def choose(service: GameService, game_id: UUID, bot: Bot) -> tuple[int, str, str] | None:
    """Returns the version a bot read and the player and action it chose, or None if the game is over."""
    game = service.get_game(game_id)
    if game.is_finished or game.status["status"] != "running":
        return None
    actions = game.ruleset.legal_actions(game.state, None)
    choice = bot.choose(game.ruleset, game.state, actions)
    return game.version, choice.player, choice.id


def race(db: str, game: str, seed: str) -> None:
    """Takes one action per round, all drivers on the same version (see the module's docstring)."""
    service = GameService.open(db)
    game_id, bot = UUID(game), Bot(seed)
    while True:
        chosen = choose(service, game_id, bot)
        print("over" if chosen is None else f"ready {chosen[0]}", flush=True)
        if sys.stdin.readline().strip() != "go" or chosen is None:
            return
        version, player, action = chosen
        try:
            new_version, _ = service.take_action(game_id, player, action, expected_version=version)
        except StaleVersion as exc:
            print(f"stale {version} {exc}", flush=True)
        else:
            print(f"won {version} {player} {action} {new_version}", flush=True)


def bots(db: str, seed: str, games: list[str], max_actions: int) -> None:
    """Plays bot actions across games shared with other drivers (see the module's docstring)."""
    service = GameService.open(db)
    rng, bot = random.Random(seed), Bot(seed)
    running = [UUID(g) for g in games]
    taken = lost = 0
    errors: list[str] = []
    while running and taken < max_actions:
        game_id = rng.choice(running)
        try:
            chosen = choose(service, game_id, bot)
            if chosen is None:
                running.remove(game_id)
                continue
            version, player, action = chosen
            new_version, _ = service.take_action(game_id, player, action, expected_version=version)
            taken += 1
            print(f"acted {game_id} {new_version}", flush=True)
        except StaleVersion:
            lost += 1
        except NightkeepError as exc:  # a rule refusing a bot's legal choice would be a bug: reported
            errors.append(f"{type(exc).__name__}: {exc}")
            running.remove(game_id)
    print(json.dumps({"taken": taken, "lost": lost, "errors": errors}), flush=True)


def main(argv: list[str]) -> None:
    """Runs one mode with its arguments."""
    lazy_log.defer_configuration(lambda: None, lazy_log.LEVELS["warning"])  # stdout carries the protocol
    mode, db, *rest = argv
    if mode == "new":
        print(GameService.open(db).create_game("dungeon-short", [("Ann", None), ("Bo", None)]), flush=True)
    elif mode == "race":
        race(db, rest[0], rest[1])
    elif mode == "bots":
        max_actions = 10**9
        if rest[:1] == ["--actions"]:
            max_actions, rest = int(rest[1]), rest[2:]
        bots(db, rest[0], rest[1:], max_actions)
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
