"""`nightkeep audit diff A B`: the first event two copies of a game part at, found by bisection on the
chain; identical copies, prefixes, sealed copies, forged chains and different games."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from event_store.app.replay_file import read_replay
from event_store.log_reader import parse_replay
from projections.log_diff import ChainComparer, bisect_first_difference, compare_logs
from tests.log_mutations import pack, rechain, unpack

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
SCRIPTED = REPLAYS / "dungeon-short-2p-scripted-001.nkr"  # 113 events; event 54: Vlad moves 7 -> 10
HOST = REPLAYS / "vampire-empire-001.nkr"
PUBLIC = REPLAYS / "vampire-empire-001-public.nkr"
HANA = REPLAYS / "vampire-empire-001-Hana.nkr"
LAST = 113


def diff(*args, db=None):
    store = ["--db", db] if db else []
    return CliRunner().invoke(cli, [*store, "audit", "diff", *map(str, args)])


def diff_json(*args, db=None):
    result = diff(*args, "--json", db=db)
    return result, json.loads(result.stdout)


def forged(tmp_path, number, edit, keep_chain=False, name="b.nkr"):
    """Writes a copy of the scripted game with event `number` edited, re-chained unless `keep_chain`."""
    document = unpack(SCRIPTED.read_bytes())
    edit(document["events"][number - 1]["fields"])
    path = tmp_path / name
    path.write_bytes(pack(document if keep_chain else rechain(document)))
    return path


# An edit for each event the tests part the copies at; each still folds.
EDITS = {
    1: lambda f: f.update(nightkeep_version="0.1.1"),
    2: lambda f: f.update(commitment=bytes(32)),
    52: lambda f: f.update(nonce=b"\x01"),
    54: lambda f: f.update(to_space=11),
    LAST: lambda f: f.update(seed=bytes(32)),
}


@pytest.mark.parametrize("number", [2, 52, 54, LAST])
def test_copies_that_part_at_event_n_are_found_to_part_at_exactly_n(tmp_path, number):
    result, found = diff_json(SCRIPTED, forged(tmp_path, number, EDITS[number]))
    assert result.exit_code == 1, result.output
    assert found["verdict"] == "diverged" and found["same_game"]
    assert found["first_difference"] == number and found["shared"] == number - 1
    assert found["method"] == "bisection" and found["chains_link"]


def test_copies_that_part_at_event_1_differ_in_their_setup_so_they_are_different_games(tmp_path):
    result, found = diff_json(SCRIPTED, forged(tmp_path, 1, EDITS[1]))
    assert result.exit_code == 1
    assert found["verdict"] == "different-games" and not found["same_game"]
    assert found["first_difference"] == 1 and found["shared"] == 0


def test_the_bisection_makes_a_logarithmic_number_of_chain_comparisons(tmp_path):
    bound = math.ceil(math.log2(LAST + 1))
    for number in (2, 54, LAST):
        _, found = diff_json(SCRIPTED, forged(tmp_path, number, EDITS[number], name=f"{number}.nkr"))
        assert 1 <= found["comparisons"] <= bound, (number, found["comparisons"])


def test_bisection_counts_its_comparisons_on_a_long_log():
    length = 100_000
    for first in (0, 1, 4_321, length - 1, length):
        a = [b"%d" % i for i in range(length)]
        b = a[:first] + [b"x%d" % i for i in range(first, length)]
        compare = ChainComparer(a, b)
        assert bisect_first_difference(compare, length) == first
        assert compare.count <= math.ceil(math.log2(length + 1))  # 17, where a scan could make 100,000


def test_the_event_where_they_part_is_told_in_both_copies_with_the_boards_around_it(tmp_path):
    result = diff(SCRIPTED, forged(tmp_path, 54, EDITS[54]))
    out = result.stdout
    assert "Same game, parted at event 54: events 1-53 are alike" in out
    assert "A event 54: Vlad moved from the Well Room (7) to the Narrow Stair (10)." in out
    assert "B event 54: Vlad moved from the Well Room (7) to the Echoing Gallery (11)." in out
    shared, a, b = (
        out.index("The last shared board (event 53):"),
        out.index("A at event 54:"),
        out.index("B at event 54:"),
    )
    assert shared < a < b
    assert (
        " at event 53 — " in out[shared:a] and " at event 54 — " in out[a:b] and " at event 54 — " in out[b:]
    )


def test_json_gives_the_verdict_both_copies_the_event_and_the_boards(tmp_path):
    _, found = diff_json(SCRIPTED, forged(tmp_path, 54, EDITS[54]))
    assert set(found) >= {"verdict", "first_difference", "shared", "comparisons", "a", "b", "event", "boards"}
    assert found["a"] == {
        "source": str(SCRIPTED),
        "game": "e65b0edc-3761-4f46-a8d6-51948e5a9597",
        "ruleset": "dungeon-short",
        "events": LAST,
        "sealed": 0,
        "chain_breaks_at": None,
    }
    assert found["event"]["b"] == "Vlad moved from the Well Room (7) to the Echoing Gallery (11)."
    assert set(found["boards"]) == {"shared", "a", "b"}
    assert found["boards"]["a"] != found["boards"]["b"]
    assert found["boards"]["shared"] != found["boards"]["a"]


def test_svg_writes_both_boards_at_the_first_difference(tmp_path):
    result = diff(SCRIPTED, forged(tmp_path, 54, EDITS[54]), "--svg", tmp_path / "dispute")
    assert result.exit_code == 1, result.output
    a, b = (tmp_path / "dispute-a.svg").read_bytes(), (tmp_path / "dispute-b.svg").read_bytes()
    assert a.startswith(b"<?xml") or b"<svg" in a[:200]
    assert a != b
    assert "wrote" in result.stderr
    again = diff(SCRIPTED, tmp_path / "b.nkr", "--svg", tmp_path / "dispute")
    assert again.exit_code == 2 and "exists" in again.stderr  # kept without --force
    assert diff(SCRIPTED, tmp_path / "b.nkr", "--svg", tmp_path / "dispute", "--force").exit_code == 1


def test_identical_copies_are_the_same_game_with_exit_0():
    result, found = diff_json(SCRIPTED, SCRIPTED)
    assert result.exit_code == 0
    assert found["verdict"] == "identical" and found["first_difference"] is None and found["shared"] == LAST
    assert found["comparisons"] <= math.ceil(math.log2(LAST + 1))


def test_the_host_a_player_and_the_public_copy_of_a_game_are_the_same_game():
    for first, second in ((HOST, PUBLIC), (HOST, HANA), (HANA, PUBLIC)):
        result, found = diff_json(first, second)
        assert result.exit_code == 0, result.output
        assert found["verdict"] == "identical" and found["chains_link"]
    _, found = diff_json(HOST, PUBLIC)
    assert found["a"]["sealed"] == 0 and found["b"]["sealed"] > 0
    assert "Same game, identical: all 337 events alike" in diff(HOST, PUBLIC).stdout


def test_a_stored_host_game_and_its_public_file_are_the_same_game(db):
    imported = CliRunner().invoke(cli, ["--db", db, "import", str(HOST), "--json"])
    assert imported.exit_code == 0, imported.output
    game = json.loads(imported.stdout)["game"]
    result, found = diff_json(game[:8], PUBLIC, db=db)
    assert result.exit_code == 0, result.output
    assert found["verdict"] == "identical" and found["a"]["game"] == game


def test_a_copy_that_stops_early_is_a_prefix_with_exit_0(tmp_path):
    document = unpack(SCRIPTED.read_bytes())
    document["events"] = document["events"][:100]
    short = tmp_path / "short.nkr"
    short.write_bytes(pack(rechain(document)))
    result, found = diff_json(SCRIPTED, short)
    assert result.exit_code == 0
    assert found["verdict"] == "prefix" and found["longer"] == "a" and found["extra_events"] == 13
    assert found["shared"] == 100 and found["first_difference"] is None
    told = diff(SCRIPTED, short).stdout
    assert "B is a prefix of A, which holds 13 more events (B ends at event 100, A at 113;" in told


def test_a_forged_copy_that_kept_the_chain_values_is_named_and_compared_event_by_event(tmp_path):
    # Equal chain values everywhere: a bisection trusting them would call the copies identical.
    forgery = forged(tmp_path, 54, EDITS[54], keep_chain=True)
    result, found = diff_json(SCRIPTED, forgery)
    assert result.exit_code == 1
    assert found["b"]["chain_breaks_at"] == 54 and found["a"]["chain_breaks_at"] is None
    assert not found["chains_link"] and found["method"] == "event by event"
    assert found["verdict"] == "diverged" and found["first_difference"] == 54
    assert "B's chain does not link at event 54" in diff(SCRIPTED, forgery).stdout


def test_different_games_are_said_to_be_different():
    result = diff(SCRIPTED, HOST)
    assert result.exit_code == 1
    assert "Different games" in result.stdout and "dungeon-short for Hana, Vlad" in result.stdout


def test_a_fork_is_named_as_a_fork_of_the_other_copy():
    result = diff(REPLAYS / "dungeon-short-3p-fork-001.nkr", REPLAYS / "dungeon-short-3p-001.nkr")
    assert result.exit_code == 1
    assert "A is a fork of game 44b88f06-cba9-43ab-a867-83f2d82a3b02 at event 79: its ForkedFrom holds" in (
        result.stdout
    )


@pytest.mark.parametrize("content", [b"", b"not a replay file", b"\x81\xa6format\xa3zip"])
def test_an_unreadable_copy_is_one_line_and_exit_2(tmp_path, content):
    bad = tmp_path / "bad.nkr"
    bad.write_bytes(content)
    result = diff(SCRIPTED, bad)
    assert result.exit_code == 2
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1


def test_a_missing_file_is_exit_2(tmp_path):
    result = diff(SCRIPTED, tmp_path / "missing.nkr")
    assert result.exit_code == 2 and "no replay file" in result.stderr


def test_diff_has_its_own_help_and_audit_still_audits_files(tmp_path):
    helped = CliRunner().invoke(cli, ["audit", "diff", "--help"])
    assert helped.exit_code == 0 and helped.stdout.startswith("Usage: cli audit diff [OPTIONS] A B")
    assert "Example:" in helped.stdout
    audited = CliRunner().invoke(cli, ["audit", str(SCRIPTED), "--json"])
    assert audited.exit_code == 0 and json.loads(audited.stdout)[0]["ok"]


def test_a_file_named_diff_is_audited_as_dot_slash_diff(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("diff").write_bytes(SCRIPTED.read_bytes())
    audited = CliRunner().invoke(cli, ["audit", "./diff", "--json"])
    assert audited.exit_code == 0 and json.loads(audited.stdout)[0]["source"] == "./diff"
    assert CliRunner().invoke(cli, ["audit", "--", "diff"]).exit_code == 0


def test_diff_after_other_arguments_is_refused_with_where_it_goes():
    result = CliRunner().invoke(cli, ["audit", str(SCRIPTED), "diff"])
    assert result.exit_code == 2 and "put diff right after audit" in result.stderr


def test_compare_logs_reads_the_same_from_files_and_their_audited_reading():
    entries = parse_replay(SCRIPTED.read_bytes())[1]
    audited = read_replay(SCRIPTED.read_bytes()).events
    assert [e.chain for e in entries] == [r.chain for r in audited]
    assert compare_logs(audited, audited[:50]).verdict == "prefix"


def test_a_forged_event_no_board_takes_is_said_in_place_of_its_words_and_the_verdict_stands(tmp_path):
    forgery = forged(tmp_path, 54, lambda f: f.update(to_space=999))  # no such space, re-chained
    result = diff(forgery, SCRIPTED, "--svg", tmp_path / "odd")
    assert result.exit_code == 1, result.output
    assert "Same game, parted at event 54" in result.stdout
    assert "A event 54: (event 54 of this copy cannot be shown: " in result.stdout
    assert "B event 54: Vlad moved from the Well Room (7) to the Narrow Stair (10)." in result.stdout
    assert (tmp_path / "odd-b.svg").is_file()


def test_as_a_player_the_boards_show_her_secrets_and_not_the_others(tmp_path):
    document = unpack(HOST.read_bytes())
    document["events"][40]["fields"]["nonce"] = b"\x01"  # event 41, an action, told the same
    copy = tmp_path / "host-b.nkr"
    copy.write_bytes(pack(rechain(document)))
    result = diff(HOST, copy, "--as", "Hana")
    assert result.exit_code == 1, result.output
    assert "parted at event 41" in result.stdout
    assert result.stdout.count("Your hand (Hana") == 3 and "Your hand (Vlad" not in result.stdout
    assert diff(HOST, copy, "--as", "Zed").exit_code == 2


def test_copies_that_part_at_a_choice_show_each_board_once_the_choice_played_out(tmp_path):
    # Event 52 is Vlad's choice (its nonce edited); a choice alone changes no board, so each copy's board
    # is shown after what it set off: events 53-57, up to the next choice at 58.
    result = diff(SCRIPTED, forged(tmp_path, 52, EDITS[52]), "--svg", tmp_path / "choice")
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert "Same game, parted at event 52" in out
    assert "The last shared board (event 51):" in out
    assert "A at event 57, once event 52's choice played out:" in out
    assert "B at event 57, once event 52's choice played out:" in out
    assert " at event 57 — " in out.split("A at event 57")[1]
    _, found = diff_json(SCRIPTED, forged(tmp_path, 52, EDITS[52], name="c.nkr"))
    assert found["boards"]["shared"] != found["boards"]["a"]  # the move of events 53-57 is on the board
