"""Moving in the Keep: the movement chart, counters and teleports (Keep 5, 6, house rule H3.10); moves along
the spaces are the board's (`board.KeepBoard`)."""

from __future__ import annotations

from typing import Protocol

from domain.resolution import Resolution
from domain.rulesets.keep.content import load_board
from domain.rulesets.keep.events import Teleported
from domain.rulesets.keep.state import keep_state
from domain.rulesets.talisman.effects import sheet_of

OBELISK = 19  # the Sacred Obelisk bars the way to the Fountain and the Vault (Keep 8.6)
SENTRY_RETREAT = 3  # house rule H3.4: losing both rounds against the Sentry sends back to Hallway 3


class KeepMover(Protocol):
    """What the Keep's spaces and the Vampire Wizard ask of the board's hooks (`board.KeepBoard`, which
    call them): its moves, and whether a player aims the Wizard's spells."""

    wizard_aimed: bool

    def move(self, res: Resolution, player: str, to_space: int, reason: str) -> None:
        """Moves a character along the Keep's spaces, running the board's hooks."""
        ...

    def move_back(self, res: Resolution, player: str, amount: int, card: str) -> None:
        """Moves the character back (Keep 5.3): not a movement roll, nothing is met."""
        ...


# Keep 5.2: the die gives the number of spaces; Keep 5.4, 11.1 and 13: nothing may alter it.
CHART = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}


def counter_ids() -> list[str]:
    """Returns the ids of the Teleport counters (their numbers are in the board file)."""
    return [f"keep/counter/{index:02d}" for index in range(len(load_board().counters))]


def counter_value(counter: str) -> int:
    """Returns the space a Teleport counter names."""
    return load_board().counters[int(counter.rsplit("/", 1)[1])]


def spaces_for(face: int) -> int:
    """Returns how many spaces a movement die face moves (the Keep movement chart, 5.2)."""
    return CHART[face]


def teleport(res: Resolution, player: str, tile_space: int) -> None:
    """Sends a character by the tile on `tile_space` to the tile's destination (Keep 6.1)."""
    destination = keep_state(res)["tiles"][tile_space]
    here = sheet_of(res, player)["space"]
    if destination and destination != here:
        res.emit(Teleported(piece=player, from_space=here, to_space=destination, tile_space=tile_space))
