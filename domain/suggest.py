"""Suggestions for misspelt names ("did you mean …?"): case-insensitive matches first, then difflib's."""

from __future__ import annotations

from collections.abc import Iterable


def closest(word: str, choices: Iterable[str]) -> str | None:
    """Returns the choice `word` most likely meant, or None when none is close enough."""
    options = [c for c in dict.fromkeys(choices) if c != word]
    folded = word.casefold()
    for choice in options:
        if choice.casefold() == folded:
            return choice  # only the case differs: surely meant
    import difflib  # only a misspelling pays for it: every command imports this module

    by_folded = {choice.casefold(): choice for choice in options}
    matches = difflib.get_close_matches(folded, list(by_folded), n=1, cutoff=0.6)
    return by_folded[matches[0]] if matches else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Returns "; did you mean 'X'?" for the closest choice, or "" when there is none to suggest."""
    guess = closest(word, choices)
    return f"; did you mean {guess!r}?" if guess is not None else ""
