"""The pieces of the Vampire Empire picture: character tiles, card tiles, seat badges and wrapped text.

Every piece says in words what its colour says (a profession, a card kind, an identity), so the picture
reads the same in grey; each tile carries its full name as a <title>, so a wrapped name is still whole
for a screen reader.
"""

from __future__ import annotations

from dataclasses import dataclass

import drawsvg as draw

from domain.rulesets.castle.content import HOLY_WATER, RED, SUPPORT
from projections.castle_view import EFFECTS, find_card
from projections.pictures._expansion_text import wrap_to
from projections.pictures.kit import INK, MIN_FONT, PAPER, SeatMark, label

# DejaVu Sans advances about 0.6 em per character (bold about 0.66): enough to wrap without measuring.
ADVANCE, BOLD_ADVANCE = 0.6, 0.66
LINE = 1.25  # line height, in font sizes
STONE = "#efe9dd"
FACE_DOWN = "#5b5470"
PROFESSION_FILLS = {"noble": "#ecd9a0", "clergy": "#cddcf0", "servant": "#e6d2bf"}
KIND_FILLS = {HOLY_WATER: "#bfe3f2", RED: "#f2c4c4", SUPPORT: "#e4e4e4"}
KIND_WORDS = {HOLY_WATER: "holy water", RED: "red"}
# An identity's look: (fill, text colour, outline dash). A token only its owner sees is dashed.
TONES = {
    "vampire": ("#7a1020", "#ffffff", ""),
    "human": ("#d7ecd3", INK, ""),
    "token-vampire": ("#f2c4c4", INK, "6,3"),
    "token-human": ("#e4f2e1", INK, "6,3"),
    "secret": ("#e7e5df", INK, "2,3"),
}
CARD_W, CARD_H = 218, 120


def wrap(text: str, width: float, size: float = MIN_FONT, bold: bool = False) -> list[str]:
    """Returns `text` broken into lines that fit `width` units at `size`, measured letter by letter in
    the pictures' font (a name of wide letters, "WWWW…", takes the room it really takes)."""
    return wrap_to(text, width, size, bold)


def lines_at(
    lines: list[str], x: float, y: float, size: float = MIN_FONT, bold: bool = False, **kwargs: object
) -> list[draw.Text]:
    """Returns one label per line, the first with its baseline at y."""
    if bold:
        kwargs["font_weight"] = "bold"
    return [label(line, x, y + n * size * LINE, size, **kwargs) for n, line in enumerate(lines)]


def box(
    x: float, y: float, w: float, h: float, fill: str, dash: str = "", width: float = 2
) -> draw.Rectangle:
    """Returns a rounded, outlined rectangle (`dash` an SVG stroke-dasharray, "" solid)."""
    extra = {"stroke_dasharray": dash} if dash else {}
    return draw.Rectangle(x, y, w, h, rx=10, fill=fill, stroke=INK, stroke_width=width, **extra)


@dataclass(frozen=True, slots=True)
class CharacterFace:
    """What a character tile shows: all of it words, its colours only repeat them."""

    name: str
    profession: str
    defence: int
    attack_markers: int
    defence_markers: int
    identity: str  # e.g. `VAMPIRE (revealed)`, `human (your token)`, `identity secret`
    tone: str  # a key of TONES
    tag: str = ""  # the character's part right now: `ATTACKING`, `in the city`, `dead 2nd`

    @property
    def markers(self) -> str:
        """Returns the markers in words: `markers: attack +1, defence +0`."""
        return f"markers: attack +{self.attack_markers}, defence +{self.defence_markers}"

    @property
    def marker_words(self) -> str:
        """Returns the markers as a tile writes them: `markers: +1 attack`, or `no markers`."""
        shown = [
            f"+{n} {kind}"
            for kind, n in (("attack", self.attack_markers), ("defence", self.defence_markers))
            if n
        ]
        return f"markers: {', '.join(shown)}" if shown else "no markers"


def _tile_rows(face: CharacterFace, w: float, big: bool) -> list[tuple[str, float, bool]]:
    """Returns the lines of a character tile under its band, as (text, size, bold)."""
    size = 30 if big else 22
    rows: list[tuple[str, float, bool]] = (
        [(face.tag, MIN_FONT, False)] if face.tag and not big else []
    )  # a castle tile's tag is on its band
    rows += [(line, size, True) for line in wrap(face.name, w - 20, size, bold=True)]
    stats = [f"defence {face.defence}", *wrap(face.marker_words, w - 20)]
    return rows + [(line, MIN_FONT, False) for line in stats]


def character_tile(
    face: CharacterFace, x: float, y: float, w: float, big: bool, height: float = 0
) -> tuple[draw.Group, float]:
    """Returns a character's tile at (x, y), `w` wide (a castle tile when big), at least `height` tall
    (its identity at the bottom), and its height."""
    step, band = MIN_FONT * LINE, 34
    identity = wrap(face.identity, w - 20, bold=face.tone == "vampire")
    baseline = y + band + 6
    parts: list[draw.Text] = []
    for line, size, bold in _tile_rows(face, w, big):
        baseline += size * LINE
        parts.append(label(line, x + w / 2, baseline, size, font_weight="bold" if bold else "normal"))
    identity_top = baseline + step + 12
    needed = identity_top - y + (len(identity) - 1) * step + 16
    identity_top += max(height - needed, 0)
    height = max(height, needed)
    group = draw.Group()
    group.append_title(
        f"{face.name}: {face.profession}, defence {face.defence}, {face.markers}; {face.identity}"
    )
    group.append(box(x, y, w, height, STONE))
    fill = PROFESSION_FILLS.get(face.profession, STONE)
    group.append(draw.Rectangle(x + 1, y + 1, w - 2, band, rx=9, fill=fill))
    group.append(label(face.profession.upper(), x + 12, y + 25, text_anchor="start", letter_spacing=1))
    if face.tag and big:
        group.append(label(face.tag, x + w - 12, y + 25, text_anchor="end", font_weight="bold"))
    for part in parts:
        group.append(part)
    fill, ink, dash = TONES[face.tone]
    group.append(
        box(x + 6, identity_top - MIN_FONT - 4, w - 12, len(identity) * step + 8, fill, dash, width=1.5)
    )
    for part in lines_at(identity, x + w / 2, identity_top, bold=face.tone == "vampire", fill=ink):
        group.append(part)
    return group, height


def card_band(card_id: str) -> tuple[str, str, str]:
    """Returns a card's kind and value in words (`noble/clergy 2`, `holy water 1`, `red 2`, `support`),
    the profession a holy water or red card also backs (`backs servant`, or ""), and its band's fill."""
    card = find_card(card_id)
    if card is None:
        return "unknown card", "", STONE
    if card.kind == SUPPORT:
        return "support", "", KIND_FILLS[SUPPORT]
    colours = "/".join(card.professions)
    kind = KIND_WORDS.get(card.kind)
    if kind is None:
        return f"{colours} {card.value}", "", PROFESSION_FILLS.get(card.professions[0], STONE)
    backs = f"backs {colours}" if colours else ""
    return f"{kind} {card.value}", backs, KIND_FILLS[card.kind]


def card_tile(card_id: str, x: float, y: float, w: float = CARD_W, caption: str = "") -> draw.Group:
    """Returns a face-up card (CARD_H tall): its kind and value on a band, its name, a support card's
    effect; `caption` (e.g. `cellar top`) above the name."""
    from projections.castle_view import card_name

    card = find_card(card_id)
    band, backs, fill = card_band(card_id)
    name = card_name(card_id)
    group = draw.Group()
    group.append_title(
        f"{name} ({band}{', ' + backs if backs else ''})" + (f": {caption}" if caption else "")
    )
    group.append(box(x, y, w, CARD_H, PAPER))
    group.append(draw.Rectangle(x + 1, y + 1, w - 2, 30, rx=9, fill=fill))
    group.append(label(band, x + w / 2, y + 23))
    lines = ([caption] if caption else []) + wrap(name, w - 14, bold=True)
    names = range(1 if caption else 0, len(lines))
    extra = EFFECTS.get(card.effect, card.effect) if card is not None and card.kind == SUPPORT else backs
    if extra:
        lines.append(extra)
    # Three lines fill a card; the name (a caption above it, a support card's effect below) fits them.
    for n, line in enumerate(lines[:3]):
        group.append(label(line, x + w / 2, y + 58 + n * 24, font_weight="bold" if n in names else "normal"))
    return group


def empty_pile(x: float, y: float, w: float, words: str) -> draw.Group:
    """Returns the dashed outline of an empty pile, named."""
    group = draw.Group()
    group.append(box(x, y, w, CARD_H, PAPER, dash="6,4", width=1.5))
    for part in lines_at(wrap(words, w - 14), x + w / 2, y + CARD_H / 2):
        group.append(part)
    return group


def face_down_stack(count: int, x: float, y: float, w: float, h: float) -> draw.Group:
    """Returns a pile of face-down cards with its count written on it (a dashed outline when empty)."""
    group = draw.Group()
    group.append_title(f"{count} face-down city cards")
    if not count:
        group.append(box(x + 6, y + 12, w, h, PAPER, dash="6,4", width=1.5))
        group.append(label("0", x + 6 + w / 2, y + h / 2 + 16, 34, font_weight="bold"))
        group.append(label("face down", x + 6 + w / 2, y + h / 2 + 42))
        return group
    for n in range(min(count, 3), 0, -1):
        group.append(box(x + 6 * n, y - 6 * n + 18, w, h, FACE_DOWN, width=1.5))
    group.append(label(str(count), x + 6 + w / 2, y + h / 2 + 16, 34, fill="#ffffff", font_weight="bold"))
    group.append(label("face down", x + 6 + w / 2, y + h / 2 + 42, fill="#ffffff"))
    return group


def seat_badge(mark: SeatMark, x: float, y: float, title: str, size: float = 40) -> draw.Group:
    """Returns a seat's mark (its colour, its outline dash and its letter) titled with the seat's summary."""
    group = draw.Group()
    group.append_title(title)
    dash = {"stroke_dasharray": mark.dash} if mark.dash else {}
    group.append(draw.Rectangle(x, y, size, size, rx=6, fill=mark.fill, stroke=INK, stroke_width=3, **dash))
    group.append(label(mark.letter, x + size / 2, y + size * 0.72, size * 0.6, font_weight="bold"))
    return group
