"""The Vampire Empire picture: the castle's characters, the city, the dead, both players' piles, a fight
under way and what this copy of the log lets its viewer see.

Laid out from the content in use (every character of the characters file, every card by its deck
entry) and the state: a viewer's fold holds only their own hand and tokens, so only those are drawn.
The picture shows what the text board (projections/castle_view) shows, in words as well as colours.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import drawsvg

from domain.rulesets.castle.content import Character, castle_content
from domain.rulesets.castle.options import to_act
from domain.rulesets.castle.shapes import CastleState
from domain.rulesets.castle.state import ATTACK, CELLAR, DEFENCE, HUMAN, MOAT, VAMPIRE, deck_count
from projections.castle_view import REASONS, STEPS, card_order, character_name, identity_words
from projections.pictures._expansion_text import cut_to, text_width
from projections.pictures.castle_parts import (
    CARD_H,
    CARD_W,
    LINE,
    CharacterFace,
    box,
    card_tile,
    character_tile,
    empty_pile,
    face_down_stack,
    lines_at,
    seat_badge,
    wrap,
)
from projections.pictures.kit import MAX_WIDTH, MIN_FONT, PAPER, new_drawing, seat_mark
from projections.views import STOPPED_HEAD

W = MAX_WIDTH
MARGIN = 20
INNER = W - 2 * MARGIN
GAP = 16
STACK_W = 120  # the city's face-down pile
WINNER = "#f6e7a8"
ORDINALS = ("1st", "2nd", "3rd")


class Sheet:
    """The picture being laid out top to bottom: its pieces and the height used so far."""

    def __init__(self) -> None:
        self.parts: list[drawsvg.DrawingElement] = []
        self.y = float(MARGIN)

    def add(self, *parts: drawsvg.DrawingElement) -> None:
        """Adds pieces to the picture."""
        self.parts.extend(parts)

    def text(
        self, text: str, size: float = MIN_FONT, bold: bool = False, gap: float = 6, indent: float = 0
    ) -> None:
        """Adds a paragraph, wrapped to the page, left-aligned, below what is there."""
        lines = wrap(text, INNER - indent, size, bold)
        self.add(*lines_at(lines, MARGIN + indent, self.y + size, size, bold, text_anchor="start"))
        self.y += len(lines) * size * LINE + gap

    def heading(self, text: str) -> None:
        """Adds a section heading."""
        self.y += 8
        self.text(text, 26, bold=True, gap=8)


# --- what this viewer may know ------------------------------------------------------------------------------


def owners(state: CastleState) -> list[str]:
    """Returns the players whose hands or tokens this copy holds, in seat order (none: the public copy)."""
    return [p for p in state["players"] if p in state["hands"] or p in state["tokens"]]


def viewer_words(state: CastleState) -> str:
    """Returns whose copy of the game the picture shows."""
    seen = owners(state)
    if not seen:
        return "Public view: no hand and no identity token shown"
    if len(seen) == 1:
        return f"{seen[0]}'s view: {seen[0]}'s own hand and tokens shown"
    return "Host view: every hand and every token shown"


def identity(state: CastleState, character: str, dead: bool = False) -> tuple[str, str]:
    """Returns a character's identity as this copy tells it, in words, and its tone (see TONES)."""
    known = state["known"].get(character)
    if known is not None:
        return f"{identity_words(known)} (revealed)", known
    for owner, tokens in state["tokens"].items():
        token = tokens.get(character)
        if token is not None:
            whose = "your token" if owners(state) == [owner] else f"{owner}'s token"
            return f"{token['identity']} ({whose})", f"token-{token['identity']}"
    return ("not yet revealed" if dead else "identity secret"), "secret"


def face(state: CastleState, character: str, found: Character | None, tag: str = "") -> CharacterFace:
    """Returns what a character's tile shows in this copy."""
    markers = state["markers"].get(character, {ATTACK: 0, DEFENCE: 0})
    words, tone = identity(state, character, dead=character in state["dead"])
    return CharacterFace(
        name=found.name if found else character_name(character),
        profession=found.profession if found else "unknown",
        defence=found.defence if found else 0,
        attack_markers=markers[ATTACK],
        defence_markers=markers[DEFENCE],
        identity=words,
        tone=tone,
        tag=tag,
    )


# --- the head -----------------------------------------------------------------------------------------------


def status_words(state: CastleState, stopped: bool) -> list[str]:
    """Returns the game's state in sentences: stopped, waiting, won (by whom and why) or whose turn."""
    if stopped:
        return [STOPPED_HEAD]
    if state["phase"] == "setup":
        return ["Waiting for the host to start the game."]
    if state["phase"] == "over":
        reason = REASONS.get(state["reason"], state["reason"])
        winner = state["winner"]
        if not winner:
            return [f"Game over: a tie ({reason})."]
        return [
            f"Game over: {winner} ({state['players'][winner]['side']}) won: {reason}.",
            f"Winner: {winner}",
        ]
    turn = state["turn"]
    step = STEPS.get(state["step"], state["step"])
    line = f"{turn}'s turn ({state['players'][turn]['side']}), step: {step}. {to_act(state)} to act."
    return [line] + (["A vampire was unmasked this turn."] if state["unmasked"] else [])


def draw_head(sheet: Sheet, state: CastleState, stopped: bool) -> None:
    """Adds the title, the players and sides, whose copy this is and the game's state."""
    sides = state["sides"]
    sheet.text("Vampire Empire", 34, bold=True, gap=2)
    sheet.text(f"{sides[HUMAN]} (human player) against {sides[VAMPIRE]} (vampire player)", 22, gap=2)
    sheet.text(viewer_words(state), gap=4)
    for line in status_words(state, stopped):
        if line.startswith("Winner"):
            sheet.add(box(MARGIN, sheet.y, INNER, 48, WINNER, width=3))
            sheet.y += 6
            sheet.text(
                f"{line} ({state['players'][state['winner']]['side']} player)",
                28,
                bold=True,
                gap=14,
                indent=14,
            )
        else:
            sheet.text(line, 22, bold=True)
    scores = state["scores"]
    if scores:
        sheet.text(
            f"Scores: human {scores[HUMAN]}, vampire {scores[VAMPIRE]} "
            "(1 per surviving human, 2 per vampire)."
        )


# --- the characters -----------------------------------------------------------------------------------------


def fight_tag(state: CastleState, character: str) -> str:
    """Returns a castle character's part in a fight or a holy water question, or ""."""
    fight, holy = state["fight"], state["holy"]
    if fight is not None and character in (fight["attacker"], fight["defender"]):
        return "ATTACKING" if character == fight["attacker"] else "DEFENDING"
    if holy is not None and holy["character"] == character:
        return "HOLY WATER"
    return ""


def draw_row(
    sheet: Sheet, faces: Iterable[CharacterFace], per_row: int, big: bool, left: float = MARGIN
) -> None:
    """Adds character tiles in rows of `per_row` from `left` to the margin, each row as tall as its
    tallest tile."""
    w = (W - MARGIN - left - GAP * (per_row - 1)) / per_row
    row: list[CharacterFace] = list(faces)
    for start in range(0, len(row), per_row):
        tallest = 0.0
        for n, shown in enumerate(row[start : start + per_row]):
            tile, height = character_tile(shown, left + n * (w + GAP), sheet.y, w, big)
            sheet.add(tile)
            tallest = max(tallest, height)
        sheet.y += tallest + GAP


def draw_characters(sheet: Sheet, state: CastleState) -> None:
    """Adds the castle, the city (face down, its members public), the hidden ones and the dead, or before
    the deal the characters to be dealt: every character of the content is named in one of them."""
    characters = castle_content().characters
    placed = {*state["castle"], *state["city"], *state["bottom"], *state["dead"]}
    if placed:
        draw_dealt(sheet, state, characters)
    undealt = [face(state, c, found, "not dealt") for c, found in characters.items() if c not in placed]
    if undealt:
        sheet.heading("Not dealt yet" if placed else "The characters, not dealt yet")
        draw_row(sheet, undealt, 5, False)


def draw_dealt(sheet: Sheet, state: CastleState, characters: dict[str, Character]) -> None:
    """Adds the castle, the city with the ones hidden under it, and the dead in order."""
    castle = state["castle"]
    sheet.heading("The castle" if castle else "The castle is empty")
    draw_row(sheet, (face(state, c, characters.get(c), fight_tag(state, c)) for c in castle), 3, True)
    city, bottom = state["city"], state["bottom"]
    sheet.heading(f"The city: {len(city)} face down, {len(bottom)} hidden under it")
    top = sheet.y
    sheet.add(face_down_stack(len(city), MARGIN, top, STACK_W, 150))
    away = [face(state, c, characters.get(c), "in the city") for c in city]
    away += [face(state, c, characters.get(c), "hidden") for c in bottom]
    draw_row(sheet, away, 4, False, left=MARGIN + STACK_W + 40)
    sheet.y = max(sheet.y, top + 190)
    dead = state["dead"]
    sheet.heading("The dead, in order" if dead else "The dead: nobody yet")
    draw_row(sheet, (face(state, c, characters.get(c), ordinal(n)) for n, c in enumerate(dead)), 5, False)


def ordinal(n: int) -> str:
    """Returns `dead 1st`, `dead 2nd`, … for the n-th death (from 0)."""
    return f"dead {ORDINALS[n] if n < len(ORDINALS) else f'{n + 1}th'}"


# --- the fight ----------------------------------------------------------------------------------------------


def draw_holy(sheet: Sheet, state: CastleState) -> None:
    """Adds what holy water asked this turn, and the attack it opens when it unmasked a vampire."""
    holy = state["holy"]
    if holy is None or state["fight"] is not None:
        return
    who = character_name(holy["character"])
    sheet.heading(f"Holy water asked about {who}")
    if state["known"].get(holy["character"]) == VAMPIRE:
        sheet.text(f"{who} is unmasked: {state['turn']} may attack {who} now, or decline.")
        sheet.add(card_tile(holy["card"], MARGIN, sheet.y, caption="counts in the attack"))
        sheet.y += CARD_H + GAP


def draw_fight(sheet: Sheet, state: CastleState) -> None:
    """Adds a fight under way: its round, who plays, both totals and the cards counted in them."""
    fight = state["fight"]
    if fight is None:
        return
    attacker, defender = character_name(fight["attacker"]), character_name(fight["defender"])
    stage = fight["stage"]
    playing = fight["attacking"] if stage == ATTACK else fight["defending"]
    due = f"{playing} plays {stage} cards" if stage in (ATTACK, DEFENCE) else "the round is being counted"
    sheet.heading(f"Fight, round {fight['round']} of 2: {attacker} attacks {defender}")
    sheet.text(f"{fight['attacking']} attacking, {fight['defending']} defending; {due}.")
    half = (INNER - GAP) / 2
    top, bottom = sheet.y, sheet.y
    sides = (
        (ATTACK, fight[ATTACK], fight["cards"][ATTACK]),
        (DEFENCE, fight[DEFENCE], fight["cards"][DEFENCE]),
    )
    for n, (side, total, cards) in enumerate(sides):
        x = MARGIN + n * (half + GAP)
        words = [f"{side.title()} {total} (markers included)"]
        sheet.add(*lines_at(words, x, top + 24, 24, bold=True, text_anchor="start"))
        bottom = max(bottom, grid(sheet, cards, x, top + 40, half, "no cards yet"))
    sheet.y = bottom + GAP


def grid(sheet: Sheet, cards: list[str], x: float, y: float, width: float, empty: str) -> float:
    """Adds cards face up in rows across `width` from (x, y); returns the y below them."""
    per_row = max(int((width + GAP) // (CARD_W + GAP)), 1)
    if not cards:
        sheet.add(empty_pile(x, y, CARD_W, empty))
        return y + CARD_H
    for n, card in enumerate(cards):
        row, col = divmod(n, per_row)
        sheet.add(card_tile(card, x + col * (CARD_W + GAP), y + row * (CARD_H + GAP)))
    rows = (len(cards) + per_row - 1) // per_row
    return y + rows * (CARD_H + GAP) - GAP


# --- the players --------------------------------------------------------------------------------------------


def draw_player(sheet: Sheet, state: CastleState, name: str, x: float, w: float) -> float:
    """Adds one player's panel (seat mark, side, pile counts, the face-up tops of cellar and moat);
    returns the y below it."""
    me = state["players"][name]
    y = sheet.y
    seat = list(state["players"]).index(name)
    counts = (
        ("hand", len(me["hand"])),
        ("deck", deck_count(state, name)),
        (CELLAR, len(me[CELLAR])),
        (MOAT, len(me[MOAT])),
    )
    summary = ", ".join(f"{what} {count}" for what, count in counts)
    sheet.add(seat_badge(seat_mark(seat), x + 12, y + 12, f"{name}, {me['side']} player: {summary}"))
    you = " (you)" if owners(state) == [name] else ""
    side = f"{me['side']} player"
    room = w - 64 - 12 - text_width(side, 22) - 12  # a long name is cut short; the badge says it whole
    shown = cut_to(f"{name}{you}", room, 26, bold=True)
    sheet.add(*lines_at([shown], x + 64, y + 40, 26, bold=True, text_anchor="start"))
    sheet.add(*lines_at([side], x + w - 12, y + 40, 22, text_anchor="end"))
    cell = (w - 24) / len(counts)
    for n, (what, count) in enumerate(counts):
        cx = x + 12 + n * cell + cell / 2
        sheet.add(*lines_at([str(count)], cx, y + 92, 30, bold=True), *lines_at([what], cx, y + 116))
    tops = y + 134
    pw = (w - 24 - GAP) / 2
    for n, (name_of, cards) in enumerate(((CELLAR, me[CELLAR]), (MOAT, me[MOAT]))):
        px = x + 12 + n * (pw + GAP)
        if cards:
            sheet.add(card_tile(cards[-1], px, tops, pw, caption=f"{name_of} top"))
        else:
            sheet.add(empty_pile(px, tops, pw, f"{name_of}: empty"))
    return tops + CARD_H + 12


def draw_players(sheet: Sheet, state: CastleState) -> None:
    """Adds both players' panels side by side, outlined in their seat's dash."""
    sheet.heading("The players")
    half = (INNER - GAP) / 2
    top, bottom = sheet.y, sheet.y
    panels: list[tuple[str, float]] = []
    for n, name in enumerate(state["players"]):
        panels.append((name, MARGIN + n * (half + GAP)))
        bottom = max(bottom, draw_player(sheet, state, name, panels[-1][1], half))
    for n, (_, x) in enumerate(panels):
        mark = seat_mark(n)
        sheet.parts.insert(0, box(x, top, half, bottom - top, PAPER, mark.dash, width=3))
    sheet.y = bottom + GAP


def draw_secrets(sheet: Sheet, state: CastleState) -> None:
    """Adds the hands and identity tokens this copy holds (none in the public copy)."""
    mine = owners(state)
    for player in state["players"]:
        cards = sorted(state["hands"].get(player, {}), key=card_order)
        count = f"{len(cards)} card{'' if len(cards) == 1 else 's'}"
        if player in state["hands"]:
            own = mine == [player]
            sheet.heading(f"Your hand ({player}, {count})" if own else f"{player}'s hand ({count}, secret)")
            sheet.y = grid(sheet, cards, MARGIN, sheet.y, INNER, "no cards") + GAP
        tokens = state["tokens"].get(player)
        if tokens is not None:
            side = state["players"][player]["side"]
            drawn = sorted(character_name(c) for c, t in tokens.items() if t["identity"] == side)
            verb = "are vampires" if side == VAMPIRE else "are human"
            owner = f"Your tokens ({player})" if mine == [player] else f"{player}'s tokens (secret)"
            sheet.text(f"{owner}: {', '.join(drawn)} {verb}.", 22, bold=True)


def draw(fold: Any, stopped: bool = False) -> drawsvg.Drawing:
    """Returns the board picture of a fold: the same fold gives the same picture, byte for byte."""
    state: CastleState = fold.state
    sheet = Sheet()
    draw_head(sheet, state, stopped)
    draw_characters(sheet, state)
    draw_holy(sheet, state)
    draw_fight(sheet, state)
    draw_players(sheet, state)
    draw_secrets(sheet, state)
    status = " ".join(status_words(state, stopped))
    page = new_drawing(W, sheet.y + MARGIN, "Vampire Empire board", f"{viewer_words(state)}. {status}")
    for part in sheet.parts:
        page.append(part)
    return page
