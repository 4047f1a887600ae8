"""A lying host is caught by the replica it lies to, and every lie leaves a proof that `nightkeep verify`
confirms in a fresh process with nothing but the host key's fingerprint (issue 26, parts 4 and 5)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from structlog.testing import capture_logs

from domain.bots import Bot
from domain.errors import BadPacket, TamperedLog
from domain.signing import fingerprint
from event_store.pbem.packets import read_packets
from event_store.pbem.proofs import pack_canonical
from tests.lying_host import CASTLE, DUNGEON, LyingHost, flipped
from tests.pbem_table import Table, seat_table

pytestmark = pytest.mark.slow  # whole games through the command line, one subprocess per command

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Runs nightkeep in a fresh process, as a stranger with only the files would."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def table_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, players: Any) -> Table:
    table = seat_table(lambda name: str(tmp_path / f"{name}.sqlite"), tmp_path, monkeypatch, ruleset, players)
    table.join_all()
    return table


@pytest.fixture
def castle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LyingHost]:
    """A Vampire Empire game by packets in which Ann's replica lags behind one of Vlad's secrets."""
    table = table_of(tmp_path, monkeypatch, "vampire-empire", CASTLE)
    liar, bot = LyingHost(table), Bot("liar")
    while not liar.secret_of_other("Ann", liar.held_by("Ann")):
        table.play_turn(bot)
    yield liar
    table.close()


def caught(liar: LyingHost, player: str, text: str, error: type[Exception], reason: str) -> str:
    """The replica refuses the packet in one line, stores nothing, keeps one proof; returns its file."""
    replica, member = liar.table.replicas[player]
    before = replica.service.chain_values(member.stored)
    with capture_logs() as logged, pytest.raises(error, match=reason) as refused:
        replica.receive(text)
    assert "\n" not in str(refused.value)
    assert replica.service.chain_values(member.stored) == before
    assert [e["log_level"] for e in logged] == ["warning"]
    (proof,) = replica.proofs(liar.table.game)
    assert proof.conflicting == text
    out = liar.table.tmp / "proofs"
    written = cli(
        "--db", str(liar.table.tmp / f"{player}.sqlite"), "proofs", str(liar.table.game)[:8], "-o", str(out)
    )
    assert written.returncode == 0, written.stderr
    (path,) = out.glob("proof-*.nkp")
    return str(path)


def verified(liar: LyingHost, path: str, says: str) -> None:
    """`nightkeep verify` in a fresh process, with only the fingerprint: the proof holds (exit 1)."""
    done = cli("verify", path, "--host-key", fingerprint(liar.table.host.key.public))
    assert done.returncode == 1, done.stdout + done.stderr
    assert says in done.stdout and done.stdout.count("\n") == 1, done.stdout


def test_a_host_that_leaks_another_seats_new_secret_is_refused_and_proven(castle: LyingHost) -> None:
    held = castle.held_by("Ann")
    leak = castle.secret_of_other("Ann", held)
    path = caught(castle, "Ann", castle.leaking("Ann", held, leak, leak), BadPacket, "unsealed to Ann")
    assert path.endswith(f"-{leak}-unsealed-secret.nkp")
    verified(castle, path, f"the host sent Vlad's private event {leak}")


def test_a_host_that_resends_a_held_secret_unsealed_is_refused_and_proven(castle: LyingHost) -> None:
    leak = castle.secret_of_other("Ann")
    text = castle.leaking("Ann", leak - 1, castle.held_by("Ann"), leak)
    path = caught(castle, "Ann", text, BadPacket, "unsealed to Ann")
    verified(castle, path, f"the host sent Vlad's private event {leak}")


def test_a_host_that_resends_a_held_event_with_other_fields_under_its_chain_is_refused_and_proven(
    castle: LyingHost,
) -> None:
    held = castle.held_by("Ann")
    version = max(e.version for e in castle.seen_by("Ann")[:held] if e.type_name == "ActionTaken")

    def other_action(fields: dict[str, Any]) -> None:
        fields["action"] = "done"

    text = castle.changed("Ann", version - 1, version, other_action)
    path = caught(castle, "Ann", text, BadPacket, "other fields")
    assert path.endswith(f"-{version}-changed-fields.nkp")
    verified(castle, path, f"the host signed event {version} of game")


def test_a_host_that_signs_two_histories_is_refused_and_proven(castle: LyingHost) -> None:
    held = castle.held_by("Ann")

    def other_action(fields: dict[str, Any]) -> None:
        fields["action"] = "done"

    version = max(e.version for e in castle.seen_by("Ann")[:held] if e.type_name == "ActionTaken")
    text = castle.rewritten("Ann", version - 2, version, other_action)
    path = caught(castle, "Ann", text, BadPacket, "two histories")
    assert path.endswith(f"-{version}-two-histories.nkp")
    verified(castle, path, f"the host signed two histories of game {castle.table.game} at event {version}")


def test_a_host_that_forges_a_seats_signature_is_refused_by_the_audit_and_proven(castle: LyingHost) -> None:
    held = castle.held_by("Ann")
    new = castle.seen_by("Ann")[held:]
    version = next(e.version for e in new if e.type_name == "ActionTaken" and e.fields["auth"] == "signed")

    def forged(fields: dict[str, Any]) -> None:
        fields["signature"] = flipped(fields["signature"])

    text = castle.rewritten("Ann", held, version, forged) if version > held + 1 else None
    if text is None:  # the forged action is the first new event: rechain it from Ann's head
        text = castle.rewritten("Ann", held - 1, version, forged)
    # The packet ends with the forged action: a later signed action of Vlad's, rechained after it, would
    # be caught first as another history (tests/pbem/test_table_trust.py).
    (packet,) = read_packets(text)
    since = packet.body["since"]
    text = castle.packet("Ann", since, [e for e in packet.entries if e.version <= version])
    path = caught(castle, "Ann", text, TamperedLog, "signature")
    assert "-audit-refused" in path
    verified(castle, path, "the audit refuses")


def rewrite_first_new(
    liar: LyingHost,
    wanted: Callable[[Any], bool],
    edit: Callable[[dict[str, Any]], None],
    says: str,
    reveal: bool = False,
) -> None:
    """Plays until Ann's replica is owed an event `wanted` picks (then, with `reveal`, the host reveals
    the seed), and has the host rewrite it with `edit` (rechaining what follows): Ann's replica refuses
    it by its dice, and the proof says `says`."""
    while not any(wanted(e) for e in liar.seen_by("Ann")[liar.held_by("Ann") :]):
        liar.table.play_turn(Bot("keys"))
    if reveal:
        liar.table.host.service.reveal_seed(liar.table.game)
    held = liar.held_by("Ann")
    target = next(e for e in liar.seen_by("Ann")[held:] if wanted(e))
    path = caught(liar, "Ann", liar.rewritten("Ann", held - 1, target.version, edit), TamperedLog, "dice")
    verified(liar, path, says)


@pytest.mark.parametrize("revealed", [False, True], ids=["running", "revealed"])
def test_a_host_that_loads_a_die_is_caught_the_turn_it_is_rolled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, revealed: bool
) -> None:
    # Per-turn keys: the die is checked with its turn's key on receipt, long before any reveal.
    table = table_of(tmp_path, monkeypatch, "dungeon-short", DUNGEON)

    def loaded(fields: dict[str, Any]) -> None:
        fields["values"] = [v % 6 + 1 for v in fields["values"]]

    def rolled(entry: Any) -> bool:
        return bool(entry.type_name == "DieRolled")

    rewrite_first_new(LyingHost(table), rolled, loaded, "the turn's key gives", reveal=revealed)
    table.close()


def test_a_host_that_deals_a_seat_other_cards_than_its_key_picks_is_caught_by_that_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ann's own private draws are checked with her private dice key the turn they are made: the host
    # swaps the order of two cards she drew (her hand, and so its commitments, stay the same).
    table = table_of(tmp_path, monkeypatch, "vampire-empire", CASTLE)

    def drawn(entry: Any) -> bool:
        mine = entry.type_name == "CardsReceived" and entry.fields.get("owner") == "Ann"
        return mine and len(entry.fields["cards"]) > 1

    def swapped(fields: dict[str, Any]) -> None:
        fields["cards"] = [fields["cards"][1], fields["cards"][0], *fields["cards"][2:]]

    rewrite_first_new(LyingHost(table), drawn, swapped, "Ann's key gives")
    table.close()


def test_an_honest_game_leaves_no_proof_and_no_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = table_of(tmp_path, monkeypatch, "vampire-empire", CASTLE)
    bot = Bot("honest")
    with capture_logs() as logged:
        for _ in range(12):
            table.play_turn(bot)
        for player in table.replicas:
            table.read_mail(player)
            table.replicas[player][0].receive(table.mail.get(player, [""])[-1] or _resend(table, player))
    assert not [e for e in logged if e["log_level"] in ("warning", "error")]
    for replica, _ in table.replicas.values():
        assert replica.proofs(table.game) == []
    table.close()


def _resend(table: Table, player: str) -> str:
    """The host's events packet for a seat as it stands (all it holds already: nothing new)."""
    seat = table.host.seats(table.game)[player]
    return table.host.event_packet(table.game, seat, table.host.service.recorded_events(table.game), [], "")


def test_a_forged_or_damaged_proof_file_never_holds_and_never_ends_in_a_traceback(castle: LyingHost) -> None:
    held = castle.held_by("Ann")
    leak = castle.secret_of_other("Ann", held)
    good = Path(caught(castle, "Ann", castle.leaking("Ann", held, leak, leak), BadPacket, "unsealed"))
    data = good.read_bytes()
    document = msgpack.unpackb(data, raw=False)
    (packet,) = document["packets"]
    lines = packet.splitlines()
    forgeries = {
        "truncated": data[: len(data) // 2],
        "garbage": b"\x00" * 100,
        "not canonical": msgpack.packb(dict(reversed(document.items())), use_bin_type=True),
        "signature": pack_canonical({**document, "packets": ["\n".join([*lines[:-3], "Zm9v", *lines[-2:]])]}),
        "other key": pack_canonical({**document, "host_key": bytes(32)}),
        "history": pack_canonical({**document, "history": document["history"][:-40]}),
        "kind": pack_canonical({**document, "kind": "changed-fields"}),
        "event": pack_canonical({**document, "event": 2}),
    }
    for name, forged in forgeries.items():
        path = good.with_name(f"forged-{name.replace(' ', '-')}.nkp")
        path.write_bytes(forged)
        done = cli("verify", str(path), "--host-key", fingerprint(castle.table.host.key.public))
        assert done.returncode in (0, 2), (name, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and (done.stdout + done.stderr).count("\n") == 1, (name, done)
    audited = cli("audit", str(good))
    assert audited.returncode == 2 and "nightkeep verify" in audited.stderr
