"""The errors nightkeep raises; the CLI maps each to a one-line message and an exit code."""

from __future__ import annotations


class NightkeepError(Exception):
    """Base of every error nightkeep raises on purpose."""

    exit_code = 2


class UsageError(NightkeepError, ValueError):
    """Raised when a request is malformed: a bad player spec, an unknown option, a bad value."""


class UnreadableLog(UsageError):
    """Raised when bytes offered as a log are not one: too large, not msgpack, another format or
    version, truncated, or with a malformed header or event entry."""


class UnknownRuleset(UsageError):
    """Raised when no ruleset is registered under the requested name."""


class UnknownCharacter(UsageError):
    """Raised when a player asks for a character the ruleset does not have."""


class BadSetup(UsageError):
    """Raised when a game cannot be set up as asked (player count, duplicate names, options)."""


class ContentError(NightkeepError, ValueError):
    """Raised when a content file (board, deck, table) is missing, malformed or inconsistent."""


class UnknownGame(NightkeepError, LookupError):
    """Raised when no game with the given id is in the store."""


class RuleViolation(NightkeepError, ValueError):
    """Base of the errors a rule raises when it refuses an action."""

    exit_code = 1


class IllegalAction(RuleViolation):
    """Raised when an action is not among the legal actions of the game's current state."""


class NotYourTurn(RuleViolation):
    """Raised when a player tries to act while the game waits on somebody else."""


class GameOver(RuleViolation):
    """Raised when an action is attempted on a game that has ended."""


class NotSigned(RuleViolation):
    """Raised when an action or entropy does not come authenticated as its seat requires (a seat bound
    to a key acts only by signed packet)."""


class BadPacket(UsageError):
    """Raised when a play-by-e-mail packet is refused: unreadable, damaged, forged, for another game or
    seat, replayed or out of order; the store is unchanged."""


class StaleVersion(RuleViolation):
    """Raised when the game moved on since the caller read it (an optimistic-concurrency loss)."""


class ImportConflict(NightkeepError, ValueError):
    """Raised when a file holds a game the store already has, with a different history."""

    exit_code = 1


class SeedNotHeld(RuleViolation):
    """Raised when this store does not hold a game's dice seed (an imported game): only its host can
    roll for it."""


class CorruptStore(NightkeepError, ValueError):
    """Raised when the store holds something unreadable (a damaged event, a missing seed)."""


class DiceScriptExhausted(NightkeepError, RuntimeError):
    """Raised when scripted dice are asked for more values than the script holds."""


class TamperedLog(NightkeepError, ValueError):
    """Raised when a hash chain or a commitment does not match what was recorded."""

    exit_code = 1


class StoreUnavailable(NightkeepError, OSError):
    """Raised when a store's server cannot be reached or refuses the connection."""

    exit_code = 3


class MissingLibrary(NightkeepError, RuntimeError):
    """Raised when a library a feature needs cannot be loaded (the system's cairo, for PNG pictures)."""

    exit_code = 3
