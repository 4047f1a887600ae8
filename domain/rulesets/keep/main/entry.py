"""Every way into the Keep from the main board (Keep 4, 5.5, house rule H3.19), each to the Keep Entrance.

House decisions, in nightkeep's words:
- An Ethereal Portal (Keep 4.1) is a choice: the finder may step through (`go`) or not (`stay`); either
  way the Portal closes behind it (it is discarded). Found by a character that may not go in, it does
  nothing and is discarded.
- The Warlock (Keep 4.2) rolls 2 dice: a total at most Strength + Craft opens his portal; else nothing
  happens. With `keep.talismans_in_deck` (Keep 15.1) his door stays shut: only the Mystic, the
  Enchantress and the Portals lead in. The Treasure Hoard (15.2) leaves it open.
- Any gain of a Talisman outside the Keep (Keep 4.5: a card's or a place's, the Warlock's quest
  reward) sends the character to the Keep Entrance instead, and no Talisman is drawn, unless
  `keep.talismans_in_deck`. With the Treasure Hoard (`keep.hoard`, Keep 15.2) the Vault gives no
  Talisman, so the Talismans stay in play outside the Keep as under Keep 15.1 (else nobody could ever
  hold one, and the Crown would be out of reach). A character already inside, or one that must still
  spend a turn outside (Keep 10), gets nothing from such a gain.
- A character that must still spend a turn outside (or is inside) is not offered the Mystic, the
  Enchantress or the Warlock's test (`offers`): no door takes its payment for nothing. The Magic Object
  paid to the Enchantress leaves the board (its deck's discard pile); she takes the one carried longest.
- Keep 5.5: the Horses, Warhorses and Horses and Carts a character carries (the cards of the family
  `horse`, adventure.toml) stay on the space it goes in from; Mules go in.
"""

from __future__ import annotations

from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.keep.main.state import keep_sheet
from domain.rulesets.keep.state import BOARD, ENTRANCE
from domain.rulesets.talisman.character import PLAYING
from domain.rulesets.talisman.events import CardDiscarded
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.events import ItemDropped
from domain.rulesets.talisman.main.positions import relocate
from domain.rulesets.talisman.main.state import MainSheet

PORTAL = "keep-portal"
GO, STAY = "go", "stay"
HORSE = "horse"
IN_DECK, HOARD = "keep.talismans_in_deck", "keep.hoard"


def talismans_outside(ctx: MainContext) -> bool:
    """Tells whether Talismans are gained outside the Keep as on the plain board (Keep 15.1, or 15.2)."""
    return ctx.options.get(IN_DECK) == "true" or ctx.options.get(HOARD) == "true"


def may_enter(sheet: MainSheet) -> bool:
    """Tells whether a character may go into the Keep now: outside it, and no turn outside owed."""
    return sheet["status"] == PLAYING and sheet["board"] != BOARD and keep_sheet(sheet)["keep_wait"] == 0


def warlock_open(ctx: MainContext, sheet: MainSheet) -> bool:
    """Tells whether the Warlock's portal may take the character in (Keep 4.2; shut under Keep 15.1 only:
    the Treasure Hoard, 15.2, changes the Vault, not the ways in)."""
    return ctx.options.get(IN_DECK) != "true" and may_enter(sheet)


def offers(ctx: MainContext, sheet: MainSheet, outcome: str) -> bool:
    """Tells whether a place's way into the Keep is worth offering the character now: it could go in
    (Keep 4.2-4.4, 10: not inside, no turn outside owed; the Warlock's not under 15.1)."""
    if outcome == "enter-keep-test":
        return warlock_open(ctx, sheet)
    return outcome != "enter-keep" or may_enter(sheet)


def is_horse(ctx: MainContext, card: str) -> bool:
    """Tells whether a carried card is a horse, left outside the Keep (Keep 5.5)."""
    return getattr(ctx.cards.get(card), "family", "") == HORSE


def send_to_entrance(ctx: MainContext, res: Resolution, player: str, reason: str) -> bool:
    """Takes a character to the Keep Entrance, its horses left behind; False when it may not go in."""
    sheet = sheet_of(res, player)
    if not may_enter(sheet):
        return False
    board, space = sheet["board"], sheet["space"]
    for card in [c for c in (*sheet["followers"], *sheet["objects"]) if is_horse(ctx, c)]:
        res.emit(ItemDropped(player=player, card=card, board=board, space=space))  # Keep 5.5
    relocate(res, player, BOARD, ENTRANCE, reason)
    return True


def _enter(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    # Keep 4.3, 4.4: the Enchantress (for a Magic Object) and the Mystic (for 5 Gold) send you in.
    send_to_entrance(ctx, res, player, f"{reason} (Keep 4)")


def _enter_test(
    ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str
) -> None:
    # Keep 4.2: the Warlock's portal opens to a roll at most Strength + Craft (not under Keep 15.1).
    sheet = sheet_of(res, player)
    if not warlock_open(ctx, sheet):
        return
    values, draws = res.dice.roll(6, max(1, amount))
    res.emit(DieRolled(player=player, purpose="warlock-keep", sides=6, values=values, draws=draws))
    if sum(values) <= sheet["strength"] + sheet["craft"]:
        send_to_entrance(ctx, res, player, f"{reason} (Keep 4.2)")


def _portal(ctx: MainContext, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    # Keep 4.1: the finder of an Ethereal Portal may step through (`reason` is the card's id).
    if may_enter(sheet_of(res, player)):
        offer(res, player, f"{PORTAL}:{reason}", [GO, STAY])


def through_portal(ctx: MainContext, res: Resolution, player: str, kind: str, option: str) -> None:
    """Closes the Ethereal Portal the player found and, if it chose to, takes it to the Keep."""
    card = kind.partition(":")[2]
    sheet = sheet_of(res, player)
    if card in state_of(res)["cards"][sheet["board"]][sheet["space"]]:
        res.emit(CardDiscarded(player=player, card=card, space=sheet["space"]))
    if option == GO:
        send_to_entrance(ctx, res, player, f"{ctx.card_name(card)} (Keep 4.1)")


def gains_talisman(ctx: MainContext, res: Resolution, player: str) -> bool:
    """Keep 4.5: a Talisman gained outside the Keep leads to the Keep Entrance instead (not under 15.1)."""
    if talismans_outside(ctx):
        return False
    send_to_entrance(ctx, res, player, "a Talisman's gain leads to the Keep (Keep 4.5)")
    return True


OUTCOMES = {"enter-keep": _enter, "enter-keep-test": _enter_test, "ethereal-portal": _portal}
