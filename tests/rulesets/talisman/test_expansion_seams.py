"""The seams the expansions plug into the main board with (house rule H5.20: the expansions as options):
evolve steps chained after the main board's, new sheets given every expansion's keys, and the short
games' shared steps killing by the main board's rule while the `talisman` ruleset resolves."""

from __future__ import annotations

from typing import Any, ClassVar

from domain.dice import ScriptedDice
from domain.events import CharacterDealt, LifeLost, PlayerOut
from domain.resolution import Resolution
from domain.rulesets.talisman import effects
from domain.rulesets.talisman.main.events import CharacterDied
from domain.rulesets.talisman.main.expansion import Expansion, ExpansionContent
from domain.rulesets.talisman.main.handlers import HANDLERS
from domain.rulesets.talisman.main.ruleset import merged_handlers
from tests.main_helpers import ANN, new_game


class _Toy(Expansion):
    name: ClassVar[str] = "toy"
    boards: ClassVar[tuple[str, ...]] = ("toy",)
    handlers: ClassVar[dict[type, Any]] = {
        CharacterDealt: lambda state, e: state["players"][e.player].update(
            toy_seen=state["players"][e.player]["board"]
        )
    }

    def content(self) -> ExpansionContent[Any]:
        return ExpansionContent(sheet_keys={"toy_list": []})


def test_a_game_without_expansions_keeps_the_main_boards_own_steps():
    game, _ = new_game()
    assert game.expansions == () and game.handlers is HANDLERS and game.game_rules is None


def test_an_expansions_step_runs_after_the_main_boards_and_new_sheets_get_its_keys():
    game, state = new_game()
    steps = merged_handlers((_Toy(game.ctx),))
    fresh = {**state, "players": {}}
    steps[CharacterDealt](fresh, CharacterDealt(player=ANN, character="talisman/character/warrior", draw=-1))
    sheet = fresh["players"][ANN]
    # The main step made the sheet (on the Tavern), then the keys, then the toy's own step saw it.
    assert (sheet["board"], sheet["toy_seen"], sheet["toy_list"]) == ("outer", "outer", [])
    other = {**state, "players": {}}
    steps[CharacterDealt](other, CharacterDealt(player=ANN, character="talisman/character/warrior", draw=-1))
    assert other["players"][ANN]["toy_list"] is not sheet["toy_list"]  # each sheet its own list


def test_with_an_expansion_the_shared_steps_kill_by_the_main_boards_rule():
    game, state = new_game({"dungeon": "true"})
    state["players"][ANN]["lives"] = 1
    res = Resolution(state, ScriptedDice([], ["talisman/character/elf"]), game.evolve, False, game.handlers)
    with game._game_rules():
        effects.lose_lives(res, ANN, 1, "dungeon/card/giant-rat")
    kinds = [type(e) for e in res.events]
    # house rule H5.17: a killed character's player is dealt a new one; it does not leave the race.
    assert LifeLost in kinds and CharacterDied in kinds and PlayerOut not in kinds
    assert res.state["players"][ANN]["character"] == "talisman/character/elf"
    assert effects.GAME_RULES.get() is None  # only while the ruleset resolves


def test_outside_the_main_board_the_shared_steps_put_a_killed_character_out():
    game, state = new_game({"dungeon": "true"})
    state["players"][ANN]["lives"] = 1
    res = Resolution(state, ScriptedDice(), game.evolve, False, game.handlers)
    effects.lose_lives(res, ANN, 1, "dungeon/card/giant-rat")
    assert [type(e) for e in res.events] == [LifeLost, PlayerOut]
