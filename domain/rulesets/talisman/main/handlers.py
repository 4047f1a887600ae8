"""The main board's `handlers`: one cheap evolve step per event type, no checks (house rules H5).

A `CardDrawn` puts an Adventure card on the drawer's space, a Spell or a Talisman on the drawer's
sheet; a killed character's things stay on its space; every pile named in the state follows the
replay format's ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

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
from domain.rulesets.talisman.character import OUT
from domain.rulesets.talisman.events import (
    CardDiscarded,
    ChoiceMade,
    ChoiceOffered,
    DeckReshuffled,
    FollowerJoined,
    FollowerLeft,
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
from domain.rulesets.talisman.main.handlers_abilities import ABILITY_HANDLERS, end_of_turn
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
from domain.rulesets.talisman.state import board_evolvers

Evolver = Callable[[MainState, Any], None]

# The shared steps whose meaning is the same on the main board (its face-up cards are Adventure cards).
# A MainState is a TalismanState whose sheets carry more (mypy sees the narrower `players` as another type).
_SHARED = cast(dict[type[Event], Evolver], board_evolvers(ADVENTURE))


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


def _crossed(state: MainState, e: RegionCrossed) -> None:
    sheet = state["players"][e.player]
    sheet["board"] = e.to_board
    sheet["space"] = e.to_space
    if e.to_board == CROWN:
        state["crown_reached"] = True


def _drawn(state: MainState, e: CardDrawn) -> None:
    # Not the shared step: a Spell or a Talisman goes onto the drawer's sheet, not onto its space.
    _take(state["piles"][e.deck], e.card)
    if e.deck == SPELLS:
        state["players"][e.player]["spells"].append(e.card)
    elif e.deck == TALISMANS:
        state["players"][e.player]["talismans"].append(e.card)
    else:
        _here(state, e.player).append(e.card)


def _reshuffled(state: MainState, e: DeckReshuffled) -> None:
    # Not the shared step: only the cards the event names leave the discard pile, not all of it.
    discard = state["piles"][discard_pile(e.deck)]
    for card in e.cards:
        _take(discard, card)
    state["piles"][e.deck] = sorted(state["piles"][e.deck] + e.cards)


def _discarded(state: MainState, e: CardDiscarded) -> None:
    # Not the shared step: each card goes to its own deck's discard pile (one board, several decks).
    _take(_here(state, e.player), e.card)
    state["piles"][discard_pile(deck_of(e.card))].append(e.card)


def _into(key: str) -> Evolver:
    # Not the shared steps: the card leaves the taker's own space and a Talisman is kept apart.
    def apply(state: MainState, e: Any) -> None:
        _take(_here(state, e.player), e.card)
        sheet: Any = state["players"][e.player]
        target = "talismans" if key == "objects" and deck_of(e.card) == TALISMANS else key
        sheet[target].append(e.card)

    return apply


_INTO_TROPHIES = _into("trophies")


def _stat(state: MainState, e: StatChanged) -> None:
    # Not the shared step (Strength or Craft only): any stat a card names, in one step.
    sheet: Any = state["players"][e.player]
    sheet[e.stat] += e.amount


def _killed(state: MainState, e: CharacterDied) -> None:
    # house rule H1.7: a killed character's Objects, Followers and Gold stay on its space.
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
    # Not the shared step: a killed character's things were left on its space by CharacterDied.
    state["players"][e.player]["status"] = OUT


def _turn_ended(state: MainState, e: TurnEnded) -> None:
    order = state["order"]
    if order.index(e.next_player) <= order.index(e.player):
        state["round"] += 1  # the turn came round the table again
    state["turn"] = e.next_player
    state["step"] = START
    state["rolled"] = 0
    end_of_turn(state["players"][e.player])


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
    # Not the shared step: a kill also counts towards the Warlock's quest.
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
    Moved: _SHARED[Moved],
    RegionCrossed: _crossed,
    CardDrawn: _drawn,
    DeckReshuffled: _reshuffled,
    CardDiscarded: _discarded,
    ObjectTaken: _into("objects"),
    FollowerJoined: _into("followers"),
    TrophyTaken: _trophy,
    TrophiesTraded: _SHARED[TrophiesTraded],
    StatChanged: _stat,
    GoldChanged: _SHARED[GoldChanged],
    GoldTaken: _SHARED[GoldTaken],
    LifeLost: _SHARED[LifeLost],
    LifeGained: _SHARED[LifeGained],
    TurnLost: _SHARED[TurnLost],
    TurnSkipped: _SHARED[TurnSkipped],
    CharacterDied: _killed,
    CharacterRestarted: _restarted,
    PlayerOut: _out,
    GameWon: _SHARED[GameWon],
    GameEnded: _SHARED[GameEnded],
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
    **ABILITY_HANDLERS,
}
