"""What each player may do now in Vampire Empire (house rules H4): the legal actions, and the card-validity
and fight-start rules they rest on.

Every function here reads only what the acting player may know: public facts, their own hand and their
own tokens. That is what lets the CLI show a player their options and the bots choose without peeking.
Action ids name cards and characters by their short ids (`clergy-2-a`, `lady`).
"""

from __future__ import annotations

from domain.actions import Action
from domain.rulesets.castle.content import (
    CHARACTER_PREFIX,
    HOLY_WATER,
    RED,
    SUPPORT,
    CastleCard,
    CastleContent,
    castle_content,
)
from domain.rulesets.castle.shapes import CastleState
from domain.rulesets.castle.state import (
    ATTACK,
    CELLAR,
    DECK,
    DEFENCE,
    HUMAN,
    MOAT,
    VAMPIRE,
    alive,
    deck_cards,
    pile,
    side_of,
    the_fight,
    the_holy,
)

CASTLE_SIZE = 3
HIDE_CARDS = 3  # house rule H4.5: hiding costs 3 red cards
HOLY_WATER_CARDS = 2  # and holy water 2 holy water cards
TAKE_PILES = {"take-from-deck": DECK, "take-from-cellar": CELLAR, "take-from-moat": MOAT}
MARKERS = {"attack-marker": ATTACK, "defence-marker": DEFENCE}
POINTS = {HUMAN: 1, VAMPIRE: 2}  # per surviving character when both players ran out of cards


# --- short ids ----------------------------------------------------------------------------------------------


def short(content_id: str) -> str:
    """Returns the short id used in action ids: the last part of a content id."""
    return content_id.rsplit("/", 1)[-1]


def character_id_of(short_id: str) -> str:
    return CHARACTER_PREFIX + short_id


def card_id_of(side: str, short_id: str) -> str:
    return f"castle/{side}/{short_id}"


def starting_defence(state: CastleState, character: str, cc: CastleContent) -> int:
    """Returns a character's printed defence plus its defence markers (what an attack must beat)."""
    markers = state["markers"][character][DEFENCE]
    return cc.characters[character].defence + markers


# --- what may be played -------------------------------------------------------------------------------------


def valid_card(
    state: CastleState, side: str, c: CastleCard, supported: str, opposed: str, cc: CastleContent
) -> bool:
    """Tells whether a card may count for `supported` (fighting `opposed`) when played by `side`."""
    # house rule H4.7: cards of the supported character's profession; holy water by the human player against
    # a revealed vampire; red cards by the vampire player for a revealed vampire.
    if c.kind == SUPPORT:
        return False
    if c.supports(cc.characters[supported].profession):
        return True  # a card of the character's profession (either colour of a two-coloured card)
    if c.kind == HOLY_WATER:
        return side == HUMAN and state["known"].get(opposed) == VAMPIRE
    if c.kind == RED:
        return side == VAMPIRE and state["known"].get(supported) == VAMPIRE
    return False


def hand(state: CastleState, player: str) -> list[str]:
    """Returns the cards in a player's hand, sorted (the host's state or the owner's own copy)."""
    return sorted(state["hands"].get(player, {}))


def cards_in_hand(state: CastleState, player: str, cc: CastleContent) -> list[CastleCard]:
    deck = cc.decks[side_of(state, player)]
    return [deck[c] for c in hand(state, player)]


def lowest(cards: list[CastleCard], kind: str, count: int) -> list[CastleCard]:
    return sorted((c for c in cards if c.kind == kind), key=lambda c: (c.value, c.id))[:count]


def can_attack(
    state: CastleState, player: str, attacker: str, defender: str, cc: CastleContent, holy: str = ""
) -> bool:
    """Tells whether a fight may start: the most the attacker could reach beats the starting defence."""
    # house rule H4.7: a fight may only start if the attacker can beat the defender's starting defence.
    side = side_of(state, player)
    reach = state["markers"][attacker][ATTACK] + (cc.decks[HUMAN][holy].value if holy else 0)
    reach += sum(
        c.value
        for c in cards_in_hand(state, player, cc)
        if valid_card(state, side, c, attacker, defender, cc)
    )
    return reach > starting_defence(state, defender, cc)


def may_attack_with(state: CastleState, player: str, attacker: str) -> bool:
    known = state["known"]
    if side_of(state, player) == HUMAN:
        return known.get(attacker) != VAMPIRE  # house rule H4.7: never with a revealed vampire
    revealed = [c for c in state["castle"] if known.get(c) == VAMPIRE]
    return not revealed or attacker in revealed  # with a revealed vampire when the castle has one


def _fighter(state: CastleState) -> str:
    fight = the_fight(state)
    return fight["attacking"] if fight["stage"] == ATTACK else fight["defending"]


def to_act(state: CastleState) -> str:
    """Returns who acts now ("" when nobody does)."""
    if state["phase"] != "turn":
        return ""
    return _fighter(state) if state["step"] == "fight" else state["turn"]


# --- legal actions ------------------------------------------------------------------------------------------


def legal_actions(state: CastleState, player: str | None = None) -> list[Action]:
    """Returns the actions open now to the player who is to act. They depend only on what that player
    may know (public facts, their hand and their tokens), so they can be shown to that player."""
    actor = to_act(state)
    if not actor or player not in (None, actor):
        return []
    cc = castle_content()
    step = state["step"]
    if step == "fight":
        return _fight_actions(state, actor, cc)
    if step == "discard":
        deck = cc.decks[side_of(state, actor)]
        actions = [
            Action(f"discard:{short(c)}", actor, f"Discard {_name(deck[c])}") for c in hand(state, actor)
        ]
        return [*actions, Action("draw", actor, "Draw back up to 8 cards")]
    if step == "holy-attack":
        asked = the_holy(state)
        target, holy = asked["character"], asked["card"]
        who = cc.characters
        actions = [
            Action(f"attack:{short(a)}:{short(target)}", actor, f"{who[a].name} attacks the unmasked vampire")
            for a in state["castle"]
            if a != target
            and may_attack_with(state, actor, a)
            and can_attack(state, actor, a, target, cc, holy)
        ]
        return [*actions, Action("decline", actor, "Let the unmasked vampire be")]
    return _turn_actions(state, actor, cc)


def _name(c: CastleCard) -> str:
    return c.label


def _fight_actions(state: CastleState, actor: str, cc: CastleContent) -> list[Action]:
    fight = the_fight(state)
    stage = fight["stage"]
    supported, opposed = (
        (fight["attacker"], fight["defender"]) if stage == ATTACK else (fight["defender"], fight["attacker"])
    )
    side = side_of(state, actor)
    name = cc.characters[supported].name
    actions = [
        Action(f"play:{short(c.id)}", actor, f"Play {_name(c)} for {name}")
        for c in cards_in_hand(state, actor, cc)
        if valid_card(state, side, c, supported, opposed, cc)
    ]
    return [*actions, Action("done", actor, f"Play no more cards in round {fight['round']}")]


def _turn_actions(state: CastleState, actor: str, cc: CastleContent) -> list[Action]:
    side = side_of(state, actor)
    cards = cards_in_hand(state, actor, cc)
    castle = state["castle"]
    who = cc.characters
    actions: list[Action] = []
    if side == VAMPIRE and not state["unmasked"]:
        tokens = state["tokens"].get(actor, {})
        actions += [
            Action(f"reveal:{short(c)}", actor, f"Unmask {who[c].name}, a vampire")
            for c in castle
            if (token := tokens.get(c)) and token["identity"] == VAMPIRE and c not in state["known"]
        ]
    for c in cards:
        if c.kind == SUPPORT:
            actions += _support_actions(state, actor, c, cc)
    for a in castle:
        if not may_attack_with(state, actor, a):
            continue
        for d in castle:
            if d != a and can_attack(state, actor, a, d, cc):
                label = f"{who[a].name} attacks {who[d].name}"
                actions.append(Action(f"attack:{short(a)}:{short(d)}", actor, label))
    if side == VAMPIRE and sum(c.kind == RED for c in cards) >= HIDE_CARDS:
        actions += [
            Action(f"hide:{short(c)}", actor, f"Hide {who[c].name} under the city (3 red cards)")
            for c in castle
        ]
    if side == HUMAN and sum(c.kind == HOLY_WATER for c in cards) >= HOLY_WATER_CARDS:
        actions += [
            Action(f"holy-water:{short(c)}", actor, f"Ask {who[c].name}'s identity with holy water")
            for c in _askable(state)
        ]
    return [*actions, Action("pass", actor, "End the turn without an action")]


def _askable(state: CastleState) -> list[str]:
    return sorted(c for c in alive(state) if c not in state["known"])


def _support_actions(state: CastleState, actor: str, c: CastleCard, cc: CastleContent) -> list[Action]:
    sid = short(c.id)
    if c.effect == "draw-2":
        return [Action(f"support:{sid}", actor, f"{c.name}: draw 2 cards")]
    if c.effect in MARKERS:
        kind = MARKERS[c.effect]
        return [
            Action(
                f"support:{sid}:{short(x)}", actor, f"{c.name}: +1 {kind} marker on {cc.characters[x].name}"
            )
            for x in state["castle"]
        ]
    taken_from = TAKE_PILES[c.effect]
    me = state["players"][actor]
    deck = cc.decks[me["side"]]
    options = deck_cards(state, actor) if taken_from == DECK else sorted(set(pile(me, taken_from)))
    return [
        Action(f"support:{sid}:{short(x)}", actor, f"{c.name}: take {_name(deck[x])} from the {taken_from}")
        for x in options
    ]
