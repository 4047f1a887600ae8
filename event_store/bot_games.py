"""Games played by bots from the start (`simulate`, benchmarks, demos): their options and a summary.

A ruleset that takes a `bot_round_cap` option (RULES.md §5: `talisman`) gets a bot game its cap
turned on unless the caller set it: a house cap for bot games only, so a game bots cannot finish ends
drawn after that many rounds (and says so in its log). People's games keep the default (no cap).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.errors import UsageError
from domain.rulesets import check_ruleset_name, get_ruleset
from event_store.lazy_log import get_logger

log = get_logger("nightkeep.bots")
BOT_ROUND_CAP = "bot_round_cap"


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
    """Raises UsageError for a game people create with the bot round cap (RULES.md §5: bots only)."""
    check_ruleset_name(ruleset_name)
    if BOT_ROUND_CAP in options and BOT_ROUND_CAP in get_ruleset(ruleset_name).option_specs:
        raise UsageError(
            f"option {BOT_ROUND_CAP} is for bot games only: `nightkeep simulate` and `demo` set it"
        )


def is_uncapped_bot_play(ruleset_name: str, options: Mapping[str, str]) -> bool:
    """Tells whether bots are about to play a game whose ruleset has a bot round cap that is off."""
    spec = get_ruleset(ruleset_name).option_specs.get(BOT_ROUND_CAP)
    return spec is not None and options.get(BOT_ROUND_CAP, spec.default) == "0"


@dataclass
class Simulation:
    """What a run of bot games gave: how many, who won how often, and how long they were."""

    ruleset: str
    games: int = 0
    events: int = 0
    actions: int = 0
    winners: Counter[str] = field(default_factory=Counter)  # seat name ("" = nobody)
    endings: Counter[str] = field(default_factory=Counter)  # why each game ended

    def to_json(self) -> dict[str, Any]:
        """Returns the summary as JSON-native values."""
        return {
            "ruleset": self.ruleset,
            "games": self.games,
            "events": self.events,
            "actions": self.actions,
            "winners": dict(self.winners),
            "endings": dict(self.endings),
        }


def seats_for(ruleset_name: str, players: int | None = None) -> list[tuple[str, str | None]]:
    """Returns bot seats P1…Pn, characters dealt at random (n: asked, else up to 4 the ruleset takes)."""
    ruleset = get_ruleset(ruleset_name)
    count = players or max(ruleset.min_players, min(4, ruleset.max_players))
    return [(f"P{n}", None) for n in range(1, count + 1)]


def simulate(
    ruleset_name: str,
    games: int,
    seed: str = "0",
    players: int | None = None,
    options: Mapping[str, str] | None = None,
) -> Simulation:
    """Plays `games` seeded bot games in a store in memory and sums up how they went."""
    from domain.events import GameEnded, GameWon
    from event_store.service import GameService, play_with_bots

    service = GameService.open(":memory:")
    chosen = bot_game_options(ruleset_name, options)
    summary = Simulation(ruleset_name)
    for n in range(games):
        game_id = service.create_game(ruleset_name, seats_for(ruleset_name, players), chosen)
        summary.actions += play_with_bots(service, game_id, f"{seed}-{n}")
        recorded = service.recorded_events(game_id)
        summary.games += 1
        summary.events += len(recorded)
        end = next((r.event for r in reversed(recorded) if isinstance(r.event, GameWon | GameEnded)), None)
        summary.endings[end.reason if end is not None else "unfinished"] += 1
        summary.winners[service.get_game(game_id).status.get("winner", "")] += 1
    return summary
