"""Forged replay files thrown at issue 16's doors: each is refused in one line, never as an internal error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.log_mutations import pack, rechain, unpack

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
HANA = REPLAYS / "vampire-empire-001-Hana.nkr"


def nested(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = {"x": [value]}
    return value


def test_audit_diff_refuses_a_copy_whose_fields_nest_too_deep_to_chain_naming_file_and_event(tmp_path):
    document = unpack(HANA.read_bytes())
    forged = next(e for e in document["events"] if e["type"] == "ActionTaken")
    forged["fields"]["nonce"] = nested(b"", 400)  # past Python's recursion limit once encoded
    path = tmp_path / "deep.nkr"
    path.write_bytes(pack(document))
    pictures = ["--as", "Hana", "--svg", str(tmp_path / "p")]
    for args in ([str(path), str(HANA)], [str(HANA), str(path), *pictures]):
        result = CliRunner().invoke(cli, ["audit", "diff", *args])
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        (line,) = result.stderr.splitlines()
        assert f"event {forged['version']} (ActionTaken)" in line and "nest deeper" in line
        assert "internal error" not in line
    assert not list(tmp_path.glob("p-*.svg"))


def test_simulate_refuses_an_html_file_in_a_missing_directory_before_it_stores_a_game(db, tmp_path):
    html = tmp_path / "no-such-dir" / "report.html"
    args = ["--db", db, "simulate", "dungeon-short", "--games", "2", "--store", "--html", str(html)]
    before = CliRunner().invoke(cli, ["--db", db, "games", "--json"]).stdout
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"Error: cannot write {html}")
    assert CliRunner().invoke(cli, ["--db", db, "games", "--json"]).stdout == before  # nothing stored


def played_game(db):
    seats = ["--player", "Ann", "--player", "Bo"]
    created = CliRunner().invoke(cli, ["--db", db, "new", "dungeon-short", *seats])
    game = created.stdout.strip()
    assert CliRunner().invoke(cli, ["--db", db, "play", game, "--bots", "--seed", "1"]).exit_code == 0
    return game


def test_show_writes_no_picture_when_either_picture_file_is_refused(db, tmp_path):
    game = played_game(db)
    svg, png = tmp_path / "board.svg", tmp_path / "board.png"
    png.write_bytes(b"keep me")
    result = CliRunner().invoke(cli, ["--db", db, "show", game, "--svg", str(svg), "--png", str(png)])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: {png} exists: nothing written (--force overwrites it)\n"
    assert not svg.exists() and png.read_bytes() == b"keep me"
    same = ["--db", db, "show", game, "--svg", str(svg), "--png", str(svg), "--force"]
    result = CliRunner().invoke(cli, same)
    assert result.exit_code == 2 and "both name" in result.stderr and not svg.exists()


def test_audit_diff_writes_neither_picture_when_one_exists(tmp_path):
    document = unpack(HANA.read_bytes())
    forged = [e for e in document["events"] if e["type"] == "ActionTaken"][5]
    forged["fields"]["nonce"] = b"forged"
    path = tmp_path / "forged.nkr"
    path.write_bytes(pack(rechain(document)))
    (tmp_path / "p-b.svg").write_bytes(b"keep me")
    result = CliRunner().invoke(cli, ["audit", "diff", str(HANA), str(path), "--svg", str(tmp_path / "p")])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: {tmp_path / 'p-b.svg'} exists: nothing written (--force overwrites it)\n"
    assert not (tmp_path / "p-a.svg").exists() and (tmp_path / "p-b.svg").read_bytes() == b"keep me"
    forced = CliRunner().invoke(
        cli, ["audit", "diff", str(HANA), str(path), "--svg", str(tmp_path / "p"), "--force"]
    )
    assert forced.exit_code == 1 and (tmp_path / "p-b.svg").read_bytes().startswith(b"<?xml")


@pytest.mark.parametrize(
    "command",
    [["tournament", "report", str(HANA)], ["simulate", "dungeon-short", "--games", "1"]],
    ids=["tournament", "simulate"],
)
def test_an_empty_html_file_name_is_refused_not_taken_for_no_page(command):
    result = CliRunner().invoke(cli, [*command, "--html", ""])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == "Error: --html needs a file name (or - for stdout)\n"
