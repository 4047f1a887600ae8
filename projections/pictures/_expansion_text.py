"""Text widths and wrapping for the Dungeon and Keep pictures, from DejaVu Sans's advance widths.

The pictures name DejaVu Sans first (kit.FONT), so the widths of its printable ASCII characters are
written here, in hundredths of an em, regular and bold: a layout then wraps text where the font will
need it, the same on every machine, with no font file read. Other characters count as one em wide
(wider than any DejaVu Sans glyph here), and every width gets a little slack for a fallback font.
"""

from __future__ import annotations

# Advance widths of characters 32 (space) to 126 (~), in hundredths of an em.
_REGULAR = (
    32, 40, 46, 84, 64, 95, 78, 27, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    34, 34, 84, 84, 84, 53, 100, 68, 69, 70, 77, 63, 58, 77, 75, 29, 29, 66, 56, 86, 75, 79, 60, 79, 69, 63,
    61, 73, 68, 99, 69, 61, 69, 39, 34, 39, 84, 50, 50, 61, 63, 55, 63, 62, 35, 63, 63, 28, 28, 58, 28, 97,
    63, 61, 63, 63, 41, 52, 39, 63, 59, 82, 59, 59, 52, 64, 34, 64, 84,
)  # fmt: skip
_BOLD = (
    35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70, 70, 70, 70, 70, 70, 70,
    40, 40, 84, 84, 84, 58, 100, 77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85, 73, 85, 77, 72,
    68, 81, 77, 110, 77, 72, 73, 46, 37, 46, 84, 50, 50, 67, 72, 59, 72, 68, 44, 72, 71, 34, 34, 67, 34, 104,
    71, 69, 72, 72, 49, 60, 48, 71, 65, 92, 65, 65, 58, 71, 37, 71, 84,
)  # fmt: skip
_OTHER = 100
SLACK = 1.04  # a fallback font (Verdana, Arial) may set a line a little wider


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Returns how wide a line of text is set at this font size (in page units)."""
    table = _BOLD if bold else _REGULAR
    hundredths = sum(table[code - 32] if 32 <= (code := ord(char)) <= 126 else _OTHER for char in text)
    return hundredths * size * SLACK / 100


# A width measured and then taken back from a sum may come back a hair smaller (floating point): a
# text is taken to fit a width this much under its own, so a column sized to a word never breaks it.
FIT_TOLERANCE = 0.01


def _split_word(word: str, width: float, size: float, bold: bool) -> list[str]:
    pieces = [""]
    for char in word:
        if pieces[-1] and text_width(pieces[-1] + char, size, bold) > width + FIT_TOLERANCE:
            pieces.append("")
        pieces[-1] += char
    return pieces


def wrap_to(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Returns a text wrapped into lines no wider than `width`, breaking a word only when it is wider
    than a line by itself."""
    lines: list[str] = []
    for word in text.split():
        fits = text_width(word, size, bold) <= width + FIT_TOLERANCE
        parts = [word] if fits else _split_word(word, width, size, bold)
        for part in parts:
            joined = f"{lines[-1]} {part}" if lines else part
            if lines and text_width(joined, size, bold) <= width + FIT_TOLERANCE:
                lines[-1] = joined
            else:
                lines.append(part)
    return lines or [""]


def cut_to(text: str, width: float, size: float, bold: bool = False) -> str:
    """Returns `text` as it fits on one line `width` wide: whole, or cut short with `…`."""
    if text_width(text, size, bold) <= width + FIT_TOLERANCE:
        return text
    while text and text_width(text + "…", size, bold) > width + FIT_TOLERANCE:
        text = text[:-1]
    return text.rstrip() + "…"
