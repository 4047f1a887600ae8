"""The Keep run's state and `evolve`: the shared Talisman handlers plus the Keep's own (no validation).

State (a plain dict, msgpack-native, str keys); lists indexed by space number have 22 entries (index 0
unused, spaces are numbered 1–21 as in the rule book):
- `order`, `requested` as in every short game; `last` = 21 (the Talisman Vault); `hoard` the Treasure
  Hoard option (Keep 15);
- `players` name → sheet: the Talisman sheet plus `space`, `status`, `skips`, `entered` (passed the
  Entrance test), `fleeing`, `looping` (stands on a tile it was teleported to: must roll to break
  free, Keep 6.3), `loop_fails`, `obelisk` (held at the Sacred Obelisk), `talisman`, `spells`;
- `turn`, `phase` setup/turn/over, `winner`;
- `spaces` face-up cards per space, `space_gold`, `tiles` the destination of the tile on each space
  (0 = no tile); `deck`/`discard` the Keep deck; `counters` the Teleport counters left;
  `vault_deck`/`vault_discard`; `spell_deck`/`spell_discard`; `vault_talismans` and `vault_spells`, the
  Talismans and Hoard spells left on the Vault by characters killed there; `choice` the choice a space
  asked the player to make (`player`, `kind`, `options`), which the turn waits for, or {}.
Decks are kept sorted: every draw is a numbered pick among what is left (a lazy shuffle).
"""

from __future__ import annotations

from typing import Any

from domain.events import CardDrawn, CharacterDealt, Event, GameCreated, PlayerOut, TurnEnded
from domain.rulesets.keep.events import (
    ChoiceMade,
    ChoiceOffered,
    EntryTested,
    FlightEnded,
    FollowerLeft,
    ItemGained,
    ItemGivenUp,
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
from domain.rulesets.talisman.character import PLAYING, new_sheet
from domain.rulesets.talisman.characters import character_or_stand_in
from domain.rulesets.talisman.events import DeckReshuffled, FleeingDeclared, PlayOpened
from domain.rulesets.talisman.state import SHARED_EVOLVERS, Evolver, State

KEEP_DECK, VAULT_DECK, SPELL_DECK = "keep", "vault", "spells"
LAST = 21
_PILES = {VAULT_DECK: ("vault_deck", "vault_discard"), SPELL_DECK: ("spell_deck", "spell_discard")}


def new_state(
    created: GameCreated, deck: list[str], counters: list[str], vault: list[str], spells: list[str]
) -> State:
    """Returns the state right after GameCreated: nobody dealt yet, every deck unshuffled."""
    return {
        "order": [p["name"] for p in created.players],
        "requested": {p["name"]: p.get("character", "") or "" for p in created.players},
        "last": LAST,
        "hoard": str(created.options.get("hoard", "")).lower() == "true",  # older logs: any case
        "players": {},
        "turn": "",
        "phase": "setup",
        "winner": "",
        "spaces": [[] for _ in range(LAST + 1)],
        "space_gold": [0] * (LAST + 1),
        "tiles": [0] * (LAST + 1),
        "deck": sorted(deck),
        "discard": [],
        "counters": sorted(counters),
        "vault_deck": sorted(vault),
        "vault_discard": [],
        "spell_deck": sorted(spells),
        "spell_discard": [],
        "vault_talismans": 0,
        "vault_spells": [],
        "choice": {},
    }


def _dealt(state: State, e: CharacterDealt) -> None:
    sheet = new_sheet(character_or_stand_in(e.character))
    # Keep run (RULES.md §3): everyone starts on the Keep Entrance, outside until the entry test passes.
    sheet.update(
        space=1,
        status=PLAYING,
        skips=0,
        entered=False,
        fleeing=False,
        looping=False,
        loop_fails=0,
        obelisk=False,
        talisman=False,
        spells=[],
    )
    state["players"][e.player] = sheet


def _opened(state: State, e: PlayOpened) -> None:
    state["turn"] = e.player
    state["phase"] = "turn"


def _turn_ended(state: State, e: TurnEnded) -> None:
    state["turn"] = e.next_player


def _drawn(state: State, e: CardDrawn) -> None:
    pile = _PILES.get(e.deck)
    if pile is None:
        SHARED_EVOLVERS[CardDrawn](state, e)  # a Keep card: laid on the drawer's space
        return
    left = state[pile[0]]
    if e.card in left:
        left.remove(e.card)


def _reshuffled(state: State, e: DeckReshuffled) -> None:
    deck, discard = _PILES.get(e.deck, ("deck", "discard"))
    state[deck] = sorted(state[deck] + state[discard])
    state[discard] = []


def _choice_offered(state: State, e: ChoiceOffered) -> None:
    state["choice"] = {"player": e.player, "kind": e.kind, "options": list(e.options)}


def _choice_made(state: State, e: ChoiceMade) -> None:
    state["choice"] = {}


def _fleeing(state: State, e: FleeingDeclared) -> None:
    # Keep 10: a flight may start at any point, even on a loop or held at the Obelisk; it ends both.
    state["players"][e.player].update(fleeing=True, looping=False, loop_fails=0, obelisk=False)


def _entry(state: State, e: EntryTested) -> None:
    state["players"][e.player]["entered"] = e.passed


def _flight_ended(state: State, e: FlightEnded) -> None:
    state["players"][e.player].update(entered=False, fleeing=False)


def _counter(state: State, e: TeleportCounterDrawn) -> None:
    if e.counter in state["counters"]:
        state["counters"].remove(e.counter)
    state["tiles"][e.space] = e.destination


def _teleported(state: State, e: Teleported) -> None:
    sheet = state["players"][e.piece]
    sheet["space"] = e.to_space
    was_looping = sheet["looping"]
    # Keep 6.3: a character sent onto another tile is caught in a loop until it breaks free; each new
    # loop gives it three turns before the automatic release.
    sheet["looping"] = state["tiles"][e.to_space] not in (
        0,
        e.to_space,
    )  # a tile naming its own space is inert
    if not (was_looping and sheet["looping"]):
        sheet["loop_fails"] = 0


def _loop_failed(state: State, e: LoopFailed) -> None:
    state["players"][e.player]["loop_fails"] += 1


def _loop_escaped(state: State, e: LoopEscaped) -> None:
    state["players"][e.player].update(looping=False, loop_fails=0)


def _given_up(state: State, e: ItemGivenUp) -> None:
    sheet = state["players"][e.player]
    for key in ("followers", "objects"):
        if e.card in sheet[key]:
            sheet[key].remove(e.card)
            break
    state["discard"].append(e.card)


def _follower_left(state: State, e: FollowerLeft) -> None:
    followers = state["players"][e.player]["followers"]
    if e.card in followers:
        followers.remove(e.card)
    state["discard"].append(e.card)


def _obelisk(state: State, e: ObeliskTested) -> None:
    state["players"][e.player]["obelisk"] = not e.passed


def _spell_used(state: State, e: SpellCast | SpellDiscarded) -> None:
    state["spell_discard"].append(e.spell)


def _talisman(state: State, e: TalismanTaken) -> None:
    state["players"][e.player]["talisman"] = True
    if e.from_vault:
        state["vault_talismans"] = max(0, state["vault_talismans"] - 1)


def _item(state: State, e: ItemGained) -> None:
    state["players"][e.player]["objects"].append(e.item)


def _spell_gained(state: State, e: SpellGained) -> None:
    state["players"][e.player]["spells"].append(e.spell)
    if e.from_vault and e.spell in state["vault_spells"]:
        state["vault_spells"].remove(e.spell)


def _vault_card(state: State, e: VaultCardMet) -> None:
    state["vault_discard"].append(e.card)


def _out(state: State, e: PlayerOut) -> None:
    sheet = state["players"][e.player]
    # Keep 9.1: a character killed in the Vault leaves its Talisman there, with its Objects and Followers.
    if sheet["talisman"] and sheet["lives"] <= 0:
        state["vault_talismans"] += 1
        sheet["talisman"] = False
    # Keep 15: Hoard spells stay in the Vault with the rest of the treasure; elsewhere they are discarded.
    state["vault_spells" if sheet["space"] == LAST else "spell_discard"].extend(sheet["spells"])
    sheet["spells"] = []
    SHARED_EVOLVERS[PlayerOut](state, e)


_EVOLVERS: dict[type[Event], Evolver] = {
    **SHARED_EVOLVERS,
    CharacterDealt: _dealt,
    PlayOpened: _opened,
    TurnEnded: _turn_ended,
    CardDrawn: _drawn,
    DeckReshuffled: _reshuffled,
    FleeingDeclared: _fleeing,
    PlayerOut: _out,
    EntryTested: _entry,
    FlightEnded: _flight_ended,
    TeleportCounterDrawn: _counter,
    Teleported: _teleported,
    LoopFailed: _loop_failed,
    LoopEscaped: _loop_escaped,
    ItemGivenUp: _given_up,
    FollowerLeft: _follower_left,
    ObeliskTested: _obelisk,
    SpellCast: _spell_used,
    SpellDiscarded: _spell_used,
    TalismanTaken: _talisman,
    ItemGained: _item,
    SpellGained: _spell_gained,
    VaultCardMet: _vault_card,
    ChoiceOffered: _choice_offered,
    ChoiceMade: _choice_made,
}


def evolve(state: State, event: Event) -> State:
    """Applies one recorded event to the state in place and returns it; other events are facts only."""
    # One lookup, no helper call: every fold and every re-decided consequence comes here.
    apply = _EVOLVERS.get(type(event))
    if apply is not None:
        apply(state, event)
    return state


def sheet(state: State, player: str) -> dict[str, Any]:
    """Returns a player's sheet."""
    found: dict[str, Any] = state["players"][player]
    return found
