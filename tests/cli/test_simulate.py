"""`nightkeep simulate`: the same games for any --jobs, stored as the store's own games or written as
replay files that audit clean, never over what is there, and a summary of how the games went."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli
from projections.reports import record_of
from simulation.bot_games import BotGames, job_count, play_games, summarise


def run(*args: str, db: str | None = None):
    prefix = ["--db", db] if db else []
    return CliRunner().invoke(cli, [*prefix, *args])


def facts(played):
    """What a game is, time of recording aside: its id and every event's type, fields and chain."""
    return [
        (game.game_id, [(r.type_name, r.fields, r.chain) for r in game.recorded], game.audit)
        for game in played
    ]


def test_the_same_seed_plays_the_same_games_on_one_process_or_two():
    planned = BotGames.of("dungeon-short", 4, "jobs")
    one, two = list(play_games(planned, jobs=1)), list(play_games(planned, jobs=2))
    assert facts(one) == facts(two)
    assert [game.game_id for game in one] == [str(planned.game_id(n)) for n in range(4)]
    assert [game.audit for game in one] == ["clean"] * 4  # every game is audited as it is played
    assert summarise("dungeon-short", one).to_json() == summarise("dungeon-short", two).to_json()


def test_jobs_0_plays_on_every_core_this_process_may_use():
    assert job_count(0) >= 1 and job_count(3) == 3


def test_the_simulate_command_says_the_same_for_any_jobs_and_another_seed_plays_other_games():
    args = ["simulate", "keep-run", "--games", "3", "--seed", "7", "--json"]
    one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert json.loads(one.stdout) == json.loads(two.stdout)
    # No progress bar off a terminal: with --json a JSON line per finished game, stdout the report alone.
    told = [json.loads(line) for line in one.stderr.splitlines()]
    assert [(t["game"], t["games"], t["audit"]) for t in told] == [(n, 3, "clean") for n in (1, 2, 3)]
    other = run("simulate", "keep-run", "--games", "3", "--seed", "8", "--json")
    assert json.loads(other.stdout)["lengths"] != json.loads(one.stdout)["lengths"]


def test_the_summary_counts_nobody_winning_lengths_exits_and_win_rates():
    summary = json.loads(run("simulate", "dungeon-short", "--games", "4", "--seed", "3", "--json").stdout)
    assert summary["games"] == 4
    nobody = summary["winners"].get("", 0)
    assert summary["nobody_won"] == {"games": nobody, "share": nobody / 4}
    for spread in summary["lengths"].values():
        assert 0 < spread["min"] <= spread["median"] <= spread["max"]
    assert summary["lengths"]["events"]["max"] * 4 >= summary["events"]
    assert sum(summary["exits"].values()) == 4 * 4  # one exit per seat of a race
    assert summary["exits"].get("won", 0) == 4 - nobody
    assert sum(summary["killed_at"].values()) <= summary["exits"].get("killed", 0)
    assert {seat: r["played"] for seat, r in summary["seats"].items()} == {f"P{n}": 4 for n in range(1, 5)}
    assert sum(r["won"] for r in summary["seats"].values()) == 4 - nobody
    assert sum(r["played"] for r in summary["characters"].values()) == 16


def test_the_text_summary_names_nobody_winning_lengths_exits_and_rates():
    result = run("simulate", "dungeon-short", "--games", "2", "--seed", "3")
    assert result.exit_code == 0, result.output
    for words in (
        "nobody won:",
        "events per game: min",
        "actions per game:",
        "exits:",
        "seats: P",
        "characters:",
    ):
        assert words in result.stdout


def test_stored_games_are_listed_and_audit_clean_and_are_not_stored_twice(db):
    result = run(
        "simulate", "dungeon-short", "--games", "2", "--seed", "s", "--jobs", "2", "--store", "--json", db=db
    )
    assert result.exit_code == 0, result.output
    stored = json.loads(result.stdout)["stored"]
    listed = json.loads(run("games", "--json", db=db).stdout)
    assert sorted(entry["game"] for entry in listed) == sorted(stored)
    for game_id in stored:
        audit = run("audit", game_id, db=db)
        assert audit.exit_code == 0 and "clean" in audit.stdout, audit.output
    again = run("simulate", "dungeon-short", "--games", "2", "--seed", "s", "--store", db=db)
    assert again.exit_code == 2 and again.stderr.count("\n") == 1 and "already holds" in again.stderr
    assert len(json.loads(run("games", "--json", db=db).stdout)) == 2


def test_replay_files_audit_clean_and_a_second_run_overwrites_none(tmp_path):
    out = tmp_path / "games"
    result = run("simulate", "keep-run", "--games", "2", "--seed", "f", "--out", str(out))
    assert result.exit_code == 0, result.output
    files = sorted(out.iterdir())
    assert [f.name for f in files] == ["keep-run-f-0.nkr", "keep-run-f-1.nkr"]
    for file in files:
        audit = run("audit", str(file))
        assert audit.exit_code == 0 and "clean" in audit.stdout and "draws verified" in audit.stdout, (
            audit.output
        )
    before = {f: f.read_bytes() for f in files}
    again = run("simulate", "keep-run", "--games", "3", "--seed", "f", "--out", str(out))
    assert again.exit_code == 2 and again.stderr.count("\n") == 1 and "exist" in again.stderr
    assert sorted(out.iterdir()) == files and {f: f.read_bytes() for f in files} == before


def test_a_seed_that_cannot_name_a_file_is_refused_before_anything_is_written(tmp_path):
    result = run("simulate", "keep-run", "--games", "1", "--seed", "a/b", "--out", str(tmp_path / "x"))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert not Path(tmp_path / "x").exists()


def test_a_bad_ruleset_option_or_jobs_is_one_line_and_exit_2():
    for args in (
        ["simulate", "nope"],
        ["simulate", "keep-run", "--option", "colour=red"],
        ["simulate", "keep-run", "--option", "colour"],
        ["simulate", "keep-run", "--jobs", "many"],
        ["simulate", "keep-run", "--players", "9"],
    ):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stdout == "" and result.stderr.strip().count("\n") == 0, (args, result.stderr)


def test_the_report_is_a_tournaments_with_every_game_audited(tmp_path):
    page = tmp_path / "sim.html"
    result = run("simulate", "dungeon-short", "--games", "6", "--seed", "rep", "--json", "--html", str(page))
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)["report"]
    assert report["by_audit"] == {"clean": 6} and report["flagged"] == []
    assert report["games"] == report["counted"] == 6
    finished = report["finished"]
    assert sum(t["games"] for t in report["seats"]) == finished * len(BotGames.of("dungeon-short", 1).seats)
    assert sum(t["wins"] for t in report["players"]) == finished - report["nobody_won"]["games"]
    tests = report["dice"]["tests"]
    assert tests and all(t["p_value"] is None or 0 <= t["p_value"] <= 1 for t in tests)
    html = page.read_text()
    assert "Simulation: 6 dungeon-short games, seed rep" in html
    assert html.count("<svg") >= 1 and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    again = run("simulate", "dungeon-short", "--games", "6", "--seed", "rep", "--html", str(page))
    assert again.exit_code == 2 and "exists: nothing written" in again.stderr
    text = run("simulate", "dungeon-short", "--games", "6", "--seed", "rep")
    assert "audits: clean 6" in text.stdout and "chi-square tests" in text.stdout


def test_a_game_that_fails_its_audit_is_flagged_and_the_exit_is_1(monkeypatch):
    from domain.audit import AuditReport
    from event_store.app.service import GameService

    real = GameService.audit

    def faulty(self, game_id):
        report: AuditReport = real(self, game_id)
        report.add(3, "dice", "a die showed another face")
        return report

    monkeypatch.setattr(GameService, "audit", faulty)
    result = run("simulate", "keep-run", "--games", "2", "--seed", "bad", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)["report"]
    assert report["by_audit"] == {"findings": 2} and report["counted"] == 0
    assert "event 3: dice: a die showed another face" in report["flagged"][0]["findings"]
    assert "2 of 2 games failed their audit" in result.stderr


def test_a_game_that_fails_its_audit_is_neither_stored_nor_written(monkeypatch, tmp_path):
    from domain.audit import AuditReport
    from event_store.app.service import GameService

    bad = BotGames.of("keep-run", 2, "half").game_id(1)
    real = GameService.audit

    def faulty(self, game_id):
        report: AuditReport = real(self, game_id)
        if game_id == bad:
            report.add(3, "dice", "a die showed another face")
        return report

    monkeypatch.setattr(GameService, "audit", faulty)
    db, out = str(tmp_path / "s.sqlite"), tmp_path / "out"
    args = ["simulate", "keep-run", "--games", "2", "--seed", "half", "--store", "--out", str(out), "--json"]
    result = run(*args, db=db)
    assert result.exit_code == 1, result.output
    told = json.loads(result.stdout)
    good = str(BotGames.of("keep-run", 2, "half").game_id(0))
    assert told["stored"] == [good] and told["files"] == [str(out / "keep-run-half-0.nkr")]
    assert sorted(p.name for p in out.iterdir()) == ["keep-run-half-0.nkr"]
    listed = json.loads(run("games", "--json", db=db).stdout)
    assert [g["game"] for g in listed] == [good]


def test_piped_it_tells_each_finished_game_on_stderr_and_keeps_stdout_for_the_results():
    """Issue 30: `simulate … --games 20` printed nothing for minutes when piped."""
    played = subprocess.run(
        [sys.executable, "-m", "nightkeep", "simulate", "dungeon-short", "--games", "3", "--seed", "told"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert played.returncode == 0, played.stderr
    records = [record_of(*game) for game in play_games(BotGames.of("dungeon-short", 3, "told"), jobs=1)]
    expected = [
        f"game {n}/3 finished: {' and '.join(r.winners)} won in {r.turns} turns"
        for n, r in enumerate(records, start=1)
    ]
    assert played.stderr.splitlines() == expected
    assert "finished:" not in played.stdout and played.stdout.startswith("3 dungeon-short games, ")
