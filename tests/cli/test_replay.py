"""`nightkeep replay`: stop points (--to, --at N, turn:T), files without the store, stepping with keys."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from cli.replay_keys import KEY_GUIDE, KEY_HELP, TerminalKeys, command_for, key_names, piped_keys, read_line
from domain.events import ActionTaken, TurnEnded
from domain.game import GameFold
from event_store.app.replay_file import read_replay
from event_store.config import store_exists
from projections.replay_source import CHECKPOINT_EVERY, ReplaySource
from projections.turns import next_turn_start, previous_turn_start, turn_at, turn_starts

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
SCRIPTED = REPLAYS / "dungeon-short-2p-scripted-001.nkr"
FILES = sorted(REPLAYS.glob("*.nkr"))


def run(db, *args, input=None):
    return CliRunner().invoke(cli, ["--db", db, "replay", *args], input=input)


def nkr(path=SCRIPTED):
    return read_replay(path.read_bytes(), path.name)


def board_events(output):
    """Returns the event number in each board header printed, in order."""
    return [int(n) for n in re.findall(r" at event (\d+) — ", output)]


def timeline_numbers(output):
    """Returns the event numbers the timeline (everything before the board's blank line) tells."""
    timeline = output.split("\n\n", 1)[0]
    return [int(m) for m in re.findall(r"^ *(\d+)  \S", timeline, flags=re.MULTILINE)]


def ended_turns(path):
    return [r.version for r in nkr(path).events if isinstance(r.event, TurnEnded)]


def toy_game(db, *extra):
    result = CliRunner().invoke(
        cli, ["--db", db, "new", "toy-race", "--player", "Ann", "--player", "Bo", "--json", *extra]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["game"]


def played_toy_game(db):
    game = toy_game(db)
    played = CliRunner().invoke(cli, ["--db", db, "play", game, "--bots", "--seed", "3"])
    assert played.exit_code == 0, played.output
    return game


# --- Plain output: the story up to the stop point, then the board ----------------------------------------


def test_to_n_tells_events_1_to_n_then_shows_the_board_after_event_n(db):
    result = run(db, str(SCRIPTED), "--to", "12")
    assert result.exit_code == 0, result.output
    assert timeline_numbers(result.stdout) == list(range(1, 13))
    assert "Hana lost 1 life to the Guard." in result.stdout
    assert board_events(result.stdout) == [12]
    assert KEY_HELP not in result.stdout  # off a terminal it does not wait for keys


def test_without_a_stop_point_it_tells_the_whole_game(db):
    result = run(db, str(SCRIPTED))
    assert timeline_numbers(result.stdout) == list(range(1, 114))
    assert board_events(result.stdout) == [113]
    assert "finished, won by Vlad" in result.stdout


def test_no_interactive_prints_what_the_default_prints_off_a_terminal(db):
    assert (
        run(db, str(SCRIPTED), "--to", "9", "--no-interactive").stdout
        == run(db, str(SCRIPTED), "--to", "9").stdout
    )


def test_at_n_is_the_same_as_to_n(db):
    assert run(db, str(SCRIPTED), "--at", "40").stdout == run(db, str(SCRIPTED), "--to", "40").stdout


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("turn", [2, 3, 7])
def test_at_turn_t_stops_right_after_the_t_minus_1th_turn_ended(db, path, turn):
    expected = ended_turns(path)[turn - 2]
    result = run(db, str(path), "--at", f"turn:{turn}")
    assert result.exit_code == 0, result.output
    assert board_events(result.stdout) == [expected]
    assert timeline_numbers(result.stdout)[-1] == expected
    # The line numbered `expected` (a choice told with its action has no line of its own, issue 30).
    timeline = result.stdout.split("\n\n", 1)[0]
    (last,) = re.findall(rf"^ *{expected}  (.*)$", timeline, flags=re.MULTILINE)
    assert "'s turn ended; " in last


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_turn_1_starts_just_before_the_first_players_action(db, path):
    first_action = next(
        r.version for r in nkr(path).events if isinstance(r.event, ActionTaken) and r.event.player != "host"
    )
    result = run(db, str(path), "--at", "turn:1")
    assert board_events(result.stdout) == [first_action - 1]
    # The story printed before the board ends with the host's start playing out (the deal).
    last_line = result.stdout.splitlines()[first_action - 2]
    assert last_line.split()[0] == str(first_action - 1)
    assert "Play opened;" in last_line or "begins" in last_line


def test_the_last_turn_is_one_more_than_the_turns_ended(db):
    last = len(ended_turns(SCRIPTED)) + 1
    assert board_events(run(db, str(SCRIPTED), "--at", f"turn:{last}").stdout) == [ended_turns(SCRIPTED)[-1]]
    beyond = run(db, str(SCRIPTED), "--at", f"turn:{last + 1}")
    assert beyond.exit_code == 2 and f"has turns 1 to {last}; there is no turn {last + 1}" in beyond.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--at", "x"], "'x' is not a stop point: give an event number N or turn:T"),
        (["--at", "turn:"], "is not a stop point"),
        (["--at", "turn:-1"], "is not a stop point"),
        (["--at", "-3"], "is not a stop point"),
        (["--at", "0"], "has events 1 to 113; there is no event 0"),
        (["--at", "114"], "has events 1 to 113; there is no event 114"),
        (["--to", "500"], "has events 1 to 113; there is no event 500"),
        (["--at", "turn:0"], "has turns 1 to 14; there is no turn 0"),
        (["--to", "3", "--at", "4"], "give --to or --at, not both"),
        (["--json", "--interactive"], "cannot be --interactive"),
    ],
)
def test_bad_stop_points_exit_2_with_one_line(db, args, fragment):
    result = run(db, str(SCRIPTED), *args)
    assert result.exit_code == 2
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_json_prints_the_summary_at_the_stop_point(db):
    replay = nkr()
    summary = json.loads(run(db, str(SCRIPTED), "--at", "turn:2", "--json").stdout)
    assert summary["game"] == replay.header["game"] and summary["ruleset"] == "dungeon-short"
    assert summary["version"] == ended_turns(SCRIPTED)[0]
    assert summary["status"] == "running" and summary["to_act"] == ["Vlad"]
    assert [p["name"] for p in summary["players"]] == ["Hana", "Vlad"]


# --- GAME or FILE -------------------------------------------------------------------------------------------


def test_a_file_is_replayed_without_opening_the_store(tmp_path):
    missing_dir = tmp_path / "no" / "such" / "dir"
    result = run(str(missing_dir / "store.sqlite"), str(SCRIPTED), "--at", "turn:2")
    assert result.exit_code == 0, result.output
    assert board_events(result.stdout) == [ended_turns(SCRIPTED)[0]]
    assert not (tmp_path / "no").exists()


def test_a_stored_game_replays_like_its_exported_file(new_store, db, tmp_path):
    game = played_toy_game(db)
    out = tmp_path / "toy.nkr"
    assert CliRunner().invoke(cli, ["--db", db, "export", game, "-o", str(out)]).exit_code == 0
    from_store = run(db, game, "--at", "turn:3")
    from_file = run(new_store("unused"), str(out), "--at", "turn:3")
    assert from_store.exit_code == 0, from_store.output
    assert from_store.stdout == from_file.stdout
    assert board_events(from_store.stdout) == [ended_turns(out)[1]]
    assert not store_exists(new_store("unused"))


def test_a_missing_file_is_an_error_and_no_store_is_made(db):
    result = run(db, "nowhere/game.nkr")
    assert result.exit_code == 2 and result.stderr.strip() == "Error: no replay file nowhere/game.nkr"
    assert not store_exists(db)


def test_a_truncated_file_is_refused_in_one_line(db, tmp_path):
    cut = tmp_path / "cut.nkr"
    cut.write_bytes(SCRIPTED.read_bytes()[:-40])
    result = run(db, str(cut))
    assert result.exit_code == 2 and "cut.nkr is truncated" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_unknown_game_exits_2(db):
    from event_store.app.service import GameService

    store = GameService.open(db)  # an existing store without that game
    assert store.recorder.max_notification_id() in (0, None)
    result = run(db, "1b4e28ba-2fa1-11d2-883f-0016d3cca427")
    assert result.exit_code == 2 and "no game 1b4e28ba-2fa1-11d2-883f-0016d3cca427" in result.stderr


def test_a_game_the_host_has_not_started_has_no_turns(db):
    game = toy_game(db, "--wait-for-entropy")
    result = run(db, game, "--at", "turn:1")
    assert result.exit_code == 2 and "has not started, so it has no turns" in result.stderr
    assert board_events(run(db, game, "--at", "1").stdout) == [1]


# --- Stepping with keys ----------------------------------------------------------------------------------


def step(db, keys, *args, source=str(SCRIPTED)):
    result = run(db, source, "--interactive", *args, input=keys)
    assert result.exit_code == 0, result.output
    return result


def test_next_next_back_quit_ends_one_event_after_the_start(db):
    assert board_events(step(db, "nnbq").stdout) == [1, 2, 3, 2]
    assert board_events(step(db, "nnbq", "--at", "40").stdout) == [40, 41, 42, 41]


def test_each_frame_tells_the_event_and_the_keys(db):
    frames = step(db, "q", "--to", "13").stdout
    assert "Event 13/113 (turn 2/14): Hana's turn ended; Vlad is next." in frames
    assert KEY_HELP in frames
    assert "Event 1/113 (before turn 1):" in step(db, "q").stdout


def test_space_enter_and_arrows_step_like_n_and_b(db):
    assert board_events(step(db, " \r\x1b[C\x1b[Dq").stdout) == [1, 2, 3, 4, 3]


def test_turn_keys_go_to_where_turns_start(db):
    first, second, third = ended_turns(SCRIPTED)[:3]
    turn_1 = 6  # PlayOpened, just before Hana's first roll
    frames = board_events(step(db, "]]N", "--to", "1").stdout)
    assert frames == [1, turn_1, first, second]
    assert board_events(step(db, "B[[", "--to", str(third - 1)).stdout) == [third - 1, second, first, turn_1]


def test_jump_takes_an_event_number_or_a_turn(db):
    assert board_events(step(db, "j42\nq").stdout) == [1, 42]
    assert board_events(step(db, "jturn:3\nq").stdout) == [1, ended_turns(SCRIPTED)[1]]


def test_a_bad_jump_stays_put_and_says_why(db):
    result = step(db, "j999\njnonsense\nj\nq", "--to", "5")
    assert board_events(result.stdout) == [5, 5, 5, 5]
    assert "has events 1 to 113; there is no event 999" in result.stdout
    assert "'nonsense' is not a stop point" in result.stdout


def test_g_and_shift_g_go_to_the_first_and_last_events(db):
    assert board_events(step(db, "Gg", "--to", "50").stdout) == [50, 113, 1]


def test_moving_past_either_end_stays_and_says_so(db):
    result = step(db, "bGn")
    assert board_events(result.stdout) == [1, 1, 113, 113]
    assert "this is the first event" in result.stdout and "this is the last event" in result.stdout


def test_an_unknown_key_is_named_and_ignored(db):
    result = step(db, "xn")
    assert board_events(result.stdout) == [1, 1, 2] and "unknown key 'x'" in result.stdout


@pytest.mark.parametrize(("keys", "last"), [("nn", 3), ("j", 1), ("j4", 4), ("\x1b", 1)])
def test_the_end_of_the_input_ends_the_replay_cleanly(db, keys, last):
    result = step(db, keys)
    assert board_events(result.stdout)[-1] == last
    assert result.stderr == ""


def test_keys_step_through_a_stored_game_too(db):
    game = played_toy_game(db)
    result = step(db, "nq", "--at", "turn:2", source=game)
    log = json.loads(CliRunner().invoke(cli, ["--db", db, "log", game, "--json"]).stdout)
    ended = [e["version"] for e in log if e["type"] == "TurnEnded"]
    assert board_events(result.stdout) == [ended[0], ended[0] + 1]


# --- The source: folds at any event, cheaply ------------------------------------------------------------


def test_folds_at_any_event_in_any_order_match_a_fold_from_scratch():
    replay = nkr()
    source = ReplaySource(replay.header["game"], replay.events)
    for number in [113, 1, 64, 63, 65, 2, 96, 33, 32, 31, 113, 100, 7]:
        fold, fresh = source.fold_at(number), replay.fold(number)
        assert (fold.version, fold.chain, fold.state, fold.meta) == (
            fresh.version,
            fresh.chain,
            fresh.state,
            fresh.meta,
        ), number


def test_stepping_back_from_the_end_folds_at_most_one_checkpoint_span(monkeypatch):
    replay = nkr()
    source = ReplaySource(replay.header["game"], replay.events)
    source.fold_at(113)
    applied = []
    original = GameFold.apply

    def counting(self, event, chain):
        applied.append(event)
        original(self, event, chain)

    monkeypatch.setattr(GameFold, "apply", counting)
    for number in range(112, 0, -1):
        before = len(applied)
        source.fold_at(number)
        assert len(applied) - before <= CHECKPOINT_EVERY
    assert len(applied) < 112 * 113 // 2  # what folding each step from scratch would cost


# --- Turn numbering --------------------------------------------------------------------------------------


def test_turn_starts_on_a_recorded_game():
    events = [r.event for r in nkr().events]
    starts = turn_starts(events)
    assert starts == [6, *ended_turns(SCRIPTED)]
    assert turn_at(starts, 5) == 0 and turn_at(starts, 6) == 1 and turn_at(starts, 13) == 2
    assert turn_at(starts, 113) == len(starts)
    assert next_turn_start(starts, 6) == 13 and next_turn_start(starts, starts[-1]) is None
    assert previous_turn_start(starts, 13) == 6 and previous_turn_start(starts, 6) is None
    assert turn_starts(events[:5]) == [5]  # dealt but play not opened yet: the last event so far
    assert turn_starts(events[:2]) == []  # the host has not started


# --- Keys as terminals send them, read through prompt_toolkit ---------------------------------------------

HOME, END, PGUP, PGDN = "\x1b[H", "\x1b[F", "\x1b[5~", "\x1b[6~"


def test_terminal_sequences_are_read_as_one_named_key_each():
    typed = f"{HOME}\x1b[1~{END}\x1b[4~{PGUP}{PGDN}\x1b[C\x1b[D\r? \x1b"
    names = ["home", "home", "end", "end", "pageup", "pagedown", "right", "left", "c-m", "?", " ", "escape"]
    assert key_names(typed) == names
    assert [command_for(k) for k in names] == [
        "start", "start", "end", "end", "previous-turn", "next-turn", "next", "back", "next", "help", "next",
        "stay",
    ]  # fmt: skip
    assert command_for("x") is None and command_for("c-c") == command_for("") == "quit"


def test_home_end_and_page_keys_go_to_the_ends_and_step_by_turns(db):
    first, second = ended_turns(SCRIPTED)[:2]
    assert board_events(step(db, END + HOME + "q", "--to", "50").stdout) == [50, 113, 1]
    assert board_events(step(db, PGDN + PGDN + PGUP, "--to", "6").stdout) == [6, first, second, first]


def test_question_mark_shows_every_key_and_no_key_is_unknown_any_more(db):
    result = step(db, "?" + PGDN + HOME + END + "q")
    assert all(line in result.stdout for line in KEY_GUIDE)
    assert "unknown key" not in result.stdout


def test_esc_at_the_jump_prompt_cancels_it_and_stays(db):
    result = step(db, "j4\x1bnq", "--to", "10")
    assert board_events(result.stdout) == [10, 10, 11]
    assert "jump cancelled" in result.stdout and "not a stop point" not in result.stdout


def test_backspace_edits_the_jump_and_ctrl_c_quits(db):
    assert board_events(step(db, "j47\x7f\r\x03n", "--to", "10").stdout) == [10, 4]


def test_read_line_reports_how_it_ended():
    assert read_line(piped_keys("turn:3\r")) == ("enter", "turn:3")
    assert read_line(piped_keys("12\x1b")) == ("escape", "12")
    assert read_line(piped_keys("")) == ("end", "")


def test_keys_are_read_from_a_real_terminal_in_raw_mode(monkeypatch):
    import os

    leader, follower = os.openpty()
    with os.fdopen(follower, "r", closefd=True) as terminal:
        monkeypatch.setattr("sys.stdin", terminal)
        with TerminalKeys() as keys:
            os.write(leader, f"{PGDN}q\x1b".encode())
            assert [keys(), keys(), keys()] == ["pagedown", "q", "escape"]  # the lone Esc after its wait
    os.close(leader)
