"""Vampire Empire's board view: the castle, the city, the dead, the players' piles and a fight, as text.

The state it is given is folded from one viewer's copy of the log, so it shows exactly that copy: the hands
in `state["hands"]` and the identity tokens in `state["tokens"]` are the ones this viewer may see. Identities
come only from the state (`known`, `tokens`); content is read for names, professions and card values.
Salts and commitments are never printed.
"""

from __future__ import annotations

import textwrap
from typing import Any

from domain.rulesets.castle.content import (
    EFFECT_WORDS,
    HOLY_WATER,
    RED,
    SUPPORT,
    CastleCard,
    load_characters,
    load_human_deck,
    load_vampire_deck,
)
from domain.rulesets.castle.options import to_act
from domain.rulesets.castle.shapes import CastleState
from domain.rulesets.castle.state import (
    ATTACK,
    CELLAR,
    DEFENCE,
    HUMAN,
    MOAT,
    VAMPIRE,
    deck_count,
)
from projections.text_layout import fit
from projections.views import STOPPED_HEAD

WIDTH = 110  # no line of the full layout is wider; given less room, render_board picks a compact one
REASONS = {
    "vampires-dead": "every vampire is dead",
    "humans-dead": "every human is dead",
    "three-revealed": "three revealed vampires hold the castle",
    "out-of-cards": "both players ran out of cards",
}
STEPS = {
    "discard": "discard, then draw back up to 8",
    "act": "one action",
    "holy-attack": "attack the character holy water unmasked, or decline",
    "fight": "a fight",
    "done": "the action is over",
}
EFFECTS = EFFECT_WORDS  # what a support card does, in words (the picture reads it too)


# --- names --------------------------------------------------------------------------------------------------


def character_name(character_id: str) -> str:
    """Returns a character's name (`Lady`), or the id's last part for an unknown id."""
    found = load_characters().get(character_id)
    return found.name if found else character_id.rsplit("/", 1)[-1]


def find_card(card_id: str) -> CastleCard | None:
    """Returns the card of either deck with this id (ids are prefixed by side, so they never clash)."""
    return load_human_deck().cards.get(card_id) or load_vampire_deck().cards.get(card_id)


def card_name(card_id: str) -> str:
    """Returns a card's name (`Rapier`), or the id's last part for an unknown id."""
    found = find_card(card_id)
    return found.name if found else card_id.rsplit("/", 1)[-1]


def card_label(card_id: str) -> str:
    """Returns a card's name with its kind and value: `Rapier (noble 2)`, `Claws (red 1)`, `Call for Help
    (support: draw 2)`, `Blessed Perfume (holy water, noble 1)`."""
    found = find_card(card_id)
    return card_name(card_id) if found is None else found.label


def card_order(card_id: str) -> tuple[int, str]:
    """Sorts cards as a hand is read: combat cards, then holy water or red cards, then support cards."""
    found = find_card(card_id)
    rank = {SUPPORT: 2, HOLY_WATER: 1, RED: 1}.get(found.kind, 0) if found else 3
    return rank, card_label(card_id)


def identity_words(identity: str) -> str:
    """Returns how a revealed identity is marked: `VAMPIRE` stands out, `human` does not."""
    return "VAMPIRE" if identity == VAMPIRE else HUMAN


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _wrap(text: str, width: int = WIDTH) -> list[str]:
    if len(text) <= width:
        return [text]
    return textwrap.wrap(text, width, subsequent_indent="    ")


def _wrap_list(head: str, items: list[str], between: str = ", ", width: int = WIDTH) -> list[str]:
    """Returns `head: a, b, c.` wrapped to `width` without breaking a line inside an item."""
    # textwrap splits only at ASCII whitespace, so no-break spaces keep each item whole.
    joined = between.join(item.replace(" ", "\xa0") for item in items)
    return [line.replace("\xa0", " ") for line in _wrap(f"{head}: {joined}.", width)]


# --- what this viewer may know ------------------------------------------------------------------------------


def _secret_identity(state: CastleState, character: str) -> str:
    """Returns `vampire (secret: Vlad's tokens)` when a token this viewer holds tells, else ""."""
    for owner, tokens in state["tokens"].items():
        token = tokens.get(character)
        if token is not None:
            return f"{token['identity']} (secret: {owner}'s tokens)"
    return ""


def identity_mark(state: CastleState, character: str) -> str:
    """Returns what this state tells about a character: revealed, known from tokens, or nothing."""
    known = state["known"].get(character)
    if known is not None:
        return f"{identity_words(known)} (revealed)"
    return _secret_identity(state, character)


def _viewers(state: CastleState) -> list[str]:
    """Returns the players whose hands or tokens this state holds, in seat order."""
    owners = set(state["hands"]) | set(state["tokens"])
    return [name for name in state["players"] if name in owners]


def _owned(state: CastleState, player: str, what: str, detail: str = "") -> str:
    """Returns `Your hand (Hana, 8 cards)` in a player's own copy, `Hana's hand (8 cards)` in the host's."""
    # One player's secrets alone mean the copy is that player's own; the host's copy holds both players'.
    if _viewers(state) == [player]:
        return f"Your {what} ({player}{', ' + detail if detail else ''})"
    return f"{player}'s {what}" + (f" ({detail})" if detail else "")


# --- the board ----------------------------------------------------------------------------------------------


def _head(state: CastleState, stopped: bool = False, width: int = WIDTH) -> list[str]:
    sides = state["sides"]
    title = f"Vampire Empire: {sides[HUMAN]} (human player) against {sides[VAMPIRE]} (vampire player)"
    if stopped:
        return [title, STOPPED_HEAD]
    phase = state["phase"]
    if phase == "setup":
        return [title, "Waiting for the host to start the game."]
    if phase == "over":
        reason = REASONS.get(state["reason"], state["reason"])
        winner = state["winner"]
        if not winner:
            return [title, f"Game over: a tie ({reason})."]
        return [title, f"Game over: {winner} ({state['players'][winner]['side']}) won: {reason}."]
    turn = state["turn"]
    line = (
        f"{turn}'s turn ({state['players'][turn]['side']}), step: {STEPS.get(state['step'], state['step'])}."
    )
    if state["unmasked"]:
        line += " A vampire was unmasked this turn."
    return [*_wrap(title, width), *_wrap(f"{line} {to_act(state)} to act.", width)]


def _table(rows: list[list[str]], numbers: int = 0) -> list[str]:
    """Lines up rows in columns; the last `numbers` columns are right-aligned."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    first = len(widths) - numbers
    return [
        "  ".join(
            cell.rjust(w) if i >= first else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    ]


def _markers(state: CastleState, character: str) -> str:
    counts = state["markers"].get(character)
    if counts is None:
        return "no markers"
    shown = [f"{kind} +{n}" for kind, n in ((ATTACK, counts[ATTACK]), (DEFENCE, counts[DEFENCE])) if n]
    return " / ".join(shown) or "no markers"


def _castle_rows(state: CastleState) -> list[str]:
    if not state["castle"]:
        return ["The castle is empty."]
    characters = load_characters()
    rows = []
    for character in state["castle"]:
        found = characters.get(character)
        rows.append(
            [
                "  " + character_name(character),
                found.profession if found else "",
                f"defence {found.defence}" if found else "",
                _markers(state, character),
                identity_mark(state, character),
            ]
        )
    return ["The castle:", *_table(rows)]


def _city_line(state: CastleState, width: int = WIDTH) -> list[str]:
    shuffled, bottom = len(state["city"]), state["bottom"]
    if not shuffled and not bottom:
        return ["The city is empty."]
    hidden = ", ".join(character_name(c) for c in bottom) if bottom else "nobody"
    lines = _wrap(
        f"The city: {_plural(shuffled, 'shuffled card')} face down; hidden at its bottom: {hidden}.", width
    )
    # Holy water may ask about a character in the city; its answer is public like any other.
    known = [c for c in sorted(state["city"]) + bottom if c in state["known"]]
    named = [f"{character_name(c)} ({identity_words(state['known'][c])})" for c in known]
    return lines + (_wrap_list("Revealed in the city", named, width=width) if named else [])


def _dead_line(state: CastleState, width: int = WIDTH) -> list[str]:
    if not state["dead"]:
        return ["The dead: nobody yet."]
    known = state["known"]
    # A death is followed by its reveal; between the two events the identity is still secret.
    named = [
        f"{character_name(c)} ({identity_words(known[c]) if c in known else 'not yet revealed'})"
        for c in state["dead"]
    ]
    return _wrap_list("The dead, in order", named, width=width)


def _player_rows(state: CastleState, width: int = WIDTH) -> list[str]:
    rows = [["player", "side", "hand", "deck", "cellar", "moat"]]
    tops: list[str] = []
    for name, me in state["players"].items():
        rows.append(
            [
                name,
                me["side"],
                *map(str, (len(me["hand"]), deck_count(state, name), len(me[CELLAR]), len(me[MOAT]))),
            ]
        )
        on_top = [f"{pile} {card_label(me[pile][-1])}" for pile in (CELLAR, MOAT) if me[pile]]
        if on_top:
            tops += _wrap_list(f"On top of {name}'s piles", on_top, between="; ", width=width)
    return [*_table(rows, numbers=4), *tops]


def _fight_rows(state: CastleState, width: int = WIDTH) -> list[str]:
    fight = state["fight"]
    if fight is None:
        return []
    attacker, defender = character_name(fight["attacker"]), character_name(fight["defender"])
    stage = fight["stage"]
    playing = fight["attacking"] if stage == "attack" else fight["defending"]
    due = f"{playing} plays {stage} cards" if stage in ("attack", "defence") else "the round is being counted"
    head = (
        f"Fight, round {fight['round']} of 2: {attacker} attacks {defender} "
        f"({fight['attacking']} attacking, {fight['defending']} defending); {due}."
    )
    rows = _wrap(head, width)
    for side in ("attack", "defence"):
        cards = [card_label(c) for c in fight["cards"][side]] or ["no cards yet"]
        rows += _wrap_list(f"  {side.title()} {fight[side]} (markers included)", cards, width=width)
    return rows


def _holy_rows(state: CastleState, width: int = WIDTH) -> list[str]:
    holy = state["holy"]
    if not holy:
        return []
    who = character_name(holy["character"])
    if state["known"].get(holy["character"]) != VAMPIRE:
        return [f"Holy water asked about {who}."]
    return _wrap(
        f"Holy water unmasked {who}: {state['turn']} may attack {who} now, with "
        f"{card_label(holy['card'])} already counting, or decline.",
        width,
    )


def _hand_rows(state: CastleState, width: int = WIDTH) -> list[str]:
    rows: list[str] = []
    for player in state["players"]:
        if player not in state["hands"]:
            continue
        cards = sorted(state["hands"][player], key=card_order)
        head = _owned(state, player, "hand", _plural(len(cards), "card"))
        rows += _wrap_list(head, [card_label(c) for c in cards] or ["no cards"], width=width)
    return rows


def _token_rows(state: CastleState, width: int = WIDTH) -> list[str]:
    rows: list[str] = []
    for player, me in state["players"].items():
        tokens = state["tokens"].get(player)
        if tokens is None:
            continue
        # A player drew the tokens of their own side; the vampire player's answer for the rest too.
        drawn = sorted(character_name(c) for c, t in tokens.items() if t["identity"] == me["side"])
        verb = "are vampires" if me["side"] == VAMPIRE else "are human"
        rows += _wrap(f"{_owned(state, player, 'tokens')}: {', '.join(drawn)} {verb}.", width)
    return rows


def _score_rows(state: CastleState, width: int = WIDTH) -> list[str]:
    scores = state["scores"]
    if not scores:
        return []
    counted = f"human {scores[HUMAN]}, vampire {scores[VAMPIRE]}"
    return _wrap(f"Scores: {counted} (1 per surviving human, 2 per vampire).", width)


def _decision_sections(state: CastleState, stopped: bool, width: int) -> list[list[str]]:
    """The sections a player's decision turns on: whose turn and step, a fight's totals, their hand."""
    return [
        [*_head(state, stopped, width), *_score_rows(state, width)],
        [*_fight_rows(state, width), *_holy_rows(state, width)],
        _hand_rows(state, width),
    ]


def _sections(state: CastleState, stopped: bool, width: int, apart: bool = False) -> list[list[str]]:
    if not state["castle"] and not state["dead"]:  # nothing dealt yet
        return [[] if apart else _head(state, stopped, width), _player_rows(state, width)]
    head, fight, hand = ([], [], []) if apart else _decision_sections(state, stopped, width)
    return [
        head,
        [*_castle_rows(state), *_city_line(state, width), *_dead_line(state, width)],
        _player_rows(state, width),
        fight,
        [*hand, *_token_rows(state, width)],
    ]


def decision_lines(state: CastleState, width: int) -> list[str]:
    """Returns whose turn and step it is, a fight's totals and cards, and the hands this copy shows: what a
    player deciding needs on screen whatever else of the board is cut."""
    return [line for rows in _decision_sections(state, False, width) for line in rows]


def render_board(
    state: CastleState,
    stopped: bool = False,
    width: int | None = None,
    height: int | None = None,
    apart: bool = False,
) -> str:
    """Renders the castle, the city, the dead, each player's piles, a fight under way and what this copy of
    the log lets its viewer see (hands, identity tokens) as plain text no wider than `width`; short of
    lines, the sections follow each other without blank lines between them (`apart`: without the
    `decision_lines`)."""

    def spaced(width: int) -> list[str]:
        sections = _sections(state, stopped, width, apart)
        return "\n\n".join("\n".join(rows) for rows in sections if rows).split("\n")

    def tight(width: int) -> list[str]:
        return [line for rows in _sections(state, stopped, width, apart) for line in rows]

    return fit([spaced, tight], width, height)


# --- players summary ----------------------------------------------------------------------------------------


def _status(state: CastleState, name: str) -> str:
    # The same words as every board view's summary: waiting, in play, winner (and out for the loser).
    if state["phase"] == "setup":
        return "waiting"
    if state["phase"] == "over":
        return "winner" if state["winner"] == name else "out" if state["winner"] else "tied"
    return "in play"


def players_summary(state: CastleState) -> list[dict[str, Any]]:
    """Returns one JSON-native dict per player: side, pile sizes, the tops of cellar and moat, and the hand's
    card ids only when this copy of the log shows that hand."""
    rows: list[dict[str, Any]] = []
    for name, me in state["players"].items():
        row: dict[str, Any] = {
            "name": name,
            "side": me["side"],
            "status": _status(state, name),
            "hand_size": len(me["hand"]),
            "deck": deck_count(state, name),
            "cellar": len(me[CELLAR]),
            "moat": len(me[MOAT]),
            "cellar_top": me[CELLAR][-1] if me[CELLAR] else "",
            "moat_top": me[MOAT][-1] if me[MOAT] else "",
        }
        if name in state["hands"]:
            row["hand"] = sorted(state["hands"][name])
        rows.append(row)
    return rows
