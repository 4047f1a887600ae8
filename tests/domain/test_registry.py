"""The ruleset registry and the one decide skeleton every ruleset shares (domain/rulesets/base.py)."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from eventsourcing.domain import Snapshot

from domain import rulesets
from domain.actions import HOST, START
from domain.dice import ScriptedDice
from domain.errors import BadSetup, IllegalAction, UnknownRuleset
from domain.events import GameCreated
from domain.game import NIGHTKEEP_VERSION, Game, GameFold
from domain.plain import copy_plain
from domain.rulesets import Ruleset, build_ruleset, get_ruleset, ruleset_entry, ruleset_names
from event_store.app.service import GameService
from projections.registry import shown_by
from projections.views import players_summary, render_board, ruleset_describer
from tests.cli.test_startup import imported_after

SEATS: dict[str, list[tuple[str, str | None]]] = {
    "dungeon-short": [("Ann", None), ("Bo", None)],
    "keep-run": [("Ann", None), ("Bo", None)],
    "talisman": [("Ann", None), ("Bo", None)],
    "vampire-empire": [("Hana", "human"), ("Vlad", "vampire")],
    "toy-race": [("Ann", None)],
}
SHIPPED = ["dungeon-short", "keep-run", "talisman", "vampire-empire"]


def fresh_fold(name: str) -> GameFold:
    """Returns the fold of a new, started game of ruleset `name`."""
    service = GameService.open(":memory:")
    return service.fold(service.create_game(name, SEATS[name]))


@pytest.mark.parametrize("name", SHIPPED)
def test_every_entry_names_a_view_and_timeline_that_render_a_fresh_game(name):
    entry = shown_by(name)
    fold = fresh_fold(name)
    view = importlib.import_module(entry.view)
    assert hasattr(view, "render_board") and hasattr(view, "players_summary")
    if entry.timeline:
        assert callable(importlib.import_module(entry.timeline).describe)
    assert render_board(name, fold.state).strip()
    assert [row["name"] for row in players_summary(name, fold.state)] == [n for n, _ in SEATS[name]]
    assert ruleset_describer(name) is not None


REQUIRED = ("initial_state", "legal_actions", "status", "start", "resolve", "validate_setup", "content_paths")


@pytest.mark.parametrize("name", ruleset_names())
def test_every_entry_honours_the_ruleset_contract(name):
    cls = rulesets.ruleset_class(name)
    assert cls.name == name
    assert 1 <= cls.min_players <= cls.max_players
    assert cls.character_slot
    for key, spec in cls.option_specs.items():
        assert spec.default in spec.values and spec.help, key
    for method in REQUIRED:
        assert getattr(cls, method) is not getattr(Ruleset, method), f"{name} does not define {method}"
    # An evolve that is a lookup gives its table to every Resolution; otherwise evolve is its own.
    assert cls.handlers is not None or cls.evolve is not Ruleset.evolve
    built = get_ruleset(name)
    # With no options, a ruleset plays as a recorded game that names none (a new game records them all).
    assert isinstance(built, cls) and built.options == {k: s.absent() for k, s in cls.option_specs.items()}
    assert built.canonical_setup([], {})[1] == {k: s.default for k, s in cls.option_specs.items()}


def test_an_unknown_name_is_refused_with_the_closest_one():
    with pytest.raises(UnknownRuleset, match="did you mean 'keep-run'"):
        build_ruleset("keep-rum")
    with pytest.raises(UnknownRuleset, match="known: "):
        get_ruleset("chess")


def test_options_are_canonical_and_each_set_is_built_once():
    hoard = build_ruleset("keep-run", {"hoard": "TRUE"})
    assert hoard is build_ruleset("keep-run", {"hoard": "true"})
    assert hoard.options == {"hoard": "true", "wizard": "auto"}  # Keep 8.4: a game from before the option
    assert get_ruleset("keep-run") is build_ruleset("keep-run", {})
    assert get_ruleset("keep-run").options == {"hoard": "false", "wizard": "auto"}
    assert hoard is not get_ruleset("keep-run")


def test_a_bad_option_value_or_key_is_a_bad_setup():
    with pytest.raises(BadSetup, match="option hoard must be one of true, false"):
        build_ruleset("keep-run", {"hoard": "maybe"})
    with pytest.raises(BadSetup, match="did you mean 'hoard'"):
        build_ruleset("keep-run", {"hord": "true"})
    with pytest.raises(BadSetup, match="takes no options"):
        build_ruleset("dungeon-short", {"hoard": "true"})


def test_the_registry_lists_every_entry_and_has_hidden_information_reads_the_class():
    assert set(SHIPPED) <= set(ruleset_names())
    # Every ruleset the package ships is in SHIPPED, so the contract tests above run on each of them.
    assert {n for n in ruleset_names() if ruleset_entry(n).ruleset.startswith("domain.")} == set(SHIPPED)
    assert rulesets.has_hidden_information("vampire-empire")
    assert not rulesets.has_hidden_information("dungeon-short")


def test_a_holder_builds_its_ruleset_from_the_game_created_options():
    service = GameService.open(":memory:")
    game_id = service.create_game("keep-run", SEATS["keep-run"], {"hoard": "True"})
    recorded = {"hoard": "true", "wizard": "choose"}  # a new game records every option
    assert service.fold(game_id).ruleset is build_ruleset("keep-run", recorded)
    assert service.get_game(game_id).ruleset is build_ruleset("keep-run", recorded)


# --- the decide skeleton -------------------------------------------------------------------------------


def created_state(name: str) -> tuple[Ruleset, dict[str, Any]]:
    """Returns a ruleset and its state right after GameCreated (not started)."""
    ruleset = get_ruleset(name)
    seats = [{"name": n, "character": c or ""} for n, c in SEATS[name]]
    seats, options = ruleset.canonical_setup(seats, {})  # type: ignore[arg-type]
    created = GameCreated(
        ruleset=name,
        players=seats,
        options=options,
        content_hash="",
        scripted=False,
        dice_script=[],
        nightkeep_version=NIGHTKEEP_VERSION,
    )
    return ruleset, ruleset.initial_state(created)


def dice() -> ScriptedDice:
    return ScriptedDice([3, 4, 5, 2, 1, 6] * 20)


@pytest.mark.parametrize("name", [*SHIPPED, "toy-race"])
def test_only_the_host_starts_and_only_once(name):
    ruleset, state = created_state(name)
    with pytest.raises(IllegalAction, match="only the host starts"):
        ruleset.decide(state, START, SEATS[name][0][0], dice())
    started = GameFold(ruleset=ruleset, state=copy_plain(state))
    for event in ruleset.decide(state, START, HOST, dice()):
        started.state = ruleset.evolve(started.state, event)
    with pytest.raises(IllegalAction, match="only the host starts"):
        ruleset.decide(started.state, START, HOST, dice())


@pytest.mark.parametrize("name", SHIPPED)
def test_a_wrong_player_or_an_unknown_id_is_an_illegal_action(name):
    fold = fresh_fold(name)
    ruleset = fold.ruleset
    to_act = ruleset.status(fold.state)["to_act"][0]
    other = next(n for n, _ in SEATS[name] if n != to_act)
    action = ruleset.legal_actions(fold.state, to_act)[0].id
    with pytest.raises(IllegalAction, match="not a legal action"):
        ruleset.decide(fold.state, action, other, dice())
    with pytest.raises(IllegalAction, match="not a legal action"):
        ruleset.decide(fold.state, "no-such-action", to_act, dice())


@pytest.mark.parametrize("name", SHIPPED)
def test_decide_never_mutates_and_decide_in_place_gives_the_same_events(name):
    fold = fresh_fold(name)
    ruleset = fold.ruleset
    for _ in range(6):
        status = ruleset.status(fold.state)
        if status["status"] != "running":
            break
        player = status["to_act"][0]
        action = ruleset.legal_actions(fold.state, player)[0].id
        before = copy_plain(fold.state)
        events = ruleset.decide(fold.state, action, player, dice())
        assert fold.state == before
        in_place = ruleset.decide_in_place(fold.state, action, player, dice())
        assert in_place == events
        folded = before
        for event in events:
            folded = ruleset.evolve(folded, event)
        assert fold.state == folded


def test_a_snapshot_leaves_the_ruleset_out_and_rebuilds_it_from_the_options():
    service = GameService.open(":memory:")
    game = service.get_game(service.create_game("keep-run", SEATS["keep-run"], {"hoard": "true"}))
    snapshot = Game.Snapshot.take(game)
    options = snapshot.state["meta"]["options"]
    assert "ruleset" not in snapshot.state and options == {"hoard": "true", "wizard": "choose"}
    assert snapshot.mutate(None).ruleset is game.ruleset


def test_a_game_from_a_snapshot_taken_before_games_kept_their_options_still_has_its_ruleset():
    service = GameService.open(":memory:")
    game = service.get_game(service.create_game("dungeon-short", SEATS["dungeon-short"]))
    old = Snapshot.take(game)  # the library's own class, as stores written before Game.Snapshot hold
    del old.state["ruleset"], old.state["meta"]["options"]
    restored = old.mutate(None)
    assert "ruleset" not in vars(restored) and restored.ruleset is game.ruleset
    assert restored.status == game.status


def test_help_imports_no_ruleset():
    code = (
        "from click.testing import CliRunner\nfrom cli.main import cli\nCliRunner().invoke(cli, ['--help'])"
    )
    modules = imported_after(code)
    assert not {m for m in modules if m.startswith(("domain.rulesets", "projections"))}


def test_a_view_module_is_looked_up_once_per_ruleset():
    fold = fresh_fold("keep-run")
    render_board("keep-run", fold.state)
    calls: list[str] = []
    real = importlib.import_module

    def counting(name: str, package: str | None = None) -> Any:
        calls.append(name)
        return real(name, package)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(importlib, "import_module", counting)
        render_board("keep-run", fold.state)
        players_summary("keep-run", fold.state)
    assert calls == []
