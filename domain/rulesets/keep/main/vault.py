"""The Talisman Vault and the way out (Keep 9.1, 15, house rule H3.13) in a main-board game.

House decisions, in nightkeep's words:
- Reaching the Vault, a character takes a Talisman from the Talisman deck (with `keep.hoard`, rolls the
  Treasure Hoard instead, Keep 15.2); with no Talisman left in the deck it takes none (those the fallen
  left on the Vault are still there to find). The Hoard's Gold is gained, its Spells drawn from the
  Spell deck (up to the Craft limit), and its gear is the Blacksmith's stock: each Object is taken from
  the Purchase deck, free (recorded as bought for 0 Gold), while one is left and the character has
  room (so every card stays in the ledger). Then it meets 3 Vault cards in order, as the Keep run
  does, and its turn ends.
- Killed in the Vault, it leaves its Talisman, Objects, Followers and Gold on the Vault space (the main
  board's rule for every killed character). A survivor takes what lies there: Talismans, Followers,
  Objects within its carrying limit, Gold.
- A survivor leaves on its next turn by the Exit Table (1 die, `keep/tables.toml` `exit`): the space it
  entered the Keep from, or the named space of the main board. Leaving is that turn's whole move: the
  space it comes out on is met on a later turn (as the main board's tables that send a character away).
- With `keep.crown_exit` (Keep 15.3) a survivor that holds a Talisman goes at once to the Crown of
  Command.
"""

from __future__ import annotations

from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.keep.content import load_tables
from domain.rulesets.keep.main.inside import Inside
from domain.rulesets.keep.main.state import keep_part, keep_sheet
from domain.rulesets.keep.state import BOARD, LAST, VAULT_DECK
from domain.rulesets.keep.vault import VAULT_CARDS, _meet, items_in_play
from domain.rulesets.talisman.character import room_for_spells
from domain.rulesets.talisman.encounters import draw_card
from domain.rulesets.talisman.events import FollowerJoined, GoldChanged, GoldTaken, ObjectTaken
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.ending import reach_crown
from domain.rulesets.talisman.main.events import ItemBought
from domain.rulesets.talisman.main.items import room_to_carry
from domain.rulesets.talisman.main.piles import draw_from
from domain.rulesets.talisman.main.positions import relocate
from domain.rulesets.talisman.main.state import CROWN, PURCHASE, SPELLS, TALISMANS, deck_of

CROWN_EXIT = "keep.crown_exit"
ENTERED_FROM = "the space you entered from"
EXIT_REASON = "the Exit Table (Keep 9.1)"


def enter(ctx: MainContext, res: Resolution, player: str) -> None:
    """Meets the Talisman Vault (Keep 8.8, 9.1): a Talisman (or the Hoard), 3 Vault cards; a survivor takes
    what lies there."""
    inside = Inside(res, player)
    if keep_part(state_of(res))["hoard"]:
        _hoard(ctx, res, player)
    else:
        draw_from(res, TALISMANS, player)
    for _ in range(VAULT_CARDS):
        card = draw_card(res, VAULT_DECK, player)
        if not card:
            break
        _meet(res, player, card)
        if not inside.still(res, player):
            return  # killed: what it carried stays on the Vault (the main board's CharacterDied)
    _collect(ctx, res, player)
    if ctx.options.get(CROWN_EXIT) == "true" and sheet_of(res, player)["talismans"]:
        relocate(res, player, CROWN, 0, "survived the Keep with a Talisman (Keep 15.3)")
        reach_crown(ctx, res, player)


def _hoard(ctx: MainContext, res: Resolution, player: str) -> None:
    """Rolls the Treasure Hoard (Keep 15.2): Gold, Spells from the Spell deck, gear from the Purchase deck."""
    faces, draws = res.dice.roll(6, 2)
    res.emit(DieRolled(player=player, purpose="hoard", sides=6, values=faces, draws=draws))
    line = load_tables().line("hoard", sum(faces))
    if line.gold:
        res.emit(GoldChanged(player=player, amount=line.gold, reason="keep/hoard"))
    stock = {ctx.card_name(card): card for card in state_of(res)["piles"][PURCHASE]}
    for item in line.items:
        card = stock.pop(load_tables().items[item].name, "")
        if card and room_to_carry(ctx, sheet_of(res, player)):
            res.emit(ItemBought(player=player, card=card, price=0))
    for _ in range(min(line.spells, room_for_spells(sheet_of(res, player)))):
        if not draw_from(res, SPELLS, player):
            return


def _collect(ctx: MainContext, res: Resolution, player: str) -> None:
    for card in list(state_of(res)["cards"][BOARD][LAST]):
        is_follower = getattr(ctx.cards.get(card), "type", "") == "follower" or _keep_follower(card)
        if is_follower:
            res.emit(FollowerJoined(player=player, card=card, space=LAST))
        elif deck_of(card) == TALISMANS or room_to_carry(ctx, sheet_of(res, player)):
            res.emit(ObjectTaken(player=player, card=card, space=LAST))
    gold = state_of(res)["gold"][BOARD][LAST]
    if gold:
        res.emit(GoldTaken(player=player, space=LAST, amount=gold))


def _keep_follower(card: str) -> bool:
    found = items_in_play().cards.get(card)
    return found is not None and found.kind == "follower"


def entered_from(res: Resolution, player: str) -> tuple[str, int]:
    """Returns the space the character entered the Keep from (Keep 10; its starting space if none is
    recorded: a character stood on the Keep by hand)."""
    sheet = sheet_of(res, player)
    found = keep_sheet(sheet)["keep_from"] or state_of(res)["starts"].get(sheet["character"], [])
    board, space = found or ["outer", 0]
    return str(board), int(space)


def exit_space(ctx: MainContext, res: Resolution, player: str, destination: str) -> tuple[str, int]:
    """Returns where an Exit Table line leads: the space of entry, or the main-board space it names."""
    if destination == ENTERED_FROM:
        return entered_from(res, player)
    for region in ctx.board.boards:
        for index, found in enumerate(region.spaces):
            if found.name == destination:
                return region.id, index
    raise ValueError(f"the Exit Table names no space of the main board: {destination!r}")


def leave(ctx: MainContext, res: Resolution, player: str) -> None:
    """Rolls on the Exit Table and comes out where it says (Keep 9.1)."""
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="keep-exit", sides=6, values=[face], draws=draws))
    line = load_tables().line("exit", face)
    board, space = exit_space(ctx, res, player, line.destination)
    relocate(res, player, board, space, EXIT_REASON)
