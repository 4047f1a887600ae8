"""Games played by bots from the start (`simulate`, benchmarks, demos): their options, playing them (in
parallel worker processes if asked), keeping them, and a summary.

A ruleset that takes a `bot_round_cap` option (house rule H6.1: `talisman`) gets a bot game its cap
turned on unless the caller set it: a house cap for bot games only, so a game bots cannot finish ends
drawn after that many rounds (and says so in its log). People's games keep the default (no cap) until
bots are told to finish one (`play_with_bots` turns the cap on then, recorded as BotRoundCapSet).

Game n of a simulation depends on the simulation's seed and n alone: its bots' seed, its dice seed and
its id are derived from them (`BotGames`), so the same simulation plays the same games on one process
or many, today or next year (while the rules and bots stay the same).

Workers play in stores in memory and hand back each game's events; the calling process stores them
(`store_game`), one transaction a game. Workers could write to SQLite or PostgreSQL themselves (both take
concurrent writers since issue 15), but then every bot action would be a commit, writers would queue on
SQLite's one write lock, and a store's connections would have to be opened in every worker; one writer
stores whole games at once, in game order, and only games that were played to their end.
"""

from __future__ import annotations

import hashlib
import os
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple
from uuid import UUID, uuid5

from domain.errors import UsageError
from domain.rulesets import check_ruleset_name, get_ruleset
from event_store.app.service import BOT_ROUND_CAP
from event_store.lazy_log import get_logger

if TYPE_CHECKING:
    from event_store.app.service import GameService
    from event_store.recorded import RecordedEvent

log = get_logger("nightkeep.bots")
# The namespace of simulated games' ids: uuid5(SIMULATED, what the game is), so a game's id says which
# simulation game it is and storing the same simulation twice is found before anything is written.
SIMULATED = UUID("5b0f4a52-6c1e-4d55-9a57-1d6a2b3c4e5f")
# How many places a summary names where characters were killed (the commonest first).
KILLED_AT_SHOWN = 5


def bot_game_options(ruleset_name: str, options: Mapping[str, str] | None = None) -> dict[str, str]:
    """Returns the options a bot game is created with: the ruleset's bot round cap on, unless given."""
    chosen = dict(options or {})
    spec = get_ruleset(ruleset_name).option_specs.get(BOT_ROUND_CAP)
    if spec is not None and BOT_ROUND_CAP not in chosen:
        cap = max(spec.values, key=int)
        chosen[BOT_ROUND_CAP] = cap
        log.info("bot_round_cap_set", ruleset=ruleset_name, rounds=int(cap), why="house cap for bot games")
    return chosen


def refuse_bot_only_options(ruleset_name: str, options: Mapping[str, str]) -> None:
    """Raises UsageError for a game people create with the bot round cap (house rule H6.1: bots only)."""
    check_ruleset_name(ruleset_name)
    if BOT_ROUND_CAP in options and BOT_ROUND_CAP in get_ruleset(ruleset_name).option_specs:
        raise UsageError(
            f"option {BOT_ROUND_CAP} is for bot games only: `nightkeep simulate` and `demo` set it, "
            "`play --bots` turns it on"
        )


def seats_for(ruleset_name: str, players: int | None = None) -> list[tuple[str, str | None]]:
    """Returns bot seats P1…Pn, characters dealt at random (n: asked, else up to 4 the ruleset takes)."""
    ruleset = get_ruleset(ruleset_name)
    count = players or max(ruleset.min_players, min(4, ruleset.max_players))
    return [(f"P{n}", None) for n in range(1, count + 1)]


# --- playing ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BotGames:
    """A simulation's games: what every one of them is set up with, and what game n derives from the
    seed and n (its bots' seed, its dice seed, its id)."""

    ruleset: str
    options: dict[str, str]  # as bot games are created (the bot round cap included)
    seats: list[tuple[str, str | None]]
    seed: str
    games: int

    @classmethod
    def of(
        cls,
        ruleset: str,
        games: int,
        seed: str = "0",
        players: int | None = None,
        options: Mapping[str, str] | None = None,
    ) -> BotGames:
        """Returns the simulation asked for, refusing (UsageError) a ruleset or setup the rules refuse."""
        from domain.setup import check_setup

        check_ruleset_name(ruleset)
        chosen = bot_game_options(ruleset, options)
        seats = seats_for(ruleset, players)
        check_setup(get_ruleset(ruleset), [{"name": n, "character": c or ""} for n, c in seats], chosen, [])
        return cls(ruleset, chosen, seats, seed, games)

    def bot_seed(self, index: int) -> str:
        """Returns the seed of game `index`'s bots (as `simulate` has always seeded them)."""
        return f"{self.seed}-{index}"

    def dice_seed(self, index: int) -> bytes:
        """Returns game `index`'s dice seed: derived, not drawn, so the game is the same everywhere. Bot
        games have no secret to keep: the seed is revealed in the log when the game ends anyway."""
        return hashlib.sha256(f"nightkeep simulate dice/{self.bot_seed(index)}".encode()).digest()

    def game_id(self, index: int) -> UUID:
        """Returns game `index`'s id, from everything that makes the game what it is."""
        options = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return uuid5(SIMULATED, f"{self.ruleset}/{options}/{len(self.seats)}/{self.seed}/{index}")

    def create(self, service: GameService, index: int) -> UUID:
        """Creates game `index` in a store (its id, seats, options and dice seed are this set's)."""
        return service.create_game(
            self.ruleset,
            self.seats,
            dict(self.options),
            game_id=self.game_id(index),
            seed=self.dice_seed(index),
        )

    def file_name(self, index: int) -> str:
        """Returns the name game `index`'s replay file is written under: `<ruleset>-<seed>-<index>.nkr`."""
        return f"{self.ruleset}-{self.seed}-{index}.nkr"


class PlayedGame(NamedTuple):
    """One simulated game as a worker hands it back: its id, its events and what its audit said (an
    AUDIT_* value of projections/reports.py and the first findings)."""

    game_id: str
    recorded: list[RecordedEvent]
    audit: str
    findings: list[str]


def play_game(games: BotGames, index: int) -> tuple[str, list[RecordedEvent]]:
    """Plays game `index` of a simulation to its end in a store in memory; returns its id and events."""
    played = _play(games, index, audit=False)
    return played.game_id, played.recorded


def play_audited(games: BotGames, index: int) -> PlayedGame:
    """Plays game `index` of a simulation to its end and audits it as `nightkeep audit` would (about a
    fifth of the playing time), so a simulation's report counts only games that audit clean, as a
    tournament's does."""
    return _play(games, index, audit=True)


def _play(games: BotGames, index: int, audit: bool) -> PlayedGame:
    from event_store.app.service import GameService, play_with_bots
    from projections.report_records import audit_status

    service = GameService.open(":memory:")
    try:
        game_id = games.create(service, index)
        play_with_bots(service, game_id, games.bot_seed(index))
        status, findings = audit_status(service.audit(game_id)) if audit else ("", [])
        return PlayedGame(str(game_id), service.recorded_events(game_id), status, findings)
    finally:
        service.close()


def job_count(jobs: int) -> int:
    """Returns how many processes play: `jobs`, or for 0 one per core this process may use."""
    if jobs > 0:
        return jobs
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def play_games(
    games: BotGames, jobs: int = 1, worker_setup: Callable[[], None] | None = None
) -> Iterator[PlayedGame]:
    """Plays and audits a simulation's games over `jobs` processes (1: in this one; 0: one per core) and
    yields each game (its id, recorded events and audit) in game order; `worker_setup` runs first in
    every worker (the CLI's logging, say)."""
    jobs = min(job_count(jobs), games.games)
    if jobs <= 1:
        for index in range(games.games):
            yield play_audited(games, index)
        return
    # The process machinery loads only here: `nightkeep new` imports this module for its checks alone.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # forkserver: workers start from a fresh process, not a copy of this one, which may hold a store's
    # open connections and their threads (a forked copy of those is not safe to have).
    context = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=worker_setup)
    try:
        # One game a task keeps every worker busy to the end: game lengths vary many times over.
        yield from pool.map(partial(play_audited, games), range(games.games), chunksize=1)
    finally:
        # A caller that stops early (a store refusing, ^C) does not wait for the games not begun.
        pool.shutdown(cancel_futures=True)


# --- keeping ----------------------------------------------------------------------------------------


def check_not_stored(service: GameService, games: BotGames) -> None:
    """Raises UsageError if the store holds any game of this simulation already (the same seed and
    setup play the very same games: storing them twice would refuse halfway)."""
    for index in range(games.games):
        game_id = games.game_id(index)
        if service.has_game(game_id):
            raise UsageError(
                f"this store already holds game {game_id}, game {index} of this simulation "
                f"(seed {games.seed!r}): nothing stored (choose another --seed)"
            )


def store_game(service: GameService, games: BotGames, index: int, recorded: list[RecordedEvent]) -> None:
    """Stores a played game as the store's own, hosted here: its events and its dice seed, in one
    transaction (so any command shows, replays, audits or forks it)."""
    game_id = games.game_id(index)
    service.store_recorded(game_id, recorded, rows=service.secrets.put(game_id, games.dice_seed(index)))


def replay_bytes(game_id: str, recorded: list[RecordedEvent]) -> bytes:
    """Returns a played game as replay-file bytes: the host's copy, whose audit checks every die."""
    from event_store.app.replay_file import encode_replay

    return encode_replay(game_id, recorded)


# --- summing up -------------------------------------------------------------------------------------


@dataclass
class Simulation:
    """What a run of bot games gave: how many, who won how often, how long they were and how the
    characters left them."""

    ruleset: str
    games: int = 0
    events: int = 0
    actions: int = 0
    winners: Counter[str] = field(default_factory=Counter)  # seat name ("" = nobody)
    endings: Counter[str] = field(default_factory=Counter)  # why each game ended
    lengths: list[tuple[int, int]] = field(default_factory=list)  # each game's (events, actions)
    exits: Counter[str] = field(default_factory=Counter)  # how characters left (won, killed…)
    killed_at: Counter[str] = field(default_factory=Counter)  # where characters were killed
    seats: Counter[str] = field(default_factory=Counter)  # games each seat played
    characters: Counter[str] = field(default_factory=Counter)  # times each character was played
    character_wins: Counter[str] = field(default_factory=Counter)

    def add(self, recorded: list[RecordedEvent]) -> None:
        """Counts one game's recorded events in."""
        # Imported here: every command imports this module (the bot round cap), few sum games up.
        from domain.actions import HOST
        from domain.events import ActionTaken, GameEnded, GameWon
        from domain.game import game_status
        from event_store.recorded import fold_recorded
        from projections.exits import exits_of

        fold = fold_recorded(recorded)
        actions = sum(1 for r in recorded if isinstance(r.event, ActionTaken) and r.event.player != HOST)
        self.games += 1
        self.events += len(recorded)
        self.actions += actions
        self.lengths.append((len(recorded), actions))
        end = next((r.event for r in reversed(recorded) if isinstance(r.event, GameWon | GameEnded)), None)
        self.endings[end.reason if end is not None else "unfinished"] += 1
        self.winners[game_status(fold).get("winner", "")] += 1
        self.seats.update(fold.meta["players"])
        for exit in exits_of(fold, recorded):
            self.exits[exit.how] += 1
            self.characters[exit.character] += 1
            self.character_wins[exit.character] += exit.how == "won"
            if exit.how == "killed" and exit.where:
                self.killed_at[exit.where] += 1

    def to_json(self) -> dict[str, Any]:
        """Returns the summary as JSON-native values."""
        return {
            "ruleset": self.ruleset,
            "games": self.games,
            "events": self.events,
            "actions": self.actions,
            "winners": dict(self.winners),
            "endings": dict(self.endings),
            "nobody_won": {"games": self.winners[""], "share": share(self.winners[""], self.games)},
            "lengths": {
                "events": spread(n for n, _ in self.lengths),
                "actions": spread(n for _, n in self.lengths),
            },
            "exits": dict(self.exits.most_common()),
            "killed_at": dict(self.killed_at.most_common(KILLED_AT_SHOWN)),
            "seats": rates(self.winners, self.seats),
            "characters": rates(self.character_wins, self.characters),
        }


def share(part: int, whole: int) -> float:
    """Returns part / whole rounded to 4 places (0 for nothing)."""
    return round(part / whole, 4) if whole else 0.0


def spread(values: Iterable[int]) -> dict[str, float]:
    """Returns the least, median and greatest of some counts (all 0 for none)."""
    ordered = sorted(values)
    if not ordered:
        return {"min": 0, "median": 0, "max": 0}
    return {"min": ordered[0], "median": statistics.median(ordered), "max": ordered[-1]}


def rates(wins: Counter[str], played: Counter[str]) -> dict[str, dict[str, float]]:
    """Returns, for each seat or character, how often it played, won and its win rate (by name)."""
    return {
        name: {"played": played[name], "won": wins[name], "rate": share(wins[name], played[name])}
        for name in sorted(played)
    }


def summarise(ruleset_name: str, played: Iterable[PlayedGame]) -> Simulation:
    """Sums up played games."""
    summary = Simulation(ruleset_name)
    for game in played:
        summary.add(game.recorded)
    return summary


def simulate(
    ruleset_name: str,
    games: int,
    seed: str = "0",
    players: int | None = None,
    options: Mapping[str, str] | None = None,
    jobs: int = 1,
) -> Simulation:
    """Plays `games` seeded bot games in stores in memory and sums up how they went."""
    return summarise(ruleset_name, play_games(BotGames.of(ruleset_name, games, seed, players, options), jobs))
