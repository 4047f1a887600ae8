"""The `talisman` board picture: the regions round the Crown from the content, the Dungeon and the Keep
attached only when in play, every character a labelled token, the sheets' stats, readable on a phone."""

from __future__ import annotations

import copy
import hashlib
import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.rulesets import ruleset_class
from event_store.app.replay_file import read_replay
from event_store.app.service import GameService, play_with_bots
from projections.pictures import draw_board
from projections.pictures.kit import check_readable
from projections.replay_source import ReplaySource
from projections.talisman_names import name_of
from projections.views import STOPPED_HEAD
from simulation.bot_games import bot_game_options

SVG = "{http://www.w3.org/2000/svg}"
SEATS = [("Ann", None), ("Bo", None), ("Cy", None)]
CONFIGS = {
    "alone": {},
    "dungeon": {"dungeon": "true"},
    "keep": {"keep": "true"},
    "both": {"dungeon": "true", "keep": "true"},
}
REPLAYS = sorted((Path(__file__).resolve().parents[2] / "replays").glob("talisman-*.nkr"))
ACTIONS = 160  # enough for cards to lie face up and the characters to move, quick to play


@pytest.fixture(scope="module")
def games():
    """A seeded bot game of each configuration, played a while: {config: (service, game id)}."""
    counter = itertools.count()

    def next_seed() -> bytes:
        return hashlib.sha256(f"talisman-picture-seed-{next(counter)}".encode()).digest()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("event_store.app.service.new_seed", next_seed)
        service = GameService.open(":memory:")
        played = {}
        for config, options in CONFIGS.items():
            game = service.create_game("talisman", SEATS, bot_game_options("talisman", options))
            play_with_bots(service, game, "3", max_actions=ACTIONS)
            played[config] = (service, game)
    yield played
    service.close()


def folds_of(played: tuple[GameService, Any]) -> list[Any]:
    """Returns the game's fold before the deal, just after it, half-way and at its last event."""
    service, game = played
    last = service.fold(game).version
    first = service.fold(game, 1)
    dealt = next(f for v in range(2, last) if (f := service.fold(game, v)).state["phase"] != "setup")
    return [first, dealt, *(service.fold(game, version) for version in (last // 2, last))]


def cells(svg: str) -> dict[str, str]:
    """Returns each drawn space's words by its number (`O4` → `O4 Sentinel (to M15): Ann`)."""
    labels = [g.get("aria-label", "") for g in ET.fromstring(svg).iter(f"{SVG}g")]
    return {found.split(" ", 1)[0]: found for found in labels if re.match(r"[A-Z]\d* ", found)}


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def sheet_texts(svg: str, player: str) -> list[str]:
    (row,) = [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("aria-label") == f"{player}'s sheet"]
    return texts(row)


def with_state(fold: Any, state: dict[str, Any]) -> SimpleNamespace:
    return SimpleNamespace(ruleset_name=fold.ruleset_name, ruleset=fold.ruleset, state=state)


# --- every picture ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS)
def test_each_picture_parses_reads_on_a_phone_and_names_every_player_and_space(games, config):
    for fold in folds_of(games[config]):
        svg = draw_board(fold)
        ET.fromstring(svg)
        assert check_readable(svg) == []
        drawn = cells(svg)
        for board in fold.ruleset.ctx.board.boards:
            for index, space in enumerate(board.spaces):
                number = board.id[0].upper() + ("" if board.id == "crown" else str(index))
                assert drawn[number].startswith(f"{number} {space.name}")
        words = " ".join(texts(ET.fromstring(svg)))
        for player, _ in SEATS:
            assert player in words


@pytest.mark.parametrize(
    ("config", "letters"), [("alone", ""), ("dungeon", "D"), ("keep", "K"), ("both", "DK")]
)
def test_the_dungeon_and_the_keep_are_drawn_only_when_in_play(games, config, letters):
    fold = folds_of(games[config])[-1]
    drawn = cells(draw_board(fold))
    assert {n[0] for n in drawn} - set("OMIC") == set(letters)
    for board in letters:
        spaces = fold.ruleset.ctx.spaces["dungeon" if board == "D" else "keep"]
        first = 0 if board == "D" else 1  # the Keep's levels start at its space 1
        for index in range(first, len(spaces)):
            assert drawn[f"{board}{index}"].startswith(f"{board}{index} {spaces[index].name}")


@pytest.mark.parametrize("path", REPLAYS, ids=lambda path: path.stem)
def test_every_step_of_the_shipped_talisman_replays_draws_a_readable_picture(path):
    replay = read_replay(path.read_bytes(), path.name)
    source = ReplaySource(replay.header["game"], replay.events)
    for number in range(1, source.last + 1, max(source.last // 12, 1)):
        fold = source.fold_at(number)
        svg = draw_board(fold)
        assert check_readable(svg) == []
        players = [name for name, sheet in fold.state["players"].items() if sheet["status"] != "out"]
        assert all(name in " ".join(cells(svg).values()) for name in players)


def test_the_ways_into_the_expansions_are_tagged_only_when_they_are_in_play(games):
    def tagged(config: str, state: dict[str, Any] | None = None) -> set[str]:
        fold = folds_of(games[config])[2]
        svg = draw_board(with_state(fold, state or fold.state))
        return {n for n, words in cells(svg).items() if re.search(r"\(to [^)]*[DK]\d", words)}

    assert tagged("alone") == set()
    # The Keep's ways in are places whose table offers one (the Mystic at the Village…).
    assert "O0" in tagged("keep") and not {n for n in tagged("keep") if n[0] in "DK"}
    # The Dungeon's are the Doorways lying face up.
    state = copy.deepcopy(folds_of(games["dungeon"])[2].state)
    state["cards"]["outer"][3].append("talisman/card/doorway-1")
    assert "O3" in tagged("dungeon", state)


def test_the_same_fold_gives_the_same_bytes(games):
    fold = folds_of(games["both"])[2]
    assert draw_board(fold) == draw_board(copy.deepcopy(fold))


# --- pieces, cards and sheets ------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS)
def test_every_character_in_play_stands_on_its_own_space(games, config):
    for fold in folds_of(games[config]):
        drawn = cells(draw_board(fold))
        for player, sheet in fold.state["players"].items():
            if sheet["status"] == "out":
                continue
            board, space = sheet["board"], sheet["space"]
            number = board[0].upper() + ("" if board == "crown" else str(space))
            assert player in drawn[number].split(":", 1)[1]


def test_a_piece_that_moves_is_drawn_on_its_new_space(games):
    fold = folds_of(games["alone"])[2]
    state = copy.deepcopy(fold.state)
    sheet = state["players"]["Ann"]
    before = draw_board(with_state(fold, state))
    sheet["board"], sheet["space"] = "inner", 3
    after = draw_board(with_state(fold, state))
    assert after != before
    assert "Ann" in cells(after)["I3"] and "Ann" not in cells(before)["I3"]


def test_characters_in_the_dungeon_and_the_keep_are_drawn_there(games):
    fold = folds_of(games["both"])[-1]
    state = copy.deepcopy(fold.state)
    state["players"]["Ann"].update(board="dungeon", space=6)
    state["players"]["Bo"].update(board="keep", space=4)
    drawn = cells(draw_board(with_state(fold, state)))
    assert "Ann" in drawn["D6"].split(":", 1)[1] and "Bo" in drawn["K4"].split(":", 1)[1]


@pytest.mark.parametrize("config", CONFIGS)
def test_what_lies_face_up_is_counted_on_its_space_and_named_under_the_board(games, config):
    fold = folds_of(games[config])[-1]
    svg = draw_board(fold)
    words, drawn = " ".join(texts(ET.fromstring(svg))), cells(svg)
    lying = [
        (board, index, cards)
        for board, spaces in fold.state["cards"].items()
        for index, cards in enumerate(spaces)
        if cards and board != "keep"  # a Keep tile is shown as its cell's tag
    ]
    assert lying, "the bots laid no card face up"
    for board, index, cards in lying:
        number = board[0].upper() + str(index)
        assert f"{len(cards)} card" in drawn[number]
        assert all(name_of(card) in words for card in cards)


@pytest.mark.parametrize("config", CONFIGS)
def test_the_sheets_show_the_stats_the_state_holds(games, config):
    fold = folds_of(games[config])[-1]
    svg = draw_board(fold)
    for player, sheet in fold.state["players"].items():
        # The token's tag, the player, the character, then the table's columns in order.
        tag, name, character, strength, craft, *rest = sheet_texts(svg, player)
        assert name == player and character == name_of(sheet["character"])
        assert strength.split("+")[0] == str(sheet["strength"]) and craft.split("+")[0] == str(sheet["craft"])
        assert rest[:3] == [str(sheet["lives"]), str(sheet["gold"]), sheet["alignment"]]
        counts = [len(sheet[key]) for key in ("objects", "followers", "spells", "talismans", "trophies")]
        assert rest[3:8] == [str(n) for n in counts]


def test_a_stats_change_changes_the_sheet(games):
    fold = folds_of(games["alone"])[2]
    state = copy.deepcopy(fold.state)
    state["players"]["Bo"]["gold"] = 37
    state["players"]["Bo"]["lives"] = 9
    shown = sheet_texts(draw_board(with_state(fold, state)), "Bo")
    assert shown[5:7] == ["9", "37"]  # lives and gold, after the tag, name, character, Strength, Craft


# --- the heading -------------------------------------------------------------------------------------------


def test_the_heading_says_whose_turn_it_is_or_that_the_game_stopped(games):
    fold = folds_of(games["keep"])[2]
    words = texts(ET.fromstring(draw_board(fold)))
    assert "with the Vampire's Keep" in words[0]
    assert any(fold.state["turn"] in w and "to act" in w or "chooses" in w for w in words[1:3])
    assert STOPPED_HEAD in texts(ET.fromstring(draw_board(fold, stopped=True)))


def test_the_heading_names_the_winner(games):
    fold = folds_of(games["alone"])[-1]
    state = copy.deepcopy(fold.state)
    state.update(phase="over", winner="Cy")
    words = texts(ET.fromstring(draw_board(with_state(fold, state))))
    assert any("Game over" in w and "Cy won" in w for w in words[:3])


# --- content and the command line ------------------------------------------------------------------------


def test_a_renamed_space_in_the_groups_own_content_is_drawn_by_its_new_name(games, content_override):
    content_override("talisman", "board.toml", lambda text: text.replace('name = "Tavern"', 'name = "Inn"'))
    fold = folds_of(games["alone"])[0]
    ruleset = ruleset_class("talisman")({})  # built anew: it reads the content in use now
    svg = draw_board(SimpleNamespace(ruleset_name="talisman", ruleset=ruleset, state=fold.state))
    tavern = next(i for i, s in enumerate(ruleset.ctx.board.board("outer").spaces) if s.name == "Inn")
    assert cells(svg)[f"O{tavern}"].startswith(f"O{tavern} Inn")
    assert "Tavern" not in svg


def test_show_writes_the_picture_as_svg_and_png(store_service, db, tmp_path):
    game = store_service.create_game("talisman", SEATS, bot_game_options("talisman", {"keep": "true"}))
    play_with_bots(store_service, game, "5", max_actions=40)
    svg, png = tmp_path / "board.svg", tmp_path / "board.png"
    args = ["--db", db, "show", str(game), "--as", "Ann", "--svg", str(svg), "--png", str(png)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    text = svg.read_text()
    assert check_readable(text) == [] and "K21" in cells(text)
    assert png.read_bytes().startswith(b"\x89PNG")
