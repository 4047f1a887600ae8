"""Numbers and sizes a command takes are bounded: each out-of-range value is one line and exit 2, and
nothing is stored; `reveal` asks before it stops a game for good, and off a terminal needs --yes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli import evidence_commands
from cli.main import cli
from event_store.app.service import GameService

HUGE = "99999999999999999999"


def run(db, *args, **kwargs):
    return CliRunner().invoke(cli, ["--db", db, *args], **kwargs)


def new_game(db) -> str:
    result = run(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--json")
    assert result.exit_code == 0, result.output
    return str(json.loads(result.stdout)["game"])


def stored(db) -> int:
    service = GameService.open(db)  # keep a reference: a collected Application closes its store
    return service.recorder.max_notification_id() or 0


@pytest.mark.parametrize(
    "args",
    [
        ["show", "{game}", "--at", HUGE],
        ["show", "{game}", "--at", "0"],
        ["replay", "{game}", "--to", HUGE, "--no-interactive"],
        ["replay", "{game}", "--at", HUGE, "--no-interactive"],
        ["replay", "{game}", "--at", "turn:" + HUGE, "--no-interactive"],
        ["replay", "{game}", "--at", "9" * 5000, "--no-interactive"],
        ["fork", "{game}", "--at", HUGE],
        ["act", "{game}", "roll", "--as", "Ann", "--expect-version", HUGE],
        ["audit", "{game}", "--jobs", HUGE],
        ["act", "{game}", "roll", "--as", "Ann", "--nonce", "ab" * 2000],
        ["entropy", "{game}", "x" * 5000, "--as", "Ann"],
        ["new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--dice", ",".join(["1"] * 10_001)],
    ],
    ids=lambda args: " ".join(a[:12] for a in args[:4]),
)
def test_an_out_of_range_number_or_size_is_one_line_and_exit_2(db, args):
    game = new_game(db)
    before = stored(db)
    result = run(db, *[a.replace("{game}", game) for a in args])
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert stored(db) == before


def test_an_event_past_the_end_says_how_many_the_game_has(db):
    game = new_game(db)
    events = len(json.loads(run(db, "log", game, "--json").stdout))
    result = run(db, "show", game, "--at", str(events + 1))
    assert result.exit_code == 2 and f"has only {events} events" in result.stderr
    replayed = run(db, "replay", game, "--at", HUGE, "--no-interactive")
    assert f"has events 1 to {events}" in replayed.stderr


@pytest.mark.parametrize(("answer", "revealed"), [("n\n", False), ("y\n", True)])
def test_reveal_asks_on_a_terminal_and_stores_nothing_unless_told_yes(db, monkeypatch, answer, revealed):
    game = new_game(db)
    before = stored(db)
    monkeypatch.setattr(evidence_commands, "stdin_is_terminal", lambda: True)
    result = run(db, "reveal", game, input=answer)
    assert "The game stops for good" in result.output
    assert (result.exit_code == 0) is revealed and (stored(db) > before) is revealed
    if not revealed:
        assert run(db, "reveal", game, "--yes").exit_code == 0  # --yes does not ask
        assert stored(db) > before


def test_reveal_off_a_terminal_refuses_without_yes_and_stores_nothing(db):
    """Issue 30: `reveal GAME </dev/null` stopped the game for good without asking anyone."""
    game = new_game(db)
    before = stored(db)
    refused = subprocess.run(
        [sys.executable, "-m", "nightkeep", "--db", db, "reveal", game],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and refused.stdout == ""
    assert len(refused.stderr.strip().splitlines()) == 1 and "--yes" in refused.stderr
    assert stored(db) == before
    assert run(db, "actions", game, "--json").exit_code == 0  # still running: nobody is told it stopped
    told = subprocess.run(
        [sys.executable, "-m", "nightkeep", "--db", db, "reveal", game, "--yes"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert told.returncode == 0 and "seed of game" in told.stdout and stored(db) > before


def test_entropy_that_is_not_utf8_is_taken_byte_for_byte(new_store, tmp_path):
    """Found by a red-team review: a byte that is not UTF-8 on the command line ended in a traceback."""
    db = new_store("e")
    created = run(db, "new", "dungeon-short", "--player", "Ann", "--player", "Bo", "--wait-for-entropy")
    game = created.stdout.strip()
    given = run(db, "entropy", game, "\udcff", "--as", "Ann")  # how Python hands a lone 0xff byte on
    assert given.exit_code == 0, given.output
    log = json.loads(run(db, "log", game, "--json").stdout)
    assert [e["fields"]["value"] for e in log if e["type"] == "EntropyAdded"] == ["ff"]


def test_the_host_does_not_act_in_a_game(new_store, tmp_path):
    """Found by a red-team review: act --as host printed every secret of a Vampire Empire start."""
    db = new_store("h")
    seats = ["--player", "Hana:human", "--player", "Vlad:vampire", "--wait-for-entropy"]
    game = run(db, "new", "vampire-empire", *seats).stdout.strip()
    before = stored(db)
    result = run(db, "act", game, "start", "--as", "host", "--json")
    assert result.exit_code == 2 and "nightkeep start" in result.stderr and stored(db) == before


def test_the_service_takes_no_nonce_or_entropy_past_the_bound(memory_service):
    """Review: the bounds were the CLI's alone, so the service could store a game its own export would
    be refused for (e-mail packets come through the service, not the CLI)."""
    from domain.errors import UsageError
    from domain.setup import MAX_PLAYER_BYTES

    too_long = b"x" * (MAX_PLAYER_BYTES + 1)
    with pytest.raises(UsageError, match="at most"):
        memory_service.create_game(
            "dungeon-short", [("Ann", None), ("Bo", None)], entropy=[("Ann", too_long)]
        )
    game_id = memory_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    before = memory_service.get_game(game_id).version
    with pytest.raises(UsageError, match="at most"):
        memory_service.take_action(game_id, "Ann", "roll", nonce=too_long)
    assert memory_service.get_game(game_id).version == before


def test_reveal_refuses_before_it_asks_when_this_store_cannot_reveal(new_store, tmp_path, monkeypatch):
    """Review: reveal asked "stops for good?" and only then refused an imported game or a copy."""
    host, other = new_store("host"), new_store("other")
    game = new_game(host)
    path = tmp_path / "g.nkr"
    assert run(host, "export", game, "-o", str(path)).exit_code == 0
    assert run(other, "import", str(path)).exit_code == 0
    monkeypatch.setattr(evidence_commands, "stdin_is_terminal", lambda: True)
    refused = run(other, "reveal", game)
    assert refused.exit_code == 1 and "only its host" in refused.stderr
    assert "stops for good" not in refused.output
