"""Vampire Empire's state (typed in `shapes`), what the rules read of it, and `evolve`, the only code that
changes it.

`evolve` trusts its events (STYLE.md habit 3); `checks.verify` is what refuses a forged one. Every copy of
the log folds to a state: the host's full log, a player's copy (their own private events,
the rest sealed) or the public copy. The public part of the state depends on public events only, so it
is the same in every copy. What a copy's private events add sits apart: `hands` and `tokens`, for the
players this copy may see.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from domain.events import Event, GameCreated, GameEnded, TurnEnded
from domain.hidden import commit
from domain.rulesets.castle.content import CastleCard, castle_content
from domain.rulesets.castle.events import (
    CardPlayed,
    CardsDrawn,
    CardsReceived,
    CardTaken,
    CastleFilled,
    CharacterHidden,
    CharacterKilled,
    CityShuffled,
    FightCardPlayed,
    FightCardsDone,
    FightEnded,
    FightRoundEnded,
    FightStarted,
    HolyWaterAsked,
    IdentitiesCommitted,
    IdentityRevealed,
    IdentityTokensDrawn,
    MarkerPlaced,
    PlayBegan,
    ScoresCounted,
    TurnPassed,
)
from domain.rulesets.castle.shapes import CastleState, Fight, Holy, Player

HUMAN: Final = "human"
VAMPIRE: Final = "vampire"
SIDES = (HUMAN, VAMPIRE)
HAND_SIZE = 8  # house rule H4.4: draw back up to 8
CELLAR: Final = "cellar"
MOAT: Final = "moat"
DECK: Final = "deck"
ATTACK: Final = "attack"
DEFENCE: Final = "defence"


def the_fight(state: CastleState) -> Fight:
    """Returns the fight under way (callers know there is one: the step is fight)."""
    fight = state["fight"]
    assert fight is not None, "no fight is under way"
    return fight


def the_holy(state: CastleState) -> Holy:
    """Returns what holy water asked (callers know it did: the step is holy-attack)."""
    holy = state["holy"]
    assert holy is not None, "holy water asked nothing"
    return holy


def pile(me: Player, name: str) -> list[str]:
    """Returns a player's cellar or moat by the name an event gives it."""
    return me["cellar"] if name == CELLAR else me["moat"]


def other_side(side: str) -> str:
    """Returns the other side."""
    return VAMPIRE if side == HUMAN else HUMAN


def identity_salt(secret: bytes, character: str) -> bytes:
    """Returns the salt of one character's identity commitment, derived from the dealer's secret."""
    return hashlib.sha256(secret + b"identity\x00" + character.encode()).digest()


def card_salt(secret: bytes, card_id: str) -> bytes:
    """Returns the salt of one card's commitment in the hand a CardsReceived event records."""
    return hashlib.sha256(secret + b"card\x00" + card_id.encode()).digest()


def hand_commitments(secret: bytes, hand: list[str]) -> list[bytes]:
    """Returns the public commitments to a whole hand: one per card, sorted by value (not by card or
    by when it was drawn)."""
    return sorted(commit(c, card_salt(secret, c)) for c in hand)


def deck_of(side: str) -> dict[str, CastleCard]:
    """Returns the cards of one side's deck by id."""
    return castle_content().decks[side]


def card(side: str, card_id: str) -> CastleCard:
    """Returns one card of a side's deck."""
    return castle_content().decks[side][card_id]


def assign_sides(seats: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Returns {side: player name}: the sides the seats ask for, and the free ones (human first) for
    seats that named none."""
    sides = {str(s["character"]): str(s["name"]) for s in seats if s.get("character")}
    free = [side for side in SIDES if side not in sides]
    for seat in seats:
        if not seat.get("character"):
            sides[free.pop(0)] = str(seat["name"])
    return sides


def new_state(created: GameCreated) -> CastleState:
    """Returns the state right after GameCreated: sides taken from the seats, nothing dealt."""
    sides = assign_sides(created.players)
    players: dict[str, Player] = {
        name: {"side": side, "hand": [], CELLAR: [], MOAT: []} for side, name in sides.items()
    }
    return {
        "phase": "setup",
        "sides": sides,
        "turn": "",
        "step": "",
        "unmasked": False,
        "city": [],
        "bottom": [],
        "castle": [],
        "dead": [],
        "known": {},
        "commitments": {},
        "markers": {},
        "players": players,
        "hands": {},
        "tokens": {},
        "holy": None,
        "fight": None,
        "winner": "",
        "reason": "",
        "scores": {},
    }


def side_of(state: CastleState, player: str) -> str:
    """Returns a player's side."""
    return state["players"][player]["side"]


def player_of(state: CastleState, side: str) -> str:
    """Returns the player on a side."""
    return state["sides"][side]


def opponent(state: CastleState, player: str) -> str:
    """Returns the other player."""
    return player_of(state, other_side(side_of(state, player)))


def alive(state: CastleState) -> list[str]:
    """Returns the living characters: in the castle, then the city, then under it."""
    return [*state["castle"], *state["city"], *state["bottom"]]


def deck_count(state: CastleState, player: str) -> int:
    """Returns how many cards are left in a player's deck: the side's cards not in the hand, the cellar
    or the moat (public: counts only)."""
    me = state["players"][player]
    return len(deck_of(me["side"])) - len(me["hand"]) - len(me[CELLAR]) - len(me[MOAT])


def out_of_cards(state: CastleState, player: str) -> bool:
    """Tells whether a player has no card left in deck or hand (public: counts only)."""
    return not state["players"][player]["hand"] and deck_count(state, player) == 0


def deck_cards(state: CastleState, player: str) -> list[str]:
    """Returns the cards left in a player's deck, sorted: every card of the side not in the hand (this
    copy must see the hand: the host or the owner) nor in the cellar or the moat."""
    me = state["players"][player]
    gone = set(state["hands"].get(player, {})) | set(me[CELLAR]) | set(me[MOAT])
    return sorted(c for c in deck_of(me["side"]) if c not in gone)


# --- evolve -------------------------------------------------------------------------------------------------


def _city_shuffled(state: CastleState, e: CityShuffled) -> None:
    state["city"] = sorted(e.characters)
    state["markers"] = {c: {ATTACK: 0, DEFENCE: 0} for c in e.characters}


def _castle_filled(state: CastleState, e: CastleFilled) -> None:
    source = state["city"] if e.character in state["city"] else state["bottom"]
    source.remove(e.character)
    state["castle"].append(e.character)


def _tokens_drawn(state: CastleState, e: IdentityTokensDrawn) -> None:
    other = other_side(e.identity)
    tokens = state["tokens"].setdefault(e.owner, {})
    for character, salt in e.salts.items():
        identity = e.identity if character in e.characters else other
        tokens[character] = {"identity": identity, "salt": salt}


def _committed(state: CastleState, e: IdentitiesCommitted) -> None:
    state["commitments"] = dict(e.commitments)


def _cards_drawn(state: CastleState, e: CardsDrawn) -> None:
    me = state["players"][e.player]
    me["hand"] = list(e.commitments)
    if state["step"] == "discard" and state["turn"] == e.player:
        state["step"] = "act"  # drawing back up to 8 ends the discard step


def _cards_received(state: CastleState, e: CardsReceived) -> None:
    state["hands"][e.owner] = {c: card_salt(e.salt, c) for c in e.hand}


def _card_taken(state: CastleState, e: CardTaken) -> None:
    me = state["players"][e.player]
    if e.pile != DECK:  # a card from the deck leaves it by joining the hand
        pile(me, e.pile).remove(e.card)
    me["hand"] = list(e.commitments)


def _card_played(state: CastleState, e: CardPlayed) -> None:
    me = state["players"][e.player]
    commitment = commit(e.card, e.salt)
    if commitment in me["hand"]:  # `checks.verify` refuses a card that opens no commitment
        me["hand"].remove(commitment)
    state["hands"].get(e.player, {}).pop(e.card, None)
    pile(me, e.pile).append(e.card)


def _identity_revealed(state: CastleState, e: IdentityRevealed) -> None:
    state["known"][e.character] = e.identity
    if e.reason == "unmasked":
        state["unmasked"] = True


def _hidden(state: CastleState, e: CharacterHidden) -> None:
    state["castle"].remove(e.character)
    state["bottom"].append(e.character)


def _holy_water(state: CastleState, e: HolyWaterAsked) -> None:
    state["step"] = "holy-attack"  # the turn's end clears it if no attack follows
    state["holy"] = {"card": e.card, "character": e.character}


def _marker(state: CastleState, e: MarkerPlaced) -> None:
    markers = state["markers"][e.character]
    if e.kind == ATTACK:
        markers[ATTACK] += 1
    else:
        markers[DEFENCE] += 1


def _fight_started(state: CastleState, e: FightStarted) -> None:
    attacking = e.player
    attack = state["markers"][e.attacker][ATTACK]
    if e.holy_water:
        attack += card(HUMAN, e.holy_water).value
    state["step"] = "fight"
    state["holy"] = None
    state["fight"] = {
        "attacker": e.attacker,
        "defender": e.defender,
        "attacking": attacking,
        "defending": opponent(state, attacking),
        "round": 1,
        "stage": ATTACK,
        "attack": attack,
        "defence": state["markers"][e.defender][DEFENCE],
        "cards": {ATTACK: [e.holy_water] if e.holy_water else [], DEFENCE: []},
    }


def _fight_card(state: CastleState, e: FightCardPlayed) -> None:
    fight = the_fight(state)
    if e.side == ATTACK:
        fight[ATTACK] += e.value
        fight["cards"][ATTACK].append(e.card)
    else:
        fight[DEFENCE] += e.value
        fight["cards"][DEFENCE].append(e.card)


def _cards_done(state: CastleState, e: FightCardsDone) -> None:
    fight = the_fight(state)
    fight["stage"] = DEFENCE if e.side == ATTACK else "over"


def _round_ended(state: CastleState, e: FightRoundEnded) -> None:
    fight = the_fight(state)
    fight["round"] = e.round + 1
    fight["stage"] = ATTACK


def _killed(state: CastleState, e: CharacterKilled) -> None:
    state["castle"].remove(e.character)
    state["dead"].append(e.character)


def _fight_ended(state: CastleState, e: FightEnded) -> None:
    state["fight"] = None
    state["step"] = "done"  # the turn's action is over: the turn (or the game) ends next


def _turn_passed(state: CastleState, e: TurnPassed) -> None:
    state["holy"] = None


def _turn_ended(state: CastleState, e: TurnEnded) -> None:
    state["turn"] = e.next_player
    state["step"] = "discard"
    state["unmasked"] = False
    state["holy"] = None
    state["fight"] = None


def _play_began(state: CastleState, e: PlayBegan) -> None:
    state["phase"] = "turn"
    state["turn"] = e.player
    state["step"] = "discard"


def _scores(state: CastleState, e: ScoresCounted) -> None:
    state["scores"] = {HUMAN: e.human, VAMPIRE: e.vampire}


def _game_ended(state: CastleState, e: GameEnded) -> None:
    state["phase"] = "over"
    state["winner"] = e.winner
    state["reason"] = e.reason
    state["step"] = ""
    state["fight"] = None


_EVOLVERS: dict[type[Event], Callable[[CastleState, Any], None]] = {
    CityShuffled: _city_shuffled,
    CastleFilled: _castle_filled,
    IdentityTokensDrawn: _tokens_drawn,
    IdentitiesCommitted: _committed,
    CardsDrawn: _cards_drawn,
    CardsReceived: _cards_received,
    CardTaken: _card_taken,
    CardPlayed: _card_played,
    IdentityRevealed: _identity_revealed,
    CharacterHidden: _hidden,
    HolyWaterAsked: _holy_water,
    MarkerPlaced: _marker,
    FightStarted: _fight_started,
    FightCardPlayed: _fight_card,
    FightCardsDone: _cards_done,
    FightRoundEnded: _round_ended,
    CharacterKilled: _killed,
    FightEnded: _fight_ended,
    TurnPassed: _turn_passed,
    TurnEnded: _turn_ended,
    PlayBegan: _play_began,
    ScoresCounted: _scores,
    GameEnded: _game_ended,
}


def evolve(state: CastleState, event: Event) -> CastleState:
    """Applies one event to the state in place and returns it; events it does not know change nothing."""
    handler = _EVOLVERS.get(type(event))
    if handler is not None:
        handler(state, event)
    return state
