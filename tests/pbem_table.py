"""A play-by-e-mail table for tests: a host store, one replica store per signing player (each a SQLite
file or a PostgreSQL schema, as the test's `new_store` makes them), and packets carried by hand (as
files would be), with every person's key in one key folder."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from uuid import UUID

import pytest

from domain.bots import Bot
from event_store.app.replay_file import export_game
from event_store.app.service import GameService
from event_store.pbem.hosting import Host
from event_store.pbem.keys import KeyPair, new_key
from event_store.pbem.replica import Membership, Replica
from event_store.sql import SQLITE, sql_store_of

NewStore = Callable[[str], str]  # the `new_store` fixture: a name -> a new store's location


@dataclass
class Table:
    """One hosted game and its players' replicas; `mail` holds what the host sent each seat, unread."""

    tmp: Path
    host: Host
    game: UUID
    store: NewStore
    replicas: dict[str, tuple[Replica, Membership]] = field(default_factory=dict)
    mail: dict[str, list[str]] = field(default_factory=dict)  # packets (or plain bodies) per seat

    def deliver(self) -> None:
        """Writes what the host owes and hands every mail to its seat."""
        self.host.follow()
        for mail in self.host.due():
            self.mail.setdefault(mail.player, []).append(mail.packet or mail.body)
            self.host.mark_sent(mail)

    def join_all(self) -> None:
        """Every signing seat joins from its invitation; the host takes the join packets."""
        self.deliver()
        for player, seat in self.host.seats(self.game).items():
            if not seat.pubkey:
                continue
            replica = Replica(GameService(self.store(player)))
            member, join = replica.join(self.mail[player].pop(0))
            self.replicas[player] = (replica, member)
            assert all(h.ok for h in self.host.handle_text(join))

    def read_mail(self, player: str) -> None:
        """The player's replica takes every packet waiting for them."""
        replica, _ = self.replicas[player]
        for text in self.mail.pop(player, []):
            replica.receive(text)

    def to_act(self) -> list[str]:
        """Returns who the host's game waits on."""
        return list(self.host.service.get_game(self.game).status.get("to_act", []))

    def is_over(self) -> bool:
        """Tells whether the host's game has ended."""
        return self.host.service.get_game(self.game).is_finished

    def play_turn(self, bot: Bot) -> str:
        """The player to act reads their mail, picks an action on their replica and sends the packet."""
        player = self.to_act()[0]
        self.read_mail(player)
        replica, member = self.replicas[player]
        fold_actions = replica.legal_actions(member)
        ruleset = self.host.service.get_game(self.game).ruleset
        choice = bot.choose(ruleset, self.host.service.get_game(self.game).state, fold_actions)
        packet = replica.action_packet(member, choice.id)
        handled = self.host.handle_text(packet)
        assert handled[0].ok, handled[0].detail
        self.deliver()
        return packet

    def close(self) -> None:
        """Closes the host's and the replicas' stores (their PostgreSQL connections)."""
        self.host.service.close()
        for replica, _ in self.replicas.values():
            replica.service.close()

    def copy_of(self, player: str) -> bytes:
        """Returns the player's replica as a replay file."""
        replica, member = self.replicas[player]
        return export_game(replica.service, member.stored)


def seat_table(
    store: NewStore,
    tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
    ruleset: str,
    players: list[tuple[str, str | None]],
    mail_only: tuple[str, ...] = (),
    wait_for_entropy: bool = False,
) -> Table:
    """Sets up keys for the host and every signing seat, and a hosted game."""
    monkeypatch.setenv("NIGHTKEEP_KEYS", str(tmp / "keys"))
    host_key = new_key("host")
    keys: dict[str, KeyPair] = {name: new_key(name.lower()) for name, _ in players if name not in mail_only}
    host = Host(GameService(store("host")), host_key)
    game = host.create(
        ruleset,
        players,
        {name: pair.public for name, pair in keys.items()},
        {name: f"{name.lower()}@example.org" for name, _ in players},
        "host@example.org",
        wait_for_entropy=wait_for_entropy,
    )
    return Table(tmp, host, game, store)


def stored_bytes(service: GameService) -> bytes:
    """Returns everything a store holds, as bytes to search: a SQLite file (and its log) as it is on
    disk, or every value of every table of a PostgreSQL store's schema."""
    store = sql_store_of(service.recorder)
    assert store is not None
    if store.dialect == SQLITE:
        path = Path(store.datastore.pool.db_name)  # type: ignore[attr-defined]
        database = sqlite3.connect(path)
        database.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything into the file read below
        database.close()
        return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))
    found: list[bytes] = []
    with store.transaction(commit=False) as c:
        c.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        for (table,) in c.fetchall():
            c.execute(f'SELECT * FROM "{table}"')
            for row in c.fetchall():
                found += [v if isinstance(v, bytes) else str(v).encode() for v in row]
    return b"\0".join(found)
