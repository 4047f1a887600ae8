"""The Dungeon expansion's events in a main-board game told in plain words (Dungeon 5, 8; house rules H2):
`describe(event)` returns a sentence for the Dungeon's own events and for a crossing into or out of
the Dungeon, None for any other event (the main board's timeline tells those)."""

from __future__ import annotations

from functools import cache

from domain.events import Event
from domain.rulesets.dungeon.content import load_board, load_deck
from domain.rulesets.dungeon.main.content import ADVENTURE_FILE
from domain.rulesets.dungeon.main.events import HorseDiscarded, TreasureChamberRolled
from domain.rulesets.dungeon.state import BOARD
from domain.rulesets.talisman.main.content import (
    load_adventure,
    load_adventure_extra,
    load_purchase,
)
from domain.rulesets.talisman.main.content import (
    load_board as main_board,
)
from domain.rulesets.talisman.main.events import RegionCrossed


@cache
def _card_names() -> dict[str, str]:
    found = {c.id: c.name for c in load_adventure().cards}
    found.update({c.id: c.name for c in load_adventure_extra(ADVENTURE_FILE).cards})
    found.update({i.id: i.name for i in load_purchase().items})
    found.update({c.id: c.name for c in load_deck().cards.values()})
    return found


def card_name(card: str) -> str:
    """Returns a card's name (its id's last part when no deck in use has it)."""
    return _card_names().get(card) or card.rsplit("/", 1)[-1].replace("-", " ")


def space_name(board: str, space: int) -> str:
    """Returns a space's name, the Dungeon's or the main board's, with its board."""
    if board == BOARD:
        spaces = load_board().spaces
        return f"the Dungeon's {spaces[space].name}" if 0 <= space < len(spaces) else f"Dungeon space {space}"
    found = next((b for b in main_board().boards if b.id == board), None)
    if found is None or not 0 <= space < len(found.spaces):
        return f"{board} space {space}"
    return f"the {found.spaces[space].name} ({board.title()} {space})"


def _space_id_name(space_id: str) -> str:
    for board in main_board().boards:
        for index, space in enumerate(board.spaces):
            if space.id == space_id:
                return space_name(board.id, index)
    return "a Doorway of their choice" if space_id == "doorway" else space_id


def _horse(e: HorseDiscarded) -> str:
    return f"{e.player} left the {card_name(e.card)} behind: no horse goes down into the Dungeon."


def _chamber(e: TreasureChamberRolled) -> str:
    crown = f" +{e.bonus} for the Crown" if e.bonus else ""
    out = _space_id_name(e.to_space)
    return f"{e.player} read the Treasure Chamber's table: {e.face}{crown}, row {e.total}: out to {out}."


def _crossed(e: RegionCrossed) -> str | None:
    if e.to_board == BOARD:
        door = space_name(e.from_board, e.from_space)
        return f"{e.player} went down the Doorway on {door} to the Dungeon's Entrance."
    if e.from_board == BOARD:
        how = f"by {e.reason}" if e.reason.startswith("the ") else _way_out(e.from_space)
        return f"{e.player} came out of the Dungeon {how}, onto {space_name(e.to_board, e.to_space)}."
    return None


def _way_out(space: int) -> str:
    # Dungeon 8.2, 8.3: from the Entrance, else by the Tunnel where it lies.
    return "by the Entrance" if space == 0 else "by the Tunnel"


def describe(event: Event) -> str | None:
    """Tells a Dungeon event in plain words, or returns None to leave it to the main board's timeline."""
    if isinstance(event, HorseDiscarded):
        return _horse(event)
    if isinstance(event, TreasureChamberRolled):
        return _chamber(event)
    if isinstance(event, RegionCrossed):
        return _crossed(event)
    return None
