"""The shared event vocabulary: small, flat, past-tense facts whose fields are msgpack-native.

Every event class is registered by its class name, which is its type name in the store, in
`log --json` and in replay files. A ruleset adds only the events that are its own, with `@event_type`.
To change a shape, raise `class_version` and add a static `upcast_vN_vM(fields)` that rewrites the
older fields in place; recorded games keep their original bytes and are upcast when read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import re
import threading
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple, TypeVar, dataclass_transform

import msgpack

from domain.errors import TamperedLog, UsageError
from domain.field_types import FieldType, Seat, field_type, fields_checker

GENESIS_CHAIN = bytes(32)

_REGISTRY: dict[str, type[Event]] = {}
E = TypeVar("E", bound="Event")
_TEMPLATE_FIELD = re.compile(r"\{([a-z_]+)\}")


class Move(NamedTuple):
    """A movement of cards between named piles that an event records (the pile ledger of
    docs/replay-format.md). Piles are named by templates: `{field}` stands for that field's value."""

    field: str  # the field naming the card (a string) or the cards (an array of strings)
    source: str = ""  # the pile they leave ("" when they come from no pile the ledger follows)
    target: str = ""  # the pile they join ("" when it is no pile the ledger follows)


class Event:
    """Base of every recorded fact; subclasses are slotted dataclasses registered by name (see event_type)."""

    __slots__ = ()
    # Set by `event_type` on each event class (a dataclass), which `dataclasses.fields` reads.
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
    class_version: ClassVar[int] = 1
    # Host events (seed reveal, entropy) are recorded by the host, not decided by a rule.
    is_host_event: ClassVar[bool] = False
    # An event that records one numbered pick (`draw`) names the field holding what was picked, so an
    # auditor can feed the recorded outcome back to the rules and check it against the seed.
    picked_field: ClassVar[str] = ""
    # Every event that records what numbered draws gave names them as (outcome field, draw field) pairs:
    # a value and its draw number, or two lists of the same length (a `picked_field` gives the pair
    # (picked_field, "draw")). An auditor feeds these outcomes back to the rules draw by draw; a private
    # event keeps its picks and salts this way too.
    drawn: ClassVar[tuple[tuple[str, str], ...]] = ()
    # A private event is seen only by its `owner` (a player, or "host"); everyone else, and the hash
    # chain, see its sealed form (see `public_form`). It must carry a random `salt` so that its seal
    # cannot be guessed by hashing the few values it could hold.
    private: ClassVar[bool] = False
    # The pile ledger (docs/replay-format.md). `piles` names the pile each pick of the event draws from
    # (outcome field → pile template): what a pick chose (draw >= 0) leaves that pile, and the pick was
    # uniform over the pile's cards in sorted order. `restricted_by` names, for a pick among part of its
    # pile only, the field listing the kinds of card it was among. `moves` are the event's other
    # movements of cards between piles.
    piles: ClassVar[dict[str, str]] = {}
    restricted_by: ClassVar[dict[str, str]] = {}
    # The kind of every other numbered draw: a die's faces (outcome field → the field giving how many
    # faces it has); a drawn outcome neither picked from a pile nor a die is a salt (32 bytes).
    faces: ClassVar[dict[str, str]] = {}
    moves: ClassVar[tuple[Move, ...]] = ()
    # Fields a later class version added (field → that version): an event recorded before it says
    # nothing of the field, so an audit re-deciding an old log compares the fields it did record.
    added_in: ClassVar[dict[str, int]] = {}
    _field_names: ClassVar[tuple[str, ...]] = ()

    @property
    def type_name(self) -> str:
        """Returns the registered type name of this event (its class name)."""
        return type(self).__name__

    def to_fields(self) -> dict[str, Any]:
        """Returns the event's fields as a plain dict of msgpack-native values."""
        return {name: getattr(self, name) for name in self._field_names}


@dataclass_transform(frozen_default=True)
def event_type(cls: type[E]) -> type[E]:
    """Registers a dataclass as an event type under its class name.

    Events are immutable facts. Type checkers see them as frozen (so an assignment to a field is a
    type error), but at run time they are plain slotted dataclasses: a frozen dataclass costs about
    1 µs more to build, paid by every event of every fold (benchmarks/bench_store.py).
    """
    data_cls = dataclasses.dataclass(slots=True)(cls)
    name = data_cls.__name__
    known = _REGISTRY.get(name)
    # The stored type name is the class name alone: two modules' classes of one name would overwrite
    # each other's registration (a reload of the same module re-registers the same class).
    if known is not None and (known.__module__, known.__qualname__) != (
        data_cls.__module__,
        data_cls.__qualname__,
    ):
        raise TypeError(
            f"event type {name!r} is registered twice ({known.__module__} and {data_cls.__module__})"
        )
    data_cls._field_names = tuple(f.name for f in dataclasses.fields(data_cls))
    field_types(data_cls)  # every field must be annotated in the one grammar (domain.field_types)
    if data_cls.picked_field and not data_cls.drawn:
        data_cls.drawn = ((data_cls.picked_field, "draw"),)  # one pick: what it picked, and its draw
    if data_cls.private and not {"owner", "salt"} <= set(data_cls._field_names):
        raise TypeError(f"private event type {name!r} needs an `owner` and a `salt` field")
    _check_ledger(data_cls)
    _REGISTRY[name] = data_cls
    return data_cls


def _check_ledger(cls: type[Event]) -> None:
    """Refuses ledger declarations that name fields the event does not have."""
    names = set(cls._field_names)
    outcomes = {outcome for outcome, _ in cls.drawn}
    templates = [*cls.piles.values(), *(t for m in cls.moves for t in (m.source, m.target))]
    named = {*cls.piles, *cls.restricted_by, *cls.restricted_by.values(), *(m.field for m in cls.moves)}
    named |= {f for t in templates for f in _TEMPLATE_FIELD.findall(t)}
    if not named <= names or not set(cls.piles) <= outcomes or not set(cls.restricted_by) <= set(cls.piles):
        raise TypeError(f"event type {cls.__name__!r} declares its piles with fields it does not have")
    types = dict(field_types(cls))
    salts = outcomes - cls.piles.keys() - cls.faces.keys()
    if not cls.faces.keys() <= outcomes - cls.piles.keys() or not set(cls.faces.values()) <= names:
        raise TypeError(f"event type {cls.__name__!r} declares dice with fields it does not have")
    if any(types[salt].grammar != "bin" for salt in salts):
        raise TypeError(f"event type {cls.__name__!r} draws an outcome that is no pick, die or salt")
    if any(not names >= cls.added_in.keys() or not 1 < v <= cls.class_version for v in cls.added_in.values()):
        raise TypeError(f"event type {cls.__name__!r} names fields added in versions it does not have")


def is_registered(type_name: str) -> bool:
    """Tells whether an event type name is registered."""
    return type_name in _REGISTRY


def registered_event_types() -> dict[str, type[Event]]:
    """Returns every registered event type by name."""
    return dict(_REGISTRY)


def event_from_fields(type_name: str, version: int, fields: dict[str, Any]) -> Event:
    """Builds an event from its stored type name, class version and fields, upcasting old shapes."""
    cls = _lookup(type_name)
    if cls is None:
        raise TamperedLog(f"unknown event type {type_name!r:.60}")
    if type(version) is not int or not 1 <= version <= cls.class_version:
        newer = type(version) is int and version > cls.class_version
        why = "was recorded by a newer nightkeep" if newer else "has a version nightkeep never recorded"
        raise TamperedLog(f"event {type_name} v{version!r:.20} {why}")
    if version != cls.class_version:
        fields = dict(fields)
        try:
            while version < cls.class_version:
                upcast: Callable[[dict[str, Any]], None] = getattr(cls, f"upcast_v{version}_v{version + 1}")
                upcast(fields)
                version += 1
        except Exception as exc:  # an upcaster reads fields a forged entry may not have
            raise TamperedLog(f"event {type_name} has malformed v{version} fields: {exc!r:.80}") from None
    try:
        return cls(**fields)
    except TypeError as exc:
        raise TamperedLog(f"event {type_name} has malformed fields: {exc}") from None


_FIELD_SPECS: dict[type, list[tuple[str, FieldType]]] = {}
_FIELD_CHECKS: dict[type, Callable[[Any], bool]] = {}


def field_types(cls: type[Event]) -> list[tuple[str, FieldType]]:
    """Returns each field of an event type with its type (domain.field_types), in field order."""
    spec = _FIELD_SPECS.get(cls)
    if spec is None:
        annotations = inspect.get_annotations(cls)
        spec = _FIELD_SPECS[cls] = [(name, field_type(str(annotations[name]))) for name in cls._field_names]
        _FIELD_CHECKS[cls] = fields_checker(spec)
    return spec


def field_type_problem(event: Event) -> str:
    """Returns what is wrong with the types of an event's field values ("" when nothing is): each
    value must hold exactly its field's type, every item and key of it included."""
    check = _FIELD_CHECKS.get(type(event))
    if check is not None and check(event):  # every event of every audit: one call when all is well
        return ""
    for name, kind in field_types(type(event)):
        value: Any = getattr(event, name)
        if not kind.check(value):
            return f"{type(event).__name__}.{name} holds {value!r:.40}, not {kind.grammar}"
    return ""


# A packer per thread: msgpack.packb builds a new one per call, which the chain (every event of every
# audit) would pay for again and again. A packer whose pack raises starts the next one afresh.
_PACKERS = threading.local()


def canonical_bytes(value: Any) -> bytes:
    """Encodes a value as canonical msgpack: maps with keys sorted, bytes as bin, no floats."""
    packer = getattr(_PACKERS, "packer", None)
    if packer is None:
        packer = _PACKERS.packer = msgpack.Packer(use_bin_type=True)
    packed: bytes = packer.pack(_canonical(value))
    return packed


_SCALARS = frozenset({str, int, bytes, bool})


def _canonical(value: Any) -> Any:
    # The chain hashes every event of every audit: scalars (nearly every field) are tested by exact type
    # first, and maps with string keys sort without a key function.
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        try:
            keys = sorted(value)
        except TypeError:  # mixed int and str keys
            keys = []
        if not keys or type(keys[0]) is not str:  # all-str keys sort alone; anything else is checked
            keys = _int_and_str_keys(value)
        return {k: v if type(v := value[k]) in _SCALARS else _canonical(v) for k in keys}
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else _canonical(v) for v in value]
    if isinstance(value, float):
        raise UsageError("floats are not allowed in event fields")
    if isinstance(value, dict):
        return _canonical(dict(value))
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def _int_and_str_keys(value: dict[Any, Any]) -> list[Any]:
    if any(type(k) is not int and type(k) is not str for k in value):
        raise UsageError("map keys in event fields must be integers or strings")
    return sorted(value, key=_sort_key)


def canonical_form(value: Any) -> Any:
    """Returns a value rebuilt in canonical order (maps sorted by key, ints before strs); values of
    other types (e.g. a replay file's timestamps) pass through as they are."""
    return _canonical(value)


def _sort_key(key: Any) -> tuple[int, Any]:
    # Integer keys sort before string keys so mixed maps still have one canonical order.
    return (0, key) if isinstance(key, int) else (1, key)


SEALED_KEYS = frozenset({"owner", "sealed"})


# Loads every ruleset's event types (set by domain.rulesets): a log read from a file may name a type whose
# ruleset nothing has imported yet, and whether it is private decides what the chain covers.
_type_loader: Callable[[], None] | None = None


def set_type_loader(loader: Callable[[], None]) -> None:
    """Registers the function that imports every ruleset's event types."""
    global _type_loader
    _type_loader = loader


def _lookup(type_name: str) -> type[Event] | None:
    cls = _REGISTRY.get(type_name)
    if cls is None and _type_loader is not None:
        _type_loader()
        cls = _REGISTRY.get(type_name)
    return cls


def class_version_of(type_name: str) -> int:
    """Returns a registered event type's current class version (0 for a type nightkeep does not know)."""
    cls = _lookup(type_name)
    return cls.class_version if cls is not None else 0


def is_private(type_name: str) -> bool:
    """Tells whether a registered event type is private (seen only by its owner)."""
    cls = _lookup(type_name)
    return cls is not None and cls.private


def is_sealed(fields: dict[str, Any]) -> bool:
    """Tells whether fields are a private event's sealed form rather than its values."""
    return fields.keys() == SEALED_KEYS


def seal(type_name: str, version: int, fields: dict[str, Any]) -> dict[str, Any]:
    """Returns a private event's sealed form: its owner and the sha256 of its whole recorded form."""
    if is_sealed(fields):
        return fields
    digest = hashlib.sha256(canonical_bytes([type_name, version, fields])).digest()
    return {"owner": fields.get("owner", ""), "sealed": digest}


def public_form(type_name: str, version: int, fields: dict[str, Any]) -> list[Any]:
    """Returns the public form of an event, the value the hash chain covers: the event as recorded, or
    for a private event its sealed form, so a copy of the log with other players' private events
    sealed still verifies end to end."""
    if is_private(type_name):
        return [type_name, version, seal(type_name, version, fields)]
    return [type_name, version, fields]


def next_chain(previous: bytes, type_name: str, version: int, fields: dict[str, Any]) -> bytes:
    """Computes an event's chain hash: sha256(previous chain ‖ canonical msgpack of its public form)."""
    return hashlib.sha256(previous + canonical_bytes(public_form(type_name, version, fields))).digest()


@dataclasses.dataclass(slots=True)
class Sealed(Event):
    """A private event read from a copy of the log it is sealed in: who may see it and its seal.

    Not registered: it stands in for the private event when folding or auditing a redacted log.
    """

    type: str
    owner: str
    sealed: bytes
    v: int = 1  # the class version it was sealed at

    @property
    def type_name(self) -> str:
        """Returns the type name of the private event it stands for."""
        return self.type

    @property
    def is_host_event(self) -> bool:  # type: ignore[override]  # a class's flag, per instance here
        """Tells whether the private event it stands for is the host's (private press), not a rule's."""
        cls = _lookup(self.type)
        return cls is not None and cls.is_host_event


# --- Game-level events, recorded by the Game aggregate for every ruleset -----------------------------


@event_type
class ForkedFrom(Event):
    """This game continues another game's history: the next `version` events are a copy of its first
    `version` events, whose chain there was `chain`. `seed` is the original's dice seed when it had
    been revealed (so the copied draws can be checked), else empty."""

    game: str
    version: int
    chain: bytes
    seed: bytes
    same_dice: bool


@event_type
class GameCreated(Event):
    """A game was set up: its ruleset, seats, options and the content it is played with (how v1's option
    values are read: replay-format.md, Setup)."""

    class_version = 3
    ruleset: str
    players: list[Seat]
    options: dict[str, str]
    content_hash: str
    scripted: bool
    dice_script: list[int]
    nightkeep_version: str
    # Play by e-mail (v3): each seat that signs its packets, with its Ed25519 public key, and the host's
    # key that signs what it sends; empty for a game played at one terminal.
    keys: dict[str, bytes] = dataclasses.field(default_factory=dict)
    host_key: bytes = b""
    added_in: ClassVar[dict[str, int]] = {"keys": 3, "host_key": 3}

    @staticmethod
    def upcast_v1_v2(fields: dict[str, Any]) -> None:
        """v1 took option values of any type and read them as text (`True` as `true`)."""
        fields["options"] = {
            key: value if type(value) is str else str(value).lower() if type(value) is bool else str(value)
            for key, value in fields["options"].items()
        }

    @staticmethod
    def upcast_v2_v3(fields: dict[str, Any]) -> None:
        """v2 games were played at one terminal: no seat keys, no host key."""
        fields["keys"] = {}
        fields["host_key"] = b""


@event_type
class SeedCommitted(Event):
    """The host committed to a secret dice seed by publishing its sha256."""

    commitment: bytes


@event_type
class DiceChainCommitted(Event):
    """The host committed to the anchor of one segment of the game's per-turn key chain (domain/dice.py):
    right after its seed's commitment for the segment the next action draws in, and after the action
    that ends a segment for the next one, so every key is committed before any nonce it draws with."""

    is_host_event = True
    segment: int
    anchor: bytes


@event_type
class DiceKeyDealt(Event):
    """The host dealt a seat its private dice key, sealed for everyone else: the seat's private draws
    (its hand, its salts) are made with it mixed with each turn's key, so the seat checks them the turn
    they are made and nobody else can before the seed is revealed (domain/dice.py)."""

    is_host_event = True
    private = True
    owner: str
    key: bytes
    salt: bytes


@event_type
class EntropyAdded(Event):
    """A player mixed their own entropy into every later draw."""

    class_version = 2
    is_host_event = True
    player: str
    value: bytes
    # v2: the player's Ed25519 signature of the entropy (domain/signing.py) when it came in a signed
    # packet; empty when it was typed at the host's terminal.
    signature: bytes = b""
    added_in: ClassVar[dict[str, int]] = {"signature": 2}

    @staticmethod
    def upcast_v1_v2(fields: dict[str, Any]) -> None:
        """v1 entropy was never signed."""
        fields["signature"] = b""


@event_type
class ActionTaken(Event):
    """A player took an action; the events that follow, up to the next action, are its consequences."""

    class_version = 3
    player: str
    action: str
    nonce: bytes
    # v2: how the host knew the player chose it: "signed" (an action packet; `signature` is the player's
    # Ed25519 signature, see domain/signing.py), "mail" (a reply to a mail that carried a one-time secret
    # of the host's) or "" (typed at the host's terminal).
    auth: str = ""
    signature: bytes = b""
    # v3: the action's per-turn dice key (its link of the chain `DiceChainCommitted` anchors; empty in a
    # game without one), and for a signed action the chain value its player signed it on, so a player
    # shown another history is caught by everyone who receives the action.
    dice_key: bytes = b""
    signed_chain: bytes = b""
    added_in: ClassVar[dict[str, int]] = {"auth": 2, "signature": 2, "dice_key": 3, "signed_chain": 3}

    @staticmethod
    def upcast_v1_v2(fields: dict[str, Any]) -> None:
        """v1 actions were all typed at the host's terminal."""
        fields["auth"] = ""
        fields["signature"] = b""

    @staticmethod
    def upcast_v2_v3(fields: dict[str, Any]) -> None:
        """v2 actions drew with the seed and did not name the chain value they were signed on."""
        fields["dice_key"] = b""
        fields["signed_chain"] = b""


@event_type
class SeedRevealed(Event):
    """The host revealed the dice seed, so anyone can recompute every draw."""

    is_host_event = True
    seed: bytes


@event_type
class BotRoundCapSet(Event):
    """The host let bots finish a game created without the house round cap for bot games, and turned it
    on: from then on the game plays as if created with `bot_round_cap` = `rounds` (house rule H6.1), so
    it ends drawn once that many rounds are played, and the log says when and why."""

    is_host_event = True
    rounds: int
    reason: str


# --- Shared rules vocabulary ---------------------------------------------------------------------------


@event_type
class CharacterDealt(Event):
    """A player received a character, chosen by the player (draw -1) or dealt at random by a draw."""

    picked_field = "character"
    piles = {"character": "characters"}
    player: str
    character: str
    draw: int


@event_type
class DieRolled(Event):
    """Dice were rolled for a purpose; values are the faces, draws the draw numbers that made them."""

    drawn = (("values", "draws"),)
    faces = {"values": "sides"}

    player: str
    purpose: str
    sides: int
    values: list[int]
    draws: list[int]


@event_type
class CardDrawn(Event):
    """A card was drawn from a deck by a numbered draw among the cards left in it; `kinds`, when not
    empty, restricts the draw to the cards of those kinds (v1 recorded no restriction)."""

    class_version = 2
    picked_field = "card"
    piles = {"card": "{deck}"}
    restricted_by = {"card": "kinds"}
    added_in = {"kinds": 2}
    player: str
    deck: str
    card: str
    draw: int
    kinds: list[str] = dataclasses.field(default_factory=list)

    @staticmethod
    def upcast_v1_v2(fields: dict[str, Any]) -> None:
        """v1 drew from the whole deck as far as it says (the Ancient Coffin's picks among the Objects
        left were not marked)."""
        fields["kinds"] = []


@event_type
class Moved(Event):
    """A piece moved on a board from one space to another."""

    piece: str
    board: str
    from_space: int
    to_space: int
    reason: str


@event_type
class CombatResolved(Event):
    """A combat (or psychic combat) ended: both totals and the outcome for the character."""

    player: str
    opponent: str
    kind: str
    player_total: int
    opponent_total: int
    outcome: str


@event_type
class LifeLost(Event):
    """A character lost lives."""

    player: str
    amount: int
    reason: str


@event_type
class LifeGained(Event):
    """A character gained lives."""

    player: str
    amount: int
    reason: str


@event_type
class TurnEnded(Event):
    """A player's turn ended and the next player is to act."""

    player: str
    next_player: str


@event_type
class PlayerOut(Event):
    """A player left the race (killed, or fled out of the board)."""

    player: str
    reason: str


@event_type
class GameWon(Event):
    """A player won the game."""

    player: str
    reason: str


@event_type
class GameEnded(Event):
    """The game ended; winner is empty when nobody won."""

    winner: str
    reason: str
