"""Provably fair dice: numbered HMAC-SHA256 draws from a committed seed, and scripted dice for tests.

Draw n of a game is HMAC-SHA256(key=seed, msg=pool ‖ u32be(len(nonce)) ‖ nonce ‖ u64be(n) ‖ u32be(k)),
read as a big-endian 256-bit integer x, for k = 0, 1, … until x < 2**256 - (2**256 mod r); the result
is x mod r. Rejection (vanishingly rare) keeps the mapping free of modulo bias without using another
draw number. `pool` starts as 32 zero bytes and becomes sha256(pool ‖ value) for each EntropyAdded.
Only this module touches randomness.

Per-turn keys (games made by nightkeep 0.4.0 or later): every action draws its public dice and picks with
a key of its own instead of the seed, the next link of a hash chain the host committed to before anyone
chose the nonce that action draws with (S/KEY, Lamport 1981). The chain is cut into segments of
`CHAIN_LINKS` links: segment s's root is HMAC-SHA256(seed, "nightkeep-dice-chain" ‖ u64be(s)), link j
(1…CHAIN_LINKS) is sha256 applied CHAIN_LINKS − j times to the root, and the segment's anchor (link 0)
is sha256 applied CHAIN_LINKS times, published as `DiceChainCommitted`. Action number i (from 1) uses
segment (i − 1) // CHAIN_LINKS, link (i − 1) % CHAIN_LINKS + 1, released in its ActionTaken: anyone can
check it hashes to the link before it, nobody can compute the next one before the host releases it, and
once the seed is revealed every anchor is checked against it. Private draws (hands, salts) keep the seed.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import importlib
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from domain.errors import DiceScriptExhausted

try:
    from _hashlib import hmac_new as _openssl_hmac
except ImportError:  # a Python built without OpenSSL: hmac's own
    _openssl_hmac = None  # type: ignore[assignment]

EMPTY_POOL = bytes(32)
_SPACE = 1 << 256
_LIMITS: dict[int, int] = {}  # the rejection limit of each bound asked for: a few 256-bit divisions less


# Links per segment of the per-turn key chain: computing a link from its segment's root costs at most
# this many sha256 (about 1 ms), and a segment's anchor is committed a whole segment before it is used.
CHAIN_LINKS = 1024
CHAIN_ROOT = b"nightkeep-dice-chain"


def new_seed() -> bytes:
    """Returns a fresh secret 32-byte seed from the operating system's generator."""
    return secrets.token_bytes(32)


def commit_to_seed(seed: bytes) -> bytes:
    """Returns the public commitment to a seed: its sha256."""
    return hashlib.sha256(seed).digest()


def mix_entropy(pool: bytes, value: bytes) -> bytes:
    """Mixes a player's entropy into the pool: sha256(pool ‖ value)."""
    return hashlib.sha256(pool + value).digest()


def chain_root(seed: bytes, segment: int) -> bytes:
    """Returns the secret root of one segment of a game's per-turn key chain."""
    return hmac.digest(seed, CHAIN_ROOT + segment.to_bytes(8, "big"), "sha256")


def _small_sha256() -> Callable[[bytes], Any]:
    """Returns CPython's own sha256 (`_sha256`, named `_sha2` since 3.12), else hashlib's (OpenSSL's)."""
    for name in ("_sha2", "_sha256"):
        try:
            made: Callable[[bytes], Any] = importlib.import_module(name).sha256
        except (ImportError, AttributeError):
            continue
        return made
    return hashlib.sha256


# Hashing 32 bytes, CPython's own sha256 costs about 45% less than OpenSSL's (whose per-call context
# set-up is most of it): an audit hashes 1,024 times per key chain segment (anchor_problems).
_sha256_of_link = _small_sha256()


def hash_times(value: bytes, times: int) -> bytes:
    """Applies sha256 `times` times."""
    sha256 = _sha256_of_link
    for _ in range(times):
        value = sha256(value).digest()
    return value


def chain_anchor(seed: bytes, segment: int) -> bytes:
    """Returns the public anchor (link 0) of a segment of the per-turn key chain."""
    return hash_times(chain_root(seed, segment), CHAIN_LINKS)


def chain_place(action: int) -> tuple[int, int]:
    """Returns (segment, link) of the per-turn key of action number `action` (from 1)."""
    return (action - 1) // CHAIN_LINKS, (action - 1) % CHAIN_LINKS + 1


def turn_key(seed: bytes, action: int) -> bytes:
    """Returns the per-turn key of action number `action` (from 1): its link of the chain."""
    segment, link = chain_place(action)
    return _segment_links(seed, segment, CHAIN_LINKS)[link]


@functools.lru_cache(maxsize=8)
def _segment_links(seed: bytes, segment: int, links: int) -> tuple[bytes, ...]:
    """Returns every link of one segment, link j at index j: made once (about a millisecond) for the
    host's games in play, instead of hashing down from the root at every action."""
    chain = [chain_root(seed, segment)]
    sha256 = _sha256_of_link
    for _ in range(links):
        chain.append(sha256(chain[-1]).digest())
    return tuple(reversed(chain))


PRIVATE_KEY = b"nightkeep-private-dice\x00"
PRIVATE_SALT = b"nightkeep-private-salt\x00"


def private_key(seed: bytes, owner: str) -> bytes:
    """Returns a seat's private dice key (dealt to it sealed): HMAC(seed, "nightkeep-private-dice" ‖ 0x00 ‖
    UTF-8(owner))."""
    return hmac.digest(seed, PRIVATE_KEY + owner.encode(), "sha256")


def private_salt(seed: bytes, owner: str) -> bytes:
    """Returns the salt of a seat's sealed DiceKeyDealt: HMAC(seed, "nightkeep-private-salt" ‖ 0x00 ‖
    UTF-8(owner))."""
    return hmac.digest(seed, PRIVATE_SALT + owner.encode(), "sha256")


def owner_key(key: bytes, turn: bytes) -> bytes:
    """Returns the key a seat's private draws of one action are made with: HMAC(its private key, the
    turn's key), so the seat can check them once the turn's key is out, and not foresee them before."""
    return hmac.digest(key, turn, "sha256")


def draw_value(seed: bytes, pool: bytes, nonce: bytes, draw: int, bound: int) -> int:
    """Computes draw number `draw` as an unbiased integer in [0, bound)."""
    return draw_value_after(seed, draw_prefix(pool, nonce), draw, bound)


def draw_prefix(pool: bytes, nonce: bytes) -> bytes:
    """Returns what every draw message of one action starts with: pool ‖ u32be(len(nonce)) ‖ nonce."""
    return pool + len(nonce).to_bytes(4, "big") + nonce


def _limit(bound: int) -> int:
    """Returns the largest multiple of `bound` that a 256-bit draw value must stay under (above it the
    draw is biased and is redrawn with the next counter)."""
    limit = _LIMITS.get(bound)
    if limit is None:
        if bound <= 0:
            raise ValueError("a draw needs at least one outcome")
        limit = _LIMITS[bound] = _SPACE - (_SPACE % bound)
    return limit


def draw_value_after(seed: bytes, action_prefix: bytes, draw: int, bound: int) -> int:
    """Computes draw number `draw` as an unbiased integer in [0, bound), given the action's
    `draw_prefix` (an audit makes it once per action, not once per draw)."""
    limit = _limit(bound)
    prefix = action_prefix + draw.to_bytes(8, "big")
    k = 0
    while True:
        digest = hmac.digest(seed, prefix + k.to_bytes(4, "big"), "sha256")
        x = int.from_bytes(digest, "big")
        if x < limit:
            return x % bound
        k += 1


def hmac_key(seed: bytes) -> Any:
    """Returns the seed keyed into an HMAC-SHA256 object, for `draw_value_keyed`: copying it costs a
    third less than `hmac.digest` keying the seed afresh on every draw an audit checks."""
    # OpenSSL's HMAC object itself where hashlib has it: `hmac.HMAC` wraps the same one, and its
    # copy, update and digest are Python calls around it (about 40% of a draw's cost).
    if _openssl_hmac is not None:
        return _openssl_hmac(seed, digestmod="sha256")
    return hmac.new(seed, digestmod="sha256")


def draw_value_keyed(key: Any, action_prefix: bytes, draw: int, bound: int) -> int:
    """Computes what `draw_value_after` does, from the seed's `hmac_key` (made once per audit)."""
    limit = _LIMITS.get(bound) or _limit(bound)
    prefix = action_prefix + draw.to_bytes(8, "big")
    mac = key.copy()
    mac.update(prefix + _FIRST_COUNTER)
    x = int.from_bytes(mac.digest(), "big")
    k = 1
    while x >= limit:  # rejected (vanishingly rare): redrawn with the next counter
        mac = key.copy()
        mac.update(prefix + k.to_bytes(4, "big"))
        x = int.from_bytes(mac.digest(), "big")
        k += 1
    return x % bound


_FIRST_COUNTER = (0).to_bytes(4, "big")


# Ends a salt draw's message: 5 bytes where a die or pick message has a 4-byte counter, so the two kinds
# of draw never share an HMAC input.
SALT_SUFFIX = b"salt\x00"


def draw_salt(seed: bytes, pool: bytes, nonce: bytes, draw: int) -> bytes:
    """Computes draw number `draw` as 32 secret bytes (a salt for a commitment to a private value):
    HMAC-SHA256(seed, pool ‖ u32be(len(nonce)) ‖ nonce ‖ u64be(n) ‖ "salt" ‖ 0x00)."""
    prefix = pool + len(nonce).to_bytes(4, "big") + nonce + draw.to_bytes(8, "big")
    return hmac.digest(seed, prefix + SALT_SUFFIX, "sha256")


class Dice(Protocol):
    """What `decide` may ask of chance: die rolls and picks among options, each a numbered draw."""

    def roll(self, sides: int = 6, count: int = 1) -> tuple[list[int], list[int]]:
        """Rolls `count` dice with `sides` faces; returns (faces, draw numbers)."""
        ...

    def pick(self, options: Sequence[str], owner: str = "") -> tuple[str, int]:
        """Picks one of `options` (in the given order) at random; returns (option, draw number). A pick
        for a private event names its `owner`: it is drawn with the secret seed, not the turn's key."""
        ...

    def salt(self, owner: str = "") -> tuple[bytes, int]:
        """Draws 32 secret bytes to salt a commitment of `owner`'s private event (never with the turn's
        public key); returns (salt, draw number)."""
        ...


class HmacDice:
    """The fair dice of a game: HMAC draws numbered from the game's draw counter.

    A scripted game (`--dice 3,5,1`) takes its die faces from the script first, still numbering the
    draws, and falls back to fair draws once the script is used up; picks are always fair draws.
    """

    def __init__(
        self,
        seed: bytes,
        pool: bytes = EMPTY_POOL,
        nonce: bytes = b"",
        next_draw: int = 0,
        script: Sequence[int] = (),
        script_pos: int = 0,
        key: bytes = b"",
        private_keys: dict[str, bytes] | None = None,
    ) -> None:
        self._seed = seed
        # The turn's key draws the public dice and picks (the seed itself in a game without one); a
        # seat's private draws are made with its private key mixed with the turn's key.
        self._key = key or seed
        self.turn_key = key  # the action's per-turn key, released in its ActionTaken
        self._private = {o: owner_key(k, key) for o, k in (private_keys or {}).items()} if key else {}
        self._pool = pool
        self._nonce = nonce
        self.next_draw = next_draw
        self._script = list(script)
        self.script_pos = script_pos

    def _take(self, bound: int, owner: str = "") -> tuple[int, int]:
        draw = self.next_draw
        self.next_draw += 1
        return draw_value(self._key_of(owner), self._pool, self._nonce, draw, bound), draw

    def _key_of(self, owner: str) -> bytes:
        """Returns the key a draw is made with: the turn's for a public one, the owner's for a private
        one (the seed in a game without per-turn keys, or for a private draw of nobody's)."""
        if not owner:
            return self._key
        return self._private.get(owner, self._seed)

    def roll(self, sides: int = 6, count: int = 1) -> tuple[list[int], list[int]]:
        """Rolls `count` dice with `sides` faces; returns (faces, draw numbers)."""
        values: list[int] = []
        draws: list[int] = []
        for _ in range(count):
            value, draw = self._take(sides)
            if self.script_pos < len(self._script):
                value = self._script[self.script_pos] - 1
                self.script_pos += 1
            values.append(value + 1)
            draws.append(draw)
        return values, draws

    def pick(self, options: Sequence[str], owner: str = "") -> tuple[str, int]:
        """Picks one of `options` at random; returns (option, draw number)."""
        index, draw = self._take(len(options), owner)
        return options[index], draw

    def salt(self, owner: str = "") -> tuple[bytes, int]:
        """Draws 32 secret bytes to salt a commitment; returns (salt, draw number)."""
        draw = self.next_draw
        self.next_draw += 1
        key = self._private.get(owner, self._seed)
        return draw_salt(key, self._pool, self._nonce, draw), draw


class ScriptedDice:
    """Test dice: faces and picked cards come from scripts, in order; running out is an error."""

    def __init__(self, values: Sequence[int] = (), cards: Sequence[str] = (), next_draw: int = 0) -> None:
        self._values = list(values)
        self._cards = list(cards)
        self.next_draw = next_draw

    @property
    def unused(self) -> tuple[list[int], list[str]]:
        """Returns the faces and cards not yet used, so tests can check a script was consumed."""
        return list(self._values), list(self._cards)

    def roll(self, sides: int = 6, count: int = 1) -> tuple[list[int], list[int]]:
        """Returns the next `count` scripted faces; each must fit the die."""
        if len(self._values) < count:
            raise DiceScriptExhausted(f"the dice script ran out (wanted {count} d{sides})")
        values = [self._values.pop(0) for _ in range(count)]
        for value in values:
            if not 1 <= value <= sides:
                raise DiceScriptExhausted(f"scripted face {value} does not fit a d{sides}")
        draws = list(range(self.next_draw, self.next_draw + count))
        self.next_draw += count
        return values, draws

    def salt(self, owner: str = "") -> tuple[bytes, int]:
        """Returns a fixed salt for the next draw number (tests need them repeatable, not secret)."""
        draw = self.next_draw
        self.next_draw += 1
        return hashlib.sha256(b"scripted salt" + draw.to_bytes(8, "big")).digest(), draw

    def pick(self, options: Sequence[str], owner: str = "") -> tuple[str, int]:
        """Returns the next scripted card if it is among the options, else the first option."""
        draw = self.next_draw
        self.next_draw += 1
        if self._cards:
            wanted = self._cards[0]
            if wanted in options:
                self._cards.pop(0)
                return wanted, draw
            if not options:
                raise DiceScriptExhausted("nothing to pick from")
            raise DiceScriptExhausted(f"scripted pick {wanted!r} is not among the options")
        if not options:
            raise DiceScriptExhausted("nothing to pick from")
        return options[0], draw


def shuffle(dice: Dice, items: Sequence[str]) -> tuple[list[str], list[int]]:
    """Shuffles items by Fisher–Yates with one pick per position; returns (order, draw numbers)."""
    remaining = list(items)
    order: list[str] = []
    draws: list[int] = []
    while remaining:
        if len(remaining) == 1:
            order.append(remaining.pop())
            break
        item, draw = dice.pick(remaining)
        remaining.remove(item)
        order.append(item)
        draws.append(draw)
    return order, draws
