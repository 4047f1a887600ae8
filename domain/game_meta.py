"""What a game keeps beside its ruleset's state (`GameMeta`: its dice, seats, keys and lineage) and what
every fold step reads and writes of the game it folds into (`GameHolder`: a Game or a GameFold).

`meta` is stored as it is in every snapshot (a msgpack map), so it stays a plain dict: the TypedDict only
names its keys and their types. Keys marked NotRequired are set by some events only, and a snapshot
taken before they existed lacks them: readers ask `meta.get(...)`.
"""

# Without `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations,
# so GameMeta.__required_keys__ says which keys every game has (tests/domain/test_game_meta.py).
from typing import Any, NotRequired, Protocol, TypedDict

from domain.dice import EMPTY_POOL
from domain.rulesets.base import Ruleset


class ClubMeta(TypedDict):
    """The part of a game's meta a club's rules read (domain.club), which the signature audit keeps
    alone as the log goes."""

    keys: dict[str, bytes]  # each seat's public key, whose signature its actions need (none in a fork)
    # A game played by e-mail: its deadline, lapsed turns, absences, observers, a pending rollback…
    # (domain.club's fold keeps it; a rollback leaves it as it is).
    club: NotRequired[dict[str, Any]]


class GameMeta(ClubMeta):
    """The bookkeeping every game keeps besides its ruleset state (see docs/replay-format.md)."""

    commitment: bytes  # sha256 of the secret seed the draws come from (SeedCommitted; a fork's own)
    pool: bytes  # the players' entropy mixed so far (EntropyAdded): part of every draw
    next_draw: int  # the number of the next draw (each die roll and pick consumes numbered draws)
    script: list[int]  # a scripted game's die faces (`--dice`), which rolls use first
    script_pos: int  # how many of the scripted faces rolls have used
    seed: bytes  # the seed once revealed (SeedRevealed); empty while it is secret
    actions: int  # actions taken (ActionTaken): the next action's number is one more
    players: list[str]  # the seats' names, in seating order
    forked_from: list[dict[str, Any]]  # the games this one continues: {"game": id, "version": n} each
    options: dict[str, str]  # the game's options as recorded: its ruleset object is built from them
    anchors: dict[str, bytes]  # per-turn dice keys: each key-chain segment's anchor, by str(segment)
    link: list[Any]  # the last per-turn key an action released: [segment, link, key] ([] none yet)
    made_by: list[int]  # the nightkeep version that made the game: the class versions it records
    private_keys: dict[str, bytes]  # the private dice keys this copy holds unsealed, by seat
    dealt: list[str]  # every seat dealt a private dice key (sealed or not), in the order dealt
    hosted: NotRequired[bool]  # a host key was recorded (not a fork): keyed seats must sign
    commit_chain: NotRequired[bytes]  # the chain at the seed's commitment: where entropy is signed
    private_draws: NotRequired[bool]  # its ruleset draws in private (Ruleset.private_draws)


def new_meta() -> GameMeta:
    """Returns the bookkeeping every game keeps besides its ruleset state."""
    return {
        "commitment": b"",
        "pool": EMPTY_POOL,
        "next_draw": 0,
        "script": [],
        "script_pos": 0,
        "seed": b"",
        "actions": 0,
        "players": [],
        "forked_from": [],
        "keys": {},
        "options": {},
        "anchors": {},
        "link": [],
        "made_by": [],
        "private_keys": {},
        "dealt": [],
    }


class GameHolder(Protocol):
    """What a fold step reads and writes of the game it folds into (`domain.game.apply_event`): a Game
    aggregate or a GameFold."""

    ruleset_name: str  # "" before GameCreated
    ruleset: Ruleset[Any]  # built from the game's options (NO_RULESET before GameCreated)
    meta: GameMeta
    state: dict[str, Any]  # the ruleset's state (its TypedDict, a plain dict)
    chain: bytes  # the chain value of the last event folded


class ClubHolder(Protocol):
    """What the club's fold steps for keys and lapsed turns read and write: a game's meta, or the keys
    the signature audit keeps as the log goes (domain.audit.signatures)."""

    @property
    def meta(self) -> ClubMeta:
        """The game's meta (or only its club part)."""
