"""Games spread over several stores (shards) by game id: ShardedService routes each command to its game's
shard and lists and resolves games over all of them (the map and the mapping: `event_store.shard_map`).

A shard map is a TOML file naming each shard and its store (`--db shards:PATH`, see docs/scaling.md):

    [[shard]]
    name = "a"
    db = "postgresql://nightkeep@db1.example/nightkeep"

A new game's shard is the one whose name scores highest for the game's id (`home_shard`: rendezvous
hashing), so adding a shard sends it about 1/N of the new games and changes no other game's home. A
stored game never moves: a game is looked for on its home shard first, then on the others, and a game
found on two shards is an error. A shard's name is therefore forever; its `db` may change (a database
moved to another server keeps its games).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID, uuid4

from eventsourcing.persistence import PersistenceError

from domain.errors import CorruptStore, NightkeepError, UnknownGame, UsageError
from domain.events import ForkedFrom
from domain.game import Game, GameFold
from event_store.app.game_ids import MAX_LISTED, AmbiguousGameId
from event_store.app.service import Acted, BotActed, GameService
from event_store.config import describe, is_shard_map, store_exists
from event_store.copies import Copy
from event_store.recorded import RecordedEvent
from event_store.shard_map import ShardSpec, home_shard, read_shard_map
from event_store.sql import Statement
from projections.game_index import Entry, GameIndex

if TYPE_CHECKING:
    from domain.bots import Bot


@dataclass
class Shard:
    """An open shard: its name and its store's GameService."""

    name: str
    service: GameService


class ShardedService:
    """Games on several stores: routes every command for a game to the shard that holds it (a new game
    to its id's home shard) and lists and resolves games over all of them.

    It offers the GameService methods the commands use; play by e-mail and replicas keep to one store.
    """

    # Play by e-mail and replicas keep their tables beside one store's events: none here.
    recorder = None

    def __init__(self, shards: Sequence[Shard], new_id: Callable[[], UUID] | None = None) -> None:
        if not shards:
            raise UsageError("a sharded store needs at least one shard")
        self.shards = list(shards)
        self._by_name = {shard.name: shard for shard in self.shards}
        self._new_id = new_id or (lambda: uuid4())  # uuid4 looked up when called (tests seed it)
        # Where each game was found: a stored game never moves, so once found it is asked there only.
        self._found: dict[UUID, Shard] = {}
        self.copies = ShardedCopies(self)
        self.secrets = ShardedSeeds(self)

    @classmethod
    def open(cls, location: str, create: bool = False) -> ShardedService:
        """Opens every shard of a shard map; a shard with no store yet is created only when `create`."""
        specs = read_shard_map(location)
        opened: list[Shard] = []
        try:
            for spec in specs:
                opened.append(Shard(spec.name, _open_shard(spec, create)))
        except BaseException:
            for shard in opened:
                shard.service.close()
            raise
        return cls(opened)

    def close(self) -> None:
        """Closes every shard's store."""
        for shard in self.shards:
            shard.service.close()

    # --- where a game is -----------------------------------------------------------------------------

    def home(self, game_id: UUID) -> Shard:
        """Returns the shard a game id maps to (where a new game with this id is stored)."""
        return self._by_name[home_shard(game_id, list(self._by_name))]

    def shard_holding(self, game_id: UUID) -> Shard | None:
        """Returns the shard that stores a game: its home shard is asked first, then the others; a game
        stored on two of the others is refused."""
        if game_id in self._found:
            return self._found[game_id]
        home = self.home(game_id)
        if home.service.has_game(game_id):
            self._found[game_id] = home
            return home
        holders = [s for s in self.shards if s is not home and s.service.has_game(game_id)]
        if len(holders) > 1:
            raise _stored_twice(game_id, holders)
        if holders:
            self._found[game_id] = holders[0]
            return holders[0]
        return None

    def service_of(self, game_id: UUID) -> GameService:
        """Returns the store of the shard holding a game, else of its home shard (which then says there
        is no such game, or stores it)."""
        return (self.shard_holding(game_id) or self.home(game_id)).service

    def resolve_game_id(self, text: str) -> UUID:
        """Parses a typed game id (a whole id or a unique prefix) against every shard: a prefix that
        names games on two shards is ambiguous, and a game stored on two shards is refused."""
        found: dict[UUID, list[Shard]] = {}
        for shard in self.shards:
            try:
                resolved = shard.service.resolve_game_id(text)
            except UnknownGame:
                continue
            # A whole id comes back as it is when the shard does not hold it (nor a copy of it).
            if resolved != _whole_id(text) or shard.service.has_game(resolved):
                found.setdefault(resolved, []).append(shard)
        for game_id, holders in found.items():
            if len(holders) > 1:
                raise _stored_twice(game_id, holders)
            self._found[game_id] = holders[0]
        if len(found) > 1:
            listed = sorted(map(str, found))
            more = f" and {len(listed) - MAX_LISTED} more" if len(listed) > MAX_LISTED else ""
            raise AmbiguousGameId(
                f"{text.strip()!r} names {len(listed)} games: {', '.join(listed[:MAX_LISTED])}{more}"
                " (give one of these ids, or a longer prefix of one)"
            )
        if found:
            return next(iter(found))
        whole = _whole_id(text)
        if whole is not None:
            return whole  # the commands say there is no such game, as on one store
        raise UnknownGame(f"no game in these shards has an id starting {text.strip()!r}")

    def game_index(self) -> ShardedGameIndex:
        """Returns the game index spanning every shard (each shard keeps its own)."""
        return ShardedGameIndex(self.shards)

    # --- commands: a new game goes to its id's home shard --------------------------------------------

    def create_game(self, *args: Any, **kwargs: Any) -> UUID:
        """Creates a game (GameService.create_game's arguments, but its id) under a new id, on that id's
        home shard."""
        game_id = self._new_id()
        shard = self.home(game_id)
        created = shard.service.create_game(*args, **{**kwargs, "game_id": game_id})
        self._found[created] = shard
        return created

    def fork_game(self, game_id: UUID, at: int, same_dice: bool = False) -> tuple[UUID, ForkedFrom]:
        """Forks a game (as GameService.fork_game); the fork is stored on its own id's home shard."""
        fork_id = self._new_id()
        shard = self.home(fork_id)
        forked = self.service_of(game_id).fork_game(
            game_id, at, same_dice, fork_id=fork_id, into=shard.service
        )
        self._found[fork_id] = shard
        return forked

    def store_recorded(
        self, game_id: UUID, recorded: Sequence[RecordedEvent], rows: Sequence[Statement] = ()
    ) -> None:
        """Stores an imported game's events (with `rows`) where the game is, else on its id's home shard."""
        self.service_of(game_id).store_recorded(game_id, recorded, rows=rows)

    # --- commands and queries on one game, on the shard that holds it --------------------------------

    def get_game(self, game_id: UUID, version: int | None = None) -> Game:
        return self.service_of(game_id).get_game(game_id, version)

    def playable_game(self, game_id: UUID) -> Game:
        return self.service_of(game_id).playable_game(game_id)

    def refuse_copy(self, game_id: UUID) -> None:
        self.service_of(game_id).refuse_copy(game_id)

    def act(self, game_id: UUID, *args: Any, **kwargs: Any) -> Acted:
        return self.service_of(game_id).act(game_id, *args, **kwargs)

    def legal_actions(self, game_id: UUID, player: str | None = None) -> list[Any]:
        return self.service_of(game_id).legal_actions(game_id, player)

    def take_action(self, game_id: UUID, *args: Any, **kwargs: Any) -> tuple[int, list[RecordedEvent]]:
        return self.service_of(game_id).take_action(game_id, *args, **kwargs)

    def take_bot_action(self, game_id: UUID, bot: Bot) -> BotActed:
        return self.service_of(game_id).take_bot_action(game_id, bot)

    def add_entropy(self, game_id: UUID, *args: Any, **kwargs: Any) -> int:
        return self.service_of(game_id).add_entropy(game_id, *args, **kwargs)

    def start_game(self, game_id: UUID) -> tuple[int, list[RecordedEvent]]:
        return self.service_of(game_id).start_game(game_id)

    def reveal_seed(self, game_id: UUID) -> bytes:
        return self.service_of(game_id).reveal_seed(game_id)

    def seed_of(self, game_id: UUID) -> bytes:
        return self.service_of(game_id).seed_of(game_id)

    def holds_seed(self, game_id: UUID) -> bool:
        return self.service_of(game_id).holds_seed(game_id)

    def has_game(self, game_id: UUID) -> bool:
        return self.shard_holding(game_id) is not None

    def chain_values(self, game_id: UUID) -> list[bytes]:
        return self.service_of(game_id).chain_values(game_id)

    def recorded_events(
        self, game_id: UUID, gt: int | None = None, lte: int | None = None
    ) -> list[RecordedEvent]:
        return self.service_of(game_id).recorded_events(game_id, gt, lte)

    def verified_events(self, game_id: UUID) -> list[RecordedEvent]:
        return self.service_of(game_id).verified_events(game_id)

    def log_entries(self, game_id: UUID) -> list[Any]:
        return self.service_of(game_id).log_entries(game_id)

    def audit(self, game_id: UUID) -> Any:
        return self.service_of(game_id).audit(game_id)

    def fold(self, game_id: UUID, version: int | None = None, *, use_snapshot: bool = True) -> GameFold:
        return self.service_of(game_id).fold(game_id, version, use_snapshot=use_snapshot)

    def fold_as(self, game_id: UUID, viewer: str | None, version: int | None = None) -> GameFold:
        return self.service_of(game_id).fold_as(game_id, viewer, version)


class ShardedCopies:
    """The viewers' copies of every shard: a copy is kept on the shard that stores its events."""

    def __init__(self, sharded: ShardedService) -> None:
        self._sharded = sharded

    def put(self, stored: UUID, copy: Copy) -> None:
        self._sharded.service_of(stored).copies.put(stored, copy)

    def get(self, stored: UUID) -> Copy | None:
        return self._sharded.service_of(stored).copies.get(stored)

    def of_game(self, game_id: UUID) -> list[UUID]:
        return [stored for shard in self._sharded.shards for stored in shard.service.copies.of_game(game_id)]

    def all(self) -> dict[UUID, Copy]:
        return {
            stored: copy
            for shard in self._sharded.shards
            for stored, copy in shard.service.copies.all().items()
        }


class ShardedSeeds:
    """The seeds every shard holds for its games (read only: a seed is written with its game's events)."""

    def __init__(self, sharded: ShardedService) -> None:
        self._sharded = sharded

    def get(self, game_id: UUID) -> bytes:
        return self._sharded.service_of(game_id).secrets.get(game_id)

    def held(self) -> set[UUID]:
        return {game_id for shard in self._sharded.shards for game_id in shard.service.secrets.held()}


class ShardedGameIndex:
    """The game index of every shard as one: each entry also names its shard."""

    def __init__(self, shards: Sequence[Shard]) -> None:
        self._indexes = {shard.name: GameIndex(shard.service) for shard in shards}

    @property
    def built(self) -> bool:
        """Whether every shard's last listing was read from a built index."""
        return all(index.built for index in self._indexes.values())

    def rebuild(self) -> int:
        """Rebuilds every shard's index from zero."""
        return sum(index.rebuild() for index in self._indexes.values())

    def games(self) -> list[Entry]:
        """Returns every shard's games, most recently updated first."""
        entries = [{**e, "shard": name} for name, index in self._indexes.items() for e in index.games()]
        return sorted(entries, key=lambda e: e["updated"], reverse=True)

    def find_who_acts(self, entries: Sequence[Entry]) -> None:
        """Sets `to_act` in each entry, each shard finding it for its own games."""
        for name, index in self._indexes.items():
            index.find_who_acts(e for e in entries if e["shard"] == name)


def _open_shard(spec: ShardSpec, create: bool) -> GameService:
    """Opens one shard's store; errors name the shard."""
    try:
        if not create and not store_exists(spec.db):
            raise UsageError(
                f"no store at {describe(spec.db)} (nightkeep new or nightkeep import creates it)"
            )
        return GameService.open(spec.db)
    except NightkeepError as exc:  # StoreUnavailable (an OSError too) keeps its exit code
        raise type(exc)(f"shard {spec.name!r}: {exc}") from None
    except (sqlite3.DatabaseError, PersistenceError, OSError) as exc:
        raise UsageError(f"shard {spec.name!r}: cannot open the store {describe(spec.db)}: {exc}") from None


def _whole_id(text: str) -> UUID | None:
    """Returns a typed id as a UUID when it is a whole one."""
    try:
        return UUID(text.strip())
    except ValueError:
        return None


def _stored_twice(game_id: UUID, holders: Sequence[Shard]) -> CorruptStore:
    names = " and ".join(repr(s.name) for s in holders)
    return CorruptStore(
        f"game {game_id} is stored on shards {names}: a game lives on one shard (export it from one, "
        "check both copies, and delete the other)"
    )


def game_index_of(service: GameService | ShardedService) -> GameIndex:
    """Returns a store's game index (`games` lists from it): a shard map's spans its shards."""
    if isinstance(service, ShardedService):
        # ShardedGameIndex offers every GameIndex method the commands call, over every shard.
        return cast(GameIndex, service.game_index())
    return GameIndex(service)


def open_store(db: str, create: bool = False) -> GameService | ShardedService:
    """Opens a store location: a shard map as a ShardedService, anything else as a GameService."""
    if is_shard_map(db):
        return ShardedService.open(db, create)
    return GameService.open(db)
