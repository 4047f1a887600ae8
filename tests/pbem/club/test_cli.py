"""A club's game at the command line: the host's deadline, title, observer, replace and rollback
commands, and a player's press, vacation and rollback answer written as signed packets on a replica
(or recorded at the host's terminal for a mail-only seat). Bad input gets one line and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from domain.club import (
    DeadlineSet,
    ObserverAdded,
    PressSent,
    PrivatePressSent,
    RollbackProposed,
    RolledBack,
    VacationDeclared,
)
from event_store.app.service import GameService
from tests.pbem_table import NewStore

NOW = "2026-12-06T20:00:00+00:00"


def run(*args: str, keys: Path, now: str = NOW) -> Result:
    env = {"NIGHTKEEP_KEYS": str(keys), "NIGHTKEEP_NOW": now}
    return CliRunner().invoke(cli, list(args), env=env)


@pytest.fixture
def people(tmp_path: Path) -> dict[str, Path]:
    folders = {}
    for person in ("host", "ann"):
        folder = tmp_path / f"keys-{person}"
        assert run("key", "new", person, keys=folder).exit_code == 0
        folders[person] = folder
    return folders


def club_game(host_db: str, out: Path, people: dict[str, Path]) -> str:
    """Starts a dungeon-short game: Ann signs, Bo plays by mail; a 3-day deadline, reminders a day and
    two hours before, the host's bot moving after 12 hours' grace, a week of absence per seat."""
    ann = run("key", "export", "ann", keys=people["ann"]).stdout.strip()
    created = run(
        "--db", host_db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo",
        "--key", f"Ann={ann}", "--mail", "Ann=ann@example.org", "--mail", "Bo=bo@example.org",
        "--host-mail", "host@example.org", "--title", "Crypt run", "--deadline", "3d",
        "--reminders", "1d,2h", "--missed", "default", "--grace", "12h", "--vacation", "7d",
        "--start-now", "--out", str(out), "--json",
        keys=people["host"],
    )  # fmt: skip
    assert created.exit_code == 0, created.output
    return str(json.loads(created.stdout)["game"])


def club_events(host_db: str, game: str) -> list[object]:
    service = GameService(host_db)
    try:
        return [r.event for r in service.recorded_events(service.resolve_game_id(game))]
    finally:
        service.close()


def test_the_host_sets_the_deadline_title_observers_and_a_rollback(
    new_store: NewStore, tmp_path: Path, people: dict[str, Path]
) -> None:
    host_db, out = new_store("host"), tmp_path / "out"
    game = club_game(host_db, out, people)
    (rules,) = [e for e in club_events(host_db, game) if isinstance(e, DeadlineSet)]
    assert (rules.seconds, rules.reminders, rules.missed, rules.grace) == (
        3 * 86400,
        [86400, 7200],
        "default",
        43200,
    )
    assert any("Crypt run" in p.read_text() for p in out.glob("*.eml"))
    changed = run("--db", host_db, "host", "deadline", game, "2d", "--missed", "wait", keys=people["host"])
    assert changed.exit_code == 0, changed.output
    assert run("--db", host_db, "host", "title", game, "Crypt run II", keys=people["host"]).exit_code == 0
    added = run("--db", host_db, "host", "observer", "add", game, "Zoe <zoe@example.org>", "--name", "Zoe",
                keys=people["host"])  # fmt: skip
    assert added.exit_code == 0, added.output
    bad = run("--db", host_db, "host", "observer", "add", game, "zoe@example.org, eve@example.org",
              keys=people["host"])  # fmt: skip
    assert bad.exit_code == 2 and "not one e-mail address" in bad.stderr and bad.stderr.count("\n") == 1
    press = run("--db", host_db, "press", game, "The deadline is now 2 days.", keys=people["host"])
    assert press.exit_code == 0, press.output
    away = run("--db", host_db, "vacation", game, "2d", "--as", "Bo", keys=people["host"])
    assert away.exit_code == 0, away.output
    too_long = run("--db", host_db, "vacation", game, "6d", "--as", "Bo", keys=people["host"])
    assert too_long.exit_code == 1 and "5 days more" in too_long.stderr
    events = club_events(host_db, game)
    assert [type(e) for e in events[-4:]] == [DeadlineSet, ObserverAdded, PressSent, VacationDeclared]
    refused = run(
        "--db", host_db, "host", "rollback", game, "--to", "3", "--reason", "x", keys=people["host"]
    )
    assert refused.exit_code == 1 and "before a move" in refused.stderr
    no_reason = run("--db", host_db, "host", "rollback", game, "--to", "3", keys=people["host"])
    assert no_reason.exit_code == 2 and "--reason" in no_reason.stderr
    assert club_events(host_db, game) == events  # refused commands store nothing


def test_a_mail_only_seats_answer_typed_at_the_host_takes_the_game_back(
    new_store: NewStore, tmp_path: Path, people: dict[str, Path]
) -> None:
    host_db, out = new_store("host"), tmp_path / "out"
    ann = run("key", "export", "ann", keys=people["ann"]).stdout.strip()
    created = run(
        "--db", host_db, "new", "dungeon-short", "--player", "Bo", "--player", "Ann",
        "--key", f"Ann={ann}", "--mail", "Bo=bo@example.org", "--host-mail", "host@example.org",
        "--start-now", "--out", str(out), "--json",
        keys=people["host"],
    )  # fmt: skip
    game = json.loads(created.stdout)["game"]
    before = len(club_events(host_db, game))
    assert run("--db", host_db, "act", game, "roll", "--as", "Bo", keys=people["host"]).exit_code == 0
    proposed = run("--db", host_db, "host", "rollback", game, "--to", str(before), "--reason",
                   "Bo wrote 2, the host read 1", keys=people["host"])  # fmt: skip
    assert proposed.exit_code == 0, proposed.output
    assert isinstance(club_events(host_db, game)[-1], RollbackProposed)
    waiting = run("--db", host_db, "act", game, "roll", "--as", "Bo", keys=people["host"])
    assert waiting.exit_code == 1 and "rollback" in waiting.stderr
    agreed = run("--db", host_db, "rollback", "agree", game, "--as", "Bo", keys=people["host"])
    assert agreed.exit_code == 0 and "went back" in agreed.stdout
    assert isinstance(club_events(host_db, game)[-1], RolledBack)
    audited = run("--db", host_db, "audit", game, keys=people["host"])
    assert audited.exit_code == 0, audited.output
    told = run("--db", host_db, "log", game, keys=people["host"]).stdout
    assert "went back to event" in told and "Bo wrote 2" in told


def test_a_signing_player_writes_press_absence_and_answers_as_packets(
    new_store: NewStore, tmp_path: Path, people: dict[str, Path]
) -> None:
    host_db, out = new_store("host"), tmp_path / "out"
    game = club_game(host_db, out, people)
    replica = new_store("ann")
    (invite,) = sorted(out.glob("*-Ann.eml"))
    joined = run("--db", replica, "join", str(invite), "-o", str(tmp_path / "join.nkp"), keys=people["ann"])
    assert joined.exit_code == 0, joined.output
    for kind, args in (
        ("press", ["press", game, "--to", "bo", "Shall we share the Vault?"]),
        ("away", ["vacation", game, "3d"]),
    ):
        packet = tmp_path / f"{kind}.nkp"
        made = run("--db", replica, *args, "-o", str(packet), keys=people["ann"])
        assert made.exit_code == 0, made.output
        applied = run("--db", host_db, "host", "apply", str(packet), "--out", str(out), keys=people["host"])
        assert applied.exit_code == 0, applied.output
    events = club_events(host_db, game)
    said = [e for e in events if isinstance(e, PrivatePressSent | VacationDeclared)]
    assert [e.auth for e in said] == ["signed"] * 3  # two copies of the press, one absence
    nobody = run(
        "--db", replica, "rollback", "agree", game, "-o", str(tmp_path / "a.nkp"), keys=people["ann"]
    )
    assert nobody.exit_code == 1 and "no rollback waits" in nobody.stderr
    wrong_seat = run("--db", replica, "press", game, "--to", "Cy", "hi", "-o", str(tmp_path / "p.nkp"),
                     keys=people["ann"])  # fmt: skip
    assert wrong_seat.exit_code == 2 and "no seat 'Cy'" in wrong_seat.stderr
