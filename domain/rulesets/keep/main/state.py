"""The Keep's part of the main state and its evolve steps (Keep 3-15, house rules H3), run after the main
board's for the same event (`ruleset.merged_handlers`).

The main state keeps the Keep run's keys, flat (`tiles`, `vault_talismans`, `vault_spells`, `wizard`,
`hoard`), so the Keep run's spaces run on it unchanged; every sheet keeps `entered`, `fleeing`,
`looping`, `loop_fails` and `obelisk` as the Keep run's do, plus `keep_from` (the [board, space] it
came into the Keep from, Keep 10) and `keep_wait` (turns it must still spend outside before it may go
in again: 2 after a failed entry test, counting the turn it failed in; 1 after a flight, Keep 10).

House: the main board's steps send a discarded Keep card to the Adventure discards (`deck_of` reads
every `…/card/…` id as an Adventure card); the steps here move it on to the Keep's own discard pile,
and a Treasure Hoard item (which belongs to no deck, Keep 15) leaves the game when discarded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, cast

from domain.events import CardDrawn, Event, TurnEnded
from domain.rulesets.base import Evolver
from domain.rulesets.keep.events import (
    EntryTested,
    FlightEnded,
    ItemGained,
    LoopEscaped,
    LoopFailed,
    ObeliskTested,
    SpellCast,
    SpellDiscarded,
    TeleportCounterDrawn,
    Teleported,
    VaultCardMet,
)
from domain.rulesets.keep.state import (
    BOARD,
    KEEP_DECK,
    LAST,
    VAULT_DECK,
    counter_drawn,
    fleeing_declared,
    item_gained,
    loop_escaped,
    loop_failed,
    obelisk_tested,
    teleported,
)
from domain.rulesets.talisman.events import (
    CardDiscarded,
    FleeingDeclared,
    FollowerLeft,
    ItemGivenUp,
    TrophiesTraded,
)
from domain.rulesets.talisman.main.events import CharacterDied, ItemSold, RegionCrossed
from domain.rulesets.talisman.main.events_abilities import EnemyDestroyed
from domain.rulesets.talisman.main.state import ADVENTURE, BEGUN, SPELLS, deck_of
from domain.rulesets.talisman.shapes import discard_pile

WIZARD_SPACE = 14  # Keep 8.4
FAILED_WAIT = 2  # house rule H3.3: a failed entry test: the turn it failed in, then one whole turn outside
FLED_WAIT = 1  # Keep 10: the turn after the flight is played outside
FLIGHT_RETURN = "fled the Keep (Keep 10)"  # the reason of the move back to the space of entry
KEEP_CARD = "keep/card/"
# Where a discarded card of the Keep goes, by its id's prefix ("": out of the game, a Hoard item).
KEEP_CARDS = {KEEP_CARD: discard_pile(KEEP_DECK), "keep/vault/": discard_pile(VAULT_DECK), "keep/item/": ""}


class KeepSheet(TypedDict):
    """The Keep's keys of every character's sheet (`SHEET_KEYS`), beside the main board's `MainSheet`."""

    entered: bool
    fleeing: bool
    looping: bool
    loop_fails: int
    obelisk: bool
    keep_from: list[Any]  # [board, space] it came into the Keep from (Keep 10), [] when none
    keep_wait: int


class KeepPart(TypedDict):
    """The Keep's keys of the main state (`state_keys`), beside the main board's `MainState`."""

    tiles: list[int]
    vault_talismans: int
    vault_spells: list[str]
    wizard: dict[str, Any]  # the Vampire Wizard's spell waiting for its aim (Keep 8.4), {} when none
    hoard: bool


def keep_sheet(sheet: Mapping[str, object]) -> KeepSheet:
    """Returns the Keep's keys of a character's sheet, typed (the same dict: writes go to the sheet)."""
    return cast(KeepSheet, sheet)


def keep_part(state: Mapping[str, object]) -> KeepPart:
    """Returns the Keep's keys of the main state, typed (the same dict: writes go to the state)."""
    return cast(KeepPart, state)


SHEET_KEYS: KeepSheet = {
    "entered": False,
    "fleeing": False,
    "looping": False,
    "loop_fails": 0,
    "obelisk": False,
    "keep_from": [],
    "keep_wait": 0,
}


def state_keys(hoard: bool) -> KeepPart:
    """Returns the Keep's keys of the main state at GameCreated."""
    return {
        "tiles": [0] * (LAST + 1),
        "vault_talismans": 0,
        "vault_spells": [],
        "wizard": {},
        "hoard": hoard,
    }


def _sheet(state: Any, player: str) -> Any:
    return state["players"][player]


def _reset(sheet: Any) -> None:
    sheet.update(entered=False, fleeing=False, looping=False, loop_fails=0, obelisk=False)


def _crossed(state: Any, e: RegionCrossed) -> None:
    sheet = _sheet(state, e.player)
    if e.to_board == BOARD and e.from_board != BOARD:
        _reset(sheet)
        sheet["keep_from"] = [e.from_board, e.from_space]  # Keep 10: the space of entry
    elif e.from_board == BOARD and e.to_board != BOARD:
        _reset(sheet)
        if e.reason == FLIGHT_RETURN:
            state["step"] = BEGUN  # Keep 10: the turn goes on outside (its start already ran)


def _entry(state: Any, e: EntryTested) -> None:
    sheet = _sheet(state, e.player)
    sheet["entered"] = e.passed
    if not e.passed:
        sheet["keep_wait"] = FAILED_WAIT


def _fleeing(state: Any, e: FleeingDeclared) -> None:
    if _sheet(state, e.player)["board"] == BOARD:
        fleeing_declared(state, e)  # as the Keep run


def _flight_ended(state: Any, e: FlightEnded) -> None:
    sheet = _sheet(state, e.player)
    sheet.update(entered=False, fleeing=False, keep_wait=FLED_WAIT)


def _turn_ended(state: Any, e: TurnEnded) -> None:
    if state["wizard"]:
        state["wizard"] = {}
    sheet = _sheet(state, e.player)
    if sheet["keep_wait"] and sheet["board"] != BOARD:
        sheet["keep_wait"] -= 1


def _drawn(state: Any, e: CardDrawn) -> None:
    # A Vault card lies on the Vault (the main board's step) until it is met (VaultCardMet, Keep 9.1).
    if e.deck == SPELLS:
        sheet = _sheet(state, e.player)
        if sheet["board"] == BOARD and sheet["space"] == WIZARD_SPACE:
            # Keep 8.4: the Vampire Wizard's spell, held by its victim until it is cast or discarded.
            casting = state["wizard"]
            casting["spell"], casting["drawn"] = e.card, casting.get("drawn", 0) + 1


def _spell_used(state: Any, e: SpellCast | SpellDiscarded) -> None:
    for sheet in state["players"].values():
        if e.spell in sheet["spells"]:
            sheet["spells"].remove(e.spell)
            break
    state["piles"][discard_pile(SPELLS)].append(e.spell)


def _vault_card(state: Any, e: VaultCardMet) -> None:
    lying = state["cards"][BOARD][LAST]
    if e.card in lying:  # (a Vault card destroyed by a Spell is in the Vault's discards already)
        lying.remove(e.card)
        state["piles"][discard_pile(VAULT_DECK)].append(e.card)


def _given_up(state: Any, e: ItemGivenUp) -> None:
    sheet = _sheet(state, e.player)
    for held in (sheet["followers"], sheet["objects"]):
        if e.card in held:
            held.remove(e.card)
            break
    state["piles"][discard_pile(deck_of(e.card))].append(e.card)
    _rehome(state, e)


def _rehome(state: Any, e: Event) -> None:
    """Moves the Keep's and the Vault's cards the main board's steps discarded as Adventure cards to their
    own discard piles (a Treasure Hoard item leaves the game)."""
    discards = state["piles"][discard_pile(ADVENTURE)]
    strays = [card for card in discards if card.startswith(tuple(KEEP_CARDS))]
    for card in strays:
        discards.remove(card)
        home = KEEP_CARDS.get(card.rsplit("/", 1)[0] + "/", "")
        if home:
            state["piles"][home].append(card)


def _discarded(state: Any, e: CardDiscarded) -> None:
    # The main board's step takes the card from the discarder's space: a Keep card's effect may have
    # moved it (a card that sends it back), so the card is taken from the space the event names.
    lying = state["cards"][BOARD][e.space] if e.card.startswith(KEEP_CARD) else []
    if e.card in lying:
        lying.remove(e.card)
    _rehome(state, e)


HANDLERS: Mapping[type[Event], Evolver] = {
    RegionCrossed: _crossed,
    EntryTested: _entry,
    FleeingDeclared: _fleeing,
    FlightEnded: _flight_ended,
    TurnEnded: _turn_ended,
    TeleportCounterDrawn: counter_drawn,
    Teleported: teleported,
    LoopFailed: loop_failed,
    LoopEscaped: loop_escaped,
    ObeliskTested: obelisk_tested,
    CardDrawn: _drawn,
    SpellCast: _spell_used,
    SpellDiscarded: _spell_used,
    VaultCardMet: _vault_card,
    ItemGained: item_gained,
    ItemGivenUp: _given_up,
    CardDiscarded: _discarded,
    CharacterDied: _rehome,
    TrophiesTraded: _rehome,
    ItemSold: _rehome,
    FollowerLeft: _rehome,
    EnemyDestroyed: _rehome,
}
