"""What the main board's rule tests share: a dealt `talisman` game (Ann the Warrior, Bo the Wizard),
arranging who stands where with what, and landing a character on a space with scripted dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.dice import ScriptedDice
from domain.events import Event, GameCreated
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import decided, fold

ANN, BO = "Ann", "Bo"


def new_game(
    options: dict[str, str] | None = None, characters: Sequence[str] = ("warrior", "wizard")
) -> tuple[TalismanGame, dict[str, Any]]:
    """Returns the ruleset and the state right after the deal (named characters: no picks)."""
    game = TalismanGame(options)
    names = [ANN, BO, "Cy", "Di"][: len(characters)]
    seats = [
        {"name": n, "character": f"talisman/character/{c}"} for n, c in zip(names, characters, strict=True)
    ]
    created = GameCreated(
        ruleset="talisman",
        players=seats,
        options=game.options,
        content_hash="",
        scripted=False,
        dice_script=[],
        nightkeep_version="0.2.0",
    )
    state = game.initial_state(created)
    fold(game, state, game.decide(state, "start", "host", ScriptedDice()))
    return game, state


def put(state: dict[str, Any], player: str, board: str, space: int, **sheet: Any) -> None:
    """Stands a character on (board, space), with any sheet values given."""
    state["players"][player].update(board=board, space=space, **sheet)


def lay(state: dict[str, Any], board: str, space: int, *cards: str) -> None:
    """Lays cards face up on a space (taking them out of the Adventure deck)."""
    for card in cards:
        if card in state["piles"]["adventure"]:
            state["piles"]["adventure"].remove(card)
    state["cards"][board][space] = list(cards)


def act(
    game: TalismanGame,
    state: dict[str, Any],
    action: str,
    player: str = ANN,
    values: Sequence[int] = (),
    cards: Sequence[str] = (),
) -> tuple[list[Event], dict[str, Any]]:
    """Decides an action with scripted dice (all used up, input untouched); returns events and state after."""
    return decided(game, state, action, player, ScriptedDice(values, cards))


def land(
    game: TalismanGame,
    state: dict[str, Any],
    board: str,
    space: int,
    values: Sequence[int] = (),
    cards: Sequence[str] = (),
    player: str = ANN,
) -> tuple[list[Event], dict[str, Any]]:
    """Lands the player on (board, space) by a roll of 1 from the space before it, meeting that space."""
    size = len(state["cards"][board])
    put(state, player, board, (space - 1) % size)
    state.update(turn=player, step="rolled", rolled=1)
    return act(game, state, f"go:{board}:{space}", player, values, cards)
