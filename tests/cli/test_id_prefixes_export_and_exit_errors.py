"""Red-team findings on issue 12's new doors (ids by prefix, export -o, errors on every exit)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

REPO = Path(__file__).resolve().parents[2]


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


def new_game(db, ruleset="dungeon-short", *seats):
    args = [arg for seat in (seats or ("Ann", "Bo")) for arg in ("--player", seat)]
    result = run(db, "new", ruleset, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["game"]


def nightkeep(db, *args, stdout):
    """Runs the console script as a shell would, with its stdout sent where the test says."""
    return subprocess.run(
        [sys.executable, "-m", "nightkeep", "--db", db, *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=60,
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args", [("show", "{game}", "--json"), ("log", "{game}"), ("export", "{game}", "-o", "-")]
)
def test_output_that_cannot_be_written_is_one_error_line_not_a_traceback(db, args):
    game = new_game(db)
    with open("/dev/full", "w") as full:
        done = nightkeep(db, *(a.format(game=game) for a in args), stdout=full)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "No space left on device" in lines[0], done.stderr
    assert done.returncode == 2
    if "--json" in args:
        assert json.loads(lines[0])["exit"] == 2


def test_export_to_an_empty_file_name_says_so_and_writes_nothing(db, tmp_path, monkeypatch):
    game = new_game(db)
    monkeypatch.chdir(tmp_path)
    for extra in ([], ["--force"]):
        result = run(db, "export", game, "-o", "", *extra)
        assert result.exit_code == 2
        assert "exists" not in result.stderr and "file name" in result.stderr, result.stderr


def test_the_whole_id_of_a_game_held_as_two_copies_names_them_instead_of_no_game(new_store, tmp_path):
    host = new_store("host")
    game = new_game(host, "vampire-empire", "Ann:human", "Vlad:vampire")
    for viewer, name in ((["--as", "Ann"], "ann.nkr"), ([], "public.nkr")):
        assert run(host, "export", game, "-o", str(tmp_path / name), *viewer).exit_code == 0
    other = new_store("other")
    for name in ("ann.nkr", "public.nkr"):
        assert run(other, "import", str(tmp_path / name)).exit_code == 0
    for typed in (game, game[:8]):
        result = run(other, "show", typed)
        assert result.exit_code == 2
        assert "no game" not in result.stderr, result.stderr
        assert "Ann's copy" in result.stderr and "public copy" in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("typed", ["²", "1²", "③"])
def test_a_digit_int_cannot_read_is_a_choice_error_not_a_crash_of_the_hot_seat(typed):
    from domain.actions import Action
    from domain.errors import UsageError
    from event_store.app.seats import match_action

    with pytest.raises(UsageError, match="no action"):
        match_action([Action("roll", "Ann", "Roll")], typed)


def test_a_digit_int_cannot_read_is_refused_as_a_version_and_a_deadline():
    from domain.errors import UsageError
    from domain.setup import version_of
    from event_store.pbem.club_host import parse_span

    assert version_of("0.²") is None  # a replay file's recorded version, read by the audit
    with pytest.raises(UsageError, match="malformed --deadline"):
        parse_span("²d", "--deadline")


def test_hot_seat_play_with_a_superscript_digit_asks_again(db):
    game = new_game(db)
    result = CliRunner().invoke(cli, ["--db", db, "play", game, "--stdin"], input="²\nq\n")
    assert result.exit_code == 0, result.output
    assert "Error: no action '²' now" in result.stdout


@pytest.mark.parametrize("through_a_link", [False, True])
def test_export_force_never_overwrites_the_store_it_reads_from(tmp_path, through_a_link):
    db = str(tmp_path / "g.sqlite")
    game = new_game(db)
    target = tmp_path / "store-link"
    if through_a_link:
        target.symlink_to(db)
    before = Path(db).read_bytes()
    result = run(db, "export", game, "-o", str(target if through_a_link else db), "--force")
    assert result.exit_code == 2
    assert "is the store" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert Path(db).read_bytes() == before
    assert run(db, "show", game).exit_code == 0


@pytest.mark.parametrize("args", [("games",), ("new", "dungeon-short", "--player", "A", "--player", "B")])
def test_a_store_in_the_home_of_no_such_user_is_one_error_line(args):
    result = run("~no-such-user-nightkeep/games.sqlite", *args, "--json")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "no such user's home directory" in json.loads(result.stderr)["error"]


def test_a_player_named_like_rich_markup_is_printed_as_named(db):
    game = new_game(db, "dungeon-short", "[bold]Ann", "[red]")
    for args in (("games",), ("actions", game), ("play", game, "--stdin")):
        result = CliRunner().invoke(cli, ["--db", db, *args], input="q\n")
        assert result.exit_code == 0, result.output
        assert "[bold]Ann" in result.stdout, (args, result.stdout)
    assert "[red]" in run(db, "games").stdout  # not a colour that swallows the name


def test_an_audited_file_named_like_markup_keeps_its_name(db, tmp_path, monkeypatch):
    game = new_game(db)
    monkeypatch.chdir(tmp_path)
    name = "[bold]game.nkr"
    assert run(db, "export", game, "-o", name, "--as", "host").exit_code == 0
    result = run(db, "audit", name, game)  # two targets: the summary table
    assert "[bold]game.nkr" in result.stdout, result.stdout


@pytest.mark.parametrize("damage", [("state", b"\xc1\xc1\xc1"), ("topic", "nowhere:Nothing")])
@pytest.mark.parametrize(
    "args", [("actions",), ("act", "roll", "--as", "Ann"), ("export", "-o", "-"), ("play", "--bots")]
)
def test_a_damaged_stored_event_is_one_error_line_for_every_command_that_loads_the_game(db, damage, args):
    from uuid import UUID

    from event_store.app.service import GameService
    from tests.store_rows import events_table, execute, key

    game = new_game(db)
    service = GameService.open(db)
    column, value = damage
    where = "WHERE originator_id = ? AND originator_version = 3"
    execute(
        service, f"UPDATE {events_table(service)} SET {column} = ? {where}", [value, key(service, UUID(game))]
    )
    service.close()
    result = run(db, args[0], game, *args[1:])
    assert result.exit_code == 2, result.output
    assert "unreadable stored event" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize("viewer", [[], ["--as", "Ann"], ["--as", "host"]])
def test_log_json_text_is_the_text_the_plain_log_shows(db, viewer):
    game = new_game(db, "vampire-empire", "Ann:human", "Vlad:vampire")
    assert run(db, "play", game, "--bots").exit_code == 0
    plain = run(db, "log", game, *viewer).stdout.splitlines()
    entries = json.loads(run(db, "log", game, *viewer, "--json").stdout)
    assert [f"{e['version']:>5}  {e['text']}" for e in entries] == plain


def test_a_misspelt_demo_ruleset_gets_a_suggestion(tmp_path):
    result = run(str(tmp_path / "g.sqlite"), "demo", "vampire-empir")
    assert result.exit_code == 2
    assert "did you mean 'vampire-empire'?" in result.stderr
    assert not (tmp_path / "g.sqlite").exists()


def test_hot_seat_play_on_a_viewers_copy_is_refused_before_asking_who_sits_down(new_store, tmp_path):
    host = new_store("host")
    game = new_game(host, "vampire-empire", "Ann:human", "Vlad:vampire")
    assert run(host, "export", game, "-o", str(tmp_path / "ann.nkr"), "--as", "Ann").exit_code == 0
    mine = new_store("ann")
    assert run(mine, "import", str(tmp_path / "ann.nkr")).exit_code == 0
    result = CliRunner().invoke(cli, ["--db", mine, "play", game[:8], "--stdin"], input="q\n")
    assert result.exit_code == 1
    assert "cannot be continued" in result.stderr
    assert "keyboard" not in result.stdout and "goes on" not in result.stdout


def test_a_key_folder_in_the_home_of_no_such_user_is_one_error_line(monkeypatch):
    monkeypatch.setenv("NIGHTKEEP_KEYS", "~no-such-user-nightkeep/keys")
    result = CliRunner().invoke(cli, ["key", "list"])
    assert result.exit_code == 2, result.output
    assert "no such user's home directory" in result.stderr


def test_an_export_cut_off_by_a_full_disk_leaves_no_partial_file(db, tmp_path, monkeypatch):
    import errno
    import io

    game = new_game(db)
    target = tmp_path / "game.nkr"
    real_open = Path.open

    class FullDisk(io.BufferedWriter):
        def write(self, data):
            super().write(bytes(data)[:10])
            self.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

    def open_on_a_full_disk(self, mode="r", *args, **kwargs):
        if self == target:
            return FullDisk(real_open(self, mode.replace("b", "") + "b", buffering=0))
        return real_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_on_a_full_disk)
    result = run(db, "export", game, "-o", str(target))
    assert result.exit_code == 2 and "No space left on device" in result.stderr
    assert not target.exists()


def test_exporting_a_stored_copy_as_host_says_the_copy_is_what_is_written(new_store, tmp_path):
    host = new_store("host")
    game = new_game(host, "vampire-empire", "Ann:human", "Vlad:vampire")
    assert run(host, "export", game, "-o", str(tmp_path / "ann.nkr"), "--as", "Ann").exit_code == 0
    mine = new_store("ann")
    assert run(mine, "import", str(tmp_path / "ann.nkr")).exit_code == 0
    result = run(mine, "export", game[:8], "-o", str(tmp_path / "again.nkr"), "--as", "host")
    assert result.exit_code == 0, result.output
    assert "Ann's copy" in result.stderr
    assert (tmp_path / "again.nkr").read_bytes() == (tmp_path / "ann.nkr").read_bytes()


def _retype_a_die_roll(db: str, game: str) -> None:
    """Edits the last stored DieRolled outside nightkeep: still msgpack, its fields of the wrong types.
    The snapshots taken since are dropped, so `show`, which folds from its newest snapshot on, reads it
    (a damaged event a snapshot already covers is the audit's to find)."""
    from uuid import UUID

    from event_store.app.service import GameService
    from event_store.transcoder import MsgpackTranscoder
    from tests.store_rows import event_state, execute, set_event_state, snapshots_table

    transcoder = MsgpackTranscoder()
    service = GameService.open(db)
    try:
        game_id = UUID(game)
        for version in range(len(service.chain_values(game_id)), 0, -1):
            envelope = transcoder.decode(event_state(service, game_id, version))
            if envelope["type"] == "DieRolled":
                envelope["fields"].update(values="y", draws="x")
                set_event_state(service, game_id, version, transcoder.encode(envelope))
                execute(
                    service,
                    f"DELETE FROM {snapshots_table(service)} WHERE originator_version >= ?",
                    [version],
                )
                return
    finally:
        service.close()
    raise AssertionError("no die was rolled")


@pytest.mark.parametrize("args", [["show"], ["log"], ["log", "--json"], ["show", "--json"]])
def test_a_stored_event_retyped_outside_nightkeep_is_one_line_not_a_traceback(db, args, monkeypatch):
    monkeypatch.delenv("NIGHTKEEP_TRACEBACK", raising=False)
    game = new_game(db)
    assert run(db, "play", game, "--bots").exit_code == 0
    _retype_a_die_roll(db, game)
    result = run(db, args[0], game, *args[1:])
    assert result.exit_code == 3, result.output
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "internal error" in result.stderr and "audit" in result.stderr
    if "--json" in args:
        assert json.loads(result.stderr)["exit"] == 3
    audited = run(db, "audit", game)
    assert audited.exit_code == 1 and "cannot be read" in audited.output
    monkeypatch.setenv("NIGHTKEEP_TRACEBACK", "1")
    assert isinstance(run(db, args[0], game, *args[1:]).exception, TypeError)
