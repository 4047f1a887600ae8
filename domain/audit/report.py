"""What an audit reports: the log entries it reads, each finding, and the report as a whole."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from domain.events import Event

# Kinds of finding, in the order a reader meets them.
KINDS = (
    "numbering",
    "chain",
    "format",
    "structure",
    "header",
    "fork",
    "content",
    "signature",
    "seed",
    "rules",
    "dice",
)


class LogEntry(Protocol):
    """One event as recorded: what the chain covers, plus its chain value and position."""

    @property
    def version(self) -> int: ...
    @property
    def type_name(self) -> str: ...
    @property
    def class_version(self) -> int: ...
    @property
    def fields(self) -> dict[str, Any]: ...
    @property
    def chain(self) -> bytes: ...


class RawEntry(NamedTuple):
    """A log entry read without trusting it (from a file or a store that may have been edited)."""

    version: int
    type_name: str
    class_version: int
    fields: dict[str, Any]
    chain: bytes


@dataclass(frozen=True)
class Finding:
    """One problem found: at which event (0 = the log as a whole), what kind, and what exactly."""

    version: int
    kind: str
    detail: str

    def to_json(self) -> dict[str, Any]:
        """Returns the `audit --json` shape of this finding."""
        return {"version": self.version, "kind": self.kind, "detail": self.detail}


@dataclass
class AuditReport:
    """What an audit found and what it could not check."""

    game: str = ""
    ruleset: str = ""
    events: int = 0
    actions: int = 0
    draws: int = 0
    draws_verified: int = 0
    status: str = ""  # running, finished or stopped (seed revealed early) once the log is folded
    scripted: bool = False
    partial: bool = False  # a viewer's copy with sealed events: rules were not re-decided
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # The log's events, decoded and checked to hold their types (empty when some entry could not be):
    # a door that audits a log takes these on instead of decoding it again.
    decoded: list[Event] = field(default_factory=list, repr=False)

    @property
    def finished(self) -> bool:
        """Tells whether the log shows the game over by its rules."""
        return self.status == "finished"

    @property
    def ok(self) -> bool:
        """True when nothing is wrong (unverifiable dice of a running game are not a finding)."""
        return not self.findings

    def add(self, version: int, kind: str, detail: str) -> None:
        """Records a finding."""
        self.findings.append(Finding(version, kind, detail))

    def first_finding(self) -> Finding | None:
        """Returns the finding a reader meets first (None when there is none): the integrity stages in
        order (numbering, chain, format, structure, header, fork, content), then the seed, rules and dice
        findings by event, since one pass over the events makes them together."""
        late = KINDS.index("seed")
        return min(self.findings, key=lambda f: (min(KINDS.index(f.kind), late), f.version), default=None)

    def refusal(self, source: str) -> str:
        """Says in one line why a door refuses this log: its first finding (and how many more)."""
        first = self.first_finding()
        if first is None:
            return f"{source} passes its audit"
        more = len(self.findings) - 1
        tail = f" (and {more} more: nightkeep audit lists them)" if more else ""
        where = f"event {first.version}" if first.version else "the log"
        return f"{source} fails its audit at {where} ({first.kind}): {first.detail}{tail}"

    def first(self, kind: str) -> Finding | None:
        """Returns the first finding of a kind, if any."""
        return next((f for f in self.findings if f.kind == kind), None)

    def to_json(self) -> dict[str, Any]:
        """Returns the `audit --json` shape of this report."""
        return {
            "game": self.game,
            "ruleset": self.ruleset,
            "ok": self.ok,
            "events": self.events,
            "actions": self.actions,
            "draws": self.draws,
            "draws_verified": self.draws_verified,
            "finished": self.finished,
            "status": self.status,
            "scripted": self.scripted,
            "partial": self.partial,
            "findings": [f.to_json() for f in self.findings],
            "notes": list(self.notes),
        }


def brief(value: Any) -> str:
    """Writes a field value for a finding: bytes as their first 6 bytes in hex, so a map of 9 hashes
    stays readable (a reader compares them with the full values in the file)."""
    if isinstance(value, bytes):
        return value[:6].hex() + ("…" if len(value) > 6 else "")
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {brief(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(brief(v) for v in value) + "]"
    return repr(value)
