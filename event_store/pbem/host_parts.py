"""What the parts of a play-by-e-mail host share: a hosted seat, what the host did with a message, and
the host as its parts see it (`HostLike`), so the outbox, the digest and the deadlines need not import
the host that is made of them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol
from uuid import UUID

from event_store.sql import Statement

if TYPE_CHECKING:
    from event_store.app.service import GameService
    from event_store.pbem.keys import KeyPair
    from event_store.sql import SqlStore

# Called with (game, player, from version, to version) to say in plain words what happened and draw the
# board for a mail; the CLI passes the projections' words (the store does not draw).
Describe = Callable[[UUID, str, int, int], str]


@dataclass(frozen=True)
class Outgoing:
    """A mail the host owes: to whom, about what, and the packet it carries (if any)."""

    id: int
    game: UUID
    player: str
    to: str
    subject: str
    body: str
    packet: str
    version: int
    acting: str = ""  # who was to move when it was written (the digest rule); "" for an answer
    observer: str = ""  # the observer it goes to (then `player` is "")
    rows: tuple[Statement, ...] = ()  # written with it (a wait's start)


@dataclass(frozen=True)
class Seat:
    """A hosted seat: its key (signing players) or address (mail), and what it has seen."""

    player: str
    pubkey: bytes
    mail: str
    acked: int
    sent: int


@dataclass(frozen=True)
class Handled:
    """What the host did with one incoming packet or mail."""

    ok: bool
    game: UUID | None
    player: str
    detail: str
    duplicate: bool = False
    to_seat: bool = False  # a mail-only seat's reply: its refusal goes to the seat, with its moves and a key


class HostLike(Protocol):
    """The host as its outbox, digest and deadlines use it (event_store.pbem.hosting.Host is one)."""

    service: GameService
    db: SqlStore
    describe: Describe

    def seats(self, game_id: UUID) -> dict[str, Seat]: ...
    def host_mail(self, game_id: UUID) -> str: ...
    def key_for(self, game_id: UUID) -> KeyPair: ...
    def hosted_games(self) -> list[UUID]: ...
    def told(self, game_id: UUID, player: str, old: int, new: int) -> str: ...
    def seen(self, digest: str) -> str | None: ...
    def mail_only_part(self, game_id: UUID, player: str, head: int, to_act: list[str]) -> str: ...
    def reminder(self, game_id: UUID, player: str, due: int) -> Outgoing: ...
    def lapse_notice(self, game_id: UUID, player: str, rule: str) -> Statement | None: ...
    def queue_with(self, mails: list[Outgoing], rows: list[Statement]) -> None: ...
