"""The Keep run's board view: the three levels as text, a players summary, and event wording.

Imports only `domain`; reads nothing but the state (or event) it is given and the content files.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from domain.rulesets.keep.content import (
    LEVEL_SIZE,
    TILE,
    load_board,
    load_deck,
    load_spells,
    load_vault,
)
from domain.rulesets.keep.spaces import SENTRY
from domain.rulesets.keep.state import (
    BOARD,
    COUNTERS,
    KEEP_DECK,
    SPELL_DECK,
    VAULT_DECK,
    Choice,
    KeepSheet,
    KeepState,
    sheet_in,
)
from domain.rulesets.keep.vault import items_in_play
from domain.rulesets.talisman.characters import load_characters, resolve_character
from domain.rulesets.talisman.shapes import discard_pile
from projections.talisman_sheet import sheet_cells, sheet_summary, waiting_row
from projections.text_layout import fit, table_lines, wrap
from projections.views import STOPPED_HEAD

State = KeepState

WIDTH = 110  # no line of the full layout is wider; given less room, render_board picks a compact one
TILE_WIDTH = len("blank tile")
HOARD = "keep/hoard"
_FIXED_NAMES = {SENTRY: "Sentry", HOARD: "Treasure Hoard"}
DECK_NAMES = {"keep": "Keep deck", "vault": "Vault deck", "spells": "Spell deck"}


# --- names --------------------------------------------------------------------------------------------------


def space_name(number: int) -> str:
    """Returns a Keep space's name (`Sentry`), or `space N` for a number off the board."""
    board = load_board()
    return board.space(number).name if 1 <= number <= board.last else f"space {number}"


def where(number: int) -> str:
    return f"the {space_name(number)} ({number})"


def _space_by_ref(ref: str) -> str:
    # Reasons name a space by id (`keep/space/ancient-coffin`) or by kind (`keep/space/tome`).
    tail = ref.rsplit("/", 1)[-1]
    return next((s.name for s in load_board().spaces if s.id == ref or s.kind == tail), "")


def _counter_name(ref: str) -> str:
    tail, counters = ref.rsplit("/", 1)[-1], load_board().counters
    return f"Teleport counter {counters[int(tail)]}" if tail.isdigit() and int(tail) < len(counters) else ""


def _card_name(ref: str) -> str:
    card = items_in_play().cards.get(ref)
    return card.name if card else ""


_LOOKUPS: dict[str, Callable[[str], str]] = {
    "card": _card_name,
    "item": _card_name,
    "vault": lambda ref: getattr(load_vault().get(ref), "name", ""),
    "spell": lambda ref: getattr(load_spells().get(ref), "name", ""),
    "space": _space_by_ref,
    "counter": _counter_name,
    "character": lambda ref: getattr(load_characters().get(ref), "name", ""),
}


def name_of(ref: str) -> str:
    """Returns the name behind an id the Keep records (card, Vault card, spell, space…); a player as is."""
    if "/" not in ref:
        return ref
    parts = ref.split("/")
    lookup = _LOOKUPS.get(parts[1]) if len(parts) == 3 else None
    found = _FIXED_NAMES.get(ref) or (lookup(ref) if lookup else "")
    return found or parts[-1].replace("-", " ")


def who(ref: str) -> str:
    return f"the {name_of(ref)}" if "/" in ref else ref


# --- the board ----------------------------------------------------------------------------------------------


def _marks(sheet: KeepSheet) -> list[str]:
    marks = []
    if sheet["status"] == "winner":
        marks.append("won")
    if not sheet["entered"]:
        marks.append("outside")
    if sheet["looping"]:
        marks.append("looping")
    if sheet["obelisk"]:
        marks.append("held")
    if sheet["fleeing"]:
        marks.append("fleeing")
    return marks


def _standing(state: State) -> dict[int, list[str]]:
    here: dict[int, list[str]] = {}
    for name in state["order"]:
        if name not in state["players"]:
            continue
        sheet = sheet_in(state, name)
        if sheet["status"] != "out":
            marks = _marks(sheet)
            here.setdefault(sheet["space"], []).append(f"{name} ({', '.join(marks)})" if marks else name)
    return here


def tile_mark(state: State, number: int) -> str:
    """Returns `tile→N` for a space whose Teleport Tile sends to N, `blank tile` for one with no counter."""
    if state["tiles"][number]:
        return f"tile→{state['tiles'][number]}"
    cards = load_deck().cards
    lying = state["cards"][BOARD][number]
    return "blank tile" if any(c in cards and cards[c].kind == TILE for c in lying) else ""


def face_up(state: State, number: int) -> list[str]:
    """Returns the names of what lies face up on a space (its tile is shown apart), gold last."""
    deck = load_deck().cards
    names = [name_of(c) for c in state["cards"][BOARD][number] if c not in deck or deck[c].kind != TILE]
    gold = state["gold"][BOARD][number]
    return names + ([f"{gold} gold"] if gold else [])


def _space_lines(
    state: State, number: int, standing: list[str], name_width: int, width: int = WIDTH
) -> list[str]:
    """Returns one space's line (number, name, tile, who stands there, what lies face up), wrapped."""
    tile = tile_mark(state, number)
    tile_width = TILE_WIDTH if name_width else 0
    prefix = f"{number:>4}  {space_name(number):<{name_width}}  {tile:<{tile_width}}  "
    prefix = prefix if name_width else prefix.replace("    ", "  ")
    lying = face_up(state, number)
    parts = [", ".join(standing)] + ([f"face up: {', '.join(lying)}"] if lying else [])
    wrapped = textwrap.wrap(" · ".join(p for p in parts if p), width - len(prefix)) or [""]
    return [(prefix + wrapped[0]).rstrip(), *(" " * len(prefix) + more for more in wrapped[1:])]


def _is_bare(state: State, number: int, here: dict[int, list[str]]) -> bool:
    return number not in here and not tile_mark(state, number) and not face_up(state, number)


def _level_rows(state: State, width: int = WIDTH, bare: bool = True) -> list[str]:
    """Returns each level's spaces, one a line; without `bare`, only the spaces with something on them."""
    board = load_board()
    here = _standing(state)
    name_width = max(len(space.name) for space in board.spaces) if bare else 0
    rows: list[str] = []
    for level in range(1, board.last // LEVEL_SIZE + 1):
        first, last = (level - 1) * LEVEL_SIZE + 1, level * LEVEL_SIZE
        numbers = [n for n in range(first, last + 1) if bare or not _is_bare(state, n, here)]
        hidden = f"; {last - first + 1 - len(numbers)} empty not shown" if numbers else "; empty"
        shown = "" if bare else hidden
        rows.append(f"Level {level} (spaces {first}-{last}{shown})")
        for number in numbers:
            rows.extend(_space_lines(state, number, here.get(number, []), name_width, width))
    return rows


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def status_words(sheet: KeepSheet) -> str:
    """Returns where a character stands in the run: outside, looping, at Obelisk, fleeing, in play, out…"""
    if sheet["status"] != "playing":
        return sheet["status"]
    for held, words in (
        (sheet["looping"], "looping"),
        (sheet["obelisk"], "at Obelisk"),
        (sheet["fleeing"], "fleeing"),
    ):
        if held:
            return words
    return "in play" if sheet["entered"] else "outside"


def requested_name(state: State, player: str) -> str:
    """Returns the name of the character a seat asked for before the deal ("" if none)."""
    wanted = str(state["requested"].get(player, "") or "")
    return name_of(resolve_character(wanted)) if wanted else ""


SHEET_HEADERS = ["player", "character", "space", "strength", "craft", "lives", "gold", "talisman", "status"]


def _sheet_rows(state: State, width: int = 0) -> list[str]:
    """Returns the sheets as aligned columns (given a `width`, as a table that fits it)."""
    cards = items_in_play().cards
    rows = [SHEET_HEADERS]
    for name in state["order"]:
        if name not in state["players"]:
            rows.append([name, requested_name(state, name) or "(to be dealt)", *[""] * 6, "waiting"])
            continue
        sheet = sheet_in(state, name)
        talisman = "yes" if sheet["talisman"] else "-"
        rows.append([*sheet_cells(name, sheet, name_of, cards), talisman, status_words(sheet)])
    if width:
        headers = ["player", "character", "sp", "str", "craft", "lives", "gold", "tal", "status"]
        return table_lines(headers, rows[1:], width)
    return _table(rows)


def _carried_rows(state: State, width: int = WIDTH) -> list[str]:
    rows = []
    for name in state["order"]:
        if name not in state["players"]:
            continue
        sheet = sheet_in(state, name)
        held = [
            f"{label}: {', '.join(name_of(c) for c in cards)}"
            for label, cards in (
                ("objects", sheet["objects"]),
                ("followers", sheet["followers"]),
                ("spells", sheet["spells"]),
                ("trophies", sheet["trophies"]),
            )
            if cards
        ]
        text = f"{name} carries " + ("; ".join(held) if held else "nothing") + "."
        rows.extend(wrap(text, width))
    return rows


def _vault_rows(state: State, width: int = WIDTH) -> list[str]:
    piles = state["piles"]
    met = [name_of(c) for c in piles[discard_pile(VAULT_DECK)]]
    left, talismans = len(piles[VAULT_DECK]), state["vault_talismans"]
    notes = [
        f"{left} Vault card{'s' if left != 1 else ''} left" + (f" (met: {', '.join(met)})" if met else "")
    ]
    if talismans:
        notes.append(f"{talismans} Talisman{'s' if talismans != 1 else ''} left on it by the fallen")
    notes.append("the Treasure Hoard is played" if state["hoard"] else "every survivor takes a Talisman")
    return wrap(f"Talisman Vault: {'; '.join(notes)}.", width)


def counts_line(state: State) -> str:
    """Returns the decks' and counters' line under the board's title (the text board and the picture)."""
    counters, piles = len(load_board().counters), state["piles"]
    keep, spells = (KEEP_DECK, discard_pile(KEEP_DECK)), (SPELL_DECK, discard_pile(SPELL_DECK))
    return (
        f"Keep deck: {len(piles[keep[0]])} left, {len(piles[keep[1]])} discarded. "
        f"Spells: {len(piles[spells[0]])} left, {len(piles[spells[1]])} discarded. "
        f"Teleport counters: {len(piles[COUNTERS])} of {counters} left."
    )


def head_line(state: State, stopped: bool) -> str:
    """Returns who is to act (or must choose), the winner or why nobody acts (the text board and the
    picture say the same)."""
    if stopped:
        return STOPPED_HEAD
    if state["phase"] == "over":
        return f"Game over: {state['winner']} won." if state["winner"] else "Game over: nobody won."
    if state["phase"] == "setup":
        return "Waiting for the host to deal characters."
    choice = state["choice"]
    if choice:
        return _pending(state, choice)
    return f"{state['turn']} to act."


_CHOICES = {"sentry-toll": "pay the Sentry", "tome-gift": "choose the Tome's gift"}


def _pending(state: State, choice: Choice) -> str:
    """Says who must make a pending choice and its options (Keep 8.2–8.4: Sentry, Tome, Wizard)."""
    kind = choice["kind"]
    if kind == "wizard-target":
        what = f"aim the Vampire Wizard's {name_of(state['wizard'].get('spell', 'spell'))}"
    else:
        what = _CHOICES.get(kind, "choose")
    words = [_option_words(kind, option) for option in choice["options"]]
    listed = ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)
    return f"{choice['player']} must {what}: {listed}."


def _option_words(kind: str, option: str) -> str:
    if kind == "tome-gift":
        return f"+2 {option.capitalize()}"
    if option in ("life", "discard"):
        return "a life" if option == "life" else "discard it"
    return name_of(option)


TITLE = "The Vampire's Keep (Keep run)"


def decision_lines(state: State, width: int) -> list[str]:
    """Returns who is to act or choose, and from what, and the sheets: what a player deciding needs on
    screen whatever else of the board is cut."""
    return [*wrap(f"{TITLE}: {head_line(state, False)}", width), *_sheet_rows(state, width)]


def render_board(
    state: State,
    stopped: bool = False,
    width: int | None = None,
    height: int | None = None,
    apart: bool = False,
) -> str:
    """Renders the three levels (tiles, characters, face-up cards), the sheets and the Vault as text no
    wider than `width` (a game stopped by an early reveal has nobody to act; `apart`: without the
    `decision_lines`)."""
    title, head = TITLE, head_line(state, stopped)
    if apart:

        def board(width: int) -> list[str]:
            levels, vault = _level_rows(state, width, bare=False), _vault_rows(state, width)
            return [*wrap(counts_line(state), width), *levels, *vault, *_carried_rows(state, width)]

        return fit([board], width, height)

    def full(width: int) -> list[str]:
        return [
            title, *wrap(head, width), counts_line(state), "", *_level_rows(state), *_vault_rows(state), "",
            *_sheet_rows(state), *_carried_rows(state),
        ]  # fmt: skip

    def compact(width: int, tight: bool = False) -> list[str]:
        carried = _carried_rows(state, width)
        levels = _level_rows(state, width, bare=False)
        if tight:  # neither an empty level nor who carries nothing has a line of its own
            carried = [line for line in carried if not line.endswith(" carries nothing.")]
            levels = [line for line in levels if not line.endswith("; empty)")]
        return [
            *wrap(f"{title}: {head}", width), *wrap(counts_line(state), width),
            *levels, *_vault_rows(state, width),
            *_sheet_rows(state, width), *carried,
        ]  # fmt: skip

    def tight(width: int) -> list[str]:
        return compact(width, tight=True)

    return fit([full, compact, tight], width, height)


# --- players summary ----------------------------------------------------------------------------------------


def _summary_status(sheet: KeepSheet) -> str:
    # The same words as every board view's summary: in play, fleeing, out, winner (waiting before the deal).
    if sheet["status"] == "playing":
        return "fleeing" if sheet["fleeing"] else "in play"
    return sheet["status"]


def _waiting_row(state: State, name: str) -> dict[str, Any]:
    own = {"entered": False, "talisman": False, "looping": False, "obelisk": False, "spells": []}
    return waiting_row(name, requested_name(state, name), 1, space_name(1), **own)


def players_summary(state: State) -> list[dict[str, Any]]:
    """Returns one JSON-native dict per seat: the shared fields plus the Keep's (entered, talisman, …)."""
    cards = items_in_play().cards
    rows: list[dict[str, Any]] = []
    for name in state["order"]:
        if name not in state["players"]:
            rows.append(_waiting_row(state, name))
            continue
        sheet = sheet_in(state, name)
        rows.append(
            {
                **sheet_summary(name, sheet, cards, name_of, name_of, space_name, _summary_status(sheet)),
                "entered": sheet["entered"],
                "talisman": sheet["talisman"],
                "looping": sheet["looping"],
                "obelisk": sheet["obelisk"],
                "spells": [name_of(s) for s in sheet["spells"]],
            }
        )
    return rows
