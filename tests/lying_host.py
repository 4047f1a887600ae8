"""A lying host for tests: the honest host of tests/pbem_table.py, plus packets it signs that lie to a
seat (another seat's secret unsealed, a held event with other fields, a second history, events the audit
refuses). Each lie is a packet the real host key signs, so a replica must catch it by what it says.

`python -m tests.lying_host DIR` plays a small game with a host that leaks a secret, lets the seat's
replica keep the proof and prints the replica's store, the game and the host key's fingerprint (for
tests that use the command line only, like tests/replays/test_format_spec.py).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.bots import Bot
from domain.events import GENESIS_CHAIN, is_private, next_chain
from domain.signing import fingerprint
from event_store.log_reader import FileEntry
from event_store.pbem.keys import new_key
from event_store.pbem.packets import make_packet
from event_store.pbem.proof_files import file_entries_of
from event_store.recorded import redacted
from tests.pbem_table import Table

CASTLE = [("Ann", "human"), ("Vlad", "vampire")]
DUNGEON = [("Ann", None), ("Bo", None), ("Cy", None)]


@dataclass
class LyingHost:
    """Signs, with the table's host key, packets that tell a seat what the honest host would not."""

    table: Table

    def full(self) -> list[FileEntry]:
        """Returns the host's whole log, every secret unsealed."""
        return file_entries_of(self.table.host.service.recorded_events(self.table.game))

    def seen_by(self, player: str) -> list[FileEntry]:
        """Returns the log as the honest host shows it to a seat."""
        recorded = self.table.host.service.recorded_events(self.table.game)
        return file_entries_of(redacted(recorded, player))

    def packet(self, player: str, since: int, entries: list[FileEntry]) -> str:
        """Returns an events packet for a seat, signed by the host key."""
        body: dict[str, Any] = {
            "game": str(self.table.game),
            "player": player,
            "since": since,
            "events": entries,
            "to_act": [],
        }
        return make_packet("events", body, self.table.host.key.sign)

    def held_by(self, player: str) -> int:
        """Returns how many events a seat's replica holds."""
        replica, member = self.table.replicas[player]
        return len(replica.service.recorded_events(member.stored))

    def secret_of_other(self, player: str, after: int = 0) -> int:
        """Returns the number of the first private event of another seat after event `after`."""
        found = (
            e.version
            for e in self.full()
            if e.version > after and is_private(e.type_name) and e.fields.get("owner") != player
        )
        return next(found, 0)

    def leaking(self, player: str, since: int, upto: int, leak: int) -> str:
        """Returns a packet of events since+1..upto as the seat sees them, event `leak` unsealed."""
        entries = self.seen_by(player)[since:upto]
        entries[leak - since - 1] = self.full()[leak - 1]
        return self.packet(player, since, entries)

    def changed(self, player: str, since: int, version: int, edit: Callable[[dict[str, Any]], None]) -> str:
        """Returns a packet resending held events since+1.. with event `version` edited, its chain kept."""
        entries = self.seen_by(player)[since : self.held_by(player)]
        fields = dict(entries[version - since - 1].fields)
        edit(fields)
        entries[version - since - 1] = entries[version - since - 1]._replace(fields=fields)
        return self.packet(player, since, entries)

    def rewritten(self, player: str, since: int, version: int, edit: Callable[[dict[str, Any]], None]) -> str:
        """Returns a packet of events since+1..head as the seat sees them with event `version` edited and
        every chain value from it on recomputed: a second history, consistent in itself."""
        entries = self.seen_by(player)[since:]
        index = version - since - 1
        fields = dict(entries[index].fields)
        edit(fields)
        entries[index] = entries[index]._replace(fields=fields)
        return self.packet(player, since, rechained(entries, index))


def rechained(entries: list[FileEntry], start: int) -> list[FileEntry]:
    """Returns entries with every chain value from index `start` on recomputed from the one before."""
    out = list(entries[:start])
    previous = out[-1].chain if out else GENESIS_CHAIN
    if not out and entries[0].version > 1:
        raise ValueError("rechaining needs the entry before the first one edited")
    for entry in entries[start:]:
        previous = next_chain(previous, entry.type_name, entry.class_version, entry.fields)
        out.append(entry._replace(chain=previous))
    return out


def flipped(data: bytes) -> bytes:
    """Returns bytes with their first byte changed (a forged signature, a wrong hash)."""
    return bytes([data[0] ^ 1]) + data[1:]


def other_bytes(data: bytes) -> bytes:
    """Returns other bytes of the same length."""
    return hashlib.sha256(data).digest()[: len(data)]


def leak_a_secret(where: Path) -> tuple[str, str, str]:
    """Plays a castle game by packets in which the host sends Ann one of Vlad's private events unsealed;
    returns Ann's replica store, the game id and the host key's fingerprint."""
    import os

    from event_store.app.service import GameService
    from event_store.pbem.hosting import Host
    from event_store.pbem.replica import Replica

    os.environ["NIGHTKEEP_KEYS"] = str(where / "keys")
    host_key = new_key("host")
    keys = {name: new_key(name.lower()) for name, _ in CASTLE}
    host = Host(GameService(str(where / "host.sqlite")), host_key)
    mails = {name: f"{name.lower()}@example.org" for name, _ in CASTLE}
    game = host.create("vampire-empire", CASTLE, {n: k.public for n, k in keys.items()}, mails, "host@x.org")
    table = Table(where, host, game, lambda name: str(where / f"{name}.sqlite"))
    table.join_all()
    bot = Bot("leak")
    liar = LyingHost(table)
    while True:
        table.play_turn(bot)
        held = liar.held_by("Ann")
        leak = liar.secret_of_other("Ann", held)
        if leak:
            break
    replica: Replica = table.replicas["Ann"][0]
    try:
        replica.receive(liar.leaking("Ann", held, leak, leak))
    except Exception:  # refused, as it must be: the proof is kept
        pass
    table.close()
    return str(where / "Ann.sqlite"), str(game), fingerprint(host_key.public)


if __name__ == "__main__":
    print(*leak_a_secret(Path(sys.argv[1])), sep="\n")
