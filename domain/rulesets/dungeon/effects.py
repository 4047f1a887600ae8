"""The Dungeon's board as BoardHooks (Dungeon 6–9, house rules H2): moves on its spiral, the flight out on
the Entrance, what its spaces do, and what a game installs on the Treasure Chamber (the short game
installs its win, `DungeonShort.arrival`).

Losing lives, die-table effects and the rest are shared Talisman mechanics (`talisman.effects`).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.events import PlayerOut
from domain.resolution import Resolution
from domain.rulesets.dungeon import encounters
from domain.rulesets.dungeon.content import Board, load_deck
from domain.rulesets.dungeon.state import BOARD, DECK, dungeon_sheet
from domain.rulesets.talisman.effects import sheet_of
from domain.rulesets.talisman.encounters import Encounter
from domain.rulesets.talisman.hooks import BoardHooks, move_on_board

ENTRANCE = 0
HOUSE_CENTRE = 24  # the Treasure Chamber of the house board (a 5×5 spiral, Dungeon 6.1)
Arrival = Callable[[Resolution, str], None]


class DungeonBoard(BoardHooks):
    """The Dungeon's spiral: fleeing out through the Entrance, its spaces, and what reaching its centre
    (the house board's Treasure Chamber; `spiral_hooks` makes the class of a board of another length) does."""

    board = BOARD
    centre = HOUSE_CENTRE

    def __init__(self, arrival: Arrival) -> None:
        self.arrival = arrival
        self._rules: Encounter | None = None

    def entered(self, res: Resolution, player: str, space: int, reason: str) -> None:
        """Takes a fleeing character who reaches the Entrance out of the Dungeon."""
        if space == ENTRANCE and dungeon_sheet(res, player)["fleeing"]:
            # Dungeon 9.1 / house rule H2.6: fleeing out of the Dungeon leaves the short game's race.
            res.emit(PlayerOut(player=player, reason="fled the Dungeon"))

    def reached_centre(self, res: Resolution, player: str) -> None:
        """Runs what the game installed on the Treasure Chamber."""
        self.arrival(res, player)

    def encounter(self, res: Resolution, player: str, space: int) -> None:
        """Encounters a Dungeon space: the Guard on the Guard Room, then the cards lying there."""
        encounters.encounter_space(res, player, space, self)

    def move(self, res: Resolution, player: str, to_space: int, reason: str) -> None:
        """Moves a character on the Dungeon, running this board's hooks."""
        move_on_board(res, self, player, to_space, reason)

    def move_back(self, res: Resolution, player: str, amount: int, card: str) -> None:
        """A card's move back: not a movement roll, so the space reached is not encountered (house)."""
        self.move(res, player, max(ENTRANCE, sheet_of(res, player)["space"] - amount), "card")

    def encounter_rules(self) -> Encounter:
        """Returns what the shared encounter rules need to know about the Dungeon and this board."""
        # Made once per deck in use (nearly every roll asks): the deck is the content model itself, so
        # another content folder gives another one.
        deck = load_deck()
        if self._rules is None or self._rules.deck is not deck:
            self._rules = Encounter(deck_name=DECK, deck=deck, move_back=self.move_back)
        return self._rules


def spiral_hooks(last: int, arrival: Arrival) -> DungeonBoard:
    """Returns the hooks of a Dungeon board whose Treasure Chamber is space `last` (a replaced board may
    be longer than the house one), with `arrival` installed on it."""
    if last == HOUSE_CENTRE:
        return DungeonBoard(arrival)

    class Spiral(DungeonBoard):
        centre = last

    return Spiral(arrival)


_HOOKS: dict[tuple[int, int], tuple[Board, DungeonBoard]] = {}


def board_hooks(board: Board, arrival: Arrival) -> DungeonBoard:
    """Returns the hooks of a Dungeon board's content with `arrival` on its centre, made once per pair."""
    key = (id(board), id(arrival))
    made = _HOOKS.get(key)
    if made is None or made[0] is not board or made[1].arrival is not arrival:
        made = _HOOKS[key] = (board, spiral_hooks(board.last, arrival))
    return made[1]
