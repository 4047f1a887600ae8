"""Landing on a Keep space (Keep 6–8, house rule H3.10): halls, their cards and tiles, the special spaces.

House decisions, in nightkeep's words:
- A hall that holds no face-up card draws as many Keep cards as the board says; a hall whose only
  face-up card is its Teleport Tile draws one card fewer (so a draw-2 hall draws 1 more, Keep 6.3, and a
  draw-1 hall none); a hall with other face-up cards draws none. Cards are met as on every board
  (`talisman.encounters`), the tile always last (Keep 6.3).
- A Teleport Tile drawn where a tile already lies (or the second of two drawn together) is discarded
  (Keep 6.2). A new tile gets a counter at once; meeting a tile teleports the character to its
  counter's space, which is not encountered, and the turn ends there (Keep 6.1, Keep 6.3). A tile
  whose counter names its own space does nothing.
- The Sentry (4): on a 6 the player chooses what to give up among its Followers, its Magic Objects and
  a life (with neither Followers nor Magic Objects, the life goes without asking). Winning at least
  one of the two rounds, or holding both to a stand-off, lets it go on next turn; losing both sends it
  back to Hallway 3 (house rule H3.4). Rounds stop if the character is killed.
- The Tome of the Undead (10): on a 12 the player chooses +2 Strength, +2 Craft or +2 lives. "Heal"
  restores lives up to 4.
- A choice a space asks for is the next action of the player it names (`choose:<option>`); the turn
  ends once it is made.
- The Vampire Wizard (14) casts three spells, aimed by a player or by the rules (Keep 8.4, `wizard`).
- The Ancient Coffin (17) on a 5 gives the first Object left in the Keep deck, as a numbered pick among
  the Objects left; with none left it gives nothing.
- The Fountain of Blood (20) on a 6 heals 1 life, never above 4.
- The Sacred Obelisk (19) is a barrier (Keep 8.6): a movement roll that would carry a character past it
  stops on it. A failed test costs a life and holds the character; on its next turn it tries again
  instead of rolling to move. A tile that sends a character onto the Obelisk makes it take the test
  there; one that sends it beyond (to the Fountain) carries it past by magic.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.events import DieRolled, LifeGained
from domain.resolution import Resolution
from domain.rulesets.keep.content import TILE, load_board, load_deck, load_tables
from domain.rulesets.keep.events import ObeliskTested, TeleportCounterDrawn
from domain.rulesets.keep.moves import OBELISK, SENTRY_RETREAT, KeepMover, counter_value, teleport
from domain.rulesets.keep.state import COUNTERS, KEEP_DECK, keep_state
from domain.rulesets.keep.vault import items_in_play
from domain.rulesets.keep.wizard import WIZARD_TARGET, aim, land_on_wizard
from domain.rulesets.talisman.cards import Card
from domain.rulesets.talisman.character import STARTING_LIVES, room_to_carry
from domain.rulesets.talisman.combat import COMBAT, LOST, PSYCHIC, WON
from domain.rulesets.talisman.effects import cards_at, in_play, lose_lives, sheet_of, stat_of, still_on
from domain.rulesets.talisman.encounters import (
    Encounter,
    draw_card_of_kinds,
    draw_cards,
    encounter_cards,
    fight,
)
from domain.rulesets.talisman.events import (
    CardDiscarded,
    ChoiceMade,
    ChoiceOffered,
    FollowerLeft,
    GoldChanged,
    ItemGivenUp,
    ObjectTaken,
    StatChanged,
)

SENTRY = "keep/sentry"
SENTRY_TOLL, TOME_GIFT, LIFE = "sentry-toll", "tome-gift", "life"
TOME_GIFT_AMOUNT = 2  # house rule H3.5 Tome 12: +2 Strength, Craft or Lives (choose)


def make_choice(res: Resolution, player: str, option: str, hooks: KeepMover) -> None:
    """Carries out the choice a space asked for (house rule H3.6: the Sentry's 6, the Tome's 12; Keep 8.4:
    the Vampire Wizard's target)."""
    kind = keep_state(res)["choice"]["kind"]
    res.emit(ChoiceMade(player=player, kind=kind, option=option))
    if kind == WIZARD_TARGET:
        aim(res, player, option, hooks)
    else:
        pay_or_take(res, player, kind, option)


def pay_or_take(res: Resolution, player: str, kind: str, option: str) -> None:
    """Pays the Sentry's toll or takes the Tome's gift a player chose (house rule H3.4: the Sentry's 6, the
    Tome's 12)."""
    if kind == SENTRY_TOLL:
        if option == LIFE:
            lose_lives(res, player, 1, SENTRY)
        else:
            res.emit(ItemGivenUp(player=player, card=option))
    elif option == "lives":
        res.emit(LifeGained(player=player, amount=TOME_GIFT_AMOUNT, reason="keep/space/tome"))
    else:
        res.emit(StatChanged(player=player, stat=option, amount=TOME_GIFT_AMOUNT, reason="keep/space/tome"))


def encounter_rules(hooks: KeepMover) -> Encounter:
    """Returns what the shared encounter rules need to know about the Keep (tiles are met apart, last)."""
    return Encounter(
        deck_name=KEEP_DECK, deck=items_in_play(), move_back=hooks.move_back, handlers={TILE: _skip_tile}
    )


def _skip_tile(enc: Encounter, res: Resolution, player: str, card: Card, space: int) -> bool:
    return True  # Keep 6.3: the tile is always met last, after every other card (see land_on_hall)


def _roll(res: Resolution, player: str, purpose: str, count: int) -> list[int]:
    faces, draws = res.dice.roll(6, count)
    res.emit(DieRolled(player=player, purpose=purpose, sides=6, values=faces, draws=draws))
    return faces


def land(res: Resolution, player: str, space: int, hooks: KeepMover) -> None:
    """Encounters the space the character landed on by a movement roll."""
    kind = load_board().space(space).kind
    _BY_KIND.get(kind, _nothing)(res, player, space, hooks)


def _nothing(res: Resolution, player: str, space: int, hooks: KeepMover) -> None:
    return None


# --- halls, cards and tiles ----------------------------------------------------------------------------


def _tile_here(res: Resolution, player: str, space: int) -> str:
    cards = load_deck().cards
    return next((c for c in cards_at(res, player, space) if c in cards and cards[c].kind == TILE), "")


def draw_onto(res: Resolution, player: str, space: int, count: int) -> None:
    """Draws Keep cards onto a space; a tile gets a counter, a second is discarded (Keep 6.1, Keep 6.2)."""
    lying = cards_at(res, player, space)
    before = len(lying)
    draw_cards(res, KEEP_DECK, player, count)
    cards = load_deck().cards
    for card_id in list(lying[before:]):
        if cards[card_id].kind != TILE:
            continue
        if keep_state(res)["tiles"][space]:
            res.emit(CardDiscarded(player=player, card=card_id, space=space))
        else:
            _lay_tile(res, player, space)


def _lay_tile(res: Resolution, player: str, space: int) -> None:
    counters = keep_state(res)["piles"][COUNTERS]
    if not counters:
        return  # all 40 counters are on tiles: the tile stays blank (house) and sends nowhere
    counter, draw = res.dice.pick(list(counters))
    res.emit(
        TeleportCounterDrawn(
            player=player, space=space, counter=counter, destination=counter_value(counter), draw=draw
        )
    )


def hall_draws(res: Resolution, player: str, space: int) -> int:
    """Returns how many Keep cards a hall draws now: its number when it holds no card, one fewer when its
    Teleport Tile lies there alone (Keep 6.3), else none (every other kind of space draws none)."""
    found = load_board().space(space)
    if found.kind != "hall":
        return 0
    lying = cards_at(res, player, space)
    if not lying:
        return found.draws
    if len(lying) == 1 and found.draws > 1 and _tile_here(res, player, space):
        return found.draws - 1  # Keep 6.3: a tile alone on a draw-2 space
    return 0


def land_on_hall(res: Resolution, player: str, space: int, hooks: KeepMover) -> None:
    """Draws onto an empty hall and meets its cards, its Teleport Tile last (Keep 6.1, Keep 6.3)."""
    draws = hall_draws(res, player, space)
    if draws:
        draw_onto(res, player, space, draws)
    encounter_cards(encounter_rules(hooks), res, player, space)
    if still_on(res, player, space) and keep_state(res)["tiles"][space]:
        teleport_from(res, player, space)


def teleport_from(res: Resolution, player: str, tile_space: int) -> None:
    """Teleports by a tile; arriving on the Sacred Obelisk meets its test, so no tile skips the barrier."""
    teleport(res, player, tile_space)
    if sheet_of(res, player)["space"] == OBELISK:
        obelisk_test(res, player, OBELISK)


# --- the special spaces --------------------------------------------------------------------------------


def _sentry(res: Resolution, player: str, space: int, hooks: KeepMover) -> None:
    (face,) = _roll(res, player, "sentry", 1)
    line = load_tables().line("sentry", face)
    board = load_board()
    deck = items_in_play()
    if line.effect == "give_up":
        sheet = sheet_of(res, player)
        magic = [c for c in sheet["objects"] if c in deck.cards and deck.cards[c].kind == "magic-object"]
        if sheet["followers"] or magic:
            res.emit(
                ChoiceOffered(player=player, kind=SENTRY_TOLL, options=[*sheet["followers"], *magic, LIFE])
            )
        else:
            lose_lives(res, player, 1, SENTRY)  # nothing else to give: no choice to make
        return
    if line.effect not in ("combat_rounds", "psychic_rounds"):
        return  # slipped past
    kind, value = (
        (COMBAT, board.sentry_strength) if line.effect == "combat_rounds" else (PSYCHIC, board.sentry_craft)
    )
    outcomes: list[str] = []
    for _ in range(max(1, line.amount)):
        outcomes.append(fight(res, player, SENTRY, value, kind, deck))
        if not in_play(res, player):
            return
    if WON not in outcomes and all(o == LOST for o in outcomes):
        hooks.move(res, player, SENTRY_RETREAT, "sentry")


def _tome(res: Resolution, player: str, space: int, hooks: KeepMover) -> None:
    total = sum(_roll(res, player, "tome", 2))
    line = load_tables().line("tome", total)
    sheet = sheet_of(res, player)
    reason = "keep/space/tome"
    if line.effect == "lose_life":
        lose_lives(res, player, line.amount, reason)
    elif line.effect in ("lose_strength", "lose_craft"):
        stat = line.effect.removeprefix("lose_")
        # house rule H3.5: the Tome may take Strength and Craft below their starting values (not below 1).
        amount = min(line.amount, stat_of(sheet, stat) - 1)
        if amount > 0:
            res.emit(StatChanged(player=player, stat=stat, amount=-amount, reason=reason))
    elif line.effect == "followers_leave":
        if not sheet["followers"]:
            lose_lives(res, player, line.amount, reason)  # no Followers to lose: the lives instead
            return
        (count,) = _roll(res, player, "tome-followers", 1)
        for card in list(sheet["followers"])[:count]:
            res.emit(FollowerLeft(player=player, card=card))
    elif line.effect == "heal":
        if sheet["lives"] < STARTING_LIVES:
            res.emit(LifeGained(player=player, amount=STARTING_LIVES - sheet["lives"], reason=reason))
    elif line.effect in ("gain_strength", "gain_craft"):
        res.emit(
            StatChanged(
                player=player, stat=line.effect.removeprefix("gain_"), amount=line.amount, reason=reason
            )
        )
    elif line.effect == "gain_choice":
        res.emit(ChoiceOffered(player=player, kind=TOME_GIFT, options=["strength", "craft", "lives"]))


def _coffin(res: Resolution, player: str, space: int, hooks: KeepMover) -> None:
    (face,) = _roll(res, player, "coffin", 1)
    line = load_tables().line("coffin", face)
    reason = "keep/space/ancient-coffin"
    if line.effect == "lose_life":
        lose_lives(res, player, line.amount, reason)
    elif line.effect == "gain_gold":
        res.emit(GoldChanged(player=player, amount=line.amount, reason=reason))
    elif line.effect == "take_object" and room_to_carry(sheet_of(res, player)):
        # house rule H3.7: one Object from the Keep deck's Objects (Magic Objects included).
        card = draw_card_of_kinds(res, KEEP_DECK, player, load_deck(), ["magic-object", "object"])
        if card:
            res.emit(ObjectTaken(player=player, card=card, space=space))


def _fountain(res: Resolution, player: str, space: int, hooks: KeepMover) -> None:
    (face,) = _roll(res, player, "fountain", 1)
    line = load_tables().line("fountain", face)
    reason = "keep/space/fountain-of-blood"
    if line.effect == "lose_life":
        lose_lives(res, player, line.amount, reason)
    elif line.effect == "gain_life":
        heal = min(line.amount, STARTING_LIVES - sheet_of(res, player)["lives"])
        if heal > 0:
            res.emit(LifeGained(player=player, amount=heal, reason=reason))


def obelisk_test(res: Resolution, player: str, space: int) -> None:
    """Two dice against Strength + Craft: pass at or under it; else lose a life and stay (house rule H3.8)."""
    sheet = sheet_of(res, player)
    total = sum(_roll(res, player, "obelisk", 2))
    target = sheet["strength"] + sheet["craft"]
    res.emit(ObeliskTested(player=player, total=total, target=target, passed=total <= target))
    if total > target:
        lose_lives(res, player, 1, "keep/space/sacred-obelisk")


def _obelisk(res: Resolution, player: str, space: int, hooks: KeepMover) -> None:
    obelisk_test(res, player, space)


_BY_KIND: dict[str, Callable[[Resolution, str, int, KeepMover], None]] = {
    "hall": land_on_hall,
    "sentry": _sentry,
    "tome": _tome,
    "vampire-wizard": land_on_wizard,
    "coffin": _coffin,
    "obelisk": _obelisk,
    "fountain": _fountain,
    # The Vault (21) is the board's centre: reaching it runs the board's hook (board.KeepMover).
}
