"""The main board's `handlers`: one cheap evolve step per event type, no checks (RULES.md §5).

A `CardDrawn` puts an Adventure card on the drawer's space, a Spell or a Talisman on the drawer's
sheet; a killed character's things stay on its space; every pile named in the state follows the
replay format's ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.events import (
    CardDrawn,
    CharacterDealt,
    DieRolled,
    Event,
    GameEnded,
    GameWon,
    LifeGained,
    LifeLost,
    Moved,
    PlayerOut,
    TurnEnded,
)
from domain.rulesets.keep.events import ChoiceMade, ChoiceOffered, FollowerLeft
from domain.rulesets.talisman.character import OUT, WINNER
from domain.rulesets.talisman.events import (
    CardDiscarded,
    DeckReshuffled,
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
from domain.rulesets.talisman.main.events import (
    AlignmentChanged,
    CharacterDied,
    CharacterRestarted,
    ItemBought,
    ItemDropped,
    ItemSold,
    QuestCompleted,
    QuestGiven,
    RegionCrossed,
    SpiritsEmpowered,
)
from domain.rulesets.talisman.main.state import (
    ADVENTURE,
    CHARACTERS,
    CROWN,
    MOVEMENT,
    OUTER,
    PURCHASE,
    ROLLED,
    SPELLS,
    START,
    TALISMANS,
    MainState,
    Quest,
    deck_of,
    fresh_sheet,
)
from domain.rulesets.talisman.shapes import discard_pile

Evolver = Callable[[MainState, Any], None]


def _take(cards: list[str], card: str) -> None:
    if card in cards:
        cards.remove(card)


def _here(state: MainState, player: str) -> list[str]:
    sheet = state["players"][player]
    return state["cards"][sheet["board"]][sheet["space"]]


def _dealt(state: MainState, e: CharacterDealt) -> None:
    _take(state["piles"][CHARACTERS], e.character)
    board, space = state["starts"].get(e.character, [OUTER, 0])
    state["players"][e.player] = fresh_sheet(e.character, board, space)


def _opened(state: MainState, e: PlayOpened) -> None:
    state["turn"] = e.player
    state["phase"] = "turn"
    state["step"] = START


def _rolled(state: MainState, e: DieRolled) -> None:
    if e.purpose == MOVEMENT:
        state["step"] = ROLLED
        state["rolled"] = e.values[0]


def _moved(state: MainState, e: Moved) -> None:
    sheet = state["players"][e.piece]
    sheet["board"] = e.board
    sheet["space"] = e.to_space


def _crossed(state: MainState, e: RegionCrossed) -> None:
    sheet = state["players"][e.player]
    sheet["board"] = e.to_board
    sheet["space"] = e.to_space
    if e.to_board == CROWN:
        state["crown_reached"] = True


def _drawn(state: MainState, e: CardDrawn) -> None:
    _take(state["piles"][e.deck], e.card)
    if e.deck == SPELLS:
        state["players"][e.player]["spells"].append(e.card)
    elif e.deck == TALISMANS:
        state["players"][e.player]["talismans"].append(e.card)
    else:
        _here(state, e.player).append(e.card)


def _reshuffled(state: MainState, e: DeckReshuffled) -> None:
    discard = state["piles"][discard_pile(e.deck)]
    for card in e.cards:
        _take(discard, card)
    state["piles"][e.deck] = sorted(state["piles"][e.deck] + e.cards)


def _discarded(state: MainState, e: CardDiscarded) -> None:
    _take(_here(state, e.player), e.card)
    state["piles"][discard_pile(deck_of(e.card))].append(e.card)


def _into(key: str) -> Evolver:
    def apply(state: MainState, e: Any) -> None:
        _take(_here(state, e.player), e.card)
        sheet: Any = state["players"][e.player]
        target = "talismans" if key == "objects" and deck_of(e.card) == TALISMANS else key
        sheet[target].append(e.card)

    return apply


_INTO_TROPHIES = _into("trophies")


def _traded(state: MainState, e: TrophiesTraded) -> None:
    sheet: Any = state["players"][e.player]
    for card in e.cards:
        _take(sheet["trophies"], card)
    state["piles"][discard_pile(ADVENTURE)].extend(e.cards)
    sheet[e.stat] += e.amount


def _stat(state: MainState, e: StatChanged) -> None:
    sheet: Any = state["players"][e.player]
    sheet[e.stat] += e.amount


def _gold(state: MainState, e: GoldChanged) -> None:
    state["players"][e.player]["gold"] += e.amount


def _gold_taken(state: MainState, e: GoldTaken) -> None:
    sheet = state["players"][e.player]
    state["gold"][sheet["board"]][e.space] -= e.amount
    sheet["gold"] += e.amount


def _lost(state: MainState, e: LifeLost) -> None:
    state["players"][e.player]["lives"] -= e.amount


def _gained(state: MainState, e: LifeGained) -> None:
    state["players"][e.player]["lives"] += e.amount


def _turn_lost(state: MainState, e: TurnLost) -> None:
    state["players"][e.player]["skips"] += 1


def _skipped(state: MainState, e: TurnSkipped) -> None:
    sheet = state["players"][e.player]
    sheet["skips"] = max(0, sheet["skips"] - 1)


def _killed(state: MainState, e: CharacterDied) -> None:
    # RULES.md §1: a killed character's Objects, Followers and Gold stay on its space.
    sheet = state["players"][e.player]
    state["cards"][e.board][e.space].extend(sheet["objects"] + sheet["followers"] + sheet["talismans"])
    state["gold"][e.board][e.space] += sheet["gold"]
    state["piles"][discard_pile(ADVENTURE)].extend(sheet["trophies"])
    state["piles"][discard_pile(SPELLS)].extend(sheet["spells"])
    sheet["objects"], sheet["followers"], sheet["talismans"] = [], [], []
    sheet["trophies"], sheet["spells"] = [], []
    sheet["gold"] = sheet["lives"] = 0


def _restarted(state: MainState, e: CharacterRestarted) -> None:
    pile = state["piles"][CHARACTERS]
    _take(pile, e.character)
    pile.append(e.killed)
    pile.sort()
    state["players"][e.player] = fresh_sheet(e.character, e.board, e.space)


def _out(state: MainState, e: PlayerOut) -> None:
    state["players"][e.player]["status"] = OUT


def _won(state: MainState, e: GameWon) -> None:
    state["winner"] = e.player
    state["phase"] = "over"
    state["players"][e.player]["status"] = WINNER


def _ended(state: MainState, e: GameEnded) -> None:
    state["winner"] = e.winner
    state["phase"] = "over"


def _turn_ended(state: MainState, e: TurnEnded) -> None:
    order = state["order"]
    if order.index(e.next_player) <= order.index(e.player):
        state["round"] += 1  # the turn came round the table again
    state["turn"] = e.next_player
    state["step"] = START
    state["rolled"] = 0


def _offered(state: MainState, e: ChoiceOffered) -> None:
    state["choice"] = {"player": e.player, "kind": e.kind, "options": list(e.options)}


def _made(state: MainState, e: ChoiceMade) -> None:
    state["choice"] = None


def _bought(state: MainState, e: ItemBought) -> None:
    _take(state["piles"][PURCHASE], e.card)
    sheet = state["players"][e.player]
    sheet["objects"].append(e.card)
    sheet["gold"] -= e.price


def _sold(state: MainState, e: ItemSold) -> None:
    sheet = state["players"][e.player]
    _take(sheet["objects"], e.card)
    sheet["gold"] += e.gold
    if e.pile == PURCHASE:
        state["piles"][PURCHASE] = sorted([*state["piles"][PURCHASE], e.card])
    else:
        state["piles"][discard_pile(deck_of(e.card))].append(e.card)


def _follower_left(state: MainState, e: FollowerLeft) -> None:
    _take(state["players"][e.player]["followers"], e.card)
    state["piles"][discard_pile(ADVENTURE)].append(e.card)


def _empowered(state: MainState, e: SpiritsEmpowered) -> None:
    state["spirit_bonus"] = e.amount


def _dropped(state: MainState, e: ItemDropped) -> None:
    sheet = state["players"][e.player]
    _take(sheet["objects"] if e.card in sheet["objects"] else sheet["followers"], e.card)
    state["cards"][e.board][e.space].append(e.card)


def _quest_given(state: MainState, e: QuestGiven) -> None:
    quest: Quest = {"id": e.quest, "goal": e.goal, "amount": e.amount, "target": e.target, "progress": 0}
    state["players"][e.player]["quest"] = quest


def _quest_done(state: MainState, e: QuestCompleted) -> None:
    state["players"][e.player]["quest"] = None


def _trophy(state: MainState, e: TrophyTaken) -> None:
    _INTO_TROPHIES(state, e)
    quest = state["players"][e.player]["quest"]
    if quest is not None and quest["goal"] == f"kill-{e.kind}":
        quest["progress"] += e.value  # the Warlock counts what was killed since the quest was set


def _aligned(state: MainState, e: AlignmentChanged) -> None:
    state["players"][e.player]["alignment"] = e.alignment


HANDLERS: dict[type[Event], Evolver] = {
    CharacterDealt: _dealt,
    PlayOpened: _opened,
    DieRolled: _rolled,
    Moved: _moved,
    RegionCrossed: _crossed,
    CardDrawn: _drawn,
    DeckReshuffled: _reshuffled,
    CardDiscarded: _discarded,
    ObjectTaken: _into("objects"),
    FollowerJoined: _into("followers"),
    TrophyTaken: _trophy,
    TrophiesTraded: _traded,
    StatChanged: _stat,
    GoldChanged: _gold,
    GoldTaken: _gold_taken,
    LifeLost: _lost,
    LifeGained: _gained,
    TurnLost: _turn_lost,
    TurnSkipped: _skipped,
    CharacterDied: _killed,
    CharacterRestarted: _restarted,
    PlayerOut: _out,
    GameWon: _won,
    GameEnded: _ended,
    TurnEnded: _turn_ended,
    ChoiceOffered: _offered,
    ChoiceMade: _made,
    ItemBought: _bought,
    ItemDropped: _dropped,
    ItemSold: _sold,
    SpiritsEmpowered: _empowered,
    FollowerLeft: _follower_left,
    QuestGiven: _quest_given,
    QuestCompleted: _quest_done,
    AlignmentChanged: _aligned,
}
