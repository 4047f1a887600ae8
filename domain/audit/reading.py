"""The first stage of every audit, and of every reader of a log (with `chain`, the chain link by
link): exact field types, the shape of the log (its opening, a fork's copy, the seed's reveal) and a
replay file's header against the events it describes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, NamedTuple
from uuid import UUID

from domain.audit.chain import chain_of
from domain.audit.report import AuditReport, LogEntry
from domain.dice import commit_to_seed
from domain.errors import NightkeepError
from domain.events import (
    Event,
    ForkedFrom,
    GameCreated,
    Sealed,
    SeedCommitted,
    SeedRevealed,
    canonical_bytes,
    field_type_problem,
    field_types,
    is_private,
    is_sealed,
    registered_event_types,
)
from domain.field_types import Check, field_type, fields_checker
from domain.game import decode_event
from domain.setup import CANONICAL_SINCE, recorded_class_version, version_of

# --- 2. shape ------------------------------------------------------------------------------------------


def decode_all(entries: Sequence[LogEntry]) -> tuple[list[Event], str]:
    """Decodes entries in order, each checked to hold exactly its fields' types; returns the events of
    the longest prefix that does, and what is wrong with the next entry ("" when all are read).

    This comes before anything else touches a field (the chain's encoder included), so no value of
    the wrong type or nesting reaches code that would trip over it."""
    events: list[Event] = []
    plain = _PLAIN_CLASSES
    for index, entry in enumerate(entries, start=1):
        fields, event = entry.fields, None
        found = plain.get((entry.type_name, entry.class_version)) if type(entry.type_name) is str else None
        if found is not None and type(fields) is dict:
            try:
                event = found[0](**fields)
            except TypeError:
                event = None  # the full path below says what is wrong
            if event is not None and not found[1](event):
                event = None  # the full path below names the field
        if event is None:
            try:
                event = _decode_checked(entry)
            except (NightkeepError, TypeError, ValueError, AttributeError) as exc:
                return events, f"event {index} ({entry.type_name!s:.40}) cannot be read: {exc}"
        events.append(event)
    return events, ""


# Public event types at their current version, by (type name, version): their entries decode by
# building the class from the fields, which is what decode_event ends with for them; each with the one
# call that tells whether all its fields hold their types (what field_type_problem asks first).
_PLAIN_CLASSES: dict[tuple[str, int], tuple[type[Event], Check]] = {}


def _decode_checked(entry: LogEntry) -> Event:
    """Decodes one entry and checks its fields' types; raises what is wrong with it."""
    if type(entry.fields) is not dict:
        raise TypeError("its fields are not a map")
    event = decode_event(entry.type_name, entry.class_version, entry.fields)
    problem = field_type_problem(event)
    if problem:
        raise TypeError(problem)
    cls = type(event)
    if cls is not Sealed and not cls.private and cls.class_version == entry.class_version:
        _PLAIN_CLASSES[(entry.type_name, entry.class_version)] = (cls, fields_checker(field_types(cls)))
    return event


def class_version_problems(entries: Sequence[LogEntry], created: GameCreated) -> list[tuple[int, str]]:
    """Returns the first event recorded at an older class version than its game's nightkeep records
    (setup.CANONICAL_SINCE): it would say less than the game did (a reshuffle without its cards), so it
    can only be a rewrite."""
    recorded_by = version_of(created.nightkeep_version)
    if recorded_by is None or recorded_by < CANONICAL_SINCE:
        return []
    types = registered_event_types()
    expected: dict[str, int] = {}  # by type name: one lookup per type, not per entry
    for entry in entries:
        current = expected.get(entry.type_name)
        if current is None:
            current = expected[entry.type_name] = recorded_class_version(
                entry.type_name, types[entry.type_name].class_version, recorded_by
            )
        if entry.class_version != current:
            return [
                (
                    entry.version,
                    f"event {entry.version} ({entry.type_name}) is recorded at v{entry.class_version}, but "
                    f"nightkeep {created.nightkeep_version} records it at v{current}",
                )
            ]
    return []


def game_start(events: Sequence[Event]) -> int | None:
    """Returns the index of GameCreated (after any ForkedFrom) if SeedCommitted follows it, else None."""
    start = 0
    while start < len(events) and isinstance(events[start], ForkedFrom):
        start += 1
    if (
        start + 1 >= len(events)
        or not isinstance(events[start], GameCreated)
        or not isinstance(events[start + 1], SeedCommitted)
    ):
        return None
    return start


class _ShapeError(Exception):
    def __init__(self, index: int, detail: str, kind: str = "structure") -> None:
        super().__init__(detail)
        self.index = index
        self.kind = kind


def _opening(
    events: Sequence[Event], lo: int, hi: int, opening: set[int], problems: list[tuple[int, str, str]]
) -> int:
    """Collects the indexes of a log's opening events (ForkedFrom, GameCreated, SeedCommitted) between
    lo and hi, a fork's copied history included; returns the index of the log's own SeedCommitted."""
    first = events[lo] if lo < hi else None
    if isinstance(first, ForkedFrom):
        count = first.version
        if type(count) is not int or count < 2 or lo + 1 + count > hi:
            raise _ShapeError(
                lo, f"event {lo + 1} (ForkedFrom) names a copy that this log does not hold", "fork"
            )
        opening.add(lo)
        inner = _opening(events, lo + 1, lo + 1 + count, opening, problems)
        own = lo + 1 + count
        if own >= hi or not isinstance(events[own], SeedCommitted):
            problems.append(
                (
                    lo + 1,
                    "fork",
                    f"the {count} events copied by the fork at event {lo + 1} are not followed by the "
                    "fork's own SeedCommitted: the copy was changed",
                )
            )
            # Read on from the next commitment, so the rest of the log is still checked.
            own = next((i for i in range(inner + 1, hi) if isinstance(events[i], SeedCommitted)), -1)
            if own < 0:
                raise _ShapeError(lo, f"the fork at event {lo + 1} never commits to its own seed", "fork")
        opening.add(own)
        return own
    if lo + 1 < hi and isinstance(first, GameCreated) and isinstance(events[lo + 1], SeedCommitted):
        opening.update((lo, lo + 1))
        return lo + 1
    raise _ShapeError(lo, "a game's log starts with GameCreated and SeedCommitted (after any ForkedFrom)")


def shape_problems(events: Sequence[Event]) -> list[tuple[int, str]]:
    """Checks what any reader must check before folding: the opening events (and a fork's), that
    they appear nowhere else, that nothing follows the seed's reveal and that it matches the commitment."""
    return [(version, detail) for version, _, detail in _shape(events)[1]]


def _shape(events: Sequence[Event]) -> tuple[bool, list[tuple[int, str, str]]]:
    """Returns (whether the opening can be read at all, [(version, kind, detail)…])."""
    opening: set[int] = set()
    problems: list[tuple[int, str, str]] = []
    try:
        _opening(events, 0, len(events), opening, problems)
    except _ShapeError as exc:
        return False, [*problems, (exc.index + 1, exc.kind, str(exc))]
    commitment = b""
    revealed = 0
    watched = _SHAPE_TYPES
    for index, event in enumerate(events):
        if not revealed and type(event) not in watched:
            continue  # a ruleset's event (nearly every one): nothing to check here
        version = index + 1
        if revealed:
            problems.append(
                (version, "structure", f"the log goes on after the seed was revealed at event {revealed}")
            )
            break
        if isinstance(event, ForkedFrom | GameCreated | SeedCommitted) and index not in opening:
            problems.append(
                (
                    version,
                    "structure",
                    f"event {version} ({event.type_name}) belongs only at a game's opening",
                )
            )
        if isinstance(event, SeedCommitted):
            commitment = event.commitment
        elif isinstance(event, SeedRevealed):
            revealed = version
            if not isinstance(event.seed, bytes) or commit_to_seed(event.seed) != commitment:
                problems.append(
                    (version, "seed", f"the seed revealed at event {version} does not match the commitment")
                )
    return True, problems


# The event types the shape's loop looks at (no event type subclasses another, so the exact type says
# what isinstance would).
_SHAPE_TYPES = frozenset({ForkedFrom, GameCreated, SeedCommitted, SeedRevealed})


def find_start(events: list[Event], report: AuditReport) -> int | None:
    """Reports the shape's problems; returns the index of the log's GameCreated, None if unreadable."""
    readable, problems = _shape(events)
    for version, kind, detail in problems:
        report.add(version, kind, detail)
    return game_start(events) if readable else None


def check_forks(entries: Sequence[LogEntry], events: list[Event], report: AuditReport) -> None:
    """Reports each fork whose copy does not chain to its ForkedFrom.chain, or whose dice break the rules."""
    for index, event in enumerate(events):
        if not isinstance(event, ForkedFrom):
            continue
        count = event.version
        copied = entries[index + 1 : index + 1 + count]
        if any(f.kind == "fork" and f.version == index + 1 for f in report.findings):
            continue  # the shape check already found this copy changed
        if len(copied) != count or chain_of(copied) != event.chain:
            report.add(
                index + 1,
                "fork",
                f"the {count} events copied from game {event.game} do not chain to the value "
                "that game had there",
            )
            continue
        created = next((e for e in events[index + 1 : index + 1 + count] if isinstance(e, GameCreated)), None)
        if created is not None and created.host_key:
            report.notes.append(
                f"this game forks game {event.game}, played by e-mail, at its event {count}: what follows "
                "was played at one terminal and signed by no seat; it is no continuation of that game "
                "(an e-mail game is corrected inside it, by an agreed rollback)"
            )
        inside = [e.commitment for e in events[index + 1 : index + 1 + count] if isinstance(e, SeedCommitted)]
        own = events[index + 1 + count] if index + 1 + count < len(events) else None
        if not inside or not isinstance(own, SeedCommitted):
            continue  # the shape check has said so
        for problem in _fork_seed_problems(event, inside[-1], set(inside), own.commitment):
            report.add(index + 1, "seed", problem)


def _fork_seed_problems(fork: ForkedFrom, at_fork: bytes, copied: set[bytes], own: bytes) -> list[str]:
    """A fork's dice: a new seed, or (same_dice) the original's, which must then be public."""
    problems: list[str] = []
    if fork.seed and commit_to_seed(fork.seed) != at_fork:
        problems.append(f"the seed named for game {fork.game} is not the one its dice used there")
    if fork.same_dice:
        if not fork.seed or own != at_fork:
            problems.append("a same-dice fork must name the original's revealed seed and commit to it")
    elif own in copied:
        problems.append(f"the fork reuses a seed of game {fork.game} without saying so (same_dice is false)")
    return problems


def commitments(events: Sequence[Event]) -> set[bytes]:
    """Returns every seed commitment a log makes."""
    return {e.commitment for e in events if isinstance(e, SeedCommitted)}


HEADER_FROM_CREATED = ("ruleset", "content_hash", "nightkeep_version", "players", "scripted")
# A replay file's header: each key and its type (viewer only in a copy with sealed events).
HEADER_TYPES = {
    key: field_type(annotation)
    for key, annotation in (
        ("game", "str"),
        ("ruleset", "str"),
        ("content_hash", "str"),
        ("nightkeep_version", "str"),
        ("players", "list[Seat]"),
        ("seed_commitment", "bytes"),
        ("scripted", "bool"),
        ("events", "int"),
        ("viewer", "str"),
    )
}
OPTIONAL_HEADER_KEYS = frozenset({"viewer"})


def header_type_problem(header: Any) -> str:
    """Returns what is wrong with a header's keys or the types of its values ("" when nothing is)."""
    if type(header) is not dict:
        return "the header is not a map"
    missing = HEADER_TYPES.keys() - OPTIONAL_HEADER_KEYS - header.keys()
    unknown = header.keys() - HEADER_TYPES.keys()
    if missing or unknown:
        names = ", ".join(sorted(map(str, missing | unknown)))
        return f"the header {'lacks' if missing else 'has unknown keys'}: {names}"
    for key, kind in HEADER_TYPES.items():
        if key in header and not kind.check(header[key]):
            return f"the header's {key} is not {kind.grammar}"
    if not _is_canonical_uuid(header["game"]):
        return f"the header's game {header['game']!r:.50} is not a game id (a UUID in canonical form)"
    if len(header["seed_commitment"]) != 32:
        return "the header's seed_commitment is not 32 bytes"
    return ""


def _is_canonical_uuid(text: str) -> bool:
    try:
        return str(UUID(text)) == text
    except ValueError:
        return False


def header_problems(
    header: dict[str, Any], entries: Sequence[LogEntry], events: Sequence[Event] | None = None
) -> list[tuple[int, str]]:
    """Checks a replay file's (unchained) header against the chained events it describes."""
    malformed = header_type_problem(header)
    if malformed:
        return [(0, malformed)]
    if events is not None and len(events) == len(entries):
        sealed = Sealed in map(type, events)  # what decode_event makes of exactly these entries
    else:
        sealed = any(is_sealed(e.fields) and is_private(e.type_name) for e in entries)
    names = list(map(_TYPE_NAME, entries))  # every file: the two look-ups below scan it in C
    created = committed = None
    if GameCreated.__name__ in names and SeedCommitted.__name__ in names:
        created = entries[names.index(GameCreated.__name__)]
        committed = entries[len(names) - 1 - names[::-1].index(SeedCommitted.__name__)]  # the last one
    facts = HeaderFacts(len(entries), sealed, created, committed)
    return facts_problems(
        header, facts, lambda viewer, created: copy_viewer_problems(viewer, created, entries)
    )


class HeaderFacts(NamedTuple):
    """What a replay file's header is checked against: how many events the log holds, whether any is
    sealed, its GameCreated entry and its last SeedCommitted entry (None when it lacks either)."""

    events: int
    sealed: bool
    created: LogEntry | None
    committed: LogEntry | None


def facts_problems(
    header: dict[str, Any],
    facts: HeaderFacts,
    viewer_problems: Callable[[str, LogEntry], list[tuple[int, str]]],
) -> list[tuple[int, str]]:
    """Checks a well-typed header against the facts of its log (`viewer_problems` checks the copy's
    private events against the viewer it names)."""
    problems: list[tuple[int, str]] = []
    if header.get("events") != facts.events:
        problems.append(
            (0, f"the header counts {header.get('events')!r} events, the file holds {facts.events}")
        )
    if facts.sealed != ("viewer" in header):
        problems.append((0, "the header's viewer does not match whether the copy has sealed events"))
    created, committed = facts.created, facts.committed
    if created is None or committed is None:
        return problems
    if "viewer" in header:
        problems += viewer_problems(header["viewer"], created)
    for key in HEADER_FROM_CREATED:
        if not _same(header.get(key), created.fields.get(key)):
            problems.append((created.version, f"the header's {key} does not match the recorded GameCreated"))
    if not _same(header.get("seed_commitment"), committed.fields.get("commitment")):
        problems.append((committed.version, "the header's seed commitment does not match the recorded one"))
    return problems


_TYPE_NAME = attrgetter("type_name")


def copy_viewer_problems(
    viewer: str, created: LogEntry, entries: Sequence[LogEntry]
) -> list[tuple[int, str]]:
    """Returns what is wrong with a copy's viewer: it must be the public (`""`) or a seated player, and
    the copy must hold unsealed exactly that viewer's private events (else it is not the copy it says)."""
    seats = created.fields.get("players")
    names = {s.get("name") for s in seats if isinstance(s, dict)} if isinstance(seats, list) else set()
    if viewer and viewer not in names:
        return [(0, f"the header's viewer {viewer!r:.40} is neither a player of the game nor the public")]
    for entry in entries:
        if not is_private(entry.type_name):
            continue
        mine = bool(viewer) and entry.fields.get("owner") == viewer
        if mine == is_sealed(entry.fields):
            copy = f"the copy for {viewer}" if viewer else "the public copy"
            owner = entry.fields.get("owner")
            what = (
                f"seals its own private event {entry.version}"
                if mine
                else f"shows {owner!r:.40}'s event {entry.version}"
            )
            return [(entry.version, f"{copy} {what}: it is not the copy its header says")]
    return []


def _same(a: Any, b: Any) -> bool:
    """Equal as recorded: 1 and True (or 0 and False) are different values in a log."""
    try:
        return canonical_bytes(a) == canonical_bytes(b)
    except (TypeError, ValueError):
        return False
