"""The Dungeon short game's state and `evolve`: one cheap handler per event type, no validation.

State (a plain dict, msgpack-native, str keys):
- `order` seat names; `requested` name → character asked for ("" = deal one); `last` Treasure Chamber index;
- `players` name → sheet (Talisman sheet plus `space`, `status` playing/out/winner, `fleeing`,
  `defeated` (must move back next turn, Dungeon 7.3), `skips` (turns still to miss));
- `turn` whose turn it is; `phase` setup/turn/over; `moved` whether the player has rolled this turn
  (a moved player still on turn is choosing whom to encounter);
- `spaces` face-up cards per space index; `space_gold` gold lying on each space;
- `deck` the cards left to draw (kept sorted, a lazy shuffle); `discard`; `winner`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.events import (
    CardDrawn,
    CharacterDealt,
    CombatResolved,
    DieRolled,
    Event,
    GameCreated,
    GameEnded,
    GameWon,
    LifeGained,
    LifeLost,
    Moved,
    PlayerOut,
    TurnEnded,
)
from domain.rulesets.talisman.character import new_sheet
from domain.rulesets.talisman.characters import Character, load_characters
from domain.rulesets.talisman.events import (
    CardDiscarded,
    DeckReshuffled,
    FleeingDeclared,
    FollowerJoined,
    GoldChanged,
    GoldTaken,
    ObjectTaken,
    PlayOpened,
    StatChanged,
    TrophiesTraded,
    TrophyTaken,
    TurnLost,
    TurnSkipped,
)

PLAYING, OUT, WINNER = "playing", "out", "winner"
State = dict[str, Any]


def new_state(created: GameCreated, spaces: int, deck: list[str]) -> State:
    """Returns the state right after GameCreated: everyone waiting on the Entrance, the deck unshuffled."""
    return {
        "order": [p["name"] for p in created.players],
        "requested": {p["name"]: p.get("character", "") or "" for p in created.players},
        "last": spaces - 1,
        "players": {},
        "turn": "",
        "phase": "setup",
        "moved": False,
        "spaces": [[] for _ in range(spaces)],
        "space_gold": [0] * spaces,
        "deck": sorted(deck),
        "discard": [],
        "winner": "",
    }


def _character(character_id: str) -> Character:
    found = load_characters().get(character_id)
    # A replay must never fail: a character missing from swapped content gets middling stats.
    return found or Character(character_id, character_id.rsplit("/", 1)[-1], 3, 3, "neutral", "-", "unknown")


def _dealt(state: State, e: CharacterDealt) -> None:
    sheet = new_sheet(_character(e.character))
    sheet.update(space=0, status=PLAYING, fleeing=False, defeated=False, skips=0)
    state["players"][e.player] = sheet


def _opened(state: State, e: PlayOpened) -> None:
    state["turn"] = e.player
    state["phase"] = "turn"
    state["moved"] = False


def _rolled(state: State, e: DieRolled) -> None:
    if e.purpose == "movement":
        # Dungeon 7.3: the move back after a defeat is made on the next turn only.
        state["players"][e.player]["defeated"] = False
        state["moved"] = True


def _drawn(state: State, e: CardDrawn) -> None:
    if e.card in state["deck"]:
        state["deck"].remove(e.card)
    state["spaces"][state["players"][e.player]["space"]].append(e.card)


def _reshuffled(state: State, e: DeckReshuffled) -> None:
    state["deck"] = sorted(state["deck"] + state["discard"])
    state["discard"] = []


def _off_space(state: State, space: int, card: str) -> None:
    cards = state["spaces"][space]
    if card in cards:
        cards.remove(card)


def _discarded(state: State, e: CardDiscarded) -> None:
    _off_space(state, e.space, e.card)
    state["discard"].append(e.card)


def _object_taken(state: State, e: ObjectTaken) -> None:
    _off_space(state, e.space, e.card)
    state["players"][e.player]["objects"].append(e.card)


def _follower_joined(state: State, e: FollowerJoined) -> None:
    _off_space(state, e.space, e.card)
    state["players"][e.player]["followers"].append(e.card)


def _trophy(state: State, e: TrophyTaken) -> None:
    _off_space(state, e.space, e.card)
    state["players"][e.player]["trophies"].append(e.card)


def _traded(state: State, e: TrophiesTraded) -> None:
    sheet = state["players"][e.player]
    for card in e.cards:
        if card in sheet["trophies"]:
            sheet["trophies"].remove(card)
    state["discard"].extend(e.cards)
    sheet[e.stat] += e.amount


def _combat(state: State, e: CombatResolved) -> None:
    players = state["players"]
    # Dungeon 7.3: whoever loses a combat (character or enemy's victim) is defeated.
    if e.outcome == "lost" and e.player in players:
        players[e.player]["defeated"] = True
    elif e.outcome == "won" and e.opponent in players:
        players[e.opponent]["defeated"] = True


def _out(state: State, e: PlayerOut) -> None:
    sheet = state["players"][e.player]
    sheet["status"] = OUT
    if sheet["lives"] <= 0:
        # RULES.md §1: a killed character's Objects, Followers and Gold stay on its space.
        space = sheet["space"]
        state["spaces"][space].extend(sheet["objects"] + sheet["followers"])
        state["space_gold"][space] += sheet["gold"]
        state["discard"].extend(sheet["trophies"])
        sheet.update(objects=[], followers=[], trophies=[], gold=0)


def _won(state: State, e: GameWon) -> None:
    state["winner"] = e.player
    state["phase"] = "over"
    state["players"][e.player]["status"] = WINNER


def _ended(state: State, e: GameEnded) -> None:
    state["winner"] = e.winner
    state["phase"] = "over"


def _turn_ended(state: State, e: TurnEnded) -> None:
    state["turn"] = e.next_player
    state["moved"] = False


def _gold_taken(state: State, e: GoldTaken) -> None:
    state["space_gold"][e.space] -= e.amount
    state["players"][e.player]["gold"] += e.amount


def _sheet_add(key: str) -> Callable[[State, Any], None]:
    def apply(state: State, e: Any) -> None:
        state["players"][e.player][key] += e.amount

    return apply


def _sheet_set(key: str, value: Any) -> Callable[[State, Any], None]:
    def apply(state: State, e: Any) -> None:
        state["players"][e.player][key] = value

    return apply


def _moved(state: State, e: Moved) -> None:
    state["players"][e.piece]["space"] = e.to_space


def _lost(state: State, e: LifeLost) -> None:
    state["players"][e.player]["lives"] -= e.amount


def _stat(state: State, e: StatChanged) -> None:
    state["players"][e.player][e.stat] += e.amount


def _skipped(state: State, e: TurnSkipped) -> None:
    sheet = state["players"][e.player]
    sheet["skips"] = max(0, sheet["skips"] - 1)


def _turn_lost(state: State, e: TurnLost) -> None:
    state["players"][e.player]["skips"] += 1


_EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    CharacterDealt: _dealt,
    PlayOpened: _opened,
    DieRolled: _rolled,
    CardDrawn: _drawn,
    DeckReshuffled: _reshuffled,
    Moved: _moved,
    FleeingDeclared: _sheet_set("fleeing", True),
    CardDiscarded: _discarded,
    ObjectTaken: _object_taken,
    FollowerJoined: _follower_joined,
    TrophyTaken: _trophy,
    TrophiesTraded: _traded,
    StatChanged: _stat,
    GoldChanged: _sheet_add("gold"),
    GoldTaken: _gold_taken,
    LifeLost: _lost,
    LifeGained: _sheet_add("lives"),
    CombatResolved: _combat,
    TurnLost: _turn_lost,
    TurnSkipped: _skipped,
    TurnEnded: _turn_ended,
    PlayerOut: _out,
    GameWon: _won,
    GameEnded: _ended,
}


def evolve(state: State, event: Event) -> State:
    """Applies one recorded event to the state in place and returns it; other events are facts only."""
    apply = _EVOLVERS.get(type(event))
    if apply is not None:
        apply(state, event)
    return state
