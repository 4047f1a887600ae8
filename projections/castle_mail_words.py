"""Vampire Empire in words for mail: the castle, the city, the dead, each player's piles, a fight under way,
and the viewer's own hand and tokens, each a few short lines (see `projections.mail_words`).

The state is folded from the viewer's copy of the log, so its `hands` and `tokens` hold only what that
viewer may see: the other player's hand is only ever counted, and an identity is named only when it was
revealed or the viewer's own tokens tell it (`castle_view.identity_mark`).
"""

from __future__ import annotations

from typing import Any, cast

from domain.rulesets.castle.content import load_characters
from domain.rulesets.castle.shapes import CastleState
from domain.rulesets.castle.state import ATTACK, CELLAR, DEFENCE, MOAT, deck_count
from projections.castle_view import (
    STEPS,
    card_label,
    card_order,
    character_name,
    identity_mark,
    identity_words,
)
from projections.phone_lines import INDENT, listed, whole, wrap_words


def situation(plain: dict[str, Any]) -> str:
    """Returns the step of the turn under way: `Vlad's turn (vampire): discard, then draw back up to 8.`"""
    state = cast(CastleState, plain)
    turn = state["turn"]
    said = f"{turn}'s turn ({state['players'][turn]['side']}): {STEPS.get(state['step'], state['step'])}."
    return said + (" A vampire was unmasked this turn." if state["unmasked"] else "")


def standing(plain: dict[str, Any], viewer: str, width: int) -> list[str]:
    """Returns the castle, the city, the dead, each player, a fight and the viewer's own secrets in lines
    no wider than `width`."""
    state = cast(CastleState, plain)
    lines = [*_castle(state, width), *_city(state, width), *_dead(state, width)]
    lines += [line for name in state["players"] for line in _player(state, name, width)]
    lines += [*_fight(state, width), *_hand(state, viewer, width), *_tokens(state, viewer, width)]
    if state["scores"]:
        scores = state["scores"]
        lines += wrap_words(f"Scores: human {scores['human']}, vampire {scores['vampire']}.", width)
    return lines


def _character(state: CastleState, character: str) -> str:
    """Returns `Maid (servant, defence 1, attack +1): human (your token)` as far as this copy knows."""
    found = load_characters().get(character)
    facts = [found.profession, f"defence {found.defence}"] if found else []
    counts = state["markers"].get(character)
    facts += [f"{kind} +{counts[kind]}" for kind in (ATTACK, DEFENCE) if counts and counts[kind]]
    mark = identity_mark(state, character)
    named = f"{character_name(character)} ({', '.join(facts)})" if facts else character_name(character)
    return named + (f": {mark}" if mark else "")


def _castle(state: CastleState, width: int) -> list[str]:
    if not state["castle"]:
        return ["The castle is empty."]
    # A list mark keeps each character its own line where a mail's HTML joins wrapped sentences back.
    rows = [wrap_words(_character(state, c), width, f"{INDENT}- ", INDENT * 2) for c in state["castle"]]
    return ["In the castle:", *(line for row in rows for line in row)]


def _city(state: CastleState, width: int) -> list[str]:
    face_down, bottom = len(state["city"]), state["bottom"]
    hidden = ", ".join(character_name(c) for c in bottom) or "nobody"
    lines = wrap_words(f"The city: {face_down} face down; hidden at its bottom: {hidden}.", width)
    known = [c for c in [*sorted(state["city"]), *bottom] if c in state["known"]]
    named = [f"{character_name(c)} ({identity_words(state['known'][c])})" for c in known]
    return lines + (listed("Revealed in the city", named, width, INDENT) if named else [])


def _dead(state: CastleState, width: int) -> list[str]:
    if not state["dead"]:
        return []
    known = state["known"]
    named = [
        f"{character_name(c)} ({identity_words(known[c]) if c in known else 'not yet revealed'})"
        for c in state["dead"]
    ]
    return listed("The dead, in order", named, width)


def _player(state: CastleState, name: str, width: int) -> list[str]:
    me = state["players"][name]
    piles = f"hand {len(me['hand'])}, deck {deck_count(state, name)}, cellar {len(me[CELLAR])}"
    lines = wrap_words(f"{name}, {me['side']} player: {piles}, moat {len(me[MOAT])}.", width)
    tops = [f"{pile} top {whole(card_label(me[pile][-1]))}" for pile in (CELLAR, MOAT) if me[pile]]
    return lines + (wrap_words("; ".join(tops) + ".", width, INDENT) if tops else [])


def _fight(state: CastleState, width: int) -> list[str]:
    fight = state["fight"]
    if fight is None:
        return []
    attacker, defender = character_name(fight["attacker"]), character_name(fight["defender"])
    lines = wrap_words(f"Fight, round {fight['round']} of 2: {attacker} attacks {defender}.", width)
    for side in ("attack", "defence"):
        cards = [card_label(c) for c in fight["cards"][side]] or ["no cards yet"]
        lines += listed(f"{side.title()} {fight[side]}", cards, width, INDENT)
    return lines


def _hand(state: CastleState, viewer: str, width: int) -> list[str]:
    cards = state["hands"].get(viewer)
    if cards is None:
        return []
    labels = [card_label(c) for c in sorted(cards, key=card_order)] or ["no cards"]
    return listed(f"Your hand ({len(cards)} cards)", labels, width)


def _tokens(state: CastleState, viewer: str, width: int) -> list[str]:
    tokens = state["tokens"].get(viewer)
    if tokens is None:
        return []
    side = state["players"][viewer]["side"]
    # A player drew the tokens of their own side; the vampire player answers for the rest too.
    drawn = sorted(character_name(c) for c, t in tokens.items() if t["identity"] == side)
    verb = "are vampires" if side == "vampire" else "are human"
    return wrap_words(f"Your tokens: {', '.join(drawn)} {verb}.", width)
