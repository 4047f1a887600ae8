"""GameService: the eventsourcing Application that creates games, takes actions and reads their logs."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import (
    IntegrityError,
    JSONTranscoder,
    MapperDeserialisationError,
    PersistenceError,
    Recording,
    Transcoder,
    Transcoding,
)
from eventsourcing.utils import TopicError, get_topic

from domain.actions import HOST, START, Action
from domain.club import (
    RewindNeeded,
    RollbackAnswered,
    RollbackProposed,
    RolledBack,
    SeatHandedOver,
)
from domain.collector import paused_collector
from domain.dice import Dice, commit_to_seed, new_seed
from domain.errors import (
    BadSetup,
    CorruptStore,
    GameOver,
    IllegalAction,
    NightkeepError,
    SeedNotHeld,
    StaleVersion,
    TamperedLog,
    UnknownGame,
    UsageError,
)
from domain.events import GENESIS_CHAIN, BotRoundCapSet, Event, ForkedFrom, GameCreated
from domain.field_types import Seat
from domain.folding import fold_envelopes
from domain.game import BOT_ROUND_CAP as GAME_BOT_ROUND_CAP
from domain.game import (
    MAX_EVENTS,
    NIGHTKEEP_VERSION,
    STOPPED,
    STOPPED_MESSAGE,
    Envelope,
    Game,
    GameFold,
    Rewinds,
    check_host_start,
    is_uncapped,
    project_game,
)
from domain.game_meta import GameHolder
from domain.hidden import PUBLIC
from domain.rulesets import build_ruleset, get_ruleset
from domain.setup import check_setup
from domain.signing import AUTH_SIGNED, keys_problem
from event_store import game_index
from event_store.app.forks import check_fork_point, original_seed_for_fork
from event_store.app.seats import find_action, open_actions, pick_actor, refuse_if_secret, resolve_viewer
from event_store.at_rest import check_store
from event_store.config import persistence_env
from event_store.copies import copy_store_for
from event_store.lazy_log import get_logger
from event_store.loading import (
    SnapshotTable,
    fold_from_snapshot,
    load_latest,
    snapshot_row,
    snapshot_table,
    take_snapshot,
)
from event_store.recorded import (
    RecordedEvent,
    check_chain,
    read_envelopes,
    read_last,
    read_states,
    recorded_from_envelope,
)
from event_store.secrets import secret_store_for
from event_store.sql import Statement, sql_store_of, writes_rows
from event_store.transcoder import MsgpackTranscoder
from event_store.viewer_folds import fold_as, view_snapshots

if TYPE_CHECKING:
    from domain.audit import AuditReport, RawEntry
    from domain.bots import Bot

T = TypeVar("T")

log = get_logger("nightkeep.store")
# The option that caps bot games' rounds (house rule H6.1): `simulation.bot_games` sets it, bots finishing a
# game created without it turn it on (`play_with_bots`, recorded as BotRoundCapSet).
BOT_ROUND_CAP = GAME_BOT_ROUND_CAP
# Why bots turn the cap on in a game created without it: said in the game's log.
BOTS_FINISH = "bots play every seat to the end, so the house round cap for bot games bounds the game"

SNAPSHOT_INTERVAL = 32
# Viewers' folds (event_store.viewer_folds) are snapshotted at every this many of the game's own
# snapshots: a board shown folds at most that many intervals of events past its snapshot. Taken at every
# interval for the public and every seat they cost a 3-seat dungeon-short game played an action a save
# 31% more CPU; this often, and the seats' only once the log holds a private event, within the noise.
VIEW_SNAPSHOTS_EVERY = 4
# The club events whose checks read the log itself (a rollback's range, the host's key), not only the
# game's state.
NEEDS_LOG = (RollbackProposed, RollbackAnswered, RolledBack, SeatHandedOver)


@dataclass(frozen=True, slots=True)
class Acted:
    """What `GameService.act` did: the new version, the events recorded, who acted, the open action the
    typing named (None when it named none and the rules took it as typed) and the game's ruleset, so the
    caller renders without loading the game again."""

    version: int
    recorded: list[RecordedEvent]
    player: str
    action: Action | None
    ruleset_name: str


@dataclass(frozen=True, slots=True)
class BotActed:
    """What `GameService.take_bot_action` did: the action the bot chose, the events it recorded and
    whether the game is over now."""

    action: Action
    recorded: list[RecordedEvent]
    is_finished: bool


class BytesAsBase64(Transcoding):
    """Lets the JSON baseline transcoder store bytes fields (chains, commitments)."""

    type = bytes
    name = "bytes_b64"

    def encode(self, obj: bytes) -> str:
        return base64.b64encode(obj).decode()

    def decode(self, data: str) -> bytes:
        return base64.b64decode(data)


def _pending_recorded(game: Game) -> list[RecordedEvent]:
    """Returns what a command is about to store, in the read side's shape (no re-read after saving)."""
    return [
        recorded_from_envelope(e.originator_version, vars(e))
        for e in game.pending_events
        if isinstance(e, Game.Recorded)
    ]


class GameService(Application[UUID]):
    """Creates games, takes actions on them and reads their events, on SQLite, PostgreSQL or in memory."""

    name = "nightkeep"
    env = {"AGGREGATE_CACHE_MAXSIZE": "64", "IS_SNAPSHOTTING_ENABLED": "y"}
    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}
    snapshotting_projectors = {Game: project_game}

    def __init__(
        self, db: str | None = None, env: dict[str, str] | None = None, reads_only: bool = False
    ) -> None:
        merged = persistence_env(db, reads_only) if db else {}
        merged.update(env or {})
        super().__init__(env=merged)
        # Said once, when the store is opened: whatever reads through this service writes nothing (on
        # a hot standby it could not).
        self.reads_only = reads_only
        try:
            check_store(self.recorder, self.mapper.cipher)  # a missing or wrong key: one line, no change
        except Exception:
            self.close()
            raise
        self.secrets = secret_store_for(self.recorder, self.mapper.cipher)
        self.copies = copy_store_for(self.recorder)
        # Where a save's snapshot rows go, when the store writes rows with its events (SQL stores).
        self._snapshot_table: SnapshotTable | None = (
            snapshot_table(self.recorder, self.snapshots.recorder) if self.snapshots is not None else None
        )
        # A game's seed never changes once stored, so it is read from the store once per game.
        self._seeds: dict[UUID, bytes] = {}
        self._not_copies: set[UUID] = set()  # games found to be games, not viewers' copies
        # The game index (event_store.game_index): rows written with each save's events on a SQL
        # store, built from the events by this service's first save if the store has none yet; a
        # dict beside the in-memory store.
        self._index_store = sql_store_of(self.recorder) if writes_rows(self.recorder) else None
        self._index_ready = False
        self._memory_index: dict[UUID, game_index.Entry] | None = {} if self._index_store is None else None

    @classmethod
    def open(cls, db: str, reads_only: bool = False) -> GameService:
        """Opens the store at a path (SQLite), a `postgresql://` URL or `:memory:` (`reads_only`: for a
        command that never writes, which reads a hot standby when the URL names one)."""
        return cls(db=db, reads_only=reads_only)

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        # A SQL store writes a game's snapshot and its index row in the transaction of the events that
        # reach it: a save stays one round trip on PostgreSQL, one commit on SQLite.
        rows: list[Statement] = []
        if self._snapshot_table and (due := self._due_snapshots(processing_event)):
            rows += [snapshot_row(self._snapshot_table, self.mapper, snapshot) for snapshot in due]
        changes = self._index_changes(processing_event)
        if changes and self._index_store is not None:
            self._ensure_game_index(self._index_store)
            rows += [s for change in changes for s in game_index.statements(self._index_store, change)]
        if rows:
            processing_event.saved_kwargs["rows"] = [*processing_event.saved_kwargs.get("rows", ()), *rows]
        recordings = super()._record(processing_event)
        if self._memory_index is not None:
            for change in changes:
                entry = change.apply(self._memory_index.get(change.game_id))
                if entry is not None:
                    self._memory_index[change.game_id] = entry
        return recordings

    def _index_changes(self, processing_event: ProcessingEvent[UUID]) -> list[game_index.Change]:
        """Returns what a save changes in the index rows of its games: from its envelopes, and who is
        to act from the saved game in hand (a fold for events stored as recorded: an import, a
        replica's packet, a bot game's copy)."""
        saved: dict[UUID, list[dict[str, Any]]] = {}
        for event in processing_event.events:
            if isinstance(event, Envelope):
                saved.setdefault(event.originator_id, []).append(vars(event))
        changes = []
        for game_id, envelopes in saved.items():
            saved_game = processing_event.aggregates.get(game_id)
            if isinstance(saved_game, Game):
                holder: Callable[[], GameHolder] = partial(lambda game: game, saved_game)
            else:
                holder = partial(self._fold_saving, game_id, envelopes)
            if (change := game_index.change_of(game_id, envelopes, holder)) is not None:
                changes.append(change)
        return changes

    def _fold_saving(self, game_id: UUID, envelopes: list[dict[str, Any]]) -> GameFold:
        """Returns the fold of a game after envelopes about to be stored that extend its stored ones
        (a rollback among them returns through both)."""
        stored = envelopes[0]["originator_version"] - 1

        def start(version: int) -> GameFold:
            if not stored or self.snapshots is None:
                return GameFold()
            return fold_from_snapshot(self.snapshots, game_id, min(version, stored))

        def fold_on(fold: GameFold, version: int) -> None:
            if fold.version < stored:
                fold_envelopes(fold, self._states(game_id, fold.version or None, min(version, stored)))
            if version > stored:
                fold_envelopes(fold, envelopes[fold.version - stored : version - stored])

        with paused_collector():
            rewinds = Rewinds(fold_on, start)
            fold = rewinds(stored).copy() if stored else GameFold()
            fold.rewind_source = rewinds
            fold_envelopes(fold, envelopes)
        return fold

    def _ensure_game_index(self, store: Any) -> None:
        """Builds the store's game index from the events, once, if it has none in the current format
        (a store made before it): the first save of each writer asks (one read)."""
        if not self._index_ready:
            if not game_index.is_built(store):
                game_index.write_built(store, self.game_index_entries(), replace=False)
            self._index_ready = True

    def game_index_entries(self) -> dict[UUID, game_index.Entry]:
        """Returns every game's index entry computed from its events (a fold of each game: slow on a
        big store, and writes nothing)."""
        entries = {}
        for game_id in self._stored_game_ids():
            envelopes = [{**e, "originator_version": v} for v, e in self._envelopes(game_id, None, None)]
            holder = partial(self.fold, game_id)
            if (entry := game_index.entries_of(envelopes, game_id, holder)) is not None:
                entries[game_id] = entry
        return entries

    def rebuild_game_index(self) -> int:
        """Builds the game index again from the events (a write); returns how many games it holds."""
        entries = self.game_index_entries()
        if self._index_store is None:
            self._memory_index = entries
        else:
            game_index.write_built(self._index_store, entries, replace=True)
            self._index_ready = True
        return len(entries)

    def listed_games(self) -> tuple[list[game_index.Entry], bool]:
        """Returns every game's index entry, most recently played first, and whether they were read
        from a built index (else they were computed from the events: a store no writer has opened
        since the index came). Reads only: a read-only standby answers."""
        if self._memory_index is not None:
            return game_index.listed(self._memory_index.values()), True
        assert self._index_store is not None
        if game_index.is_built(self._index_store):
            return game_index.read_entries(self._index_store), True
        return game_index.listed(self.game_index_entries().values()), False

    def _stored_game_ids(self) -> list[UUID]:
        """Returns the id of every game (and viewer's copy) the store holds."""
        from event_store.app.game_ids import stored_game_ids

        return stored_game_ids(self.recorder)

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        # The library re-reads the game at the exact multiple of the interval before snapshotting; the
        # saved game is already in memory, so it is snapshotted as it stands (a SQL store has written
        # it with the events already). Each viewer's fold (event_store.viewer_folds) is snapshotted
        # here, from the store: of a game saved as an aggregate or of events stored as recorded (an
        # import, a replica's packet), every VIEW_SNAPSHOTS_EVERY game snapshots.
        if self.snapshots is None:
            return
        if not self._snapshot_table:
            for snapshot in self._due_snapshots(processing_event):
                try:
                    self.snapshots.put([snapshot])
                except PersistenceError as exc:
                    # The events are stored: a snapshot only speeds up loading, so one that could not
                    # be written must not make the action look refused.
                    log.warning(
                        "snapshot_not_written", game=str(snapshot.originator_id), error=str(exc)[:200]
                    )
        saved: dict[UUID, list[int]] = {}
        for event in processing_event.events:
            if isinstance(event, Envelope):
                saved.setdefault(event.originator_id, []).append(event.originator_version)
        views_every = SNAPSHOT_INTERVAL * VIEW_SNAPSHOTS_EVERY
        for game_id, versions in saved.items():
            before, last = min(versions) - 1, max(versions)
            if last // views_every == before // views_every:
                continue
            try:
                taken = view_snapshots(self.snapshots, partial(self._envelopes, game_id), game_id, last)
                if taken:
                    self.snapshots.put(taken)
            except (PersistenceError, NightkeepError) as exc:
                # As a game's snapshot: the events are stored whether or not a view's could be written.
                log.warning("view_snapshot_not_written", game=str(game_id), error=str(exc)[:200])

    def _due_snapshots(self, processing_event: ProcessingEvent[UUID]) -> list[Snapshot]:
        """Returns a snapshot of each game saved whose new events reach a multiple of the interval."""
        due = []
        for game_id, aggregate in processing_event.aggregates.items():
            versions = [e.originator_version for e in processing_event.events if e.originator_id == game_id]
            if not isinstance(aggregate, Game) or not versions:
                continue
            if max(versions) // SNAPSHOT_INTERVAL > (min(versions) - 1) // SNAPSHOT_INTERVAL:
                due.append(take_snapshot(aggregate))
        return due

    def construct_transcoder(self) -> Transcoder:
        """Uses msgpack unless TRANSCODER_TOPIC asks for another transcoder (the JSON baseline)."""
        if self.env.get("TRANSCODER_TOPIC"):
            return super().construct_transcoder()
        return MsgpackTranscoder()

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        """Adds bytes support to the library's JSON transcoder."""
        super().register_transcodings(transcoder)
        transcoder.register(BytesAsBase64())

    # --- commands ------------------------------------------------------------------------------------

    def create_game(
        self,
        ruleset_name: str,
        players: Sequence[tuple[str, str | None]],
        options: dict[str, str] | None = None,
        dice_script: Sequence[int] | None = None,
        entropy: Iterable[tuple[str, bytes]] = (),
        wait_for_entropy: bool = False,
        keys: dict[str, bytes] | None = None,
        host_key: bytes = b"",
        game_id: UUID | None = None,
        rows: Callable[[UUID], Sequence[Statement]] | None = None,
        seed: bytes | None = None,
        club: Sequence[Event] = (),
    ) -> UUID:
        """Sets up a new game and stores it with its secret seed (and the statements `rows` makes from
        its id, in the same transaction); returns its id (a new random one, or `game_id`: a bot simulation
        derives its games' ids from its own seed). `seed` is the dice seed to commit to
        instead of a fresh one: only bot games (`bot_games`) give one, derived from their own seed, so
        that a simulation plays the same games wherever it runs. `club` are a hosted game's first club
        events (its deadline), recorded in the same transaction.

        The seed is drawn and committed before any player entropy is recorded. Unless asked to wait
        for entropy (players send it with `add_entropy`, then the host calls `start_game`), the host
        starts the game at once, which deals the characters.
        """
        ruleset = get_ruleset(ruleset_name)
        seats: list[Seat] = [{"name": name, "character": character or ""} for name, character in players]
        options = dict(options or {})
        if not all(type(k) is str and type(v) is str for k, v in options.items()):
            raise BadSetup("option names and values are text (--option K=V)")
        script = list(dice_script or [])
        check_setup(ruleset, seats, options, script)
        keys = dict(keys or {})
        if problem := keys_problem({seat["name"] for seat in seats}, keys, host_key):
            raise BadSetup(problem)
        seats, options = ruleset.canonical_setup(seats, options)  # each character, side, option one way
        ruleset = build_ruleset(ruleset_name, options)  # the content in play follows the options
        created = GameCreated(
            ruleset=ruleset_name,
            players=seats,
            options=options,
            content_hash=ruleset.content_hash(),
            scripted=bool(script),
            dice_script=script,
            nightkeep_version=NIGHTKEEP_VERSION,
            keys=keys,
            host_key=host_key,
        )
        seed = seed or new_seed()
        game = Game.start(created, commit_to_seed(seed), game_id)
        game.commit_dice_chain(seed)
        for player, value in entropy:
            game.add_entropy(player, value)
        if not wait_for_entropy:
            _take(game, seed, HOST, START)
            self._finish_if_over(game, seed)
        for event in club:
            game.record_club(event, [])
        # One transaction: no game without its seed (nor without what the caller writes with it).
        self.save(game, rows=[*self.secrets.put(game.id, seed), *(rows(game.id) if rows else ())])
        # The service holds the game it made, as after any save: its first action asks the store for
        # nothing more than its save (not the game, its seed or whether it is a viewer's copy).
        self._seeds[game.id] = seed
        self._not_copies.add(game.id)
        if self.repository.cache is not None:
            self.repository.cache.put(game.id, game)
        log.info("game_created", game=str(game.id), ruleset=ruleset_name, players=len(seats))
        return game.id

    def add_entropy(
        self,
        game_id: UUID,
        player: str,
        value: bytes,
        signature: bytes = b"",
        expected_version: int | None = None,
        rows: Sequence[Statement] = (),
    ) -> int:
        """Mixes a seated player's entropy into every later draw; only before the game starts. A seat
        bound to a key gives it signed (an entropy packet, checked by `hosting`)."""
        if not value:
            raise UsageError("entropy must not be empty")
        game = self.playable_game(game_id)
        if expected_version is not None and game.version != expected_version:
            raise StaleVersion(f"game moved on to version {game.version}, reload")
        game.add_entropy(player, value, signature)
        self._save_or_stale(game, rows)
        return game.version

    def start_game(self, game_id: UUID) -> tuple[int, list[RecordedEvent]]:
        """The host starts a game that waited for entropy: characters are dealt and play opens."""
        game = self.playable_game(game_id)
        check_host_start(game)
        seed = self.seed_of(game_id)
        _take(game, seed, HOST, START)
        self._finish_if_over(game, seed)
        recorded = _pending_recorded(game)
        self._save_or_stale(game)
        return game.version, recorded

    def act(
        self,
        game_id: UUID,
        action_or_prefix: str,
        player: str | None = None,
        nonce: bytes = b"",
        expected_version: int | None = None,
    ) -> Acted:
        """Takes the action a person typed (its id or a unique prefix) for a player (None: the only one who
        may take it, or the one to act, in a game without secrets), all on one load of the game."""
        game = self.get_game(game_id)
        if player is None:
            refuse_if_secret(game, "who acts")  # before the copy's refusal, as `act` always answered
        self.refuse_copy(game_id)
        if player is None:
            player = pick_actor(game, action_or_prefix)
        chosen = find_action(game, player, action_or_prefix)
        action_id = chosen.id if chosen else action_or_prefix  # else the rules' own refusal says why
        version, recorded = self._take_on(game, player, action_id, nonce, expected_version)
        return Acted(version, recorded, player, chosen, game.ruleset_name)

    def take_action(
        self,
        game_id: UUID,
        player: str,
        action_id: str,
        nonce: bytes = b"",
        expected_version: int | None = None,
        dice: Dice | None = None,
        auth: str = "",
        signature: bytes = b"",
        rows: Sequence[Statement] = (),
    ) -> tuple[int, list[RecordedEvent]]:
        """Takes one action for a player; returns the new version and the events it recorded. An action
        of a seat bound to a key needs its signature (`auth="signed"`; checked by `hosting`). `rows` are
        written in the transaction that stores its events."""

        def take(game: Game) -> tuple[int, list[RecordedEvent]]:
            return self._take_on(
                game, player, action_id, nonce, expected_version, dice, auth, signature, rows
            )

        if dice is not None:  # dice given may have state of their own: drawn from once, on the newest game
            return take(self.playable_game(game_id))
        return self._on_newest(game_id, take)

    def take_bot_action(self, game_id: UUID, bot: Bot) -> BotActed:
        """Lets a bot choose one of the legal actions and takes it, on one load of the game (as
        `take_action`: a bot that chose on a copy found stale chooses again on the newest game); refuses
        a game where nobody has a legal action."""

        def take(game: Game) -> BotActed:
            actions = game.ruleset.legal_actions(game.state, None)
            if not actions:
                raise UsageError("the game is stuck: nobody has a legal action")
            choice = bot.choose(game.ruleset, game.state, actions)
            _, recorded = self._take_on(game, choice.player, choice.id)
            return BotActed(choice, recorded, game.is_finished)

        return self._on_newest(game_id, take)

    def _on_newest(self, game_id: UUID, command: Callable[[Game], T]) -> T:
        """Runs a command on the game as this service last saved or loaded it, without asking the store
        for newer events first; when the command refuses (any NightkeepError), it runs again on the game
        loaded from the store, which answers as a command on the newest game always has.

        A copy that was stale cannot be saved: another process has stored its next version, so the save
        is refused (StaleVersion) and the command runs again on the newest game. So a long-running
        process's command waits on the store once, for its save; one that loses a race, twice. The
        command saves last: nothing after its save may refuse, or it would be taken twice.
        """
        cached = self._cached_game(game_id)
        if cached is not None:
            try:
                return command(cached)
            except NightkeepError:  # refused on a copy that may be stale: the newest game answers
                pass
        return command(self.playable_game(game_id))

    def _cached_game(self, game_id: UUID) -> Game | None:
        """Returns a copy of a game as this service last saved or loaded it, not checked against the
        store (None: not cached, or not yet known not to be a viewer's copy)."""
        cache = self.repository.cache
        if cache is None or game_id not in self._not_copies:
            return None
        try:
            cached = cache.get(game_id)
        except KeyError:
            return None
        if not isinstance(cached, Game):
            return None
        game = deepcopy(cached)
        game.rewind_source = self._rewinder(game_id)
        return game

    def _take_on(
        self,
        game: Game,
        player: str,
        action_id: str,
        nonce: bytes = b"",
        expected_version: int | None = None,
        dice: Dice | None = None,
        auth: str = "",
        signature: bytes = b"",
        rows: Sequence[Statement] = (),
    ) -> tuple[int, list[RecordedEvent]]:
        """Takes one action on a loaded game and saves it (see take_action)."""
        if expected_version is not None and game.version != expected_version:
            raise StaleVersion(f"game moved on to version {game.version}, reload")
        seed = self.seed_of(game.id)
        if auth != AUTH_SIGNED:  # after a rollback the first move draws as the voided one did
            nonce = game.dice_nonce(nonce)
        _take(game, seed, player, action_id, dice, nonce, auth, signature)
        self._finish_if_over(game, seed)
        recorded = _pending_recorded(game)
        self._save_or_stale(game, rows)
        log.info("action_taken", game=str(game.id), player=player, action=action_id, version=game.version)
        return game.version, recorded

    def record_club(
        self,
        game_id: UUID,
        *events: Event,
        expected_version: int | None = None,
        rows: Sequence[Statement] = (),
    ) -> int:
        """Records club events of a game played by e-mail (domain.club), in one transaction with `rows`,
        after the checks the audit makes of each; returns the new version."""
        game = self.playable_game(game_id)
        if expected_version is not None and game.version != expected_version:
            raise StaleVersion(f"game moved on to version {game.version}, reload")
        # (a seat's signed words are looked for in the log: the host takes each once)
        needs_log = any(type(e) in NEEDS_LOG or getattr(e, "auth", "") == AUTH_SIGNED for e in events)
        logged = [r.event for r in self.recorded_events(game_id)] if needs_log else []
        chains = self.chain_values(game_id) if any(getattr(e, "signed_at", 0) for e in events) else []
        for event in events:
            signed_at = getattr(event, "signed_at", 0)
            chain_at = chains[signed_at - 1] if 1 <= signed_at <= len(chains) else b""
            game.record_club(event, logged, chain_at)
            if needs_log:
                logged.append(event)
        self._save_or_stale(game, rows)
        log.info("club_events", game=str(game_id), types=[e.type_name for e in events], version=game.version)
        return game.version

    def cap_bot_rounds(self, game_id: UUID, reason: str = BOTS_FINISH) -> BotRoundCapSet:
        """Turns on the house round cap for bot games in a game created without it, in its log (house rule
        H6.1): bots are about to finish it. Refuses a game whose ruleset has none or has it on already."""
        game = self.playable_game(game_id)
        event = game.cap_bot_rounds(reason)
        self._save_or_stale(game)
        return event

    def reveal_seed(self, game_id: UUID) -> bytes:
        """Reveals a game's seed early (it is revealed by itself when the game ends); play then stops."""
        game = self.playable_game(game_id)
        if game.meta["seed"]:
            # Already public (an imported game carries its reveal but not the host's secret).
            revealed: bytes = game.meta["seed"]
            return revealed
        seed = self.seed_of(game_id)
        game.reveal_seed(seed)
        self._save_or_stale(game)
        return seed

    def fork_game(self, game_id: UUID, at: int, same_dice: bool = False) -> tuple[UUID, ForkedFrom]:
        """Starts a new game from a game's history up to event `at`, which must be an action boundary.

        The fork's log opens with ForkedFrom, copies the first `at` events as they were recorded and
        commits to a new seed; with `same_dice` it reuses the original's seed, which is allowed only
        once that seed is public (a fork must never preview an unfinished game's dice).
        """
        events = self.verified_events(game_id)
        check_fork_point(game_id, events, self.fold(game_id), at)
        fold = self.fold(game_id, at)
        original_seed = original_seed_for_fork(game_id, events, fold, same_dice)
        # A fork copies the history as recorded: it must pass the audit first (an imported game too).
        report = self.audit(game_id)
        if report.findings:
            raise TamperedLog(report.refusal(f"game {game_id}"))
        seed = original_seed if same_dice else new_seed()
        forked_from = ForkedFrom(
            game=str(game_id), version=at, chain=events[at - 1].chain, seed=original_seed, same_dice=same_dice
        )
        history = [(r.type_name, r.class_version, r.fields) for r in events[:at]]
        game = Game.fork(forked_from, history, commit_to_seed(seed))
        game.commit_dice_chain(seed)
        self.save(game, rows=self.secrets.put(game.id, seed))
        log.info("game_forked", game=str(game.id), original=str(game_id), at=at, same_dice=same_dice)
        return game.id, forked_from

    def store_recorded(
        self, game_id: UUID, recorded: Sequence[RecordedEvent], rows: Sequence[Statement] = ()
    ) -> None:
        """Stores a game's events exactly as recorded elsewhere (same id, versions, fields, times): a
        whole game, or the events that extend the ones stored (all in one transaction, with `rows`). It
        checks nothing: files come in through `replay_file.store_import`, which has audited them."""
        envelopes: list[Game.Created | Game.Recorded] = []
        for r in recorded:
            common = {"type": r.type_name, "v": r.class_version, "fields": r.fields, "chain": r.chain}
            if r.version == 1:
                envelopes.append(
                    Game.Created(
                        originator_id=game_id,
                        originator_version=1,
                        timestamp=r.timestamp,
                        originator_topic=get_topic(Game),
                        **common,
                    )
                )
            else:
                envelopes.append(
                    Game.Recorded(
                        originator_id=game_id, originator_version=r.version, timestamp=r.timestamp, **common
                    )
                )
        try:
            self.save(*envelopes, rows=rows)
        except IntegrityError:
            raise StaleVersion(f"game {game_id} was stored by someone else meanwhile, try again") from None
        log.info("game_imported", game=str(game_id), events=len(recorded), first=recorded[0].version)

    def holds_seed(self, game_id: UUID) -> bool:
        """Tells whether this store holds a game's secret seed (it is the game's host)."""
        try:
            self.seed_of(game_id)
        except SeedNotHeld:
            return False
        return True

    def has_game(self, game_id: UUID) -> bool:
        """Tells whether the store holds any event of a game."""
        return bool(self._envelopes(game_id, None, 1))

    def chain_values(self, game_id: UUID) -> list[bytes]:
        """Returns the chain value of each of a game's stored events, in order."""
        envelopes = self._envelopes(game_id, None, None)
        if not envelopes:
            raise UnknownGame(f"no game {game_id} in this store")
        return [e["chain"] for _, e in envelopes]

    def _save_or_stale(self, game: Game, rows: Sequence[Statement] = ()) -> None:
        try:
            self.save(game, rows=rows)
        except IntegrityError:
            latest = self.repository.get(game.id, projector_func=project_game).version
            raise StaleVersion(f"game moved on to version {latest}, reload") from None
        if self.repository.cache is not None:
            # The saved game is the newest state: caching it spares the next command from re-reading
            # and re-applying the events it just wrote (a command's save refuses it once stale; a
            # query still checks the store for newer events).
            self.repository.cache.put(game.id, game)

    def _finish_if_over(self, game: Game, seed: bytes) -> None:
        if game.is_finished and not game.meta["seed"]:
            game.reveal_seed(seed)

    def seed_of(self, game_id: UUID) -> bytes:
        """Returns a game's secret seed (the host's eyes only)."""
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self._seeds[game_id] = self.secrets.get(game_id)
        return seed

    # --- queries -------------------------------------------------------------------------------------

    def get_game(self, game_id: UUID, version: int | None = None) -> Game:
        """Loads a game, now or at an older version."""
        if version is not None and not 1 <= version <= MAX_EVENTS:
            raise UsageError(f"there is no event {version} in any game")
        try:
            try:
                newest = self._load_newest(game_id) if version is None else None
                game: Game = newest or self.repository.get(
                    game_id, version=version, projector_func=project_game
                )
            except RewindNeeded:  # a rollback past the snapshot it was loaded from: fold it from the start
                game = self._load_rewinding(game_id, version)
        except AggregateNotFoundError:
            raise UnknownGame(f"no game {game_id} in this store") from None
        except (MapperDeserialisationError, TopicError) as exc:
            # Damaged bytes or topic in the store: the same one line the event reader gives, no traceback.
            cause = type(exc.__cause__ or exc).__name__
            raise CorruptStore(f"game {game_id} has an unreadable stored event ({cause})") from None
        if not isinstance(game, Game):
            raise UnknownGame(f"no game {game_id} in this store")
        if version is not None and game.version != version:
            raise UsageError(f"game {game_id} has only {game.version} events")
        game.rewind_source = self._rewinder(game_id)  # a rollback recorded on it returns through the store
        return game

    def _load_newest(self, game_id: UUID) -> Game | None:
        # A game not in the cache (the first command of every CLI call) is read from its newest
        # snapshot and the envelopes after it in one query, without the library's per-event objects.
        cache = self.repository.cache
        if cache is not None:
            try:
                cache.get(game_id)
            except KeyError:
                pass
            else:
                return None  # the repository brings its cached copy up to date
        if self.snapshots is None:
            return None
        return load_latest(self.recorder, self.snapshots.recorder, self.mapper, game_id)

    def _rewinder(self, game_id: UUID) -> Rewinds:
        """Returns what a fold of a game calls to return to an earlier event (a rollback): each fold it
        returns is made once, from the newest snapshot before it or from the fold it made before."""

        def start(version: int) -> GameFold:
            if self.snapshots is None:
                return GameFold()
            return fold_from_snapshot(self.snapshots, game_id, version)

        def fold_on(fold: GameFold, version: int) -> None:
            with paused_collector():
                fold_envelopes(fold, self._states(game_id, fold.version or None, version))

        return Rewinds(fold_on, start)

    def _load_rewinding(self, game_id: UUID, version: int | None) -> Game:
        """Loads a game from its first event, able to return to an earlier one at each rollback."""
        game: Any = None
        source = self._rewinder(game_id)
        stored: Any
        for stored in self.events.get(game_id, lte=version):
            if game is not None:
                game.rewind_source = source
            game = stored.mutate(game)
        if game is None:
            raise AggregateNotFoundError(game_id)
        loaded: Game = game
        return loaded

    def playable_game(self, game_id: UUID) -> Game:
        """Loads a game to act on: not a viewer's copy, which holds no seed and cannot be continued."""
        game = self.get_game(game_id)
        self.refuse_copy(game_id)
        return game

    def refuse_copy(self, game_id: UUID) -> None:
        """Refuses a loaded game that is a viewer's copy (it holds no seed and cannot be continued)."""
        if game_id not in self._not_copies:
            # Asked after the game is read: a copy's row is stored before its events, so a game read
            # here that is a copy has its row visible now, and one that is not never becomes one.
            copy = self.copies.get(game_id)
            if copy is not None:
                raise IllegalAction(
                    f"game {game_id} is {copy.label}: a viewer's copy cannot be continued (its host plays it)"
                )
            self._not_copies.add(game_id)  # spares every later action of this service the query

    def legal_actions(self, game_id: UUID, player: str | None = None) -> list[Action]:
        """Lists the actions open now, to one player or to everybody."""
        return open_actions(self.playable_game(game_id), player)

    def recorded_events(
        self, game_id: UUID, gt: int | None = None, lte: int | None = None
    ) -> list[RecordedEvent]:
        """Returns a game's stored events (all, or those after `gt` up to `lte`)."""
        envelopes = self._envelopes(game_id, gt, lte)
        if not envelopes and gt is None:
            raise UnknownGame(f"no game {game_id} in this store")
        return [recorded_from_envelope(version, e) for version, e in envelopes]

    def head(self, game_id: UUID) -> tuple[int, bytes]:
        """Returns how many events a game has stored and the chain value of its last ((0, the genesis
        value) for a game it does not hold), reading one row on a SQL store."""
        recorder, mapper, fallback, *_ = self._read_args(game_id, None, None)
        last = read_last(recorder, mapper, fallback, game_id)
        return (last[0], last[1]["chain"]) if last else (0, GENESIS_CHAIN)

    def verified_events(self, game_id: UUID) -> list[RecordedEvent]:
        """Returns all of a game's events after checking their hash chain end to end."""
        events = self.recorded_events(game_id)
        check_chain(events, f"game {game_id}")
        return events

    def _envelopes(self, game_id: UUID, gt: int | None, lte: int | None) -> list[tuple[int, dict[str, Any]]]:
        return read_envelopes(*self._read_args(game_id, gt, lte))

    def _states(self, game_id: UUID, gt: int | None, lte: int | None) -> Iterable[dict[str, Any]]:
        # As _envelopes, without the versions: what a fold reads.
        return read_states(*self._read_args(game_id, gt, lte))

    def _read_args(self, game_id: UUID, gt: int | None, lte: int | None) -> tuple[Any, ...]:
        # Versions past any game's are clamped: a store's integers are 64-bit (SQLite would overflow).
        gt = None if gt is None else max(0, min(gt, MAX_EVENTS))
        lte = None if lte is None else max(0, min(lte, MAX_EVENTS))
        fallback = lambda: list(self.events.get(game_id, gt=gt, lte=lte))  # noqa: E731  (in memory, a cipher)
        return self.recorder, self.mapper, fallback, game_id, gt, lte

    def log_entries(self, game_id: UUID) -> list[RawEntry]:
        """Returns a game's stored events as recorded, without trusting or decoding them (for audits)."""
        from domain.audit import RawEntry  # the auditor loads only for audits, not for every command

        envelopes = self._envelopes(game_id, None, None)
        if not envelopes:
            raise UnknownGame(f"no game {game_id} in this store")
        return [RawEntry(version, e["type"], e["v"], e["fields"], e["chain"]) for version, e in envelopes]

    def audit(self, game_id: UUID) -> AuditReport:
        """Audits a stored game: chain, fork copies, content, rules and dice."""
        from domain.audit import audit_log

        report = audit_log(self.log_entries(game_id))
        report.game = str(game_id)
        return report

    def fold(self, game_id: UUID, version: int | None = None, *, use_snapshot: bool = True) -> GameFold:
        """Rebuilds a game's state from its events (up to `version`) without the aggregate: from the
        newest snapshot at or before `version` and the events after it, or (`use_snapshot=False`)
        from every event."""
        fold = GameFold()
        if use_snapshot and self.snapshots is not None:
            fold = fold_from_snapshot(self.snapshots, game_id, version)
        fold.rewind_source = self._rewinder(game_id)
        with paused_collector():  # ~10% of a long rebuild
            fold_envelopes(fold, self._states(game_id, fold.version or None, version))
        if not fold.version:
            raise UnknownGame(f"no game {game_id} in this store")
        if version is not None and fold.version != version:
            raise UsageError(f"game {game_id} has only {fold.version} events")
        return fold

    def fold_as(self, game_id: UUID, viewer: str | None, version: int | None = None) -> GameFold:
        """Rebuilds a game's state (up to `version`) as a viewer may see it: other seats' private events
        sealed (None: the public; HOST: everything, as `fold`), from that viewer's newest snapshot and
        the events after it; a viewer with no seat in the game is refused."""
        if viewer == HOST:
            return self.fold(game_id, version)
        seen_as = PUBLIC if viewer is None else viewer
        fold = fold_as(self.snapshots, partial(self._envelopes, game_id), game_id, seen_as, version)
        if not fold.version:
            raise UnknownGame(f"no game {game_id} in this store")
        if viewer is not None:
            resolve_viewer(viewer, fold.meta["players"])
        if version is not None and fold.version != version:
            raise UsageError(f"game {game_id} has only {fold.version} events")
        return fold

    def resolve_game_id(self, text: str) -> UUID:
        """Parses a game id given on the command line: the whole id or a unique prefix of it (see
        `event_store.app.game_ids`); a replica takes the game's id for its one copy of the game."""
        from event_store.app.game_ids import resolve_game_id

        return resolve_game_id(self.recorder, self.copies, text)


def play_with_bots(
    service: GameService,
    game_id: UUID,
    seed: int | str | None = None,
    max_actions: int = 100_000,
    on_action: Callable[[Game, Action, list[RecordedEvent]], None] | None = None,
) -> int:
    """Lets seeded bots take every remaining action until the game ends; returns how many they took.

    `on_action` sees the game after each action, the action the bot chose and the events it recorded.
    """
    from domain.bots import Bot

    bot = Bot(seed if seed is not None else str(game_id))
    taken = 0
    game = service.get_game(game_id)
    if game.meta["actions"] == 0:
        raise IllegalAction("the game has not started yet: the host starts it (nightkeep start GAME)")
    if game.status["status"] == STOPPED:
        raise GameOver(STOPPED_MESSAGE)
    bound_for_bots(service, game)
    finished = game.is_finished
    while not finished and taken < max_actions:
        acted = service.take_bot_action(game_id, bot)
        finished = acted.is_finished
        taken += 1
        if on_action is not None:
            on_action(service.get_game(game_id), acted.action, acted.recorded)
    return taken


def bound_for_bots(service: GameService, game: Game) -> None:
    """Turns on the house round cap in a game bots are about to finish, if it was created without it (a
    game over already is left as it is)."""
    if is_uncapped(game) and not game.is_finished:
        # house rule H6.1: a game bots finish ends by the house round cap at the latest; one created
        # without it gets it now, recorded in its log so a replay and the audit see it too.
        capped = service.cap_bot_rounds(game.id)
        log.info("bot_round_cap_set", game=str(game.id), rounds=capped.rounds, why="bots finish the game")


def _take(
    game: Game,
    seed: bytes,
    player: str,
    action_id: str,
    dice: Dice | None = None,
    nonce: bytes = b"",
    auth: str = "",
    signature: bytes = b"",
) -> None:
    """Takes one action with the dice of its turn (its per-turn key released with it), then commits the
    key chain's next segment when this action ended one."""
    game.take_action(
        player,
        action_id,
        dice or game.dice(seed, nonce),
        nonce,
        auth,
        signature,
        dice_key=game.turn_key(seed),
    )
    game.commit_dice_chain(seed)
