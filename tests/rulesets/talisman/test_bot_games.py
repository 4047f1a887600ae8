"""Bot games of `talisman` end: `simulate` and demos turn on the house round cap for bots (house rule H6.1),
and bots told to play a game created without it say so in the log."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from structlog.testing import capture_logs

from cli.main import cli
from event_store.app.service import GameService, play_with_bots
from simulation.bot_games import bot_game_options, simulate

pytestmark = pytest.mark.slow  # whole bot games of the main board, through simulate and the demos


def test_bot_games_of_talisman_get_the_round_cap_and_others_nothing():
    with capture_logs() as logs:
        assert bot_game_options("talisman") == {"bot_round_cap": "400"}
    assert logs[0]["event"] == "bot_round_cap_set" and logs[0]["rounds"] == 400
    assert bot_game_options("talisman", {"bot_round_cap": "0"}) == {"bot_round_cap": "0"}
    assert bot_game_options("dungeon-short") == {}


def test_simulate_plays_talisman_to_a_winner_or_the_cap():
    summary = simulate("talisman", games=1, seed="5", players=2)
    assert summary.games == 1 and summary.events > 0
    (reason,) = summary.endings
    assert "house round cap for bot games" in reason or "Crown" in reason or "last character" in reason


def test_the_simulate_command_prints_json():
    result = CliRunner().invoke(cli, ["simulate", "dungeon-short", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 2


def test_bots_told_to_play_an_uncapped_talisman_game_warn():
    service = GameService.open(":memory:")
    game_id = service.create_game("talisman", [("Ann", None), ("Bo", None)], {"ending": "first"})
    with capture_logs() as logs:
        play_with_bots(service, game_id, "1", max_actions=5)
    assert any(entry["event"] == "bots_play_without_round_cap" for entry in logs)


def test_a_bot_game_through_the_store_audits_clean_and_folds_to_the_live_state(store_service):
    # Every action re-decided by the audit gives exactly the recorded events; the seed is revealed.
    service = store_service
    options = bot_game_options("talisman", {"ending": "first"})
    game_id = service.create_game("talisman", [("Ann", None), ("Bo", None), ("Cy", None)], options)
    play_with_bots(service, game_id, "audit")
    report = service.audit(game_id)
    assert report.findings == [] and report.status == "finished"
    assert report.draws_verified == report.draws > 0
    assert service.fold(game_id, use_snapshot=False).state == service.get_game(game_id).state
