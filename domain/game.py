"""The Game aggregate: a thin event-sourced shell around a ruleset's decider.

Every recorded event is stored as an envelope (type name, class version, fields, chain) so the log
keeps the exact bytes that were hashed even after an event's shape is upcast, and so the same fold
serves the store, replay files and audits. `apply_event` is the one fold step everybody uses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.domain import Snapshot as LibrarySnapshot

from domain.actions import HOST, START
from domain.club import (
    AUTH_DEFAULT,
    CLUB_HANDLERS,
    default_move_problem,
    on_action,
    paused_by,
    pinned_nonce,
    redo_problem,
)
from domain.club_rules import club_problem, last_said, said_again, said_problem
from domain.dice import (
    CHAIN_LINKS,
    Dice,
    HmacDice,
    chain_anchor,
    chain_place,
    commit_to_seed,
    hash_times,
    mix_entropy,
    private_key,
    private_salt,
    turn_key,
)
from domain.errors import GameOver, IllegalAction, NotSigned, NotYourTurn, TamperedLog, UsageError
from domain.events import (
    GENESIS_CHAIN,
    ActionTaken,
    BotRoundCapSet,
    DiceChainCommitted,
    DiceKeyDealt,
    DieRolled,
    EntropyAdded,
    Event,
    ForkedFrom,
    GameCreated,
    Sealed,
    SeedCommitted,
    SeedRevealed,
    class_version_of,
    event_from_fields,
    is_private,
    is_registered,
    is_sealed,
    next_chain,
    seal,
)
from domain.game_meta import GameHolder, GameMeta, new_meta
from domain.plain import copy_plain
from domain.rulesets import Ruleset, build_ruleset, load_all_rulesets, load_ruleset_named
from domain.rulesets.base import GameStatus
from domain.setup import (
    MAX_PLAYER_BYTES,
    TURN_KEYS_SINCE,
    entropy_problem,
    recorded_class_version,
    version_of,
)
from domain.signing import AUTH_SIGNED, authorisation_problem
from domain.suggest import did_you_mean

NIGHTKEEP_VERSION = "0.4.0"
# The most events a game's log holds: the one reader reads no longer log, and no event number or
# version a command is given may be larger.
MAX_EVENTS = 1_000_000


def decode_event(type_name: str, version: int, fields: dict[str, Any]) -> Event:
    """Builds a recorded event; a ruleset's own event types are registered by importing it. A private
    event sealed in this copy of the log becomes a `Sealed` stand-in."""
    if type_name == "GameCreated":
        # Its ruleset's own event types, so reading the rest of the log imports no other ruleset.
        load_ruleset_named(fields.get("ruleset"))
    elif not is_registered(type_name):
        # A log may be read before any game of its ruleset was folded in this process.
        load_all_rulesets()
    if len(fields) == 2 and is_sealed(fields) and is_private(type_name):  # len first: every event asks
        owner, sealed = fields["owner"], fields["sealed"]
        if type(owner) is not str or type(sealed) is not bytes or len(sealed) != 32:
            raise TamperedLog(f"sealed {type_name} needs a text owner and a 32-byte seal")
        if type(version) is not int or not 1 <= version <= class_version_of(type_name):
            raise TamperedLog(f"sealed {type_name} v{version!r:.20} has a version nightkeep never recorded")
        return Sealed(type=type_name, owner=owner, sealed=sealed, v=version)
    return event_from_fields(type_name, version, fields)


class NoRuleset(Ruleset[dict[str, Any]]):
    """What a holder plays before its GameCreated: no ruleset event may be folded yet."""

    name = ""
    min_players = max_players = 0

    def evolve(self, state: dict[str, Any], event: Event) -> dict[str, Any]:
        """Refuses: a ruleset event folded before its game was created is a bug."""
        raise AssertionError("a ruleset event folded before its game was created")


NO_RULESET = NoRuleset()


def holder_ruleset(name: str, meta: GameMeta) -> Ruleset[Any]:
    """Returns the ruleset a holder of game `name` with `meta` plays (NO_RULESET before GameCreated)."""
    if not name:
        return NO_RULESET
    # A snapshot taken before games kept their options has none: every such game was of a ruleset
    # whose object its options did not change, so the default build is the game's.
    return build_ruleset(name, meta.get("options") or {})


def _on_created(holder: GameHolder, event: GameCreated) -> None:
    holder.ruleset_name = event.ruleset
    # A fork is played at one terminal: the keys bound its original's seats, as the audit reads them.
    forked = bool(holder.meta["forked_from"])
    holder.meta["keys"] = {} if forked else dict(event.keys)
    holder.meta["hosted"] = bool(event.host_key) and not forked
    holder.meta["script"] = list(event.dice_script)
    holder.meta["players"] = [seat["name"] for seat in event.players]
    holder.meta["options"] = dict(event.options)
    holder.meta["made_by"] = list(version_of(event.nightkeep_version) or ())
    # Built once from the game's options: every later step of the holder uses this object.
    holder.ruleset = build_ruleset(event.ruleset, event.options)
    holder.meta["private_draws"] = holder.ruleset.private_draws
    holder.state = holder.ruleset.initial_state(event)


def _on_committed(holder: GameHolder, event: SeedCommitted) -> None:
    # A fork commits to a new seed after its copied history: later draws come from the new seed.
    holder.meta["commitment"] = event.commitment
    holder.meta["seed"] = b""
    holder.meta["commit_chain"] = b""  # set by apply_event: the point players sign their entropy at
    holder.meta["anchors"] = {}  # a new seed, a new key chain and new private keys
    holder.meta["link"] = []
    holder.meta["private_keys"] = {}
    holder.meta["dealt"] = []


def _on_key_dealt(holder: GameHolder, event: DiceKeyDealt) -> None:
    holder.meta["private_keys"][event.owner] = event.key
    holder.meta["dealt"].append(event.owner)


def _on_chain_committed(holder: GameHolder, event: DiceChainCommitted) -> None:
    holder.meta["anchors"][str(event.segment)] = event.anchor  # str keys: a snapshot's msgpack map


def _on_forked(holder: GameHolder, event: ForkedFrom) -> None:
    holder.meta["forked_from"].append({"game": event.game, "version": event.version})


def _on_entropy(holder: GameHolder, event: EntropyAdded) -> None:
    holder.meta["pool"] = mix_entropy(holder.meta["pool"], event.value)


def _on_revealed(holder: GameHolder, event: SeedRevealed) -> None:
    holder.meta["seed"] = event.seed


def _on_action(holder: GameHolder, event: ActionTaken) -> None:
    meta = holder.meta
    meta["actions"] += 1
    if event.dice_key:
        meta["link"] = [*chain_place(meta["actions"]), event.dice_key]
    if "club" in meta:  # a game played by e-mail: lapses and a rollback's pinned nonce
        on_action(meta, event)


# The option of a ruleset with a house round cap for bot games (house rule H6.1: `talisman`): "0" is none.
BOT_ROUND_CAP = "bot_round_cap"


def bot_round_cap(ruleset: Ruleset[Any]) -> str:
    """Returns the round cap bots finish a game of this ruleset with (its option's largest value), or ""
    for a ruleset without one."""
    spec = ruleset.option_specs.get(BOT_ROUND_CAP)
    return max(spec.values, key=int) if spec is not None else ""


def is_uncapped(holder: GameHolder) -> bool:
    """Tells whether a game's ruleset has a house round cap for bot games and the game plays without it."""
    spec = holder.ruleset.option_specs.get(BOT_ROUND_CAP)
    return spec is not None and holder.meta["options"].get(BOT_ROUND_CAP, spec.default) == "0"


def round_cap_problem(holder: GameHolder, event: BotRoundCapSet) -> str:
    """Returns why the house round cap cannot be turned on in this game as the event says ("" if it can):
    only in a ruleset that has one, on a game without it, at the ruleset's own cap."""
    if not is_uncapped(holder):
        return f"the {holder.ruleset_name} game has no round cap for bot games to turn on"
    if str(event.rounds) != bot_round_cap(holder.ruleset):
        return f"the round cap for bot games is {bot_round_cap(holder.ruleset)} rounds, not {event.rounds}"
    return ""


def _on_round_cap_set(holder: GameHolder, event: BotRoundCapSet) -> None:
    # The game plays on as if created with the cap: its ruleset is built again with it (house rule H6.1).
    holder.meta["options"] = {**holder.meta["options"], BOT_ROUND_CAP: str(event.rounds)}
    holder.ruleset = build_ruleset(holder.ruleset_name, holder.meta["options"])


_GAME_EVENTS: dict[type[Event], Callable[[GameHolder, Any], None]] = {
    BotRoundCapSet: _on_round_cap_set,
    ForkedFrom: _on_forked,
    GameCreated: _on_created,
    SeedCommitted: _on_committed,
    DiceChainCommitted: _on_chain_committed,
    DiceKeyDealt: _on_key_dealt,
    EntropyAdded: _on_entropy,
    SeedRevealed: _on_revealed,
    ActionTaken: _on_action,
    **CLUB_HANDLERS,
}


def apply_event(holder: GameHolder, event: Event, chain: bytes) -> None:
    """Folds one event into a holder with `ruleset_name`, `ruleset`, `meta`, `state` and `chain`."""
    handler = _GAME_EVENTS.get(type(event))
    if handler is not None:
        handler(holder, event)
        if type(event) is SeedCommitted:
            holder.meta["commit_chain"] = chain
    elif type(event) is Sealed:
        # Someone else's private event: this copy of the log cannot know what it changed (but whose
        # private dice key it deals).
        if event.type == "DiceKeyDealt":
            holder.meta["dealt"].append(event.owner)
    else:
        advance_draws(holder.meta, event)
        holder.state = holder.ruleset.evolve(holder.state, event)
    holder.chain = chain


def uses_turn_keys(meta: GameMeta) -> bool:
    """Tells whether a game draws its public dice with per-turn keys (made by nightkeep 0.4.0 or later)."""
    return tuple(meta["made_by"]) >= TURN_KEYS_SINCE


def dice_key_problem(meta: GameMeta, event: ActionTaken) -> str:
    """Says what is wrong with an action's per-turn dice key, given the game before it ("" when nothing
    is): in a game with a key chain it must be the next link of the segment its action number falls in,
    hashing to the last link released (or to the segment's anchor); without one it must be empty."""
    key = event.dice_key
    # (Asked for every action an audit re-decides: the cheap tests first, the same verdicts.)
    if not meta["anchors"] and not uses_turn_keys(meta):
        return "an action of a game without a key chain carries a dice key" if key else ""
    number = meta["actions"] + 1
    dealt = meta["dealt"]
    if meta.get("private_draws") and dealt != meta["players"] and sorted(dealt) != sorted(meta["players"]):
        return f"action {number} comes before every seat was dealt its private dice key"
    segment, link = chain_place(number)
    anchor = meta["anchors"].get(str(segment))
    if anchor is None:
        return f"no anchor was committed for the key chain's segment {segment} (action {number} draws in it)"
    if len(key) != len(anchor):
        return f"action {number} carries no dice key of {len(anchor)} bytes"
    last = meta["link"]
    base, steps = (anchor, link)
    if last and last[0] == segment and last[1] <= link:
        base, steps = last[2], link - last[1]  # hash on from the last link released
    if hash_times(key, steps) != base:
        return f"the dice key of action {number} is not link {link} of the chain the host committed to"
    return ""


def key_dealt_problem(meta: GameMeta, owner: str) -> str:
    """Says what is wrong with dealing `owner` a private dice key where it stands ("" when nothing is):
    each seat once per seed, in a game of a ruleset with private draws that has a key chain, before its
    first key is released."""
    if not meta.get("private_draws") or not uses_turn_keys(meta):
        return "only a game with per-turn keys and private draws deals private dice keys"
    if owner not in meta["players"]:
        return f"a private dice key is dealt to {owner!r:.40}, who has no seat"
    if owner in meta["dealt"]:
        return f"{owner} was dealt a private dice key already"
    if not meta["anchors"] or meta["link"]:
        return "private dice keys are dealt right after the key chain is committed, before any action"
    return ""


def dealt_problem(meta: GameMeta, event: Event, seed: bytes | None) -> str:
    """Says what is wrong with a DiceKeyDealt (held or sealed) where it stands, and once the seed is
    public whether it deals the key and salt the seed gives ("" when nothing is)."""
    owner = getattr(event, "owner", "")
    if problem := key_dealt_problem(meta, owner if type(owner) is str else repr(owner)):
        return problem
    if seed is None:
        return ""
    fields = {"owner": owner, "key": private_key(seed, owner), "salt": private_salt(seed, owner)}
    if type(event) is Sealed:
        if seal(event.type, event.v, fields) != {"owner": event.owner, "sealed": event.sealed}:
            return f"the sealed private dice key of {owner} is not the one the seed gives"
    elif isinstance(event, DiceKeyDealt) and event.to_fields() != fields:
        return f"the private dice key of {owner} is not the one the seed gives"
    return ""


def chain_commit_problem(meta: GameMeta, event: DiceChainCommitted) -> str:
    """Says what is wrong with a key chain's anchor where it stands ("" when nothing is): it is committed
    for the segment the next action draws in, once per seed, in a game that draws with per-turn keys."""
    if not uses_turn_keys(meta):
        return "a game made before per-turn keys commits to no key chain"
    segment = meta["actions"] // CHAIN_LINKS
    if event.segment != segment:
        return f"the next action draws in the key chain's segment {segment}, not {event.segment}"
    if str(event.segment) in meta["anchors"]:
        return f"the key chain's segment {segment} was committed already"
    if len(event.anchor) != 32:
        return "an anchor is 32 bytes"
    return ""


def verify_event(holder: GameHolder, event: Event) -> str:
    """Returns what the ruleset finds wrong with a recorded event, given the state before it ("" when
    nothing is): the checks `evolve` does not make (a reveal that opens no commitment…), for a log whose
    actions cannot be re-decided or that comes from elsewhere. Game-level and sealed events pass."""
    if type(event) in _GAME_EVENTS or type(event) is Sealed or not holder.ruleset_name:
        return ""
    problem: str = holder.ruleset.verify(holder.state, event)
    return problem


# Which fields (if any) of an event type name the draws it consumed; looked up once per type because a
# fold asks for every event.
_DRAW_FIELDS: dict[type, tuple[str, ...]] = {}


def _draw_fields(cls: type[Event]) -> tuple[str, ...]:
    fields = _DRAW_FIELDS.get(cls)
    if fields is None:
        names = cls._field_names
        legacy = ("draws",) if "draws" in names else ("draw",) if "draw" in names else ()
        extra = tuple(draws for _, draws in cls.drawn if draws not in legacy)
        fields = _DRAW_FIELDS[cls] = legacy + extra
    return fields


def advance_draws(meta: GameMeta, event: Event) -> None:
    """Moves the draw counter (and the dice script) past the draws a ruleset event consumed."""
    cls = type(event)
    fields = _DRAW_FIELDS.get(cls)
    if fields is None:
        fields = _draw_fields(cls)
    if not fields:
        return  # most events consume no draw: every fold passes here
    last = -1
    for field_name in fields:
        value = getattr(event, field_name)
        if type(value) is list:
            if value:
                last = max(last, max(value))
        elif value > last:
            last = value
    if last >= meta["next_draw"]:
        meta["next_draw"] = last + 1
    if isinstance(event, DieRolled):
        # A scripted game's die faces come from its script first; only rolls use it (HmacDice.roll).
        meta["script_pos"] = min(len(meta["script"]), meta["script_pos"] + len(event.draws))


STOPPED = "stopped"
STOPPED_REASON = "its dice seed was revealed before the end, so it takes no more actions"
STOPPED_MESSAGE = f"the game was stopped: {STOPPED_REASON}"


def game_status(holder: GameHolder) -> GameStatus:
    """Returns a game's status: the ruleset's (running or finished, winner, who is to act), or
    `stopped` with nobody to act for a game whose seed was revealed before it ended.

    `holder` is a Game or a GameFold (anything with `ruleset`, `meta` and `state`).
    """
    status: GameStatus = holder.ruleset.status(holder.state)
    if holder.meta["seed"] and status["status"] != "finished":
        # Once the seed is public anyone could pick a nonce that gives the roll they want.
        return {"status": STOPPED, "winner": "", "to_act": [], "reason": STOPPED_REASON}
    return status


def check_legal(holder: GameHolder, player: str, action_id: str) -> None:
    """Raises the specific error that says why `player` may not take `action_id` now.

    `holder` is a Game or a GameFold (anything with `ruleset`, `meta` and `state`).
    """
    meta, ruleset = holder.meta, holder.ruleset
    if "club" in meta and (paused := paused_by(meta)):
        raise IllegalAction(f"play waits: {paused}")
    if player in meta["players"] and meta["actions"] and not meta["seed"]:
        # A started game whose seed is still secret cannot be stopped, and `is_legal` is True only
        # while it runs: then it alone answers (an audit asks once per action); else the checks say why.
        if ruleset.is_legal(holder.state, player, action_id):
            return
    if player not in meta["players"]:
        seats = ", ".join(meta["players"])
        hint = did_you_mean(player, meta["players"])
        raise UsageError(f"no player {player!r} in this game (players: {seats}){hint}")
    status = game_status(holder)
    if status["status"] == "finished":
        raise GameOver("the game is over")
    if status["status"] == STOPPED:
        raise GameOver(STOPPED_MESSAGE)
    if meta["actions"] == 0:
        raise IllegalAction("the game has not started yet: the host starts it (nightkeep start GAME)")
    mine = ruleset.legal_actions(holder.state, player)
    if any(a.id == action_id for a in mine):
        return
    if not mine:
        waiting = ", ".join(status.get("to_act", [])) or "nobody"
        raise NotYourTurn(f"it is not {player}'s turn (waiting on {waiting})")
    choices = ", ".join(a.id for a in mine)
    hint = did_you_mean(action_id, [a.id for a in mine])
    raise IllegalAction(
        f"{action_id!r:.60} is not a legal action for {player} now (legal: {choices:.400}){hint}"
    )


def check_host_start(holder: GameHolder) -> None:
    """Raises IllegalAction unless the host may start the game now (before any other action)."""
    if holder.meta["actions"] > 0:
        raise IllegalAction("the game has already started")


@dataclass
class GameFold:
    """A game's state rebuilt from events without the aggregate machinery (views, audits, files)."""

    ruleset_name: str = ""
    meta: GameMeta = field(default_factory=new_meta)
    state: dict[str, Any] = field(default_factory=dict)
    chain: bytes = GENESIS_CHAIN
    version: int = 0
    ruleset: Ruleset[Any] = NO_RULESET  # built from GameCreated (holder_ruleset for a snapshot's fold)
    # The fold at an earlier event, for a rollback (domain.club.RolledBack) to return to; without one a
    # rollback raises RewindNeeded and the caller folds again with one.
    rewind_source: Callable[[int], GameFold] | None = field(default=None, compare=False, repr=False)

    def apply(self, event: Event, chain: bytes) -> None:
        """Folds one event into this state."""
        apply_event(self, event, chain)
        self.version += 1

    @classmethod
    def of(cls, pairs: Sequence[tuple[Event, bytes]]) -> GameFold:
        """Folds events with their chain values from the first; a rollback among them returns to the
        fold of the events before its target."""
        fold = cls(rewind_source=Rewinds.of(pairs))
        for event, chain in pairs:
            fold.apply(event, chain)
        return fold

    def copy(self) -> GameFold:
        """Returns a fold of the same events that can be folded on without changing this one."""
        return GameFold(
            self.ruleset_name,
            copy_plain(self.meta),
            copy_plain(self.state),
            self.chain,
            self.version,
            self.ruleset,
            self.rewind_source,
        )


class Rewinds:
    """The folds of one log at the events its rollbacks return to (`RolledBack.to`), for a fold of the
    log to rewind through (`GameFold.rewind_source`). Each is made once, on from the nearest one made
    before it: the fold to one rollback's target meets the rollbacks before it, and if each of those
    folded the log again from its start, every rollback would double the work of a fold (a log with
    twenty rollbacks would take minutes to audit, on every replica, for every packet)."""

    def __init__(
        self, fold_on: Callable[[GameFold, int], None], start: Callable[[int], GameFold] | None = None
    ) -> None:
        self._fold_on = fold_on  # folds the log's events after the fold's own, up to the one given
        self._start = start or (lambda version: GameFold())  # a fold to begin from (a snapshot's)
        self._made: dict[int, GameFold] = {}

    @classmethod
    def of(cls, pairs: Sequence[tuple[Event, bytes]]) -> Rewinds:
        """Returns the rewinds of a log given as its events with their chain values, from the first."""

        def fold_on(fold: GameFold, version: int) -> None:
            for event, chain in pairs[fold.version : version]:
                fold.apply(event, chain)

        return cls(fold_on)

    def __call__(self, version: int) -> GameFold:
        """Returns the fold of the log's first `version` events (read it, never fold on with it)."""
        made = self._made.get(version)
        if made is not None:
            return made
        base = max((n for n in self._made if n < version), default=0)
        fold = self._made[base].copy() if base else self._start(version)
        fold.rewind_source = self
        self._fold_on(fold, version)
        if fold.version != version:
            raise TamperedLog(f"a rollback returns to event {version}, which the log does not reach")
        self._made[version] = fold
        return fold


class Envelope(Aggregate.Event):
    """What every stored event of a game is: one domain event as recorded (its type name, class version
    and fields) with its chain hash, folded into the game by `apply_event`."""

    type: str
    v: int
    fields: dict[str, Any]
    chain: bytes

    def apply(self, aggregate: Game) -> None:
        """Folds the event this envelope carries into the game."""
        aggregate._fold(self.type, self.v, self.fields, self.chain)


class Game(Aggregate):
    """One game: records each action and its consequences, and folds them into the ruleset state."""

    # Set by the store that loaded it: the fold at an earlier event, for a rollback to return to.
    rewind_source: Callable[[int], GameFold] | None = None

    class Snapshot(LibrarySnapshot):
        """A game's fold at one version; the ruleset object is left out and rebuilt from the options."""

        @classmethod
        def take(cls, aggregate: Any) -> Any:
            """Returns the snapshot of a game, without its ruleset object or its rewind source."""
            snapshot = super().take(aggregate)
            snapshot.state.pop("ruleset", None)
            snapshot.state.pop("rewind_source", None)
            return snapshot

        def mutate(self, _: None) -> Any:
            """Returns the game the snapshot holds, its ruleset built again from its options."""
            game: Any = super().mutate(_)
            game.ruleset = holder_ruleset(game.ruleset_name, game.meta)
            return game

    # The stored topics are these classes' (domain.game:Game.Created, …:Game.Recorded); the body they
    # share is Envelope's, which is never stored itself.
    class Created(Envelope, Aggregate.Created):
        """The first envelope of a game; it carries the GameCreated event (or a fork's ForkedFrom)."""

    class Recorded(Envelope):
        """Every later envelope: one ruleset or game event with its chain hash."""

    def __init__(self) -> None:
        self.ruleset_name = ""
        self.ruleset: Ruleset[Any] = NO_RULESET
        self.meta = new_meta()
        self.state: dict[str, Any] = {}
        self.chain = GENESIS_CHAIN

    if not TYPE_CHECKING:  # (for the type checker every attribute stays declared)

        def __getattr__(self, name: str) -> Any:
            # Asked only for an attribute not set: a game restored from a snapshot the library's own
            # Snapshot class took (before Game.Snapshot) has no ruleset yet.
            if name == "ruleset" and "meta" in self.__dict__:
                ruleset = self.__dict__["ruleset"] = holder_ruleset(self.ruleset_name, self.meta)
                return ruleset
            raise AttributeError(name)

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # The repository copies cached games before each command; the state is plain msgpack-native
        # data, so a structural copy is several times cheaper than copy.deepcopy.
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.meta = copy_plain(self.meta)
        clone.state = copy_plain(self.state)
        clone._pending_events = list(self._pending_events)
        return clone

    # --- commands ------------------------------------------------------------------------------------

    @classmethod
    def start(cls, created: GameCreated, commitment: bytes, game_id: UUID | None = None) -> Game:
        """Creates a game from its GameCreated event and the host's seed commitment (under a new random
        id, or the one given: a bot simulation derives its games' ids from its own seed)."""
        fields = created.to_fields()
        chain = next_chain(GENESIS_CHAIN, created.type_name, created.class_version, fields)
        game: Game = cls._create(
            cls.Created,
            id=game_id,
            type=created.type_name,
            v=created.class_version,
            fields=fields,
            chain=chain,
        )
        game.record(SeedCommitted(commitment=commitment))
        return game

    @classmethod
    def fork(
        cls,
        forked_from: ForkedFrom,
        history: Iterable[tuple[str, int, dict[str, Any]]],
        commitment: bytes,
    ) -> Game:
        """Creates a game that continues another's history (type, class version, fields as recorded)
        and then commits to its own seed, under a new random id."""
        fields = forked_from.to_fields()
        chain = next_chain(GENESIS_CHAIN, forked_from.type_name, forked_from.class_version, fields)
        game: Game = cls._create(
            cls.Created,
            type=forked_from.type_name,
            v=forked_from.class_version,
            fields=fields,
            chain=chain,
        )
        for type_name, version, copied in history:
            game.record_raw(type_name, version, copied)
        game.record(SeedCommitted(commitment=commitment))
        return game

    @property
    def status(self) -> GameStatus:
        """Returns this game's status (running, finished or stopped; the winner; who is to act)."""
        return game_status(self)

    @property
    def is_finished(self) -> bool:
        """Tells whether the game has ended by its rules (a stopped game has not)."""
        return bool(self.ruleset.status(self.state)["status"] == "finished")

    def dice(self, seed: bytes, nonce: bytes = b"") -> HmacDice:
        """Returns this game's fair dice, positioned at its next draw, keyed for its next action."""
        if commit_to_seed(seed) != self.meta["commitment"]:
            raise TamperedLog("the seed does not match this game's commitment")
        meta = self.meta
        return HmacDice(
            seed,
            meta["pool"],
            nonce,
            meta["next_draw"],
            meta["script"],
            meta["script_pos"],
            key=self.turn_key(seed),
            private_keys=meta["private_keys"],
        )

    def turn_key(self, seed: bytes) -> bytes:
        """Returns the per-turn dice key of the next action (empty in a game without a key chain)."""
        if not self.meta["anchors"]:
            return b""
        return turn_key(seed, self.meta["actions"] + 1)

    def commit_dice_chain(self, seed: bytes) -> None:
        """Commits the anchor of the key chain's segment the next action draws in, unless it is already:
        after the seed's commitment, and after the action that ends a segment."""
        if not uses_turn_keys(self.meta) or self.meta["seed"]:
            return
        segment = self.meta["actions"] // CHAIN_LINKS
        if str(segment) not in self.meta["anchors"]:
            self.record(DiceChainCommitted(segment=segment, anchor=chain_anchor(seed, segment)))
        if self.meta.get("private_draws") and not self.meta["link"]:
            for owner in self.meta["players"]:
                if owner not in self.meta["dealt"]:
                    dealt = DiceKeyDealt(
                        owner=owner, key=private_key(seed, owner), salt=private_salt(seed, owner)
                    )
                    self.record(dealt)

    def add_entropy(self, player: str, value: bytes, signature: bytes = b"") -> None:
        """Mixes a seated player's entropy into later draws; only allowed before the first draw."""
        problem = entropy_problem(self.meta, player)
        if problem:
            raise UsageError(problem)
        if len(value) > MAX_PLAYER_BYTES:
            raise UsageError(f"entropy is {len(value)} bytes; at most {MAX_PLAYER_BYTES} are taken")
        given = EntropyAdded(player=player, value=value, signature=signature)
        self._check_authorised(given)
        self.record(given)

    def take_action(
        self,
        player: str,
        action_id: str,
        dice: Dice,
        nonce: bytes = b"",
        auth: str = "",
        signature: bytes = b"",
        dice_key: bytes = b"",
    ) -> list[Event]:
        """Checks an action is legal for `player` (and, for a seat bound to a key, that it comes signed),
        then records it and the events it causes. A signed action's signature must be the seat's, of
        `domain.signing.action_bytes` at this point of the game. `dice_key` is the action's per-turn key
        (`turn_key`), which `dice` draws its public outcomes with (taken from fair dice when not given)."""
        ruleset = self.ruleset
        if len(nonce) > MAX_PLAYER_BYTES:
            raise UsageError(f"a nonce is at most {MAX_PLAYER_BYTES} bytes, got {len(nonce)}")
        signed_on = self.chain if auth == AUTH_SIGNED and uses_turn_keys(self.meta) else b""
        dice_key = dice_key or getattr(dice, "turn_key", b"")  # the key `dice(seed)` was made with
        taken = ActionTaken(
            player=player,
            action=action_id,
            nonce=nonce,
            auth=auth,
            signature=signature,
            dice_key=dice_key,
            signed_chain=signed_on,
        )
        if problem := dice_key_problem(self.meta, taken):
            raise TamperedLog(problem)
        if action_id != START or player != HOST:
            self.check_legal(player, action_id)
            if auth == AUTH_DEFAULT:  # the host's bot moving for a seat whose turn lapsed
                if problem := default_move_problem(self.meta, taken):
                    raise NotSigned(problem)
            else:
                self._check_authorised(taken)
            if problem := redo_problem(self.meta, taken):
                raise IllegalAction(problem)
        events = ruleset.decide(self.state, action_id, player, dice)
        self.record(taken)
        for event in events:
            self.record(event)
        return events

    def _check_authorised(self, event: ActionTaken | EntropyAdded) -> None:
        """Raises NotSigned unless the event is authenticated as its seat requires (the audit's rule)."""
        meta = self.meta
        problem = authorisation_problem(
            meta.get("keys", {}),
            bool(meta.get("hosted")),
            event,
            self.version,
            self.chain,
            meta.get("commit_chain", b""),
        )
        if problem:
            raise NotSigned(problem)

    def record_club(self, event: Event, events: Sequence[Event], chain_at: bytes = b"") -> None:
        """Records a club event (domain.club) after checking it as the audit will: against the game as it
        stands, its log `events` so far, and for a seat's signed words their signature over the chain
        value `chain_at` of the event they were signed at, and that the log holds them once."""
        problem = club_problem(self, event, events, self.version, game_status(self))
        problem = problem or said_problem(self.meta.get("keys", {}), event, chain_at)
        if not problem and getattr(event, "auth", "") == AUTH_SIGNED:
            problem = said_again(event, self.version + 1, last_said(events, getattr(event, "signature", b"")))
        if problem:
            raise IllegalAction(problem)
        self.record(event)

    def dice_nonce(self, nonce: bytes) -> bytes:
        """Returns the nonce the next move draws with: after a rollback the voided move's, else `nonce`."""
        pinned = pinned_nonce(self.meta)
        return nonce if pinned is None else pinned

    def check_player(self, player: str) -> None:
        """Raises UsageError unless `player` has a seat in this game."""
        if player not in self.meta["players"]:
            seats = ", ".join(self.meta["players"])
            hint = did_you_mean(player, self.meta["players"])
            raise UsageError(f"no player {player!r} in this game (players: {seats}){hint}")

    def check_legal(self, player: str, action_id: str) -> None:
        """Raises the specific error that says why `player` may not take `action_id` now."""
        check_legal(self, player, action_id)

    def reveal_seed(self, seed: bytes) -> None:
        """Records the seed, after checking it against the commitment."""
        if self.meta["seed"]:
            return
        if commit_to_seed(seed) != self.meta["commitment"]:
            raise TamperedLog("the seed does not match this game's commitment")
        self.record(SeedRevealed(seed=seed))

    def cap_bot_rounds(self, reason: str) -> BotRoundCapSet:
        """Turns on the house round cap for bot games in a game created without it (house rule H6.1), as
        the host does when bots are to finish the game; refuses a game that has none to turn on."""
        if self.is_finished:
            raise GameOver("the game is over")
        event = BotRoundCapSet(rounds=int(bot_round_cap(self.ruleset) or 0), reason=reason)
        if problem := round_cap_problem(self, event):
            raise UsageError(problem)
        self.record(event)
        return event

    def record(self, event: Event) -> None:
        """Appends one event, chained to the previous one, and folds it into the state: at the class
        version the nightkeep that made the game records it (an older game keeps its shapes)."""
        fields = event.to_fields()
        version = event.class_version
        made_by = tuple(self.meta["made_by"]) if self.ruleset_name else ()
        if made_by and event.added_in:
            version = recorded_class_version(event.type_name, version, made_by)
            if version < event.class_version:
                fields = {k: v for k, v in fields.items() if event.added_in.get(k, 0) <= version}
        self.record_raw(event.type_name, version, fields)

    def record_raw(self, type_name: str, version: int, fields: dict[str, Any]) -> None:
        """Appends one event given as recorded (a fork copies events with their original bytes)."""
        chain = next_chain(self.chain, type_name, version, fields)
        self.trigger_event(self.Recorded, type=type_name, v=version, fields=fields, chain=chain)

    # --- fold ----------------------------------------------------------------------------------------

    def _fold(self, type_name: str, version: int, fields: dict[str, Any], chain: bytes) -> None:
        apply_event(self, decode_event(type_name, version, fields), chain)


def project_game(game: Game | None, events: Iterable[Any]) -> Game | None:
    """Folds stored envelopes into a Game without the library's per-event protocol checks."""
    for event in events:
        game = event.mutate(game)
    return game
