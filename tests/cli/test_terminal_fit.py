"""Every board, table, log line and replay frame fits an 80x24 terminal, and uses the room of a wider one."""

from __future__ import annotations

import io
import json
import re

import pytest
from click.testing import CliRunner
from rich.console import Console

from cli.main import cli
from cli.replay_command import compose_frame, player_styles
from cli.replay_keys import KEY_GUIDE, KEY_HELP
from event_store.app.service import GameService, play_with_bots
from projections.replay_source import ReplaySource
from simulation.bot_games import bot_game_options
from tests.fresh_games import seeded_seeds

pytestmark = pytest.mark.slow  # a long CLI tour: every board, table and replay frame of the recorded games

# Long names next to short ones, so columns and cells are pressed for room.
SEATS = {
    "dungeon-short": [("Annabelle", None), ("Bo", None), ("Christopher", None), ("Di", None)],
    "keep-run": [("Annabelle", None), ("Bartholomew", None), ("Cy", None)],
    "vampire-empire": [("Vladislav", None), ("Hana", None)],
    "talisman": [("Annabelle", None), ("Bo", None), ("Christopher", None), ("Di", None)],
}
RULESETS = list(SEATS)
# A bot game of the main board runs to its house round cap (house rule H6.1), thousands of events: its
# "finished" game here is its first actions, enough to crowd every region and sheet.
ACTIONS = {"talisman": 250}
POSITIONS = 12  # stop points spread over each game


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Returns a store path with, per ruleset, a finished game and one stopped after a few actions."""
    path = str(tmp_path_factory.mktemp("fit") / "fit.sqlite")
    service = GameService.open(path)
    games = {}
    with seeded_seeds():
        for ruleset, seats in SEATS.items():
            finished = service.create_game(ruleset, seats, bot_game_options(ruleset))
            play_with_bots(service, finished, seed=3, max_actions=ACTIONS.get(ruleset, 100_000))
            running = service.create_game(ruleset, seats, bot_game_options(ruleset))
            play_with_bots(service, running, seed=4, max_actions=12)
            games[ruleset] = (str(finished), str(running), len(service.recorded_events(finished)))
    return path, games


def run(store, width, *args, height=24, input=None):
    path, _ = store
    env = {"COLUMNS": str(width), "LINES": str(height), "NO_COLOR": "1"}
    result = CliRunner().invoke(cli, ["--db", path, *args], env=env, input=input)
    assert result.exit_code == 0, result.output
    return result.stdout


def widest(text):
    return max(map(len, text.splitlines()), default=0)


def stops(last):
    return sorted({1, last, *range(1, last, max(1, last // POSITIONS))})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_show_fits_80_columns_at_every_stop_and_uses_more_at_120(store, ruleset):
    game, _, last = store[1][ruleset]
    wider = []
    for stop in stops(last):
        narrow = run(store, 80, "show", game, "--at", str(stop))
        wide = run(store, 120, "show", game, "--at", str(stop))
        assert widest(narrow) <= 80, (stop, narrow)
        assert widest(wide) <= 120, (stop, wide)
        wider.append(widest(wide) > 80)
    assert any(wider)  # the full layout spreads out when there is room for it


def _sheet_line(text, name):
    return next(line for line in text.splitlines() if re.match(rf"{re.escape(name)}\s", line))


@pytest.mark.parametrize("ruleset", ["dungeon-short", "keep-run", "talisman"])
def test_the_compact_layout_keeps_every_players_name_character_and_stats(store, ruleset):
    game, _, last = store[1][ruleset]
    for stop in stops(last)[3:]:
        text = run(store, 80, "show", game, "--at", str(stop))
        players = json.loads(run(store, 80, "show", game, "--at", str(stop), "--json"))["players"]
        for player in players:
            cells = _sheet_line(text, player["name"]).split()
            assert player["character"].split()[0] in cells, (stop, player)
            assert str(player["space"]) in cells and str(player["lives"]) in cells
            assert str(player["gold"]) in cells and str(player["strength"]) in " ".join(cells)
            for item in player["objects"] + player["followers"]:  # carried things may wrap, never vanish
                assert item.split()[0] in text


def test_the_compact_vampire_board_keeps_both_players_piles(store):
    game, _, last = store[1]["vampire-empire"]
    for stop in stops(last)[3:]:
        text = run(store, 80, "show", game, "--at", str(stop))
        for name in ("Vladislav", "Hana"):
            assert re.search(rf"^{name}\s+(human|vampire)\s+\d+\s+\d+\s+\d+\s+\d+$", text, re.MULTILINE)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_actions_and_log_lines_fit_80_columns(store, ruleset):
    finished, running, _ = store[1][ruleset]
    seat = ["--as", json.loads(run(store, 80, "show", running, "--json"))["to_act"][0]]
    actions = run(store, 80, "actions", running, *seat)
    assert "No legal actions" not in actions and widest(actions) <= 80
    for action in json.loads(run(store, 80, "actions", running, *seat, "--json")):
        assert action["id"] in actions  # ids never wrap: they are typed back whole
    log = run(store, 80, "log", finished)
    assert widest(log) <= 80
    assert widest(run(store, 120, "log", finished)) <= 120


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
def test_every_replay_frame_fits_the_terminal(store, ruleset, width, height):
    service = GameService.open(store[0])
    game = store[1][ruleset][0]
    source = ReplaySource(game, service.recorded_events(service.resolve_game_id(game)))
    styles = player_styles(source)
    for number in range(1, source.last + 1, 3):
        for message in ("", "\n".join(KEY_GUIDE)):
            frame = compose_frame(source, number, message, width, height, styles).plain
            assert len(frame.splitlines()) <= height - 1, (number, frame)  # the last line is the prompt's
            assert widest(frame) <= width, (number, frame)
            assert f"Event {number}/{source.last} " in frame and KEY_HELP in frame


@pytest.mark.parametrize("ruleset", RULESETS)
def test_stepping_with_keys_draws_frames_of_at_most_24_lines(store, ruleset):
    game = store[1][ruleset][0]
    out = run(store, 80, "replay", game, "--interactive", "--to", "20", input="nn]\x1b[6~?q")
    frames = [frame for frame in out.split(KEY_HELP) if frame.strip()]
    assert len(frames) == 6
    for frame in frames:
        assert len(frame.strip("\n").splitlines()) <= 23 and widest(frame) <= 80


def test_a_frame_names_each_player_in_a_colour_of_their_own_and_none_under_no_color(store, monkeypatch):
    service = GameService.open(store[0])
    game = store[1]["dungeon-short"][0]
    source = ReplaySource(game, service.recorded_events(service.resolve_game_id(game)))
    styles = player_styles(source)
    assert len(set(styles.values())) == 4 and list(styles) == ["Annabelle", "Bo", "Christopher", "Di"]
    frame = compose_frame(source, 30, "", 80, 24, styles)
    coloured = {frame.plain[span.start : span.end]: str(span.style) for span in frame.spans}
    assert {name for name in coloured if name in styles}  # some player is named, in their colour
    assert all(style.endswith(styles[name]) for name, style in coloured.items() if name in styles)

    def printed() -> str:
        out = io.StringIO()
        Console(file=out, force_terminal=True, color_system="standard", width=80).print(frame)
        return out.getvalue()

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert re.search(r"\x1b\[[0-9;]*3[1-6]m", printed())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not re.search(r"\x1b\[[0-9;]*3[1-6]m", printed())


def test_the_verbose_log_lines_are_plain_under_no_color(monkeypatch):
    from cli.logging_setup import wants_colour

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert wants_colour(Terminal()) and not wants_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour(Terminal())


def test_piped_output_keeps_a_fixed_width_unless_columns_is_set(store, monkeypatch):
    path, games = store
    game = games["dungeon-short"][0]
    monkeypatch.delenv("COLUMNS", raising=False)
    piped = CliRunner().invoke(cli, ["--db", path, "show", game]).stdout
    assert 80 < widest(piped) <= 120
    assert piped == CliRunner().invoke(cli, ["--db", path, "show", game]).stdout
    assert widest(run(store, 80, "show", game)) <= 80
