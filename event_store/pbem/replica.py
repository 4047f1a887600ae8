"""A player's replica of a game played by e-mail: its own store, holding only what that player may see.

`join` takes the host's invitation; `receive` takes event packets. Each must be signed by the host key
the invitation named, and must extend the history the replica holds: its events are checked against
the held chain values, then the whole copy goes through the one reader (`replay_file.check_import`,
the full audit) before it is appended. A packet that disagrees with what the host signed before is
refused and both signed packets are kept as proof (`proofs`, named by `nightkeep audit`). A packet the
host sent another seat can be received too: it is only compared with the replica's history. `act` on a
replica writes a signed action packet; nothing is applied until the host's events come back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, overload
from uuid import UUID

from domain.audit import AuditPoint, audit_tail
from domain.audit.resume import GAP_EVENT
from domain.club import paused_by, pinned_nonce
from domain.errors import BadPacket, IllegalAction, ImportConflict, TamperedLog, UnknownGame, UsageError
from domain.events import (
    GENESIS_CHAIN,
    ActionTaken,
    EntropyAdded,
    GameCreated,
    canonical_bytes,
    is_private,
    is_sealed,
    next_chain,
    public_form,
)
from domain.game import GameFold, check_legal
from domain.other_histories import other_history
from domain.signing import ENTROPY_POINT, fingerprint
from event_store.app.replay_file import check_import, encode_replay, header_of, store_import
from event_store.app.service import GameService
from event_store.audit_points import load_point, point_row
from event_store.audit_points import schema as points_schema
from event_store.copies import copy_id
from event_store.lazy_log import get_logger
from event_store.log_reader import FileEntry, recorded_of
from event_store.pbem.keys import KeyPair, key_with_public, load_key
from event_store.pbem.packets import Packet, make_packet, read_packets
from event_store.pbem.pbem_tables import PROOFS, is_replica_store
from event_store.recorded import RecordedEvent, fold_recorded
from event_store.sql import SqlStore, Statement, sql_store_of

log = get_logger("nightkeep.replica")

SENT = "nightkeep_replica_sent"


def schema(store: SqlStore) -> list[str]:
    """Returns the CREATE statements of a replica's tables, in the store's column types."""
    return [
        "CREATE TABLE IF NOT EXISTS nightkeep_replica (game_id TEXT PRIMARY KEY, player TEXT NOT NULL, "
        f"key_name TEXT NOT NULL, host_key {store.blob} NOT NULL, host_mail TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS nightkeep_replica_packets (id {store.serial}, "
        "game_id TEXT NOT NULL, since INTEGER NOT NULL, head INTEGER NOT NULL, packet TEXT NOT NULL)",
        # A packet is looked up by where it stands (not by its text, which every row would be read for).
        "CREATE INDEX IF NOT EXISTS nightkeep_replica_packets_at ON nightkeep_replica_packets "
        "(game_id, head, since)",
        f"CREATE TABLE IF NOT EXISTS {PROOFS} (id {store.serial}, "
        "game_id TEXT NOT NULL, version INTEGER NOT NULL, detail TEXT NOT NULL, held TEXT NOT NULL, "
        "conflicting TEXT NOT NULL)",
        # Every packet the replica wrote, until the host's events hold what it said (`waiting`).
        f"CREATE TABLE IF NOT EXISTS {SENT} (id {store.serial}, game_id TEXT NOT NULL, "
        f"kind TEXT NOT NULL, version INTEGER NOT NULL, what TEXT NOT NULL, signature {store.blob} NOT NULL, "
        "packet TEXT NOT NULL)",
    ]


@dataclass(frozen=True)
class Membership:
    """What a replica knows of its game: whose seat it is, with which key, and who hosts it."""

    game: UUID
    player: str
    key_name: str
    host_key: bytes
    host_mail: str

    @cached_property
    def stored(self) -> UUID:
        """Returns the id the player's copy is stored under."""
        return copy_id(self.game, self.player)


@dataclass(frozen=True)
class Received:
    """What one packet did to a replica: the events it held before and after."""

    game: UUID
    player: str
    before: int
    after: int
    detail: str


@dataclass(frozen=True)
class Proof:
    """A lie of the host the replica caught: the packet it refused and the one it held before (if any)."""

    game: UUID
    version: int
    detail: str
    held: str
    conflicting: str


@dataclass(frozen=True)
class Waiting:
    """A packet the replica wrote that the host's events do not hold yet: its kind, the event it was made
    holding, what it says ("roll", a press's first words…) and the packet itself, to send again."""

    kind: str
    version: int
    what: str
    packet: str

    def describe(self) -> str:
        """Says in words what waits ("your move 'roll' written at event 108")."""
        said = {"action": f"your move {self.what!r}", "entropy": "your entropy"}.get(self.kind, "")
        return f"{said or f'your {self.kind} {self.what!r}'} written at event {self.version}"


@dataclass
class HeldCopy:
    """What a replica holds of its copy of a game: how many events, the last one's chain value, where
    its audit ended (None: not kept, or not at this head), and the rest read only when asked for."""

    service: GameService
    stored: UUID
    count: int
    chain: bytes
    point: AuditPoint | None
    _all: list[RecordedEvent] | None = None

    def between(self, after: int, upto: int) -> dict[int, RecordedEvent]:
        """Returns the held events after `after` up to `upto`, by version (a packet's overlap)."""
        if upto <= after:
            return {}
        return {r.version: r for r in self.service.recorded_events(self.stored, gt=after, lte=upto)}

    def all(self) -> list[RecordedEvent]:
        """Returns every held event."""
        if self._all is None:
            self._all = self.service.recorded_events(self.stored) if self.count else []
        return self._all

    def chain_at(self, version: int) -> bytes:
        """Returns the chain value of held event `version`."""
        if version == self.count:
            return self.chain
        (found,) = self.service.recorded_events(self.stored, gt=version - 1, lte=version)
        return found.chain


class HeldChains(Sequence[bytes]):
    """The chain values of the held events and the new ones, by index, each held one read when asked
    for (a signature names the event it was made at: nearly always the last held or a new one)."""

    def __init__(self, held: HeldCopy, new: list[bytes]) -> None:
        self.held, self.new = held, new

    def __len__(self) -> int:
        return self.held.count + len(self.new)

    @overload
    def __getitem__(self, index: int) -> bytes: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[bytes]: ...
    def __getitem__(self, index: int | slice) -> bytes | Sequence[bytes]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index >= self.held.count:
            return self.new[index - self.held.count]
        return self.held.chain_at(index + 1)


class Replica:
    """A player's replica store: the copies of the games the player joined, and the packets received."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        store = sql_store_of(service.recorder)
        if store is None:
            raise UsageError(
                "a replica keeps its packets beside the events: use a SQLite or PostgreSQL store (--db)"
            )
        store.create([*schema(store), *points_schema(store)])
        self.db = store

    def membership(self, game_id: UUID) -> Membership | None:
        """Returns the replica's record of a game (by game id or by its copy's id), if it joined it."""
        with self.db.transaction(commit=False) as c:
            c.execute("SELECT game_id, player, key_name, host_key, host_mail FROM nightkeep_replica")
            rows = c.fetchall()
        for row in rows:
            member = Membership(UUID(row[0]), row[1], row[2], bytes(row[3]), row[4])
            if game_id in (member.game, member.stored):
                return member
        return None

    def join(self, text: str, expected_host: str = "") -> tuple[Membership, str]:
        """Makes the replica of the game an invitation is for; returns it and the join packet to send."""
        (packet,) = _one(read_packets(text, "the invitation"))
        if packet.kind != "invite":
            raise BadPacket(
                f"that is an {packet.kind!r} packet, not an invitation (nightkeep receive takes it)"
            )
        host_key = packet.body["host_key"]
        if not packet.is_signed_by(host_key):
            raise BadPacket("the invitation is not signed by the host key it names: refused as forged")
        if expected_host and fingerprint(host_key).replace(" ", "") != expected_host.replace(" ", "").lower():
            raise BadPacket(f"the invitation's host key is {fingerprint(host_key)}, not {expected_host}")
        if self.membership(packet.game) is not None:
            raise UsageError(f"this replica has already joined game {packet.game} (nightkeep receive PACKET)")
        created = _created(packet.entries)
        if created.host_key != host_key:
            raise BadPacket("the invitation's host key is not the one its game was created with")
        # The seat's key now: a seat handed over to a replacement player signs with theirs.
        keys = fold_recorded(recorded_of(packet.entries)).meta.get("keys", created.keys)
        mine = keys.get(packet.player)
        pair = key_with_public(mine) if mine else None
        if pair is None:
            raise UsageError(f"none of your keys is {packet.player}'s key in this game (nightkeep key list)")
        member = Membership(packet.game, packet.player, pair.name, host_key, packet.body["host_mail"])
        self._check_no_secret_of_others(packet, packet.entries, text)
        self._append(member, HeldCopy(self.service, member.stored, 0, GENESIS_CHAIN, None), packet.entries)
        with self.db.transaction(commit=True) as c:
            c.execute(
                "INSERT INTO nightkeep_replica VALUES (?, ?, ?, ?, ?)",
                [str(member.game), member.player, member.key_name, host_key, member.host_mail],
            )
        self._keep(member.game, 0, len(packet.entries), text)
        return member, self.join_packet(member)

    def receive(self, text: str) -> list[Received]:
        """Verifies and appends every event packet in a text; BadPacket for one that does not fit."""
        return [self.receive_packet(p, text) for p in read_packets(text, "it")]

    def receive_packet(self, packet: Packet, text: str) -> Received:
        """Verifies and appends one event packet (or compares one sent to another seat)."""
        if packet.kind not in ("events", "invite"):
            raise BadPacket(f"{packet.kind!r} packets go to the host, not to a replica")
        member = self.membership(packet.game)
        if member is None:
            raise BadPacket(f"this replica has not joined game {packet.game} (nightkeep join INVITE first)")
        if not packet.is_signed_by(member.host_key):
            raise BadPacket(f"the packet is not signed by game {member.game}'s host: refused as forged")
        since = packet.body.get("since", 0)
        entries = packet.entries
        if [e.version for e in entries] != list(range(since + 1, since + 1 + len(entries))):
            raise BadPacket("the packet's events are not numbered on from the event it says they follow")
        held = self._copy(member)
        if since > held.count:
            raise BadPacket(
                f"the packet follows event {since}, but this replica holds {held.count}: an earlier "
                "packet is missing (ask the host to resend, or receive that one first)"
            )
        overlap = held.between(since, min(held.count, since + len(entries)))
        self._check_same_history(member, overlap, entries, text)
        self._check_same_fields(member, overlap, entries, text)
        self._check_no_secret_of_others(packet, entries, text)
        before = held.count
        if packet.player != member.player:
            return Received(member.game, packet.player, before, before, f"{packet.player}'s packet agrees")
        new = [e for e in entries if e.version > before]
        if not new:
            self._keep(member.game, since, since + len(entries), text)  # proof kept even if a kill lost it
            return Received(member.game, member.player, before, before, "already held")
        self._check_links_on(member, held.chain, new[0], text)
        self._check_others_signed(member, held, new, text)
        kept = self._keep_rows(member.game, since, since + len(entries), text)  # stored with the events
        try:
            self._append(member, held, new, kept)
        except TamperedLog as exc:
            # Signed by the host and refused by the audit (an action its player never signed…): evidence.
            detail = f"the host signed events the audit refuses: {exc}"
            self._prove(member.game, new[0].version, text, detail, finding="host_events_refused_by_audit")
            raise TamperedLog(f"{exc} (refused, and the packet is kept as proof: nightkeep proofs)") from None
        return Received(member.game, member.player, before, before + len(new), "appended")

    def _check_same_history(
        self, member: Membership, held: dict[int, RecordedEvent], entries: list[FileEntry], text: str
    ) -> None:
        for entry in entries:
            if entry.version not in held:
                return
            if held[entry.version].chain != entry.chain:
                self._prove(member.game, entry.version, text)
                raise BadPacket(
                    f"the host signed two histories of game {member.game} that part at event "
                    f"{entry.version}: "
                    "refused, and both packets are kept as proof (nightkeep proofs writes them)"
                )

    def _check_same_fields(
        self, member: Membership, held: dict[int, RecordedEvent], entries: list[FileEntry], text: str
    ) -> None:
        """Proves a host that resends a held event under its chain value with other fields: what the chain
        covers (the sealed form of a private event) is compared, so any seat's copy of it will do."""
        for entry in entries:
            if entry.version not in held:
                return
            mine = held[entry.version]
            ours = public_form(mine.type_name, mine.class_version, mine.fields)
            if canonical_bytes(public_form(entry.type_name, entry.class_version, entry.fields)) != (
                canonical_bytes(ours)
            ):
                detail = f"the host signed event {entry.version} twice with different fields"
                self._prove(member.game, entry.version, text, detail, finding="host_changed_fields")
                raise BadPacket(
                    f"the host resent event {entry.version} of game {member.game} with other fields under "
                    "the chain value it signed before: refused, and both packets are kept as proof"
                )

    def _check_no_secret_of_others(self, packet: Packet, entries: list[FileEntry], text: str) -> None:
        """Proves a host that sends a seat another seat's private event unsealed, new or already held."""
        foreign = next((e for e in entries if _others_secret(e, packet.player)), None)
        if foreign is None:
            return
        owner = foreign.fields.get("owner")
        detail = f"the host sent {owner}'s private event {foreign.version} unsealed to {packet.player}"
        self._prove(packet.game, foreign.version, text, detail, finding="host_leaked_a_secret")
        raise BadPacket(f"{detail}: refused, and the packet is kept as proof")

    def _check_links_on(self, member: Membership, previous: bytes, first: FileEntry, text: str) -> None:
        """Proves a host that signs a first new event that does not follow the history it signed before."""
        if next_chain(previous, first.type_name, first.class_version, first.fields) == first.chain:
            return
        detail = f"event {first.version} does not follow the events the host signed before"
        self._prove(member.game, first.version, text, detail)
        raise BadPacket(
            f"the host signed two histories of game {member.game} that part at event {first.version}: "
            "refused, and both packets are kept as proof (nightkeep audit names them)"
        )

    def _check_others_signed(
        self, member: Membership, held: HeldCopy, new: list[FileEntry], text: str
    ) -> None:
        """Proves a host that shows another seat's signed action or words whose signature does not hold on
        the history this replica holds: that seat signed another history the host showed it (or the host
        forged what it signed); either way the host lied to one of them."""
        added = recorded_of(new)
        if held.point is not None:  # the seats' keys as the audit left them: the held events are not read
            events = [GAP_EVENT] * held.count + [r.event for r in added]
            chains: Sequence[bytes] = HeldChains(held, [r.chain for r in added])
            found = other_history(
                member.player, events, chains, held.count, held.point.signatures.meta["keys"]
            )
        else:
            recorded = [*held.all(), *added]
            found = other_history(
                member.player, [r.event for r in recorded], [r.chain for r in recorded], held.count
            )
        if found is None:
            return
        signed_at, detail = found
        # Kept with the packet that gave this replica the event the signer held, else its last one.
        kept_at = min(signed_at, held.count)
        self._prove(member.game, kept_at, text, detail, finding="host_showed_another_history")
        raise BadPacket(f"{detail}: refused, and both packets are kept as proof (nightkeep audit names them)")

    def _held(self, member: Membership) -> list[RecordedEvent]:
        try:
            return self.service.recorded_events(member.stored)
        except UnknownGame:
            return []

    def _copy(self, member: Membership) -> HeldCopy:
        """Returns what the replica holds of its copy: its head, and where its audit ended if kept."""
        count, chain = self.service.head(member.stored)
        point = load_point(self.db, member.stored, count, chain) if count else None
        return HeldCopy(self.service, member.stored, count, chain, point)

    def _append(
        self, member: Membership, held: HeldCopy, new: list[FileEntry], rows: Sequence[Statement] = ()
    ) -> None:
        """Audits the copy with the new events, then stores the new ones with where the audit ended: from
        where the copy's last audit ended when it can (`domain.audit.audit_tail`: the same checks as a
        whole copy's audit), else the whole copy through the one reader."""
        if held.point is not None and self._append_from(member, held, held.point, new, rows):
            return
        recorded = [*held.all(), *recorded_of(new)]
        data = encode_replay(str(member.game), recorded, member.player)
        source = f"the copy of game {member.game} with the new events"
        importable = check_import(data, source, encoded_here=True, keep_point=True)  # canonical: encoded now
        rows = [point_row(member.stored, importable.point), *rows]
        store_import(self.service, replace(importable, viewer=member.player), rows=rows)

    def _append_from(
        self,
        member: Membership,
        held: HeldCopy,
        point: AuditPoint,
        new: list[FileEntry],
        rows: Sequence[Statement] = (),
    ) -> bool:
        """Audits the new events from the copy's point and stores them; False when the audit cannot go on
        from there (a reveal, a club's event, any finding: the whole copy is audited instead)."""
        created, commitment = point.held.created, point.held.committed
        assert created is not None and commitment is not None  # (a point is of a log that holds both)
        sealed = bool(point.held.sealed) or any(is_private(e.type_name) and is_sealed(e.fields) for e in new)
        count = held.count + len(new)
        header = header_of(
            str(member.game), created.fields, commitment.fields["commitment"], count, sealed, member.player
        )
        found = audit_tail(point, new, header)
        if found is None:
            return False
        report, after = found
        recorded = [
            RecordedEvent(e.version, event, e.type_name, e.class_version, e.fields, e.chain, e.time)
            for e, event in zip(new, report.decoded, strict=True)
        ]
        self._check_copies_agree(member, held.count, recorded)
        self.service.store_recorded(member.stored, recorded, rows=[point_row(member.stored, after), *rows])
        return True

    def _check_copies_agree(self, member: Membership, held: int, recorded: list[RecordedEvent]) -> None:
        """Checks the new events against the store's other copies of the game where they hold them too
        (as `store_import` does for a whole copy: they agreed up to this copy's head already)."""
        for other in [member.game, *self.service.copies.of_game(member.game)]:
            if other == member.stored:
                continue
            theirs = self.service.recorded_events(other, gt=held, lte=held + len(recorded))
            for mine, their in zip(recorded, theirs, strict=False):
                if mine.chain != their.chain:
                    copy = self.service.copies.get(other)
                    label = copy.label if copy else f"game {member.game}"
                    raise ImportConflict(
                        f"the new events of game {member.game} and the stored {label} part at event "
                        f"{mine.version}: they are not the same history (nothing stored)"
                    )

    def _keep(self, game_id: UUID, since: int, head: int, text: str) -> None:
        rows = self._keep_rows(game_id, since, head, text)
        if rows:
            with self.db.transaction(commit=True) as c:
                c.execute(*rows[0])

    def _keep_rows(self, game_id: UUID, since: int, head: int, text: str) -> list[Statement]:
        """Returns the statement that keeps a received packet (none when it is kept already)."""
        with self.db.transaction(commit=False) as c:
            c.execute(
                "SELECT 1 FROM nightkeep_replica_packets WHERE game_id=? AND head=? AND since=? AND packet=?",
                [str(game_id), head, since, text],
            )
            if c.fetchone() is not None:
                return []
        return [
            (
                "INSERT INTO nightkeep_replica_packets (game_id, since, head, packet) VALUES (?, ?, ?, ?)",
                [str(game_id), since, head, text],
            )
        ]

    def _prove(
        self, game_id: UUID, version: int, text: str, detail: str = "", finding: str = "host_equivocated"
    ) -> None:
        with self.db.transaction(commit=True) as c:
            # The packet that signed event `version` before, else one that signed the event before it
            # (the history the new event should have followed), else the last one this replica took.
            for signed in (version, version - 1):
                c.execute(
                    "SELECT packet FROM nightkeep_replica_packets WHERE game_id=? AND since<? AND head>=? "
                    "ORDER BY id LIMIT 1",
                    [str(game_id), signed, signed],
                )
                row = c.fetchone()
                if row is not None:
                    break
            if row is None:
                c.execute(
                    "SELECT packet FROM nightkeep_replica_packets WHERE game_id=? AND head>=? "
                    "ORDER BY id LIMIT 1",
                    [str(game_id), version - 1],
                )
                row = c.fetchone()
            held = row[0] if row else ""
            detail = detail or f"two packets signed by the host disagree at event {version}"
            c.execute(
                "INSERT INTO nightkeep_replica_proofs (game_id, version, detail, held, conflicting) "
                "VALUES (?, ?, ?, ?, ?)",
                [str(game_id), version, detail, held, text],
            )
        log.warning(finding, game=str(game_id), version=version, detail=detail[:200])

    def proofs(self, game_id: UUID) -> list[Proof]:
        """Returns the proofs kept against the host of a game (a refused invitation's too)."""
        member = self.membership(game_id)
        game = member.game if member is not None else game_id
        with self.db.transaction(commit=False) as c:
            c.execute(
                "SELECT version, detail, held, conflicting FROM nightkeep_replica_proofs WHERE game_id=? "
                "ORDER BY id",
                [str(game)],
            )
            return [Proof(game, *row) for row in c.fetchall()]

    # --- what the player sends ----------------------------------------------------------------------------

    def _key(self, member: Membership) -> KeyPair:
        return load_key(member.key_name)

    def _head(self, member: Membership) -> tuple[int, bytes]:
        return self.service.head(member.stored)

    def _fold(self, member: Membership) -> GameFold:
        """Returns the copy's state: where its audit ended when that is kept (the audit's fold of the
        same events), else folded from the held events."""
        held = self._copy(member)
        if held.point is not None:
            return held.point.fresh().fold
        return fold_recorded(held.all())

    def _own_randomness(self, member: Membership, what: str, version: int, chain: bytes) -> bytes:
        """Returns the player's random bytes for a point of the game: the hash of their own (Ed25519,
        so deterministic) signature of that point. Nobody without the key can predict them, and a
        packet made again at the same point carries the same bytes, so a host that says a packet was
        lost cannot make the player roll again."""
        message = canonical_bytes(["nightkeep-" + what, str(member.game), version, chain])
        return hashlib.sha256(self._key(member).sign(message)).digest()

    def join_packet(self, member: Membership) -> str:
        """Returns the signed packet that tells the host what this replica holds."""
        version, chain = self._head(member)
        body = {"game": str(member.game), "player": member.player, "version": version, "chain": chain}
        return make_packet("join", body, self._key(member).sign)

    def legal_actions(self, member: Membership) -> list[Any]:
        """Returns the player's legal actions as the replica's copy shows them."""
        fold = self._fold(member)
        if fold.meta["actions"] == 0 or paused_by(fold.meta):
            return []  # not dealt yet, or a rollback waits on answers: `act` would refuse any move
        return list(fold.ruleset.legal_actions(fold.state, member.player))

    def action_packet(self, member: Membership, action_id: str) -> str:
        """Returns a signed action packet, after checking the action is legal as far as the copy shows."""
        version, chain = self._head(member)
        fold = self._fold(member)
        if fold.meta["actions"] == 0:
            raise IllegalAction(
                "the game has not been dealt yet: it waits for every signing seat's entropy "
                "(nightkeep entropy GAME - -o FILE, then send it to the host)"
            )
        check_legal(fold, member.player, action_id)
        # After a rollback the first move draws with the voided move's nonce: nothing is rolled again.
        nonce = pinned_nonce(fold.meta) or self._own_randomness(member, "nonce", version, chain)
        body = {
            "game": str(member.game),
            "player": member.player,
            "version": version,
            "chain": chain,
            "action": action_id,
            "nonce": nonce,
        }
        return self._sent(member, "action", action_id, make_packet("action", body, self._key(member).sign))

    def seats(self, member: Membership) -> list[str]:
        """Returns the names of the game's seats, as the replica's copy records them."""
        held = self._held(member)
        created = next((r.event for r in held if isinstance(r.event, GameCreated)), None)
        return [seat["name"] for seat in created.players] if created is not None else []

    def words_packet(self, member: Membership, kind: str, **said: Any) -> str:
        """Returns a signed packet of the seat's words (press, vacation, answer), made holding the
        replica's copy as it is; the host records them with this signature."""
        version, chain = self._head(member)
        if kind == "answer":
            pending = self._fold(member).meta.get("club", {}).get("pending")
            if not pending or member.player not in pending["waiting"]:
                raise IllegalAction("no rollback waits on your answer (as far as this replica has heard)")
            said = {**said, "to": pending["to"]}
        body = {
            "game": str(member.game),
            "player": member.player,
            "version": version,
            "chain": chain,
        }
        what = {"press": str(said.get("text", ""))[:40], "vacation": f"{said.get('seconds', 0)}s"}.get(
            kind, ""
        )
        what = what or ("agreed" if said.get("agreed") else "refused")
        return self._sent(member, kind, what, make_packet(kind, {**body, **said}, self._key(member).sign))

    def entropy_packet(self, member: Membership, value: bytes | None = None) -> str:
        """Returns a signed entropy packet, signed at the seed's commitment so that the players' entropy
        can reach the host in any order (random bytes of the player's own unless given)."""
        held = self._held(member)
        version, chain = ENTROPY_POINT, held[ENTROPY_POINT - 1].chain
        body = {
            "game": str(member.game),
            "player": member.player,
            "version": version,
            "chain": chain,
            "value": value or self._own_randomness(member, "entropy", version, chain),
        }
        return self._sent(member, "entropy", "", make_packet("entropy", body, self._key(member).sign))

    def _sent(self, member: Membership, kind: str, what: str, text: str) -> str:
        """Remembers a packet written (once: the same packet made again is the same row); returns it."""
        packet = read_packets(text)[0]
        with self.db.transaction(commit=True) as c:
            c.execute(
                f"SELECT 1 FROM {SENT} WHERE game_id=? AND signature=?", [str(member.game), packet.signature]
            )
            if c.fetchone() is None:
                c.execute(
                    f"INSERT INTO {SENT} (game_id, kind, version, what, signature, packet) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [str(member.game), kind, packet.body["version"], what, packet.signature, text],
                )
        return text

    def waiting(self, member: Membership) -> list[Waiting]:
        """Returns the packets this replica wrote that the host's events do not hold yet, oldest first: an
        action until an ActionTaken carries its signature (or the game moved past the event it was made
        at, where the host takes it no more), words and entropy until the event that records them."""
        with self.db.transaction(commit=False) as c:
            c.execute(
                f"SELECT kind, version, what, signature, packet FROM {SENT} WHERE game_id=? ORDER BY id",
                [str(member.game)],
            )
            rows = c.fetchall()
        if not rows:
            return []
        held = self._held(member)
        signed = {getattr(r.event, "signature", b"") for r in held}
        moved_on = max((r.version for r in held if isinstance(r.event, ActionTaken)), default=0)
        gave = any(isinstance(r.event, EntropyAdded) and r.event.player == member.player for r in held)
        return [
            Waiting(kind, version, what, packet)
            for kind, version, what, signature, packet in rows
            if bytes(signature) not in signed
            and not (kind == "action" and moved_on > version)
            and not (kind == "entropy" and gave)
        ]


def _is_replica_store(service: GameService) -> bool:
    """Tells whether a store has ever joined a game (see pbem_tables.is_replica_store)."""
    return is_replica_store(service.recorder)


def proofs_in(service: GameService, game_id: UUID) -> list[Proof]:
    """Returns the proofs a store keeps against a game's host (none when it is no replica)."""
    return Replica(service).proofs(game_id) if _is_replica_store(service) else []


def membership_in(service: GameService, game_id: UUID) -> Membership | None:
    """Returns the store's membership of a game when it is that player's replica (read only)."""
    return Replica(service).membership(game_id) if _is_replica_store(service) else None


def packet_digest(text: str) -> str:
    """Returns the short id of the (first) packet in a text, as proofs name it."""
    return read_packets(text)[0].digest if text else "(none kept)"


def _others_secret(entry: FileEntry, player: str) -> bool:
    """Tells whether an entry is another seat's private event in the open (a replica must never hold it)."""
    if not is_private(entry.type_name) or is_sealed(entry.fields):
        return False
    return bool(entry.fields.get("owner") != player)


def _created(entries: list[FileEntry]) -> GameCreated:
    for event in recorded_of(entries):
        if isinstance(event.event, GameCreated):
            return event.event
    raise BadPacket("the invitation holds no GameCreated event")


def _one(packets: list[Packet]) -> list[Packet]:
    if len(packets) != 1:
        raise BadPacket(f"an invitation is one packet; this text holds {len(packets)}")
    return packets
