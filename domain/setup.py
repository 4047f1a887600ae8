"""Setting a game up: who may sit at it, what it may be given, and how a game records its setup.

The service checks a setup with these before a game is made, and the audit checks a recorded one with
the same functions, so no door takes a setup the other would refuse.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from domain.actions import HOST
from domain.errors import BadSetup
from domain.field_types import Seat
from domain.game_meta import GameMeta
from domain.rulesets import Ruleset
from domain.suggest import did_you_mean

# From this version on a game records every event at its type's current class version and its seats as
# the ruleset writes them (`canonical_setup`), so a log says each thing one way: an older log may hold
# older shapes (upcast when read) and seats and options as typed.
CANONICAL_SINCE = (0, 2, 0)
# Class versions raised since then (type → the nightkeep version that raised it, the class version games
# recorded before it): a game records each event at the class version of the nightkeep that made it.
# Each type's raises in order.
RAISED_SINCE_CANONICAL: dict[str, tuple[tuple[tuple[int, ...], int], ...]] = {
    "GameCreated": (((0, 3, 0), 2),),  # seat keys and the host key, for play by e-mail
    # how the player was authenticated, and the signature; then the per-turn dice key and the chain
    # value a signed action was signed on
    "ActionTaken": (((0, 3, 0), 1), ((0, 4, 0), 2)),
    "EntropyAdded": (((0, 3, 0), 1),),  # the signature
}
# From this version on a game draws its public dice with per-turn keys (DiceChainCommitted).
TURN_KEYS_SINCE = (0, 4, 0)


def recorded_class_version(type_name: str, current: int, recorded_by: tuple[int, ...]) -> int:
    """Returns the class version a game made by nightkeep `recorded_by` records an event type at."""
    for since, before in RAISED_SINCE_CANONICAL.get(type_name, ()):
        if recorded_by < since:
            return before
    return current


MAX_NAME_LENGTH = 32
# Bytes a player may give as entropy or as an action's nonce (the one reader takes byte strings up to
# 4 KiB, so every game stored can be read back).
MAX_PLAYER_BYTES = 1024


def check_seat_names(names: Iterable[str]) -> None:
    """Raises BadSetup for a player name that could be mistaken for a card, an id or the host."""
    for name in names:
        if name != name.strip() or not name or not name.isprintable() or len(name) > MAX_NAME_LENGTH:
            raise BadSetup(f"player name {name!r} must be 1-{MAX_NAME_LENGTH} printable characters")
        if "/" in name or ":" in name:
            raise BadSetup(f"player name {name!r} may not contain '/' or ':' (they mark card and action ids)")
        if name.casefold() == HOST:
            raise BadSetup(f"player name {name!r} is reserved for the host")


def check_setup(
    ruleset: Ruleset[Any], seats: Sequence[Seat], options: dict[str, str], dice_script: Sequence[int]
) -> None:
    """Raises a UsageError subclass for a game the rules cannot set up: seat names, the ruleset's own
    seats and options, and scripted die faces (1 to 6)."""
    check_seat_names(seat["name"] for seat in seats)
    ruleset.validate_setup([dict(seat) for seat in seats], dict(options))
    if any(not 1 <= face <= 6 for face in dice_script):
        raise BadSetup("scripted dice faces must be between 1 and 6")


def version_of(text: str) -> tuple[int, ...] | None:
    """Returns a nightkeep version string as numbers (`0.2.0` → (0, 2, 0)), None if it is not one."""
    parts = text.split(".")
    if not 1 <= len(parts) <= 4 or not all(p.isdecimal() and len(p) <= 6 for p in parts):
        return None
    return tuple(int(p) for p in parts)


def entropy_problem(meta: GameMeta, player: str) -> str:
    """Says why a player may not add entropy now ("" when they may): only a seated player, and only
    before the first draw (later entropy would let its giver steer the dice)."""
    if player not in meta["players"]:
        hint = did_you_mean(player, meta["players"])
        return f"no player {player!r:.40} in this game (players: {', '.join(meta['players'])}){hint}"
    if meta["next_draw"] > 0 or meta["actions"] > 0:
        return "entropy can only be added before the first draw"
    return ""
