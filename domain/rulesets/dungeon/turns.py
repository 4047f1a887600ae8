"""A Dungeon turn: dealing, the movement roll, fleeing, the choice of encounter, character combat, turn order.

House decisions, in nightkeep's words:
- Fleeing (Dungeon 9.1) is declared on your own turn before you roll; it never ends the turn.
- The move back after a defeat (Dungeon 7.3) and every move while fleeing (Dungeon 9) are movement
  rolls: the space reached is encountered like any other. Fleeing wins over the defeat rule
  (Dungeon 9.2): both go backwards.
- Landing on a space (not the Entrance, Dungeon 14) where other characters in the race stand, the player
  chooses: encounter the space, or attack one of them. On the Guard Room the Guard must be fought, so
  there is no choice there.
- Character combat is Strength combat; the loser loses 1 life (armour may save it) and counts as
  defeated for 7.3. No object or gold changes hands.
- A lost turn (a table's lose_turn) is skipped automatically when that player's turn comes round.
- A killed character's trophies go to the discard pile; its Objects, Followers and gold stay on its space.
- Turns pass in seating order among the characters still in the race; with none left, nobody wins.
"""

from __future__ import annotations

from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.dungeon.content import load_board, load_deck
from domain.rulesets.dungeon.effects import DungeonBoard
from domain.rulesets.dungeon.state import (
    DungeonState,
    dungeon_sheet,
    dungeon_state,
)
from domain.rulesets.talisman.character import PLAYING, effective_strength
from domain.rulesets.talisman.combat import COMBAT, LOST, WON, lose_combat_life, resolve_combat
from domain.rulesets.talisman.effects import check_killed, in_play, is_over, sheet_of
from domain.rulesets.talisman.events import FleeingDeclared
from domain.rulesets.talisman.turns import end_turn


def others_here(state: DungeonState, player: str) -> list[str]:
    """Returns the other characters in the race on the player's space, in seating order."""
    players = state["players"]
    space = players[player]["space"]
    return [
        name
        for name in state["order"]
        if name != player
        and name in players
        and players[name]["status"] == PLAYING
        and players[name]["space"] == space
    ]


def can_choose(state: DungeonState, player: str) -> bool:
    """Tells whether landing here offers a choice between the space and the characters on it."""
    space = state["players"][player]["space"]
    if space in (0, state["last"]) or load_board().spaces[space].kind == "guard-room":
        return False  # Dungeon 14: no encounters between characters on the Entrance
    return bool(others_here(state, player))


def roll(res: Resolution, player: str, board: DungeonBoard) -> None:
    """Rolls one die and moves: to the centre, or back when defeated (Dungeon 7.3) or fleeing (Dungeon 9)."""
    sheet = dungeon_sheet(res, player)
    backwards = sheet["fleeing"] or sheet["defeated"]
    reason = "flight" if sheet["fleeing"] else "retreat" if sheet["defeated"] else "roll"
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="movement", sides=6, values=[face], draws=draws))
    here = sheet["space"]
    # Dungeon 6.2/8.1: forward, stopping on the Treasure Chamber; 7.3/9: back, stopping on the Entrance.
    last = dungeon_state(res)["last"]
    there = max(0, here - face) if backwards else min(last, here + face)
    board.move(res, player, there, reason)
    if is_over(res) or not in_play(res, player):
        end_turn(res, player)
        return
    if can_choose(dungeon_state(res), player):
        return  # the player now chooses: encounter-space or attack:<name>
    if there not in (0, last):
        board.encounter(res, player, there)
    end_turn(res, player)


def encounter(res: Resolution, player: str, board: DungeonBoard) -> None:
    """Encounters the space after choosing it over the characters standing there."""
    board.encounter(res, player, sheet_of(res, player)["space"])
    end_turn(res, player)


def flee(res: Resolution, player: str) -> None:
    """Declares fleeing (Dungeon 9.1): irrevocable; every move now goes toward the Entrance."""
    res.emit(FleeingDeclared(player=player))


def attack(res: Resolution, player: str, target: str) -> None:
    """Fights another character on the same space; the loser loses a life and is defeated (Dungeon 7.3)."""
    cards = load_deck().cards
    mine = effective_strength(sheet_of(res, player), cards)
    theirs = effective_strength(sheet_of(res, target), cards)
    outcome, events = resolve_combat(player, mine, target, theirs, COMBAT, res.dice)
    res.emit(*events)
    loser, winner = (target, player) if outcome == WON else (player, target) if outcome == LOST else ("", "")
    if loser:
        res.emit(*lose_combat_life(loser, sheet_of(res, loser), COMBAT, cards, res.dice, winner))
        check_killed(res, loser)
    end_turn(res, player)
