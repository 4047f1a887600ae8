"""`nightkeep tournament report` and the report it builds: every game's audit status (a forged or
unreadable file is flagged and never counted), results, lengths and a chi-square test of the dice."""

from __future__ import annotations

import io
import json
import shutil
from collections import Counter
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from scipy.stats import chi2

from cli.main import cli
from event_store.app.replay_file import export_game
from event_store.app.service import play_with_bots
from projections.pictures.kit import check_readable
from projections.report_dice import ALL, PLAYER, PURPOSE, Roll
from projections.report_rows import (
    AUDIT_CLEAN,
    AUDIT_FINDINGS,
    AUDIT_UNCHECKED_DICE,
    AUDIT_UNREADABLE,
    Exit,
    GameRecord,
    Seat,
)
from projections.reports import build_report, render_html, render_text
from tests.log_mutations import pack, rechain, unpack

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
DUNGEON = REPLAYS / "dungeon-short-3p-001.nkr"
KEEP = REPLAYS / "keep-run-3p-001.nkr"
SCRIPTED = REPLAYS / "dungeon-short-2p-scripted-001.nkr"
EMPIRE = REPLAYS / "vampire-empire-001.nkr"
EMPIRE_COPY = REPLAYS / "vampire-empire-001-Hana.nkr"
SCRIPT = "<script>alert(1)</script>"


def run(*args: str) -> object:
    return CliRunner().invoke(cli, ["tournament", "report", *args])


def report_json(*files: Path | str) -> tuple[int, dict]:
    result = run(*(str(f) for f in files), "--json")
    return result.exit_code, json.loads(result.stdout)


def forged_die(source: Path, target: Path) -> Path:
    """Writes a copy of a replay file with one die's face changed and the chain made good again."""
    document = unpack(source.read_bytes())
    entry = next(e for e in document["events"] if e["type"] == "DieRolled")
    entry["fields"]["values"][0] = entry["fields"]["values"][0] % 6 + 1
    target.write_bytes(pack(rechain(document)))
    return target


def record(
    game: str, players: list[str], winner: str = "", faces: Sequence[int] = (), player: str = "", **kw: object
) -> GameRecord:
    """A hand-made finished game whose dice (all one purpose) show `faces`, rolled by `player`."""
    seats = [Seat(i, name, f"talisman/character/c{i}") for i, name in enumerate(players)]
    rolls = [Roll("movement", player or players[0], 6, face) for face in faces]
    fields = {"audit": AUDIT_CLEAN, "status": "finished", "chain": game, **kw}
    return GameRecord(
        source=f"{game}.nkr",
        game=game,
        ruleset="dungeon-short",
        seats=seats,
        winners=[winner] if winner else [],
        rolls=rolls,
        **fields,  # type: ignore[arg-type]
    )


def uniform(per_face: int) -> list[int]:
    return [face for face in range(1, 7) for _ in range(per_face)]


# --- the dice tests -------------------------------------------------------------------------------------


def test_perfectly_uniform_dice_give_statistic_zero_and_p_one():
    report = build_report([record("g1", ["Ann", "Bo"], "Ann", uniform(20))])
    every = next(t for t in report.dice if t.scope == ALL)
    assert every.observed == (20,) * 6
    assert every.statistic == pytest.approx(0.0)
    assert every.p_value == pytest.approx(1.0)
    assert every.dof == 5 and not every.flagged


def test_a_loaded_die_is_flagged_with_the_chi_square_computed_by_hand():
    faces = [1] * 30 + [2] * 10 + [3] * 10 + [4] * 10 + [5] * 10 + [6] * 50
    report = build_report([record("g1", ["Ann", "Bo"], "Ann", faces, player="Bo")])
    expected = len(faces) / 6
    statistic = sum((count - expected) ** 2 / expected for count in (30, 10, 10, 10, 10, 50))
    for test in report.dice:
        assert test.statistic == pytest.approx(statistic)
        assert test.p_value == pytest.approx(chi2.sf(statistic, 5))
        assert test.flagged
    assert [(t.scope, t.name) for t in report.dice] == [(ALL, ""), (PURPOSE, "movement"), (PLAYER, "Bo")]
    assert "3 chi-square tests made, 3 flagged" in " ".join(report.notes())


def test_too_few_rolls_are_counted_but_not_tested():
    report = build_report([record("g1", ["Ann"], "Ann", [1, 2, 3, 6])])
    assert all(not t.tested and not t.flagged and t.rolls == 4 for t in report.dice)
    assert "0 chi-square tests made" in " ".join(report.notes())


def test_per_player_and_per_purpose_counts_sum_to_all_dice():
    _, report = report_json(DUNGEON, KEEP, REPLAYS / "talisman-first-3p-001.nkr")
    tests = report["dice"]["tests"]
    (every,) = [t for t in tests if t["scope"] == ALL]
    for scope in (PURPOSE, PLAYER):
        summed: Counter[str] = Counter()
        for test in (t for t in tests if t["scope"] == scope):
            summed.update(test["observed"])
        assert dict(summed) == every["observed"]
    assert sum(every["observed"].values()) == every["rolls"] > 300


# --- results ---------------------------------------------------------------------------------------------


def test_results_by_player_character_and_seat_count_wins_and_nobody_winning():
    report = build_report(
        [
            record("g1", ["Ann", "Bo"], "Ann"),
            record("g2", ["Bo", "Ann"], "Ann"),
            record("g3", ["Ann", "Bo"], ""),
            record("g4", ["Ann", "Bo"], status="running", audit=AUDIT_UNCHECKED_DICE),
        ]
    )
    players = {t.name: (t.games, t.wins) for t in report.players}
    assert players == {"Ann": (3, 2), "Bo": (3, 0)}
    assert {t.name: (t.games, t.wins) for t in report.seats} == {"seat 1": (3, 1), "seat 2": (3, 1)}
    assert {t.name: t.wins for t in report.characters} == {"c0": 1, "c1": 1}
    assert (report.finished, report.nobody_won, report.nobody_won_share) == (3, 1, pytest.approx(1 / 3))
    assert report.counted == 4
    assert any("1 counted game(s) had not ended" in note for note in report.notes())


def test_two_copies_of_a_game_that_disagree_are_both_flagged_and_not_counted():
    report = build_report(
        [record("g1", ["Ann", "Bo"], "Ann"), record("g1", ["Ann", "Bo"], "Bo", chain="other")]
    )
    assert report.counted == 0 and len(report.flagged) == 2
    assert "disagree" in report.flagged[0].findings[0]


def test_the_replays_count_each_game_once_and_name_their_characters():
    code, report = report_json(DUNGEON, EMPIRE, EMPIRE_COPY, SCRIPTED)
    assert code == 0
    assert (report["games"], report["counted"], report["finished"]) == (4, 3, 3)
    assert report["by_audit"] == {AUDIT_CLEAN: 4}
    copy = next(g for g in report["every_game"] if g["source"].endswith("-Hana.nkr"))
    assert not copy["counted"] and "counted once" in copy["note"]
    characters = {t["name"] for t in report["characters"]}
    assert {"martial artist (dungeon-short)", "human (vampire-empire)"} <= characters
    dungeon = next(g for g in report["every_game"] if g["source"] == str(DUNGEON))
    assert dungeon["winners"] == ["Bo"] and dungeon["events"] == 174
    assert any("scripted dice" in why for why in report["dice"]["excluded"])
    assert set(report["lengths"]) == {"events", "actions", "turns"}
    assert set(report["lengths"]["turns"]) == {"min", "median", "mean", "max"}


def test_json_shape():
    _, report = report_json(KEEP)
    assert set(report) == {
        "games",
        "counted",
        "finished",
        "by_audit",
        "flagged",
        "every_game",
        "nobody_won",
        "players",
        "characters",
        "seats",
        "lengths",
        "exits",
        "dice",
        "notes",
    }
    assert set(report["dice"]) == {"tests", "tests_made", "flagged", "excluded"}
    assert set(report["dice"]["tests"][0]) == {
        "scope",
        "name",
        "sides",
        "rolls",
        "observed",
        "expected",
        "statistic",
        "dof",
        "p_value",
        "flagged",
        "note",
    }
    assert report["players"][0].keys() == {"name", "games", "wins", "rate"}


# --- flagged games ---------------------------------------------------------------------------------------


def test_a_forged_die_is_flagged_and_left_out_of_every_count(tmp_path):
    forged = forged_die(DUNGEON, tmp_path / "forged.nkr")
    code, with_forgery = report_json(KEEP, forged)
    _, without = report_json(KEEP)
    assert code == 1
    (flagged,) = with_forgery["flagged"]
    assert flagged["source"] == str(forged) and flagged["audit"] == AUDIT_FINDINGS
    assert flagged["findings"] and not flagged["counted"]
    for key in ("players", "characters", "seats", "lengths", "dice", "nobody_won"):
        assert with_forgery[key] == without[key], key
    assert with_forgery["counted"] == 1 and with_forgery["games"] == 2


def test_an_unreadable_file_is_flagged_not_a_crash_and_the_page_is_still_written(tmp_path):
    broken = tmp_path / "broken.nkr"
    broken.write_bytes(KEEP.read_bytes()[:500])
    page = tmp_path / "report.html"
    result = run(str(KEEP), str(broken), "--html", str(page))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1].startswith("1 of 2 games flagged (not counted)")
    html = page.read_text()
    assert 'class="warning"' in html and "broken.nkr" in html and AUDIT_UNREADABLE in html


def test_a_missing_file_or_none_is_one_line_and_exit_2(tmp_path):
    missing = run(str(KEEP), str(tmp_path / "nowhere.nkr"))
    assert missing.exit_code == 2
    assert missing.stderr.strip().count("\n") == 0 and "nowhere.nkr" in missing.stderr
    assert run().exit_code == 2


def test_an_existing_html_file_is_kept_without_force(tmp_path):
    page = tmp_path / "report.html"
    page.write_text("mine")
    kept = run(str(KEEP), "--html", str(page))
    assert kept.exit_code == 2 and page.read_text() == "mine"
    assert run(str(KEEP), "--html", str(page), "--force").exit_code == 0
    assert page.read_text().startswith("<!DOCTYPE html>")


def test_bot_games_and_a_running_game_whose_dice_cannot_be_verified_yet(
    memory_service, tmp_path, monkeypatch
):
    files = []
    for n in range(2):
        game_id = memory_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
        play_with_bots(memory_service, game_id, seed=n)
        files.append(tmp_path / f"bot-{n}.nkr")
        files[-1].write_bytes(export_game(memory_service, game_id))
    # A game made before per-turn keys: its dice wait for the seed (a keyed one has them checked, below).
    with monkeypatch.context() as old:
        old.setattr("event_store.app.service.NIGHTKEEP_VERSION", "0.3.0")
        running = memory_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    play_with_bots(memory_service, running, seed=9, max_actions=8)
    files.append(tmp_path / "running.nkr")
    files[-1].write_bytes(export_game(memory_service, running))
    code, report = report_json(*files)
    assert code == 0
    assert report["by_audit"] == {AUDIT_CLEAN: 2, AUDIT_UNCHECKED_DICE: 1}
    assert (report["counted"], report["finished"]) == (3, 2)
    assert sum(t["games"] for t in report["players"]) == 4
    (why,) = report["dice"]["excluded"]
    assert "seed is not revealed" in why and report["dice"]["excluded"][why] > 0
    every = next(t for t in report["dice"]["tests"] if t["scope"] == ALL)
    _, finished_only = report_json(*files[:2])
    assert every == next(t for t in finished_only["dice"]["tests"] if t["scope"] == ALL)
    keyed = memory_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    play_with_bots(memory_service, keyed, seed=9, max_actions=8)
    files.append(tmp_path / "keyed.nkr")
    files[-1].write_bytes(export_game(memory_service, keyed))
    _, with_keyed = report_json(*files)
    assert with_keyed["by_audit"] == {AUDIT_CLEAN: 3, AUDIT_UNCHECKED_DICE: 1}  # checked turn by turn


def test_no_progress_bar_when_stderr_is_not_a_terminal():
    result = run(str(KEEP), str(DUNGEON))
    assert result.exit_code == 0 and result.stderr == ""
    assert "Results by player" in result.stdout


# --- the page and the text --------------------------------------------------------------------------------


class Page(HTMLParser):
    """Collects a page's tags, the attributes that could fetch something, and the plots' captions."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: Counter[str] = Counter()
        self.fetching: list[tuple[str, str]] = []
        self.open: list[str] = []
        self.captions: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1
        self.fetching += [(k, v or "") for k, v in attrs if k in ("src", "href", "xlink:href", "srcset")]
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "figcaption":
            self.captions.append(data)


def test_the_page_is_self_contained_with_a_readable_plot_per_purpose_and_player(tmp_path):
    page = tmp_path / "report.html"
    assert run(str(DUNGEON), str(KEEP), "--html", str(page)).exit_code == 0
    html = page.read_text()
    parsed = Page()
    parsed.feed(html)
    assert parsed.fetching == [] and parsed.tags["script"] == 0 and parsed.tags["link"] == 0
    assert "http" not in html and "url(" not in html
    assert parsed.tags["table"] >= 5
    _, report = report_json(DUNGEON, KEEP)
    labels = [f"{t['scope']} {t['name']} (d6)" for t in report["dice"]["tests"] if t["scope"] != ALL]
    assert labels and all(any(c.startswith(label) for c in parsed.captions) for label in labels)
    assert parsed.tags["svg"] == len(report["dice"]["tests"])
    for svg in html.split("<svg")[1:]:
        svg = "<svg" + svg.split("</svg>")[0]
        assert check_readable(svg) == []


def test_a_player_named_like_a_script_is_escaped_everywhere():
    report = build_report(
        [
            record("g1", [SCRIPT, "Bo"], SCRIPT, uniform(10)),
            record("g2", [SCRIPT, "Bo"], "", audit=AUDIT_FINDINGS, findings=[f"event 3: rules: {SCRIPT}"]),
        ]
    )
    html = render_html(report)
    assert SCRIPT not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    parsed = Page()
    parsed.feed(html)
    assert parsed.tags["script"] == 0
    assert SCRIPT in render_text(report)  # a terminal shows the name as it is


def test_the_text_summary_warns_of_flagged_games(tmp_path, monkeypatch):
    forged = forged_die(DUNGEON, tmp_path / "forged.nkr")
    monkeypatch.chdir(tmp_path)  # named as typed: a long temp path (an xdist worker's) wraps in the table
    result = run(str(KEEP), forged.name)
    assert result.exit_code == 1
    assert "FLAGGED games (not counted)" in result.stdout and "forged.nkr" in result.stdout
    assert "Dice fairness" in result.stdout


def test_copies_given_twice_are_audited_once(tmp_path):
    copy = tmp_path / "copy.nkr"
    shutil.copy(KEEP, copy)
    code, report = report_json(KEEP, KEEP, copy)
    assert code == 0 and report["games"] == 2 and report["counted"] == 1


def test_how_characters_left_is_counted_by_character_how_and_where():
    exits = [
        Exit("Ann", "talisman/character/c0", "won"),
        Exit("Bo", "talisman/character/c1", "killed", "Pit"),
    ]
    report = build_report(
        [
            record("g1", ["Ann", "Bo"], "Ann", exits=exits),
            record("g2", ["Ann", "Bo"], "Ann", exits=exits[1:]),
        ]
    )
    assert [(e.character, e.how, e.where, e.count) for e in report.exits] == [
        ("c1", "killed", "Pit", 2),
        ("c0", "won", "", 1),
    ]
    assert "How characters left" in render_text(report) and "How characters left" in render_html(report)


def test_a_replays_record_has_its_seats_winner_ending_turns_and_every_die():
    from event_store.log_reader import read_file, read_log
    from projections.reports import record_of

    checked = read_log(read_file(KEEP), str(KEEP))
    recorded = checked.recorded()
    game = record_of(str(KEEP), recorded, AUDIT_CLEAN, [], game=checked.report.game)
    assert [(s.index, s.player) for s in game.seats] == [(0, "Ann"), (1, "Bo"), (2, "Cy")]
    assert game.seats[0].character == "talisman/character/warrior"
    assert game.winners == ["Ann"] and "Ann" in game.ending and game.status == "finished"
    assert (game.events, game.game) == (len(recorded), checked.report.game)
    assert 0 < game.turns <= game.actions  # a Keep turn is one action; the host's start is one more
    dice = [r for r in recorded if r.type_name == "DieRolled"]
    assert len(game.rolls) == sum(len(r.fields["values"]) for r in dice)
    assert {roll.sides for roll in game.rolls} == {6}


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_bar_on_a_terminals_stderr(monkeypatch):
    from cli.tournament_command import audited_records

    stderr = Terminal()
    monkeypatch.setattr("sys.stderr", stderr)
    (game,) = audited_records([str(KEEP)], jobs=1)
    assert game.audit == AUDIT_CLEAN
    assert "auditing" in stderr.getvalue()
