"""What every ruleset is: an object built from its game's options, with one decide skeleton.

A ruleset class sets its class attributes (name, players, options…) and implements the rules:
`initial_state`, `legal_actions`, `status`, `start` (the host's deal), `resolve` (one legal action, on a
`Resolution`) and either `handlers` (one evolve step per event type) or `evolve`. `decide`,
`decide_in_place` and the legality check are written once, here. An instance is built per set of
options (`Ruleset(options)`), owns the content those options put in play (`content_paths`) and hashes
exactly that content (`content_hash`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, NamedTuple, NotRequired, TypedDict, TypeVar

from domain.actions import HOST, START, Action
from domain.content import content_hash as hash_files
from domain.dice import Dice
from domain.errors import BadSetup, IllegalAction
from domain.events import Event, GameCreated
from domain.field_types import Seat
from domain.resolution import Resolution
from domain.suggest import did_you_mean

# The state a ruleset folds (its TypedDict: CastleState, KeepState…), plain msgpack-native data.
S = TypeVar("S", bound=Mapping[str, Any])
Evolver = Callable[[Any, Any], None]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One `--option KEY=VALUE` a ruleset takes: the values allowed, the default (what a new game gets and
    `nightkeep rulesets` shows), one line of help (citing the rule it switches, e.g. "the Treasure Hoard
    is rolled in the Vault (Keep 15)") and, for an option added after games were recorded without it,
    the value a recorded game that predates the option is played with (None: the default)."""

    values: tuple[str, ...]
    default: str
    help: str
    recorded_default: str | None = None

    def absent(self) -> str:
        """Returns the value a game whose options do not name this one is played with."""
        return self.default if self.recorded_default is None else self.recorded_default


class GameStatus(TypedDict):
    """Where a game stands: its ruleset's word, or `stopped` with the reason (domain.game.game_status)."""

    status: str  # running, finished or stopped
    winner: str  # "" for none (or a tie)
    to_act: list[str]  # who is to act now: seats, or the host before the deal
    reason: NotRequired[str]  # why a stopped game stopped


class DrawCheck(NamedTuple):
    """One draw a sealed copy can recompute: its number, the options of a pick in the order the draw
    indexes them (None for a salt), what the log recorded, and whose private draw it is ("" public)."""

    draw: int
    options: list[str] | None
    recorded: Any
    owner: str


class Ruleset(Generic[S]):
    """The decider every ruleset is: built from a game's options, it owns its content and its rules.

    `S` is the state it folds; code that holds some ruleset, whichever it is, holds a `Ruleset[Any]`."""

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    character_slot: ClassVar[str] = "character"  # what `--player NAME:X` names: a character, a side…
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {}
    # A player's legal actions show their secrets: the CLI lists and takes them only with --as.
    hidden_information: ClassVar[bool] = False
    # The audit re-decides a copy whose private events are sealed once its seeds are revealed (decide
    # in place carries the private state the seals hide); a ruleset whose private events are recorded
    # beside its rules, not by them, cannot be re-decided so and says False.
    redecides_sealed: ClassVar[bool] = True
    # Draws some seats make in private (a hand, a secret token): each seat is dealt a private dice key
    # (DiceKeyDealt) so it can check its own private draws the turn they are made.
    private_draws: ClassVar[bool] = False
    # The shape of the state `initial_state`/`evolve` build: a snapshot stamped with another one (or, for a
    # version above 1, with none) is passed over and the game folded from its events (event_store.loading).
    state_version: ClassVar[int] = 1
    # One evolve step per event type (events without one are facts only); `evolve` and every Resolution
    # use it. A ruleset whose evolve is more than a lookup overrides `evolve` and leaves this None; an
    # instance may set its own (the main board's steps with its expansions' added).
    handlers: Mapping[type[Event], Evolver] | None = None

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        given = dict(options or {})
        self.check_options(given)
        # A key the options leave out is a recorded game's that predates it (a new game records them all).
        self.options: dict[str, str] = {k: spec.absent() for k, spec in self.option_specs.items()}
        self.options.update({k: v.lower() for k, v in given.items()})

    # -- setup and content ------------------------------------------------------------------------

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """Raises BadSetup for an option the ruleset does not take or a value it does not allow."""
        for key, value in options.items():
            spec = cls.option_specs.get(key)
            if spec is None:
                if not cls.option_specs:
                    raise BadSetup(f"{cls.name} takes no options (got {', '.join(sorted(options))})")
                hint = did_you_mean(key, cls.option_specs)
                known = ", ".join(cls.option_specs)
                raise BadSetup(f"{cls.name} has no option {key!r} (options: {known}){hint}")
            if str(value).lower() not in spec.values:
                allowed = ", ".join(spec.values)
                hint = did_you_mean(str(value).lower(), spec.values)
                raise BadSetup(f"option {key} must be one of {allowed} (got {value!r}){hint}")

    @classmethod
    def record_options(cls, options: Mapping[str, str]) -> dict[str, str]:
        """Returns every option as a new game records it: each given one in lower case, the others at
        their default (so a later option's absence marks a game recorded before it)."""
        given = {key: str(value).lower() for key, value in options.items()}
        return {key: given.get(key, spec.default) for key, spec in cls.option_specs.items()} | given

    def content_paths(self) -> list[Path]:
        """Returns the content files this ruleset plays with, under its options."""
        raise NotImplementedError

    def content_hash(self) -> str:
        """Returns the sha256 of exactly the content in play (see docs/replay-format.md, Rulesets)."""
        return hash_files(self.content_paths())

    def character_choices(self) -> list[tuple[str, str]]:
        """Returns [(id to type, name)] of what `--player NAME:X` may name."""
        return []

    def validate_setup(self, players: list[dict[str, Any]], options: Mapping[str, Any]) -> None:
        """Raises a UsageError subclass for a setup this ruleset cannot play (ContentError for bad data)."""
        raise NotImplementedError

    def canonical_setup(
        self, players: list[Seat], options: dict[str, str]
    ) -> tuple[list[Seat], dict[str, str]]:
        """Returns a valid setup as a game records it (each seat's character and every option written
        the one way the ruleset reads them)."""
        return players, self.record_options(options)

    def initial_state(self, created: GameCreated) -> S:
        """Returns the state right after GameCreated (msgpack-encodable)."""
        raise NotImplementedError

    # -- the rules ----------------------------------------------------------------------------------

    def legal_actions(self, state: S, player: str | None = None) -> list[Action]:
        """Returns the actions open now (to `player`, or to anyone if None)."""
        raise NotImplementedError

    def is_legal(self, state: S, player: str, action_id: str) -> bool:
        """Tells whether `action_id` is among legal_actions(state, player); True only while the game runs.
        (False may be conservative: the caller then asks `legal_actions`, which also says why.)"""
        return any(a.id == action_id for a in self.legal_actions(state, player))

    def status(self, state: S) -> GameStatus:
        """Returns {"status": "running"|"finished", "winner": str, "to_act": [players]}."""
        raise NotImplementedError

    def is_in_setup(self, state: S) -> bool:
        """Tells whether the game waits for the host's `start`."""
        return bool(state["phase"] == "setup")

    def start(self, res: Resolution[S]) -> None:
        """Resolves the host's `start`: deals and opens play."""
        raise NotImplementedError

    def resolve(self, res: Resolution[S], action_id: str, player: str) -> None:
        """Resolves one legal action on the working copy `res` (emitting its events)."""
        raise NotImplementedError

    def verify(self, state: S, event: Event) -> str:
        """Says what is wrong with a recorded event given the state before it ("" when nothing is): the
        checks `evolve` (which trusts its events) does not make."""
        return ""

    def draw_checks(self, state: S, event: Event) -> list[DrawCheck]:
        """Returns the draws of a recorded event that a copy with sealed events can recompute from the
        state before it (its public picks, and the copy's own private ones): a ruleset whose copies are
        sealed says them, so every player checks them the turn they are made. None by default."""
        return []

    def bot_weight(self, state: S, action: Action) -> float:
        """Returns how likely a bot is to pick an action (relative weights)."""
        return 1.0

    def evolve(self, state: S, event: Event) -> S:
        """Applies one recorded event to the state in place and returns it (the only mutation)."""
        handlers = self.handlers
        if handlers is not None and (apply := handlers.get(type(event))) is not None:
            apply(state, event)
        return state

    # -- one decide for every ruleset ---------------------------------------------------------------

    def decide(self, state: S, action_id: str, player: str, dice: Dice) -> list[Event]:
        """Returns the events an action causes; never mutates `state`."""
        return self._decide(state, action_id, player, dice, in_place=False)

    def decide_in_place(self, state: S, action_id: str, player: str, dice: Dice) -> list[Event]:
        """Like decide, for an auditor that has checked the action is legal: evolves `state` itself
        through the returned events (the audit adopts it)."""
        return self._decide(state, action_id, player, dice, in_place=True)

    def resolution(self, state: S, dice: Dice, in_place: bool) -> Resolution[S]:
        """Returns the working copy one action is resolved on."""
        return Resolution(state, dice, self.evolve, in_place, self.handlers)

    def _decide(self, state: S, action_id: str, player: str, dice: Dice, in_place: bool) -> list[Event]:
        if action_id == START:
            if player != HOST or not self.is_in_setup(state):
                raise IllegalAction("only the host starts a game, once")
            res = self.resolution(state, dice, in_place)
            self.start(res)
            return res.events
        # In place, the auditor has checked legality (game.check_legal) already: once per action is enough.
        if not in_place and not self.is_legal(state, player, action_id):
            raise IllegalAction(f"{action_id!r} is not a legal action for {player} now")
        res = self.resolution(state, dice, in_place)
        self.resolve(res, action_id, player)
        return res.events


@dataclass(frozen=True, slots=True)
class RulesetEntry:
    """One registered ruleset: its name and where its class lives (`ruleset` is "module:Class")."""

    name: str
    ruleset: str
