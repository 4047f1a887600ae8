"""The audit's dice: each draw an action's re-decision asks for is given the outcome the log recorded,
and checked against the seed (or the dice script) when it is known; plus where a log makes seeds public.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from domain.dice import (
    chain_anchor,
    commit_to_seed,
    draw_prefix,
    draw_salt,
    draw_value_keyed,
    hmac_key,
    owner_key,
    private_key,
)
from domain.events import DiceChainCommitted, Event, ForkedFrom, SeedCommitted, SeedRevealed
from domain.game_meta import GameMeta


class AuditDice:
    """Dice that give the rules the recorded outcome of each draw, and check it against the seed.

    `recorded` maps draw numbers to what the log says they gave (a die face or a picked id). When the
    seed is known (or a die face is scripted), each draw is also recomputed and any difference is kept
    in `mismatches` as (draw, recorded, recomputed).
    """

    def __init__(
        self,
        recorded: dict[int, Any],
        seed: bytes | None,
        meta: GameMeta,
        nonce: bytes,
        key: tuple[Any, Any] | None = None,
        turn_key: bytes = b"",
        private_keys: dict[str, bytes] | None = None,
    ) -> None:
        self._recorded = recorded
        self._seed = seed
        self._pool = meta["pool"]
        self._nonce = nonce
        self._prefix = draw_prefix(self._pool, nonce)
        # The seed's HMAC key made ready: an audit passes the one it made for the game's seed. Private
        # picks and salts draw with it; public dice and picks with the action's per-turn key, if any.
        self._seed_key = key if key is not None or seed is None else hmac_key(seed)
        # The turn's key is keyed into HMAC at its first public draw: most actions draw nothing.
        self._key: Any = None if turn_key else self._seed_key
        # A seat's private draws: its private dice key mixed with the turn's key (where this copy holds
        # the key, or the seed gives it); the seed in a game without per-turn keys.
        self._owners = (
            {o: owner_key(k, turn_key) for o, k in (private_keys or {}).items()} if turn_key else {}
        )
        self._turn_key = turn_key
        self.next_draw: int = meta["next_draw"]
        self._script: list[int] = meta["script"]
        self.script_pos: int = meta["script_pos"]
        self.mismatches: list[tuple[int, Any, Any]] = []
        self.checked = 0
        self.used = 0

    def _take(self) -> tuple[int, Any]:
        """Takes the next draw number; returns it and what the log recorded for it (None if nothing)."""
        draw = self.next_draw
        self.next_draw += 1
        self.used += 1
        return draw, self._recorded.get(draw)

    def _compare(self, draw: int, recorded: Any, expected: Any) -> None:
        """Counts a draw the seed (or script) decides, and keeps it if the log recorded something else."""
        if expected is None:
            return
        self.checked += 1
        if recorded is not None and recorded != expected:
            self.mismatches.append((draw, recorded, expected))

    def roll(self, sides: int = 6, count: int = 1) -> tuple[list[int], list[int]]:
        """Rolls with the recorded faces, checking each against the seed or the script."""
        values: list[int] = []
        first = self.next_draw
        end = first + max(count, 0)
        recorded_of, script, key = self._recorded, self._script, self._public_key()
        # _take and _compare inlined, the counters kept in locals: every die of every audit comes here.
        for draw in range(first, end):
            recorded = recorded_of.get(draw)
            expected: int | None = None
            if self.script_pos < len(script):
                expected = script[self.script_pos]
                self.script_pos += 1
            elif key is not None:
                expected = draw_value_keyed(key, self._prefix, draw, sides) + 1
            if expected is not None:
                self.checked += 1
                if recorded is not None and recorded != expected:
                    self.mismatches.append((draw, recorded, expected))
            value = recorded if isinstance(recorded, int) and 1 <= recorded <= sides else expected
            values.append(value if value is not None else 1)
        self.next_draw = end
        self.used += end - first
        return values, list(range(first, end))

    def _public_key(self) -> Any:
        """Returns the HMAC key of this action's public draws (the turn's key, else the seed's), or None
        when neither is known."""
        if self._key is None and self._turn_key:
            self._key = hmac_key(self._turn_key)
        return self._key

    def _private_key(self, owner: str) -> bytes | None:
        """Returns the key of `owner`'s private draws in this action, or None when it cannot be known."""
        if self._turn_key and owner:
            return self._owners.get(owner)
        return self._seed

    def salt(self, owner: str = "") -> tuple[bytes, int]:
        """Gives the recorded salt, checking it against its owner's key (or the seed)."""
        draw, recorded = self._take()
        expected = None
        key = self._private_key(owner)
        if key is not None:
            expected = draw_salt(key, self._pool, self._nonce, draw)
        self._compare(draw, recorded, expected)
        if isinstance(recorded, bytes):
            return recorded, draw
        return (expected if expected is not None else bytes(32)), draw

    def pick(self, options: Sequence[str], owner: str = "") -> tuple[str, int]:
        """Picks the recorded option, checking it against the turn's key (a private pick: the seed)."""
        draw, recorded = self._take()
        expected = None
        if owner:
            private = self._private_key(owner)
            key = hmac_key(private) if private is not None else None
        else:
            key = self._public_key()
        if key is not None:
            expected = options[draw_value_keyed(key, self._prefix, draw, len(options))]
        self._compare(draw, recorded, expected)
        if isinstance(recorded, str) and recorded in options:
            return recorded, draw
        return (expected if expected is not None else options[0]), draw


def recorded_draws(events: Sequence[Event]) -> dict[int, Any]:
    """Returns what each draw gave according to these events (a later event's record stands)."""
    outcomes: dict[int, Any] = {}
    for event in events:
        drawn = event.drawn
        if not drawn:
            continue  # most consequences record no draw
        for outcome_field, draw_field in drawn:
            values, draws = getattr(event, outcome_field), getattr(event, draw_field)
            if type(draws) is int:  # one pick (a bool goes the general way, as an int would)
                if draws >= 0:
                    outcomes[draws] = values
                continue
            if not isinstance(draws, list):
                values, draws = [values], [draws]
            for draw, value in zip(draws, values, strict=False):  # the rules judge a short list
                if isinstance(draw, int) and draw >= 0:
                    outcomes[draw] = value
    return outcomes


def drawn_at(first: int, events: Sequence[Event], draw: int) -> int | None:
    """Returns the version of the event that records draw `draw` (the first event is `first`): asked
    only for a draw the seed contradicts, so the common path keeps no such map."""
    found = None
    for version, event in enumerate(events, start=first):
        for outcome_field, draw_field in event.drawn:
            draws = getattr(event, draw_field)
            if type(draws) is not list:
                draws = [draws]
            values = getattr(event, outcome_field)
            count = min(len(draws), len(values)) if type(values) is list else 1
            if draw in draws[:count]:
                found = version
    return found


def private_keys_of(meta: GameMeta, seed: bytes | None) -> dict[str, bytes]:
    """Returns the private dice keys an audit can use: those the copy holds, and every seat's once the
    seed is public."""
    keys = dict(meta.get("private_keys") or {})
    if seed is not None and meta.get("private_draws"):
        for owner in meta["players"]:
            keys.setdefault(owner, private_key(seed, owner))
    return keys


def anchor_problems(events: Sequence[Event]) -> list[tuple[int, str]]:
    """Checks every key chain anchor committed under a seed the log makes public against that seed (its
    root for the segment, hashed CHAIN_LINKS times); returns (version, finding) for each that is not."""
    seeds = seeds_by_commitment(events)
    problems: list[tuple[int, str]] = []
    commitment = b""
    for version, event in enumerate(events, start=1):
        if type(event) is SeedCommitted:
            commitment = event.commitment
        elif type(event) is DiceChainCommitted:
            seed = seeds.get(commitment)
            if seed is not None and isinstance(event.segment, int) and event.segment >= 0:
                if chain_anchor(seed, event.segment) != event.anchor:
                    problems.append(
                        (version, f"the key chain anchor at event {version} does not come from the seed")
                    )
    return problems


def seeds_by_commitment(events: Iterable[Event]) -> dict[bytes, bytes]:
    """Returns every seed a log makes public, by the commitment it opens."""
    return {commit_to_seed(seed): seed for seed in revealed_seeds(events)}


def revealed_seeds(events: Iterable[Event]) -> list[bytes]:
    """Returns every seed a log makes public: its own reveals and the originals' seeds its forks name."""
    seeds: list[bytes] = []
    for event in events:
        if type(event) not in _SEED_TYPES:
            continue
        assert isinstance(event, SeedRevealed | ForkedFrom)
        if isinstance(event.seed, bytes) and event.seed:
            seeds.append(event.seed)
    return seeds


# The events that can name a seed (no event type subclasses another: the exact type says what
# isinstance would, one set lookup for every event of every audit).
_SEED_TYPES = frozenset({SeedRevealed, ForkedFrom})
