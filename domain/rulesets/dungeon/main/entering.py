"""The Doorways on the main board and the way down into the Dungeon (Dungeon 3.1, 4, 5).

- A Doorway drawn onto a space is laid there face up as a Place and stays (4.1, its card `stays`); with
  two Doorways already on the board, a later one is discarded and another card drawn in its place.
- A character who starts its turn on a space where a Doorway lies (it landed there) may, instead of
  moving, go down to the Dungeon's Entrance (`dungeon:enter`, 5.1-5.2): that is its move; it goes on
  into the Dungeon on its next turn. Not on the turn after coming out of the Dungeon (8.2).
- Going down, it discards its horses: the cards of the `horse` family (5.3: the Horse, the Warhorse, the
  Horse and Cart; `places_elsewhere.horses`).
"""

from __future__ import annotations

from domain.actions import Action
from domain.resolution import Resolution
from domain.rulesets.dungeon.main.content import is_doorway
from domain.rulesets.dungeon.main.events import HorseDiscarded
from domain.rulesets.dungeon.main.exits import doorways
from domain.rulesets.dungeon.main.state import flags
from domain.rulesets.dungeon.state import BOARD
from domain.rulesets.talisman.events import CardDiscarded
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.places_elsewhere import horses
from domain.rulesets.talisman.main.positions import relocate
from domain.rulesets.talisman.main.state import PURCHASE, MainState, deck_of

ENTER = "dungeon:enter"
MOST_DOORWAYS = 2  # Dungeon 4.1: at most two Doorways on the board
ENTRANCE = 0


def card_drawn(ctx: MainContext, res: Resolution, player: str, card: str) -> None:
    """Discards a Doorway drawn while two lie on the board already (Dungeon 4.1): another is drawn."""
    if not is_doorway(ctx, card):
        return
    lying = sum(
        1
        for board, space in doorways(ctx, state_of(res))
        for c in state_of(res)["cards"][board][space]
        if is_doorway(ctx, c) and c != card
    )
    if lying >= MOST_DOORWAYS:
        res.emit(CardDiscarded(player=player, card=card, space=sheet_of(res, player)["space"]))


def on_doorway(ctx: MainContext, state: MainState, player: str) -> bool:
    """Tells whether a Doorway lies on the player's main-board space."""
    sheet = state["players"][player]
    cards = state["cards"][sheet["board"]][sheet["space"]]
    return any(is_doorway(ctx, card) for card in cards)


def main_actions(ctx: MainContext, state: MainState, player: str) -> list[Action]:
    """Returns `dungeon:enter` for a character standing on a Doorway, unless it just came out (8.2)."""
    sheet = flags(state, player)
    # Dungeon 5.1: only a character who landed on the Doorway (not one it was drawn beside) goes down.
    if not on_doorway(ctx, state, player) or sheet["dungeon_barred"] or not sheet.get("dungeon_landed"):
        return []
    return [Action(ENTER, player, "Go down the Doorway to the Dungeon's Entrance")]


def enter(ctx: MainContext, res: Resolution, player: str) -> None:
    """Goes down to the Dungeon's Entrance, leaving the horses behind (Dungeon 5.2, 5.3)."""
    for card in horses(ctx, sheet_of(res, player)):
        pile = PURCHASE if deck_of(card) == PURCHASE else ""
        res.emit(HorseDiscarded(player=player, card=card, pile=pile))
    relocate(res, player, BOARD, ENTRANCE, "went down a Doorway")
