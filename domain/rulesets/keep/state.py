"""The Keep run's state and `evolve`: the shared Talisman handlers plus the Keep's own (no validation).

The state is the typed Talisman shape (`talisman.shapes`) on the one board `keep`; lists indexed by
space number have 22 entries (index 0 unused, spaces are numbered 1–21 as in the rule book). Every deck
and pile is named in `piles`, as the replay format's ledger names them: `keep`, `vault`, `spells`,
`counters` and the discard piles `discard:keep`, `discard:vault`, `discard:spells` (decks are kept
sorted: every draw is a numbered pick among what is left, a lazy shuffle). The Keep adds `last` = 21
(the Talisman Vault), `hoard` (the Treasure Hoard option, Keep 15), `tiles` (the destination of the
tile on each space, 0 = no tile), `vault_talismans` and `vault_spells` (what characters killed in the
Vault left there), `choice` (the choice a space asked a player to make, which the turn waits for,
or {}) and `wizard` (the Vampire Wizard's spells this turn: the one last drawn and how many, Keep 8.4;
{} once the turn ends). A sheet adds `entered` (passed the Entrance test), `fleeing`, `looping`
(stands on a tile it was teleported to: must roll to break free, Keep 6.3), `loop_fails`, `obelisk`
(held at the Sacred Obelisk), `talisman` and `spells`.
"""

from __future__ import annotations

from typing import TypedDict, cast

from domain.events import CardDrawn, CharacterDealt, Event, GameCreated, PlayerOut, TurnEnded
from domain.resolution import Resolution
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
    SpellGained,
    TalismanTaken,
    TeleportCounterDrawn,
    Teleported,
    VaultCardMet,
)
from domain.rulesets.talisman.character import new_sheet
from domain.rulesets.talisman.characters import character_or_stand_in
from domain.rulesets.talisman.events import (
    ChoiceMade,
    ChoiceOffered,
    FleeingDeclared,
    FollowerLeft,
    ItemGivenUp,
    PlayOpened,
)
from domain.rulesets.talisman.shapes import Sheet, TalismanState, discard_pile
from domain.rulesets.talisman.state import STATE_VERSION, board_evolvers

BOARD = KEEP_DECK = "keep"
VAULT_DECK, SPELL_DECK, COUNTERS = "vault", "spells", "counters"
LAST = 21
ENTRANCE = 1
_LAID = board_evolvers(KEEP_DECK)
KEEP_STATE_VERSION = STATE_VERSION + 1  # the Talisman shape, and `wizard` (the Vampire Wizard's casting)


class KeepSheet(Sheet):
    """A Keep character's sheet: the Talisman sheet and where it stands in the run."""

    entered: bool
    fleeing: bool
    looping: bool
    loop_fails: int
    obelisk: bool
    talisman: bool
    spells: list[str]


class Choice(TypedDict, total=False):
    """A choice a space asked a player to make (house rule H3.4: the Sentry's toll, the Tome's gift, the
    Vampire Wizard's target, Keep 8.4): who makes it, its kind and the options."""

    player: str
    kind: str
    options: list[str]


class Casting(TypedDict, total=False):
    """The Vampire Wizard's spells this turn (Keep 8.4): the one last drawn, and how many were drawn."""

    spell: str
    drawn: int


class KeepState(TalismanState):
    """The Keep run's state: the Talisman state (its sheets are KeepSheets: read them with `sheet`),
    the Vault, the tiles and the choice waited for."""

    last: int
    hoard: bool
    tiles: list[int]
    vault_talismans: int
    vault_spells: list[str]
    choice: Choice
    wizard: Casting


def new_state(
    created: GameCreated, deck: list[str], counters: list[str], vault: list[str], spells: list[str]
) -> KeepState:
    """Returns the state right after GameCreated: nobody dealt yet, every deck unshuffled."""
    piles = {KEEP_DECK: deck, COUNTERS: counters, VAULT_DECK: vault, SPELL_DECK: spells}
    return {
        "order": [p["name"] for p in created.players],
        "requested": {p["name"]: p.get("character", "") or "" for p in created.players},
        "last": LAST,
        "hoard": str(created.options.get("hoard", "")).lower() == "true",  # older logs: any case
        "players": {},
        "turn": "",
        "phase": "setup",
        "winner": "",
        "cards": {BOARD: [[] for _ in range(LAST + 1)]},
        "gold": {BOARD: [0] * (LAST + 1)},
        "tiles": [0] * (LAST + 1),
        "piles": {
            **{name: sorted(cards) for name, cards in piles.items()},
            **{discard_pile(name): [] for name in (KEEP_DECK, VAULT_DECK, SPELL_DECK)},
        },
        "vault_talismans": 0,
        "vault_spells": [],
        "choice": {},
        "wizard": {},
    }


def keep_state(res: Resolution) -> KeepState:
    """Returns the working state of a Keep resolution, typed."""
    return cast(KeepState, res.state)


def keep_sheet(res: Resolution, player: str) -> KeepSheet:
    """Returns a player's Keep sheet in the working state."""
    found: KeepSheet = res.state["players"][player]
    return found


def _dealt(state: KeepState, e: CharacterDealt) -> None:
    # Keep run (house rule H3.18): everyone starts on the Keep Entrance, outside until the entry test passes.
    sheet: KeepSheet = {
        **new_sheet(character_or_stand_in(e.character), BOARD, ENTRANCE),
        "entered": False,
        "fleeing": False,
        "looping": False,
        "loop_fails": 0,
        "obelisk": False,
        "talisman": False,
        "spells": [],
    }
    state["players"][e.player] = sheet


def _opened(state: KeepState, e: PlayOpened) -> None:
    state["turn"] = e.player
    state["phase"] = "turn"


def _turn_ended(state: KeepState, e: TurnEnded) -> None:
    state["turn"] = e.next_player
    if state["wizard"]:
        state["wizard"] = {}


def _drawn(state: KeepState, e: CardDrawn) -> None:
    if e.deck == KEEP_DECK:
        _LAID[CardDrawn](state, e)  # a Keep card: laid on the drawer's space
        return
    left = state["piles"][e.deck]  # a Vault card or a spell: met or held, not laid
    if e.card in left:
        left.remove(e.card)
    if e.deck == SPELL_DECK:  # Keep 8.4: the spell the Wizard's player aims is the one last drawn
        casting = state["wizard"]
        casting["spell"], casting["drawn"] = e.card, casting.get("drawn", 0) + 1


def sheet_in(state: TalismanState, player: str) -> KeepSheet:
    """Returns a player's Keep sheet."""
    return cast(KeepSheet, state["players"][player])


def _choice_offered(state: KeepState, e: ChoiceOffered) -> None:
    state["choice"] = {"player": e.player, "kind": e.kind, "options": list(e.options)}


def _choice_made(state: KeepState, e: ChoiceMade) -> None:
    state["choice"] = {}


def fleeing_declared(state: KeepState, e: FleeingDeclared) -> None:
    """Starts a flight on the Keep (Keep 10), ending a loop and a hold at the Obelisk."""
    # Keep 10: a flight may start at any point, even on a loop or held at the Obelisk; it ends both.
    sheet = sheet_in(state, e.player)
    sheet["fleeing"], sheet["looping"], sheet["loop_fails"], sheet["obelisk"] = True, False, 0, False


def _entry(state: KeepState, e: EntryTested) -> None:
    sheet_in(state, e.player)["entered"] = e.passed


def _flight_ended(state: KeepState, e: FlightEnded) -> None:
    sheet = sheet_in(state, e.player)
    sheet["entered"], sheet["fleeing"] = False, False


def counter_drawn(state: KeepState, e: TeleportCounterDrawn) -> None:
    """Lays the Teleport counter drawn on its space's tile (Keep 6.3)."""
    counters = state["piles"][COUNTERS]
    if e.counter in counters:
        counters.remove(e.counter)
    state["tiles"][e.space] = e.destination


def teleported(state: KeepState, e: Teleported) -> None:
    """Moves a teleported character, caught in a loop when it lands on another tile (Keep 6.3)."""
    sheet = sheet_in(state, e.piece)
    sheet["space"] = e.to_space
    was_looping = sheet["looping"]
    # Keep 6.3: a character sent onto another tile is caught in a loop until it breaks free; each new
    # loop gives it three turns before the automatic release. A tile naming its own space is inert.
    sheet["looping"] = state["tiles"][e.to_space] not in (0, e.to_space)
    if not (was_looping and sheet["looping"]):
        sheet["loop_fails"] = 0


def loop_failed(state: KeepState, e: LoopFailed) -> None:
    """Counts a failed turn on a teleport loop (Keep 6.3)."""
    sheet_in(state, e.player)["loop_fails"] += 1


def loop_escaped(state: KeepState, e: LoopEscaped) -> None:
    """Frees a character from its teleport loop (Keep 6.3)."""
    sheet = sheet_in(state, e.player)
    sheet["looping"], sheet["loop_fails"] = False, 0


def _given_up(state: KeepState, e: ItemGivenUp) -> None:
    sheet = state["players"][e.player]
    for held in (sheet["followers"], sheet["objects"]):
        if e.card in held:
            held.remove(e.card)
            break
    state["piles"][discard_pile(KEEP_DECK)].append(e.card)


def _follower_left(state: KeepState, e: FollowerLeft) -> None:
    followers = state["players"][e.player]["followers"]
    if e.card in followers:
        followers.remove(e.card)
    state["piles"][discard_pile(KEEP_DECK)].append(e.card)


def obelisk_tested(state: KeepState, e: ObeliskTested) -> None:
    """Holds a character at the Sacred Obelisk when it failed the test (Keep 8.6)."""
    sheet_in(state, e.player)["obelisk"] = not e.passed


def _spell_used(state: KeepState, e: SpellCast | SpellDiscarded) -> None:
    state["piles"][discard_pile(SPELL_DECK)].append(e.spell)


def _talisman(state: KeepState, e: TalismanTaken) -> None:
    sheet_in(state, e.player)["talisman"] = True
    if e.from_vault:
        state["vault_talismans"] = max(0, state["vault_talismans"] - 1)


def item_gained(state: KeepState, e: ItemGained) -> None:
    """Gives a character the item a space handed it."""
    state["players"][e.player]["objects"].append(e.item)


def _spell_gained(state: KeepState, e: SpellGained) -> None:
    sheet_in(state, e.player)["spells"].append(e.spell)
    if e.from_vault and e.spell in state["vault_spells"]:
        state["vault_spells"].remove(e.spell)


def _vault_card(state: KeepState, e: VaultCardMet) -> None:
    state["piles"][discard_pile(VAULT_DECK)].append(e.card)


def _out(state: KeepState, e: PlayerOut) -> None:
    sheet = sheet_in(state, e.player)
    # Keep 9.1: a character killed in the Vault leaves its Talisman there, with its Objects and Followers.
    if sheet["talisman"] and sheet["lives"] <= 0:
        state["vault_talismans"] += 1
        sheet["talisman"] = False
    # Keep 15: Hoard spells stay in the Vault with the rest of the treasure; elsewhere they are discarded.
    kept = state["vault_spells"] if sheet["space"] == LAST else state["piles"][discard_pile(SPELL_DECK)]
    kept.extend(sheet["spells"])
    sheet["spells"] = []
    _LAID[PlayerOut](state, e)


_EVOLVERS: dict[type[Event], Evolver] = {
    **_LAID,
    CharacterDealt: _dealt,
    PlayOpened: _opened,
    TurnEnded: _turn_ended,
    CardDrawn: _drawn,
    FleeingDeclared: fleeing_declared,
    PlayerOut: _out,
    EntryTested: _entry,
    FlightEnded: _flight_ended,
    TeleportCounterDrawn: counter_drawn,
    Teleported: teleported,
    LoopFailed: loop_failed,
    LoopEscaped: loop_escaped,
    ItemGivenUp: _given_up,
    FollowerLeft: _follower_left,
    ObeliskTested: obelisk_tested,
    SpellCast: _spell_used,
    SpellDiscarded: _spell_used,
    TalismanTaken: _talisman,
    ItemGained: item_gained,
    SpellGained: _spell_gained,
    VaultCardMet: _vault_card,
    ChoiceOffered: _choice_offered,
    ChoiceMade: _choice_made,
}


def evolve(state: KeepState, event: Event) -> KeepState:
    """Applies one recorded event to the state in place and returns it; other events are facts only."""
    # One lookup, no helper call: every fold and every re-decided consequence comes here.
    apply = _EVOLVERS.get(type(event))
    if apply is not None:
        apply(state, event)
    return state
